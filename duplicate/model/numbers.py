"""Numbers held exactly: a column of scores or times as integers times 10**-scale.

Every kind of column a reader gives is parsed here, vectorised, with no float64 round
trip of a value: integers as they are; text by a strict grammar (ASCII digits, one
optional sign and point; no exponent, hex, underscore or full-width digit); floats
(Parquet's doubles) by their shortest decimal that reads back as the same float, the
decimal a person sees for them.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.limits import MAX_COLUMN_SUM, MAX_DECIMALS, MAX_UNITS
from duplicate.model.codes import is_pandas, one_chunk
from duplicate.model.exact import IntArray, abs_sum_reaches
from duplicate.model.text_bytes import bytes_of

if TYPE_CHECKING:
    import pandas as pd

DECIMAL_GRAMMAR = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$"
# Digits Arrow may cast to int64 without overflow.
MAX_DIGITS = 18
_POWERS = 10 ** np.arange(MAX_DECIMALS + 1, dtype=np.int64)
# A value times 10**shift stays below MAX_UNITS when its own size is below this.
_LIMITS = MAX_UNITS // _POWERS


class Units(NamedTuple):
    """A column as exact integers: value = units / 10**scale; `bad` marks the cells
    that are missing or not numbers of at most MAX_DECIMALS decimals (their units are 0)."""

    units: IntArray
    scale: int
    bad: np.ndarray


def decimal_units(column: pd.Series | pa.ChunkedArray[Any] | pa.Array[Any]) -> Units:
    """The column's values held exactly (see the module's doc)."""
    array = _arrow(column)
    kind = array.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        # Text chunk by chunk, as read: no copy of the whole column first.
        return _from_text(array)
    array = one_chunk(array)
    if pa.types.is_integer(kind):
        return _from_integers(array)
    if pa.types.is_floating(kind):
        return _from_floats(array)
    if pa.types.is_dictionary(kind):
        return decimal_units(array.cast(kind.value_type))
    if pa.types.is_null(kind):
        return _all_bad(len(array))
    # Arrow decimals (Parquet DECIMAL) and other kinds through their exact text.
    return _from_text(array.cast(pa.large_string()))


def refusal(value: object) -> str | None:
    """Why a cell that reads as a number was refused: too many decimals, or too large
    to hold exactly. None when it is no number at all (or is held).

    For messages only: called on the few cells shown, never on a whole column.
    """
    if isinstance(value, bool) or _missing(value):
        return None
    if isinstance(value, float | np.floating):
        if not math.isfinite(value):
            return None
        number = Decimal(repr(float(value)))
    elif isinstance(value, int | np.integer):
        number = Decimal(int(value))
    else:
        text = str(value).strip()
        if not re.fullmatch(DECIMAL_GRAMMAR, text):
            return None
        number = Decimal(text.rstrip(".") or "0")
    places = max(0, -int(number.as_tuple().exponent))
    if places > MAX_DECIMALS:
        return f"has {places} decimals; at most {MAX_DECIMALS} are held exactly"
    if abs(number.scaleb(places)) >= MAX_UNITS:
        return f"is too large to hold exactly (at most {MAX_UNITS - 1} without its point)"
    return None


def column_sum_too_large(units: IntArray) -> bool:
    """Whether the column's |units| add up to MAX_COLUMN_SUM or more (see there)."""
    return abs_sum_reaches(units, MAX_COLUMN_SUM)


def _arrow(
    column: pd.Series | pa.ChunkedArray[Any] | pa.Array[Any],
) -> pa.ChunkedArray[Any] | pa.Array[Any]:
    array: Any = column
    if is_pandas(array):
        if array.dtype == object:
            # Mixed Python objects: read as their text.
            array = array.map(lambda v: None if _missing(v) else str(v), na_action="ignore")
        array = pa.array(array, from_pandas=True)
    return cast("pa.ChunkedArray[Any] | pa.Array[Any]", array)


def _missing(value: object) -> bool:
    return value is None or is_pandas(value) or (isinstance(value, float) and value != value)


def _all_bad(n: int) -> Units:
    return Units(np.zeros(n, dtype=np.int64), 0, np.ones(n, dtype=bool))


def _from_integers(array: pa.Array[Any]) -> Units:
    values = array.fill_null(0).to_numpy()
    # uint64 above int64's range is too big before it could wrap.
    too_big = values >= MAX_UNITS if values.dtype == np.uint64 else _too_big(values)
    if too_big.any():
        values = np.where(too_big, 0, values)
    return Units(values.astype(np.int64, copy=False), 0, ~_present(array) | too_big)


