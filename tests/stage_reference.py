"""A literal reading of docs/scoring.md 8.1-8.2, one hand at a time, to check duplicate.stages.

Plain Python over a list of row dicts: no pandas, no shared code with the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction


@dataclass
class Standing:
    player: str
    chips: int
    hands: int = 0
    last_change: int = 0
    out_position: int | None = None
    out_hand: object = None


def base_at(schedule: list[tuple[Fraction, int]], minute: Fraction) -> int:
    base = schedule[0][1]
    for start, value in schedule:
        if start <= minute:
            base = value
    return base


def below_limit(chips: int, base: int, share: Fraction, fixed: int | None) -> bool:
    if fixed is not None:
        return chips < fixed
    return Fraction(chips) < share * base


def run_stage(
    rows: list[dict[str, object]],
    start: int,
    schedule: list[tuple[Fraction, int]],
    share: Fraction = Fraction(1, 4),
    fixed: int | None = None,
) -> dict[str, Standing]:
    """Every player's chips, hands, last change and the hand that put them out."""
    players: dict[str, Standing] = {}
    hands: dict[object, list[dict[str, object]]] = {}
    for row in rows:
        hands.setdefault(row["hand"], []).append(row)
        players.setdefault(str(row["player"]), Standing(str(row["player"]), start))
    order = sorted(hands, key=lambda h: (Fraction(str(hands[h][0]["minute"])), h))
    for position, hand in enumerate(order):
        seats = sorted(hands[hand], key=lambda r: r["seat"])  # type: ignore[arg-type, return-value]
        base = base_at(schedule, Fraction(str(seats[0]["minute"])))
        before = {str(r["player"]): players[str(r["player"])].chips for r in seats}
        change = {str(r["player"]): 0 for r in seats}
        winners = [r for r in seats if int(r["score"]) > 0]  # type: ignore[call-overload]
        losers = [r for r in seats if int(r["score"]) < 0]  # type: ignore[call-overload]
        if len(winners) == 1:
            w = str(winners[0]["player"])
            for r in losers:
                p = str(r["player"])
                paid = min(-int(r["score"]) * base, before[p], before[w])  # type: ignore[call-overload]
                change[p] -= paid
                change[w] += paid
        elif len(losers) == 1:
            hub = losers[0]
            h = str(hub["player"])
            i = seats.index(hub)
            left = before[h]
            for r in seats[i + 1 :] + seats[:i]:
                if int(r["score"]) <= 0:  # type: ignore[call-overload]
                    continue
                p = str(r["player"])
                paid = min(int(r["score"]) * base, before[h], before[p], left)  # type: ignore[call-overload]
                left -= paid
                change[h] -= paid
                change[p] += paid
        for r in seats:
            s = players[str(r["player"])]
            s.chips += change[s.player]
            s.hands += 1
            s.last_change = change[s.player]
            if s.out_position is None and below_limit(s.chips, base, share, fixed):
                s.out_position, s.out_hand = position, hand
    return players


def carried(chips: int, carry: str, ratio: Decimal) -> int:
    """docs/scoring.md 8.3: chips x ratio or sqrt(chips) x ratio, half up to a point."""
    if carry == "none":
        return 0
    with localcontext() as context:
        context.prec = 80
        value = Decimal(chips) if carry == "ratio" else Decimal(chips).sqrt()
        return int((value * ratio).to_integral_value(rounding=ROUND_HALF_UP))


def stage_order(players: dict[str, Standing]) -> list[str]:
    """In by chips; then out, the latest hand first, more chips first; then the last
    hand's change; then player id (no registration)."""

    def key(s: Standing) -> tuple[object, ...]:
        status = (0, 0) if s.out_position is None else (1, -s.out_position)
        return (status, -s.chips, -s.last_change, s.player)

    return [s.player for s in sorted(players.values(), key=key)]
