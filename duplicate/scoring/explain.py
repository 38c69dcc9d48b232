"""Everything behind one player's place, for an auditor to check by hand.

The numbers are derived again here, plainly and exactly (Fractions), from the scored
rows and the standings: a second derivation next to the vectorised one.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pandas as pd

from duplicate.errors import UsageError
from duplicate.model.adjustments import Adjustments
from duplicate.model.exact import fraction_rounded
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules
from duplicate.scoring.explanation import cents
from duplicate.scoring.methods import method_of, standings
from duplicate.scoring.scores import (
    as_results,
    comparison_groups,
    rows_with_numbers,
    score_items,
)
from duplicate.text import place_number


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
    """The deals, total (or percentage), tie-break values and neighbours of one player,
    as plain data."""
    rules = rules or Rules()
    method = method_of(rules)
    if not method.explained:
        raise method.unsupported("explain")
    results = as_results(data, rules)
    if rules.method in ("cross-imps", "butler"):
        from duplicate.scoring.imp_explain import explain_imps

        table = standings(results, rules, adjustments).assign(
            player_text=lambda t: t["player"].astype(str)
        )
        _, in_section, at = _find(table, str(player), section, results.source)
        return explain_imps(results, in_section, str(player), rules, at, adjustments)
    items = score_items(results, rules, adjustments)
    rows = rows_with_numbers(results, items).assign(
        pct_num=items.pct_num[items.row_item], pct_den=items.pct_den[items.row_item]
    )
    rows = rows.assign(player_text=rows["player"].astype(str))
    if "percentage" in rules.method:
        # Each result's comparison group's top: an assigned MP% counts against it.
        group, _ = comparison_groups(results, rules)
        tops = pd.Series(rows["top"].to_numpy()).clip(lower=0).groupby(group).transform("max")
        rows = rows.assign(group_top=tops.to_numpy())
    table = standings(results, rules, adjustments).assign(
        player_text=lambda t: t["player"].astype(str)
    )
    me, in_section, at = _find(table, str(player), section, results.source)
    section_rows = rows[rows["section"] == me["section"]]
    fractional = items.mp_scale > 0

    def own_rows(name: str) -> pd.DataFrame:
        own: pd.DataFrame = section_rows[section_rows["player_text"] == name]
        return own.sort_values(["round", "deal"])

    def with_parts(found: dict[str, Any]) -> dict[str, Any]:
        if adjustments is not None:
            unit = Fraction(1, 10**results.score_scale)
            _add_weighted_parts(found, section_rows, adjustments, rules, unit)
        return found

    if "percentage" in in_section.columns:
        # Standings by session percentage (docs/scoring.md section 9).
        def detail(name: str) -> dict[str, Any]:
            own = own_rows(name)
            return with_parts(_percentage_detail(name, own, results, fractional, rules))

        versus = _versus_percentage
        playoff = False
    else:
        totals = {
            p: int(t * 100)
            for p, t in zip(in_section["player_text"], in_section["total"], strict=True)
        }

        def detail(name: str) -> dict[str, Any]:
            own = own_rows(name)
            return with_parts(_player_detail(name, own, section_rows, totals, results, fractional))

        versus = _versus
        playoff = bool(me["playoff"])

    explained = detail(str(player))
    explained.update(
        method=rules.method,
        section=me["section"],
        place=place_number(me["place"]),
        place_written=written_place(me["place"]),
        players=len(in_section),
        playoff=playoff,
    )
    _add_neighbours(explained, detail, versus, in_section, at)
    return explained


def _find(
    table: pd.DataFrame, player: str, section: str | None, source: str
) -> tuple[pd.Series, pd.DataFrame, int]:
    """The player's row of the standings, their section's standings, and their
    position in it."""
    mine = table[table["player_text"] == player]
    if section is not None:
        mine = mine[mine["section"] == section]
    if mine.empty:
        ids = table["player_text"].drop_duplicates().head(4).tolist()
        more = ", ..." if table["player_text"].nunique() > len(ids) else ""
        raise UsageError(
            f"no player {player!r} in {source}; give a player's id as the results write "
            f"it ({', '.join(ids)}{more}), or their registered name in full",
            "player.unknown",
        )
    if len(mine) > 1:
        raise UsageError(
            f"player {player!r} plays in several sections; give {{opt:section}}",
            "player.several-sections",
        )
    me = mine.iloc[0]
    in_section = table[table["section"] == me["section"]].reset_index(drop=True)
    at = int(in_section.index[in_section["player_text"] == player][0])
    return me, in_section, at


def _add_neighbours(
    explained: dict[str, Any],
    detail: Callable[[str], dict[str, Any]],
    versus: Callable[[dict[str, Any], dict[str, Any], str, pd.Series], dict[str, Any]],
    in_section: pd.DataFrame,
    at: int,
) -> None:
    """How the player compares with the players just above and just below."""
    if at > 0:
        other = in_section.iloc[at - 1]
        me = in_section.iloc[at]
        explained["above"] = versus(
            detail(str(other["player_text"])), explained, str(me.get("decided_by", "")), other
        )
    if at + 1 < len(in_section):
        other = in_section.iloc[at + 1]
        explained["below"] = versus(
            explained, detail(str(other["player_text"])), str(other.get("decided_by", "")), other
        )


def _deal_entries(own: pd.DataFrame, results: Results, fractional_mp: bool) -> list[dict[str, Any]]:
    """One player's deals as an auditor reads them."""
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
                # In hundredths when factoring or weighted scores make it fractional.
                "mp": None
                if left_out
                else (cents(int(r["mp"])) if fractional_mp else int(r["mp"])),
                "top": None if left_out else int(r["top"]),
                "mp_pct": None if void else cents(int(r["mp_pct_centi"])),
                "deal_rank": int(r["deal_rank"]) or None,
                "rank_points": cents(int(r["points"])) if int(r["deal_rank"]) else None,
                "adjustment": r["adjustment"],
            }
        )
    return deals


