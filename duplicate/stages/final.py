"""A fixed-hand final (定局积分制, docs/scoring.md 8.4): carried points plus every hand."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

from duplicate.errors import InvalidData, OutOfRange, Problem, UsageError
from duplicate.limits import MAX_CARRIED_DIGITS, MAX_LISTED
from duplicate.stages.elimination import equal_result_criteria, hands_of
from duplicate.stages.hand_log import HandLog
from duplicate.stages.order import Criterion, order_rows
from duplicate.stages.stage_rules import FINAL_BASE, Schedule, base_at

FINAL_COLUMNS = ("place", "player", "total", "carried", "hands", "decided_by")
_CARRIED = re.compile(rf"[+-]?[0-9]{{1,{MAX_CARRIED_DIGITS}}}")
# How messages name carried points given as a mapping, not read from a file.
CARRIED = "<carried>"


@dataclass
class Finalist:
    player: str
    carried: int
    total: int = 0
    hands: int = 0
    # The game score of their last hand (the log's `score`): the equal-result rule's.
    last_score: int = 0


def final_standings(
    log: HandLog,
    hands: int,
    carried: dict[str, int] | None = None,
    base: Schedule = FINAL_BASE,
    registered: dict[str, int] | None = None,
    carried_from: str = CARRIED,
) -> pd.DataFrame:
    """Total = carried + the sum of score x base (base 1 a point by default); players
    short of `hands` hands get no place; more hands than that is an error. Every
    player carrying points plays in the log (`carried_from` names where they came
    from)."""
    check_hands(hands)
    carried = carried or {}
    _check_carried(carried, carried_from)
    players: dict[str, Finalist] = {}
    for hand in hands_of(log):
        points_base = base_at(base, hand.minute)
        for seat in hand.seats:
            player = players.setdefault(
                seat.player, Finalist(seat.player, carried.get(seat.player, 0))
            )
            points = seat.score * points_base
            player.total += points
            player.hands += 1
            player.last_score = seat.score
    unknown = sorted(name for name in carried if name not in players)
    if unknown:
        raise InvalidData(
            [
                Problem(
                    carried_from,
                    f"player {name!r} carries {carried[name]} points but plays no hand "
                    f"in {log.source}",
                    column="player",
                    hint="correct the name here or in the log; a qualifier who does not "
                    "play the final: leave their carried empty",
                    code="final.carried-unknown",
                )
                for name in unknown
            ]
        )
    over = [p for p in players.values() if p.hands > hands]
    if over:
        raise InvalidData(
            [
                Problem(
                    log.source,
                    f"player {p.player!r} plays {p.hands} hands, "
                    f"more than the {hands} of the final",
                    column="player",
                    hint="check the log, or give the final's number of hands ({opt:hands})",
                    code="final.too-many-hands",
                )
                for p in sorted(over, key=lambda p: p.player)
            ]
        )
    for player in players.values():
        player.total += player.carried
        if abs(player.total) >= 2**62:
            raise OutOfRange(
                f"player {player.player!r}'s total passes 2**62 points and cannot be held "
                "exactly; check the scores, the base and the carried points",
                "number.out-of-range",
            )
    criteria = [
        # Players short of the hands come last, with no place.
        Criterion("hands", lambda p: p.hands < hands),
        Criterion("total", lambda p: -p.total),
        *equal_result_criteria(lambda p: p.last_score, registered),
    ]
    ordered, places, decided = order_rows(list(players.values()), criteria, lambda p: p.player)
    placed = [p.hands == hands for p in ordered]
    return pd.DataFrame(
        {
            "place": pd.array(
                [place if ok else None for place, ok in zip(places, placed, strict=True)],
                dtype="Int64",
            ),
            "player": pd.Series([p.player for p in ordered], dtype="str"),
            "total": pd.array([p.total for p in ordered], dtype="Int64"),
            "carried": pd.array([p.carried for p in ordered], dtype="Int64"),
            "hands": pd.array([p.hands for p in ordered], dtype="Int64"),
            "decided_by": pd.Series(
                [by if ok else "" for by, ok in zip(decided, placed, strict=True)], dtype="str"
            ),
        }
    )[list(FINAL_COLUMNS)]


def check_hands(hands: int) -> None:
    if hands < 1:
        raise UsageError("a final has at least 1 hand ({opt:hands})", "final.no-hands")


def _check_carried(carried: dict[str, int], source: str) -> None:
    """Carried points given as a mapping: whole numbers of MAX_CARRIED_DIGITS digits."""
    bad = [
        name
        for name, points in carried.items()
        if isinstance(points, bool)
        or not isinstance(points, int)
        or not _CARRIED.fullmatch(str(points))
    ]
    if bad:
        raise InvalidData(
            [
                Problem(
                    source,
                    f"player {name!r} carries {carried[name]!r}, not a whole number of "
                    f"points of at most {MAX_CARRIED_DIGITS} digits",
                    column="carried",
                    hint="give the points carried as a whole number",
                    code="cell.not-a-whole-number",
                )
                for name in bad
            ]
        )


FINAL_HAND_COLUMNS = ("hand", "table", "score", "base", "points")


def final_hands(log: HandLog, player: str, base: Schedule = FINAL_BASE) -> pd.DataFrame:
    """Every hand behind a finalist's total: hand, table, score, base and points."""
    rows = [
        (hand.hand, hand.table, seat.score, base_at(base, hand.minute))
        for hand in hands_of(log)
        for seat in hand.seats
        if seat.player == player
    ]
    table = pd.DataFrame(rows, columns=list(FINAL_HAND_COLUMNS[:-1]))
    table["points"] = table["score"] * table["base"]
    return table.astype({"hand": "str", "table": "str"})


