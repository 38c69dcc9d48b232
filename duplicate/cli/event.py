"""`duplicate event init|add|adjustments|status`: an event that grows round by round."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.cli.common import publishing, reports_errors, say_warnings, stderr, whole_option
from duplicate.cli.settings import choice_enum, choice_value, settings_options
from duplicate.games.registry import names as game_names
from duplicate.options import RULES

event_app = typer.Typer(
    name="event",
    help="An event folder: init it, add each round's upload and the corrections, see its status.",
    no_args_is_help=True,
)
GameChoice = choice_enum("GameChoice", game_names())
FolderArg = Annotated[str, typer.Argument(metavar="DIR", help="The event folder.")]


def register(app: typer.Typer) -> None:
    app.add_typer(event_app)


@event_app.command(name="init")
@reports_errors
@settings_options(*RULES, "source", skip=("adjustments", "encoding", "sheet", "formulas"))
def init(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="The event folder to make.")],
    name: Annotated[str, typer.Option("--name", help="The event's title.")],
    date: Annotated[str, typer.Option("--date", help="YYYY-MM-DD.")],
    game: Annotated[GameChoice, typer.Option("--game", help="The game played.")],  # type: ignore[valid-type]
    table_size: Annotated[int, whole_option("--table-size", help="Players at a table (2 to 8).")],
    venue: Annotated[str, typer.Option("--venue", help="Where it is played.")] = "",
    *,
    settings: dict[str, Any],
) -> None:
    """Make an event folder: its description, rules (a rules file, then any rules
    option given) and players.

    Example: duplicate event init spring --name "Spring Cup" --date 2026-12-05
    --game big2 --table-size 4 --players players.csv
    """
    import duplicate

    players = settings.pop("players", None)
    duplicate.event_init(
        folder, name, date, choice_value(game), table_size, venue, players, **settings
    )
    stderr.print(f"made event {name!r} in {folder}; add each round with `duplicate event add`")


@event_app.command(name="add")
@reports_errors
@settings_options("source", skip=("adjustments", "players", "rules_file"))
def add(
    folder: FolderArg,
    upload: Annotated[
        str, typer.Argument(metavar="UPLOAD", help="A round's results (CSV, .xlsx, Parquet).")
    ],
    round_number: Annotated[
        int | None,
        whole_option("--round", help="The round, when the upload has no round column."),
    ] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Store a corrected upload of a round.")
    ] = False,
    *,
    settings: dict[str, Any],
) -> None:
    """Check a round's upload against the event (known players, the round's published
    seating in DIR/seatings, the rounds before) and store it as accepted.

    Example: duplicate event add spring round1.xlsx
    """
    import duplicate

    added = duplicate.event_add(folder, upload, round_number, replace, **settings)
    say_warnings(added.warnings)
    what = "replaced" if added.replaced else "added"
    kept = f"; the earlier upload is kept as {added.replaced}" if added.replaced else ""
    stderr.print(f"{what} round {added.round}: {added.rows} rows in {added.path}{kept}")


@event_app.command(name="adjustments")
@reports_errors
@settings_options("source", skip=("adjustments", "players", "rules_file"))
def adjustments(
    folder: FolderArg,
    corrections: Annotated[
        str,
        typer.Argument(
            metavar="ADJUSTMENTS",
            help="The corrections: round, deal, player, kind, value, reason (CSV, .xlsx).",
        ),
    ],
    replace: Annotated[
        bool, typer.Option("--replace", help="Store corrected ones over the event's.")
    ] = False,
    *,
    settings: dict[str, Any],
) -> None:
    """Store the arbiter's corrections in the event, each checked to name a result of
    it: standings, score, explain, verify, report and print on DIR then apply them.

    Example: duplicate event adjustments spring adjustments.csv
    """
    import duplicate

    stored = duplicate.event_adjustments(folder, corrections, replace, **settings)
    kept = f"; the earlier ones are kept as {stored.replaced}" if stored.replaced else ""
    stderr.print(f"stored {stored.rows} adjustments in {stored.path}{kept}")


@event_app.command(name="status")
@reports_errors
@settings_options("output", skip=("output", "format", "excel"))
def status(
    folder: FolderArg,
    *,
    settings: dict[str, Any],
) -> None:
    """What the event holds: each round, the published seatings, the log's chain (JSON).

    Example: duplicate event status spring
    """
    import duplicate
    from duplicate.io.json_text import dumps
    from duplicate.rules import Rules

    found = duplicate.event_status(folder)
    with publishing("event status", Rules(), None, settings) as out:
        out.text((dumps(found.to_json()) + "\n").encode("utf-8"), "json")
    if not found.chain_intact:
        stderr.print(f"warning: {folder}/log.jsonl has been edited: its chain is broken")
