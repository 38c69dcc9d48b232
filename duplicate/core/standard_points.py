"""Standard points: the platform's Swiss scoring (003_*.txt; SCORING.md section 7).

In each comparison group the datum is the mean after dropping floor(N x trim) results at
each end (trim 0.25: two of eight, as the example). A player's difference from the datum
converts to standard points by the table below, sign kept. A fractional difference is
rounded half up to a whole number first (12.5 counts as 13, so it converts to 13).
Players rank by average standard points over the deals they played, compared exactly;
equal averages go to the player with more deals; players short of `min_deals` get no place.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from duplicate.core.exact import IntArray, decimal_series, div_half_up, ratio_key
from duplicate.core.grouping import group_codes
from duplicate.core.results import Results
from duplicate.core.robots import is_robot
from duplicate.rules import Rules

# Differences from 13 up: the largest difference of each standard-point step (13 ... 23).
STEP_TOPS = np.array([16, 21, 26, 32, 40, 49, 65, 84, 104, 144, 199], dtype=np.int64)
SP_SCORE_COLUMNS = (
    "section",
    "round",
    "deal",
    "table",
    "seat",
    "player",
    "score",
    "seconds",
    "n",
    "datum",
    "difference",
    "standard_points",
)
SP_STANDINGS_COLUMNS = (
    "section",
    "place",
    "player",
    "deals",
    "total_sp",
    "average_sp",
    "decided_by",
    "playoff",
)


def standard_points(difference: IntArray) -> IntArray:
    """Whole-number differences to standard points (sign kept), by the 003 table."""
    size = np.abs(difference)
    step = 13 + np.searchsorted(STEP_TOPS, size, side="left")
    return np.asarray(np.sign(difference) * np.where(size <= 12, size, step), dtype=np.int64)


def sp_rows(results: Results, rules: Rules) -> pd.DataFrame:
    """The results with n, the datum (num/den in score units), difference and sp per row."""
    from duplicate.core.scoring import deal_keys

    frame = results.frame
    deal, _ = group_codes(frame, deal_keys(rules))
    group, _ = group_codes(frame.assign(_deal=deal), ["_deal", "seat"])
    score = frame["score_units"].to_numpy()
    order = np.lexsort((score, group))
    g, s = group[order], score[order]
    size = np.bincount(g)
    start = np.concatenate(([0], np.cumsum(size)[:-1]))
    position = np.arange(len(g)) - start[g]
    # floor(N x trim) from each end, exactly: trim is a decimal such as 0.25.
    numerator, denominator = rules.sp_trim.as_integer_ratio()
    drop = size * numerator // denominator
    kept = (position >= drop[g]) & (position < size[g] - drop[g])
    datum_num = np.zeros(len(size), dtype=np.int64)
    np.add.at(datum_num, g[kept], s[kept])
    datum_den = size - 2 * drop
    n = np.empty(len(frame), dtype=np.int64)
    num = np.empty(len(frame), dtype=np.int64)
    den = np.empty(len(frame), dtype=np.int64)
    n[order], num[order], den[order] = size[g], datum_num[g], datum_den[g]
    # difference = score - num/den, in score units: (score x den - num) / den.
    exact = score * den - num
    unit = 10**results.score_scale
    whole = np.sign(exact) * div_half_up(np.abs(exact), den * unit)
    out = frame.copy()
    out["n"] = n
    out["datum_num"], out["datum_den"] = num, den
    out["difference_centi"] = np.sign(exact) * div_half_up(np.abs(exact) * 100, den * unit)
    out["sp"] = standard_points(whole)
    return out


def sp_score(results: Results, rules: Rules) -> pd.DataFrame:
    """One row per result: n, datum, difference and standard points."""
    rows = sp_rows(results, rules)
    keys = (
        ["section", "round", "deal", "seat"] + (["table"] if results.has_table else []) + ["player"]
    )
    rows = rows.sort_values(keys, kind="stable", ignore_index=True)
    unit = 10**results.score_scale
    n = len(rows)
    out = pd.DataFrame(
        {
            "section": rows["section"].astype("str"),
            "round": rows["round"],
            "deal": rows["deal"],
            "table": rows["table"] if results.has_table else pd.Series([None] * n, dtype="str"),
            "seat": rows["seat"],
            "player": rows["player"],
            "score": decimal_series(rows["score_units"].to_numpy(), results.score_scale),
            "seconds": decimal_series(
                rows["seconds_units"].to_numpy() if results.has_seconds else np.zeros(n, np.int64),
                results.seconds_scale,
                None if results.has_seconds else np.ones(n, dtype=bool),
            ),
            "n": rows["n"],
            "datum": decimal_series(
                np.sign(rows["datum_num"].to_numpy())
                * div_half_up(
                    np.abs(rows["datum_num"].to_numpy()) * 100, rows["datum_den"].to_numpy() * unit
                ),
                2,
            ),
            "difference": decimal_series(rows["difference_centi"].to_numpy(), 2),
            "standard_points": rows["sp"],
        }
    )
    return out[list(SP_SCORE_COLUMNS)]


def sp_standings(results: Results, rules: Rules) -> pd.DataFrame:
    """Players by average standard points (exact), more deals first on equal averages."""
    rows = sp_rows(results, rules)
    rows = rows[~is_robot(rows["player"])].reset_index(drop=True)
    player, n_players = group_codes(rows, ["section", "player"])
    first = np.full(n_players, len(rows), dtype=np.int64)
    np.minimum.at(first, player, np.arange(len(rows), dtype=np.int64))
    total = np.zeros(n_players, dtype=np.int64)
    np.add.at(total, player, rows["sp"].to_numpy())
    deals = np.bincount(player, minlength=n_players).astype(np.int64)
    whole, frac = ratio_key(total, deals)
    placed = deals >= rules.sp_min_deals
    section_code, _ = group_codes(rows.iloc[first], ["section"])
    # Placed players first, by average (high first), then deals (more first), then id.
    order = np.lexsort((np.arange(n_players), -deals, -frac, -whole, ~placed, section_code))
    sec, wh, fr, dl = section_code[order], whole[order], frac[order], deals[order]
    pl: np.ndarray = placed[order]
    n = n_players
    new_section = np.ones(n, dtype=bool)
    new_section[1:] = sec[1:] != sec[:-1]
    by_average = np.zeros(n, dtype=bool)
    by_average[1:] = (wh[1:] != wh[:-1]) | (fr[1:] != fr[:-1])
    by_deals = np.zeros(n, dtype=bool)
    by_deals[1:] = dl[1:] != dl[:-1]
    decided = np.where(by_average, "average", np.where(by_deals, "deals", "tied")).astype(object)
    decided[new_section | ~pl] = ""
    new_place = new_section | (decided != "tied")
    starts = np.maximum.accumulate(np.where(new_place, np.arange(n), 0))
    section_start = np.maximum.accumulate(np.where(new_section, np.arange(n), 0))
    place = starts - section_start + 1
    group = np.cumsum(new_place) - 1
    playoff = (np.bincount(group)[group] > 1) & pl
    out = pd.DataFrame(
        {
            "section": pd.Series(rows["section"].to_numpy()[first][order], dtype="str"),
            "place": pd.array(np.where(pl, place, 0), dtype="Int64"),
            "player": rows["player"].to_numpy()[first][order],
            "deals": dl,
            "total_sp": total[order],
            "average_sp": decimal_series(
                np.sign(total[order]) * div_half_up(np.abs(total[order]) * 100, dl), 2
            ),
            "decided_by": pd.Series(decided, dtype="str"),
            "playoff": playoff,
        }
    )
    out["place"] = out["place"].mask(~pl)
    return out[list(SP_STANDINGS_COLUMNS)]
