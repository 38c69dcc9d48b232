"""IMP scoring of bridge pairs events: cross-IMPs and Butler (docs/bridge.md, "IMPs").

A comparison group is a deal's results in one seat (as for matchpoints).

- Cross-IMPs: each result against every other result of its group, the IMPs of each
  difference added up; a result's IMPs on the deal are that sum, or (rules.cross_imps
  "average") the sum over its comparisons (n - 1). A group of one scores 0.
- Butler: the datum is the mean of the group's results without rules.butler_drop
  results at each end (or floor(n x rules.butler_trim), if more; fewer when the group
  is small: at least one is kept), rounded to a multiple of rules.butler_round points
  (halves by rules.butler_half; 0: exact); a result scores the IMPs of its difference
  from the datum.

Every number is exact: IMPs of one result are num / den (den 1 but for averaged
cross-IMPs); totals are summed over one common denominator.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from duplicate.errors import OutOfRange, UsageError
from duplicate.model.adjustments import Adjustments
from duplicate.model.arrays import arrow_array
from duplicate.model.codes import combine, dense_codes, first_rows, max_by
from duplicate.model.exact import (
    EXACT_DENOMINATOR_LIMIT,
    FloatArray,
    IntArray,
    decimal_array,
    div_half_up,
    fraction_sums,
    ratio_key,
)
from duplicate.model.grouping import group_codes, section_codes
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.model.row_adjustments import RowAdjustments, match_adjustments
from duplicate.rules import Rules
from duplicate.scoring.final_order import PLAYER_KEYS, Criterion, final_order
from duplicate.scoring.imp_scale import BAND_STARTS, MAX_IMPS, imps
from duplicate.scoring.player_stats import section_text, take
from duplicate.scoring.row_order import canonical_order
from duplicate.scoring.score_table import (
    RESULT_COLUMNS,
    adjustment_array,
    identifier_arrays,
    result_arrays,
    table_of,
)
from duplicate.scoring.standings import standings_table

BUTLER_SCORE_COLUMNS = (*RESULT_COLUMNS, "n", "datum", "difference", "imps", "adjustment")
CROSS_SCORE_COLUMNS = (*RESULT_COLUMNS, "n", "comparisons", "imps", "adjustment")
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
    # With adjustments: the rows compared (not assigned, not void), the rows that count
    # (not void), and each row's adjustment note ("" for none).
    played: npt.NDArray[np.bool_] | None = None
    counted: npt.NDArray[np.bool_] | None = None
    note: npt.NDArray[np.object_] | None = None


@dataclass(frozen=True)
class _Groups:
    """Results sorted by comparison group, then score."""

    order: IntArray
    group: IntArray  # the group of each sorted row
    score: IntArray  # the score (units) of each sorted row
    size: IntArray  # per group
    start: IntArray  # per group: its first sorted row


def _groups(results: Results, rules: Rules, played: npt.NDArray[np.bool_] | None = None) -> _Groups:
    key = combine([results.key(*rules.scope.deal_keys), results.codes("seat")])[0]
    group, groups = dense_codes(key)
    if played is not None and not played.all():
        # A result not played (assigned, void) is a group of its own: compared with nothing.
        alone = np.flatnonzero(~played)
        group = group.copy()
        group[alone] = groups + np.arange(len(alone))
        group, _ = dense_codes(group)
    score = np.asarray(results.numbers("score_units"), dtype=np.int64)
    order = np.lexsort((score, group)).astype(np.int64)
    g = group[order]
    size = np.bincount(g).astype(np.int64)
    start = np.concatenate(([0], np.cumsum(size)[:-1])).astype(np.int64)
    return _Groups(order, g, score[order], size, start)


def imp_rows(results: Results, rules: Rules, adjustments: Adjustments | None = None) -> ImpRows:
    """Every result's IMPs by the rules' method (cross-imps or butler).

    Adjustments (docs/bridge.md, "IMPs"): an assigned result leaves its group and
    scores rules.imp_average IMPs for average plus (or an assigned 60%), its negation
    for average minus (40%), 0 for an assigned 50%; a void result scores nothing and is
    not counted. Other corrections are matchpoint corrections, refused here."""
    compute = _butler if rules.method == "butler" else _cross
    if adjustments is None:
        return compute(results, rules)
    fixed = match_adjustments(results, adjustments)
    _refuse_matchpoint_corrections(fixed, adjustments)
    played, assigned_imps = assigned(fixed, rules)
    rows = compute(results, rules, played)
    num = np.where(played, rows.imp_num, assigned_imps)
    den = np.where(played, rows.imp_den, 1)
    return replace(
        rows, imp_num=num, imp_den=den, played=played, counted=~fixed.void, note=fixed.note
    )


def assigned(fixed: RowAdjustments, rules: Rules) -> tuple[npt.NDArray[np.bool_], IntArray]:
    """Per row: whether it is compared (neither assigned nor void), and the IMPs of an
    assigned result (rules.imp_average for average plus or 60%, its negation for
    average minus or 40%, 0 for 50% and for a void result)."""
    by_pct = fixed.assigned_centi >= 0
    step = np.where(by_pct, (fixed.assigned_centi - 5000) // 1000, fixed.average)
    played = ~by_pct & (fixed.average == 0) & ~fixed.void
    return played, np.where(fixed.void, 0, step * rules.imp_average).astype(np.int64)


def _refuse_matchpoint_corrections(fixed: RowAdjustments, adjustments: Adjustments) -> None:
    """Penalties, weighted scores and an assigned MP% other than 40, 50 or 60 have no
    IMP meaning here: refused, naming the first."""
    frame = adjustments.frame
    odd = frame["kind"].isin(["penalty", "weighted"]) | (
        (frame["kind"] == "mp_pct") & ~frame["cents"].isin([4000, 5000, 6000])
    )
    if odd.any():
        first = frame[odd].iloc[0]
        value = adjustments.value_text()[odd].iloc[0]
        raise UsageError(
            f"{adjustments.source}, row {first['row']}: {first['kind']} {value}".rstrip()
            + " has no meaning in IMPs; give avg_plus, avg_minus, void, or mp_pct 40, 50 or 60",
            "scoring.method-unsupported",
        )


def _unscatter(order: IntArray, *sorted_values: IntArray) -> list[IntArray]:
    """Values of sorted rows back in the results' order."""
    out = []
    for values in sorted_values:
        back = np.empty(len(order), dtype=np.int64)
        back[order] = values
        out.append(back)
    return out


