"""`duplicate report`: the event as a static web site."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from duplicate.cli.common import SourceArg, load, publishing, reports_errors, working
from duplicate.cli.settings import settings_options


class Language(StrEnum):
    en = "en"
    zh = "zh"


LanguageOpt = Annotated[Language, typer.Option("--lang", help="Labels in en or zh.")]


def register(app: typer.Typer) -> None:
    app.command(name="report")(report)


@reports_errors
@settings_options("scoring", "source", "output", skip=("output", "format", "excel"))
def report(
    source: SourceArg,
    output: Annotated[
        str, typer.Option("--output", "-o", help="The folder to write the site into.")
    ],
    lang: LanguageOpt = Language.en,
    *,
    settings: dict[str, Any],
) -> None:
    """Write a self-contained web site: standings, a page per deal and per player, the rules.

    Example: duplicate report results.csv -o site --lang zh
    """
    import duplicate

    event = load(source, settings)
    with working("building the report"):
        site = duplicate.report(event, lang.value)
    with publishing("report", site.rules, event, settings) as out:
        out.site(site, output)
