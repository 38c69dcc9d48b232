"""`duplicate print`: table cards, a seating list and score cards as PDF for the venue."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from duplicate.cli.common import load, publishing, reports_errors, whole_option
from duplicate.cli.settings import settings_options


class Printable(StrEnum):
    table_cards = "table-cards"
    seating_list = "seating-list"
    score_cards = "score-cards"


def register(app: typer.Typer) -> None:
    app.command(name="print")(print_event)


@reports_errors
@settings_options("scoring", "source", "output", skip=("output", "format", "excel"))
def print_event(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="The event folder.")],
    what: Annotated[
        Printable, typer.Option("--what", help="table-cards, seating-list or score-cards.")
    ],
    output: Annotated[str, typer.Option("--output", "-o", help="The PDF file to write.")],
    round_number: Annotated[
        int | None,
        whole_option("--round", help="The seating's round. Default: the latest published."),
    ] = None,
    *,
    settings: dict[str, Any],
) -> None:
    """Print for the venue (A4 PDF, every page headed by the event's title, date and
    venue): table cards and a seating list from a published seating in DIR/seatings,
    or every player's score card from the event's results, with its adjustments.

    Example: duplicate print spring --what table-cards -o round3-tables.pdf
    """
    import duplicate
    from duplicate.errors import UsageError
    from duplicate.io.event_folder import is_event

    if not is_event(folder):
        raise UsageError(
            f"{folder} is not an event folder (see `duplicate event init`)", "print.no-event"
        )
    event = load(folder, settings)
    printed = duplicate.print_event(event, what.value, round_number)
    with publishing(f"print {what.value}", printed.rules, event, settings) as out:
        out.document(printed, output)