def _too_big(units: np.ndarray) -> np.ndarray:
    """Where |units| >= MAX_UNITS (not np.abs: the smallest int64 is its own absolute
    value)."""
    return np.asarray((units >= MAX_UNITS) | (units <= -MAX_UNITS))


def _present(array: pa.Array[Any]) -> np.ndarray:
    if not array.null_count:
        return np.ones(len(array), dtype=bool)
    return np.asarray(array.is_valid().to_numpy(zero_copy_only=False), dtype=bool)


# The floats looked at before a number of places is tried on the whole column.
_FIRST_FLOATS = 4096


def _from_floats(array: pa.Array[Any]) -> Units:
    """Each float as its shortest decimal, of at most MAX_DECIMALS places.

    A float is held at `places` when the integer nearest x*10**places, divided by
    10**places, reads back as x. Usually every float is held at a few places, found
    over the whole column at once; otherwise each float's own places are found, and
    those held at no number of places are refused.
    """
    if array.null_count:
        array = array.fill_null(np.nan)
    values = np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.float64)
    if not len(values):
        return Units(np.zeros(0, dtype=np.int64), 0, np.zeros(0, dtype=bool))
    if np.isfinite(values).all() and float(np.abs(values).max()) < MAX_UNITS:
        for places in range(MAX_DECIMALS + 1):
            # Places that the first floats are not held at are not tried on them all.
            if not _held(values[:_FIRST_FLOATS], places)[1].all():
                continue
            k, held = _held(values, places)
            if held.all():
                return Units(k, places, np.zeros(len(values), dtype=bool))
    return _each_float(values)


def _each_float(values: np.ndarray) -> Units:
    """_from_floats one float at a time, vectorised: each pass tries those not held."""
    n = len(values)
    places = np.full(n, -1, dtype=np.int64)
    whole = np.zeros(n, dtype=np.int64)
    open_rows = np.flatnonzero(np.isfinite(values) & (np.abs(values) < MAX_UNITS))
    for p in range(MAX_DECIMALS + 1):
        if not len(open_rows):
            break
        k, held = _held(values[open_rows], p)
        done = open_rows[held]
        places[done] = p
        whole[done] = k[held]
        open_rows = open_rows[~held]
    bad = places < 0
    scale = int(places.max())
    return _scaled(whole, np.where(bad, 0, scale - places), max(scale, 0), bad)


