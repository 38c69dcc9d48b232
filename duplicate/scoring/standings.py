"""Totals, tie-breaks and the final order (SCORING.md section 4)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.model.adjustments import Adjustments
from duplicate.model.codes import (
    dense_codes,
    first_rows,
    sum_by,
)
from duplicate.model.exact import (
    CodeArray,
    IntArray,
    decimal_series,
    div_half_up,
    ratio_key,
)
from duplicate.model.results import Results
from duplicate.rules import Rules
from duplicate.scoring.final_order import Criterion, SortKeys, final_order
from duplicate.scoring.player_stats import STATS_NUMBERS, PlayerStats, player_stats
from duplicate.scoring.scores import score_rows

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
) -> pd.DataFrame:
    """One row per player in final order, with every tie-break value and `decided_by`.

    `total` is the sum of rank points less any `penalty` from the adjustments.
    """
    numbers = STATS_NUMBERS if adjustments is not None else ("deal_rank", "points")
    scored = score_rows(results, rules, adjustments, numbers)
    stats = player_stats(scored, results)
    del scored  # every row's numbers: not held while the players are ranked
    return rank_players(stats, results, rules)


def rank_players(stats: PlayerStats, results: Results, rules: Rules) -> pd.DataFrame:
    """One row per player in final order, from their reduced statistics."""
    table = stats.players
    n_players = len(table)
    penalty = table["penalty"].to_numpy(dtype=np.int64)
    total = table["points"].to_numpy(dtype=np.int64) - penalty
    deals = table["deals"].to_numpy(dtype=np.int64)
    out = pd.DataFrame(
        {
            "section": pd.Series(table["section"].to_numpy(), dtype="str"),
            "player": table["player"].to_numpy(),
        }
    )
    out["total"] = decimal_series(total, 2)
    out["penalty"] = decimal_series(penalty, 2)
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

    return final_order(out, criteria)[list(STANDINGS_COLUMNS)]


def _beaten_average(
    stats: PlayerStats, total: IntArray, has_table: bool
) -> tuple[pd.Series, SortKeys | None]:
    """Each player's average total of the opponents they beat (0 when none), and its
    exact sort key, highest first; missing without a table column."""
    n_players = len(total)
    if not has_table:
        return decimal_series(np.zeros(n_players, dtype=np.int64), 2, _everyone(n_players)), None
    winner = stats.beaten["player"].to_numpy(dtype=np.int64)
    opponent = stats.beaten["opponent"].to_numpy(dtype=np.int64)
    num = sum_by(winner, total[opponent], n_players)
    # No beaten opponent: 0 (0 / 1).
    den = np.maximum(np.bincount(winner, minlength=n_players).astype(np.int64), 1)
    whole, frac = ratio_key(num, den)
    return decimal_series(div_half_up(num, den), 2), [-whole, -frac]


def _rank_counts(stats: PlayerStats, n_players: int) -> tuple[pd.Series, CodeArray]:
    """Each player's deal ranks as text ("1:2 3:1"), and the rows that compare them."""
    # Small integer types, as compact as the pairs are kept: widened where needed.
    who = stats.ranks["player"].to_numpy()
    rank = stats.ranks["rank"].to_numpy()
    counts = stats.ranks["count"].to_numpy()
    rank_matrix = stats.rank_rows
    if rank_matrix is None:
        key = who.astype(np.int64) * (int(rank.max(initial=0)) + 1) + rank
        if not bool((key[1:] > key[:-1]).all()):  # merged parts come in any order
            order = np.argsort(key, kind="stable")
            who, rank, counts = who[order], rank[order], counts[order]
        rank_matrix = _rank_rows(who, rank, counts, n_players)
    return _rank_text(who, rank, counts, n_players), rank_matrix


def _play_times(
    table: pd.DataFrame, deals: IntArray, results: Results
) -> tuple[dict[str, pd.Series], dict[str, SortKeys]]:
    """Total and trimmed play times, and their sort keys (none without times)."""
    n_players = len(table)
    if not results.has_seconds:
        none, absent = np.zeros(n_players, dtype=np.int64), _everyone(n_players)
        return {
            "total_seconds": decimal_series(none, results.seconds_scale, absent),
            "trimmed_seconds": decimal_series(none, 2, absent),
        }, {}
    total_seconds = table["seconds_sum"].to_numpy(dtype=np.int64)
    longest = table["seconds_max"].to_numpy(dtype=np.int64)
    shortest = table["seconds_min"].to_numpy(dtype=np.int64)
    # Without the longest and the shortest deal (all deals if fewer than 3).
    trim = deals >= 3
    num = np.where(trim, total_seconds - longest - shortest, total_seconds)
    den = np.where(trim, deals - 2, deals)
    unit = 10**results.seconds_scale
    columns = {
        "total_seconds": decimal_series(total_seconds, results.seconds_scale),
        "trimmed_seconds": decimal_series(div_half_up(num * 100, den * unit), 2),
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


def _rank_text(player: IntArray, rank: IntArray, count: IntArray, n_players: int) -> pd.Series:
    """Each player's deal ranks as text, from (player, rank, count) sorted by player then
    rank: "1:2 3:1" is two 1sts and one 3rd."""
    # Each distinct "rank:count" is written once, then picked for every pair (a field
    # of 400,000 players has millions of pairs but far fewer distinct ones).
    pair, n_pairs = dense_codes(rank.astype(np.int64) * (int(count.max(initial=0)) + 1) + count)
    first = first_rows(pair, n_pairs)
    # The stubs of pyarrow.compute do not model the separator argument of these joins.
    distinct = pc.binary_join_element_wise(  # type: ignore[call-overload]
        pa.array(rank[first]).cast(pa.string()), pa.array(count[first]).cast(pa.string()), ":"
    )
    pieces = distinct.take(pa.array(pair))
    per_player = np.bincount(player, minlength=n_players)
    offsets = pa.array(np.concatenate(([0], np.cumsum(per_player))), type=pa.int32())
    text: pa.Array = pc.binary_join(  # type: ignore[type-arg, assignment]
        pa.ListArray.from_arrays(offsets, pieces), " "
    )
    return pd.Series(text, dtype="str")
