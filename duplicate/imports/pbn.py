"""PBN (Portable Bridge Notation 2.1) files with a results table.

A game is a run of tag pairs such as `[Board "3"]`; a `[ScoreTable "..."]` tag names the
columns (`PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;...;Score_NS\\6R;Score_EW\\6R`) and the
lines after it, up to a blank line or the next tag, are the board's results. A tag value
of "#" repeats the previous game's. Comments (`;` to the end of a line, `{...}`) and
`%` directives are skipped. Only what scoring needs is read: the board, the section,
the pair numbers and the score; a score given for one side only is the other's
negation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from duplicate.errors import InvalidData, Problem
from duplicate.imports.session import TravellerLine

_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"(.*)"\s*\]\s*$')
_TOKEN = re.compile(r'"[^"]*"|\S+')
_SCORE = re.compile(r"[+-]?[0-9]{1,6}")
_FIX_SCORE = (
    "give a score in points (420, -50); an artificial score (A60, 40%) is left out here "
    "and given as an adjustment (kind mp_pct or avg_plus)"
)


@dataclass
class _Game:
    tags: dict[str, str] = field(default_factory=dict)
    columns: list[str] | None = None


def read_pbn(text: str, source: str) -> list[TravellerLine]:
    """Every result line of every board's results table, in file order."""
    lines: list[TravellerLine] = []
    problems: list[Problem] = []
    game, previous = _Game(), _Game()
    in_comment = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
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
            _tag(line, number, game, previous, source, problems)
            continue
        if game.columns is None:
            continue  # an auction, a play record or a note: not needed to score
        found = _result(line, number, game, source, problems)
        if found is not None:
            lines.append(found)
    if not lines and not problems:
        problems.append(
            Problem(
                source,
                "holds no results table ([ScoreTable] with its lines)",
                hint="export the PBN file with its results (travellers)",
                code="session.no-results",
            )
        )
    if problems:
        raise InvalidData(problems)
    return lines


def _tag(
    line: str, number: int, game: _Game, previous: _Game, source: str, problems: list[Problem]
) -> None:
    tag = _TAG.match(line)
    if tag is None:
        problems.append(
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
    game.tags[name] = value
    game.columns = None
    if name == "ScoreTable":
        game.columns = [column.split("\\")[0].strip() for column in value.split(";")]
        missing = [c for c in ("PairId_NS", "PairId_EW") if c not in game.columns]
        if not {"Score_NS", "Score_EW"} & set(game.columns):
            missing.append("Score_NS or Score_EW")
        if missing:
            problems.append(
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


def _result(
    line: str, number: int, game: _Game, source: str, problems: list[Problem]
) -> TravellerLine | None:
    columns = game.columns or []
    values = [token.strip('"') for token in _TOKEN.findall(line)]
    if len(values) != len(columns):
        problems.append(
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
    board = game.tags.get("Board", "").strip()
    if not board:
        problems.append(
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
    ns_score = _ns_score(row)
    if ns_score is None:
        shown = f"{row.get('Score_NS', '-')}/{row.get('Score_EW', '-')}"
        problems.append(
            Problem(
                source,
                f"score {shown!r} is not a score",
                (number,),
                "Score_NS",
                _FIX_SCORE,
                position="line",
                code="cell.not-a-score",
            )
        )
        return None
    return TravellerLine(
        section=game.tags.get("Section", "").strip(),
        board=board,
        ns_pair=row["PairId_NS"],
        ew_pair=row["PairId_EW"],
        ns_score=ns_score,
        line=number,
    )


def _ns_score(row: dict[str, str]) -> int | None:
    """North-South's score: Score_NS, or the negation of Score_EW; None if neither is
    a plain number."""
    ns, ew = row.get("Score_NS", "-"), row.get("Score_EW", "-")
    ns_given, ew_given = bool(_SCORE.fullmatch(ns)), bool(_SCORE.fullmatch(ew))
    if ns_given and ew_given:
        # Both sides given: they must agree.
        return int(ns) if int(ns) == -int(ew) else None
    if ns_given and ew in ("-", ""):
        return int(ns)
    if ew_given and ns in ("-", ""):
        return -int(ew)
    return None
