"""Matchpoints, MP%, deal ranks and rank points (docs/scoring.md sections 2-3)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from duplicate.errors import InvalidData, Problem
from duplicate.model.adjustments import AVERAGE_CENTI, Adjustments
from duplicate.model.codes import (
    combine,
    has_repeats,
)
from duplicate.model.exact import (
    CodeArray,
    IntArray,
    div_half_up,
    fraction_sums,
)
from duplicate.model.results import Results, parse_results
from duplicate.model.robots import is_robot
from duplicate.model.row_adjustments import RowAdjustments, match_adjustments
from duplicate.model.validation import structural_problems
from duplicate.rules import Rules
from duplicate.scoring.fractions import MatchpointFractions
from duplicate.scoring.kernel import weighted_ranks
from duplicate.scoring.rank_items import RankItems, item_fractions, matchpoint_cells
from duplicate.scoring.row_order import canonical_order
from duplicate.scoring.score_table import (
    MATCHPOINT_NUMBERS,
    ScoreBatches,
    identifier_arrays,
    score_table,
)
from duplicate.scoring.scored_items import ROW_NUMBERS, ScoredItems

if TYPE_CHECKING:
    import pandas as pd


def as_results(data: Results | pd.DataFrame, rules: Rules) -> Results:
    """Accept validated Results or any DataFrame with the spec's columns."""
    if isinstance(data, Results):
        if rules.deal_scope != data.deal_scope:
            problems = structural_problems(data, rules.deal_scope)
            if problems:
                raise InvalidData(problems)
        return data
    return parse_results(data, deal_scope=rules.deal_scope)


def rank_points_cents(rank: IntArray, rules: Rules) -> IntArray:
    """Rank points in cents: base x factor for the listed ranks, base / rank after."""
    listed = np.asarray(rules.factor_cents(), dtype=np.int64)
    tail = div_half_up(np.full(len(rank), rules.rank_base * 100, dtype=np.int64), rank)
    in_list = rank <= len(listed)
    return np.where(in_list, listed[np.clip(rank - 1, 0, len(listed) - 1)], tail)


def score_items(
    results: Results, rules: Rules, adjustments: Adjustments | None = None
) -> ScoredItems:
    """Matchpoints, MP%, deal ranks and rank points of every result, held per item."""
    if adjustments is None:
        return _score_items(results, rules, None)
    adjusted = match_adjustments(results, adjustments)
    if len(adjusted.part_row):
        _refuse_shared_weighted_groups(results, rules, adjusted.part_row, adjustments.source)
    if adjusted.average.any():
        adjusted = with_averages(results, rules, adjusted)
    return _score_items(results, rules, adjusted)


def _refuse_shared_weighted_groups(
    results: Results, rules: Rules, part_row: IntArray, source: str
) -> None:
    """Two weighted results in one comparison group would each be compared with parts
    of the other: refused, as docs/scoring.md compares a weighted result with results as
    played."""
    rows = np.unique(part_row)
    group, _ = comparison_groups(results, rules)
    codes = np.asarray(group[rows], dtype=np.int64)
    shared, counts = np.unique(codes, return_counts=True)
    clash = rows[np.isin(codes, shared[counts > 1])]
    if len(clash):
        frame = results.frame.iloc[clash[:4]]
        where = ", ".join(
            f"player {p!s} on round {r}, deal {d!s}"
            for p, r, d in zip(frame["player"], frame["round"], frame["deal"], strict=True)
        )
        raise InvalidData(
            [
                Problem(
                    source,
                    f"two weighted scores in one comparison group ({where})",
                    column="kind",
                    hint="weight one of them, and assign the other an mp_pct",
                    code="adjustment.weighted-together",
                )
            ]
        )


def with_averages(results: Results, rules: Rules, adjusted: RowAdjustments) -> RowAdjustments:
    """Average plus and minus as assigned MP% (docs/scoring.md section 9): 60% or the
    player's own percentage over their other deals if higher (plus); 40% or it if lower
    (minus). The percentage is exact, then rounded half up to hundredths."""
    none = np.zeros_like(adjusted.average)
    average = adjusted.average != 0
    first = _score_items(
        results, rules, adjusted._replace(void=adjusted.void | average, average=none)
    )
    item = first.row_item
    counted = first.pct_den[item] > 0
    player, n_players = results.dense_key("section", "player")
    total, deals, common = fraction_sums(
        first.pct_num[item][counted], first.pct_den[item][counted], player[counted], n_players
    )
    own = div_half_up(total * 10000, np.maximum(deals, 1) * common)
    # A player with no other deal is taken at 50%.
    own = np.where(deals > 0, own, 5000)[player]
    assigned = adjusted.assigned_centi.copy()
    plus, minus = adjusted.average > 0, adjusted.average < 0
    assigned[plus] = np.maximum(AVERAGE_CENTI["avg_plus"], own[plus])
    assigned[minus] = np.minimum(AVERAGE_CENTI["avg_minus"], own[minus])
    return adjusted._replace(assigned_centi=assigned, average=none)


