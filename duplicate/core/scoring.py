"""Matchpoints, MP%, deal ranks and rank points (SCORING.md sections 2-3)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from duplicate.core.adjustments import Adjustments, match_adjustments, no_adjustments
from duplicate.core.codes import combine, dense_codes
from duplicate.core.exact import IntArray, decimal_series, div_half_up, int_series, null_text
from duplicate.core.kernel import cells, weighted_ranks
from duplicate.core.results import Results, parse_results
from duplicate.core.robots import is_robot
from duplicate.core.validation import structural_problems
from duplicate.errors import InvalidData
from duplicate.rules import Rules

# Whose result a row is and what it was: the first columns of every score table.
RESULT_COLUMNS = ("section", "round", "deal", "table", "seat", "player", "score", "seconds")
SCORE_COLUMNS = (
    *RESULT_COLUMNS,
    "n",
    "mp",
    "top",
    "mp_pct",
    "deal_rank",
    "rank_points",
    "adjustment",
)
# A player's own view of a deal: the score columns without who and where they sat.
PLAYER_DEAL_COLUMNS = tuple(c for c in SCORE_COLUMNS if c not in ("section", "player"))


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
    deal, n_deals = combine([results.codes(k) for k in deal_keys(rules)])
    group, n_groups = combine([(deal, n_deals), results.codes("seat")])
    value, n_values = dense_codes(frame["score_units"].to_numpy())

    # Matchpoints, per distinct (comparison group, score) cell of the compared rows.
    compared = ~adjusted.void & (adjusted.assigned_centi < 0)
    everyone = bool(compared.all())
    compared_rows = slice(None) if everyone else np.flatnonzero(compared)
    mp_cells = cells(group[compared_rows], n_groups, value[compared_rows], n_values)
    cell_mp = 2 * mp_cells.below + mp_cells.equal - 1
    cell_top = 2 * (mp_cells.size - 1)
    # A group of one has nothing to compare with: it counts as average (MP% 50).
    cell_key = np.where(cell_top > 0, cell_mp / np.maximum(cell_top, 1), 0.5)

    # Deal ranks, highest MP% first, over rank items: the cells (counted once for each
    # ranked row in them) and each assigned MP% (key centi / 10000). Both keys are exact
    # (see exact.py). Robots are matchpointed but take no deal rank; nor does a void.
    ranked = ~is_robot(frame["player"]) & ~adjusted.void
    row_cell = mp_cells.row_cell
    cell_weight = np.bincount(row_cell[ranked[compared_rows]], minlength=len(cell_mp))
    cell_deal = np.zeros(len(cell_mp), dtype=np.int64)
    cell_deal[row_cell] = deal[compared_rows]
    assigned = np.flatnonzero(adjusted.assigned_centi >= 0)
    item_rank = weighted_ranks(
        np.concatenate([cell_deal, deal[assigned]]),
        np.concatenate([cell_key, adjusted.assigned_centi[assigned] / 10000]),
        np.concatenate([cell_weight, np.ones(len(assigned), dtype=np.int64)]),
        dense=rules.tie_ranking == "dense",
    )
    item_points = rank_points_cents(item_rank, rules)
    rank = np.zeros(n_rows, dtype=np.int64)
    points = np.zeros(n_rows, dtype=np.int64)
    rank[compared_rows] = item_rank[row_cell]
    points[compared_rows] = item_points[row_cell]
    rank[assigned] = item_rank[len(cell_mp) :]
    points[assigned] = item_points[len(cell_mp) :]
    rank[~ranked] = 0
    points[~ranked] = 0

    size = np.full(n_rows, -1, dtype=np.int64)
    mp = np.full(n_rows, -1, dtype=np.int64)
    size[compared_rows] = mp_cells.size[row_cell]
    mp[compared_rows] = cell_mp[row_cell]
    top = np.where(compared, 2 * (size - 1), -1)
    centi = np.where(cell_top > 0, div_half_up(cell_mp * 10000, np.maximum(cell_top, 1)), 5000)
    mp_pct_centi = np.where(adjusted.void, -1, adjusted.assigned_centi)
    mp_pct_centi[compared_rows] = centi[row_cell]
    added = {
        "n": size,
        "mp": mp,
        "top": top,
        "mp_pct_centi": mp_pct_centi,
        "deal_rank": rank,
        "points": points,
        "penalty": adjusted.penalty_cents,
        "adjustment": adjustment_notes(adjusted.note),
    }
    # Built without copying: at millions of rows every copy is a second's work.
    return pd.DataFrame({**{c: frame[c] for c in frame.columns}, **added}, copy=False)


def adjustment_notes(note: np.ndarray) -> pd.Series:
    """The adjustment texts as Arrow strings, null where there is none."""
    present = note != ""
    if not present.any():
        return pd.Series(pd.arrays.ArrowStringArray(pa.nulls(len(note), pa.string())))
    values = note.astype(object)
    values[~present] = None
    return pd.Series(pd.arrays.ArrowStringArray(pa.array(values, pa.string())))


def score(
    data: Results | pd.DataFrame,
    rules: Rules | None = None,
    adjustments: Adjustments | None = None,
) -> pd.DataFrame:
    """One row per result with its matchpoints, MP%, deal rank and rank points.

    Rows come in a canonical order (section, round, deal, table, seat, player), so the
    same results in any row order give the same table.
    """
    rules = rules or Rules()
    results = as_results(data, rules)
    if rules.method == "standard-points":
        from duplicate.core.standard_points import sp_score

        refuse_adjustments(adjustments)
        return sp_score(results, rules)
    scored = score_rows(results, rules, adjustments)
    order = canonical_order(results)
    return format_scores(scored if order is None else scored.take(order), results)


def canonical_order(results: Results) -> IntArray | None:
    """Row positions in (section, round, deal, table, seat, player) order; None if already.

    Files usually arrive in that order already: one comparison pass, then no sort.
    """
    keys = ["section", "round", "deal"]
    keys += ["table", "seat", "player"] if results.has_table else ["seat", "player"]
    key, _ = combine([results.codes(k) for k in keys])
    if bool((key[1:] > key[:-1]).all()):
        return None
    return np.argsort(key, kind="stable").astype(np.int64)


def result_columns(rows: pd.DataFrame, results: Results) -> dict[str, pd.Series]:
    """The columns that say whose result a row is and what it was, as `score` writes them.

    Arrow-backed, exact decimals, built without copies; shared by every scoring method.
    """
    n = len(rows)
    no_times = np.zeros(n, dtype=np.int64)
    seconds = rows["seconds_units"].to_numpy() if results.has_seconds else no_times
    return {
        "section": rows["section"].reset_index(drop=True),
        "round": int_series(rows["round"].to_numpy()),
        "deal": rows["deal"].reset_index(drop=True),
        "table": rows["table"].reset_index(drop=True) if results.has_table else null_text(n),
        "seat": rows["seat"].reset_index(drop=True),
        "player": rows["player"].reset_index(drop=True),
        "score": decimal_series(rows["score_units"].to_numpy(), results.score_scale),
        "seconds": decimal_series(
            seconds, results.seconds_scale, None if results.has_seconds else np.ones(n, dtype=bool)
        ),
    }


def format_scores(scored: pd.DataFrame, results: Results) -> pd.DataFrame:
    """The public columns of `score`: the result columns, then the matchpoints."""
    left_out = (scored["n"] < 0).to_numpy()
    void = (scored["mp_pct_centi"] < 0).to_numpy()
    unranked = (scored["deal_rank"] == 0).to_numpy()
    out = pd.DataFrame(
        {
            **result_columns(scored, results),
            "n": int_series(scored["n"].to_numpy(), left_out),
            "mp": int_series(scored["mp"].to_numpy(), left_out),
            "top": int_series(scored["top"].to_numpy(), left_out),
            "mp_pct": decimal_series(scored["mp_pct_centi"].to_numpy(), 2, void),
            "deal_rank": int_series(scored["deal_rank"].to_numpy(), unranked),
            "rank_points": decimal_series(scored["points"].to_numpy(), 2, unranked),
            "adjustment": scored["adjustment"].reset_index(drop=True),
        },
        copy=False,
    )
    return out[list(SCORE_COLUMNS)]