def written_place(place: object) -> int | str:
    """A place as the standings write it: a number, or text when shared places are
    written with `=` (8=, and then 9 as "9" too)."""
    return place if isinstance(place, str) else int(str(place))


def _percentage_detail(
    name: str, own: pd.DataFrame, results: Results, fractional_mp: bool, rules: Rules
) -> dict[str, Any]:
    """A player's session percentage, by the rules' convention (docs/bridge.md): the
    exact mean of their board percentages over the deals they have a result on
    (assigned included, void not), or their total MP over their total top; from
    exact board MPs or from board MPs rounded as published."""
    deals = _deal_entries(own, results, fractional_mp)
    for deal in deals:
        del deal["deal_rank"], deal["rank_points"]
    counted = own[own["pct_den"] > 0]
    board_pcts: list[Fraction] = []
    board_mps: list[Fraction] = []
    tops: list[int] = []
    boards = [
        (int(r), str(d)) if not rules.scope.spans_rounds else (0, str(d))
        for r, d in zip(counted["round"], counted["deal"], strict=True)
    ]
    for n, d, top in zip(counted["pct_num"], counted["pct_den"], counted["group_top"], strict=True):
        pct, top = Fraction(int(n), int(d)), int(top)
        mp = pct * top
        if rules.board_mp != "exact":
            unit = 10 ** int(rules.board_mp)
            mp = Fraction(fraction_rounded(mp * unit, rules.percentage_rounding), unit)
            pct = mp / top if top else pct
        board_pcts.append(pct)
        board_mps.append(mp)
        tops.append(top)
    if rules.percentage_of == "total":
        exact = 100 * sum(board_mps, Fraction(0)) / sum(tops) if sum(tops) else Fraction(50)
    else:
        exact = 100 * sum(board_pcts, Fraction(0)) / len(board_pcts) if board_pcts else Fraction(0)
    compared = own[own["n"] >= 0]
    if rules.board_mp == "exact":
        mp_sum = int(compared["mp"].sum())
        mp_shown: int | Decimal = cents(mp_sum) if fractional_mp else mp_sum
    else:
        decimals = int(rules.board_mp)
        played = sum(
            (m for m, n in zip(board_mps, counted["n"], strict=True) if n >= 0), Fraction(0)
        )
        mp_shown = Decimal(int(played * 10**decimals)).scaleb(-decimals)
    return {
        "player": name,
        "deals": deals,
        "percentage": {
            "value": cents(fraction_rounded(exact * 100, rules.percentage_rounding)),
            "exact": _fraction_text(exact),
        },
        "mp": mp_shown,
        "top": int(compared["top"].sum()),
        "deals_counted": len(board_pcts),
        "board_percentages": dict(zip(boards, board_pcts, strict=True)),
        "count_back": rules.place_ties == "count-back",
    }


