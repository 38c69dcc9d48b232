"""A bridge session's travellers as the toolkit's results table.

Each traveller line (one board played by an NS pair against an EW pair) gives two
results: the NS pair's score and the EW pair's, its negation. A session in which every
pair keeps its direction is one round. When pairs change direction (a Howell), a session
is rounds: the file's own round numbers when it gives them, else each meeting of two
pairs (the boards they played together) is put in the first round in which neither pair
has played, in board order, so that a pair plays once a round and keeps one direction
in it. In a two-winner movement (Mitchell)
North-South and East-West pairs are ranked apart: their direction is their section.

An artificial score (A5050, A60, A+, 40%) keeps its line as a result of 0 points and
becomes an adjustment of that result (duplicate.model.adjustments): an assigned
percentage, or average plus or minus. A board not played at a table (its score "NP", or
none) is no result for either pair, as a sit-out is: the session's rules factor the
board over the results it has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Literal

import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.limits import MAX_SESSION_PROBLEMS, MAX_SESSION_RESULTS
from duplicate.model.columns import PLAY_COLUMNS
from duplicate.text import natural

if TYPE_CHECKING:
    from duplicate.event import EventInfo

RESULT_COLUMNS = ("section", "round", "deal", "seat", "player", "score")
Winners = Literal["auto", "one", "two"]


@dataclass(frozen=True)
class TravellerLine:
    """One board's result at one table, as the file gives it."""

    section: str
    board: str
    ns_pair: str
    ew_pair: str
    ns_score: int
    line: int  # where the file gives it, for messages
    round: str = ""  # the file's round number, if it gives one
    # An artificial score: what each side was given, as the file writes it.
    artificial: tuple[str, str] | None = None
    # What the file says of the play (PLAY_COLUMNS: table, contract, declarer, lead,
    # result), as written; a column the file leaves empty is not here.
    play: dict[str, str] = field(default_factory=dict, hash=False)


def play_of(given: dict[str, str]) -> dict[str, str]:
    """The play columns of a line, by name, from the values a file gives under them:
    a value left empty ("" or "-") is none."""
    return {
        name: value.strip()
        for name, value in given.items()
        if name in PLAY_COLUMNS and value.strip() not in ("", "-")
    }


@dataclass
class SessionInfo:
    """What a session file says of itself, beside its travellers."""

    title: str = ""
    date: str = ""  # YYYY-MM-DD when the file gives a whole date
    # "one" or "two" when the file says how many winners; "" when it does not.
    winners: str = ""
    # The scoring the file names (PBN [Scoring], USEBIO BOARD_SCORING_METHOD), as written.
    scoring: str = ""
    program: str = ""  # the program that wrote it
    # What the file says was played: pairs, an individual, teams (PBN [Competition],
    # USEBIO EVENT_TYPE), as written.
    competition: str = ""
    # Player names by pair id (and section), as the file gives them.
    names: dict[tuple[str, str], str] = field(default_factory=dict)
    # The file's sections were matchpointed as one field: its published tops are
    # higher than any one section's results could give.
    one_field: bool = False
    # The lines that say a board was not played (board, line): no results.
    not_played: list[tuple[str, int]] = field(default_factory=list)

    def event_info(self) -> EventInfo | None:
        """What the file says of the event (title, date), as an event folder says it;
        None when it says neither."""
        from duplicate.event import EventInfo

        if not (self.title or self.date):
            return None
        return EventInfo(self.title, self.date, SESSION_GAME, SESSION_TABLE_SIZE)


# A bridge session as an event folder holds it: its game ("other": bridge is scored
# from its results, not from raw outcomes) and its tables of two pairs.
SESSION_GAME = "other"
SESSION_TABLE_SIZE = 2


