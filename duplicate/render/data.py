"""What the report shows, computed once: standings, scores, and places round by round."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from duplicate.deal_scope import deal_scope
from duplicate.model.adjustments import Adjustments
from duplicate.model.results import Results, columns_of
from duplicate.rules import Rules
from duplicate.scoring.methods import method_of, score, standings


@dataclass(frozen=True)
class ReportData:
    standings: pd.DataFrame
    scores: pd.DataFrame
    rules: Rules
    adjustments: Adjustments | None
    # Round -> the standings after it (the last is `standings`).
    after_round: dict[int, pd.DataFrame] = field(default_factory=dict)
    # Round -> the standings of that round alone, where each round's deals are its own
    # (deal scope "round"): each player's result in the round.
    round_alone: dict[int, pd.DataFrame] = field(default_factory=dict)


def report_data(
    results: Results, rules: Rules, adjustments: Adjustments | None = None
) -> ReportData:
    """Standings, scores, the standings after every round, and (deals compared within
    their round) the standings of each round alone."""
    method = method_of(rules)
    if not method.explained:
        raise method.unsupported("the report")
    frame = results.frame
    rounds = sorted(frame["round"].unique())
    after_round = {}
    for last in rounds:
        so_far = replace(results, columns=columns_of(frame[frame["round"] <= last]))
        # The last pass takes every adjustment, so that one naming no result fails.
        corrections = (
            adjustments
            if last == rounds[-1]
            else _of_rounds(adjustments, [r for r in rounds if r <= last])
        )
        table = standings(so_far, rules, corrections)
        after_round[int(last)] = table
    round_alone = {}
    if not deal_scope(rules.deal_scope).spans_rounds:
        for rnd in rounds:
            if len(rounds) == 1:
                round_alone[int(rnd)] = table
                break
            alone = replace(results, columns=columns_of(frame[frame["round"] == rnd]))
            corrections = _of_rounds(adjustments, [rnd])
            round_alone[int(rnd)] = standings(alone, rules, corrections)
    return ReportData(
        # After the last round, with every correction: the event's standings.
        standings=table,
        scores=score(results, rules, adjustments),
        rules=rules,
        adjustments=adjustments,
        after_round=after_round,
        round_alone=round_alone,
    )


def _of_rounds(adjustments: Adjustments | None, rounds: list[Any]) -> Adjustments | None:
    """The adjustments of `rounds`; None when there are none."""
    if adjustments is None:
        return None
    kept = adjustments.frame[adjustments.frame["round"].isin(rounds)]
    return replace(adjustments, frame=kept) if len(kept) else None
