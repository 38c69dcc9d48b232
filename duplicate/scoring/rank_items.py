"""What is ranked on each deal: the (comparison group, score) cells of the compared
rows, then each weighted result, with their MP and MP% (docs/scoring.md sections 2 and 9)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from duplicate.model.codes import combine, combine_values, dense_codes
from duplicate.model.exact import CodeArray, IntArray
from duplicate.model.results import Results
from duplicate.model.row_adjustments import RowAdjustments
from duplicate.rules import Rules
from duplicate.scoring.fractions import (
    MatchpointFractions,
    matchpoint_fractions,
    neuberg,
)
from duplicate.scoring.kernel import Cells, cells
from duplicate.scoring.weighted import weighted_scores

# Group and score codes share one int64 key while their sizes multiply below this.
KEY_LIMIT = 1 << 62


def of_compared(values: np.ndarray, compared: IntArray | None) -> np.ndarray:
    """The values of the rows matchpointed against one another (None: every row)."""
    return values if compared is None else values[compared]


def matchpoint_cells(
    results: Results,
    deal: tuple[CodeArray, int],
    seat: tuple[CodeArray, int],
    compared: IntArray | None,
    weighted_rows: IntArray,
) -> tuple[Cells, IntArray, IntArray]:
    """The (comparison group, score) cells of the compared rows, each cell's deal, and
    the comparison group of each weighted row."""
    n_rows = len(results)
    # Comparison groups (deal, seat), then scores: any codes that sort like the scores
    # will do, as cells need order, not density.
    group, n_groups = combine([deal, seat])
    deal_of_group: IntArray | None = None
    if n_groups * max(n_rows, 1) >= KEY_LIMIT:
        # Codes too sparse for one key: renumber the groups that occur.
        group, n_groups = dense_codes(group)
        deal_of_group = np.zeros(n_groups, dtype=np.int64)
        deal_of_group[group] = deal[0]
    flat, n_groups, n_values = combine_values(
        (group, n_groups), results.numbers("score_units"), max(n_rows, 1) // n_groups
    )
    part_group = np.asarray(group[weighted_rows], dtype=np.int64)
    del group
    mp_cells = cells(of_compared(flat, compared), n_groups, n_values)
    del flat  # as long as the results: let it go before the outputs come
    cell_deal = (
        mp_cells.group // seat[1] if deal_of_group is None else deal_of_group[mp_cells.group]
    )
    return mp_cells, cell_deal, part_group


class RankItems(NamedTuple):
    """What is ranked on each deal: the cells (counted once for each ranked row in
    them), then each weighted result; MP in `unit`s of a matchpoint."""

    mp: IntArray
    size: IntArray
    deal: IntArray
    weight: IntArray
    unit: int
    # The weighted results' rows (none for items of the cells alone).
    weighted: IntArray

    @staticmethod
    def of_cells(
        mp_cells: Cells,
        cell_deal: IntArray,
        unranked: npt.NDArray[np.bool_] | None,
        compared: IntArray | None,
    ) -> RankItems:
        weight = (
            mp_cells.equal
            if unranked is None
            else np.bincount(
                mp_cells.row_cell[~of_compared(unranked, compared)],
                minlength=len(mp_cells.equal),
            )
        )
        mp = 2 * mp_cells.below + mp_cells.equal - 1
        return RankItems(
            mp, mp_cells.size, cell_deal, weight, unit=1, weighted=np.zeros(0, dtype=np.int64)
        )

    def with_weighted(
        self,
        results: Results,
        mp_cells: Cells,
        compared: IntArray | None,
        deal: CodeArray,
        unranked: npt.NDArray[np.bool_],
        adjusted: RowAdjustments,
        part_group: IntArray,
    ) -> RankItems:
        """Weighted results as items of their own, after the cells; MP in hundredths."""
        cell_units = np.zeros(len(mp_cells.equal), dtype=np.int64)
        cell_units[mp_cells.row_cell] = of_compared(results.numbers("score_units"), compared)
        parts = weighted_scores(
            mp_cells,
            self.mp,
            cell_units,
            adjusted.part_row,
            part_group,
            adjusted.part_units,
            adjusted.part_weight,
        )
        weighted = parts.rows
        return RankItems(
            mp=np.concatenate([parts.cell_mp, parts.mp]),
            size=np.concatenate([parts.cell_size, parts.size]),
            deal=np.concatenate([self.deal, deal[weighted]]),
            weight=np.concatenate([self.weight, (~unranked[weighted]).astype(np.int64)]),
            unit=100,
            weighted=weighted,
        )


def item_fractions(
    results: Results,
    rules: Rules,
    items: RankItems,
    mp_cells: Cells,
    compared: IntArray | None,
    seat: tuple[CodeArray, int],
) -> MatchpointFractions:
    """Each item's MP and MP%, as counted or factored (Neuberg, per session and seat)."""
    if rules.factoring != "neuberg":
        return matchpoint_fractions(items.mp, items.size, items.unit)
    session = combine([results.key(*rules.scope.session_keys), seat])[0]
    session_seat = np.zeros(len(items.mp), dtype=np.int64)
    n_cells = len(mp_cells.equal)
    session_seat[mp_cells.row_cell] = of_compared(session, compared)
    session_seat[n_cells:] = session[items.weighted]
    return neuberg(items.mp, items.size, items.unit, session_seat)
