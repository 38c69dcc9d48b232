"""`duplicate event init|add|withdraw|adjust|player|status|accept`: an event that grows
round by round."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.cli.common import (
    FILES,
    emit_items,
    reports_errors,
    say_warnings,
    stderr,
    whole_number,
    whole_option,
)
from duplicate.cli.settings import one_of, settings_options
from duplicate.games.registry import names as game_names
from duplicate.options import RULES

event_app = typer.Typer(
    name="event",
    help="An event folder: init it, add each round's upload and the corrections, see its "
    "status, accept a change.",
    no_args_is_help=True,
)
player_app = typer.Typer(
    name="player",
    help="Late entries and withdrawals: the event's players file, logged.",
    no_args_is_help=True,
)
event_app.add_typer(player_app)
GameChoice = one_of(game_names())
FolderArg = Annotated[str, typer.Argument(metavar="DIR", help="The event folder.")]
ReasonOption = Annotated[
    str, typer.Option("--reason", help="Why (the log keeps it).", metavar="TEXT")
]


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
    duplicate.event_init(folder, name, date, game, table_size, venue, players, **settings)
    stderr.print(f"made event {name!r} in {folder}; add each round with `duplicate event add`")


@event_app.command(name="add")
@reports_errors
@settings_options("source", skip=("adjustments", "players", "rules_file"))
def add(
    folder: FolderArg,
    upload: Annotated[str, typer.Argument(metavar="UPLOAD", help=f"A round's results ({FILES}).")],
    round_number: Annotated[
        int | None,
        whole_option("--round", help="The round, when the upload has no round column."),
    ] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Store a corrected upload of a round.")
    ] = False,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Likely data-entry mistakes are errors (exit 1)."),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Accept an upload off the round's stored seating, out of turn, a copy of "
            "another round, or playing a withdrawn player (with --reason, logged).",
        ),
    ] = False,
    reason: Annotated[
        str | None,
        typer.Option("--reason", help="Why --force (the log keeps it).", metavar="TEXT"),
    ] = None,
    *,
    settings: dict[str, Any],
) -> None:
    """Check a round's upload against the event (known players, the round's stored
    seating in DIR/seatings, the rounds before: the next round, not a copy of one) and
    store it as accepted.

    Example: duplicate event add spring round1.xlsx
    """
    import duplicate

    added = duplicate.event_add(
        folder, upload, round_number, replace, strict=strict, force=force, reason=reason,
        **settings,
    )  # fmt: skip
    say_warnings(added.warnings)
    if added.accepted:
        say_warnings(added.accepted)
        stderr.print(f"accepted with --force: {reason}")
    what = "replaced" if added.replaced else "added"
    kept = f"; the earlier upload is kept as {added.replaced}" if added.replaced else ""
    stderr.print(f"{what} round {added.round}: {added.rows} rows in {added.path}{kept}")


@event_app.command(name="withdraw")
@reports_errors
def withdraw(
    folder: FolderArg,
    round_number: Annotated[
        int, typer.Argument(metavar="ROUND", parser=whole_number, help="The round to withdraw.")
    ],
    reason: ReasonOption,
) -> None:
    """Take a round out of the event: no command reads it, its file is kept in
    DIR/withdrawn, and the log says why. The round may then be added again.

    Example: duplicate event withdraw spring 4 --reason "round 3's file sent as round 4"
    """
    import duplicate

    kept = duplicate.event_withdraw(folder, round_number, reason)
    stderr.print(f"withdrew round {round_number}; its file is kept as {kept}")


@event_app.command(name="adjust")
@reports_errors
@settings_options("source", skip=("adjustments", "players", "rules_file"))
def adjust(
    folder: FolderArg,
    corrections: Annotated[
        str,
        typer.Argument(
            metavar="ADJUSTMENTS",
            help="The corrections: round, deal, player, kind, value, reason (CSV, .xlsx).",
        ),
    ],
    reason: ReasonOption,
    replace: Annotated[
        bool,
        typer.Option("--replace", help="These are the whole set: the event's are replaced."),
    ] = False,
    *,
    settings: dict[str, Any],
) -> None:
    """Add the arbiter's corrections to the event's, each checked to name a result of
    it: standings, score, explain, verify, seat, report and print on DIR apply them.
    The earlier set is kept in DIR/replaced; the log says why.

    Example: duplicate event adjust spring penalty.csv --reason "arbiter's ruling, round 2"
    """
    import duplicate

    stored = duplicate.event_adjust(folder, corrections, reason, replace, **settings)
    kept = f"; the earlier ones are kept as {stored.replaced}" if stored.replaced else ""
    from duplicate.text import counted

    held = counted(stored.rows, "adjustment")
    stderr.print(f"the event holds {held} in {stored.path}{kept}")


@player_app.command(name="add")
@reports_errors
def player_add(
    folder: FolderArg,
    player: Annotated[str, typer.Argument(metavar="ID", help="The player's id.")],
    name: Annotated[str, typer.Option("--name", help="The player's name.")] = "",
    club: Annotated[str, typer.Option("--club", help="The player's club.")] = "",
    reason: Annotated[
        str | None, typer.Option("--reason", help="Why (the log keeps it).", metavar="TEXT")
    ] = None,
) -> None:
    """Register a late entry: seated from the next round (below the players with
    results), named in every output.

    Example: duplicate event player add spring P49 --name "Player 49" --club Club
    """
    import duplicate

    duplicate.event_player_add(folder, player, name, club, reason)
    stderr.print(f"registered {player} in {folder}")


@player_app.command(name="withdraw")
@reports_errors
def player_withdraw(
    folder: FolderArg,
    player: Annotated[str, typer.Argument(metavar="ID", help="The player's id.")],
    reason: ReasonOption,
) -> None:
    """Withdraw a player: no longer seated; their results so far stay.

    Example: duplicate event player withdraw spring P12 --reason "unwell"
    """
    import duplicate

    duplicate.event_player_withdraw(folder, player, reason)
    stderr.print(f"withdrew {player} from {folder}")


@event_app.command(name="adjustments", hidden=True)
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
    it (the earlier name of `event adjust`, which adds to the event's own).

    Example: duplicate event adjustments spring adjustments.csv
    """
    import duplicate

    stored = duplicate.event_adjustments(folder, corrections, replace, **settings)
    kept = f"; the earlier ones are kept as {stored.replaced}" if stored.replaced else ""
    stderr.print(f"stored {stored.rows} adjustments in {stored.path}{kept}")