# A score in points: a whole number, written with a zero fraction by some programs
# (salliere writes 430.0); a real fraction is no score in points.
_POINTS = re.compile(r"([+-]?[0-9]{1,6})(?:\.0+)?")
_FRACTION = re.compile(r"[+-]?[0-9]{1,6}\.[0-9]+")
# Artificial scores: A5050 or A6040 (each side's percent), A60 or 60% (this side's),
# A+ / A- / A= (average plus, minus, average) for one side, A+- for both.
_SPLIT = re.compile(r"A([0-9]{2})([0-9]{2})")
_ONE = re.compile(r"A([0-9]{1,3})|([0-9]{1,3})%")
_AVERAGES = re.compile(r"A([+=-])([+=-])?")


def points(text: str) -> int | None:
    """A score in points as bridge programs write it (`420`, `-50`, `430.0`); None
    when it is not one."""
    found = _POINTS.fullmatch(text.strip())
    return int(found.group(1)) if found else None


def has_fraction(text: str) -> bool:
    """A number of points with a real fraction (`42.5`): no bridge score."""
    return bool(_FRACTION.fullmatch(text.strip()))


def not_a_score(
    source: str,
    named: str,
    given: tuple[str, ...],
    line: int,
    column: str,
    otherwise: str,
    fix: str,
) -> Problem:
    """The problem of a line whose score (`given`, `named` so in the message) is
    neither points nor an artificial score: one with a fraction says so; any other is
    said `otherwise`, with `fix`."""
    fraction = any(has_fraction(value) for value in given)
    return Problem(
        source,
        f"{named} has a fraction: a bridge score is a whole number of points"
        if fraction
        else f"{named} {otherwise}",
        (line,),
        column,
        "give the score in whole points (430, or 430.0 as some programs write it)"
        if fraction
        else fix,
        position="line",
        code="cell.not-a-score",
    )


def not_played(*scores: str) -> bool:
    """Scores that say a board was not played at a table: "NP", or none ("-") for each
    side."""
    given = {score.strip().strip('"').casefold() for score in scores}
    return bool(given) and given <= {"np", "-", ""}


def not_played_warning(info: SessionInfo, source: str) -> Problem | None:
    """The warning that names the lines of boards not played (left out, no results)."""
    if not info.not_played:
        return None
    boards = sorted({board for board, _ in info.not_played}, key=natural)
    count = len(info.not_played)
    return Problem(
        source,
        f"{count} line{'s say' if count != 1 else ' says'} a board was not played (board"
        f"{'s' if len(boards) != 1 else ''} {', '.join(boards)}): no result for either "
        "pair; a board played fewer times is factored as the rules say",
        tuple(line for _, line in info.not_played),
        hint="give the score if the board was played",
        position="line",
        code="session.not-played",
    )


def artificial(ns: str, ew: str) -> tuple[str, str] | None:
    """Each side's artificial score ("mp_pct 60", "avg_plus", ...) from the two values
    a line gives (one may be "-"), or None when they are not artificial scores."""
    ns_side, ew_side = _artificial_side(ns), _artificial_side(ew)
    if ns_side is None and ew_side is None:
        return None
    for side, other in ((ns_side, ew), (ew_side, ns)):
        if isinstance(side, tuple):
            # Both sides' shares in one value: the other value is empty or the same.
            empty = other.strip().strip('"') in ("-", "")
            return side if empty or _artificial_side(other) == side else None
    if ns_side is None:
        if ns.strip().strip('"') not in ("-", ""):
            return None
        ns_side = _other(str(ew_side))
    if ew_side is None:
        if ew.strip().strip('"') not in ("-", ""):
            return None
        ew_side = _other(str(ns_side))
    return str(ns_side), str(ew_side)


def _artificial_side(text: str) -> str | tuple[str, str] | None:
    value = text.strip().strip('"').upper()
    split = _SPLIT.fullmatch(value)
    if split:
        return (f"mp_pct {int(split.group(1))}", f"mp_pct {int(split.group(2))}")
    one = _ONE.fullmatch(value)
    if one:
        percent = int(one.group(1) or one.group(2))
        return f"mp_pct {percent}" if percent <= 100 else None
    averages = _AVERAGES.fullmatch(value)
    if averages:
        kinds = {"+": "avg_plus", "-": "avg_minus", "=": "mp_pct 50"}
        if averages.group(2):
            return (kinds[averages.group(1)], kinds[averages.group(2)])
        return kinds[averages.group(1)]
    return None


