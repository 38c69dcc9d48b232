"""The `duplicate` command: parses options, calls the library, renders the result."""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
from typing import Annotated, NoReturn

import typer

from duplicate import __version__
from duplicate.cli import explain as explain_command
from duplicate.cli import game_score as game_score_command
from duplicate.cli import leaderboard as leaderboard_command
from duplicate.cli import report as report_command
from duplicate.cli import rules as rules_command
from duplicate.cli import score as score_command
from duplicate.cli import seat as seat_command
from duplicate.cli import standings as standings_command
from duplicate.cli import validate as validate_command
from duplicate.cli import verify as verify_command
from duplicate.cli.common import set_debug

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
) -> None:
    """Score duplicate card-game events: matchpoints, rank points, standings."""
    set_debug(debug)


for module in (
    score_command,
    standings_command,
    explain_command,
    game_score_command,
    leaderboard_command,
    report_command,
    seat_command,
    validate_command,
    verify_command,
    rules_command,
):
    module.register(app)


# Read when numpy is imported, so set before any command imports it.
NUMERIC_DEFAULTS = {
    # numpy asks Linux for 2 MB pages for every large array. On a virtual machine
    # whose free memory is reported to the host (virtio-balloon free page reporting),
    # free 2 MB blocks are the ones the host took back, so each huge page costs 512
    # host faults; small pages mostly come from memory still held. Measured on such a
    # 2-core VM, `score` on 10M rows: 2.4-2.5 s without huge pages, 3.0-4.5 s with
    # them (and equal when the host happened to hold the memory).
    "NUMPY_MADVISE_HUGEPAGE": "0",
    # numpy's OpenBLAS starts a thread per core that spins while waiting for work; no
    # command multiplies matrices. `score`, 10M rows, mean of 8 alternating runs on 2
    # cores: 3.37 CPU-s instead of 3.51, 2.09 s instead of 2.15.
    "OPENBLAS_NUM_THREADS": "1",
}


def main() -> None:
    """The `duplicate` program: runs the command line, then ends the process (see
    exit_now). To run a command inside a process, call `app` (say, with typer's
    CliRunner) instead."""
    # `duplicate score x.csv | head` must end quietly when head closes the pipe
    # (reproduce: without this line, a BrokenPipeError traceback appears).
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    # The caller's settings win: these are defaults only.
    for name, value in NUMERIC_DEFAULTS.items():
        os.environ.setdefault(name, value)
    try:
        app()
    except SystemExit as done:
        exit_now(exit_status(done.code))
    exit_now(0)


def exit_status(code: object) -> int:
    """The process's exit status for sys.exit(code), as Python gives it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def exit_now(status: int) -> NoReturn:
    """End the process as a normal exit does (exit handlers run, output flushed), but
    without the interpreter's teardown of every module and object, whose memory the
    system frees at once anyway. That teardown took 0.12 s after `score` on 10M rows.
    """
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)
