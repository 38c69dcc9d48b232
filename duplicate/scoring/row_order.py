"""The order `score` writes rows in: (section, round, deal, table, seat, player)."""

from __future__ import annotations

import numpy as np

from duplicate.model.codes import combine, distinct_key_order
from duplicate.model.exact import IntArray
from duplicate.model.results import Results


def canonical_order(results: Results) -> IntArray | None:
    """Row positions in (section, round, deal, table, seat, player) order; None if already.

    Files usually arrive in that order already: a few comparison passes, then no sort.
    A table's seat holds one player per deal, so with a table column the order is
    found without the players, by placing each row at its (deal, table, seat).
    """
    places = ["table", "seat", "player"] if results.has_table else ["seat", "player"]
    if _in_order(results, ["section", "round", "deal", *places]):
        return None
    deal = results.key("section", "round", "deal")
    if results.has_table:
        order = distinct_key_order(
            *combine([deal, results.sorting_codes("table"), results.codes("seat")])
        )
        if order is not None:
            return order
    key, _ = combine([deal, *(results.codes(k) for k in places)])
    return np.argsort(key, kind="stable").astype(np.int64)


def _in_order(results: Results, columns: list[str]) -> bool:
    """Whether each row comes strictly after the one before, by `columns` in turn.

    Integer columns are compared as they are (no codes needed); others by their codes,
    which sort like them. Columns are compared until every pair of rows is decided.
    """
    n = len(results)
    later = np.zeros(max(n - 1, 0), dtype=bool)
    same = np.ones(max(n - 1, 0), dtype=bool)
    for name in columns:
        column = results.columns[name]
        integers = isinstance(column, np.ndarray) and column.dtype.kind in "iu"
        values = column if integers else results.codes(name)[0]
        later |= same & (values[1:] > values[:-1])
        same &= values[1:] == values[:-1]
        if not same.any():
            break
    return bool(later.all())
