"""A slow, literal reading of the IMP rules in docs/bridge.md, to check the vectorised
code (duplicate/scoring/imps.py): plain Python, Fractions, every pair compared.

The IMP scale is written here as the WBF prints it (a band's lowest and highest
difference), not as the band starts the library holds.
"""

from __future__ import annotations

import math
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

# (lowest difference, highest difference, IMPs), as printed on a convention card.
WBF_SCALE = [
    (0, 10, 0),
    (20, 40, 1),
    (50, 80, 2),
    (90, 120, 3),
    (130, 160, 4),
    (170, 210, 5),
    (220, 260, 6),
    (270, 310, 7),
    (320, 360, 8),
    (370, 420, 9),
    (430, 490, 10),
    (500, 590, 11),
    (600, 740, 12),
    (750, 890, 13),
    (900, 1090, 14),
    (1100, 1290, 15),
    (1300, 1490, 16),
    (1500, 1740, 17),
    (1750, 1990, 18),
    (2000, 2240, 19),
    (2250, 2490, 20),
    (2500, 2990, 21),
    (3000, 3490, 22),
    (3500, 3990, 23),
]


def imps(difference: Fraction) -> int:
    """IMPs of a difference: the band it falls in; between two bands, the lower one."""
    size = abs(difference)
    sign = 1 if difference > 0 else -1
    if size >= 4000:
        return sign * 24
    earned = 0
    for low, _high, value in WBF_SCALE:
        if size >= low:
            earned = value
    return sign * earned


Key = tuple[object, ...]


# A row's adjustment, if any ("kind"): its IMPs, or None for a void result.
ASSIGNED = {"avg_plus": 3, "avg_minus": -3, "void": None}


def _groups(rows: list[dict[str, object]]) -> dict[Key, list[int]]:
    """Row positions by comparison group: section, round, deal and seat. A row with an
    adjustment is compared with nothing."""
    groups: dict[Key, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        if not row.get("kind"):
            groups[(row["section"], row["round"], row["deal"], row["seat"])].append(i)
    return groups


def with_assigned(rows: list[dict[str, object]], values: list[Fraction]) -> list[Fraction]:
    """The rows' IMPs with each adjusted row's assigned IMPs (0 for a void one)."""
    out = list(values)
    for i, row in enumerate(rows):
        if row.get("kind"):
            out[i] = Fraction(ASSIGNED[str(row["kind"])] or 0)
    return out


def cross_imps(rows: list[dict[str, object]], average: bool) -> list[Fraction]:
    """Each row's cross-IMPs: the IMPs against every other row of its group, added up,
    or divided by the comparisons made."""
    out = [Fraction(0)] * len(rows)
    for members in _groups(rows).values():
        for i in members:
            mine = Fraction(str(rows[i]["score"]))
            total = sum(
                (imps(mine - Fraction(str(rows[j]["score"]))) for j in members if j != i),
                start=0,
            )
            comparisons = len(members) - 1
            out[i] = Fraction(total, comparisons) if average and comparisons else Fraction(total)
    return out


def butler(
    rows: list[dict[str, object]], drop: int, step: int, half: str, trim: Fraction = Fraction(0)
) -> tuple[list[Fraction], list[int]]:
    """Each row's datum and Butler IMPs."""
    datums = [Fraction(0)] * len(rows)
    out = [0] * len(rows)
    for members in _groups(rows).values():
        scores = sorted(Fraction(str(rows[i]["score"])) for i in members)
        k = max(drop, math.floor(len(scores) * trim))
        while len(scores) - 2 * k < 1:
            k -= 1
        kept = scores[k : len(scores) - k]
        datum = sum(kept, start=Fraction(0)) / len(kept)
        if step:
            multiple = datum / step
            if half == "away":
                whole = math.floor(abs(multiple) + Fraction(1, 2)) * (1 if multiple >= 0 else -1)
            else:
                whole = round(multiple)  # a Fraction rounds its halves to even
            datum = Fraction(whole * step)
        for i in members:
            datums[i] = datum
            out[i] = imps(Fraction(str(rows[i]["score"])) - datum)
    return datums, out


def standings(
    rows: list[dict[str, object]], row_imps: list[Fraction]
) -> list[tuple[object, object, int, Fraction]]:
    """(section, player, place, total IMPs), best first per section; equal totals share
    the place (1, 1, 3)."""
    totals: dict[tuple[object, object], Fraction] = defaultdict(Fraction)
    for row, value in zip(rows, row_imps, strict=True):
        if row.get("kind") != "void":
            totals[(row["section"], row["player"])] += value
    out = []
    for section in sorted({s for s, _ in totals}, key=str):
        field = sorted(
            ((p, t) for (s, p), t in totals.items() if s == section), key=lambda x: -x[1]
        )
        for player, total in field:
            place = 1 + sum(1 for _, other in field if other > total)
            out.append((section, player, place, total))
    return out


def shown(value: Fraction) -> Decimal:
    """A number as the library shows it: hundredths, halves away from zero."""
    centi = math.floor(abs(value) * 100 + Fraction(1, 2)) * (1 if value >= 0 else -1)
    return Decimal(centi) / 100
