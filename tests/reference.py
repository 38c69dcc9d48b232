"""A slow, literal reading of docs/scoring.md sections 2-4, to check the vectorised code.

Plain Python with Fractions and pairwise comparisons: no numpy, no cleverness. Rows
are compared only with rows of their own deal (and table), so events of thousands of
rows are checked in moments too.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cmp_to_key


@dataclass
class Row:
    section: str
    round: int
    deal: object
    table: object
    seat: object
    player: object
    score: Fraction
    seconds: Fraction | None = None
    mp: int = 0
    top: int = 0
    rank: int = 0
    points_cents: int = 0


@dataclass
class Player:
    key: tuple[str, object]
    total_cents: int = 0
    ranks: list[int] = field(default_factory=list)
    seconds: list[Fraction] = field(default_factory=list)
    beaten: list[tuple[str, object]] = field(default_factory=list)


def points_cents(rank: int, factors: list[Decimal], base: int = 10000) -> int:
    value = Decimal(base * 100) * (factors[rank - 1] if rank <= len(factors) else Decimal(1) / rank)
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def score_rows(rows: list[Row], dense: bool = False, factors: list[Decimal] | None = None) -> None:
    """Matchpoints, deal ranks and rank points, deal by deal (nothing in sections 2-3
    compares rows of different deals)."""
    deals: dict[tuple[str, int, object], list[Row]] = defaultdict(list)
    for row in rows:
        deals[(row.section, row.round, row.deal)].append(row)
    for deal in deals.values():
        _score_deal(deal, dense, factors)


def _score_deal(rows: list[Row], dense: bool, factors: list[Decimal] | None) -> None:
    factors = factors or [Decimal("1"), Decimal("0.7"), Decimal("0.5"), Decimal("0.35")]
    for row in rows:
        group = [
            r
            for r in rows
            if (r.section, r.round, r.deal, r.seat) == (row.section, row.round, row.deal, row.seat)
        ]
        row.mp = sum(
            2 if other.score < row.score else 1 if other.score == row.score else 0
            for other in group
            if other is not row
        )
        row.top = 2 * (len(group) - 1)

    def pct(r: Row) -> Fraction:
        return Fraction(r.mp, r.top) if r.top else Fraction(1, 2)

    for row in rows:
        deal = [
            r for r in rows if (r.section, r.round, r.deal) == (row.section, row.round, row.deal)
        ]
        better = (
            {pct(r) for r in deal if pct(r) > pct(row)}
            if dense
            else [r for r in deal if pct(r) > pct(row)]
        )
        row.rank = 1 + len(better)
        row.points_cents = points_cents(row.rank, factors)


def standings(
    rows: list[Row], with_table: bool, with_seconds: bool
) -> list[tuple[tuple[str, object], str, bool]]:
    """[(player key, decided_by, playoff)] in final order."""
    players: dict[tuple[str, object], Player] = {}
    for r in rows:
        p = players.setdefault((r.section, r.player), Player((r.section, r.player)))
        p.total_cents += r.points_cents
        p.ranks.append(r.rank)
        if r.seconds is not None:
            p.seconds.append(r.seconds)
    if with_table:
        round_score: dict[tuple[str, int, object], Fraction] = defaultdict(Fraction)
        table_of: dict[tuple[str, int, object], object] = {}
        for r in rows:
            round_score[(r.section, r.round, r.player)] += r.score
            table_of[(r.section, r.round, r.player)] = r.table
        at_table: dict[tuple[str, int, object], list[object]] = defaultdict(list)
        for (section, rnd, player), table in table_of.items():
            at_table[(section, rnd, table)].append(player)
        for (section, rnd, player), table in table_of.items():
            for other in at_table[(section, rnd, table)]:
                if (
                    other != player
                    and round_score[(section, rnd, other)] < round_score[(section, rnd, player)]
                ):
                    players[(section, player)].beaten.append((section, other))

    def beaten_avg(p: Player) -> Fraction:
        if not p.beaten:
            return Fraction(0)
        return Fraction(sum(players[b].total_cents for b in p.beaten), len(p.beaten))

    top = max((r.rank for r in rows), default=0)

    def counts(p: Player) -> list[int]:
        return [p.ranks.count(k) for k in range(1, top + 1)]

    def trimmed(p: Player) -> Fraction:
        s = sorted(p.seconds)
        if len(s) >= 3:
            s = s[1:-1]
        return Fraction(sum(s), len(s))

    criteria = [("total", lambda p: -p.total_cents)]
    if with_table:
        criteria.append(("beaten_avg", lambda p: -beaten_avg(p)))
    criteria.append(("rank_counts", lambda p: [-c for c in counts(p)]))
    if with_seconds:
        criteria.append(("total_seconds", lambda p: sum(p.seconds)))
        criteria.append(("trimmed_seconds", trimmed))

    def compare(a: Player, b: Player) -> int:
        if a.key[0] != b.key[0]:
            return -1 if a.key[0] < b.key[0] else 1
        for _, key in criteria:
            ka, kb = key(a), key(b)
            if ka != kb:
                return -1 if ka < kb else 1
        return -1 if a.key[1] < b.key[1] else (1 if a.key[1] > b.key[1] else 0)

    ordered = sorted(players.values(), key=cmp_to_key(compare))
    decided: list[str] = []
    for i, p in enumerate(ordered):
        if i == 0 or ordered[i - 1].key[0] != p.key[0]:
            decided.append("")
            continue
        q = ordered[i - 1]
        decided.append(next((name for name, key in criteria if key(p) != key(q)), "tied"))
    out = []
    for i, p in enumerate(ordered):
        tied_next = i + 1 < len(ordered) and decided[i + 1] == "tied"
        out.append((p.key, decided[i], decided[i] == "tied" or tied_next))
    return out
