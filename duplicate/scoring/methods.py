"""Scoring methods: how a deal is scored and how the standings are ordered, chosen
once by `rules.method` (docs/scoring.md sections 2-4 and 7).

`score`, `score_batches` and `standings` are the library's entry points; every other
module asks the method what it can do (method_of(rules)) instead of naming methods.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

import pyarrow as pa

from duplicate.errors import Problem, UsageError
from duplicate.model.adjustments import Adjustments
from duplicate.model.results import Results
from duplicate.rules import Method, Rules
from duplicate.scoring.score_table import ScoreBatches
from duplicate.scoring.scores import as_results, matchpoint_batches

if TYPE_CHECKING:
    import pandas as pd

ScoreFunction = Callable[[Results, Rules, Adjustments | None, int | None], ScoreBatches]
StandingsFunction = Callable[[Results, Rules, Adjustments | None], pa.Table]


class ScoringMethod(NamedTuple):
    """One way of scoring an event, and what the rest of the toolkit may do with it."""

    name: Method
    # One row per result, in canonical order, in batches of up to the given rows.
    score: ScoreFunction
    # One row per player in final order (an Arrow table).
    standings: StandingsFunction
    # Corrections (assigned MP%, penalties, voids) apply to it.
    takes_adjustments: bool
    # explain and the web report show its numbers.
    explained: bool
    # The dask engine computes it.
    distributed: bool
    # The settings of one method or another that this one reads (the others read the
    # deal scope, sections and the game's settings too): one given for a method that
    # does not read it is said to go unused.
    reads: frozenset[str]

    def unsupported(self, what: str) -> UsageError:
        """The error for `what`, which this method does not support."""
        return UsageError(
            f"{what} covers matchpoint scoring, not {self.name}", "scoring.method-unsupported"
        )


# A method's modules are imported when an event uses them (and matchpoint standings
# when a command asks for standings).


def _matchpoint_standings(
    results: Results, rules: Rules, adjustments: Adjustments | None
) -> pa.Table:
    from duplicate.scoring.standings import matchpoint_standings

    return matchpoint_standings(results, rules, adjustments)


def _percentage_standings(
    results: Results, rules: Rules, adjustments: Adjustments | None
) -> pa.Table:
    from duplicate.scoring.percentage import percentage_standings

    return percentage_standings(results, rules, adjustments)


def _standard_points_score(
    results: Results, rules: Rules, adjustments: Adjustments | None, batch_rows: int | None
) -> ScoreBatches:
    from duplicate.scoring.standard_points import sp_score

    return ScoreBatches.whole(sp_score(results, rules))


def _standard_points_standings(
    results: Results, rules: Rules, adjustments: Adjustments | None
) -> pa.Table:
    from duplicate.scoring.standard_points import sp_standings

    return sp_standings(results, rules)


def _imp_score(
    results: Results, rules: Rules, adjustments: Adjustments | None, batch_rows: int | None
) -> ScoreBatches:
    from duplicate.scoring.imps import imp_score

    return ScoreBatches.whole(imp_score(results, rules, adjustments))


def _imp_standings(results: Results, rules: Rules, adjustments: Adjustments | None) -> pa.Table:
    from duplicate.scoring.imps import imp_standings

    return imp_standings(results, rules, adjustments)


# What every method built on matchpoints reads, and every IMP method.
_MATCHPOINTS = frozenset({"tie_ranking", "rank_base", "rank_factors", "factoring"})
_IMPS = frozenset({"imp_average", "imp_totals"})

METHODS: dict[Method, ScoringMethod] = {
    "matchpoints": ScoringMethod(
        "matchpoints",
        score=matchpoint_batches,
        standings=_matchpoint_standings,
        takes_adjustments=True,
        explained=True,
        distributed=True,
        reads=_MATCHPOINTS | {"tie_breaks"},
    ),
    "percentage": ScoringMethod(
        "percentage",
        score=matchpoint_batches,
        standings=_percentage_standings,
        takes_adjustments=True,
        explained=True,
        distributed=False,
        reads=_MATCHPOINTS
        | {"percentage_of", "board_mp", "percentage_rounding", "shared_places", "place_ties"},
    ),
    "standard-points": ScoringMethod(
        "standard-points",
        score=_standard_points_score,
        standings=_standard_points_standings,
        takes_adjustments=False,
        explained=False,
        distributed=False,
        reads=frozenset({"sp_trim", "sp_min_deals"}),
    ),
    "cross-imps": ScoringMethod(
        "cross-imps",
        score=_imp_score,
        standings=_imp_standings,
        takes_adjustments=True,
        explained=True,
        distributed=False,
        reads=_IMPS | {"cross_imps"},
    ),
    "butler": ScoringMethod(
        "butler",
        score=_imp_score,
        standings=_imp_standings,
        takes_adjustments=True,
        explained=True,
        distributed=False,
        reads=_IMPS | {"butler_drop", "butler_trim", "butler_round", "butler_half"},
    ),
}


def method_of(rules: Rules) -> ScoringMethod:
    return METHODS[rules.method]


def unused_settings(rules: Rules, names: Iterable[str], where: str) -> list[Problem]:
    """A warning for each setting among `names` that some method reads and the rules'
    method does not (an IMP setting given for matchpoints): it changes nothing. A
    setting at its default value is not named: it would change nothing anywhere."""
    method = method_of(rules)
    default = Rules()
    problems = []
    for name in names:
        readers = [m.name for m in METHODS.values() if name in m.reads]
        if not readers or name in method.reads:
            continue
        if getattr(rules, name) != getattr(default, name):
            problems.append(
                Problem(
                    where,
                    f"{{opt:{name}}} is a setting of {' and '.join(readers)} scoring, not of "
                    f"{method.name}: it was not used",
                    hint="leave it out, or choose the method it belongs to with {opt:method}",
                    code="option.not-used",
                )
            )
    return problems


def _prepared(
    data: Results | pd.DataFrame, rules: Rules | None, adjustments: Adjustments | None
) -> tuple[Results, Rules, ScoringMethod]:
    rules = rules or Rules()
    method = method_of(rules)
    if adjustments is not None and not method.takes_adjustments:
        raise UsageError(
            f"adjustments apply to matchpoint scoring, not to {method.name}",
            "scoring.method-unsupported",
        )
    return as_results(data, rules), rules, method


def score_batches(
    data: Results | pd.DataFrame,
    rules: Rules | None = None,
    adjustments: Adjustments | None = None,
    batch_rows: int | None = 1 << 20,
) -> ScoreBatches:
    """`score`, `batch_rows` rows at a time (None: one batch): a writer streaming the
    batches never holds the whole table."""
    results, rules, method = _prepared(data, rules, adjustments)
    return method.score(results, rules, adjustments, batch_rows)


def score(
    data: Results | pd.DataFrame,
    rules: Rules | None = None,
    adjustments: Adjustments | None = None,
) -> pd.DataFrame:
    """One row per result with its matchpoints, MP%, deal rank and rank points (or its
    standard points).

    Rows come in a canonical order (section, round, deal, table, seat, player), so the
    same results in any row order give the same table.

        >>> from duplicate.io.read import read_results
        >>> table = score(read_results("sample_data/spec_example.csv"))
        >>> table[["player", "mp", "deal_rank", "rank_points"]].head(3)  # doctest: +SKIP
    """
    return score_batches(data, rules, adjustments, batch_rows=None).to_frame()


def standings_batches(
    data: Results | pd.DataFrame,
    rules: Rules | None = None,
    adjustments: Adjustments | None = None,
) -> ScoreBatches:
    """`standings` as the table the writers take (one batch): no pandas."""
    results, rules, method = _prepared(data, rules, adjustments)
    return ScoreBatches.whole(method.standings(results, rules, adjustments))


def standings(
    data: Results | pd.DataFrame,
    rules: Rules | None = None,
    adjustments: Adjustments | None = None,
) -> pd.DataFrame:
    """One row per player in final order, with every tie-break value and `decided_by`.

    >>> from duplicate.io.read import read_results
    >>> standings(read_results("sample_data/spec_example.csv"))
    ... # doctest: +SKIP
    """
    results, rules, method = _prepared(data, rules, adjustments)
    return standings_frame(method.standings(results, rules, adjustments))


def standings_frame(table: pa.Table) -> pd.DataFrame:
    """A standings table in pandas: text as pandas' str, exact decimals Arrow-backed,
    whole numbers as int64 (a place some player lacks: Int64, missing as <NA>)."""
    import numpy as np
    import pandas as pd

    def dtype(kind: pa.DataType) -> Any:
        if pa.types.is_string(kind) or pa.types.is_large_string(kind):
            return pd.StringDtype("pyarrow", na_value=np.nan)
        return pd.ArrowDtype(kind) if pa.types.is_decimal(kind) else None

    frame = table.to_pandas(types_mapper=dtype)
    for name in table.column_names:
        column = table.column(name)
        if name == "place" and (column.null_count or "average_sp" in table.column_names):
            # Standard points leave some players without a place: a column of Int64.
            frame[name] = pd.array(column.to_pylist(), dtype="Int64")
    return frame
