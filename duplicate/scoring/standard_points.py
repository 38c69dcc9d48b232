"""Standard points: the platform's Swiss scoring (003_*.txt; docs/scoring.md section 7).

In each comparison group the datum is the mean after dropping floor(N x trim) results at
each end (trim 0.25: two of eight, as the example). A player's difference from the datum
converts to standard points by the table below, sign kept. A fractional difference is
rounded half up to a whole number first (12.5 counts as 13, so it converts to 13).
Players rank by average standard points over the deals they played, compared exactly;
equal averages go to the player with more deals; players short of `min_deals` get no place.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from duplicate.errors import OutOfRange
from duplicate.model.codes import combine, dense_codes, first_rows, sum_by
from duplicate.model.exact import IntArray, decimal_array, div_half_up, ratio_key
from duplicate.model.grouping import group_codes
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules
from duplicate.scoring.final_order import PLAYER_KEYS, Criterion, final_order
from duplicate.scoring.player_stats import section_text, take
from duplicate.scoring.row_order import canonical_order
from duplicate.scoring.score_table import (
    RESULT_COLUMNS,
    identifier_arrays,
    result_arrays,
    table_of,
)
from duplicate.scoring.standings import standings_table

# Differences from 13 up: the largest difference of each standard-point step (13 ... 23).
STEP_TOPS = np.array([16, 21, 26, 32, 40, 49, 65, 84, 104, 144, 199], dtype=np.int64)
SP_SCORE_COLUMNS = (*RESULT_COLUMNS, "n", "datum", "difference", "standard_points")
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


def sp_rows(results: Results, rules: Rules) -> dict[str, IntArray]:
    """Per result row: n, the datum (datum_num / datum_den in score units), the
    difference from it in hundredths (difference_centi) and the standard points (sp)."""
    group, _ = dense_codes(combine([results.key(*rules.scope.deal_keys), results.codes("seat")])[0])
    score = results.numbers("score_units")
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
    n_rows = len(results)
    n = np.empty(n_rows, dtype=np.int64)
    num = np.empty(n_rows, dtype=np.int64)
    den = np.empty(n_rows, dtype=np.int64)
    n[order], num[order], den[order] = size[g], datum_num[g], datum_den[g]
    # difference = score - num/den, in score units: (score x den - num) / den; it and
    # twice its hundredfold (rounding) stay within int64: |exact| <= 2 x den x max |score|.
    largest = int(np.abs(score).max(initial=0))
    if 400 * largest * int(den.max(initial=1)) >= 2**63:
        raise OutOfRange(
            "scores this large in comparison groups this big pass what standard points "
            "hold exactly; check the scores",
            "number.out-of-range",
        )
    exact = score * den - num
    unit = 10**results.score_scale
    whole = div_half_up(exact, den * unit)
    return {
        "n": n,
        "datum_num": num,
        "datum_den": den,
        "difference_centi": div_half_up(exact * 100, den * unit),
        "sp": standard_points(whole),
    }


def sp_score(results: Results, rules: Rules) -> pa.Table:
    """One row per result, in the canonical order: n, datum, difference, standard points."""
    rows = sp_rows(results, rules)
    order = canonical_order(results)
    at = slice(0, len(results)) if order is None else order
    unit = 10**results.score_scale
    datum_num, datum_den = rows["datum_num"][at], rows["datum_den"][at]
    columns = {
        **result_arrays(results, identifier_arrays(results.columns, results), at),
        "n": pa.array(rows["n"][at]),
        "datum": decimal_array(div_half_up(datum_num * 100, datum_den * unit), 2),
        "difference": decimal_array(rows["difference_centi"][at], 2),
        "standard_points": pa.array(rows["sp"][at]),
    }
    return table_of(columns, SP_SCORE_COLUMNS)


def sp_standings(results: Results, rules: Rules) -> pa.Table:
    """Players by average standard points (exact), more deals first on equal averages.

    Players short of `min_deals` come last in their section, with no place.
    """
    sp = sp_rows(results, rules)["sp"]
    humans = np.flatnonzero(~is_robot(results.columns["player"]))
    kept = {name: take(results.columns[name], humans) for name in PLAYER_KEYS}
    player, n_players = group_codes(kept, PLAYER_KEYS)
    first = first_rows(player, n_players)
    total = sum_by(player, sp[humans], n_players)
    deals = np.bincount(player, minlength=n_players).astype(np.int64)
    whole, frac = ratio_key(total, deals)
    placed = deals >= rules.sp_min_deals
    table = {
        "section": section_text(kept["section"], first),
        "player": take(kept["player"], first),
        "deals": deals,
        "total_sp": total,
        "average_sp": decimal_array(div_half_up(total * 100, deals), 2),
        "placed": placed,
    }
    criteria = [
        # Placed players first; "placed" never shows, an unplaced player has no decider.
        Criterion("placed", [(~placed).astype(np.int64)]),
        Criterion("average", [-whole, -frac]),
        Criterion("deals", [-deals]),
    ]
    out = final_order(table, criteria)
    unplaced = ~np.asarray(out["placed"])
    out["place"] = pa.array(out["place"], mask=unplaced)
    decided = np.asarray(out["decided_by"].to_pylist(), dtype=object)
    decided[unplaced] = ""
    out["decided_by"] = pa.array(decided, pa.large_string())
    out["playoff"] = np.asarray(out["playoff"]) & ~unplaced
    return standings_table(out, SP_STANDINGS_COLUMNS)
