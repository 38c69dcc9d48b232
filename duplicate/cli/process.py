"""The process a command runs in: signals, tuning, and how it ends.

The one place where `duplicate` adjusts its own process; the library never does.
Set DUPLICATE_NO_TUNING=1 to run without the tuning (the results are the same).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# Parquet row groups encoded at once (io.parquet_write.write_parquet), each holding up to 2**20
# rows in memory.
MAX_ENCODING_THREADS = 4

NO_TUNING = "DUPLICATE_NO_TUNING"

# Read when numpy and Arrow load, so set before any command imports them. The caller's
# own settings win: these are defaults only. Why each helps: docs/performance.md.
ENVIRONMENT_DEFAULTS = {
    # Small pages for numpy's large arrays: on a VM, huge pages are the ones the host took back.
    "NUMPY_MADVISE_HUGEPAGE": "0",
    # No command multiplies matrices: no OpenBLAS threads spinning beside the work.
    "OPENBLAS_NUM_THREADS": "1",
    # Arrow's buffers from the C library's heap, the one tuned below.
    "ARROW_DEFAULT_MEMORY_POOL": "system",
}

# glibc's mallopt parameters (malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_MAX = -4
M_ARENA_MAX = -8


def guard_signals() -> None:
    """`duplicate score x.csv | head` ends quietly when head closes the pipe, as Unix
    programs do (no SIGPIPE on Windows: there a closed pipe is an I/O error, exit 3).

    SIGTERM (a job stopped by a scheduler or `kill`) ends the command the way Ctrl-C
    does: by unwinding, so that a file being written is removed, never left half done.
    """
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


# Whether `tune` ran: a command run inside another program (typer's CliRunner, a test)
# leaves that process as it is.
_tuned = False


def tune() -> None:
    """Defaults that make large runs faster, unless DUPLICATE_NO_TUNING is set."""
    global _tuned
    if os.environ.get(NO_TUNING):
        return
    _tuned = True
    for name, value in ENVIRONMENT_DEFAULTS.items():
        os.environ.setdefault(name, value)
    keep_freed_memory()


def encoding_threads() -> int:
    """Threads that encode a Parquet output: one per core, up to 4; one untuned."""
    if os.environ.get(NO_TUNING):
        return 1
    return max(1, min(MAX_ENCODING_THREADS, os.cpu_count() or 1))


@contextmanager
def reading(kind: str) -> Iterator[None]:
    """While an input of `kind` is read and parsed, in a process `tune` tuned: a CSV
    file's Arrow buffers come from Arrow's jemalloc pool, where available.

    Arrow's CSV reader frees its scratch space in pieces between the text it keeps. On
    the C library's heap those pieces are too small for the arrays that follow, which
    grow the heap beside them; jemalloc reuses them (docs/performance.md has the
    figures). Parquet inputs read as fast, or faster, from the heap tuned below.
    """
    pool = _jemalloc_pool() if _tuned and kind == "csv" else None
    if pool is None:
        yield
        return
    import pyarrow as pa

    usual = pa.default_memory_pool()
    pa.set_memory_pool(pool)
    try:
        yield
    finally:
        pa.set_memory_pool(usual)


def _jemalloc_pool() -> Any:
    import pyarrow as pa

    try:
        return pa.jemalloc_memory_pool()
    except NotImplementedError:  # an Arrow built without it (Windows wheels, some distros)
        return None


def keep_freed_memory() -> None:
    """Keep the memory big arrays free for the next ones, instead of giving it back to
    the system and having it zeroed again on first touch. glibc only; elsewhere nothing.
    """
    libc = _glibc()
    if libc is None:
        return
    libc.mallopt(M_MMAP_MAX, 0)
    libc.mallopt(M_TRIM_THRESHOLD, 2**31 - 1)
    libc.mallopt(M_ARENA_MAX, 1)


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # musl and others: no mallopt to call
        return None
    return libc if hasattr(libc, "mallopt") else None