def _cross(results: Results, rules: Rules, played: npt.NDArray[np.bool_] | None = None) -> ImpRows:
    """Cross-IMPs without a loop over results: for each band start t, a result gains an
    IMP from every result of its group at least t below it and loses one to every result
    at least t above it; counted by binary search in the group's sorted scores."""
    groups = _groups(results, rules, played)
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


def _butler(results: Results, rules: Rules, played: npt.NDArray[np.bool_] | None = None) -> ImpRows:
    groups = _groups(results, rules, played)
    g, s, size = groups.group, groups.score, groups.size
    position = np.arange(len(g)) - groups.start[g]
    # The larger of a count and a share (floor(n x trim), exactly) at each end; one kept.
    numerator, denominator = rules.butler_trim.as_integer_ratio()
    drop = np.minimum(
        np.maximum(rules.butler_drop, size * numerator // denominator), (size - 1) // 2
    )
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


def imp_score(results: Results, rules: Rules, adjustments: Adjustments | None = None) -> pa.Table:
    """One row per result in canonical order: the group size and the IMPs, with the
    datum and difference (Butler) or the comparisons made (cross-IMPs), and the
    adjustment note. A result not compared (assigned, void) has no group size, datum
    or comparisons; a void one has no IMPs."""
    rows = imp_rows(results, rules, adjustments)
    order = canonical_order(results)
    at = slice(0, len(results)) if order is None else order
    unit = 10**results.score_scale
    n = rows.n[at]
    alone = None if rows.played is None else ~rows.played[at]
    void = None if rows.counted is None else ~rows.counted[at]
    columns = {
        **result_arrays(results, identifier_arrays(results.columns, results), at),
        "n": arrow_array(n, mask=alone),
        "adjustment": adjustment_array(None if rows.note is None else rows.note[at], len(n)),
    }
    if rows.datum_num is not None and rows.datum_den is not None:
        num, den = rows.datum_num[at], rows.datum_den[at]
        score = np.asarray(results.numbers("score_units"), dtype=np.int64)[at]
        difference = div_half_up((score * den - num) * 100, den * unit)
        columns["datum"] = decimal_array(div_half_up(num * 100, den * unit), 2, alone)
        columns["difference"] = decimal_array(difference, 2, alone)
        columns["imps"] = arrow_array(rows.imp_num[at], mask=void)
        return table_of(columns, BUTLER_SCORE_COLUMNS)
    columns["comparisons"] = arrow_array(n - 1, mask=alone)
    columns["imps"] = _shown(rows.imp_num[at], rows.imp_den[at], rules, void)
    return table_of(columns, CROSS_SCORE_COLUMNS)


def _averaged(rules: Rules) -> bool:
    return rules.method == "cross-imps" and rules.cross_imps == "average"


def _shown(
    num: IntArray, den: IntArray, rules: Rules, mask: npt.NDArray[np.bool_] | None = None
) -> pa.Array:  # type: ignore[type-arg]
    """IMPs as shown: whole numbers, or averages in hundredths."""
    if _averaged(rules):
        return decimal_array(imp_centi(num, den), 2, mask)
    return arrow_array(num, mask=mask)


def imp_standings(
    results: Results, rules: Rules, adjustments: Adjustments | None = None
) -> pa.Table:
    """Players by total IMPs, exactly; equal totals share the place. The average per
    deal played is shown beside the total.

    With rules.imp_totals "scaled" a player's total is scaled to the most deals a
    player of their section played (total x most / played): the order is that of the
    averages per deal."""
    rows = imp_rows(results, rules, adjustments)
    counted = ~is_robot(results.columns["player"])
    humans = np.flatnonzero(counted if rows.counted is None else counted & rows.counted)
    kept = {name: take(results.columns[name], humans) for name in PLAYER_KEYS}
    player, n_players = group_codes(kept, PLAYER_KEYS)
    total, deals, common = fraction_sums(
        rows.imp_num[humans],
        rows.imp_den[humans],
        player,
        n_players,
        largest=2 * MAX_IMPS + 1,
        scale=100,
        refusal="averaged cross-IMPs of this event's group sizes share no common denominator "
        "small enough to be summed exactly; score it with {opt:cross_imps=sum}",
    )
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
        most = max_by(code, deals, n_sections)
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
