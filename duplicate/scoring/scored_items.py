"""Every result's scoring numbers, held once per rank item (scoring.scores makes them)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from duplicate.model.exact import IntArray
from duplicate.scoring.score_table import adjustment_notes

# The numbers score_rows adds to each result.
ROW_NUMBERS = ("n", "mp", "top", "mp_pct_centi", "deal_rank", "points", "penalty", "adjustment")


class ScoredItems(NamedTuple):
    """Every result's numbers, held once per rank item and read through each row's item.

    The items are the distinct (comparison group, score) cells, then each assigned MP%,
    then one item for the rows left out entirely (void). Per item: n, mp and top (-1
    when left out of the comparison), MP% in hundredths (-1 for a void), deal rank and
    rank points in cents. A row's numbers are its item's, but for rows in `unranked`
    (robots and voids), which take deal rank 0 and no points.
    """

    row_item: IntArray
    n: IntArray
    mp: IntArray
    top: IntArray
    mp_pct_centi: IntArray
    deal_rank: IntArray
    points: IntArray
    unranked: npt.NDArray[np.bool_] | None
    penalty_cents: IntArray | None
    note: npt.NDArray[np.object_] | None
    # Each item's MP% as an exact fraction of 1, pct_num / pct_den (0 / 0 for a void).
    pct_num: IntArray
    pct_den: IntArray
    # Decimals of `mp`: 0, or 2 when factoring makes it fractional (hundredths).
    mp_scale: int = 0

    def columns(
        self, rows: IntArray | slice, names: tuple[str, ...] = ROW_NUMBERS
    ) -> dict[str, Any]:
        """The computed columns `names` of `rows` (positions in the results, or a slice)."""
        item = self.row_item[rows]
        return {name: self._column(name, rows, item) for name in names}

    def _column(self, name: str, rows: IntArray | slice, item: IntArray) -> Any:
        n_rows = len(item)
        if name in ("deal_rank", "points"):
            values = (self.deal_rank if name == "deal_rank" else self.points)[item]
            if self.unranked is not None:
                values[self.unranked[rows]] = 0
            return values
        if name == "penalty":
            if self.penalty_cents is None:
                return np.zeros(n_rows, dtype=np.int64)
            return self.penalty_cents[rows]
        if name == "adjustment":
            return adjustment_notes(None if self.note is None else self.note[rows], n_rows)
        per_item: IntArray = getattr(self, name)
        return per_item[item]

    def nullable(self) -> set[str]:
        """The computed columns of `score` that miss a value on some row."""
        used = np.zeros(len(self.n), dtype=bool)
        used[self.row_item] = True
        # n, mp and top are -1 together: on the items of rows left out of the comparison.
        left_out = bool((self.n[used] < 0).any())
        missing = {
            "n": left_out,
            "mp": left_out,
            "top": left_out,
            "mp_pct": bool((self.mp_pct_centi[used] < 0).any()),
            "deal_rank": bool((self.deal_rank[used] == 0).any())
            or (self.unranked is not None and bool(self.unranked.any())),
            "adjustment": self.note is None or bool((self.note == "").any()),
        }
        missing["rank_points"] = missing["deal_rank"]
        return {name for name, some in missing.items() if some}
