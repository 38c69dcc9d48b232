"""`duplicate rules`: print the effective rules as TOML."""

from __future__ import annotations

from typing import Any

import typer

from duplicate.cli.common import reports_errors, write_stdout
from duplicate.cli.settings import settings_options
from duplicate.options import RULES


def register(app: typer.Typer) -> None:
    app.command(name="rules")(rules)


@reports_errors
@settings_options(
    *RULES, "source", skip=("adjustments", "players", "encoding", "sheet", "formulas")
)
def rules(*, settings: dict[str, Any]) -> None:
    """Print the rules the other commands would use with the same options, as TOML.

    Example: duplicate rules --tie-ranking dense > rules.toml
    """
    from duplicate.rules import Rules, load_rules

    rules_file = settings.pop("rules_file", None)
    start = load_rules(rules_file) if rules_file is not None else Rules()
    write_stdout(start.with_settings(**settings).to_toml().encode("utf-8"))
