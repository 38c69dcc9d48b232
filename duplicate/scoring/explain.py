"""Everything behind one player's place, for an auditor to check by hand.

The numbers are derived again here, plainly and exactly (Fractions), from the scored
rows and the standings: a second derivation next to the vectorised one.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pandas as pd

from duplicate.errors import UsageError
from duplicate.model.adjustments import Adjustments
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules
from duplicate.scoring.methods import method_of, standings
from duplicate.scoring.scores import as_results, score_rows


def _cents(value: int | Fraction) -> Decimal:
    """Cents (an integer, or an exact fraction of cents) as points with 2 decimals.

    A fraction is rounded half up, the spec's rounding for display.
    """
    fraction = abs(Fraction(value))
    cents = (2 * fraction.numerator + fraction.denominator) // (2 * fraction.denominator)
    sign = -1 if value < 0 else 1
    return (Decimal(sign * cents) / 100).quantize(Decimal("0.01"))


def number_text(value: object) -> str:
    """A number as an auditor reads it: exact decimals, or a fraction with its rounding."""
    if isinstance(value, Fraction):
        denominator = value.denominator
        for two_or_five in (2, 5):
            while denominator % two_or_five == 0:
                denominator //= two_or_five
        if denominator == 1:
            return str(Decimal(value.numerator) / Decimal(value.denominator))
        rounded = _cents(value * 100)
        return f"{value.numerator}/{value.denominator} (= {rounded})"
    return "" if value is None else str(value)


def as_json(value: Any) -> Any:
    """The explanation with Fractions as exact text and Decimals as JSON numbers."""
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, Fraction):
        return number_text(value)
    if isinstance(value, Decimal):
        return float(value)
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return value


def _fraction_text(value: Fraction) -> str:
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def explain(
    data: Results | pd.DataFrame,
    player: str,
    rules: Rules | None = None,
    adjustments: Adjustments | None = None,
    section: str | None = None,
) -> dict[str, Any]:
    """The deals, total, tie-break values and neighbours of one player, as plain data."""
    rules = rules or Rules()
    method_of(rules).require("explained", "explain")
    results = as_results(data, rules)
    rows = score_rows(results, rules, adjustments)
    rows = rows.assign(player_text=rows["player"].astype(str))
    table = standings(results, rules, adjustments).assign(
        player_text=lambda t: t["player"].astype(str)
    )
    mine = table[table["player_text"] == str(player)]
    if section is not None:
        mine = mine[mine["section"] == section]
    if mine.empty:
        raise UsageError(f"no player {player!r} in {results.source}")
    if len(mine) > 1:
        raise UsageError(f"player {player!r} plays in several sections; give --section")
    me = mine.iloc[0]
    in_section = table[table["section"] == me["section"]].reset_index(drop=True)
    at = int(in_section.index[in_section["player_text"] == str(player)][0])
    totals = {
        p: int(t * 100) for p, t in zip(in_section["player_text"], in_section["total"], strict=True)
    }
    section_rows = rows[rows["section"] == me["section"]]

    def detail(name: str) -> dict[str, Any]:
        own = section_rows[section_rows["player_text"] == name].sort_values(["round", "deal"])
        return _player_detail(name, own, section_rows, totals, results, rules.factoring != "none")

    explained = detail(str(player))
    explained.update(
        section=me["section"],
        place=int(me["place"]),
        players=len(in_section),
        playoff=bool(me["playoff"]),
    )
    neighbours: dict[str, Any] = {}
    if at > 0:
        other = in_section.iloc[at - 1]
        neighbours["above"] = _versus(
            detail(str(other["player_text"])), explained, str(me["decided_by"]), other
        )
    if at + 1 < len(in_section):
        other = in_section.iloc[at + 1]
        neighbours["below"] = _versus(
            explained, detail(str(other["player_text"])), str(other["decided_by"]), other
        )
    explained.update(neighbours)
    return explained


def _player_detail(
    name: str,
    own: pd.DataFrame,
    section_rows: pd.DataFrame,
    totals: dict[str, int],
    results: Results,
    fractional_mp: bool = False,
) -> dict[str, Any]:
    score_unit = Fraction(1, 10**results.score_scale)
    second_unit = Fraction(1, 10**results.seconds_scale)
    deals = []
    for r in own.to_dict("records"):
        left_out = r["n"] < 0
        void = r["mp_pct_centi"] < 0
        deals.append(
            {
                "round": int(r["round"]),
                "deal": r["deal"],
                "table": r["table"] if results.has_table else None,
                "seat": r["seat"],
                "score": Fraction(int(r["score_units"])) * score_unit,
                "seconds": Fraction(int(r["seconds_units"])) * second_unit
                if results.has_seconds
                else None,
                "n": None if left_out else int(r["n"]),
                # In hundredths when factoring makes it fractional (Neuberg).
                "mp": None
                if left_out
                else (_cents(int(r["mp"])) if fractional_mp else int(r["mp"])),
                "top": None if left_out else int(r["top"]),
                "mp_pct": None if void else _cents(int(r["mp_pct_centi"])),
                "deal_rank": int(r["deal_rank"]) or None,
                "rank_points": _cents(int(r["points"])) if int(r["deal_rank"]) else None,
                "adjustment": r["adjustment"],
            }
        )
    penalty = int(own["penalty"].sum())
    detail: dict[str, Any] = {
        "player": name,
        "deals": deals,
        "rank_points": [d["rank_points"] for d in deals if d["rank_points"] is not None],
        "penalty": _cents(penalty),
        "total": _cents(int(own["points"].sum()) - penalty),
    }
    ranks = sorted(int(r) for r in own["deal_rank"] if int(r) > 0)
    detail["rank_counts"] = {rank: ranks.count(rank) for rank in sorted(set(ranks))}
    if results.has_table:
        beaten = []
        for (rnd, table), group in section_rows[~is_robot(section_rows["player"])].groupby(
            ["round", "table"]
        ):
            scores = group.groupby("player_text")["score_units"].sum()
            if name not in scores.index:
                continue
            for other, score in scores.items():
                if other != name and score < scores[name]:
                    beaten.append(
                        {
                            "round": int(str(rnd)),
                            "table": table,
                            "player": other,
                            "round_score": Fraction(int(scores[name])) * score_unit,
                            "opponent_round_score": Fraction(int(score)) * score_unit,
                            "opponent_total": _cents(totals[str(other)]),
                        }
                    )
        exact = (
            Fraction(sum(totals[str(b["player"])] for b in beaten), len(beaten))
            if beaten
            else Fraction(0)
        )
        detail["beaten"] = beaten
        detail["beaten_avg"] = {"value": _cents(exact), "exact_cents": _fraction_text(exact)}
    if results.has_seconds:
        times = sorted(Fraction(int(s)) * second_unit for s in own["seconds_units"])
        kept = times[1:-1] if len(times) >= 3 else times
        trimmed = sum(kept, Fraction(0)) / len(kept) if kept else Fraction(0)
        detail["total_seconds"] = sum(times, Fraction(0))
        detail["trimmed_seconds"] = {
            "value": _cents(trimmed * 100),
            "exact": _fraction_text(trimmed),
            "dropped": [times[-1], times[0]] if len(times) >= 3 else [],
        }
    return detail


def _versus(
    ahead: dict[str, Any], behind: dict[str, Any], criterion: str, other: pd.Series
) -> dict[str, Any]:
    """Who is ahead of whom, on which criterion, and by how much."""
    comparison: dict[str, Any] = {"criterion": criterion or "tied"}
    if criterion == "total":
        comparison.update(
            ahead_value=ahead["total"],
            behind_value=behind["total"],
            by=ahead["total"] - behind["total"],
        )
    elif criterion == "beaten_avg":
        a, b = (Fraction(x["beaten_avg"]["exact_cents"]) for x in (ahead, behind))
        comparison.update(
            ahead_value=ahead["beaten_avg"]["value"],
            behind_value=behind["beaten_avg"]["value"],
            by=_cents(a - b),
            by_exact_cents=_fraction_text(a - b),
        )
    elif criterion == "rank_counts":
        ranks = sorted(set(ahead["rank_counts"]) | set(behind["rank_counts"]))
        first = next(
            r for r in ranks if ahead["rank_counts"].get(r, 0) != behind["rank_counts"].get(r, 0)
        )
        comparison.update(
            rank=first,
            ahead_count=ahead["rank_counts"].get(first, 0),
            behind_count=behind["rank_counts"].get(first, 0),
        )
    elif criterion == "total_seconds":
        comparison.update(
            ahead_value=ahead["total_seconds"],
            behind_value=behind["total_seconds"],
            by=behind["total_seconds"] - ahead["total_seconds"],
        )
    elif criterion == "trimmed_seconds":
        a, b = (Fraction(x["trimmed_seconds"]["exact"]) for x in (ahead, behind))
        comparison.update(ahead_value=a, behind_value=b, by=b - a)
    return {
        "player": str(other["player"]),
        "place": int(other["place"]),
        "total": other["total"],
        "ahead": ahead["player"],
        **comparison,
    }
