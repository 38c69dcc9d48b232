"""A fixed-hand final (定局积分制, docs/scoring.md 8.4): carried points plus every hand."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from duplicate.errors import InvalidData, OutOfRange, Problem, UsageError
from duplicate.stages.elimination import equal_result_criteria, hands_of
from duplicate.stages.hand_log import HandLog
from duplicate.stages.order import Criterion, order_rows
from duplicate.stages.stage_rules import FINAL_BASE, Schedule, base_at

FINAL_COLUMNS = ("place", "player", "total", "carried", "hands", "decided_by")


@dataclass
class Finalist:
    player: str
    carried: int
    total: int = 0
    hands: int = 0
    last_points: int = 0


def final_standings(
    log: HandLog,
    hands: int,
    carried: dict[str, int] | None = None,
    base: Schedule = FINAL_BASE,
    registered: dict[str, int] | None = None,
) -> pd.DataFrame:
    """Total = carried + the sum of score x base (base 1 a point by default); players
    short of `hands` hands get no place; more hands than that is an error."""
    if hands < 1:
        raise UsageError("a final has at least 1 hand ({opt:hands})", "final.no-hands")
    carried = carried or {}
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
            player.last_points = points
    for name, held in carried.items():
        players.setdefault(name, Finalist(name, held))
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
        *equal_result_criteria(lambda p: p.last_points, registered),
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
    problems = []
    for i, (player, value) in enumerate(
        zip(table[columns["player"]], table[columns["carried"]], strict=True)
    ):
        text = (
            ""
            if value is None or (isinstance(value, float) and value != value)
            else str(value).strip()
        )
        if text in ("", "<NA>"):
            continue
        if not text.lstrip("-").isascii() or not text.lstrip("-").isdigit() or len(text) > 13:
            problems.append(
                Problem(
                    source,
                    f"{text!r} is not a whole number of points",
                    (i + 2,),
                    "carried",
                    "write the points carried as a whole number",
                    code="cell.not-a-whole-number",
                )
            )
            continue
        out[str(player).strip()] = int(text)
    if problems:
        raise InvalidData(problems)
    return out
