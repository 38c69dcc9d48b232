"""Standings by session percentage (docs/scoring.md section 9), the bridge clubs' way.

By default a player's percentage is the mean of their MP% over the deals they have a
result on (assigned results included, void ones not), exactly (exact.fraction_sums).
The percentage conventions of bridge scoring programs (docs/bridge.md) change how it
is found: total MP over total top, from board MPs rounded as published, how a half
rounds, shared places written `8=`, ties split by count-back (percentage_conventions).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from duplicate.model.adjustments import Adjustments
from duplicate.model.codes import first_rows, sum_by
from duplicate.model.exact import IntArray, decimal_array, ratio_key
from duplicate.model.grouping import group_codes, section_codes
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules
from duplicate.scoring.final_order import PLAYER_KEYS, Criterion, final_order
from duplicate.scoring.percentage_conventions import (
    BoardFigures,
    PairPercentages,
    board_figures,
    count_back_points,
    pair_percentages,
    place_text,
)
from duplicate.scoring.player_stats import section_text, take
from duplicate.scoring.scores import comparison_groups, score_items
from duplicate.scoring.standings import standings_table

PERCENTAGE_COLUMNS = ("section", "place", "player", "percentage", "mp", "top", "deals")


def percentage_standings(
    results: Results, rules: Rules, adjustments: Adjustments | None = None
) -> pa.Table:
    """Players by exact session percentage; equal percentages share the place (or are
    split by count-back when the rules say so)."""
    figures, kept, player, n_players, pct, rows = _counted(results, rules, adjustments)
    first = first_rows(player, n_players)
    compared = figures.compared
    mp_total = sum_by(player, np.where(compared, figures.mp, 0), n_players)
    table = {
        "section": section_text(kept["section"], first),
        "player": take(kept["player"], first),
        "percentage": decimal_array(pct.centi, 2),
        "mp": decimal_array(mp_total, figures.mp_scale) if figures.mp_scale else mp_total,
        "top": sum_by(player, np.where(compared, figures.top, 0), n_players),
        "deals": pct.deals,
    }
    whole, fraction = ratio_key(pct.key_num, pct.key_den)
    criteria = [Criterion("percentage", [-whole, -fraction])]
    if rules.place_ties == "count-back":
        section, _ = section_codes(table["section"])
        deal, _ = results.key(*rules.scope.deal_keys)
        points = count_back_points(
            figures, player, np.asarray(deal, dtype=np.int64)[rows], section, whole, fraction
        )
        criteria.append(Criterion("count_back", [-points]))
    ordered = final_order(table, criteria)
    if rules.shared_places == "equals":
        ordered["place"] = place_text(ordered["place"], ordered["section"])
    return standings_table(ordered, PERCENTAGE_COLUMNS)


_Counted = tuple[BoardFigures, dict[str, Any], IntArray, int, PairPercentages, IntArray]


def _counted(results: Results, rules: Rules, adjustments: Adjustments | None) -> _Counted:
    """The counted results' board figures, their players (kept columns, codes, count),
    the players' percentages and the counted rows."""
    items = score_items(results, rules, adjustments)
    item = items.row_item
    counted = (items.pct_den[item] > 0) & ~is_robot(results.columns["player"])
    rows = np.flatnonzero(counted)
    # The comparison groups' tops count for assigned results, when a convention uses
    # board MPs (total MP, or rounded MPs); the default needs none.
    by_mp = rules.percentage_of == "total" or rules.board_mp != "exact"
    group = comparison_groups(results, rules)[0] if by_mp else None
    figures = board_figures(items, group, rows, rules)
    kept = {name: take(results.columns[name], rows) for name in PLAYER_KEYS}
    player, n_players = group_codes(kept, PLAYER_KEYS)
    pct = pair_percentages(figures, player, n_players, rules)
    return figures, kept, player, n_players, pct, rows


def exact_percentages(
    results: Results, rules: Rules, adjustments: Adjustments | None = None
) -> dict[str, Any]:
    """Each player's session percentage before it is rounded to hundredths: section,
    player and the exact percentage as num / den (Python integers)."""
    _, kept, player, n_players, pct, _ = _counted(results, rules, adjustments)
    first = first_rows(player, n_players)
    return {
        "section": section_text(kept["section"], first),
        "player": take(kept["player"], first),
        "num": [100 * int(n) for n in pct.key_num],
        "den": [int(d) * pct.common for d in pct.key_den],
    }
