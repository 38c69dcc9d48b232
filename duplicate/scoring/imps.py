"""IMP scoring of bridge pairs events: cross-IMPs and Butler (docs/bridge.md, "IMPs").

A comparison group is a deal's results in one seat (as for matchpoints).

- Cross-IMPs: each result against every other result of its group, the IMPs of each
  difference added up; a result's IMPs on the deal are that sum, or (rules.cross_imps
  "average") the sum over its comparisons (n - 1). A group of one scores 0.
- Butler: the datum is the mean of the group's results without rules.butler_drop
  results at each end (fewer when the group is small: at least one is kept), rounded to
  a multiple of rules.butler_round points (halves by rules.butler_half; 0: exact); a
  result scores the IMPs of its difference from the datum.

Every number is exact: IMPs of one result are num / den (den 1 but for averaged
cross-IMPs); totals are summed over one common denominator.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from duplicate.errors import OutOfRange
from duplicate.model.codes import combine, dense_codes, first_rows
from duplicate.model.exact import (
    EXACT_DENOMINATOR_LIMIT,
    FloatArray,
    IntArray,
    decimal_array,
    div_half_up,
    ratio_key,
)
from duplicate.model.grouping import group_codes, section_codes
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules
from duplicate.scoring.final_order import PLAYER_KEYS, Criterion, final_order
from duplicate.scoring.imp_scale import BAND_STARTS, MAX_IMPS, imps
from duplicate.scoring.player_stats import section_text, take
from duplicate.scoring.row_order import canonical_order
from duplicate.scoring.score_table import (
    RESULT_COLUMNS,
    identifier_arrays,
    result_arrays,
    table_of,
)
from duplicate.scoring.standings import standings_table

BUTLER_SCORE_COLUMNS = (*RESULT_COLUMNS, "n", "datum", "difference", "imps")
CROSS_SCORE_COLUMNS = (*RESULT_COLUMNS, "n", "comparisons", "imps")
# As bridge clubs publish them (like percentage standings): equal totals share a place.
IMP_STANDINGS_COLUMNS = ("section", "place", "player", "deals", "imps", "average_imps")
# Sums of IMPs and of scores stay this far inside int64.
_LIMIT = 2**62


@dataclass(frozen=True)
class ImpRows:
    """Per result row (in the results' order): its group's size, its IMPs exactly as
    imp_num / imp_den, and for Butler the datum as datum_num / datum_den score units."""

    n: IntArray
    imp_num: IntArray
    imp_den: IntArray
    datum_num: IntArray | None = None
    datum_den: IntArray | None = None


@dataclass(frozen=True)
class _Groups:
    """Results sorted by comparison group, then score."""

    order: IntArray
    group: IntArray  # the group of each sorted row
    score: IntArray  # the score (units) of each sorted row
    size: IntArray  # per group
    start: IntArray  # per group: its first sorted row


def _groups(results: Results, rules: Rules) -> _Groups:
    key = combine([results.key(*rules.scope.deal_keys), results.codes("seat")])[0]
    group, _ = dense_codes(key)
    score = np.asarray(results.numbers("score_units"), dtype=np.int64)
    order = np.lexsort((score, group)).astype(np.int64)
    g = group[order]
    size = np.bincount(g).astype(np.int64)
    start = np.concatenate(([0], np.cumsum(size)[:-1])).astype(np.int64)
    return _Groups(order, g, score[order], size, start)


def imp_rows(results: Results, rules: Rules) -> ImpRows:
    """Every result's IMPs by the rules' method (cross-imps or butler)."""
    if rules.method == "butler":
        return _butler(results, rules)
    return _cross(results, rules)


def _unscatter(order: IntArray, *sorted_values: IntArray) -> list[IntArray]:
    """Values of sorted rows back in the results' order."""
    out = []
    for values in sorted_values:
        back = np.empty(len(order), dtype=np.int64)
        back[order] = values
        out.append(back)
    return out


def _cross(results: Results, rules: Rules) -> ImpRows:
    """Cross-IMPs without a loop over results: for each band start t, a result gains an
    IMP from every result of its group at least t below it and loses one to every result
    at least t above it; counted by binary search in the group's sorted scores."""
    groups = _groups(results, rules)
    g, s = groups.group, groups.score
    unit = 10**results.score_scale
    if not len(s):
        empty = np.zeros(0, dtype=np.int64)
        return ImpRows(empty, empty, empty)
    low, high = int(s.min()), int(s.max())
    reach = int(BAND_STARTS[-1]) * unit
    width = high - low + 2 * reach + 1
    if len(groups.size) * width >= _LIMIT:
        raise OutOfRange(
            "scores this far apart in this many comparison groups pass what cross-IMPs "
            "compare exactly; check the scores",
            "number.out-of-range",
        )
    # One sorted key for every row: its group's band, then its score inside the band.
    key = g * width + (s - low) + reach
    first, end = groups.start[g], groups.start[g] + groups.size[g]
    total = np.zeros(len(s), dtype=np.int64)
    for start in BAND_STARTS * unit:
        below = np.searchsorted(key, key - start, side="right") - first
        above = end - np.searchsorted(key, key + start, side="left")
        total += below - above
    n = groups.size[g]
    den = np.maximum(n - 1, 1) if rules.cross_imps == "average" else np.ones_like(n)
    size, num, den = _unscatter(groups.order, n, total, den)
    return ImpRows(size, num, den)


def _butler(results: Results, rules: Rules) -> ImpRows:
    groups = _groups(results, rules)
    g, s, size = groups.group, groups.score, groups.size
    position = np.arange(len(g)) - groups.start[g]
    drop = np.minimum(rules.butler_drop, (size - 1) // 2)
    kept = (position >= drop[g]) & (position < size[g] - drop[g])
    unit = 10**results.score_scale
    largest = int(np.abs(s).max(initial=0))
    if largest * int(size.max(initial=1)) * 4 >= _LIMIT:
        raise OutOfRange(
            "scores this large in comparison groups this big pass what a Butler datum "
            "holds exactly; check the scores",
            "number.out-of-range",
        )
    datum_num = np.zeros(len(size), dtype=np.int64)
    np.add.at(datum_num, g[kept], s[kept])
    datum_den = size - 2 * drop
    if rules.butler_round:
        step = rules.butler_round * unit
        datum_num = _round(datum_num, datum_den * step, rules.butler_half) * step
        datum_den = np.ones_like(datum_den)
    num, den = datum_num[g], datum_den[g]
    # The difference from the datum in points: (score x den - num) / (den x unit).
    imp = imps(s * den - num, den * unit)
    n, imp, num, den = _unscatter(groups.order, size[g], imp, num, den)
    return ImpRows(n, imp, np.ones_like(imp), num, den)


def _round(num: IntArray, den: IntArray, half: str) -> IntArray:
    """num / den (den > 0) to a whole number, halves away from zero or to even."""
    if half == "away":
        return div_half_up(num, den)
    whole = np.floor_divide(num, den)
    twice = 2 * (num - whole * den)
    up = (twice > den) | ((twice == den) & (whole % 2 == 1))
    return np.asarray(whole + up, dtype=np.int64)


def imp_centi(num: IntArray, den: IntArray) -> IntArray:
    """IMPs num / den in hundredths, halves away from zero (as shown)."""
    return div_half_up(num * 100, den)


def imp_score(results: Results, rules: Rules) -> pa.Table:
    """One row per result in canonical order: the group size and the IMPs, with the
    datum and difference (Butler) or the comparisons made (cross-IMPs)."""
    rows = imp_rows(results, rules)
    order = canonical_order(results)
    at = slice(0, len(results)) if order is None else order
    unit = 10**results.score_scale
    n = rows.n[at]
    columns = {
        **result_arrays(results, identifier_arrays(results.columns, results), at),
        "n": pa.array(n),
    }
    if rows.datum_num is not None and rows.datum_den is not None:
        num, den = rows.datum_num[at], rows.datum_den[at]
        score = np.asarray(results.numbers("score_units"), dtype=np.int64)[at]
        columns["datum"] = decimal_array(div_half_up(num * 100, den * unit), 2)
        columns["difference"] = decimal_array(div_half_up((score * den - num) * 100, den * unit), 2)
        columns["imps"] = pa.array(rows.imp_num[at])
        return table_of(columns, BUTLER_SCORE_COLUMNS)
    columns["comparisons"] = pa.array(n - 1)
    columns["imps"] = _shown(rows.imp_num[at], rows.imp_den[at], rules)
    return table_of(columns, CROSS_SCORE_COLUMNS)


def _averaged(rules: Rules) -> bool:
    return rules.method == "cross-imps" and rules.cross_imps == "average"


def _shown(num: IntArray, den: IntArray, rules: Rules) -> pa.Array:  # type: ignore[type-arg]
    """IMPs as shown: whole numbers, or averages in hundredths."""
    return decimal_array(imp_centi(num, den), 2) if _averaged(rules) else pa.array(num)


def imp_sums(
    num: IntArray, den: IntArray, codes: IntArray, size: int
) -> tuple[IntArray, IntArray, int]:
    """Per code, the exact sum of IMPs num / den over one common denominator, with how
    many were summed: (sums, counts, common denominator)."""
    counts = np.bincount(codes, minlength=size).astype(np.int64)
    common = math.lcm(*(int(d) for d in np.unique(den))) if len(den) else 1
    if common * (int(counts.max(initial=1)) * MAX_IMPS * 2 + 1) * 100 >= _LIMIT:
        raise OutOfRange(
            "averaged cross-IMPs of this event's group sizes share no common denominator "
            "small enough to be summed exactly; score it with {opt:cross_imps=sum}",
            "number.out-of-range",
        )
    sums = np.zeros(size, dtype=np.int64)
    np.add.at(sums, codes, num * (common // den))
    return sums, counts, common


def imp_standings(results: Results, rules: Rules) -> pa.Table:
    """Players by total IMPs, exactly; equal totals share the place. The average per
    deal played is shown beside the total.

    With rules.imp_totals "scaled" a player's total is scaled to the most deals a
    player of their section played (total x most / played): the order is that of the
    averages per deal."""
    rows = imp_rows(results, rules)
    humans = np.flatnonzero(~is_robot(results.columns["player"]))
    kept = {name: take(results.columns[name], humans) for name in PLAYER_KEYS}
    player, n_players = group_codes(kept, PLAYER_KEYS)
    total, deals, common = imp_sums(rows.imp_num[humans], rows.imp_den[humans], player, n_players)
    first = first_rows(player, n_players)
    section = section_text(kept["section"], first)
    table = {
        "section": section,
        "player": take(kept["player"], first),
        "deals": deals,
        "average_imps": decimal_array(imp_centi(total, deals * common), 2),
    }
    if rules.imp_totals == "scaled":
        code, n_sections = section_codes(section)
        most = np.zeros(n_sections, dtype=np.int64)
        np.maximum.at(most, code, deals)
        largest = int(np.abs(total).max(initial=0)) * int(most.max(initial=1)) * 100
        if largest >= _LIMIT or (
            len(deals) and int(deals.max()) * common >= EXACT_DENOMINATOR_LIMIT
        ):
            raise OutOfRange(
                "scaled IMP totals of this event's group sizes cannot be ordered exactly; "
                "score it with {opt:imp_totals=sum}",
                "number.out-of-range",
            )
        num, den = total * most[code], deals * common
        table["imps"] = decimal_array(imp_centi(num, den), 2)
        whole, fraction = ratio_key(num, den)
        keys: list[IntArray | FloatArray] = [-whole, -fraction]
    else:
        table["imps"] = _shown(total, np.full(n_players, common, dtype=np.int64), rules)
        # Every total is over the same denominator: the totals order as their numerators.
        keys = [-total]
    ordered = final_order(table, [Criterion("imps", keys)])
    return standings_table(ordered, IMP_STANDINGS_COLUMNS)