def _other(side: str) -> str:
    """The other side's share of a score given for one side only."""
    if side.startswith("mp_pct "):
        return f"mp_pct {100 - int(side.split()[1])}"
    return {"avg_plus": "avg_minus", "avg_minus": "avg_plus"}[side]


@dataclass
class Findings:
    """The problems of one session file, to MAX_SESSION_PROBLEMS: past it the reader
    stops, and says where."""

    source: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def full(self) -> bool:
        return len(self.problems) >= MAX_SESSION_PROBLEMS

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def stopped(self, line: int, lines: int) -> None:
        """Reading stopped at `line` of the file's `lines`: said first, as the problems
        after it are only counted."""
        rest = max(lines - line, 0)
        self.problems.insert(
            0,
            Problem(
                self.source,
                f"reading stopped after {len(self.problems):,} problems; the "
                f"{rest:,} line{'s' if rest != 1 else ''} after this one were not read",
                (line,),
                hint="correct the problems listed (is this a session file?) and import again",
                position="line",
                code="session.too-many-problems",
            ),
        )

    def count(self, lines: list[TravellerLine], line: int) -> None:
        """Refuse a file past MAX_SESSION_RESULTS results, at the first one past it."""
        if len(lines) > MAX_SESSION_RESULTS:
            raise InvalidData(
                [
                    Problem(
                        self.source,
                        f"holds more than {MAX_SESSION_RESULTS:,} results, more than a "
                        "session file is read with",
                        (line,),
                        hint="split the event into sessions",
                        position="line",
                        code="session.too-large",
                    )
                ]
            )

    def raise_any(self) -> None:
        if self.problems:
            raise InvalidData(self.problems)


# A character of two to four bytes as UTF-8 writes it.
_UTF8_CHARACTER = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xef][\x80-\xbf]{2}"
    rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf4][\x80-\xbf]{3}"
)


def refuse_mixed_encoding(data: bytes, source: str) -> None:
    """A file read in a one-byte encoding (ISO-8859-1) that is not UTF-8 throughout but
    holds UTF-8 characters too mixes two encodings: read in either, one part would be
    wrong (the same name spelt two ways, a section split in two)."""
    try:
        data.decode("utf-8")
        return
    except UnicodeDecodeError as error:
        bad = error.start
    found = _UTF8_CHARACTER.search(data)
    if found is None:
        return
    where = (data.count(b"\n", 0, found.start()) + 1, data.count(b"\n", 0, bad) + 1)
    raise InvalidData(
        [
            Problem(
                source,
                f"mixes encodings: line {where[0]} is written in UTF-8, line {where[1]} in "
                "another (ISO-8859-1 or windows-1252)",
                tuple(sorted(set(where))),
                hint="save the whole file in one encoding (UTF-8), or export it again",
                position="line",
                code="session.mixed-encoding",
            )
        ]
    )


def number_id(ids: pd.Series) -> pd.Series:
    """Pair and board numbers as bridge programs mean them: a number written with
    leading zeros is that number (`01` is pair 1); any other id is kept as written."""
    digits = ids.str.fullmatch(r"[0-9]+").fillna(False).astype(bool)
    stripped = ids.str.lstrip("0").mask(lambda s: s == "", "0")
    return ids.mask(digits, stripped)


ADJUSTMENT_COLUMNS = ("round", "deal", "player", "kind", "value", "reason")


@dataclass(frozen=True)
class Converted:
    """A session as the toolkit's tables: its results, the adjustments its artificial
    scores are, how its winners were chosen, and how many rounds it has."""

    table: pd.DataFrame
    adjustments: pd.DataFrame
    note: str
    rounds: int