def _held(x: np.ndarray, places: int) -> tuple[np.ndarray, np.ndarray]:
    """(k, held): k/10**places reads back as x where held.

    x*10**places is rounded once itself: the integer nearest it is the right k unless
    the product is so large (2**52 and up) that its rounding reaches a whole step, and
    those few are tried a step each way.
    """
    power = float(_POWERS[places])
    k = np.round(x * power)
    held = (k / power == x) & (np.abs(k) < MAX_UNITS)
    retry = np.flatnonzero(~held & (np.abs(k) >= MAX_UNITS // 4) & (np.abs(k) <= MAX_UNITS))
    for step in (-1.0, 1.0):
        again = k[retry] + step
        hit = (again / power == x[retry]) & (np.abs(again) < MAX_UNITS)
        k[retry[hit]] = again[hit]
        held[retry[hit]] = True
        retry = retry[~hit]
    return np.where(held, k, 0.0).astype(np.int64), held


def _from_text(text: pa.ChunkedArray[Any] | pa.Array[Any]) -> Units:
    """Text by the strict grammar: every cell at once by Arrow's decimal parser when
    all are plain (the usual file), else cell by cell (_each_text) to find those that
    are not."""
    chunks = text.chunks if isinstance(text, pa.ChunkedArray) else [text]
    quick = _plain_decimals(chunks)
    return quick if quick is not None else _each_text(one_chunk(text))


def _plain_decimals(chunks: list[pa.Array[Any]]) -> Units | None:
    """Units when every cell (string or large_string) is plain (ASCII digits, sign and
    point only) and Arrow's decimal parser reads every one; None otherwise (then
    _each_text says which cells are not).

    Found on each chunk's bytes: which bytes occur, and where the points are (the
    cell's decimals: the bytes after its point); then each chunk is parsed at the
    column's scale into its place in the result. Nothing as long as the column is made
    but the result.
    """
    chunks = [chunk for chunk in chunks if len(chunk)]
    if not chunks or any(chunk.null_count for chunk in chunks):
        return None
    n = sum(len(chunk) for chunk in chunks)
    scale = 0
    for chunk in chunks:
        offsets, data = bytes_of(chunk)
        if not _all_plain(data):
            return None
        scale = max(scale, _most_decimals(offsets, np.flatnonzero(data == ord(".")) + offsets[0]))
    if scale > MAX_DECIMALS:
        return None
    units = np.empty(n, dtype=np.int64)
    start = 0
    for chunk in chunks:
        parsed: Any = _parsed(chunk, scale)
        if parsed is None:
            return None
        # A decimal64 is its unscaled integer, value x 10**scale, exactly (as an int64).
        held = units[start : start + len(chunk)]
        held[:] = np.frombuffer(parsed.buffers()[1], dtype=np.int64, count=len(parsed))
        if _too_big(held).any():
            return None
        start += len(chunk)
    return Units(units, scale, np.zeros(n, dtype=bool))


def _all_plain(data: np.ndarray) -> bool:
    """Whether every byte is one a plain decimal is written with: 0-9 + - ."""
    if not len(data):
        return True
    if int(data.min()) < ord("+") or int(data.max()) > ord("9"):
        return False
    # Between "+" and "9" (ASCII), only "," and "/" are not.
    return not bool(((data == ord(",")) | (data == ord("/"))).any())


def _parsed(chunk: pa.Array[Any], scale: int) -> pa.Array[Any] | None:
    """Plain text cells as their integers of units (int64 or decimal64), or None if
    Arrow's decimal parser does not read every one.

    Whole numbers are read by the integer parser first, which is quicker: it reads a
    subset of what the decimal parser does (not "+5" or "5."), to the same values.
    """
    kinds = [pa.int64(), pa.decimal64(MAX_DIGITS, 0)] if scale == 0 else []
    for kind in kinds or [pa.decimal64(MAX_DIGITS, scale)]:
        try:
            return pc.cast(chunk, kind)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            continue
    return None


def _most_decimals(offsets: IntArray, points: IntArray) -> int:
    """The most bytes after a point in a cell (cells start at `offsets`; `points` are
    the points' byte positions, rising). Usually each cell has one, in order."""
    if not len(points):
        return 0
    if len(points) == len(offsets) - 1 and bool(
        ((offsets[:-1] <= points) & (points < offsets[1:])).all()
    ):
        ends = offsets[1:]
    else:
        ends = offsets[np.searchsorted(offsets, points, side="right")]
    return int((ends - points - 1).max())


def _each_text(text: pa.Array[Any]) -> Units:
    """Each cell by the strict grammar, trimmed of spaces: the bad ones are marked."""
    trimmed: Any = pc.utf8_trim_whitespace(text)
    ok = _numpy(pc.match_substring_regex(trimmed, DECIMAL_GRAMMAR), False).astype(bool)
    point = _numpy(pc.find_substring(trimmed, "."), -1).astype(np.int64)
    length = _numpy(pc.binary_length(trimmed), 0).astype(np.int64)
    decimals = np.where(point >= 0, length - point - 1, 0)
    negative = _numpy(pc.starts_with(trimmed, "-"), False).astype(bool)
    # The digits without sign, point or leading zeros: "-00.50" gives "50".
    significant: Any = pc.utf8_ltrim(
        pc.replace_substring(pc.utf8_ltrim(trimmed, "+-"), ".", ""), "0"
    )
    size = _numpy(pc.binary_length(significant), 0).astype(np.int64)
    good = ok & (decimals <= MAX_DECIMALS) & (size <= MAX_DIGITS)
    readable = pa.array(good & (size > 0))
    significant = pc.if_else(readable, significant, pa.scalar("0", significant.type))
    magnitude = _numpy(pc.cast(significant, pa.int64()), 0).astype(np.int64)
    # A value too large at its own decimals is refused alone: it sets no decimals for
    # the others.
    good &= magnitude < MAX_UNITS
    whole = np.where(negative, -magnitude, magnitude)
    scale = int(decimals[good].max()) if good.any() else 0
    return _scaled(whole, np.where(good, scale - decimals, 0), scale, ~good)


def _numpy(array: Any, missing: object) -> np.ndarray:
    """An Arrow array as numpy, its missing values as `missing`."""
    return np.asarray(array.fill_null(missing).to_numpy(zero_copy_only=False))


def _scaled(whole: IntArray, shift: IntArray, scale: int, bad: np.ndarray) -> Units:
    """whole * 10**shift, each below MAX_UNITS or marked bad (checked before the
    multiplication, so that it cannot overflow)."""
    if not shift.any():
        bad = bad | _too_big(whole)
        return Units(np.where(bad, 0, whole) if bad.any() else whole, scale, bad)
    bad = bad | (np.abs(whole) >= _LIMITS[shift])
    units = np.where(bad, 0, whole) * _POWERS[shift]
    return Units(units, scale, bad)
