"""Dense integer codes for key columns, and counting over them without sorting rows.

The kernels here rank and count over the few distinct cells (a comparison group and a
score, a deal and a player, ...) rather than over millions of rows: a histogram built
with one bincount when the cells fit in memory, a sort of the combined keys otherwise.
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.errors import OutOfRange
from duplicate.model.exact import CodeArray, IntArray, abs_sum_reaches

if TYPE_CHECKING:
    import pandas as pd

# A column codes are made of: numpy, Arrow (text, or the dictionary of a missing
# section), or a pandas Series (the callers working in pandas).
Values = Any

# Cells a histogram may have: its int64 counts bound its memory (2**26 x 8 bytes).
HISTOGRAM_LIMIT = 1 << 26


# Integer ids spanning at most this many values, or not many more than there are rows,
# are coded through a presence table instead of a hash table.
SMALL_RANGE = 1 << 16

# Neighbouring cells compared first, to tell text out of order without a pass over all.
_FIRST_PAIRS = 1024


def is_pandas(value: object) -> bool:
    """Whether `value` is a pandas object (told without importing pandas: a process
    that never loaded it holds none)."""
    pandas = sys.modules.get("pandas")
    if pandas is None:
        return False
    kinds = (pandas.Series, pandas.Index, pandas.api.extensions.ExtensionArray)
    return isinstance(value, kinds) or value is pandas.NA


def dense_codes(values: Values) -> tuple[IntArray, int]:
    """Codes 0..k-1 for the distinct values, in the values' sort order, and k."""
    codes, k = _dense(values, compact=False)
    return cast("IntArray", codes), k


def compact_codes(values: Values) -> tuple[CodeArray, int]:
    """dense_codes in the smallest signed integer type that holds them.

    Rounds, deals, seats and tables take a byte or two a row instead of eight; combine
    widens them to int64 before any arithmetic.
    """
    return _dense(values, compact=True)


def _dense(values: Values, compact: bool) -> tuple[CodeArray, int]:
    if is_pandas(values):
        return _pandas_dense(values, compact)
    if isinstance(values, pa.DictionaryArray):
        return _dictionary_codes(values, compact)
    text = values if isinstance(values, pa.Array | pa.ChunkedArray) else None
    if text is not None:
        codes, k = text_codes(text)
        return codes.astype(code_type(k) if compact else np.int64, copy=False), k
    array = _integers_or_none(values)
    span = _integer_span(array)
    if array is not None and span is not None:
        low, high = span
        if low == high:
            # One value (one round, no sections): every code is 0.
            return np.zeros(len(array), dtype=code_type(1) if compact else np.int64), 1
        if high - low < _table_limit(len(array)):
            # Round, deal, seat, table and player numbers: a table of which values occur,
            # indexed by the values themselves when they start near 0 (no offset array).
            base = 0 if _index_a_table(low, high, len(array)) else low
            index = array if base == 0 else array - base
            present = seen_keys(index, high - base + 1)
            k = int(present.sum())
            lookup = np.cumsum(present) - 1
            return lookup.astype(code_type(k) if compact else np.int64)[index], k
    if array is not None:
        # Integers spread too wide for a table: Arrow's hash table, as for text.
        codes, k = text_codes(pa.array(array))
        return codes.astype(code_type(k) if compact else np.int64, copy=False), k
    import pandas as pd

    return _pandas_dense(pd.Series(values), compact)


def _pandas_dense(values: pd.Series, compact: bool) -> tuple[CodeArray, int]:
    """_dense of a pandas column: categories by their own codes, Arrow-backed text by
    Arrow, integers as numpy, anything else by pandas' factorize."""
    import pandas as pd

    if isinstance(values.dtype, pd.CategoricalDtype):
        return _category_codes(values, compact)
    text = _arrow_text(values)
    if text is not None:
        codes, k = text_codes(text)
        return codes.astype(code_type(k) if compact else np.int64, copy=False), k
    array = _integers_or_none(values)
    if array is not None:
        return _dense(array, compact)
    codes, uniques = pd.factorize(values, sort=True)
    k = len(uniques)
    return codes.astype(code_type(k) if compact else np.int64, copy=False), k


