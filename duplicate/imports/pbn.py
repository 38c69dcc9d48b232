"""PBN (Portable Bridge Notation 2.1) files with a results table.

A game is a run of tag pairs such as `[Board "3"]`; a `[ScoreTable "..."]` tag names the
columns (`PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;...;Score_NS\\6R;Score_EW\\6R`) and the
lines after it, up to a blank line or the next tag, are the board's results. A tag value
of "#" repeats the previous game's. Comments (`;` to the end of a line, `{...}`) and
`%` directives are skipped. What scoring needs is read: the board, the section,
the pair numbers and the score; a score given for one side only is the other's
negation. The table, contract, declarer, lead and result columns are kept as written,
to be shown, never scored. A column named twice in a results table, or a tag read here (Board,
Section, ScoreTable) given twice in one game, is refused: either could be meant.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from duplicate.errors import Problem
from duplicate.imports.session import (
    Findings,
    SessionInfo,
    TravellerLine,
    artificial,
    not_a_score,
    not_played,
    play_of,
    points,
)

_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"(.*)"\s*\]\s*$')
_TOKEN = re.compile(r'"[^"]*"|\S+')
# The tags that say what the session is, read from the first game that gives them.
_INFO_TAGS = {
    "Event": "title",
    "EventDate": "date",
    "Date": "date",
    "Scoring": "scoring",
    "Generator": "program",
    "Application": "program",
    "Competition": "competition",
}
# The tags read: each is given once in a game.
_READ_TAGS = ("Board", "Section", "ScoreTable")
# The results table's columns that say what was played, by the name the toolkit gives
# them (duplicate.model.columns.PLAY_COLUMNS).
_PLAY = {"Table": "at_table", "Contract": "contract", "Declarer": "declarer"}
_PLAY |= {"Lead": "lead", "Result": "result"}
_FIX_SCORE = (
    "give a score in points (420, -50), or an artificial score (A5050, A6040, A60, 60%, A+, A-)"
)


@dataclass
class _Game:
    tags: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # where each tag was given
    columns: list[str] | None = None


def read_pbn(text: str, source: str, info: SessionInfo | None = None) -> list[TravellerLine]:
    """Every result line of every board's results table, in file order; what the file
    says of the session goes into `info`."""
    info = info if info is not None else SessionInfo()
    lines: list[TravellerLine] = []
    found = Findings(source)
    game, previous = _Game(), _Game()
    in_comment = False
    # Line ends as a text editor counts them (CR LF, LF or CR), a line at a time: a
    # file of millions of lines is never held as a list of them.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    start, number = 0, 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line, start, number = text[start:end].strip(), end + 1, number + 1
        if found.full:
            found.stopped(number - 1, text.count("\n") + (not text.endswith("\n")))
            break
        if in_comment:
            in_comment = "}" not in line
            continue
        if line.startswith("{"):
            in_comment = "}" not in line
            continue
        if line.startswith((";", "%")):
            continue
        if not line:
            if game.tags:
                previous, game = game, _Game()
            continue
        if line.startswith("["):
            _tag(line, number, game, previous, found)
            _info(game, info)
            continue
        if game.columns is None:
            continue  # an auction, a play record or a note: not needed to score
        result = _result(line, number, game, found, info)
        if result is not None:
            lines.append(result)
            found.count(lines, number)
    if not lines and not found.problems:
        found.add(
            Problem(
                source,
                "holds no results table ([ScoreTable] with its lines)",
                hint="export the PBN file with its results (travellers)",
                code="session.no-results",
            )
        )
    found.raise_any()
    return lines


def _tag(line: str, number: int, game: _Game, previous: _Game, found: Findings) -> None:
    source = found.source
    tag = _TAG.match(line)
    if tag is None:
        found.add(
            Problem(
                source,
                f"{line[:40]!r} is not a tag pair",
                (number,),
                hint='a tag reads [Name "value"]',
                position="line",
                code="session.bad-line",
            )
        )
        return
    name, value = tag.groups()
    if value == "#":
        value = previous.tags.get(name, "")
    if name in _READ_TAGS and name in game.tags:
        found.add(
            Problem(
                source,
                f"[{name}] is given twice in one game",
                (game.lines[name], number),
                hint="keep one; a blank line starts the next game",
                position="line",
                code="session.repeated-element",
            )
        )
    game.tags[name] = value
    game.lines[name] = number
    game.columns = None
    if name == "ScoreTable":
        game.columns = [column.split("\\")[0].strip() for column in value.split(";")]
        twice = sorted(c for c, n in Counter(game.columns).items() if n > 1)
        if twice:
            found.add(
                Problem(
                    source,
                    f"the results table names the column{'s' if len(twice) > 1 else ''} "
                    f"{', '.join(twice)} twice",
                    (number,),
                    hint="export the results again; a column is named once",
                    position="line",
                    code="column.repeated",
                )
            )
            game.columns = None
            return
        missing = [c for c in ("PairId_NS", "PairId_EW") if c not in game.columns]
        if not {"Score_NS", "Score_EW"} & set(game.columns):
            missing.append("Score_NS or Score_EW")
        if missing:
            found.add(
                Problem(
                    source,
                    f"the results table has no {', '.join(missing)} column",
                    (number,),
                    hint="export the results with pair numbers and scores",
                    position="line",
                    code="column.missing",
                )
            )
            game.columns = None


def _info(game: _Game, info: SessionInfo) -> None:
    """The session's title, date, scoring, program and kind of competition: the first
    game's that gives each."""
    for tag, name in _INFO_TAGS.items():
        value = game.tags.get(tag, "").strip()
        if not value or value == "#" or str(getattr(info, name)):
            continue
        if name == "date":
            date = re.fullmatch(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})", value)
            if date is None:
                continue
            value = "-".join(date.groups())
        if name == "competition":
            info.competition = value
            continue
        setattr(info, name, value)


