"""The chief arbiter's corrections (Big Two rules, article 15), applied to the results.

An adjustments file has one row per correction: round, deal, player, kind, value, reason.

- mp_pct: an assigned result (say 60 or 40 for a deal disrupted through no fault of the
  player). The row leaves its comparison group, the others are matchpointed without it,
  and the assigned MP% takes part in the deal ranking.
- penalty: rank points deducted from the player's total.
- void: the result is cancelled: not compared, not ranked, no rank points.
- avg_plus, avg_minus: an assigned 60% or 40%, or the player's own percentage beyond it.
- weighted: a weighted assigned score (SCORING.md section 9), one row per part: a score
  in `value` and its percent in `weight` (whole percents adding up to 100). The result
  is matchpointed as each part with its weight, and the others against each part.

Every adjustment must name a result that exists, and give its reason. Adjustments change
matchpoints, ranks and totals; beaten_avg still compares the scores as played.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.limits import MAX_UNITS
from duplicate.model.codes import sum_by
from duplicate.model.columns import header_map
from duplicate.model.exact import IntArray
from duplicate.model.results import Results

KINDS = ("mp_pct", "penalty", "void", "avg_plus", "avg_minus", "weighted")
# Average plus and minus (SCORING.md section 9): at least 60%, or at most 40%, the
# player's own percentage over their other deals deciding when it is beyond.
AVERAGE_CENTI = {"avg_plus": 6000, "avg_minus": 4000}
# Up to 10**9 points: a hundred times the most a deal can earn (limits.MAX_DEAL_CENTS).
_CENTS = r"[0-9]{1,9}(?:\.[0-9]{1,2})?"
# A part of a weighted score: a score as the results hold them (limits.MAX_DECIMALS).
_SCORE = r"[-+]?[0-9]{1,15}(?:\.[0-9]{1,6})?"
_WEIGHT = r"[0-9]{1,3}"


@dataclass(frozen=True)
class Adjustments:
    """Parsed adjustments: round, deal, player (as text), kind, cents, reason, row."""

    frame: pd.DataFrame
    source: str

    def value_text(self) -> pd.Series:
        """Each adjustment's value as written for a reader: points or MP% with 2
        decimals, a weighted part's score and weight, nothing for the other kinds."""
        frame = self.frame
        cents = frame["cents"]
        points = cents_text(cents)
        part = frame["value"] + " (" + frame["weight"].astype("str") + "%)"
        shown = points.where(frame["kind"].isin(["mp_pct", "penalty"]), "")
        return shown.where(frame["kind"] != "weighted", part)

    def whole_event_kinds(self) -> list[str]:
        """The kinds given that need the whole event at once: average plus and minus
        (the player's other deals) and weighted scores (matchpoints in hundredths)."""
        kinds = set(self.frame["kind"]) & {"avg_plus", "avg_minus", "weighted"}
        return sorted(kinds)


@dataclass(frozen=True)
class RowAdjustments:
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


