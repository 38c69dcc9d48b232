"""The process a command runs in: signals, tuning, and how it ends.

The one place where `duplicate` adjusts its own process; the library never does.
Set DUPLICATE_NO_TUNING=1 to run without the tuning (the results are the same).
"""

from __future__ import annotations

import ctypes
import gc
import importlib.util
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.machinery import ModuleSpec
from types import FrameType, ModuleType
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

# Cyclic garbage collection after 100,000 new objects rather than Python's 700. A
# command's data are arrays, not Python objects; what a run allocates is mostly the
# libraries' modules as they load, which the default threshold traverses about 80 times
# in a small `score` (some 3% of its time), for no garbage.
GC_THRESHOLDS = (100_000, 20, 20)

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
    gc.set_threshold(*GC_THRESHOLDS)
    keep_freed_memory()
    pandas_on_request()


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


def pandas_on_request() -> None:
    """pandas loaded only when the command itself imports it.

    Arrow, the first time it meets a value, imports pandas to ask whether the value is
    a pandas object; that import takes longer than a small event's whole run. Until the
    command imports pandas (an import statement), Arrow's asking is answered "no
    pandas", and Arrow runs as it does where pandas is not installed (no value is a
    pandas object yet). Once the command imports it, pandas loads as usual and Arrow is
    told that it is there.
    """
    if "pandas" not in sys.modules and not any(
        isinstance(f, _PandasOnRequest) for f in sys.meta_path
    ):
        sys.meta_path.insert(0, _PandasOnRequest())


class _PandasOnRequest:
    """The import finder of pandas_on_request: it refuses Arrow's asking (an import
    made from compiled code, not by an import statement) until an import statement
    asks; then it lets pandas load, tells Arrow, and leaves."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name != "pandas":
            return None
        if not _asked_by_python(sys._getframe(1)):
            raise ModuleNotFoundError("pandas is loaded when a command imports it", name=name)
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _ThenTellArrow(spec.loader)  # type: ignore[assignment]
        return spec


def _asked_by_python(frame: FrameType | None) -> bool:
    """Whether the import under way is an import statement of pandas, or
    importlib.import_module: the first frame outside the import machinery is running
    one. An import statement of another module (a compiled module of Arrow's, whose
    loading asks for pandas on its own) is not pandas' own."""
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
        frame = frame.f_back
    if frame is None:
        return False
    if frame.f_code.co_filename.endswith(os.path.join("importlib", "__init__.py")):
        return True
    import dis

    code = frame.f_code
    if code.co_code[frame.f_lasti] != dis.opmap["IMPORT_NAME"]:
        return False
    imported = next((i.argval for i in dis.get_instructions(code) if i.offset == frame.f_lasti), "")
    return str(imported).split(".", 1)[0] == "pandas"


class _ThenTellArrow:
    """pandas' own loader; once pandas is loaded, Arrow (told "no pandas" before) is
    told that it is there."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        module: ModuleType | None = self.loader.create_module(spec)
        return module

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        arrow = sys.modules.get("pyarrow.lib")
        if arrow is not None:
            # Asking for pandas through Arrow's own shim makes it look again.
            arrow._pandas_api.pd  # noqa: B018

    def __getattr__(self, name: str) -> Any:
        return getattr(self.loader, name)
