"""Adjustments attached to the result rows they name (model/adjustments.py parses
them): each row's assigned MP%, void, penalty, average and note, and the parts of its
weighted score."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from duplicate.errors import InvalidData, Problem
from duplicate.limits import MAX_UNITS
from duplicate.model.adjustments import (
    Adjustments,
    cents_text,
    coverage_problems,
    fits_scale,
    scaled_units,
)
from duplicate.model.codes import sum_by
from duplicate.model.exact import IntArray
from duplicate.model.results import Results

if TYPE_CHECKING:
    import pandas as pd


class RowAdjustments(NamedTuple):
    """Adjustments aligned with the rows of a Results frame."""

    assigned_centi: IntArray  # assigned MP% x 100, or -1
    void: npt.NDArray[np.bool_]
    penalty_cents: IntArray
    note: npt.NDArray[np.object_]  # "kind value: reason; ..." or ""
    # Per row: +1 average plus, -1 average minus, 0 neither (their MP% is assigned once
    # the player's other deals are scored: scores.score_items).
    average: IntArray
    # The parts of weighted scores, one entry per part: the row it replaces, the part's
    # score in the results' score units, and its weight in percent.
    part_row: IntArray
    part_units: IntArray
    part_weight: IntArray


def match_adjustments(results: Results, adjustments: Adjustments) -> RowAdjustments:
    """Attach each adjustment to its result row; an adjustment naming no row is an error."""
    matched = _matched_rows(results, adjustments)
    problems = coverage_problems(adjustments, matched["row"].to_numpy(), results.source)
    problems += _clashes(matched, results, adjustments.source)
    parts = matched[matched["kind"] == "weighted"]
    problems += _part_problems(parts, adjustments.source, results.score_scale)
    if problems:
        raise InvalidData(problems)

    n = len(results.frame)
    assigned = np.full(n, -1, dtype=np.int64)
    void = np.zeros(n, dtype=bool)
    at = matched["at"].to_numpy()
    kind = matched["kind"].to_numpy()
    cents = matched["cents"].to_numpy()
    assigned[at[kind == "mp_pct"]] = cents[kind == "mp_pct"]
    void[at[kind == "void"]] = True
    average = np.zeros(n, dtype=np.int64)
    average[at[kind == "avg_plus"]] = 1
    average[at[kind == "avg_minus"]] = -1
    penalty = sum_by(at[kind == "penalty"], cents[kind == "penalty"], n)
    return RowAdjustments(
        assigned,
        void,
        penalty,
        _notes(matched, n),
        average,
        part_row=parts["at"].to_numpy(dtype=np.int64),
        part_units=scaled_units(parts["value"], results.score_scale).to_numpy(dtype=np.int64),
        part_weight=parts["weight"].to_numpy(dtype=np.int64),
    )


def _matched_rows(results: Results, adjustments: Adjustments) -> pd.DataFrame:
    """The adjustments that name a result, each with its row position (`at`); an event's
    penalty goes with the player's first result (in any round)."""
    import pandas as pd

    frame = results.frame
    keys = pd.DataFrame(
        {
            "round": frame["round"].to_numpy(dtype=np.int64),
            "deal": frame["deal"].astype("str").to_numpy(),
            "player": frame["player"].astype("str").to_numpy(),
            "at": np.arange(len(frame)),
        }
    )
    adj = adjustments.frame
    whole_event = adj["deal"] == ""
    merged = adj[~whole_event].merge(keys, on=["round", "deal", "player"], how="left")
    if whole_event.any():
        first = keys.drop_duplicates("player")[["player", "at"]]
        merged = pd.concat([merged, adj[whole_event].merge(first, on="player", how="left")])
    return merged.dropna(subset=["at"]).astype({"at": "int64"})


def _clashes(matched: pd.DataFrame, results: Results, source: str) -> list[Problem]:
    """A problem for each result given more than one outcome (the parts of one weighted
    score are one)."""
    outcome = matched[matched["kind"] != "penalty"]
    outcome = outcome[~(outcome["kind"] == "weighted") | ~outcome.duplicated(["at", "kind"])]
    clashes = outcome[outcome.duplicated("at", keep=False)]
    rows = results.frame["row"]
    return [
        Problem(
            source,
            "more than one mp_pct, void, avg_plus, avg_minus or weighted for one result",
            tuple(int(r) for r in clashes.loc[clashes["at"] == position, "row"]),
            "kind",
            f"keep one (result at row {int(rows.iloc[position])} of {results.source})",
            code="adjustment.clash",
        )
        for position in sorted(set(clashes["at"]))
    ]


def _notes(matched: pd.DataFrame, n: int) -> npt.NDArray[np.object_]:
    """Each row's adjustments as text ("mp_pct 60.00: late"), '' for none."""
    value = " " + cents_text(matched["cents"])
    shown = value.where(matched["kind"].isin(["mp_pct", "penalty"]), "")
    shown = shown.where(matched["deal"] != "", shown + " (the event's)")
    part = " " + matched["weight"].astype("str") + "% of " + matched["value"]
    shown = shown.where(matched["kind"] != "weighted", part)
    text = matched["kind"] + shown + ": " + matched["reason"]
    notes = text.groupby(matched["at"].to_numpy()).agg("; ".join)
    note = np.full(n, "", dtype=object)
    note[notes.index.to_numpy()] = notes.to_numpy()
    return note


def _part_problems(parts: pd.DataFrame, source: str, scale: int) -> list[Problem]:
    """Weights that do not add up to 100, and scores the results cannot hold."""
    problems = []
    totals = parts.groupby("at")["weight"].transform("sum")
    for _, wrong in parts[totals != 100].groupby("at"):
        problems.append(
            Problem(
                source,
                f"the weights of one weighted score add up to {wrong['weight'].sum()}, not 100",
                tuple(int(r) for r in wrong["row"]),
                "weight",
                "give every part of the result its percent, adding up to 100",
                code="adjustment.weights-not-100",
            )
        )
    digits = parts["value"].str.lstrip("+-").str.extract(r"^([0-9]+)", expand=False)
    too_large = digits.fillna("0").astype("int64") >= MAX_UNITS // 10**scale
    unheld = ~fits_scale(parts["value"], scale) | too_large
    for row, value in zip(parts.loc[unheld, "row"], parts.loc[unheld, "value"], strict=True):
        problems.append(
            Problem(
                source,
                f"score {value} cannot be held at the results' {scale} decimals",
                (int(row),),
                "value",
                "give the part's score as the results give their scores",
                code="adjustment.bad-value",
            )
        )
    return problems
