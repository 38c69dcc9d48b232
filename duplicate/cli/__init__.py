"""The `duplicate` command: parses options, calls the library, renders the result."""

from __future__ import annotations

import os
import sys
from typing import Any

from duplicate.cli import process


def __getattr__(name: str) -> Any:
    # duplicate.cli.app, the typer app, is imported when first asked for: `main` tunes
    # the process before numpy or Arrow load.
    if name == "app":
        from duplicate.cli.commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """The `duplicate` program. To run a command inside a process, call `app` (say,
    with typer's CliRunner): the process is then left as it is."""
    process.guard_signals()
    process.tune()
    # Imported once the process is tuned (typer and the command line's helpers).
    from duplicate.cli.common import EXIT_IO, _state

    # Recorded in manifests, so that `duplicate manifest check` can run it again.
    _state["command_line"] = list(sys.argv[1:])
    try:
        sys.modules[__name__].app()
    except SystemExit as done:
        status = done.code
    else:
        status = 0
    finally:
        # A run stopped while writing leaves no temporary file (loaded only if used).
        writing = sys.modules.get("duplicate.io.write")
        if writing is not None:
            writing.remove_unfinished()
    # Output not yet delivered is delivered now, or the exit says it was not.
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as exc:
        if sys.stderr is not None:
            sys.stderr.write(
                f"error[io.stdout]: standard output: cannot write: {exc.strerror or exc}\n"
            )
        # What could not be delivered is dropped, so that the interpreter's own flush at
        # exit does not fail again (and change the status).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = EXIT_IO
    sys.exit(status)
