"""The standings' two shortcuts: sorting only tied runs, and counting ranks in a table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.core import standings
from duplicate.core.standings import _lexical_order
from tests.golden.regenerate import cases, expected_outputs

CASES = cases()


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 60),
    n_keys=st.integers(1, 6),
    spread=st.integers(1, 4),
)
def test_lexical_order_is_lexsort(seed: int, n: int, n_keys: int, spread: int) -> None:
    rng = np.random.default_rng(seed)
    # Few values per key, so that many rows tie on the first keys; the last key is an
    # id, as in the standings, so the order is total.
    keys = [rng.integers(0, spread, n) for _ in range(n_keys)]
    keys.append(rng.permutation(n))
    expected = np.lexsort(keys[::-1])
    assert np.array_equal(_lexical_order(keys), expected)


def test_float_keys_sort_too() -> None:
    keys = [np.array([0, 0, 0, 1]), np.array([0.5, 0.25, 0.5, 0.0]), np.array([3, 2, 1, 0])]
    assert _lexical_order(keys).tolist() == np.lexsort(keys[::-1]).tolist() == [1, 2, 0, 3]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rank_counts_by_sorting_pairs_give_the_same_standings(
    case: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both ways of counting each player's deal ranks agree (a table per player, or a sort)."""
    expected = expected_outputs(case)["standings.csv"]
    monkeypatch.setattr(standings, "HISTOGRAM_LIMIT", 0)
    assert expected_outputs(case)["standings.csv"] == expected
