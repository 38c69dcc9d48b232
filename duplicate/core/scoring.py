"""Matchpoints, MP%, deal ranks and rank points (SCORING.md sections 2-3)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from duplicate.core.adjustments import Adjustments, match_adjustments, no_adjustments
from duplicate.core.exact import IntArray, decimal_series, div_half_up
from duplicate.core.grouping import group_codes, standing_in_group
from duplicate.core.results import Results, parse_results
from duplicate.core.robots import is_robot
from duplicate.core.validation import structural_problems
from duplicate.errors import InvalidData
from duplicate.rules import Rules

SCORE_COLUMNS = (
    "section",
    "round",
    "deal",
    "table",
    "seat",
    "player",
    "score",
    "seconds",
    "n",
    "mp",
    "top",
    "mp_pct",
    "deal_rank",
    "rank_points",
    "adjustment",
)


def as_results(data: Results | pd.DataFrame, rules: Rules) -> Results:
    """Accept validated Results or any DataFrame with the spec's columns."""
    if isinstance(data, Results):
        if rules.deal_scope != data.deal_scope:
            problems = structural_problems(data, rules.deal_scope)
            if problems:
                raise InvalidData(problems)
        return data
    return parse_results(data, deal_scope=rules.deal_scope)


def refuse_adjustments(adjustments: Adjustments | None) -> None:
    """Corrections (assigned MP%, penalties in rank points) belong to matchpoint scoring."""
    if adjustments is not None:
        from duplicate.errors import UsageError

        raise UsageError("adjustments apply to matchpoint scoring, not to standard points")


def deal_keys(rules: Rules) -> list[str]:
    """The columns that identify one deal under the rules' deal scope."""
    return ["section", "round", "deal"] if rules.deal_scope == "round" else ["section", "deal"]


def rank_points_cents(rank: IntArray, rules: Rules) -> IntArray:
    """Rank points in cents: base x factor for the listed ranks, base / rank after."""
    listed = np.asarray(rules.factor_cents(), dtype=np.int64)
    tail = div_half_up(np.full(len(rank), rules.rank_base * 100, dtype=np.int64), rank)
    in_list = rank <= len(listed)
    return np.where(in_list, listed[np.clip(rank - 1, 0, len(listed) - 1)], tail)


def score_rows(
    results: Results, rules: Rules, adjustments: Adjustments | None = None
) -> pd.DataFrame:
    """The typed results plus n, mp, top, deal_rank and points (cents), in input order.

    Rows left out of the comparison (assigned or void) have n, mp and top of -1; rows
    without a deal rank (robots, void) have deal_rank 0 and no points.
    """
    frame = results.frame
    n_rows = len(frame)
    adjusted = (
        match_adjustments(results, adjustments)
        if adjustments is not None
        else no_adjustments(n_rows)
    )
    deal, _ = group_codes(frame, deal_keys(rules))
    seat_group, _ = group_codes(frame.assign(_deal=deal), ["_deal", "seat"])

    compared = ~adjusted.void & (adjusted.assigned_centi < 0)
    by_score = standing_in_group(seat_group[compared], frame["score_units"].to_numpy()[compared])
    size = np.full(n_rows, -1, dtype=np.int64)
    mp = np.full(n_rows, -1, dtype=np.int64)
    size[compared] = by_score.size
    mp[compared] = 2 * by_score.below + by_score.equal - 1
    top = np.where(compared, 2 * (size - 1), -1)
    # A group of one has nothing to compare with: it counts as average (MP% 50).
    # An assigned MP% (2 decimals) is the fraction centi / 10000, exact as a key too.
    pct_key = np.where(
        compared,
        np.where(top > 0, mp / np.maximum(top, 1), 0.5),
        adjusted.assigned_centi / 10000,
    )

    # Highest MP% first: rank on the negated key. The key is exact (see exact.py).
    # Robots are matchpointed but take no deal rank (0 here, empty in output); nor
    # does a void result.
    ranked = ~is_robot(frame["player"]) & ~adjusted.void
    by_pct = standing_in_group(deal[ranked], -pct_key[ranked])
    rank = np.zeros(n_rows, dtype=np.int64)
    if rules.tie_ranking == "competition":
        rank[ranked] = by_pct.below + 1
    else:
        rank[ranked] = by_pct.distinct_below + 1

    scored = frame.copy()
    scored["n"] = size
    scored["mp"] = mp
    scored["top"] = top
    scored["mp_pct_centi"] = np.select(
        [top > 0, compared, ~adjusted.void],
        [div_half_up(mp * 10000, np.maximum(top, 1)), 5000, adjusted.assigned_centi],
        default=-1,
    )
    scored["deal_rank"] = rank
    scored["points"] = np.where(ranked, rank_points_cents(np.maximum(rank, 1), rules), 0)
    scored["penalty"] = adjusted.penalty_cents
    scored["adjustment"] = adjusted.note
    return scored


def score(
    data: Results | pd.DataFrame,
    rules: Rules | None = None,
    adjustments: Adjustments | None = None,
) -> pd.DataFrame:
    """One row per result with its matchpoints, MP%, deal rank and rank points.

    Rows come in a canonical order (section, round, deal, seat, table, player), so the
    same results in any row order give the same table.
    """
    rules = rules or Rules()
    results = as_results(data, rules)
    if rules.method == "standard-points":
        from duplicate.core.standard_points import sp_score

        refuse_adjustments(adjustments)
        return sp_score(results, rules)
    scored = score_rows(results, rules, adjustments)
    sort_keys = ["section", "round", "deal", "seat"]
    sort_keys += ["table", "player"] if results.has_table else ["player"]
    scored = scored.sort_values(sort_keys, kind="stable", ignore_index=True)
    return format_scores(scored, results)


def format_scores(scored: pd.DataFrame, results: Results) -> pd.DataFrame:
    """The public columns of `score`, with exact decimals for points and percentages."""
    n = len(scored)
    absent = np.ones(n, dtype=bool)
    left_out = (scored["n"] < 0).to_numpy()
    void = (scored["mp_pct_centi"] < 0).to_numpy()
    unranked = (scored["deal_rank"] == 0).to_numpy()
    out = pd.DataFrame(
        {
            "section": scored["section"].astype("str"),
            "round": scored["round"].astype("int64"),
            "deal": scored["deal"],
            "table": scored["table"] if results.has_table else pd.Series([None] * n, dtype="str"),
            "seat": scored["seat"],
            "player": scored["player"],
            "score": decimal_series(scored["score_units"].to_numpy(), results.score_scale),
            "seconds": decimal_series(
                scored["seconds_units"].to_numpy()
                if results.has_seconds
                else np.zeros(n, np.int64),
                results.seconds_scale,
                None if results.has_seconds else absent,
            ),
            "n": scored["n"].astype("Int64").mask(left_out),
            "mp": scored["mp"].astype("Int64").mask(left_out),
            "top": scored["top"].astype("Int64").mask(left_out),
            "mp_pct": decimal_series(scored["mp_pct_centi"].to_numpy(), 2, void),
            "deal_rank": scored["deal_rank"].astype("Int64").mask(unranked),
            "rank_points": decimal_series(scored["points"].to_numpy(), 2, unranked),
            "adjustment": scored["adjustment"].astype("str"),
        }
    )
    return out[list(SCORE_COLUMNS)]
