"""Vectorised grouping primitives shared by scoring and standings."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from duplicate.core.exact import IntArray


def group_codes(frame: pd.DataFrame, keys: list[str]) -> tuple[IntArray, int]:
    """A dense int64 code per distinct combination of `keys`, ordered like the keys."""
    codes = np.zeros(len(frame), dtype=np.int64)
    count = 1
    for key in keys:
        part, uniques = pd.factorize(frame[key], sort=True)
        combined = codes * len(uniques) + part
        codes, combined_uniques = pd.factorize(combined, sort=True)
        codes = codes.astype(np.int64)
        count = len(combined_uniques)
    return codes, count


@dataclass(frozen=True)
class Standing:
    """Where each row's value stands within its group (all arrays in row order)."""

    below: IntArray  # rows of the group with a strictly smaller value
    equal: IntArray  # rows of the group with the same value, itself included
    distinct_below: IntArray  # distinct smaller values in the group
    size: IntArray  # rows in the group


def standing_in_group(group: IntArray, value: npt.NDArray[np.generic]) -> Standing:
    """Compare every row with the rows of its group, by one sort, without a row loop."""
    n = len(group)
    order = np.lexsort((value, group))
    g = group[order]
    v = value[order]
    new_group = np.ones(n, dtype=bool)
    new_group[1:] = g[1:] != g[:-1]
    new_cell = new_group.copy()
    new_cell[1:] |= v[1:] != v[:-1]
    group_index = np.cumsum(new_group) - 1
    cell_index = np.cumsum(new_cell) - 1
    group_start = np.flatnonzero(new_group)
    cell_start = np.flatnonzero(new_cell)
    group_size = np.diff(np.append(group_start, n))
    cell_size = np.diff(np.append(cell_start, n))
    first_cell_of_group = cell_index[group_start]

    def unsort(sorted_values: IntArray) -> IntArray:
        out = np.empty(n, dtype=np.int64)
        out[order] = sorted_values
        return out

    return Standing(
        below=unsort(cell_start[cell_index] - group_start[group_index]),
        equal=unsort(cell_size[cell_index]),
        distinct_below=unsort(cell_index - first_cell_of_group[group_index]),
        size=unsort(group_size[group_index]),
    )
