"""`duplicate print`: table cards, a seating list, score cards, and blank score sheets and
travellers as PDF for the venue."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from duplicate.cli.common import load, publishing, reports_errors, say_warnings, whole_option
from duplicate.cli.settings import settings_options


class Printable(StrEnum):
    table_cards = "table-cards"
    seating_list = "seating-list"
    score_cards = "score-cards"
    score_sheets = "score-sheets"
    travellers = "travellers"


def register(app: typer.Typer) -> None:
    app.command(name="print")(print_event)


@reports_errors
@settings_options("scoring", "source", "output", skip=("output", "format", "excel"))
def print_event(
    folder: Annotated[
        str,
        typer.Argument(
            metavar="DIR",
            help="The event folder; for bridge travellers, a bridge session (PBN or USEBIO).",
        ),
    ],
    what: Annotated[
        Printable,
        typer.Option(
            "--what",
            help="table-cards, seating-list, score-cards, score-sheets (blank, one per "
            "table) or travellers (blank, one per deal; from a bridge session, one per "
            "board).",
        ),
    ],
    output: Annotated[str, typer.Option("--output", "-o", help="The PDF file to write.")],
    round_number: Annotated[
        int | None,
        whole_option("--round", help="The seating's round. Default: the latest published."),
    ] = None,
    cards_per_page: Annotated[
        int,
        whole_option("--cards-per-page", help="Score cards to an A4 page: 1, 2 or 4."),
    ] = 2,
    deals: Annotated[
        int | None,
        whole_option(
            "--deals",
            help="Score sheets and travellers: the round's deals. Default: as many as the "
            "latest round played.",
        ),
    ] = None,
    font: Annotated[
        str | None,
        typer.Option(
            "--font",
            metavar="FILE",
            help="A TrueType font (.ttf, .ttc) with Chinese glyphs to embed. Default: "
            "the one found on the machine (WenQuanYi Zen Hei, as `make fonts` installs).",
        ),
    ] = None,
    *,
    settings: dict[str, Any],
) -> None:
    """Print for the venue (A4 PDF, every page headed by the event's title, date and
    venue): table cards, a seating list (in pinyin order), blank score sheets and
    travellers from a published seating in DIR/seatings, or every player's score card
    from the event's results, with its adjustments; from a bridge session (PBN or
    USEBIO), blank travellers for its movement. The font is embedded: the pages print
    the same anywhere.

    Example: duplicate print spring --what table-cards -o round3-tables.pdf

    Bridge: duplicate print club.pbn --what travellers -o travellers.pdf
    """
    import duplicate
    from duplicate.errors import UsageError
    from duplicate.io.event_folder import is_event
    from duplicate.load import looks_like_session

    session = looks_like_session(folder)
    if not (is_event(folder) or (session and what == Printable.travellers)):
        also = "; a bridge session prints travellers only" if session else ""
        raise UsageError(
            f"{folder} is not an event folder (see `duplicate event init`){also}",
            "print.no-event",
        )
    event = load(folder, settings)
    printed = duplicate.print_event(
        event,
        what.value,
        round_number,
        cards_per_page=cards_per_page,
        deals=deals,
        font=font,
    )
    say_warnings(printed.warnings)
    with publishing(f"print {what.value}", printed.rules, event, settings) as out:
        out.document(printed, output)
