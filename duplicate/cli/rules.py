"""`duplicate rules`: print the effective rules, as TOML or in any output format."""

from __future__ import annotations

from typing import Any

import typer

from duplicate.cli.common import emit_items, reports_errors
from duplicate.cli.settings import settings_options
from duplicate.options import RULES


def register(app: typer.Typer) -> None:
    app.command(name="rules")(rules)


@reports_errors
@settings_options(
    *RULES,
    "source",
    "output",
    skip=("adjustments", "players", "encoding", "sheet", "formulas", "output"),
)
def rules(*, settings: dict[str, Any]) -> None:
    """Print the rules the other commands would use with the same options, as TOML
    (--format json: the envelope of every command, the settings as its items; csv,
    xlsx or parquet: a table of setting and value).

    Example: duplicate rules --tie-ranking dense > rules.toml
    """
    from duplicate.rules import Rules, load_rules

    given = dict(settings)
    rules_file = given.pop("rules_file", None)
    for name in ("format", "excel", "manifest"):
        given.pop(name, None)
    start = load_rules(rules_file) if rules_file is not None else Rules()
    chosen = start.with_settings(**given)
    emit_items(
        "rules",
        "settings",
        chosen,
        None,
        chosen.settings_listed(),
        {},
        settings,
        lambda: chosen.to_toml().encode("utf-8"),
        "table",
        ("setting", "value"),
    )