def _score_items(results: Results, rules: Rules, adjusted: RowAdjustments | None) -> ScoredItems:
    deal, n_deals = results.key(*rules.scope.deal_keys)
    seat = results.codes("seat")
    weighted_rows = np.zeros(0, dtype=np.int64) if adjusted is None else adjusted.part_row
    compared, assigned = _compared_and_assigned(adjusted, weighted_rows)
    mp_cells, cell_deal, part_group = matchpoint_cells(
        results, (deal, n_deals), seat, compared, weighted_rows
    )
    # Robots are matchpointed but take no deal rank; nor does a void.
    unranked = is_robot(results.columns["player"])
    if adjusted is not None:
        unranked = unranked | adjusted.void
    everyone_ranked = not unranked.any()
    items = RankItems.of_cells(mp_cells, cell_deal, None if everyone_ranked else unranked, compared)
    if adjusted is not None and len(weighted_rows):
        items = items.with_weighted(
            results, mp_cells, compared, deal, unranked, adjusted, part_group
        )
    numbers = item_fractions(results, rules, items, mp_cells, compared, seat)

    # Deal ranks, highest MP% first, over the items and each assigned MP% (key
    # centi / 10000). Both keys are exact (see exact.py).
    assigned_centi = np.zeros(0, dtype=np.int64) if adjusted is None else adjusted.assigned_centi
    item_rank = weighted_ranks(
        np.concatenate([items.deal, deal[assigned]]),
        np.concatenate([numbers.key, assigned_centi[assigned] / 10000]),
        np.concatenate([items.weight, np.ones(len(assigned), dtype=np.int64)]),
        dense=rules.tie_ranking == "dense",
    )
    n_cells = len(mp_cells.equal)
    row_item = _row_items(
        len(results),
        mp_cells.row_cell,
        compared,
        items.weighted,
        assigned,
        n_cells,
        len(items.mp),
    )
    return _scored_items(
        row_item,
        items.size,
        numbers,
        item_rank,
        assigned_centi[assigned],
        None if everyone_ranked else unranked,
        adjusted,
        rules,
    )


def _compared_and_assigned(
    adjusted: RowAdjustments | None, weighted_rows: IntArray
) -> tuple[IntArray | None, IntArray]:
    """The rows matchpointed against one another (None: every row), and the rows with an
    assigned MP%: adjustments assign an MP% to some rows, weight or void others."""
    if adjusted is None:
        return None, np.zeros(0, dtype=np.int64)
    assigned = np.flatnonzero(adjusted.assigned_centi >= 0)
    left_out = adjusted.void | (adjusted.assigned_centi >= 0)
    left_out[weighted_rows] = True
    return (np.flatnonzero(~left_out) if left_out.any() else None), assigned


def _row_items(
    n_rows: int,
    row_cell: IntArray,
    compared: IntArray | None,
    weighted: IntArray,
    assigned: IntArray,
    n_cells: int,
    n_items: int,
) -> IntArray:
    """Each row's item: its cell when compared; its own item when weighted (after the
    cells) or assigned (after all `n_items`); else the one item of the voids, last."""
    if compared is None and not len(assigned):
        return row_cell
    row_item = np.full(n_rows, n_items + len(assigned), dtype=np.int64)
    row_item[slice(None) if compared is None else compared] = row_cell
    row_item[weighted] = n_cells + np.arange(len(weighted))
    row_item[assigned] = n_items + np.arange(len(assigned))
    return row_item


