"""Totals, tie-breaks and the final order (docs/scoring.md section 4)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.model.adjustments import Adjustments
from duplicate.model.arrays import arrow_array
from duplicate.model.codes import (
    dense_codes,
    first_rows,
    sum_by,
)
from duplicate.model.exact import (
    CodeArray,
    IntArray,
    decimal_array,
    div_half_up,
    ratio_key,
)
from duplicate.model.results import Results
from duplicate.rules import Rules
from duplicate.scoring.final_order import Criterion, Players, SortKeys, final_order
from duplicate.scoring.player_stats import STATS_NUMBERS, PlayerStats, player_stats
from duplicate.scoring.scores import score_items

STANDINGS_COLUMNS = (
    "section",
    "place",
    "player",
    "total",
    "penalty",
    "deals",
    "beaten_avg",
    "rank_counts",
    "total_seconds",
    "trimmed_seconds",
    "decided_by",
    "playoff",
)


def matchpoint_standings(
    results: Results, rules: Rules, adjustments: Adjustments | None = None
) -> pa.Table:
    """One row per player in final order, with every tie-break value and `decided_by`.

    `total` is the sum of rank points less any `penalty` from the adjustments.
    """
    numbers = STATS_NUMBERS if adjustments is not None else ("deal_rank", "points")
    scored = score_items(results, rules, adjustments).columns(slice(None), numbers)
    stats = player_stats(scored, results)
    del scored  # every row's numbers: not held while the players are ranked
    return rank_players(stats, results, rules)


def standings_table(ordered: Players, names: tuple[str, ...]) -> pa.Table:
    """The columns `names` of players in final order, as the standings write them:
    text as large_string (pandas' text), numbers as they are."""
    return pa.Table.from_arrays([_arrow(ordered[name]) for name in names], names=list(names))


def _arrow(values: Any) -> pa.Array:  # type: ignore[type-arg]
    if isinstance(values, pa.Array):
        text = pa.types.is_string(values.type) or pa.types.is_large_string(values.type)
        return values.cast(pa.large_string()) if text else values
    return arrow_array(values) if isinstance(values, np.ndarray) else pa.array(values)


def rank_players(stats: PlayerStats, results: Results, rules: Rules) -> pa.Table:
    """One row per player in final order, from their reduced statistics."""
    table = stats.players
    n_players = len(table["points"])
    penalty = np.asarray(table["penalty"], dtype=np.int64)
    total = np.asarray(table["points"], dtype=np.int64) - penalty
    deals = np.asarray(table["deals"], dtype=np.int64)
    out: Players = {"section": table["section"], "player": table["player"]}
    out["total"] = decimal_array(total, 2)
    out["penalty"] = decimal_array(penalty, 2)
    out["deals"] = deals
    criteria = [Criterion("total", [-total])]
    out["beaten_avg"], beaten_keys = _beaten_average(stats, total, results.has_table)
    out["rank_counts"], rank_matrix = _rank_counts(stats, n_players)
    times, seconds_keys = _play_times(table, deals, results)
    for name, column in times.items():
        out[name] = column

    available: dict[str, SortKeys | None] = {
        "beaten_avg": beaten_keys,
        "rank_counts": list(rank_matrix.T),
        **seconds_keys,
    }
    for name in rules.tie_breaks:
        keys = available.get(name)
        if keys is not None:
            criteria.append(Criterion(name, keys))

    return standings_table(final_order(out, criteria), STANDINGS_COLUMNS)


def _beaten_average(
    stats: PlayerStats, total: IntArray, has_table: bool
) -> tuple[pa.Array, SortKeys | None]:  # type: ignore[type-arg]
    """Each player's average total of the opponents they beat (0 when none), and its
    exact sort key, highest first; missing without a table column."""
    n_players = len(total)
    if not has_table:
        return decimal_array(np.zeros(n_players, dtype=np.int64), 2, _everyone(n_players)), None
    winner = np.asarray(stats.beaten["player"], dtype=np.int64)
    opponent = np.asarray(stats.beaten["opponent"], dtype=np.int64)
    num = sum_by(winner, total[opponent], n_players)
    # No beaten opponent: 0 (0 / 1).
    den = np.maximum(np.bincount(winner, minlength=n_players).astype(np.int64), 1)
    whole, frac = ratio_key(num, den)
    return decimal_array(div_half_up(num, den), 2), [-whole, -frac]


def _rank_counts(stats: PlayerStats, n_players: int) -> tuple[pa.Array, CodeArray]:  # type: ignore[type-arg]
    """Each player's deal ranks as text ("1:2 3:1"), and the rows that compare them."""
    # Small integer types, as compact as the pairs are kept: widened where needed.
    who = np.asarray(stats.ranks["player"])
    rank = np.asarray(stats.ranks["rank"])
    counts = np.asarray(stats.ranks["count"])
    rank_matrix = stats.rank_rows
    if rank_matrix is None:
        key = who.astype(np.int64) * (int(rank.max(initial=0)) + 1) + rank
        if not bool((key[1:] > key[:-1]).all()):  # merged parts come in any order
            order = np.argsort(key, kind="stable")
            who, rank, counts = who[order], rank[order], counts[order]
        rank_matrix = _rank_rows(who, rank, counts, n_players)
    return _rank_text(who, rank, counts, n_players), rank_matrix


def _play_times(
    table: Players, deals: IntArray, results: Results
) -> tuple[dict[str, pa.Array], dict[str, SortKeys]]:  # type: ignore[type-arg]
    """Total and trimmed play times, and their sort keys (none without times)."""
    n_players = len(deals)
    if not results.has_seconds:
        none, absent = np.zeros(n_players, dtype=np.int64), _everyone(n_players)
        return {
            "total_seconds": decimal_array(none, results.seconds_scale, absent),
            "trimmed_seconds": decimal_array(none, 2, absent),
        }, {}
    total_seconds = np.asarray(table["seconds_sum"], dtype=np.int64)
    longest = np.asarray(table["seconds_max"], dtype=np.int64)
    shortest = np.asarray(table["seconds_min"], dtype=np.int64)
    # Without the longest and the shortest deal (all deals if fewer than 3).
    trim = deals >= 3
    num = np.where(trim, total_seconds - longest - shortest, total_seconds)
    den = np.where(trim, deals - 2, deals)
    unit = 10**results.seconds_scale
    columns = {
        "total_seconds": decimal_array(total_seconds, results.seconds_scale),
        "trimmed_seconds": decimal_array(div_half_up(num * 100, den * unit), 2),
    }
    return columns, {"total_seconds": [total_seconds], "trimmed_seconds": list(ratio_key(num, den))}


def _everyone(n: int) -> npt.NDArray[np.bool_]:
    return np.ones(n, dtype=bool)


def _rank_rows(player: IntArray, rank: IntArray, count: IntArray, n_players: int) -> IntArray:
    """From (player, rank, count) sorted by player then rank: each player's deal ranks,
    best first and padded past the worst rank.

    Comparing these rows lexicographically is comparing the counts of 1sts, then 2nds, ...:
    at the first position two sorted rows differ, the one with the smaller rank has more
    of that rank and the same number of every better one. The padding makes a missing
    deal count as worse than any rank.
    """
    deals = np.bincount(player, weights=count, minlength=n_players).astype(np.int64)
    width = int(deals.max()) if n_players else 0
    ranks_in_order = np.repeat(rank, count)
    if bool((deals == width).all()):
        # Every player has as many ranked deals: the ranks in order are the rows.
        return ranks_in_order.reshape(n_players, width)
    start = np.cumsum(deals) - deals
    p = np.repeat(player, count)
    matrix = np.full((n_players, width), int(rank.max(initial=0)) + 1, dtype=np.int64)
    matrix[p, np.arange(len(p)) - start[p]] = ranks_in_order
    return matrix


def _rank_text(player: IntArray, rank: IntArray, count: IntArray, n_players: int) -> pa.Array:  # type: ignore[type-arg]
    """Each player's deal ranks as text, from (player, rank, count) sorted by player then
    rank: "1:2 3:1" is two 1sts and one 3rd."""
    # Each distinct "rank:count" is written once, then picked for every pair (a field
    # of 400,000 players has millions of pairs but far fewer distinct ones).
    pair, n_pairs = dense_codes(rank.astype(np.int64) * (int(count.max(initial=0)) + 1) + count)
    first = first_rows(pair, n_pairs)
    # The stubs of pyarrow.compute do not model the separator argument of these joins.
    # Separators are typed scalars: a Python str would go through Arrow's type
    # inference, whose first use imports dateutil.
    distinct = pc.binary_join_element_wise(  # type: ignore[call-overload]
        arrow_array(rank[first]).cast(pa.string()),
        arrow_array(count[first]).cast(pa.string()),
        pa.scalar(":", pa.string()),
    )
    pieces = distinct.take(arrow_array(pair))
    per_player = np.bincount(player, minlength=n_players)
    offsets: Any = arrow_array(np.concatenate(([0], np.cumsum(per_player)))).cast(pa.int32())
    text: pa.Array = pc.binary_join(  # type: ignore[type-arg, assignment]
        pa.ListArray.from_arrays(offsets, pieces), pa.scalar(" ", pa.string())
    )
    return text.cast(pa.large_string())
