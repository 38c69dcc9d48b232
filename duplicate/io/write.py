"""Write result tables as CSV, Parquet or JSON: atomically, in a stable column order."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.errors import UsageError
from duplicate.io.json_text import dumps
from duplicate.io.parquet_write import parquet_bytes
from duplicate.io.source import unwritable
from duplicate.model.codes import one_chunk

if TYPE_CHECKING:
    import pandas as pd

# excel: CSV as Excel opens it on any system (UTF-8 with a BOM, so that Chinese names
# are not garbled on Chinese Windows; CRLF line ends).
FORMATS = ("csv", "excel", "xlsx", "parquet", "json")
TEXT_TABLES = ("csv", "excel")
SUFFIXES = {
    ".csv": "csv",
    ".xlsx": "xlsx",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".json": "json",
}
_NEEDS_QUOTES = r'[",\r\n]'


def format_for(path: str | None, given: str | None) -> str:
    """The output format: as given, else from the file suffix; CSV for standard output
    and what stands for it (a device, a FIFO, /dev/stdout)."""
    if given is not None:
        return given
    if path is None or path == "-":
        return "csv"
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES and writes_straight(path):
        return "csv"  # /dev/stdout, a FIFO: as standard output
    if suffix not in SUFFIXES:
        raise UsageError(
            f"cannot tell the format of {path!r} from its suffix; "
            "use .csv, .xlsx, .parquet or .json, or give {opt:format}",
            "output.unknown-format",
        )
    return SUFFIXES[suffix]


def to_arrow(frame: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(frame, preserve_index=False)


def neutralise_formulas(column: pa.ChunkedArray[Any]) -> pa.ChunkedArray[Any]:
    """Text a spreadsheet would run as a formula, prefixed with an apostrophe.

    A cell starting with =, +, @, a tab or a carriage return, or with - when it is not a
    number, would be evaluated by a spreadsheet; "'=1+1" shows as the text =1+1.
    """
    risky = pc.or_(
        pc.match_substring_regex(column, r"^[=+@\t\r]"),
        pc.and_(
            pc.starts_with(column, "-"),
            pc.invert(pc.match_substring_regex(column, r"^-[0-9]+(\.[0-9]+)?$")),
        ),
    )
    if not pc.any(risky).as_py():
        return column
    apostrophe, nothing = pa.scalar("'", type=column.type), pa.scalar("", type=column.type)
    safe: pa.ChunkedArray[Any] = pc.if_else(
        risky, pc.binary_join_element_wise(apostrophe, column, nothing), column
    )
    return safe


def csv_bytes(table: pa.Table, line_end: str = "\n") -> bytes:
    """CSV that quotes only when some value needs it, so plain tables stay plain.

    Text that a spreadsheet would run as a formula is neutralised first. Rows end with
    `line_end`; a line end inside a quoted value is the value's own, kept as it is.
    """
    # Arrow's CSV writer garbles columns whose chunks differ (a column of one chunk beside
    # one of many writes NUL bytes): one chunk per column first.
    table = table.combine_chunks()
    # Dictionary (category) columns are written as their plain text.
    table = pa.table(
        [c.cast(c.type.value_type) if pa.types.is_dictionary(c.type) else c for c in table.columns],
        names=table.column_names,
    )
    table = pa.table(
        [
            neutralise_formulas(c)
            if pa.types.is_string(c.type) or pa.types.is_large_string(c.type)
            else c
            for c in table.columns
        ],
        names=table.column_names,
    )
    quote = any(
        pc.any(pc.match_substring_regex(column, _NEEDS_QUOTES)).as_py()
        for column in table.columns
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type)
    )
    # Our column names never need quotes; Arrow would quote them all.
    header = (",".join(table.column_names) + line_end).encode("utf-8")
    if quote:
        return header + _quoted_where_needed(table, line_end)
    import pyarrow.csv as pacsv

    sink = io.BytesIO()
    pacsv.write_csv(table, sink, pacsv.WriteOptions(include_header=False, quoting_style="none"))
    rows = sink.getvalue()
    # No value holds a line end (none needs quotes): each one in the rows ends a row.
    return header + (rows if line_end == "\n" else rows.replace(b"\n", line_end.encode()))


def _quoted_where_needed(table: pa.Table, line_end: str) -> bytes:
    """The rows as CSV with quotes only on the values that hold a quote, a comma or a
    line end (Arrow's writer would quote every text value, numbers held as text too)."""
    fields = []
    for column in table.columns:
        text: Any = pc.cast(column, pa.large_string())
        text = pc.fill_null(text, "")
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            needs: Any = pc.match_substring_regex(text, _NEEDS_QUOTES)
            doubled = pc.replace_substring(text, '"', '""')
            quote = pa.scalar('"', pa.large_string())
            wrapped = pc.binary_join_element_wise(
                quote, doubled, quote, pa.scalar("", pa.large_string())
            )
            text = pc.if_else(needs, wrapped, text)
        fields.append(text)
    lines: Any = pc.binary_join_element_wise(*fields, pa.scalar(",", pa.large_string()))
    # Each line with its end: the lines' bytes, one after another, are the CSV text.
    ended: Any = pc.binary_join_element_wise(
        lines, pa.scalar(line_end, pa.large_string()), pa.scalar("", pa.large_string())
    )
    rows = one_chunk(ended)
    if not len(rows):
        return b""
    buffers: Any = rows.buffers()
    _, offsets, data = buffers
    start, stop = np.frombuffer(offsets, dtype=np.int64)[[rows.offset, rows.offset + len(rows)]]
    return bytes(memoryview(data)[start:stop])


def json_bytes(table: pa.Table, kind: str, meta: dict[str, str]) -> bytes:
    """The table's rows as the `items` of the JSON envelope (json_document), decimals as
    JSON numbers with their places (29335.70, 0.00; a time of scale 0 as 1309), never
    through a float."""
    return json_document(kind, meta, table.to_pylist())


def json_document(
    kind: str,
    meta: dict[str, str],
    items: list[Any],
    summary: dict[str, Any] | None = None,
) -> bytes:
    """Every command's JSON: {"version", "kind" (what the items are), "rules", the
    notes (a draw's seed), the command's `summary` (an explanation's total, a
    validation's counts), "items": [...]} (docs/output.md)."""
    import tomllib
    from decimal import Decimal

    document: dict[str, object] = {
        "version": meta["version"],
        "kind": kind,
        "rules": tomllib.loads(meta["rules"], parse_float=Decimal),
        **{key: value for key, value in meta.items() if key not in ("version", "rules")},
        **(summary or {}),
        "items": items,
    }
    return (dumps(document) + "\n").encode("utf-8")


def encode(
    frame: pd.DataFrame | pa.Table, fmt: str, kind: str, meta: dict[str, str], threads: int = 1
) -> bytes:
    """The table in `fmt`, with `meta` (tool version, rules) where the format holds it
    (`threads`: Parquet row groups encoded at once)."""
    table = frame if isinstance(frame, pa.Table) else to_arrow(frame)
    if fmt == "csv":
        return csv_bytes(table)
    if fmt == "excel":
        return b"\xef\xbb\xbf" + csv_bytes(table, "\r\n")
    if fmt == "xlsx":
        from duplicate.io.spreadsheet import xlsx_bytes

        return xlsx_bytes(table, kind, meta)
    if fmt == "parquet":
        return parquet_bytes(table, meta, threads)
    if fmt == "json":
        return json_bytes(table, kind, meta)
    raise UsageError(
        f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}", "output.unknown-format"
    )


