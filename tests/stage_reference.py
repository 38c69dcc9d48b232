"""A literal reading of docs/scoring.md 8.1-8.5, one hand at a time, to check duplicate.stages.

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
    # The game score of the last hand played (the log's `score`).
    last_score: int = 0
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
            s.last_score = int(r["score"])  # type: ignore[call-overload]
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
    hand's game score (8.5: the `score` column, not the chips it moved); then player id
    (no registration)."""
    return [s.player for s in sorted(players.values(), key=lambda s: (_stage_key(s), s.player))]


def _stage_key(s: Standing) -> tuple[object, ...]:
    status = (0, 0) if s.out_position is None else (1, -s.out_position)
    return (status, -s.chips, -s.last_score)


def stage_places(players: dict[str, Standing]) -> dict[str, int]:
    """Each player's place: players equal on everything 8.2 and 8.5 compare share it."""
    return _places(list(players.values()), _stage_key, lambda s: s.player)


def final_places(
    rows: list[dict[str, object]],
    hands: int,
    carried: dict[str, int] | None = None,
    schedule: list[tuple[Fraction, int]] | None = None,
) -> list[tuple[str, int | None, int]]:
    """8.4 with 8.5: (player, place or None when short of `hands`, total), in order.

    Points are score x the base at the hand's minute (1 without a schedule); a player's
    last hand is the latest by minute, then hand id; 8.5 compares its score."""
    carried = carried or {}
    schedule = schedule or [(Fraction(0), 1)]
    total: dict[str, int] = {}
    played: dict[str, int] = {}
    last: dict[str, tuple[Fraction, object, int]] = {}
    for row in rows:
        p = str(row["player"])
        score = int(row["score"])  # type: ignore[call-overload]
        base = base_at(schedule, Fraction(str(row["minute"])))
        total[p] = total.get(p, carried.get(p, 0)) + score * base
        played[p] = played.get(p, 0) + 1
        when = (Fraction(str(row["minute"])), row["hand"])
        if p not in last or when >= last[p][:2]:  # type: ignore[operator]
            last[p] = (*when, score)

    def key(p: str) -> tuple[object, ...]:
        return (played[p] < hands, -total[p], -last[p][2])

    places = _places(list(total), key, lambda p: p)
    return [
        (p, places[p] if played[p] == hands else None, total[p])
        for p in sorted(total, key=lambda p: (key(p), p))
    ]


def _places(items: list[object], key: object, name: object) -> dict[str, int]:
    ordered = sorted(items, key=lambda i: (key(i), name(i)))  # type: ignore[operator]
    places: dict[str, int] = {}
    for i, item in enumerate(ordered):
        above = ordered[i - 1] if i else None
        same = above is not None and key(item) == key(above)  # type: ignore[operator]
        places[name(item)] = places[name(above)] if same else i + 1  # type: ignore[operator]
    return places
