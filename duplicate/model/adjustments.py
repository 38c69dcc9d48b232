"""The chief arbiter's corrections (Big Two rules, article 15), applied to the results.

An adjustments file has one row per correction: round, deal, player, kind, value, reason.

- mp_pct: an assigned result (say 60 or 40 for a deal disrupted through no fault of the
  player). The row leaves its comparison group, the others are matchpointed without it,
  and the assigned MP% takes part in the deal ranking.
- penalty: rank points deducted from the player's total.
- void: the result is cancelled: not compared, not ranked, no rank points.

Every adjustment must name a result that exists, and give its reason. Adjustments change
matchpoints, ranks and totals; beaten_avg still compares the scores as played.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.model.codes import sum_by
from duplicate.model.columns import header_map
from duplicate.model.exact import IntArray
from duplicate.model.results import Results

KINDS = ("mp_pct", "penalty", "void", "avg_plus", "avg_minus")
# Average plus and minus (SCORING.md section 9): at least 60%, or at most 40%, the
# player's own percentage over their other deals deciding when it is beyond.
AVERAGE_CENTI = {"avg_plus": 6000, "avg_minus": 4000}
# Up to 10**9 points: a hundred times the most a deal can earn (limits.MAX_DEAL_CENTS).
_CENTS = r"[0-9]{1,9}(?:\.[0-9]{1,2})?"


@dataclass(frozen=True)
class Adjustments:
    """Parsed adjustments: round, deal, player (as text), kind, cents, reason, row."""

    frame: pd.DataFrame
    source: str


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
    for name in ("deal", "player", "reason"):
        flag(frame[name] == "", name, "empty", f"every adjustment needs its {name}")
    flag(
        ~frame["kind"].isin(KINDS),
        "kind",
        "unknown kind {kind!r}",
        "use mp_pct, penalty, void, avg_plus or avg_minus",
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
    return Adjustments(frame.drop(columns="value"), source)


def _cents(values: pd.Series) -> pd.Series:
    """Text such as 12.5 as whole cents (1250), exactly: no float on the way."""
    whole = values.str.extract(r"^([0-9]+)", expand=False).fillna("0").astype("int64")
    fraction = values.str.extract(r"\.([0-9]*)$", expand=False).fillna("")
    return whole * 100 + fraction.str.ljust(2, "0").astype("int64")


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
    merged = adj.merge(keys, on=["round", "deal", "player"], how="left")
    matched = merged.dropna(subset=["at"]).astype({"at": "int64"})
    problems = coverage_problems(adjustments, matched["row"].to_numpy(), results.source)
    outcome = matched[matched["kind"] != "penalty"]
    clashes = outcome[outcome.duplicated("at", keep=False)]
    for position in sorted(set(clashes["at"])):
        problems.append(
            Problem(
                adjustments.source,
                "more than one mp_pct, void, avg_plus or avg_minus for one result",
                tuple(int(r) for r in clashes.loc[clashes["at"] == position, "row"]),
                "kind",
                f"keep one (result at row {int(frame['row'].iloc[position])} of {results.source})",
            )
        )
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
    whole = matched["cents"] // 100
    value = " " + whole.astype("str") + "." + (matched["cents"] % 100).astype("str").str.zfill(2)
    shown = value.where(~matched["kind"].isin(["void", "avg_plus", "avg_minus"]), "")
    text = matched["kind"] + shown + ": " + matched["reason"]
    notes = text.groupby(at).agg("; ".join)
    note = np.full(n, "", dtype=object)
    note[notes.index.to_numpy()] = notes.to_numpy()
    return RowAdjustments(assigned, void, penalty, note, average)


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
        where = f"player {row['player']!r} on round {row['round']}, deal {row['deal']!r}"
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
        elif found > 1:
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
