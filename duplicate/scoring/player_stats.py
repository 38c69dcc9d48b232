"""What the standings need of each player (docs/scoring.md section 4): totals, deals, play
times, deal-rank counts and opponents beaten, reducible across parts of an event."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pyarrow as pa

from duplicate.model.arrays import arrow_array
from duplicate.model.codes import (
    HISTOGRAM_LIMIT,
    code_type,
    combine,
    dense_codes,
    first_rows,
    min_max_by,
    sum_by,
)
from duplicate.model.exact import CodeArray, IntArray
from duplicate.model.grouping import group_codes
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.scoring.final_order import PLAYER_KEYS

if TYPE_CHECKING:
    import pandas as pd

# Columns by name, numpy arrays (and Arrow text for sections and player ids).
Table = dict[str, Any]


class PlayerStats(NamedTuple):
    """What the standings need of each player, reducible across parts of an event.

    players: one row per player (section, player, points and penalty in cents, deals,
    play time sum, min and max). ranks: player (a row of `players`), rank, count, for
    ranked deals. beaten: player and opponent (rows of `players`), once per round an
    opponent at the player's table scored lower. Each a table of columns by name.
    """

    players: Table
    ranks: Table
    beaten: Table
    # Each player's deal ranks, best first, padded past the worst rank (the rows
    # rank_counts compares), when the ranks were counted in a table; parts reduced
    # together have none, and the rows are made again from `ranks`.
    rank_rows: CodeArray | None = None

    def without_rank_rows(self) -> PlayerStats:
        """The statistics as reduced across parts (the rank rows are not sent)."""
        return PlayerStats(self.players, self.ranks, self.beaten)


# What player_stats reads of each scored result.
STATS_NUMBERS = ("deal_rank", "points", "penalty")


def player_stats(numbers: Mapping[str, Any], results: Results) -> PlayerStats:
    """Per-player sums of scored rows (whole rounds, so tablemates are all present).

    `numbers` are the rows' deal_rank, points and (with adjustments) penalty, in the
    order of `results` (as ScoredItems.columns or score_rows give them), so the
    results' codes (players, deals, tables) serve without being computed again.
    """
    # Robots take no place, and beating one is not beating an opponent.
    robots = is_robot(results.columns["player"])
    keep = ~robots if robots.any() else None

    def own(values: Any) -> Any:
        """A numpy column of the rows kept."""
        values = np.asarray(values)
        return values if keep is None else values[keep]

    def own_codes(codes: tuple[CodeArray, int]) -> tuple[CodeArray, int]:
        return own(codes[0]), codes[1]

    player, n = own_codes(results.dense_key("section", "player"))
    if keep is not None:
        player, n = dense_codes(player)
    first = first_rows(player, n)
    # Each player's first row among all the results: their section and id.
    origin = first if keep is None else np.flatnonzero(keep)[first]
    seconds = (
        own(results.numbers("seconds_units"))
        if results.has_seconds
        else np.zeros(len(player), np.int64)
    )
    shortest, longest = min_max_by(player, seconds, n)
    deal_rank = own(numbers["deal_rank"])
    players = {
        "section": section_text(results.columns["section"], origin),
        "player": take(results.columns["player"], origin),
        "points": sum_by(player, own(numbers["points"]), n),
        # No adjustments, no penalty column: no array of zeros as long as the results.
        "penalty": (
            sum_by(player, own(numbers["penalty"]), n)
            if "penalty" in numbers
            else np.zeros(n, dtype=np.int64)
        ),
        # A void result is not a deal played (its deal rank is 0; robots are out).
        "deals": np.bincount(player[deal_rank > 0], minlength=n).astype(np.int64),
        "seconds_sum": sum_by(player, seconds, n),
        "seconds_min": shortest,
        "seconds_max": longest,
    }
    deal = own_codes(results.dense_key("section", "round", "deal"))
    ranks, rank_rows = _rank_pairs(deal_rank, (player, n), deal)
    beaten = (
        _beaten_pairs(
            own(results.numbers("score_units")),
            (player, n),
            own_codes(results.dense_key("section", "round")),
            own_codes(results.codes("table")),
        )
        if results.has_table
        else {"player": np.zeros(0, np.int64), "opponent": np.zeros(0, np.int64)}
    )
    return PlayerStats(players, ranks, beaten, rank_rows)


def take(values: Any, rows: IntArray) -> Any:
    """The values at `rows` of a numpy or Arrow column."""
    if isinstance(values, pa.Array):
        return values.take(arrow_array(rows))
    return np.asarray(values)[rows]


def section_text(sections: Any, rows: IntArray) -> pa.Array:  # type: ignore[type-arg]
    """The sections of `rows` as text (the one empty section of a file without them
    too), as the standings write them."""
    taken = take(sections, rows)
    if isinstance(taken, pa.DictionaryArray):
        taken = taken.cast(taken.type.value_type)
    if not isinstance(taken, pa.Array):
        taken = pa.array([str(v) for v in taken])
    text: pa.Array = taken.cast(pa.large_string())  # type: ignore[type-arg]
    return text


def _rank_pairs(
    rank: IntArray, players: tuple[CodeArray, int], deals: tuple[CodeArray, int]
) -> tuple[Table, CodeArray | None]:
    """(player, rank, count) of each player's ranked deals, by player then rank; and
    the rank rows (see PlayerStats) when they were made on the way.

    A player has one result per (section, round, deal): when a table of players by
    deals fits, each player's ranks are put in their row, sorted along it, and counted
    in runs, with no sort of all the results; the sorted table is the rank rows.
    Otherwise the (player, rank) pairs are sorted and counted.
    """
    (player, n), (deal, n_deals) = players, deals
    # A void result has no rank (0) and counts for no place.
    ranked = rank > 0
    if not ranked.all():
        player, deal, rank = player[ranked], deal[ranked], rank[ranked]
    rows: CodeArray | None = None
    if n * n_deals > HISTOGRAM_LIMIT:
        width = int(rank.max(initial=0)) + 1
        cell, count = np.unique(player.astype(np.int64) * width + rank, return_counts=True)
        who, what = cell // width, cell % width
    else:
        # Unranked or unplayed deals hold the padding, worse than any rank: it sorts
        # last, and is dropped from the pairs below.
        padding = int(rank.max(initial=0)) + 1
        table = np.full((n, n_deals), padding, dtype=code_type(padding + 1))
        # One flat index, not a pair: numpy would widen both index arrays to int64.
        # Worked in place: one array as long as the results, not three.
        index = player.astype(np.int64)
        index *= n_deals
        index += deal
        table.ravel()[index] = rank
        del index
        table.sort(axis=1)
        flat = table.ravel()
        new_run = np.ones(len(flat), dtype=bool)
        new_run[1:] = flat[1:] != flat[:-1]
        new_run[:: max(n_deals, 1)] = True  # each player's row starts a run
        starts = np.flatnonzero(new_run)
        del new_run
        # Run lengths, without a copy of `starts` to append the end to.
        count = np.empty_like(starts)
        np.subtract(starts[1:], starts[:-1], out=count[:-1])
        count[-1:] = len(flat) - starts[-1:]
        what = flat[starts]
        keep = what < padding
        if not keep.all():  # runs of padding: deals a player has no rank for
            starts, what, count = starts[keep], what[keep], count[keep]
        who = starts // max(n_deals, 1)
        # As wide as the most ranked deals any player has (rank_counts' rows).
        rows = table[:, : int(np.bincount(player, minlength=1).max())]
    # As compact as they can be: the pairs are about as many as the results.
    pairs = {
        "player": np.asarray(who, dtype=code_type(n)),
        "rank": what,  # in the table's small type
        "count": np.asarray(count, dtype=code_type(len(rank) + 1)),
    }
    return pairs, rows


def merge_stats(parts: list[PlayerStats]) -> PlayerStats:
    """Player statistics of several parts of an event, reduced to one row per player."""
    import pandas as pd

    def frame(table: Table) -> pd.DataFrame:
        return pd.DataFrame(
            {k: v.to_pandas() if isinstance(v, pa.Array) else v for k, v in table.items()}
        )

    def columns(table: pd.DataFrame) -> Table:
        return {str(k): _held(table[k]) for k in table.columns}

    merged = _merged(
        [
            SimpleNamespace(players=frame(p.players), ranks=frame(p.ranks), beaten=frame(p.beaten))
            for p in parts
        ]
    )
    return PlayerStats(columns(merged[0]), columns(merged[1]), columns(merged[2]))


def _held(column: pd.Series) -> Any:
    """A pandas column as the statistics hold it: numbers as numpy, text as Arrow."""
    if isinstance(column.dtype, np.dtype) and column.dtype != object:
        return column.to_numpy()
    return pa.array(column.astype("str"), pa.large_string())


def _merged(parts: list[Any]) -> tuple[Any, Any, Any]:
    """merge_stats on pandas tables."""
    import pandas as pd

    stacked = pd.concat([p.players for p in parts], ignore_index=True)
    player, n = group_codes(stacked, PLAYER_KEYS)
    offsets = np.cumsum([0] + [len(p.players) for p in parts])
    first = first_rows(player, n)
    shortest, _ = min_max_by(player, stacked["seconds_min"].to_numpy(), n)
    _, longest = min_max_by(player, stacked["seconds_max"].to_numpy(), n)
    players = pd.DataFrame(
        {
            "section": stacked["section"].iloc[first].to_numpy(),
            "player": stacked["player"].iloc[first].to_numpy(),
            **{
                column: sum_by(player, stacked[column].to_numpy(), n)
                for column in ("points", "penalty", "deals", "seconds_sum")
            },
            "seconds_min": shortest,
            "seconds_max": longest,
        }
    )

    def renumbered(frame: pd.DataFrame, offset: int, columns: tuple[str, ...]) -> pd.DataFrame:
        return frame.assign(**{c: player[frame[c].to_numpy() + offset] for c in columns})

    placed = list(zip(parts, offsets, strict=False))
    ranks = pd.concat([renumbered(p.ranks, o, ("player",)) for p, o in placed], ignore_index=True)
    # Counts summed across parts in int64: each part's are as small as that part needs.
    ranks["count"] = ranks["count"].astype(np.int64)
    ranks = ranks.groupby(["player", "rank"], sort=False)["count"].sum().reset_index()
    beaten = pd.concat(
        [renumbered(p.beaten, o, ("player", "opponent")) for p, o in placed], ignore_index=True
    )
    return players, ranks, beaten


def _beaten_pairs(
    score_units: IntArray,
    players: tuple[CodeArray, int],
    rounds: tuple[CodeArray, int],
    tables: tuple[CodeArray, int],
) -> Table:
    """(player, opponent) codes: once per round an opponent at the table scored lower.

    An opponent is beaten in a round when both sat at the same table and the opponent's
    round score is lower; each (round, opponent) counts once. A player keeps one table a
    round (validation sees to it), so round scores are sums per (player, round).
    `rounds` are codes of (section, round).
    """
    # One key per (player, round); in a one-round event the players' own dense codes.
    key, n_keys = players if rounds[1] == 1 else dense_codes(combine([players, rounds])[0])
    score = np.zeros(n_keys, dtype=np.int64)
    np.add.at(score, key, score_units)
    first = first_rows(key, n_keys)
    player, table = players[0][first].astype(np.int64), tables[0][first].astype(np.int64)
    round_code = rounds[0][first].astype(np.int64)
    # Every pair of keys at one (round, table), itself included: the keys in table
    # order, each paired with the run of its table (a table holds a few players).
    group, _ = dense_codes(combine([(round_code, rounds[1]), (table, tables[1])])[0])
    order = np.argsort(group, kind="stable")
    sizes = np.bincount(group)
    start = np.cumsum(sizes) - sizes
    in_order = group[order]
    reps = sizes[in_order]
    left = np.repeat(np.arange(len(order)), reps)
    block = np.repeat(np.cumsum(reps) - reps, reps)
    right = start[in_order][left] + np.arange(len(left)) - block
    a, b = order[left], order[right]
    lower = score[b] < score[a]
    return {"player": player[a][lower], "opponent": player[b][lower]}
