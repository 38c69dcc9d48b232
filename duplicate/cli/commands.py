"""The typer app of the `duplicate` command: its options and every command."""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperGroup

from duplicate import __version__
from duplicate.cli.common import BadNumber, set_debug, set_max_rows, whole_option
from duplicate.limits import MAX_ROWS
from duplicate.options import setting

# Each command, and the module that declares it (its `register` adds it to a Typer).
COMMANDS = {
    "score": "duplicate.cli.score",
    "standings": "duplicate.cli.standings",
    "explain": "duplicate.cli.explain",
    "game-score": "duplicate.cli.game_score",
    "leaderboard": "duplicate.cli.leaderboard",
    "report": "duplicate.cli.report",
    "seat": "duplicate.cli.seat",
    "elimination": "duplicate.cli.stages",
    "final": "duplicate.cli.stages",
    "validate": "duplicate.cli.validate",
    "verify": "duplicate.cli.verify",
    "rules": "duplicate.cli.rules",
    "import": "duplicate.cli.bridge_import",
    "print": "duplicate.cli.printing",
    "event": "duplicate.cli.event",
    "manifest": "duplicate.cli.manifest_check",
}


class Commands(TyperGroup):
    """The commands, each made when it is asked for (click's lazily loaded
    subcommands): a run imports and builds its own command, not the others."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return command(cmd_name) if cmd_name in COMMANDS else None

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """As click runs a command, but an option the parser refuses is said with its
        code, as every other problem is (`error[option.bad-choice]: ...`)."""
        given = {
            "args": args,
            "prog_name": prog_name,
            "complete_var": complete_var,
            "windows_expand_args": windows_expand_args,
            **extra,
        }
        if not standalone_mode:
            return super().main(standalone_mode=False, **given)
        errors = _click("exceptions")
        try:
            done = super().main(standalone_mode=False, **given)
        except errors.UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":
                exc.show()  # the help, as asked for by giving nothing
            else:
                _show_usage_error(exc)
            sys.exit(exc.exit_code)
        except errors.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except typer.Abort:
            print("Aborted!", file=sys.stderr)
            sys.exit(1)
        sys.exit(done if isinstance(done, int) else 0)


def _click(part: str) -> Any:
    """A module of the click typer runs on (a copy of its own in later releases)."""
    package = TyperGroup.__mro__[1].__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.{part}")


def _show_usage_error(exc: Any) -> None:
    """Click's message for an option or command it refuses, with the problem's code."""
    context = exc.ctx
    if context is not None:
        print(context.get_usage(), file=sys.stderr)
        help_option = (context.help_option_names or ["--help"])[0]
        print(f"Try '{context.command_path} {help_option}' for help.\n", file=sys.stderr)
    print(f"error[{_usage_code(exc)}]: {exc.format_message()}", file=sys.stderr)


def _usage_code(exc: Any) -> str:
    errors, types = _click("exceptions"), _click("types")
    code = getattr(exc, "code", None)
    if isinstance(code, str):
        return code
    if isinstance(exc, errors.NoSuchOption):
        return "option.unknown"
    if isinstance(exc, errors.MissingParameter):
        return "option.missing"
    if isinstance(exc, errors.BadParameter):
        kind = getattr(exc.param, "type", None)
        if hasattr(kind, "choices"):
            return "option.bad-choice"
        if isinstance(kind, (types.IntParamType, types.FloatParamType)):
            return "option.bad-number"
        return "option.bad-value"
    if "No such command" in exc.format_message():
        return "command.unknown"
    return "option.bad-value"


@functools.cache
def declared(module: str) -> typer.Typer:
    """A Typer holding the commands `module` declares."""
    holder = typer.Typer(rich_markup_mode=None, add_completion=False)
    holder.callback()(_nothing)
    importlib.import_module(module).register(holder)
    return holder


@functools.cache
def command(name: str) -> Any:
    """The command `name`, as its module declares it."""
    built = typer.main.get_command(declared(COMMANDS[name]))
    return built.commands[name]  # type: ignore[attr-defined]


def _nothing() -> None:
    """(A holder's callback: the commands it holds are a group's.)"""


app = typer.Typer(
    name="duplicate",
    cls=Commands,
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
        raise BadNumber(f"{max_rows} is below 0", param_hint="--max-rows")
    set_max_rows(max_rows)
