"""`duplicate event init|add|status`: an event that grows round by round."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from duplicate.cli.common import EncodingOpt, SheetOpt, reports_errors, stderr, whole_option
from duplicate.cli.rules_options import RulesFileOpt

event_app = typer.Typer(
    name="event",
    help="An event folder: init it, add each round's upload, see its status.",
    no_args_is_help=True,
)


class Game(StrEnum):
    big2 = "big2"
    doudizhu = "doudizhu"
    paohuzi = "paohuzi"
    other = "other"


def register(app: typer.Typer) -> None:
    app.add_typer(event_app)


@event_app.command(name="init")
@reports_errors
def init(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The event folder to make.")],
    name: Annotated[str, typer.Option("--name", help="The event's title.")],
    date: Annotated[str, typer.Option("--date", help="YYYY-MM-DD.")],
    game: Annotated[Game, typer.Option("--game", help="big2, doudizhu, paohuzi or other.")],
    table_size: Annotated[int, whole_option("--table-size", help="Players at a table (2 to 8).")],
    venue: Annotated[str, typer.Option("--venue", help="Where it is played.")] = "",
    players: Annotated[
        Path | None, typer.Option("--players", help="The registered players (CSV).")
    ] = None,
    rules_file: RulesFileOpt = None,
) -> None:
    """Make an event folder: its description, rules and players.

    Example: duplicate event init spring --name "Spring Cup" --date 2026-12-05
    --game big2 --table-size 4 --players players.csv
    """
    from duplicate.cli.rules_options import effective_rules
    from duplicate.io.event import Event, init_event

    rules = effective_rules(rules_file=rules_file)
    event = Event(name, date, game.value, table_size, venue)
    init_event(folder, event, rules, players)
    stderr.print(f"made event {name!r} in {folder}; add each round with `duplicate event add`")


@event_app.command(name="add")
@reports_errors
def add(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The event folder.")],
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
    encoding: EncodingOpt = None,
    sheet: SheetOpt = None,
) -> None:
    """Check a round's upload against the event (known players, the round's published
    seating in DIR/seatings, the rounds before) and store it as accepted.

    Example: duplicate event add spring round1.xlsx
    """
    from duplicate.errors import listed_problems
    from duplicate.io.event import add_round

    added = add_round(folder, upload, round_number, replace, encoding, sheet)
    for line in listed_problems(added.warnings):
        stderr.print(f"warning: {line}")
    what = "replaced" if added.replaced else "added"
    kept = f"; the earlier upload is kept as {added.replaced}" if added.replaced else ""
    stderr.print(f"{what} round {added.round}: {added.rows} rows in {added.path}{kept}")


@event_app.command(name="status")
@reports_errors
def status(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The event folder.")],
) -> None:
    """What the event holds: each round, the published seatings, the log's chain.

    Example: duplicate event status spring
    """
    from duplicate.cli.output import write_stdout
    from duplicate.io.event import event_status

    found = event_status(folder)
    write_stdout((json.dumps(found, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    if not found["log"]["chain_intact"]:
        stderr.print(f"warning: {folder}/log.jsonl has been edited: its chain is broken")
