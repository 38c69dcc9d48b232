"""`duplicate verify`: recompute the standings and compare them with a published file."""

from __future__ import annotations

from typing import Annotated

import typer

from duplicate.cli.common import (
    AdjustmentsOpt,
    DealScopeOpt,
    EncodingOpt,
    FormatOpt,
    RankBaseOpt,
    RankFactorsOpt,
    ResultsArg,
    RulesOpt,
    TieRankingOpt,
    effective_rules,
    read_inputs,
    reports_errors,
    stderr,
)
from duplicate.cli.output import emit


def register(app: typer.Typer) -> None:
    app.command(name="verify")(verify)


@reports_errors
def verify(
    results: ResultsArg,
    published: Annotated[
        str,
        typer.Argument(metavar="PUBLISHED", help="Standings as published (CSV, Parquet or JSON)."),
    ],
    fmt: FormatOpt = None,
    adjustments: AdjustmentsOpt = None,
    encoding: EncodingOpt = None,
    rules_file: RulesOpt = None,
    tie_ranking: TieRankingOpt = None,
    deal_scope: DealScopeOpt = None,
    rank_factors: RankFactorsOpt = None,
    rank_base: RankBaseOpt = None,
) -> None:
    """Recompute the standings and compare them, field by field, with a published file.

    Exit 0 when they agree; exit 1 listing every difference (player, field, published,
    recomputed) on standard output.

    Example: duplicate verify results.csv published/standings.csv
    """
    from duplicate.core.verify import verify as compare
    from duplicate.io.read import read_published

    rules = effective_rules(rules_file, tie_ranking, deal_scope, rank_factors, rank_base)
    data, corrections = read_inputs(results, adjustments, encoding, rules.deal_scope)
    found = compare(data, read_published(published, encoding), rules, corrections)
    if found.empty:
        stderr.print(f"{published} agrees with {results}: every field of every player")
        return
    emit(found, output=None, fmt=fmt, rules=rules, kind="differences", inputs=[])
    count = len(found)
    stderr.print(
        f"{published} differs from {results} in {count} field{'s' if count != 1 else ''}",
    )
    raise typer.Exit(1)
