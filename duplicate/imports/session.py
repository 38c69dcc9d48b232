"""A bridge session's travellers as the toolkit's results table.

Each traveller line (one board played by an NS pair against an EW pair) gives two
results: the NS pair's score and the EW pair's, its negation. A session is one round.
In a two-winner movement (Mitchell) North-South and East-West pairs are ranked apart:
their direction is their section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import islice
from typing import Literal

import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.limits import MAX_SESSION_PROBLEMS, MAX_SESSION_RESULTS

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


def results_table(
    lines: list[TravellerLine], source: str, round_number: int = 1, winners: Winners = "auto"
) -> tuple[pd.DataFrame, str]:
    """The results table of the travellers, and a note saying how winners were chosen.

    "auto": two winners when no pair number sits in both directions (a Mitchell),
    else one (a Howell).
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
        }
    )
    both = set(frame["ns"]) & set(frame["ew"])
    two = winners == "two" or (winners == "auto" and not both)
    note = (
        "two winners: North-South and East-West pairs ranked apart"
        if two
        else "one winner: every pair ranked together"
    )
    if winners == "auto":
        note += " (chosen from the pair numbers; choose one or two winners to say otherwise)"

    def direction(seat: str, pair: str, score: pd.Series) -> pd.DataFrame:
        section = frame["section"]
        if two:
            section = (section + " " + seat).str.strip()
        return pd.DataFrame(
            {
                "section": section,
                "round": round_number,
                "deal": frame["board"],
                "seat": seat,
                "player": frame[pair],
                "score": score,
                "line": frame["line"],
            }
        )

    table = pd.concat(
        [direction("NS", "ns", frame["score"]), direction("EW", "ew", -frame["score"])],
        ignore_index=True,
    )
    _refuse_repeats(table, source)
    table = table.sort_values(["section", "deal", "seat", "player"], kind="stable", key=_natural)
    return table[list(RESULT_COLUMNS)].reset_index(drop=True), note


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
        return column.str.zfill(12)
    return column