def parse_adjustments(
    raw: pd.DataFrame, source: str = "<adjustments>", first_row: int = 2
) -> Adjustments:
    """Validate an adjustments table; raise InvalidData listing every problem."""
    columns = header_map(raw)
    missing = [c for c in ("deal", "player", "kind", "reason") if c not in columns]
    if missing:
        raise InvalidData(
            [
                Problem(
                    source,
                    f"missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)}",
                    hint="adjustments need round, deal, player, kind, value, reason",
                )
            ]
        )
    raw = raw.reset_index(drop=True)

    def text(name: str, default: str = "") -> pd.Series:
        if name not in columns:
            return pd.Series([default] * len(raw), dtype="str")
        return raw[columns[name]].astype("str").str.strip().fillna("").replace("nan", "")

    rows = np.arange(first_row, first_row + len(raw))
    frame = pd.DataFrame(
        {
            "round": text("round", "1").replace("", "1"),
            "deal": text("deal"),
            "player": text("player"),
            "kind": text("kind").str.casefold(),
            "value": text("value"),
            "weight": text("weight"),
            "reason": text("reason"),
            "row": rows,
        }
    )
    problems: list[Problem] = []

    def flag(mask: pd.Series, column: str, message: str, hint: str) -> None:
        for i in np.flatnonzero(mask.to_numpy()):
            problems.append(
                Problem(source, message.format(**frame.iloc[i]), (int(rows[i]),), column, hint)
            )

    flag(
        ~frame["round"].str.fullmatch(r"[1-9][0-9]{0,17}"),
        "round",
        "{round!r} is not a round number",
        "rounds count from 1",
    )
    for name in ("player", "reason"):
        flag(frame[name] == "", name, "empty", f"every adjustment needs its {name}")
    # A penalty without a deal is the event's (a player's total), not a deal's.
    flag(
        (frame["deal"] == "") & (frame["kind"] != "penalty"),
        "deal",
        "empty",
        "every adjustment but an event's penalty needs its deal",
    )
    flag(
        ~frame["kind"].isin(KINDS),
        "kind",
        "unknown kind {kind!r}",
        "use mp_pct, penalty, void, avg_plus, avg_minus or weighted",
    )
    weighted = frame["kind"] == "weighted"
    flag(
        weighted & ~frame["value"].str.fullmatch(_SCORE),
        "value",
        "{value!r} is not a score of at most 15 digits and 6 decimals",
        "a part of a weighted score gives the score in value",
    )
    flag(
        weighted & ~(frame["weight"].str.fullmatch(_WEIGHT) & (frame["weight"].str.len() > 0))
        | weighted & frame["weight"].str.fullmatch(_WEIGHT) & (_whole(frame["weight"]) > 100),
        "weight",
        "{weight!r} is not a whole percent from 0 to 100",
        "each part of a weighted score needs its weight in percent (67 for 67%)",
    )
    flag(
        ~weighted & (frame["weight"] != ""),
        "weight",
        "a weight on a {kind} adjustment",
        "only the parts of a weighted score take a weight",
    )
    valued = frame["kind"].isin(["mp_pct", "penalty"])
    flag(
        valued & ~frame["value"].str.fullmatch(_CENTS),
        "value",
        "{value!r} is not a number >= 0 of at most 9 digits and 2 decimals",
        "mp_pct takes 0 to 100, penalty the points deducted",
    )
    cents = _cents(frame["value"].where(valued & frame["value"].str.fullmatch(_CENTS), "0"))
    flag(
        (frame["kind"] == "mp_pct") & (cents > 100 * 100),
        "value",
        "MP% {value} is over 100",
        "an assigned MP% is 0 to 100",
    )
    if problems:
        raise InvalidData(problems)
    frame["cents"] = cents
    frame["round"] = frame["round"].astype("int64")
    frame["weight"] = _whole(frame["weight"].where(weighted, "0"))
    frame["value"] = frame["value"].where(weighted, "")
    return Adjustments(frame, source)


