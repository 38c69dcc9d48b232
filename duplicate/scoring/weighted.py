"""Weighted assigned scores (docs/scoring.md section 9): one result replaced by several scores,
each with a weight in percent.

The weighted result scores the weighted sum of each part's matchpoints against the other
results as played; every other result is compared with each part, with that part's
weight. Matchpoints are counted in hundredths (weights are whole percents), exactly.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from duplicate.model.codes import sum_by
from duplicate.model.exact import IntArray
from duplicate.scoring.kernel import Cells


class WeightedScores(NamedTuple):
    """The cells' matchpoints and sizes with the weighted results counted in, and one
    item per weighted result (in the order of `rows`)."""

    cell_mp: IntArray  # hundredths of a matchpoint
    cell_size: IntArray
    rows: IntArray  # the weighted results' rows
    mp: IntArray  # hundredths of a matchpoint
    size: IntArray


def weighted_scores(
    mp_cells: Cells,
    cell_mp: IntArray,
    cell_units: IntArray,
    part_row: IntArray,
    part_group: IntArray,
    part_units: IntArray,
    part_weight: IntArray,
) -> WeightedScores:
    """Count each weighted result's parts into its comparison group.

    `cell_units` is each cell's score; the parts give the row they replace, its
    comparison group (in the cells' group codes), their score and weight. A group holds
    at most one weighted result (scores.score_items refuses more).
    """
    n_cells = len(cell_mp)
    rows, part_item = np.unique(part_row, return_inverse=True)
    # Dense codes for groups and scores over cells and parts together, so that one
    # integer key sorts both by (group, score): the cells are in that order already.
    _, group = np.unique(np.concatenate([mp_cells.group, part_group]), return_inverse=True)
    values, value = np.unique(np.concatenate([cell_units, part_units]), return_inverse=True)
    width = len(values) + 1
    key = group.astype(np.int64) * width + value
    cell_key, part_key = key[:n_cells], key[n_cells:]
    cell_start = group[:n_cells].astype(np.int64) * width
    part_start = group[n_cells:].astype(np.int64) * width

    # Each part against the results as played: 2 for each below it, 1 for each equal.
    played = np.concatenate([[0], np.cumsum(mp_cells.equal)])
    start = played[np.searchsorted(cell_key, part_start)]
    low = played[np.searchsorted(cell_key, part_key)]
    high = played[np.searchsorted(cell_key, part_key, side="right")]
    end = played[np.searchsorted(cell_key, part_start + width)]
    part_mp = 2 * (low - start) + (high - low)
    mp = sum_by(part_item, part_weight * part_mp, len(rows))
    size = np.zeros(len(rows), dtype=np.int64)
    size[part_item] = end - start + 1

    # Each cell against every part of its group, by the part's weight.
    order = np.argsort(part_key, kind="stable")
    sorted_key = part_key[order]
    weight = np.concatenate([[0], np.cumsum(part_weight[order])])
    first = weight[np.searchsorted(sorted_key, cell_start)]
    below = weight[np.searchsorted(sorted_key, cell_key)]
    equal = weight[np.searchsorted(sorted_key, cell_key, side="right")]
    has_weighted = np.zeros(int(group.max(initial=0)) + 1, dtype=np.int64)
    has_weighted[group[n_cells:]] = 1
    return WeightedScores(
        cell_mp=100 * cell_mp + 2 * (below - first) + (equal - below),
        cell_size=mp_cells.size + has_weighted[group[:n_cells]],
        rows=rows.astype(np.int64),
        mp=mp,
        size=size,
    )