def results_table(
    lines: list[TravellerLine],
    source: str,
    round_number: int = 1,
    winners: Winners = "auto",
    flat_averages: bool = False,
    told: bool = False,
    one_field: bool = False,
) -> Converted:
    """The results table of the travellers (RESULT_COLUMNS, then the PLAY_COLUMNS the
    file gives, each side's line carrying its table's), its adjustments, and a note
    saying how winners were chosen.

    "auto": two winners when no pair number sits in both directions (a Mitchell),
    else one (a Howell). `flat_averages`: average plus and minus are a flat 60% and 40%
    (as the program that wrote the file gives them), not "60 or the pair's own".
    `told`: the file says how many winners (the note says so). `one_field`: the
    sections were one field, compared and ranked across it (a pair keeps its section
    in its id, A15), by direction when there are two winners.
    """
    if not lines:
        raise InvalidData(
            [
                Problem(
                    source,
                    "holds no results",
                    hint="export the session with its travellers",
                    code="session.no-results",
                )
            ]
        )
    frame = pd.DataFrame(
        {
            "section": [t.section for t in lines],
            "board": number_id(pd.Series([t.board for t in lines], dtype="str")),
            "ns": number_id(pd.Series([t.ns_pair for t in lines], dtype="str")),
            "ew": number_id(pd.Series([t.ew_pair for t in lines], dtype="str")),
            "score": [t.ns_score for t in lines],
            "line": [t.line for t in lines],
            "given_round": [t.round for t in lines],
        }
    )
    # The play columns some line gives, in PLAY_COLUMNS' order (a line without: empty).
    play = [name for name in PLAY_COLUMNS if any(name in t.play for t in lines)]
    for name in play:
        frame[name] = [t.play.get(name, "") for t in lines]
    if frame["section"].nunique() > 1:
        # Pair 1 of section A is not pair 1 of section B: ids are unique across the
        # session, as adjustments and a field of several sections need.
        frame["ns"] = frame["section"] + frame["ns"]
        frame["ew"] = frame["section"] + frame["ew"]
    both = _both_ways(frame)
    two = winners == "two" or (winners == "auto" and not both)
    sections = frame["section"].nunique() > 1
    across = one_field and sections
    where = " of each section" if sections and not across else ""
    if across:
        where = " of every section"
    note = (
        f"two winners: North-South and East-West pairs{where} ranked apart"
        if two
        else f"one winner: every pair{where} ranked together"
    )
    if winners == "auto":
        note += " (chosen from the pair numbers; choose one or two winners to say otherwise)"
    elif told:
        note += " (as the file says)"
    frame["round"] = _rounds(frame, source, round_number, bool(both) and not two)
    rounds = int(frame["round"].nunique())
    if rounds > 1:
        note += f"; {rounds} rounds"
    if across:
        note += "; the sections were one field: compared and ranked across it"

    def direction(seat: str, pair: str, score: pd.Series) -> pd.DataFrame:
        # One field: ranked across the sections (the pair's section is in its id).
        section = pd.Series("", index=frame.index) if across else frame["section"]
        if two:
            section = (section + " " + seat).str.strip()
        return pd.DataFrame(
            {
                "section": section,
                "round": frame["round"],
                "deal": frame["board"],
                "seat": seat,
                "player": frame[pair],
                "score": score,
                "line": frame["line"],
                **{name: frame[name] for name in play},
            }
        )

    table = pd.concat(
        [direction("NS", "ns", frame["score"]), direction("EW", "ew", -frame["score"])],
        ignore_index=True,
    )
    _refuse_repeats(table, source)
    table = table.sort_values(
        ["section", "round", "deal", "seat", "player"], kind="stable", key=_natural
    )
    adjustments = _adjustments(lines, frame, flat_averages)
    columns = [*RESULT_COLUMNS, *play]
    return Converted(table[columns].reset_index(drop=True), adjustments, note, rounds)


def _both_ways(frame: pd.DataFrame) -> set[tuple[str, str]]:
    """The pairs (section, pair) that sit in both directions."""
    ns = set(zip(frame["section"], frame["ns"], strict=True))
    ew = set(zip(frame["section"], frame["ew"], strict=True))
    return ns & ew


