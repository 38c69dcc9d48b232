"""Grouping rows into the table-deals a game score is computed over."""

from __future__ import annotations

import numpy as np

from duplicate.model.codes import min_max_by
from duplicate.model.exact import IntArray
from duplicate.model.grouping import group_codes
from duplicate.model.results import Results


def table_deals(results: Results) -> tuple[IntArray, int]:
    """A code per (section, round, deal, table): the players of one game."""
    return group_codes(results.frame, ["section", "round", "deal", "table"])


def differs_within(codes: IntArray, values: np.ndarray, size: int) -> np.ndarray:
    """Per table-deal: whether `values` are not all equal."""
    low, high = min_max_by(codes, values, size)
    return np.asarray(low != high)
