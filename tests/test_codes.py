"""Codes and combined keys: compact types, and the same keys as plain int64 arithmetic."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.model.codes import (
    SMALL_RANGE,
    code_type,
    combine,
    compact_codes,
    dense_codes,
    occupied,
    sorting_codes,
)
from duplicate.model.results import parse_results
from duplicate.scoring.row_order import canonical_order


@settings(max_examples=200, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 300), min_size=1, max_size=4),
    rows=st.integers(1, 50),
    seed=st.integers(0, 2**32 - 1),
)
def test_combined_keys_are_mixed_radix_in_the_smallest_type(
    sizes: list[int], rows: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    parts = [(rng.integers(0, n, rows).astype(code_type(n)), n) for n in sizes]
    key, size = combine(parts)
    expected = np.zeros(rows, dtype=np.int64)
    for codes, n in parts:
        expected = expected * n + codes.astype(np.int64)
    assert size == int(np.prod(sizes))
    assert key.tolist() == expected.tolist()
    assert key.dtype == np.dtype(code_type(size))


@given(values=st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=40))
def test_compact_codes_are_dense_codes_in_a_small_type(values: list[int]) -> None:
    array = np.array(values, dtype=np.int64)
    codes, k = compact_codes(array)
    wide, k_wide = dense_codes(array)
    assert (k, codes.tolist()) == (k_wide, wide.tolist())
    assert codes.dtype == np.dtype(code_type(k))
    assert k == len(set(values))
    assert codes.tolist() == np.unique(array, return_inverse=True)[1].tolist()


@given(
    values=st.lists(st.sampled_from(["", "B", "A", "东", "C"]), min_size=1, max_size=40),
    unused=st.lists(st.sampled_from(["Z", "a", "0"]), unique=True, max_size=3),
)
def test_category_codes_follow_the_values_sort_order(values: list[str], unused: list[str]) -> None:
    """Codes of a categorical column, whatever its categories' order and unused ones."""
    categories = sorted(set(values) | set(unused), reverse=True)
    column = pd.Series(pd.Categorical(values, categories=categories))
    codes, k = compact_codes(column)
    expected = np.unique(np.array(values), return_inverse=True)[1]
    assert (k, codes.tolist()) == (len(set(values)), expected.tolist())


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.integers(1, 2), st.integers(1, 3), st.integers(0, 2), st.integers(0, 3)),
        min_size=1,
        max_size=12,
        unique=True,
    ),
    text_players=st.booleans(),
    sort_first=st.booleans(),
)
def test_rows_in_order_need_no_sort(
    rows: list[tuple[int, int, int, int]], text_players: bool, sort_first: bool
) -> None:
    """canonical_order is None exactly when the rows already come in order."""
    if sort_first:
        rows = sorted(rows)
    frame = pd.DataFrame(rows, columns=["round", "deal", "seat", "player"]).assign(score=0)
    if text_players:
        frame["player"] = "p" + frame["player"].astype(str)
    results = parse_results(frame, check_structure=False)
    key = list(zip(*(frame[c] for c in ["round", "deal", "seat", "player"]), strict=True))
    in_order = all(a < b for a, b in itertools.pairwise(key))
    order = canonical_order(results)
    assert (order is None) == in_order
    if order is not None:
        assert [key[i] for i in order] == sorted(key)


@settings(max_examples=200, deadline=None)
@given(
    keys=st.lists(st.integers(0, 30), max_size=30),
    ordered=st.booleans(),
    histogram=st.booleans(),
)
def test_repeats_are_found_in_any_order(keys: list[int], ordered: bool, histogram: bool) -> None:
    import duplicate.model.codes as codes

    values = np.array(sorted(keys) if ordered else keys, dtype=np.int64)
    # Both ways of counting: a table of counts, or a sort (keys too many for a table).
    size = 31 if histogram else codes.HISTOGRAM_LIMIT + 1
    assert codes.has_repeats(values, size) == (len(set(keys)) < len(keys))
    # With no bound given, always by a sort.
    assert codes.has_repeats(values) == (len(set(keys)) < len(keys))


@given(values=st.lists(st.integers(-3, 70_000), min_size=1, max_size=40))
def test_small_non_negative_integers_are_their_own_sorting_codes(values: list[int]) -> None:
    array = np.array(values, dtype=np.int64)
    own = sorting_codes(array)
    if min(values) < 0 or max(values) >= max(SMALL_RANGE, 2 * len(values)):
        assert own is None
    else:
        assert own is not None
        codes, size = own
        assert codes is array
        assert size == max(values) + 1


@given(
    keys=st.lists(st.integers(0, 30), min_size=1, max_size=60),
    in_order=st.booleans(),
)
def test_occupied_keys_and_their_counts(keys: list[int], in_order: bool) -> None:
    key = np.array(sorted(keys) if in_order else keys, dtype=np.int32)
    present, counts = occupied(key, 31)
    expected, expected_counts = np.unique(key, return_counts=True)
    assert present.tolist() == expected.tolist()
    assert counts.tolist() == expected_counts.tolist()


@given(st.lists(st.integers(0, 60), min_size=0, max_size=50), st.booleans())
def test_distinct_keys_are_ordered_by_placing_each_row(keys: list[int], distinct: bool) -> None:
    from duplicate.model.codes import distinct_key_order

    if distinct:
        keys = list(dict.fromkeys(keys))
    key = np.array(keys, dtype=np.int64)
    order = distinct_key_order(key, 61)
    if len(set(keys)) == len(keys):
        assert order is not None
        assert order.tolist() == np.argsort(key, kind="stable").tolist()
    else:
        assert order is None


@given(
    st.lists(st.text(min_size=0, max_size=4), min_size=0, max_size=40),
    st.integers(1, 4),
    st.sampled_from(["as drawn", "sorted", "sorted but the last"]),
)
def test_text_codes_follow_pythons_string_order(values: list[str], chunks: int, order: str) -> None:
    """In any order, and already sorted (a file sorted by name) or nearly so."""
    import pyarrow as pa

    from duplicate.model.codes import text_codes

    if order != "as drawn":
        values = sorted(values)
    if order == "sorted but the last" and len(values) > 1:
        values = values[1:] + values[:1]
    cut = [values[i::chunks] for i in range(chunks)] if order == "as drawn" else [values]
    flat = [v for part in cut for v in part]
    text = pa.chunked_array([pa.array(part, pa.large_string()) for part in cut], pa.large_string())
    codes, k = text_codes(text)
    distinct = sorted(set(flat))
    assert k == len(distinct)
    assert codes.tolist() == [distinct.index(v) for v in flat]


def test_text_sorted_at_first_but_not_later_is_coded_by_its_values() -> None:
    import pyarrow as pa

    from duplicate.model.codes import text_codes

    values = [f"P{i:05d}" for i in range(3000)] + ["P00000", "A"]
    codes, k = text_codes(pa.array(values, pa.string()))
    distinct = sorted(set(values))
    assert k == len(distinct)
    assert codes.tolist() == [distinct.index(v) for v in values]
