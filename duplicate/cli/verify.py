"""`duplicate verify`: recompute the standings and compare them with a published file."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.cli.common import (
    FILES,
    SourceArg,
    emit,
    load,
    publishing,
    reports_errors,
    stderr,
)
from duplicate.cli.settings import settings_options


def register(app: typer.Typer) -> None:
    app.command(name="verify")(verify)


@reports_errors
@settings_options("scoring", "source", "output")
def verify(
    source: SourceArg,
    published: Annotated[
        str,
        typer.Argument(
            metavar="PUBLISHED",
            help=f"Standings as published ({FILES}, or JSON as standings writes it).",
        ),
    ],
    *,
    settings: dict[str, Any],
) -> None:
    """Recompute the standings and compare them, field by field, with a published file.

    Exit 0 when they agree; exit 1 listing every difference (player, field, published,
    recomputed) on standard output. Only the columns the published file has are
    compared (a file of place, player and total is checked on those); the others are
    named on standard error. A number published with fewer decimals is compared at
    its own (the exact value rounded to them); a `pair` column reads as the player.

    Example: duplicate verify results.csv published/standings.csv
    """
    import duplicate

    event = load(source, settings)
    found = duplicate.verify(event, published, encoding=settings.get("encoding"))
    if found.not_compared:
        stderr.print(
            f"not compared (not in {found.published}): {', '.join(found.not_compared)}",
        )
    for said in found.fewer_decimals:
        stderr.print(said)
    if found.agrees:
        with publishing("verify", event.rules, event, settings):
            pass  # nothing to write but the manifest, when asked
        fields = "every field it shows" if found.not_compared else "every field"
        stderr.print(f"{found.published} agrees with {event.source}: {fields} of every player")
        return
    emit(found.differences, "verify", settings)
    count = len(found.differences)
    stderr.print(
        f"{found.published} differs from {event.source} in {count} field"
        f"{'s' if count != 1 else ''}",
    )
    raise typer.Exit(1)
