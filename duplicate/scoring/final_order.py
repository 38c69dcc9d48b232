"""The final order of a field: criteria in turn, each a few sort keys, then the
player id; places shared by players level on every criterion (a play-off), and what
decided each place. Used by every scoring method's standings."""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa

from duplicate.model.arrays import arrow_array
from duplicate.model.exact import FloatArray, IntArray
from duplicate.model.grouping import group_codes, section_codes

# A player is one (section, player) pair.
PLAYER_KEYS = ["section", "player"]

SortKeys = list[IntArray | FloatArray]


class Criterion(NamedTuple):
    """One step of the final order: its name and its sort keys (smaller sorts first)."""

    name: str
    keys: SortKeys


# A table of players: columns by name, numpy arrays or Arrow arrays (section, text ids).
Players = dict[str, Any]


def final_order(table: Players, criteria: list[Criterion]) -> Players:
    """Players by section, then the criteria, then player id, with place and play-off.

    `table` has one row per player with section and player; each criterion's keys are
    arrays over its rows, smaller sorting first. Gives its rows in that order, with
    place, decided_by and playoff.
    """
    player_order, _ = group_codes(table, PLAYER_KEYS)
    section, _ = section_codes(table["section"])
    keys = [section] + [k for c in criteria for k in c.keys] + [player_order]
    order = _lexical_order(keys)
    taken: Any = arrow_array(order)
    ordered = {
        name: values.take(taken) if isinstance(values, pa.Array) else np.asarray(values)[order]
        for name, values in table.items()
    }
    return _place(ordered, section[order], criteria, order)


def _lexical_order(keys: list[IntArray | FloatArray]) -> IntArray:
    """Positions sorted by keys[0], then keys[1], ... (what np.lexsort gives, reversed).

    Key by key, only the runs still tied are sorted by the next key: in a big field
    ties are soon broken, and the later keys (up to one per deal rank) are sorted for
    the few players still level, not for everyone.
    """
    order = np.argsort(keys[0], kind="stable").astype(np.int64)
    new_run = np.zeros(len(order), dtype=bool)
    new_run[:1] = True
    for previous, key in itertools.pairwise(keys):
        k = previous[order]
        new_run[1:] |= k[1:] != k[:-1]
        run = np.cumsum(new_run) - 1
        at = np.flatnonzero(np.bincount(run)[run] > 1)
        if not len(at):
            break
        rows = order[at]
        # np.lexsort sorts by its last key first: the run, then this key, stably.
        order[at] = rows[np.lexsort([key[rows], run[at]])]
    return order


def _place(
    ordered: Players, section: IntArray, criteria: list[Criterion], order: IntArray
) -> Players:
    """decided_by, shared places and play-off flags for players in final order."""
    n = len(section)
    new_section = np.ones(n, dtype=bool)
    new_section[1:] = section[1:] != section[:-1]
    decided = np.full(n, "tied", dtype=object)
    undecided = ~new_section
    for criterion in criteria:
        differs = np.zeros(n, dtype=bool)
        for key in criterion.keys:
            k = key[order]
            differs[1:] |= k[1:] != k[:-1]
        hit = undecided & differs
        decided[hit] = criterion.name
        undecided &= ~hit
    decided[new_section] = ""
    new_place = decided != "tied"
    position = np.arange(n, dtype=np.int64) - _start_of(new_section)
    place = position[_start_of(new_place)] + 1
    tie_group = np.cumsum(new_place) - 1
    playoff = np.bincount(tie_group)[tie_group] > 1
    ordered["place"] = place
    ordered["decided_by"] = pa.array(decided.tolist(), pa.large_string())
    ordered["playoff"] = playoff
    return ordered


def _start_of(starts: np.ndarray) -> IntArray:
    """For each position, the index of the latest True at or before it."""
    index = np.where(starts, np.arange(len(starts)), 0)
    return np.maximum.accumulate(index).astype(np.int64)
