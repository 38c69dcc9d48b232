"""`duplicate verify`: recompute the standings and compare them with a published file."""

from __future__ import annotations

from typing import Annotated

import typer

from duplicate.cli.common import (
    AdjustmentsOpt,
    EncodingOpt,
    OutputFormat,
    ResultsArg,
    SheetOpt,
    read_inputs,
    reports_errors,
    stderr,
)
from duplicate.cli.output import emit
from duplicate.cli.rules_options import rules_options
from duplicate.rules import Rules


def register(app: typer.Typer) -> None:
    app.command(name="verify")(verify)


@reports_errors
@rules_options
def verify(
    results: ResultsArg,
    published: Annotated[
        str,
        typer.Argument(metavar="PUBLISHED", help="Standings as published (CSV, Parquet or JSON)."),
    ],
    fmt: Annotated[
        OutputFormat | None,
        typer.Option(
            "--format",
            "-f",
            help="How the differences are written on standard output: csv, parquet, json, "
            "or table (for a person). Default: a table at a terminal, else CSV.",
        ),
    ] = None,
    adjustments: AdjustmentsOpt = None,
    encoding: EncodingOpt = None,
    sheet: SheetOpt = None,
    *,
    rules: Rules,
) -> None:
    """Recompute the standings and compare them, field by field, with a published file.

    Exit 0 when they agree; exit 1 listing every difference (player, field, published,
    recomputed) on standard output.

    Example: duplicate verify results.csv published/standings.csv
    """
    from duplicate.io.read import read_published
    from duplicate.scoring.verify import verify as compare

    data, corrections = read_inputs(results, adjustments, encoding, rules.deal_scope, sheet)
    found = compare(data, read_published(published, encoding), rules, corrections, published)
    if found.empty:
        stderr.print(f"{published} agrees with {results}: every field of every player")
        return
    emit(found, output=None, fmt=fmt, rules=rules, kind="differences", inputs=[])
    count = len(found)
    stderr.print(
        f"{published} differs from {results} in {count} field{'s' if count != 1 else ''}",
    )
    raise typer.Exit(1)