def _scored_items(
    row_item: IntArray,
    item_size: IntArray,
    numbers: MatchpointFractions,
    item_rank: IntArray,
    assigned_pct_centi: IntArray,
    unranked: npt.NDArray[np.bool_] | None,
    adjusted: RowAdjustments | None,
    rules: Rules,
) -> ScoredItems:
    """The items' numbers, then each assigned MP%'s, then the voids' item."""
    n_assigned = len(assigned_pct_centi)
    left = np.full(n_assigned + 1, -1, dtype=np.int64)
    rank = np.concatenate([item_rank, [0]])
    return ScoredItems(
        row_item=row_item,
        n=np.concatenate([item_size, left]),
        mp=np.concatenate([numbers.mp, left]),
        top=np.concatenate([numbers.top, left]),
        mp_pct_centi=np.concatenate([numbers.centi, assigned_pct_centi, [-1]]),
        deal_rank=rank,
        points=np.where(rank > 0, rank_points_cents(np.maximum(rank, 1), rules), 0),
        unranked=unranked,
        penalty_cents=None if adjusted is None else adjusted.penalty_cents,
        note=None if adjusted is None else adjusted.note,
        mp_scale=numbers.mp_scale,
        pct_num=np.concatenate([numbers.pct_num, assigned_pct_centi, [0]]),
        pct_den=np.concatenate([numbers.pct_den, np.full(n_assigned, 10000, dtype=np.int64), [0]]),
    )


def every_group_single(results: Results, rules: Rules) -> bool:
    """Whether every comparison group (deal, seat) holds one result: nothing is compared,
    and every MP% is 50. A bridge movement plays a deal in several rounds: it needs
    deal_scope "event"."""
    group, size = comparison_groups(results, rules)
    return len(group) > 1 and not has_repeats(group, size)


def comparison_groups(results: Results, rules: Rules) -> tuple[CodeArray, int]:
    """Each result's comparison group: its deal (under the rules' deal scope) and seat."""
    return combine([results.key(*rules.scope.deal_keys), results.codes("seat")])


SINGLE_GROUPS_WARNING = (
    "every comparison group holds a single result, so every MP% is 50: if a deal is "
    "played in several rounds (a movement), give {opt:deal_scope=event}"
)


def score_rows(
    results: Results,
    rules: Rules,
    adjustments: Adjustments | None = None,
    names: tuple[str, ...] = ROW_NUMBERS,
) -> pd.DataFrame:
    """The typed results plus n, mp, top, deal_rank and points (cents), in input order.

    Rows left out of the comparison (assigned or void) have n, mp and top of -1; rows
    without a deal rank (robots, void) have deal_rank 0 and no points. `names` chooses
    the numbers added (all of ROW_NUMBERS unless fewer are needed).
    """
    return rows_with_numbers(results, score_items(results, rules, adjustments), names)


def rows_with_numbers(
    results: Results, items: ScoredItems, names: tuple[str, ...] = ROW_NUMBERS
) -> pd.DataFrame:
    """The typed results plus the numbers `names` of their items, in input order."""
    import pandas as pd

    frame = results.frame
    added = items.columns(slice(None), names)
    # Built without copying: at millions of rows every copy is a second's work.
    return pd.DataFrame({**{c: frame[c] for c in frame.columns}, **added}, copy=False)


def matchpoint_batches(
    results: Results,
    rules: Rules,
    adjustments: Adjustments | None = None,
    batch_rows: int | None = 1 << 20,
) -> ScoreBatches:
    """The matchpoint `score` table, `batch_rows` rows at a time (None: one batch).

    The numbers are held once per item (see ScoredItems) and each batch reads its own
    rows' numbers: a writer streaming the batches never holds the whole table.
    """
    # The order first: its key is as long as the results, and is gone before scoring.
    order = canonical_order(results)
    items = score_items(results, rules, adjustments)
    nullable = items.nullable() | ({"table"} if not results.has_table else set())
    nullable |= {"seconds"} if not results.has_seconds else set()
    n_rows = len(results)
    step = n_rows if batch_rows is None else max(batch_rows, 1)
    bounds = [(start, min(n_rows, start + step)) for start in range(0, n_rows, step)]

    def tables() -> Iterator[pa.Table]:
        identifiers = identifier_arrays(results.columns, results)
        for start, stop in bounds:
            rows = slice(start, stop) if order is None else order[start:stop]
            notes = None if items.note is None else items.note[rows]
            numbers = items.columns(rows, MATCHPOINT_NUMBERS)
            numbers["mp_scale"] = items.mp_scale
            yield score_table(results, identifiers, rows, numbers, notes, nullable)

    return ScoreBatches(tables(), nullable, n_rows)
