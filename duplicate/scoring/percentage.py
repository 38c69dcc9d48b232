"""Standings by session percentage (docs/scoring.md section 9), the bridge clubs' way.

A player's percentage is the mean of their MP% over the deals they have a result on
(assigned results included, void ones not), exactly (exact.fraction_sums).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from duplicate.model.adjustments import Adjustments
from duplicate.model.codes import first_rows, sum_by
from duplicate.model.exact import decimal_array, div_half_up, fraction_sums, ratio_key
from duplicate.model.grouping import group_codes
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules
from duplicate.scoring.final_order import PLAYER_KEYS, Criterion, final_order
from duplicate.scoring.player_stats import section_text, take
from duplicate.scoring.scores import score_items
from duplicate.scoring.standings import standings_table

PERCENTAGE_COLUMNS = ("section", "place", "player", "percentage", "mp", "top", "deals")


def percentage_standings(
    results: Results, rules: Rules, adjustments: Adjustments | None = None
) -> pa.Table:
    """Players by exact session percentage; equal percentages share the place."""
    items = score_items(results, rules, adjustments)
    item = items.row_item
    counted = (items.pct_den[item] > 0) & ~is_robot(results.columns["player"])
    rows = np.flatnonzero(counted)
    num, den = items.pct_num[item][counted], items.pct_den[item][counted]
    mp, top = items.mp[item][counted], items.top[item][counted]
    kept = {name: take(results.columns[name], rows) for name in PLAYER_KEYS}
    player, n_players = group_codes(kept, PLAYER_KEYS)
    total, deals, common = fraction_sums(num, den, player, n_players)
    first = first_rows(player, n_players)
    compared = mp >= 0
    whole, fraction = ratio_key(total, deals)
    mp_total = sum_by(player, np.where(compared, mp, 0), n_players)
    table = {
        "section": section_text(kept["section"], first),
        "player": take(kept["player"], first),
        "percentage": decimal_array(div_half_up(total * 10000, deals * common), 2),
        "mp": decimal_array(mp_total, items.mp_scale) if items.mp_scale else mp_total,
        "top": sum_by(player, np.where(compared, top, 0), n_players),
        "deals": deals,
    }
    ordered = final_order(table, [Criterion("percentage", [-whole, -fraction])])
    return standings_table(ordered, PERCENTAGE_COLUMNS)
