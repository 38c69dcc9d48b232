"""`duplicate standings`: the final order with every tie-break."""

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
    app.command(name="standings")(standings)


@reports_errors
def standings(
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
    """Rank the players: total rank points, then beaten_avg, rank_counts, play times.

    decided_by names the criterion that put each player below the one above;
    playoff marks players still tied after every tie-break.

    Example: duplicate standings results.csv -o standings.csv
    """
    from duplicate.core.standings import standings as rank_players
    from duplicate.io.read import read_results

    rules = effective_rules(rules_file, tie_ranking, deal_scope, rank_factors, rank_base)
    data = read_results(results, encoding, rules.deal_scope)
    emit(
        rank_players(data, rules),
        output=output,
        fmt=fmt,
        rules=rules,
        kind="standings",
        inputs=[results],
    )
