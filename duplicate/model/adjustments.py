"""The chief arbiter's corrections (Big Two rules, article 15), applied to the results.

An adjustments file has one row per correction: round, deal, player, kind, value, reason.

- mp_pct: an assigned result (say 60 or 40 for a deal disrupted through no fault of the
  player). The row leaves its comparison group, the others are matchpointed without it,
  and the assigned MP% takes part in the deal ranking.
- penalty: rank points deducted from the player's total.
- void: the result is cancelled: not compared, not ranked, no rank points.
- avg_plus, avg_minus: an assigned 60% or 40%, or the player's own percentage beyond it.
- weighted: a weighted assigned score (docs/scoring.md section 9), one row per part: a score
  in `value` and its percent in `weight` (whole percents adding up to 100). The result
  is matchpointed as each part with its weight, and the others against each part.

Every adjustment must name a result that exists, and give its reason. Adjustments change
matchpoints, ranks and totals; beaten_avg still compares the scores as played.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from duplicate.errors import InvalidData, Problem
from duplicate.model.columns import header_map

if TYPE_CHECKING:
    import pandas as pd

KINDS = ("mp_pct", "penalty", "void", "avg_plus", "avg_minus", "weighted")
# Average plus and minus (docs/scoring.md section 9): at least 60%, or at most 40%, the
# player's own percentage over their other deals deciding when it is beyond.
AVERAGE_CENTI = {"avg_plus": 6000, "avg_minus": 4000}
# Up to 10**9 points: a hundred times the most a deal can earn (limits.MAX_DEAL_CENTS).
_CENTS = r"[0-9]{1,9}(?:\.[0-9]{1,2})?"
# A part of a weighted score: a score as the results hold them (limits.MAX_DECIMALS).
_SCORE = r"[-+]?[0-9]{1,15}(?:\.[0-9]{1,6})?"
_WEIGHT = r"[0-9]{1,3}"


# Compared by identity (eq=False): a DataFrame has no single truth value to compare by.
@dataclass(frozen=True, eq=False)
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
                    code="column.missing",
                )
            ]
        )
    frame = _cells_as_text(raw.reset_index(drop=True), columns, first_row)
    weighted = frame["kind"] == "weighted"
    valued = frame["kind"].isin(["mp_pct", "penalty"])
    cents = _cents(frame["value"].where(valued & frame["value"].str.fullmatch(_CENTS), "0"))
    problems = _cell_problems(frame, cents, source)
    if problems:
        raise InvalidData(problems)
    frame["cents"] = cents
    frame["round"] = frame["round"].astype("int64")
    frame["weight"] = _whole(frame["weight"].where(weighted, "0"))
    frame["value"] = frame["value"].where(weighted, "")
    return Adjustments(frame, source)


def _cells_as_text(raw: pd.DataFrame, columns: dict[str, Hashable], first_row: int) -> pd.DataFrame:
    """Every column an adjustment reads, as trimmed text ('' where absent), and the row
    numbers messages give."""
    import pandas as pd

    def text(name: str, default: str = "") -> pd.Series:
        if name not in columns:
            return pd.Series([default] * len(raw), dtype="str")
        return raw[columns[name]].astype("str").str.strip().fillna("").replace("nan", "")

    return pd.DataFrame(
        {
            "round": text("round", "1").replace("", "1"),
            "deal": text("deal"),
            "player": text("player"),
            "kind": text("kind").str.casefold(),
            "value": text("value"),
            "weight": text("weight"),
            "reason": text("reason"),
            "row": np.arange(first_row, first_row + len(raw)),
        }
    )


def _cell_problems(frame: pd.DataFrame, cents: pd.Series, source: str) -> list[Problem]:
    """A problem for each bad cell of `frame` (_cells_as_text), `cents` the values of
    mp_pct and penalty rows."""
    problems: list[Problem] = []

    def flag(mask: pd.Series, column: str, message: str, hint: str, code: str) -> None:
        for i in np.flatnonzero(mask.to_numpy()):
            row = frame.iloc[i]
            where = (int(row["row"]),)
            problems.append(Problem(source, message.format(**row), where, column, hint, code=code))

    flag(
        ~frame["round"].str.fullmatch(r"[1-9][0-9]{0,17}"),
        "round",
        "{round!r} is not a round number",
        "rounds count from 1",
        "cell.not-a-round",
    )
    for name in ("player", "reason"):
        flag(frame[name] == "", name, "empty", f"every adjustment needs its {name}", "cell.empty")
    # A penalty without a deal is the event's (a player's total), not a deal's.
    flag(
        (frame["deal"] == "") & (frame["kind"] != "penalty"),
        "deal",
        "empty",
        "every adjustment but an event's penalty needs its deal",
        "cell.empty",
    )
    flag(
        ~frame["kind"].isin(KINDS),
        "kind",
        "unknown kind {kind!r}",
        "use mp_pct, penalty, void, avg_plus, avg_minus or weighted",
        "adjustment.unknown-kind",
    )
    _weight_problems(frame, flag)
    flag(
        frame["kind"].isin(["mp_pct", "penalty"]) & ~frame["value"].str.fullmatch(_CENTS),
        "value",
        "{value!r} is not a number >= 0 of at most 9 digits and 2 decimals",
        "mp_pct takes 0 to 100, penalty the points deducted",
        "adjustment.bad-value",
    )
    flag(
        (frame["kind"] == "mp_pct") & (cents > 100 * 100),
        "value",
        "MP% {value} is over 100",
        "an assigned MP% is 0 to 100",
        "adjustment.bad-value",
    )
    return problems


def _weight_problems(
    frame: pd.DataFrame, flag: Callable[[pd.Series, str, str, str, str], None]
) -> None:
    """The value and weight of each part of a weighted score, and no weight elsewhere."""
    weighted = frame["kind"] == "weighted"
    flag(
        weighted & ~frame["value"].str.fullmatch(_SCORE),
        "value",
        "{value!r} is not a score of at most 15 digits and 6 decimals",
        "a part of a weighted score gives the score in value",
        "adjustment.bad-value",
    )
    flag(
        weighted & ~(frame["weight"].str.fullmatch(_WEIGHT) & (frame["weight"].str.len() > 0))
        | weighted & frame["weight"].str.fullmatch(_WEIGHT) & (_whole(frame["weight"]) > 100),
        "weight",
        "{weight!r} is not a whole percent from 0 to 100",
        "each part of a weighted score needs its weight in percent (67 for 67%)",
        "adjustment.bad-weight",
    )
    flag(
        ~weighted & (frame["weight"] != ""),
        "weight",
        "a weight on a {kind} adjustment",
        "only the parts of a weighted score take a weight",
        "adjustment.bad-weight",
    )


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
    import pandas as pd

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


def coverage_problems(
    adjustments: Adjustments, matched_rows: np.ndarray, results_source: str
) -> list[Problem]:
    """Adjustments that name no result, or results in several sections.

    `matched_rows` holds an adjustment's row number once for every result it names
    (from one table of results, or from the parts of one scored on a cluster).
    """
    import pandas as pd

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
                    code="adjustment.no-result",
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
                    code="adjustment.several-sections",
                )
            )
    return problems
