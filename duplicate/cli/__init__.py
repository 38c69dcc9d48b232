"""The `duplicate` command: parses options, calls the library, renders the result.

This module imports next to nothing, so that `main` can start reading a big input
before the command line (typer, every command: duplicate.cli.commands) is imported.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
from contextlib import ExitStack
from typing import Any, NoReturn

from duplicate.cli.reading import read_ahead


def __getattr__(name: str) -> Any:
    # duplicate.cli.app, the typer app, is imported when first asked for.
    if name == "app":
        from duplicate.cli.commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    status = 0
    with ExitStack() as reading:
        # Read while typer and the commands are imported (see reading.read_ahead).
        read_ahead(sys.argv[1:], reading)
        try:
            sys.modules[__name__].app()
        except SystemExit as done:
            status = exit_status(done.code)
    exit_now(status)


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
