"""The typer app of the `duplicate` command: its options and every command."""

from __future__ import annotations

from typing import Annotated

import typer

from duplicate import __version__
from duplicate.cli import bridge_import as import_command
from duplicate.cli import event as event_command
from duplicate.cli import explain as explain_command
from duplicate.cli import game_score as game_score_command
from duplicate.cli import leaderboard as leaderboard_command
from duplicate.cli import manifest_check as manifest_command
from duplicate.cli import printing as print_command
from duplicate.cli import report as report_command
from duplicate.cli import rules as rules_command
from duplicate.cli import score as score_command
from duplicate.cli import seat as seat_command
from duplicate.cli import stages as stages_command
from duplicate.cli import standings as standings_command
from duplicate.cli import validate as validate_command
from duplicate.cli import verify as verify_command
from duplicate.cli.common import set_debug, set_max_rows, whole_option
from duplicate.limits import MAX_ROWS
from duplicate.options import setting

app = typer.Typer(
    name="duplicate",
    help="Score duplicate card-game events: matchpoints, rank points, standings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"duplicate {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the Python traceback behind an error.")
    ] = False,
    max_rows: Annotated[
        int,
        whole_option(
            setting("max_rows").option,
            help=setting("max_rows").help,
            metavar=setting("max_rows").metavar,
        ),
    ] = MAX_ROWS,
) -> None:
    """Score duplicate card-game events: matchpoints, rank points, standings."""
    set_debug(debug)
    if max_rows < 0:
        raise typer.BadParameter(f"{max_rows} is below 0", param_hint="--max-rows")
    set_max_rows(max_rows)


for module in (
    score_command,
    standings_command,
    explain_command,
    game_score_command,
    leaderboard_command,
    report_command,
    seat_command,
    stages_command,
    validate_command,
    verify_command,
    rules_command,
    import_command,
    event_command,
    print_command,
    manifest_command,
):
    module.register(app)
