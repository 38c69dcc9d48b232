"""How one player's IMPs were found (explain for cross-IMPs and Butler), for an auditor
to check by hand: each deal's comparisons or datum, difference and IMPs.

The numbers are derived again here, plainly and exactly (Fractions), from the results:
a second derivation next to the vectorised one in scoring/imps.py. Place, play-off and
the neighbours come from the standings.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from duplicate.model.adjustments import Adjustments
from duplicate.model.results import Results
from duplicate.model.row_adjustments import RowAdjustments, match_adjustments
from duplicate.rules import Rules
from duplicate.scoring.explanation import (
    ImpComparison,
    ImpDeal,
    ImpDetail,
    cents,
    json_number,
)
from duplicate.scoring.imp_scale import imps
from duplicate.scoring.imps import assigned


def imp_of(difference: Fraction) -> int:
    """The IMPs of one difference in points, by the scale (duplicate.scoring.imp_scale)."""
    return int(imps(np.array([difference.numerator]), np.array([difference.denominator]))[0])


def butler_datum(scores: list[Fraction], rules: Rules) -> Fraction:
    """The Butler datum of a group's scores, as docs/bridge.md words it."""
    ordered = sorted(scores)
    by_share = math.floor(len(ordered) * Fraction(rules.butler_trim))
    drop = min(max(rules.butler_drop, by_share), (len(ordered) - 1) // 2)
    kept = ordered[drop : len(ordered) - drop]
    mean = sum(kept, Fraction(0)) / len(kept)
    if not rules.butler_round:
        return mean
    multiple = mean / rules.butler_round
    if rules.butler_half == "even":
        whole = round(multiple)  # a Fraction rounds its halves to even
    else:
        whole = math.floor(abs(multiple) + Fraction(1, 2)) * (1 if multiple >= 0 else -1)
    return Fraction(whole * rules.butler_round)


def imp_detail(
    results: Results,
    rules: Rules,
    player: str,
    section: object,
    most_deals: int,
    fixed: RowAdjustments | None = None,
) -> ImpDetail:
    """The player's deals: their group, and how each result's IMPs were found. With
    adjustments, an assigned result is compared with nothing and scores its assigned
    IMPs; a void one is left out."""
    frame = results.frame
    n_rows = len(frame)
    void = np.zeros(n_rows, dtype=bool) if fixed is None else fixed.void
    in_groups, fixed_imps = (
        (np.ones(n_rows, dtype=bool), np.zeros(n_rows, dtype=np.int64))
        if fixed is None
        else assigned(fixed, rules)
    )
    played = pd.Series(in_groups, index=frame.index)
    unit = Fraction(1, 10**results.score_scale)
    keys = [k for k in ("section", *rules.scope.deal_keys, "seat") if k in frame.columns]
    keys = list(dict.fromkeys(keys))
    units = np.asarray(results.numbers("score_units"))
    score = dict(zip(frame.index, units.tolist(), strict=True))
    same_section = frame["section"].astype(str) == str(section)
    mine = frame[same_section & (frame["player"].astype(str) == player)]
    deals = []
    for at, row in mine.sort_values(["round", "deal"]).iterrows():
        position = frame.index.get_loc(at)
        if void[position]:
            continue
        group = same_section & played
        for key in keys:
            group &= frame[key] == row[key]
        others = frame[group & (frame.index != at)]
        own = Fraction(int(score[at])) * unit
        scores = [Fraction(int(score[i])) * unit for i in others.index]
        entry: dict[str, Any] = {
            "round": int(row["round"]),
            "deal": row["deal"],
            "table": row["table"] if results.has_table else None,
            "seat": row["seat"],
            "score": own,
            "n": len(scores) + 1,
        }
        if not in_groups[position]:
            assert fixed is not None
            entry.update(
                n=None,
                imps=Fraction(int(fixed_imps[position])),
                adjustment=str(fixed.note[position]),
            )
        elif rules.method == "butler":
            datum = butler_datum([own, *scores], rules)
            entry.update(datum=datum, difference=own - datum, imps=Fraction(imp_of(own - datum)))
        else:
            compared = tuple(
                ImpComparison(str(p), s, own - s, imp_of(own - s))
                for p, s in zip(others["player"], scores, strict=True)
            )
            total = Fraction(sum(c.imps for c in compared))
            if rules.cross_imps == "average" and compared:
                total /= len(compared)
            entry.update(comparisons=compared, imps=total)
        deals.append(ImpDeal(**entry))
    total = sum((d.imps for d in deals), Fraction(0))
    scaled = rules.imp_totals == "scaled" and len(deals) and most_deals != len(deals)
    return ImpDetail(
        deals=tuple(deals),
        total=total * most_deals / len(deals) if scaled else total,
        summed=total,
        average=total / len(deals) if deals else Fraction(0),
        scaled_to=most_deals if rules.imp_totals == "scaled" else None,
    )


def explain_imps(
    results: Results,
    table: pd.DataFrame,
    player: str,
    rules: Rules,
    at: int,
    adjustments: Adjustments | None = None,
) -> dict[str, Any]:
    """The player at position `at` of their section's standings `table`: their deals'
    IMPs, their total, and how they compare with the players just above and below."""
    most = int(table["deals"].max())
    section = table.iloc[at]["section"]
    fixed = None if adjustments is None else match_adjustments(results, adjustments)

    def detail(row: int) -> ImpDetail:
        name = str(table.iloc[row]["player"])
        return imp_detail(results, rules, name, section, most, fixed)

    me = table.iloc[at]
    mine = detail(at)
    found: dict[str, Any] = {
        "player": player,
        "method": rules.method,
        "section": me["section"],
        "place": int(me["place"]),
        "players": len(table),
        "playoff": False,  # equal totals share the place
        "deals": [],
        "imps": mine,
    }
    if at > 0:
        other = table.iloc[at - 1]
        found["above"] = _versus(str(other["player"]), detail(at - 1), mine, other)
    if at + 1 < len(table):
        found["below"] = _versus(player, mine, detail(at + 1), table.iloc[at + 1])
    return found


def _versus(ahead: str, first: ImpDetail, second: ImpDetail, other: pd.Series) -> dict[str, Any]:
    """Who is ahead of whom on IMPs, and by how much; equal totals share the place."""
    by = first.total - second.total
    return {
        "player": str(other["player"]),
        "place": int(other["place"]),
        "total": json_number(other["imps"]),
        "ahead": ahead,
        "criterion": "imps" if by else "shared",
        "ahead_value": cents(first.total * 100),
        "behind_value": cents(second.total * 100),
        "by": cents(by * 100),
        "by_exact": str(by),
    }
