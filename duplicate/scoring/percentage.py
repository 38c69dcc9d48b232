"""Standings by session percentage (SCORING.md section 9), the bridge clubs' way.

A player's percentage is the mean of their MP% over the deals they have a result on
(assigned results included, void ones not), exactly (exact.fraction_sums).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from duplicate.model.adjustments import Adjustments
from duplicate.model.codes import first_rows, sum_by
from duplicate.model.exact import decimal_series, div_half_up, fraction_sums, ratio_key
from duplicate.model.grouping import group_codes
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules
from duplicate.scoring.final_order import PLAYER_KEYS, Criterion, final_order
from duplicate.scoring.scores import score_items

PERCENTAGE_COLUMNS = ("section", "place", "player", "percentage", "mp", "top", "deals")


def percentage_standings(
    results: Results, rules: Rules, adjustments: Adjustments | None = None
) -> pd.DataFrame:
    """Players by exact session percentage; equal percentages share the place."""
    items = score_items(results, rules, adjustments)
    frame = results.frame
    item = items.row_item
    counted = (items.pct_den[item] > 0) & ~is_robot(frame["player"])
    rows = frame[counted].reset_index(drop=True)
    num, den = items.pct_num[item][counted], items.pct_den[item][counted]
    mp, top = items.mp[item][counted], items.top[item][counted]
    player, n_players = group_codes(rows, PLAYER_KEYS)
    total, deals, common = fraction_sums(num, den, player, n_players)
    first = first_rows(player, n_players)
    compared = mp >= 0
    whole, fraction = ratio_key(total, deals)
    table = pd.DataFrame(
        {
            "section": pd.Series(rows["section"].iloc[first].astype("str").to_numpy(), dtype="str"),
            "player": rows["player"].iloc[first].to_numpy(),
            "percentage": decimal_series(div_half_up(total * 10000, deals * common), 2),
            "mp": _mp_sums(sum_by(player, np.where(compared, mp, 0), n_players), items.mp_scale),
            "top": sum_by(player, np.where(compared, top, 0), n_players),
            "deals": deals,
        }
    )
    ordered = final_order(table, [Criterion("percentage", [-whole, -fraction])])
    return ordered[list(PERCENTAGE_COLUMNS)]


def _mp_sums(total: np.ndarray, scale: int) -> pd.Series:
    return decimal_series(total, scale) if scale else pd.Series(total, dtype="int64")
