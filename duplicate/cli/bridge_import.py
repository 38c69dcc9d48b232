"""`duplicate import`: a bridge session (PBN or USEBIO) as a results table."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from duplicate.cli.common import emit, reports_errors, say_warnings, stderr, whole_option
from duplicate.cli.settings import settings_options


class SessionFormat(StrEnum):
    pbn = "pbn"
    usebio = "usebio"


class Winners(StrEnum):
    auto = "auto"
    one = "one"
    two = "two"


def register(app: typer.Typer) -> None:
    app.command(name="import")(import_session)


# What a session's program did that its file does not say: the event's rules.
CONVENTIONS = (
    "sections",
    "percentage_of",
    "board_mp",
    "percentage_rounding",
    "shared_places",
    "place_ties",
)


@reports_errors
@settings_options("output", also=CONVENTIONS)
def import_session(
    session: Annotated[
        str,
        typer.Argument(
            metavar="SESSION",
            help="A PBN file with a results table, or USEBIO XML; '-' reads standard input.",
        ),
    ],
    source_format: Annotated[
        SessionFormat | None,
        typer.Option("--from", help="pbn or usebio. Default: by the suffix, then the content."),
    ] = None,
    round_number: Annotated[
        int | None, whole_option("--round", help="The round this session is. Default 1.")
    ] = None,
    winners: Annotated[
        Winners,
        typer.Option(
            "--winners",
            help="two: North-South and East-West ranked apart (a Mitchell); one: every "
            "pair together (a Howell); auto: two unless a pair number sits both ways.",
        ),
    ] = Winners.auto,
    event: Annotated[
        str | None,
        typer.Option(
            "--event",
            metavar="DIR",
            help="Write the session as an event folder DIR (title, date, pairs and "
            "names, rules, rounds, artificial scores as adjustments).",
        ),
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", help="The event's date (YYYY-MM-DD) when the file gives none."),
    ] = None,
    *,
    settings: dict[str, Any],
) -> None:
    """Convert a bridge session to a results table: board -> deal, NS/EW -> seat,
    pair -> player, the score from each side.

    Example: duplicate import club.pbn -o results.csv, then
    duplicate standings results.csv --method percentage (or: duplicate standings club.pbn);
    duplicate import club.xml --event club, then duplicate standings club
    """
    import duplicate

    conventions = {k: settings.pop(k) for k in CONVENTIONS if k in settings}
    if event is not None:
        imported, said = duplicate.import_event(
            session,
            event,
            round_number,
            winners.value,
            source_format.value if source_format else None,
            date,
            **conventions,
        )
        stderr.print(f"{imported.source}: {len(imported.table)} results; {imported.note}")
        say_warnings(imported.warnings)
        for line in said:
            stderr.print(line)
        return
    table = duplicate.import_session(
        session,
        round_number,
        winners.value,
        source_format.value if source_format else None,
        **conventions,
    )
    note = table.notes["session"]
    where = table.event.source if table.event else session
    stderr.print(f"{where}: {len(table)} results; {note}")
    if table.event is not None:
        say_warnings(table.event.warnings)
    emit(table, "import", settings)
