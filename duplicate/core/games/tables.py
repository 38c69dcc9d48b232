"""Grouping rows into the table-deals a game score is computed over."""

from __future__ import annotations

import numpy as np

from duplicate.core.exact import IntArray
from duplicate.core.grouping import group_codes
from duplicate.core.results import Results


def table_deals(results: Results) -> tuple[IntArray, int]:
    """A code per (section, round, deal, table): the players of one game."""
    return group_codes(results.frame, ["section", "round", "deal", "table"])


def per_table(codes: IntArray, values: np.ndarray, size: int) -> IntArray:
    """Sum of integer `values` per table-deal (exact)."""
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, codes, np.asarray(values, dtype=np.int64))
    return out


def differs_within(codes: IntArray, values: np.ndarray, size: int) -> np.ndarray:
    """Per table-deal: whether `values` are not all equal."""
    low = np.full(size, np.iinfo(np.int64).max, dtype=np.int64)
    high = np.full(size, np.iinfo(np.int64).min, dtype=np.int64)
    v = np.asarray(values, dtype=np.int64)
    np.minimum.at(low, codes, v)
    np.maximum.at(high, codes, v)
    return np.asarray(low != high)