def _versus_percentage(
    ahead: dict[str, Any], behind: dict[str, Any], criterion: str, other: pd.Series
) -> dict[str, Any]:
    """Who is ahead of whom by percentage, and by how much; equal ones share the place."""
    a, b = (Fraction(x["percentage"]["exact"]) for x in (ahead, behind))
    versus = {
        "player": str(other["player"]),
        "place": place_number(other["place"]),
        "place_written": written_place(other["place"]),
        "percentage": other["percentage"],
        "ahead": ahead["player"],
        "criterion": "percentage" if a != b else "shared",
        "ahead_value": ahead["percentage"]["value"],
        "behind_value": behind["percentage"]["value"],
        "by": cents((a - b) * 100),
        "by_exact": _fraction_text(a - b),
    }
    points = _count_back(ahead["board_percentages"], behind["board_percentages"])
    if a == b and ahead["count_back"] and points[0] != points[1]:
        versus.update(
            criterion="count_back",
            ahead_value=points[0],
            behind_value=points[1],
            by=points[0] - points[1],
            by_exact=None,
        )
    return versus


def _count_back(ahead: dict[Any, Fraction], behind: dict[Any, Fraction]) -> tuple[int, int]:
    """Point-a-board count-back between two players: on each board either played, the
    better board percentage scores 2, an equal one 1 each; a board one of them did not
    play counts as 50% for them."""
    half = Fraction(1, 2)
    points = [0, 0]
    for board in set(ahead) | set(behind):
        mine, theirs = ahead.get(board, half), behind.get(board, half)
        points[0] += 2 if mine > theirs else int(mine == theirs)
        points[1] += 2 if theirs > mine else int(mine == theirs)
    return points[0], points[1]


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
    deals = _deal_entries(own, results, fractional_mp)
    penalty = int(own["penalty"].sum())
    detail: dict[str, Any] = {
        "player": name,
        "deals": deals,
        "rank_points": [d["rank_points"] for d in deals if d["rank_points"] is not None],
        "penalty": cents(penalty),
        "total": cents(int(own["points"].sum()) - penalty),
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
                            "opponent_total": cents(totals[str(other)]),
                        }
                    )
        exact = (
            Fraction(sum(totals[str(b["player"])] for b in beaten), len(beaten))
            if beaten
            else Fraction(0)
        )
        detail["beaten"] = beaten
        detail["beaten_avg"] = {"value": cents(exact), "exact_cents": _fraction_text(exact)}
    if results.has_seconds:
        times = sorted(Fraction(int(s)) * second_unit for s in own["seconds_units"])
        kept = times[1:-1] if len(times) >= 3 else times
        trimmed = sum(kept, Fraction(0)) / len(kept) if kept else Fraction(0)
        detail["total_seconds"] = sum(times, Fraction(0))
        detail["trimmed_seconds"] = {
            "value": cents(trimmed * 100),
            "exact": _fraction_text(trimmed),
            "dropped": [times[-1], times[0]] if len(times) >= 3 else [],
        }
    return detail


def _add_weighted_parts(
    detail: dict[str, Any],
    section_rows: pd.DataFrame,
    adjustments: Adjustments,
    rules: Rules,
    score_unit: Fraction,
) -> None:
    """Each part of a weighted score, with its matchpoints against the results as played."""
    frame = adjustments.frame
    parts = frame[(frame["kind"] == "weighted") & (frame["player"] == detail["player"])]
    for deal in detail["deals"]:
        mine = parts[(parts["round"] == deal["round"]) & (parts["deal"] == str(deal["deal"]))]
        if mine.empty:
            continue
        same = (
            (section_rows["deal"].astype(str) == str(deal["deal"]))
            & (section_rows["seat"] == deal["seat"])
            & (section_rows["player_text"] != detail["player"])
            & (section_rows["n"] >= 0)
        )
        if not rules.scope.spans_rounds:
            same &= section_rows["round"] == deal["round"]
        others = [Fraction(int(u)) * score_unit for u in section_rows.loc[same, "score_units"]]
        deal["parts"] = []
        for value, weight in zip(mine["value"], mine["weight"], strict=True):
            score = Fraction(Decimal(value))
            mp = sum(2 if score > other else int(score == other) for other in others)
            deal["parts"].append({"score": score, "weight": int(weight), "mp": mp})


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
            by=cents(a - b),
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