def carried_points(table: pd.DataFrame, source: str) -> dict[str, int]:
    """player -> carried, from a table with player and carried columns (the
    `elimination` output as it is: rows with an empty carried are not finalists)."""
    columns = {str(c).strip().casefold(): c for c in table.columns}
    for name in ("player", "carried"):
        named = [str(c) for c in table.columns if str(c).strip().casefold() == name]
        if len(named) > 1:
            raise InvalidData(
                [
                    Problem(
                        source,
                        f"columns {', '.join(repr(c) for c in named)} all mean '{name}'",
                        hint="keep one of them",
                        code="column.repeated",
                    )
                ]
            )
    if "player" not in columns or "carried" not in columns:
        raise InvalidData(
            [
                Problem(
                    source,
                    "needs the columns player and carried",
                    hint="give the elimination output",
                    code="column.missing",
                )
            ]
        )
    out: dict[str, int] = {}
    rows: dict[str, list[int]] = {}
    problems = []
    more = 0  # bad cells past the first MAX_LISTED, counted
    for i, (player, value) in enumerate(
        zip(table[columns["player"]], table[columns["carried"]], strict=True)
    ):
        name, text = _cell(player), _cell(value)
        if name:
            rows.setdefault(name, []).append(i + 2)
        if text == "":
            continue
        if not name:
            problems.append(
                Problem(
                    source,
                    "empty",
                    (i + 2,),
                    "player",
                    "give the player who carries the points",
                    code="cell.empty",
                )
            )
        elif not _CARRIED.fullmatch(text):
            if len(problems) >= MAX_LISTED:
                more += 1
                continue
            problems.append(
                Problem(
                    source,
                    f"{text!r} is not a whole number of points of at most "
                    f"{MAX_CARRIED_DIGITS} digits",
                    (i + 2,),
                    "carried",
                    "write the points carried as a whole number",
                    code="cell.not-a-whole-number",
                )
            )
        else:
            out[name] = int(text)
    if more:
        problems.append(
            Problem(
                source,
                f"{more} more cells like these",
                column="carried",
                hint="write the points carried as a whole number",
                count=more,
                code="cell.not-a-whole-number",
            )
        )
    twice = [(name, at) for name, at in rows.items() if len(at) > 1]
    hint = "keep one row for each player: which points they carry cannot be told"
    problems += [
        Problem(
            source,
            f"player {name!r} is listed {len(at)} times",
            tuple(at),
            "player",
            hint,
            code="final.carried-twice",
        )
        for name, at in twice[:MAX_LISTED]
    ]
    if len(twice) > MAX_LISTED:
        rest = len(twice) - MAX_LISTED
        problems.append(
            Problem(
                source,
                f"{rest} more players listed more than once",
                column="player",
                hint=hint,
                count=rest,
                code="final.carried-twice",
            )
        )
    if problems:
        raise InvalidData(problems)
    return out


def _cell(value: object) -> str:
    """A cell as its text; "" for an empty or missing one."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    text = str(value).strip()
    return "" if text == "<NA>" else text