def _dictionary_codes(values: Any, compact: bool) -> tuple[CodeArray, int]:
    """Dense codes of a dictionary column from its indices, never its values per row."""
    indices = np.asarray(values.indices.to_numpy(zero_copy_only=False))
    order = np.asarray(pc.array_sort_indices(values.dictionary).to_numpy(), dtype=np.int64)
    place = np.empty(len(order), dtype=code_type(len(order)))
    place[order] = np.arange(len(order))
    return _dense(place[indices], compact)


def sorting_codes(values: Values) -> tuple[CodeArray, int] | None:
    """Non-negative integers below max(SMALL_RANGE, 2n) as their own codes, and their
    maximum plus one; None for any other column.

    They sort like the values and index a small table, but need not be dense: where
    only the order and a bounded size count, no codes are made (no pass over the rows).
    """
    array = _integers_or_none(values)
    span = _integer_span(array)
    if array is None or span is None or not _index_a_table(*span, len(array)):
        return None
    return array, span[1] + 1


def _integers_or_none(values: Values) -> np.ndarray | None:
    """The values as a numpy integer array without a copy, or None (asked of a column's
    type, never of its rows: text is not turned into Python objects to find out)."""
    if isinstance(values, np.ndarray):
        return values if values.dtype.kind in "iu" else None
    if is_pandas(values) and isinstance(values.dtype, np.dtype) and values.dtype.kind in "iu":
        return cast("np.ndarray", values.to_numpy())
    return None


