"""`duplicate rules`: print the effective rules as TOML."""

from __future__ import annotations

import typer

from duplicate.cli.common import reports_errors
from duplicate.cli.rules_options import rules_options
from duplicate.rules import Rules


def register(app: typer.Typer) -> None:
    app.command(name="rules")(rules)


@reports_errors
@rules_options
def rules(*, rules: Rules) -> None:
    """Print the rules the other commands would use with the same options, as TOML.

    Example: duplicate rules --tie-ranking dense > rules.toml
    """
    typer.echo(rules.to_toml(), nl=False)
