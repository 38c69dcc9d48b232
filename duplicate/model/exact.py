"""Exact arithmetic on integer arrays: half-up division, rational sort keys, decimals.

Every ranking decision is made on integers or on keys proven exact here; floats are
never compared after rounding for display.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from duplicate.errors import OutOfRange
from duplicate.model.arrays import arrow_array

if TYPE_CHECKING:
    from fractions import Fraction

    import pandas as pd

IntArray = npt.NDArray[np.int64]
# Dense codes held in the smallest integer type that fits them (see codes.compact_codes).
CodeArray = npt.NDArray[np.signedinteger[Any]]
FloatArray = npt.NDArray[np.float64]

# A float64 quotient r/d with 0 <= r < d is an exact sort key while d < 2**26: two
# different fractions a/b and c/d differ by at least 1/(b*d) > 2**-52, more than the
# rounding of either quotient can move it, and equal fractions round to the same float.
EXACT_DENOMINATOR_LIMIT = 2**26


def div_half_up(num: IntArray, den: IntArray | int) -> IntArray:
    """round(num / den) with halves away from zero, for den > 0, exactly."""
    num = np.asarray(num, dtype=np.int64)
    sign = np.where(num < 0, -1, 1)
    magnitude = np.abs(num)
    return np.asarray(sign * ((2 * magnitude + den) // (2 * np.asarray(den))), dtype=np.int64)


def div_rounded(num: IntArray, den: IntArray | int, rounding: str = "half-up") -> IntArray:
    """round(num / den) exactly, for den > 0, an exact half going as `rounding` says:
    half-up (away from zero), half-down (towards zero) or half-even."""
    if rounding == "half-up":
        return div_half_up(num, den)
    num = np.asarray(num, dtype=np.int64)
    den_array = np.asarray(den, dtype=np.int64)
    sign = np.where(num < 0, -1, 1)
    magnitude = np.abs(num)
    if rounding == "half-down":
        rounded = (2 * magnitude + den_array - 1) // (2 * den_array)
    elif rounding == "half-even":
        whole = magnitude // den_array
        twice_rest = 2 * (magnitude - whole * den_array)
        up = (twice_rest > den_array) | ((twice_rest == den_array) & (whole % 2 == 1))
        rounded = whole + up
    else:
        raise ValueError(f"unknown rounding {rounding!r}")
    return np.asarray(sign * rounded, dtype=np.int64)


def fraction_rounded(value: Fraction, rounding: str = "half-up") -> int:
    """`value` to a whole number as div_rounded rounds, for one exact fraction of any
    size: an exact half half-up (away from zero), half-down (towards zero) or half-even."""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    twice = 2 * rest
    up = twice > value.denominator or (
        twice == value.denominator
        and (rounding == "half-up" or (rounding == "half-even" and whole % 2 == 1))
    )
    return (whole + up) * (-1 if value < 0 else 1)


def ratio_key(num: IntArray, den: IntArray) -> tuple[IntArray, FloatArray]:
    """A pair (whole part, fraction) that sorts exactly as num/den (den > 0).

    The fraction is a float, exact by the argument at EXACT_DENOMINATOR_LIMIT.
    """
    den = np.asarray(den, dtype=np.int64)
    if den.size and int(den.max()) >= EXACT_DENOMINATOR_LIMIT:
        raise OverflowError("denominator too large for an exact float sort key")
    whole = np.floor_divide(num, den)
    remainder = num - whole * den
    return whole.astype(np.int64), remainder / den


def decimal_array(
    units: IntArray, scale: int, mask: npt.NDArray[np.bool_] | None = None
) -> pa.Array:  # type: ignore[type-arg]
    """Integers counted in 10**-scale as an Arrow decimal array (10050, 2 -> 100.50).

    decimal64 holds the same int64 the computation produced: no copy, no conversion.
    """
    ints = arrow_array(np.asarray(units, dtype=np.int64), mask=mask)
    return pa.Array.from_buffers(pa.decimal64(18, scale), len(ints), ints.buffers())


def decimal_series(
    units: IntArray, scale: int, mask: npt.NDArray[np.bool_] | None = None
) -> pd.Series:
    """decimal_array as a pandas Series backed by Arrow, so values stay exact."""
    import pandas as pd

    return pd.Series(pd.arrays.ArrowExtensionArray(decimal_array(units, scale, mask)))


def abs_sum_reaches(values: np.ndarray, bound: int) -> bool:
    """Whether the |values| add up to `bound` or more: a bound on every partial sum.

    Summed as floats: a far smaller error than the margins the callers keep.
    """
    return bool(len(values)) and float(np.abs(values, dtype=np.float64).sum()) >= bound


# Why fraction_sums refuses, by default: the sums of MP percentages.
MP_PERCENTAGE_SUMS = (
    "MP percentages of this event's group sizes share no common denominator small "
    "enough to be summed exactly; score it with {opt:factoring=neuberg} or by rank points"
)


def fraction_sums(
    num: IntArray,
    den: IntArray,
    codes: IntArray,
    size: int,
    *,
    largest: int = 1,
    scale: int = 10000,
    refusal: str = MP_PERCENTAGE_SUMS,
) -> tuple[IntArray, IntArray, int]:
    """Per code, the exact sum of the fractions num/den as an integer over one common
    denominator, with how many were summed: (sums, counts, common denominator).

    Raises OutOfRange (saying `refusal`) when the common denominator is too large for
    the sums of fractions of at most `largest` each, times `scale` (10000: a percentage
    in hundredths), to stay inside int64.
    """
    counts = np.bincount(codes, minlength=size).astype(np.int64)
    common = math.lcm(*(int(d) for d in np.unique(den))) if len(den) else 1
    if common * max(int(counts.max(initial=1)), 1) * largest * scale >= 2**62:
        raise OutOfRange(refusal, "number.out-of-range")
    sums = np.zeros(size, dtype=np.int64)
    np.add.at(sums, codes, num * (common // den))
    return sums, counts, common