def arrow_strings(column: Values) -> pa.ChunkedArray[Any] | None:
    """The Arrow strings behind a text column (no copy when it is Arrow-backed, or
    Arrow's own).

    None for any other column (numbers, categories).
    """
    if isinstance(column, np.ndarray):
        return None
    try:
        array = (
            column
            if isinstance(column, pa.Array | pa.ChunkedArray)
            else pa.array(column, from_pandas=True)
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    chunked = array if isinstance(array, pa.ChunkedArray) else pa.chunked_array([array])
    text_types = (pa.types.is_string, pa.types.is_large_string)
    return chunked if any(is_text(chunked.type) for is_text in text_types) else None


def _arrow_text(values: pd.Series) -> pa.ChunkedArray[Any] | None:
    """arrow_strings of an Arrow-backed text column with no missing value (any other
    column goes to pandas' factorize: no Python strings are turned into Arrow's)."""
    import pandas as pd

    if not isinstance(values.dtype, pd.StringDtype):
        return None
    if values.dtype.storage != "pyarrow" or bool(values.isna().any()):
        return None
    return arrow_strings(values)


def one_chunk(values: pa.ChunkedArray[Any] | pa.Array[Any]) -> pa.Array[Any]:
    """The values as one Arrow array: a chunked array of one chunk gives that chunk as
    it is (combine_chunks would copy it), one of several its chunks joined."""
    if not isinstance(values, pa.ChunkedArray):
        return values
    return cast(
        "pa.Array[Any]", values.chunk(0) if values.num_chunks == 1 else values.combine_chunks()
    )


def text_codes(text: pa.ChunkedArray[Any] | pa.Array[Any]) -> tuple[IntArray, int]:
    """Dense codes of strings in their sort order (Unicode code points, as Python's), by
    Arrow's hash table: one pass over the rows, then a sort of the distinct values."""
    # One table for every chunk: chunk by chunk, each would hash most values again.
    text = one_chunk(text)
    runs = _sorted_runs(text)
    if runs is not None:
        return runs
    encoded: Any = pc.dictionary_encode(text)
    dictionary, indices = encoded.dictionary, encoded.indices.to_numpy()
    order = np.asarray(pc.array_sort_indices(dictionary).to_numpy(), dtype=np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[indices], len(order)


def _sorted_runs(text: pa.Array[Any]) -> tuple[IntArray, int] | None:
    """Codes of strings already in sort order (a file sorted by name): a new code at
    each cell that differs from the one before, no hash table. None when they are not
    in order (usually told by the first cells)."""
    n = len(text)
    if n < 2 or not looks_sorted(text):
        return None
    head, tail = text.slice(0, n - 1), text.slice(1)
    if not pc.all(pc.less_equal(head, tail)).as_py():
        return None
    new = np.asarray(pc.not_equal(head, tail).to_numpy(zero_copy_only=False), dtype=bool)
    codes = np.zeros(n, dtype=np.int64)
    np.cumsum(new, out=codes[1:])
    return codes, int(codes[-1]) + 1


def looks_sorted(text: pa.ChunkedArray[Any] | pa.Array[Any]) -> bool:
    """Whether the first cells of `text` are in sort order: a hint (a file sorted by
    player) that its codes come cheap, never a promise about the rest."""
    head = text.slice(0, _FIRST_PAIRS + 1)
    return bool(pc.all(pc.less_equal(head.slice(0, len(head) - 1), head.slice(1))).as_py())


def _integer_span(array: object) -> tuple[int, int] | None:
    """The smallest and largest value of a non-empty integer array; None otherwise."""
    if not (isinstance(array, np.ndarray) and array.dtype.kind in "iu" and len(array)):
        return None
    return int(array.min()), int(array.max())


def _table_limit(n: int) -> int:
    """How many entries a table indexed by the values of n rows may have."""
    return max(SMALL_RANGE, 2 * n)


def fits_a_table(size: int, n: int) -> bool:
    """Whether a table of `size` entries, one per key, is worth making for n rows:
    within the histogram limit, and not many more entries than rows."""
    return size <= HISTOGRAM_LIMIT and size <= _table_limit(4 * n)


def _index_a_table(low: int, high: int, n: int) -> bool:
    """Whether values from low to high can index such a table as they are."""
    return low >= 0 and high < _table_limit(n)


def code_type(k: int) -> type[np.signedinteger[Any]]:
    """The smallest signed integer type holding the codes 0..k-1 (and -1 for missing)."""
    for kind in (np.int8, np.int16, np.int32):
        if k <= np.iinfo(kind).max:
            return kind
    return np.int64


def combine_values(
    group: tuple[CodeArray, int], values: np.ndarray, budget: int
) -> tuple[IntArray, int, int]:
    """(group * n_values + value code, n_groups, n_values): a group key, then values in order.

    Integers spanning at most `budget` values are coded as themselves less their
    minimum, added in place (no array of codes); others get dense codes. The codes need
    not be dense: only their order counts.
    """
    key, n_groups = group
    # Widened to int64 first: the scores added may be large before their minimum is
    # taken off.
    flat: IntArray = key.astype(np.int64)
    if values.dtype.kind in "iu" and len(values):
        low, high = int(values.min()), int(values.max())
        if high - low < max(budget, 1) and n_groups * (high - low + 1) < 1 << 62:
            flat *= high - low + 1
            flat += values
            flat -= low
            return flat, n_groups, high - low + 1
    codes, n_values = dense_codes(values)
    if n_groups * n_values >= 1 << 62:
        raise OverflowError("too many groups and values for one int64 key; renumber the groups")
    flat *= n_values
    flat += codes
    return flat, n_groups, n_values


def _category_codes(values: pd.Series, compact: bool) -> tuple[CodeArray, int]:
    """Dense codes of a categorical column from its own codes, never its values per row."""
    codes = values.cat.codes.to_numpy()
    if bool((codes < 0).any()):
        # Missing values: leave them to factorize, which gives them the code -1.
        return _dense(values.astype(values.cat.categories.dtype), compact)
    categories = values.cat.categories.to_numpy()
    # Each category's place in sort order, then codes renumbered over those that occur.
    # In the codes' own small type: a row's place is a byte when categories are few.
    place = np.empty(len(categories), dtype=code_type(len(categories)))
    place[np.argsort(categories, kind="stable")] = np.arange(len(categories))
    return _dense(place[codes], compact)


def combine(parts: list[tuple[CodeArray, int]]) -> tuple[CodeArray, int]:
    """One code per distinct combination, ordered like the parts (mixed radix).

    The codes are dense only as far as the parts' sizes multiply; they are made dense
    again only when the product would not fit an int64. They come in the smallest
    integer type that holds the product (a new array, worked in place): a caller doing
    arithmetic of its own on them widens them first, or combines them again.
    """
    if not parts:
        raise ValueError("combine needs at least one key")
    # A part with one value (a single section, say) adds nothing to the key.
    parts = [part for part in parts if part[1] > 1] or parts[:1]
    total = math.prod(n for _, n in parts)
    first, size = parts[0]
    key: CodeArray = first.astype(code_type(total) if total < 1 << 62 else np.int64)
    for codes, n in parts[1:]:
        if size * n >= 1 << 62:
            key, size = dense_codes(key)
        key *= n
        key += codes
        size *= n
    return key, size


def bounded(key: IntArray, size: int) -> tuple[IntArray, int]:
    """The key, renumbered densely when its size is too large for a table per key."""
    return dense_codes(key) if size > HISTOGRAM_LIMIT else (key, size)


def count_per(key: IntArray, size: int) -> IntArray:
    """How many rows share each row's key."""
    if size <= HISTOGRAM_LIMIT:
        return np.bincount(key, minlength=size)[key]
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    return counts[inverse]


def has_repeats(key: IntArray, size: int | None = None) -> bool:
    """Whether any key is held by more than one row (told by a table of the keys seen
    when `size`, the keys' bound, is given and small enough; else by a sort)."""
    if bool((key[1:] > key[:-1]).all()):
        # Rows in key order (as files usually come): one pass, no table.
        return False
    if size is not None and size <= HISTOGRAM_LIMIT:
        # Fewer keys seen than rows: one byte a key, where counts would take eight.
        return int(np.count_nonzero(seen_keys(key, size))) < len(key)
    ordered = np.sort(key)
    return bool((ordered[1:] == ordered[:-1]).any())


def seen_keys(key: IntArray, size: int) -> np.ndarray:
    """Which of the keys 0..size-1 some row holds (`size` bounded): one byte a key."""
    seen = np.zeros(size, dtype=bool)
    seen[key] = True
    return seen


def occupied(key: CodeArray, size: int) -> tuple[IntArray, IntArray]:
    """The keys that occur, rising, and how many rows hold each (`size` bounded).

    Rows in key order (as files usually come) give them as runs, without a table of
    counts.
    """
    if bool((key[1:] >= key[:-1]).all()):
        starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
        return key[starts].astype(np.int64), np.diff(np.append(starts, len(key)))
    counts = np.bincount(key, minlength=size)
    present = np.flatnonzero(counts)
    return present, counts[present]


def varies_within(key: IntArray, size: int, other: IntArray) -> np.ndarray:
    """For each row, whether the rows sharing its key hold more than one `other` value."""
    key, size = bounded(key, size)
    return np.asarray(varying_keys(key, size, other)[key])


def varying_keys(key: IntArray, size: int, other: IntArray) -> np.ndarray:
    """For each key (0..size-1), whether its rows hold more than one `other` value.

    One reference value per key (value_per_key), then every row compared with it: a
    scatter and a gather, no sort and no hash. `size` must be bounded.
    """
    reference = value_per_key(key, size, other)
    differs = np.zeros(size, dtype=bool)
    differs[key[other != reference[key]]] = True
    return differs


def value_per_key(key: IntArray, size: int, other: np.ndarray) -> np.ndarray:
    """For each key (0..size-1), the `other` value of one of its rows (whichever wrote
    last; 0 for a key no row holds): the value, when the rows of a key all hold one
    (a deal's round, say). `size` must be bounded."""
    reference = np.zeros(size, dtype=other.dtype)
    reference[key] = other
    return reference


def sum_by(codes: IntArray, values: np.ndarray, size: int) -> IntArray:
    """Exact integer sums of `values` per code; OutOfRange if one could pass 2**62."""
    values = np.asarray(values, dtype=np.int64)
    if abs_sum_reaches(values, 2**62):
        raise OutOfRange(
            "a total passes 2**62 units and cannot be held exactly; "
            "check for values far too large (rank points, penalties)",
            "number.out-of-range",
        )
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, codes, values)
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
    np.minimum.at(low, codes, v)
    return low, max_by(codes, v, size, np.iinfo(np.int64).min)


def max_by(codes: IntArray, values: np.ndarray, size: int, empty: int = 0) -> IntArray:
    """The largest of `values` per code (`empty` for a code no row has)."""
    high = np.full(size, empty, dtype=np.int64)
    np.maximum.at(high, codes, np.asarray(values, dtype=np.int64))
    return high


def distinct_key_order(key: CodeArray, size: int) -> IntArray | None:
    """The rows in key order, when no two rows share a key and `size` is small enough
    for a table per key: each row is put in its key's slot, no sort. None otherwise."""
    n = len(key)
    if not fits_a_table(size, n):
        return None
    slot = np.full(size, -1, dtype=np.int64)
    slot[key] = np.arange(n)
    order = slot[slot >= 0]
    return order if len(order) == n else None