def cents_text(cents: pd.Series) -> pd.Series:
    """Whole cents as points with 2 decimals (1250 -> 12.50), exactly."""
    return (cents // 100).astype("str") + "." + (cents % 100).astype("str").str.zfill(2)


def _whole(values: pd.Series) -> pd.Series:
    return values.where(values.str.fullmatch("[0-9]+"), "0").astype("int64")


def _cents(values: pd.Series) -> pd.Series:
    """Text such as 12.5 as whole cents (1250), exactly: no float on the way."""
    return scaled_units(values, 2)


def scaled_units(values: pd.Series, scale: int) -> pd.Series:
    """Signed decimal text as integers in 10**-scale (12.5, 2 -> 1250), exactly.

    Digits beyond `scale` decimals must be zeros (the caller checks with
    `fits_scale`); no float on the way.
    """
    sign = np.where(values.str.startswith("-"), -1, 1)
    digits = values.str.lstrip("+-")
    whole = digits.str.extract(r"^([0-9]+)", expand=False).fillna("0").astype("int64")
    fraction = digits.str.extract(r"\.([0-9]*)$", expand=False).fillna("")
    kept = fraction.str.slice(0, scale).str.ljust(scale, "0") if scale else None
    units = whole * 10**scale + (kept.replace("", "0").astype("int64") if kept is not None else 0)
    return pd.Series(units.to_numpy(dtype=np.int64) * sign, index=values.index)


def fits_scale(values: pd.Series, scale: int) -> pd.Series:
    """Whether each decimal text has no nonzero digit beyond `scale` decimals."""
    fraction = values.str.extract(r"\.([0-9]*)$", expand=False).fillna("")
    return fraction.str.slice(scale).str.strip("0") == ""


def match_adjustments(results: Results, adjustments: Adjustments) -> RowAdjustments:
    """Attach each adjustment to its result row; an adjustment naming no row is an error."""
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
        # An event's penalty goes with the player's first result (in any round).
        first = keys.drop_duplicates("player")[["player", "at"]]
        merged = pd.concat([merged, adj[whole_event].merge(first, on="player", how="left")])
    matched = merged.dropna(subset=["at"]).astype({"at": "int64"})
    problems = coverage_problems(adjustments, matched["row"].to_numpy(), results.source)
    outcome = matched[matched["kind"] != "penalty"]
    # The parts of one weighted score are one outcome.
    outcome = outcome[~(outcome["kind"] == "weighted") | ~outcome.duplicated(["at", "kind"])]
    clashes = outcome[outcome.duplicated("at", keep=False)]
    for position in sorted(set(clashes["at"])):
        problems.append(
            Problem(
                adjustments.source,
                "more than one mp_pct, void, avg_plus, avg_minus or weighted for one result",
                tuple(int(r) for r in clashes.loc[clashes["at"] == position, "row"]),
                "kind",
                f"keep one (result at row {int(frame['row'].iloc[position])} of {results.source})",
            )
        )
    parts = matched[matched["kind"] == "weighted"]
    problems += _part_problems(parts, adjustments.source, results.score_scale)
    if problems:
        raise InvalidData(problems)

    n = len(frame)
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
    value = " " + cents_text(matched["cents"])
    shown = value.where(matched["kind"].isin(["mp_pct", "penalty"]), "")
    shown = shown.where(matched["deal"] != "", shown + " (the event's)")
    part = " " + matched["weight"].astype("str") + "% of " + matched["value"]
    shown = shown.where(matched["kind"] != "weighted", part)
    text = matched["kind"] + shown + ": " + matched["reason"]
    notes = text.groupby(at).agg("; ".join)
    note = np.full(n, "", dtype=object)
    note[notes.index.to_numpy()] = notes.to_numpy()
    return RowAdjustments(
        assigned,
        void,
        penalty,
        note,
        average,
        part_row=parts["at"].to_numpy(dtype=np.int64),
        part_units=scaled_units(parts["value"], results.score_scale).to_numpy(dtype=np.int64),
        part_weight=parts["weight"].to_numpy(dtype=np.int64),
    )


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
            )
        )
    return problems


def coverage_problems(
    adjustments: Adjustments, matched_rows: np.ndarray, results_source: str
) -> list[Problem]:
    """Adjustments that name no result, or results in several sections.

    `matched_rows` holds an adjustment's row number once for every result it names
    (from one table of results, or from the parts of one scored on a cluster).
    """
    times = pd.Series(matched_rows).value_counts()
    problems = []
    for row in adjustments.frame.to_dict("records"):
        found = int(times.get(row["row"], 0))
        where = (
            f"player {row['player']!r} on round {row['round']}, deal {row['deal']!r}"
            if row["deal"] != ""
            else f"player {row['player']!r} (a penalty of the event)"
        )
        if found == 0:
            problems.append(
                Problem(
                    adjustments.source,
                    f"no result for {where}",
                    (int(row["row"]),),
                    "player",
                    f"check the round, deal and player against {results_source}",
                )
            )
        elif found > 1 and row["deal"] != "":
            problems.append(
                Problem(
                    adjustments.source,
                    f"{where} matches results in several sections",
                    (int(row["row"]),),
                    "player",
                    "player ids must be unique across sections",
                )
            )
    return problems