@event_app.command(name="status")
@reports_errors
@settings_options("output", skip=("output",))
def status(
    folder: FolderArg,
    *,
    settings: dict[str, Any],
) -> None:
    """What the event holds: each round, the published seatings, the log's chain, and
    every way the folder differs from its log (each difference on stderr too).

    Without --format: JSON, the rounds as `items`; table: for a person; csv: the rounds.

    Example: duplicate event status spring
    """
    import duplicate
    from duplicate.errors import DuplicateError
    from duplicate.io.event_folder import event_rules
    from duplicate.rules import Rules

    found = duplicate.event_status(folder)
    try:
        rules = event_rules(folder)
    except DuplicateError:
        rules = Rules()  # a rules file changed past reading: the status says so
    document = found.to_json()
    rounds = document.pop("rounds")

    def shown() -> None:
        import pandas as pd

        from duplicate.cli.output import render_table

        info = document["event"]
        log = document["log"]
        for line in (
            f"{info['name']} ({info['game']}, {info['date']})",
            f"seatings kept: {', '.join(map(str, document['seatings'])) or 'none'}",
            f"log: {log['entries']} entries, chain "
            + ("intact" if log["chain_intact"] else "broken"),
            "folder as its log says" if document["intact"] else "folder differs from its log",
        ):
            stderr.print(line)
        render_table(pd.DataFrame(rounds, columns=list(ROUND_COLUMNS)).convert_dtypes())

    emit_items(
        "event status",
        "rounds",
        rules,
        None,
        rounds,
        document,
        settings,
        shown,
        "json",
        ROUND_COLUMNS,
    )
    say_warnings(found.problems)
    if found.problems:
        stderr.print(
            f"{folder} differs from its log: put back what changed, or accept it with "
            "`duplicate event accept`"
        )


# A stored round's row, as json and csv give it.
ROUND_COLUMNS = ("round", "rows", "sha256", "file")


@event_app.command(name="accept")
@reports_errors
def accept(
    folder: FolderArg,
    reason: Annotated[
        str, typer.Option("--reason", help="Why the folder is accepted as it is (logged).")
    ],
    by: Annotated[
        str | None,
        typer.Option("--by", help="Who accepts it (logged); the user's login name by default."),
    ] = None,
) -> None:
    """Accept the event folder as it is now: each file changed, missing or not logged,
    and each line of the log edited, is logged with who accepted it and why; every
    command then reads the folder again.

    Example: duplicate event accept spring --reason "round 3 retyped from the cards"
    """
    import duplicate

    done = duplicate.event_accept(folder, reason, by)
    if not done.accepted:
        stderr.print(f"nothing to accept: {folder} is as its log says")
        return
    for difference in done.differences:
        stderr.print(f"accepted {difference['path']} ({difference['code']})")
    for problem in done.log_problems:
        stderr.print(f"accepted line {problem['line']} of the log ({problem['code']})")
    stderr.print(f"logged as accepted by {done.by}")
