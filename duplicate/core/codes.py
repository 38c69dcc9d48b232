"""Dense integer codes for key columns, and counting over them without sorting rows.

The kernels here rank and count over the few distinct cells (a comparison group and a
score, a deal and a player, ...) rather than over millions of rows: a histogram built
with one bincount when the cells fit in memory, a sort of the combined keys otherwise.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from duplicate.core.exact import IntArray

# Cells a histogram may have: 64M int64 counts is 512 MB at most, and usually far less.
HISTOGRAM_LIMIT = 1 << 26


# Integer ids spanning at most this many values, or not many more than there are rows,
# are coded through a presence table instead of a hash table.
SMALL_RANGE = 1 << 16


def dense_codes(values: pd.Series | np.ndarray, ordered: bool = True) -> tuple[IntArray, int]:
    """Codes 0..k-1 for the distinct values and k; in the values' sort order if `ordered`."""
    array = values.to_numpy() if isinstance(values, pd.Series) else values
    if isinstance(array, np.ndarray) and array.dtype.kind in "iu" and len(array):
        low, high = int(array.min()), int(array.max())
        if high - low < max(SMALL_RANGE, 2 * len(array)):
            # Round, deal, seat, table and player numbers: a table of which values occur.
            offset = array.astype(np.int64) - low
            present = np.zeros(high - low + 1, dtype=bool)
            present[offset] = True
            return (np.cumsum(present) - 1)[offset], int(present.sum())
    codes, uniques = pd.factorize(values, sort=ordered)
    return codes.astype(np.int64, copy=False), len(uniques)


def combine(parts: list[tuple[IntArray, int]]) -> tuple[IntArray, int]:
    """One code per distinct combination, ordered like the parts (mixed radix).

    The codes are dense only as far as the parts' sizes multiply; they are made dense
    again only when the product would not fit an int64.
    """
    if not parts:
        raise ValueError("combine needs at least one key")
    key, size = parts[0]
    for codes, n in parts[1:]:
        if size * n >= 1 << 62:
            key, size = dense_codes(key)
        key, size = key * n + codes, size * n
    return key, size


def count_per(key: IntArray, size: int) -> IntArray:
    """How many rows share each row's key."""
    if size <= HISTOGRAM_LIMIT:
        return np.bincount(key, minlength=size)[key]
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    return counts[inverse]


def varies_within(key: IntArray, size: int, other: IntArray) -> np.ndarray:
    """For each row, whether the rows sharing its key hold more than one `other` value.

    One reference value per key (whichever row wrote last), then every row compared with
    it: a scatter and a gather, no sort and no hash.
    """
    if size > HISTOGRAM_LIMIT:
        key, size = dense_codes(key)
    reference = np.zeros(size, dtype=other.dtype)
    reference[key] = other
    differs = np.zeros(size, dtype=bool)
    differs[key[other != reference[key]]] = True
    return np.asarray(differs[key])


def sum_by(codes: IntArray, values: np.ndarray, size: int) -> IntArray:
    """Exact integer sums of `values` per code."""
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, codes, np.asarray(values, dtype=np.int64))
    return out


def first_rows(codes: IntArray, size: int) -> IntArray:
    """For each code, the first row that has it (a scatter in reverse: the last write wins)."""
    first = np.empty(size, dtype=np.int64)
    first[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)
    return first


def min_max_by(codes: IntArray, values: np.ndarray, size: int) -> tuple[IntArray, IntArray]:
    """The smallest and the largest of `values` per code."""
    v = np.asarray(values, dtype=np.int64)
    low = np.full(size, np.iinfo(np.int64).max, dtype=np.int64)
    high = np.full(size, np.iinfo(np.int64).min, dtype=np.int64)
    np.minimum.at(low, codes, v)
    np.maximum.at(high, codes, v)
    return low, high
