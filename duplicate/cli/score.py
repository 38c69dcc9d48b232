"""`duplicate score`: per-deal matchpoints, MP%, deal ranks and rank points."""

from __future__ import annotations

import typer

from duplicate.cli.common import (
    DealScopeOpt,
    EncodingOpt,
    FormatOpt,
    OutputOpt,
    RankBaseOpt,
    RankFactorsOpt,
    ResultsArg,
    RulesOpt,
    TieRankingOpt,
    effective_rules,
    reports_errors,
)
from duplicate.cli.output import emit


def register(app: typer.Typer) -> None:
    app.command(name="score")(score)


@reports_errors
def score(
    results: ResultsArg,
    output: OutputOpt = None,
    fmt: FormatOpt = None,
    encoding: EncodingOpt = None,
    rules_file: RulesOpt = None,
    tie_ranking: TieRankingOpt = None,
    deal_scope: DealScopeOpt = None,
    rank_factors: RankFactorsOpt = None,
    rank_base: RankBaseOpt = None,
) -> None:
    """Score every result: group size n, matchpoints, top, MP%, deal rank, rank points.

    Example: duplicate score results.csv -o scores.parquet
    """
    from duplicate.core.scoring import score as score_results
    from duplicate.io.read import read_results

    rules = effective_rules(rules_file, tie_ranking, deal_scope, rank_factors, rank_base)
    data = read_results(results, encoding, rules.deal_scope)
    emit(
        score_results(data, rules),
        output=output,
        fmt=fmt,
        rules=rules,
        kind="scores",
        inputs=[results],
    )
