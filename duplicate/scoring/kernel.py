"""The matchpoint kernel: work on distinct (group, score) cells, then gather back to rows.

A comparison group holds many equal scores; a deal holds few distinct MP%. So the
matchpoints of a row depend only on its cell (comparison group, score), and its deal
rank only on its cell's MP%: both are computed once per cell, then read by each row.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from duplicate.model.codes import HISTOGRAM_LIMIT
from duplicate.model.exact import FloatArray, IntArray


class Cells(NamedTuple):
    """Distinct (group, value) cells, ordered by group then value, and each row's cell."""

    row_cell: IntArray  # per row: index of its cell
    group: IntArray  # per cell
    below: IntArray  # rows of the group with a smaller value
    equal: IntArray  # rows with this value
    size: IntArray  # rows of the group
    distinct_below: IntArray  # distinct smaller values in the group


def cells(flat: IntArray, n_groups: int, n_values: int) -> Cells:
    """Count each (group, value) cell and what lies below it, without sorting rows.

    `flat` holds group * n_values + value for each row (see codes.combine_values).
    """
    if n_groups * n_values <= HISTOGRAM_LIMIT:
        counts = np.bincount(flat, minlength=n_groups * n_values)
        occupied = np.flatnonzero(counts)
        equal = counts[occupied]
        lookup = np.empty(n_groups * n_values, dtype=np.int64)
        lookup[occupied] = np.arange(len(occupied))
        row_cell = lookup[flat]
    else:
        occupied, row_cell, equal = np.unique(flat, return_inverse=True, return_counts=True)
    cell_group = occupied // n_values
    # Cells are in (group, value) order: running totals restart at each group.
    new_group = np.ones(len(occupied), dtype=bool)
    new_group[1:] = cell_group[1:] != cell_group[:-1]
    start = np.maximum.accumulate(np.where(new_group, np.arange(len(occupied)), 0))
    running = np.cumsum(equal) - equal
    below = running - running[start]
    index = np.arange(len(occupied))
    group_total = np.add.reduceat(equal, np.flatnonzero(new_group)) if len(occupied) else equal
    size = group_total[np.cumsum(new_group) - 1]
    return Cells(
        row_cell=np.asarray(row_cell, dtype=np.int64),
        group=cell_group.astype(np.int64),
        below=below.astype(np.int64),
        equal=equal.astype(np.int64),
        size=size.astype(np.int64),
        distinct_below=(index - start).astype(np.int64),
    )


def weighted_ranks(group: IntArray, key: FloatArray, weight: IntArray, dense: bool) -> IntArray:
    """Rank items by key, highest first, within their group, counting each `weight` times.

    Competition ranking: 1 + the weight of higher keys. Dense: 1 + distinct higher keys.
    Items of weight 0 are ranked but never count against others.
    """
    n = len(group)
    order = np.lexsort((-key, group))
    g, k, w = group[order], key[order], weight[order]
    new_group = np.ones(n, dtype=bool)
    new_group[1:] = g[1:] != g[:-1]
    new_key = new_group.copy()
    new_key[1:] |= k[1:] != k[:-1]
    run = np.cumsum(new_key) - 1
    run_weight = np.zeros(run[-1] + 1 if n else 0, dtype=np.int64)
    np.add.at(run_weight, run, w)
    runs_new_group = new_group[new_key]
    higher_weight = np.cumsum(run_weight) - run_weight
    first_run = np.maximum.accumulate(np.where(runs_new_group, np.arange(len(run_weight)), 0))
    higher_weight = higher_weight - higher_weight[first_run]
    counted = (run_weight > 0).astype(np.int64)
    higher_runs = np.cumsum(counted) - counted
    higher_runs = higher_runs - higher_runs[first_run]
    rank_sorted = 1 + (higher_runs if dense else higher_weight)[run]
    ranks = np.empty(n, dtype=np.int64)
    ranks[order] = rank_sorted
    return ranks
