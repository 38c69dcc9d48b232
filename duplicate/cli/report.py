"""`duplicate report`: the event as a static web site."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from duplicate.cli.common import (
    AdjustmentsOpt,
    DealScopeOpt,
    EncodingOpt,
    RankBaseOpt,
    RankFactorsOpt,
    ResultsArg,
    RulesOpt,
    TieRankingOpt,
    effective_rules,
    refuse_overwriting_inputs,
    reports_errors,
    stderr,
    working,
)


class Language(StrEnum):
    en = "en"
    zh = "zh"


def register(app: typer.Typer) -> None:
    app.command(name="report")(report)


@reports_errors
def report(
    results: ResultsArg,
    output: Annotated[
        str, typer.Option("--output", "-o", help="The folder to write the site into.")
    ],
    lang: Annotated[Language, typer.Option("--lang", help="Labels in en or zh.")] = Language.en,
    adjustments: AdjustmentsOpt = None,
    encoding: EncodingOpt = None,
    rules_file: RulesOpt = None,
    tie_ranking: TieRankingOpt = None,
    deal_scope: DealScopeOpt = None,
    rank_factors: RankFactorsOpt = None,
    rank_base: RankBaseOpt = None,
) -> None:
    """Write a self-contained web site: standings, a page per deal and per player, the rules.

    Example: duplicate report results.csv -o site --lang zh
    """
    from duplicate.io.read import read_adjustments, read_results
    from duplicate.io.write import write_directory
    from duplicate.report.data import report_data
    from duplicate.report.pages import build_site

    rules = effective_rules(rules_file, tie_ranking, deal_scope, rank_factors, rank_base)
    refuse_overwriting_inputs(output, [results] + ([adjustments] if adjustments else []))
    with working(f"reading {results}"):
        data = read_results(results, encoding, rules.deal_scope)
        corrections = read_adjustments(adjustments, encoding) if adjustments else None
    with working("building the report"):
        pages = build_site(report_data(data, rules, corrections), lang.value)
    write_directory(output, {path: html.encode("utf-8") for path, html in pages.items()})
    stderr.print(f"wrote {len(pages)} pages to {output}/ (open {output}/index.html)", markup=False)
