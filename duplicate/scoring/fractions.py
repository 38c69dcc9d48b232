"""MP and MP% of rank items from their matchpoints: as counted, or factored by
Neuberg's formula (docs/scoring.md section 9). MP% and the rank key are exact fractions."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from duplicate.errors import OutOfRange
from duplicate.model.exact import EXACT_DENOMINATOR_LIMIT, FloatArray, IntArray, div_half_up


class MatchpointFractions(NamedTuple):
    """Per rank item: MP as shown (in 10**-mp_scale), top, the exact rank key MP/top,
    MP% in hundredths (half up), and MP% exactly as pct_num / pct_den."""

    mp: IntArray
    top: IntArray
    key: FloatArray
    centi: IntArray
    pct_num: IntArray
    pct_den: IntArray
    mp_scale: int


def matchpoint_fractions(mp: IntArray, size: IntArray, unit: int) -> MatchpointFractions:
    """MP% of items whose MP is counted in 1/unit (1, or 100 with weighted scores) in a
    group of `size` results. A group of one has nothing to compare with: MP% 50."""
    top = 2 * (size - 1)
    den = unit * np.maximum(top, 1)
    if unit > 1:
        _check_denominators(den)
    compared = top > 0
    return MatchpointFractions(
        mp=mp,
        top=top,
        key=np.where(compared, mp / den, 0.5),
        centi=np.where(compared, div_half_up(mp * 10000, den), 5000),
        pct_num=np.where(compared, mp, 1),
        pct_den=np.where(compared, den, 2),
        mp_scale=0 if unit == 1 else 2,
    )


def _check_denominators(den: IntArray) -> None:
    if len(den) and int(den.max()) >= EXACT_DENOMINATOR_LIMIT:
        raise OutOfRange(
            "factored or weighted matchpoints rank exactly for deals played up to 5,000 "
            "times (with weighted scores and factoring both, 400); this event's are larger",
            "number.out-of-range",
        )


def neuberg(mp: IntArray, size: IntArray, unit: int, session_seat: IntArray) -> MatchpointFractions:
    """Neuberg's factoring (docs/scoring.md section 9): an item of a group of n results (MP
    counted in 1/unit) of a deal normally played N times (the largest group of its
    session and seat) scores MP' = (MP + 1) x N / n - 1 against a top of 2(N - 1).

    MP' is shown in hundredths (half up); MP% and the rank key are exact.
    """
    normal = np.zeros(int(session_seat.max(initial=0)) + 1, dtype=np.int64)
    np.maximum.at(normal, session_seat, size)
    big_n = normal[session_seat]
    # MP' = num / (n x unit) exactly; MP% = num / (n x unit x top).
    num = (mp + unit) * big_n - size * unit
    top = 2 * (big_n - 1)
    den = size * unit * np.maximum(top, 1)
    _check_denominators(den)
    compared = top > 0
    return MatchpointFractions(
        mp=div_half_up(num * 100, size * unit),
        top=top,
        key=np.where(compared, num / den, 0.5),
        centi=np.where(compared, div_half_up(num * 10000, den), 5000),
        pct_num=np.where(compared, num, 1),
        pct_den=np.where(compared, den, 2),
        mp_scale=2,
    )