def _result(
    line: str, number: int, game: _Game, found: Findings, info: SessionInfo
) -> TravellerLine | None:
    source = found.source
    columns = game.columns or []
    values = [token.strip('"') for token in _TOKEN.findall(line)]
    if len(values) != len(columns):
        found.add(
            Problem(
                source,
                f"{len(values)} values where the results table has {len(columns)} columns",
                (number,),
                hint="quote a value that holds spaces; give '-' for an empty one",
                position="line",
                code="session.bad-line",
            )
        )
        return None
    row = dict(zip(columns, values, strict=True))
    if _bye(row):
        return None  # a pair sitting out (Ruter writes its line "Bye"): no result
    board = game.tags.get("Board", "").strip()
    if not board:
        found.add(
            Problem(
                source,
                "a result before any [Board] tag",
                (number,),
                hint='give the board first: [Board "1"]',
                position="line",
                code="session.no-board",
            )
        )
        return None
    if not_played(row.get("Score_NS", "-"), row.get("Score_EW", "-")):
        info.not_played.append((board, number))
        return None  # not played at this table: no result for either pair
    ns_score = _ns_score(row)
    given = artificial(row.get("Score_NS", "-"), row.get("Score_EW", "-"))
    if ns_score is None and given is None:
        ns, ew = row.get("Score_NS", "-"), row.get("Score_EW", "-")
        shown = f"score {f'{ns}/{ew}'!r}"
        found.add(
            not_a_score(source, shown, (ns, ew), number, "Score_NS", "is not a score", _FIX_SCORE)
        )
        return None
    # A Section column's "-" is PBN's empty value: the game's [Section] tag, if any.
    section = row.get("Section", "-").strip()
    if section in ("-", ""):
        section = game.tags.get("Section", "").strip()
    for side in ("NS", "EW"):
        name = row.get(f"Names_{side}", "").strip()
        if name and name != "-":
            info.names.setdefault((section, row[f"PairId_{side}"]), name)
    return TravellerLine(
        section=section,
        board=board,
        ns_pair=row["PairId_NS"],
        ew_pair=row["PairId_EW"],
        ns_score=ns_score or 0,
        line=number,
        round=row.get("Round", ""),
        artificial=given,
        play=play_of({name: row[column] for column, name in _PLAY.items() if column in row}),
    )


def _bye(row: dict[str, str]) -> bool:
    """A line of a pair that sat the board out: one pair number is "-" and the scores
    say "Bye"."""
    pairs = (row.get("PairId_NS", "-").strip(), row.get("PairId_EW", "-").strip())
    scores = {row.get(column, "-").strip().casefold() for column in ("Score_NS", "Score_EW")}
    return "-" in pairs and "bye" in scores


def _ns_score(row: dict[str, str]) -> int | None:
    """North-South's score: Score_NS, or the negation of Score_EW; None if neither is
    a plain number."""
    ns, ew = row.get("Score_NS", "-"), row.get("Score_EW", "-")
    ns_points, ew_points = points(ns), points(ew)
    if ns_points is not None and ew_points is not None:
        # Both sides given: they must agree.
        return ns_points if ns_points == -ew_points else None
    if ns_points is not None and ew in ("-", ""):
        return ns_points
    if ew_points is not None and ns in ("-", ""):
        return -ew_points
    return None