def refuse_overwriting(
    output: str | Path, inputs: Iterable[str | Path], what: str = "the output"
) -> None:
    """UsageError if `output` is one of the `inputs` (the same file by any name)."""
    if not os.path.exists(output):
        return
    for name in inputs:
        if str(name) != "-" and os.path.exists(name) and os.path.samefile(output, name):
            raise UsageError(
                f"{what} {output} is an input file; choose another name", "output.is-input"
            )


def write_atomic(path: str | Path, data: bytes) -> None:
    """Write an output to a temporary file beside `path`, then rename: never a partial
    file (see atomic_path for what is not a regular file)."""
    with atomic_path(path, output=True) as temp:
        temp.write_bytes(data)


def writes_straight(path: str | Path) -> bool:
    """Whether an output at `path` is written straight into rather than replaced: a
    device (/dev/null), a FIFO, a socket, or a descriptor's link (/dev/stdout is a link
    to /proc/self/fd/1): renaming a file over it would put a regular file in its place."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        return True
    # A descriptor's link may lead to a regular file (standard output sent to one):
    # that file is the shell's, written into, never replaced.
    at = os.path.abspath(path)
    for _ in range(40):
        if at.startswith(("/proc/", "/dev/fd/")) or at in ("/dev/stdout", "/dev/stderr"):
            return True
        if not os.path.islink(at):
            return False
        at = os.path.abspath(os.path.join(os.path.dirname(at), os.readlink(at)))
    return False


@contextmanager
def atomic_path(path: str | Path, output: bool = False) -> Iterator[Path]:
    """A temporary file beside `path`, renamed to `path` when the block succeeds.

    If the block fails, the temporary file is removed and `path` is left as it was.
    An `output` is never put in place of a link or of what is not a regular file: a
    link to a file has the file it leads to replaced (the link stays), and a device, a
    FIFO or a descriptor's link (writes_straight) has the finished file's bytes written
    into it, appended (a file behind /dev/stdout may hold the shell's earlier output).
    """
    target = Path(path)
    straight = output and writes_straight(target)
    if output and not straight and target.is_symlink():
        target = Path(os.path.realpath(target))
    try:
        temp = _new_temporary(target, _temporary_folder() if straight else None)
    except OSError as exc:
        raise unwritable(path, exc) from None
    put = _pour if straight else _put
    # Everything after the file exists is inside the try: an interrupt at any point
    # (Ctrl-C, SIGTERM) removes it.
    pending = _TOGETHER[-1] if _TOGETHER else None
    try:
        yield temp
        if pending is not None:
            # Put in place with the others when they are all written (see together).
            pending.add(Path(path), temp, lambda: put(temp, target), lambda: _drop(temp))
            return
        put(temp, target)
    except BaseException as exc:
        _drop(temp)
        if isinstance(exc, OSError):
            raise unwritable(path, exc) from None
        raise
    finally:
        if pending is None:
            _UNFINISHED.discard(temp)


def _pour(temp: Path, target: Path) -> None:
    """The finished file's bytes written into `target` (not a regular file), then the
    file removed."""
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
        with open(descriptor, "wb", closefd=True) as sink, open(temp, "rb") as written:
            shutil.copyfileobj(written, sink)
    finally:
        _drop(temp)


def _put(temp: Path, target: Path) -> None:
    os.replace(temp, target)
    _UNFINISHED.discard(temp)


def _drop(temp: Path) -> None:
    with contextlib.suppress(OSError):
        temp.unlink()
    _UNFINISHED.discard(temp)


class _Pending:
    """What a block of files written together puts in place at its end (see together):
    each target, where it is meanwhile, and how to put it in place or drop it."""

    def __init__(self) -> None:
        self.staged: dict[Path, Path] = {}
        self.steps: list[tuple[Path, Callable[[], None], Callable[[], None]]] = []

    def add(
        self, target: Path, staged: Path, commit: Callable[[], None], abort: Callable[[], None]
    ) -> None:
        self.staged[target] = staged
        self.steps.append((target, commit, abort))


_TOGETHER: list[_Pending] = []


@contextmanager
def together() -> Iterator[None]:
    """Every file (or report folder) written in the block is put in place when the block
    ends, all of them, in the order written; if the block fails, none is: the outputs
    of a run, their rules and its manifest go in together."""
    pending = _Pending()
    _TOGETHER.append(pending)
    try:
        yield
    except BaseException:
        _TOGETHER.remove(pending)
        for _, _, abort in pending.steps:
            abort()
        raise
    _TOGETHER.remove(pending)
    for at, (target, commit, _) in enumerate(pending.steps):
        try:
            commit()
        except BaseException as exc:
            for _, _, abort in pending.steps[at:]:
                abort()
            if isinstance(exc, OSError):
                raise unwritable(target, exc) from None
            raise


def staged(path: str | Path) -> Path:
    """Where the file `path` is while its block of files written together is open: its
    temporary file (to hash it before it is put in place); else `path` itself."""
    target = Path(path)
    for pending in _TOGETHER:
        if target in pending.staged:
            return pending.staged[target]
    return target


# Temporary files being written: an interrupt that lands between two steps of the
# context managers writing them (say, while one of several outputs is put in place)
# can leave a generator never resumed; remove_unfinished deletes what is left.
_UNFINISHED: set[Path] = set()


def _temporary_folder() -> Path:
    import tempfile

    return Path(tempfile.gettempdir())


def _new_temporary(target: Path, folder: Path | None = None) -> Path:
    """A new empty file beside `target` (or in `folder`), with the permissions the
    user's umask gives an output.

    Its path is in _UNFINISHED before the file exists: an interrupt landing between
    the file's creation and the caller's try (as one could after tempfile.mkstemp
    made it) still leaves nothing behind (remove_unfinished).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temp = (folder or target.parent) / f".{target.name}.{os.urandom(8).hex()}.tmp"
        _UNFINISHED.add(temp)
        try:
            os.close(os.open(temp, flags, 0o666))  # the system applies the umask
            return temp
        except FileExistsError:
            _UNFINISHED.discard(temp)
        except OSError:  # not made (an interrupt, no OSError, leaves it registered)
            _UNFINISHED.discard(temp)
            raise
    raise FileExistsError(f"no free temporary name beside {target}")


def remove_unfinished() -> None:
    """Delete every temporary output file not yet renamed into place (a run cut short)."""
    for temp in list(_UNFINISHED):
        with contextlib.suppress(OSError):
            temp.unlink()
    _UNFINISHED.clear()


def _umask() -> int:
    """The process's umask (read by setting it, then setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


REPORT_MARKER = ".duplicate-report"


def write_directory(target: str | Path, files: dict[str, bytes]) -> None:
    """Write a folder of files all at once: build it beside `target`, then swap it in.

    An existing `target` is replaced only when it is empty or an earlier report (it
    holds the marker file); anything else is refused, so no other folder is lost.
    """
    target = Path(target).absolute()
    if Path.cwd().resolve().is_relative_to(target.resolve()):
        raise UsageError(
            f"{target} is the current folder or holds it, and cannot be replaced; "
            "give a new folder name such as site",
            "output.folder",
        )
    if target.exists():
        if not target.is_dir():
            raise UsageError(
                f"{target} exists and is not a folder; choose another name", "output.folder"
            )
        if any(target.iterdir()) and not (target / REPORT_MARKER).exists():
            raise UsageError(
                f"{target} is a folder that duplicate did not write; choose a new or empty one",
                "output.folder",
            )
    parent = target.parent if str(target.parent) else Path(".")
    import tempfile

    try:
        building = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
    except OSError as exc:
        raise unwritable(target, exc) from None
    # From here every step is undone on any failure or interrupt: the folder being
    # built is removed.
    try:
        os.chmod(building, 0o777 & ~_umask())
        for relative, data in files.items():
            path = building / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        (building / REPORT_MARKER).write_bytes(b"")
    except BaseException as exc:
        shutil.rmtree(building, ignore_errors=True)
        if isinstance(exc, OSError):
            raise unwritable(target, exc) from None
        raise
    if _TOGETHER:
        # Swapped in with the run's other outputs (see together).
        _TOGETHER[-1].add(
            target,
            building,
            lambda: _swap_in(building, target),
            lambda: shutil.rmtree(building, ignore_errors=True),
        )
        return
    _swap_in(building, target)


def _swap_in(building: Path, target: Path) -> None:
    """Put the folder built in place of `target`: an earlier report moved aside, and put
    back if the swap fails."""
    import tempfile

    parent = building.parent
    old: Path | None = None
    try:
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=parent))
            os.replace(target, old / target.name)
        os.replace(building, target)
    except BaseException as exc:
        shutil.rmtree(building, ignore_errors=True)
        if old is not None and not target.exists() and (old / target.name).exists():
            os.replace(old / target.name, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        if isinstance(exc, OSError):
            raise unwritable(target, exc) from None
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
