"""`duplicate rules`: print the effective rules as TOML."""

from __future__ import annotations

import typer

from duplicate.cli.common import (
    DealScopeOpt,
    MethodOpt,
    RankBaseOpt,
    RankFactorsOpt,
    RulesOpt,
    TieRankingOpt,
    effective_rules,
    reports_errors,
)


def register(app: typer.Typer) -> None:
    app.command(name="rules")(rules)


@reports_errors
def rules(
    rules_file: RulesOpt = None,
    tie_ranking: TieRankingOpt = None,
    deal_scope: DealScopeOpt = None,
    rank_factors: RankFactorsOpt = None,
    rank_base: RankBaseOpt = None,
    method: MethodOpt = None,
) -> None:
    """Print the rules the other commands would use with the same options, as TOML.

    Example: duplicate rules --tie-ranking dense > rules.toml
    """
    typer.echo(
        effective_rules(
            rules_file, tie_ranking, deal_scope, rank_factors, rank_base, method
        ).to_toml(),
        nl=False,
    )