def _rounds(frame: pd.DataFrame, source: str, first: int, moving: bool) -> pd.Series:
    """Each line's round. A session in which every pair keeps its direction is one round,
    `first` (its boards are compared as in one round either way); when pairs change
    direction, the file's rounds, else rounds made of the meetings."""
    if not moving:
        return pd.Series(first, index=frame.index)
    given = frame["given_round"].str.strip()
    if (given != "").all():
        bad = ~given.str.fullmatch(r"[0-9]{1,6}").astype(bool) | (given.str.lstrip("0") == "")
        if bad.any():
            raise InvalidData(
                [
                    Problem(
                        source,
                        f"round {value!r} is not a round number",
                        (int(line),),
                        "Round",
                        "give rounds as numbers from 1",
                        position="line",
                        code="session.bad-line",
                    )
                    for value, line in zip(given[bad], frame["line"][bad], strict=True)
                ][:MAX_SESSION_PROBLEMS]
            )
        return given.astype(int)
    # Each meeting (two pairs, each in its direction, in a section) is the boards they
    # played together; in board order, it goes in the first round neither has played.
    meeting = frame["section"] + "\t" + frame["ns"] + "\t" + frame["ew"]
    order = frame.assign(meeting=meeting, board_key=frame["board"].str.zfill(12))
    firsts = order.sort_values(["board_key", "line"]).drop_duplicates("meeting")
    played: dict[tuple[str, str], set[int]] = {}
    round_of: dict[str, int] = {}
    for key, section, ns, ew in zip(
        firsts["meeting"], firsts["section"], firsts["ns"], firsts["ew"], strict=True
    ):
        busy = played.setdefault((section, ns), set()) | played.setdefault((section, ew), set())
        number = first
        while number in busy:
            number += 1
        played[(section, ns)].add(number)
        played[(section, ew)].add(number)
        round_of[key] = number
    return meeting.map(round_of).astype(int)


def _adjustments(
    lines: list[TravellerLine], frame: pd.DataFrame, flat_averages: bool
) -> pd.DataFrame:
    """The adjustments the artificial scores are: one for each side of each line."""
    rows: list[tuple[int, str, str, str, str, str]] = []
    for index, line in enumerate(lines):
        if line.artificial is None:
            continue
        for pair, given in zip(("ns", "ew"), line.artificial, strict=True):
            kind, _, value = given.partition(" ")
            if flat_averages and kind in ("avg_plus", "avg_minus"):
                kind, value = "mp_pct", "60" if kind == "avg_plus" else "40"
            rows.append(
                (
                    int(str(frame["round"].iat[index])),
                    str(frame["board"].iat[index]),
                    str(frame[pair].iat[index]),
                    kind,
                    value,
                    f"artificial score (line {line.line})",
                )
            )
    return pd.DataFrame(rows, columns=list(ADJUSTMENT_COLUMNS)).astype(
        {"round": "int64", "deal": "str", "player": "str", "kind": "str", "value": "str"}
    )


def _refuse_repeats(table: pd.DataFrame, source: str) -> None:
    """A pair that plays one board twice: two lines of the file say so."""
    repeated = table[table.duplicated(["section", "deal", "player"], keep=False)]
    problems = [
        Problem(
            source,
            f"pair {player} plays board {deal} more than once",
            tuple(int(x) for x in group["line"]),
            hint="correct the pair numbers on these lines; in a Mitchell numbered 1.. in "
            "both directions, give {opt:winners=two}",
            position="line",
            code="session.pair-twice",
        )
        for (deal, player), group in islice(
            repeated.groupby(["deal", "player"], sort=True), MAX_SESSION_PROBLEMS
        )
    ]
    if problems:
        raise InvalidData(problems)


def _natural(column: pd.Series) -> pd.Series:
    """Board and pair numbers sort as numbers where they are numbers (2 before 10)."""
    if column.name in ("deal", "player"):
        return column.map(natural)
    if column.name == "round":
        return column.astype("int64")
    return column
