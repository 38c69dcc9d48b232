"""A Parquet file's number columns, read into numpy on every core, without pandas.

Apart from io.read (which needs pandas) so that a command can start reading its input
while pandas is still being imported: see `prefetching`.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.parquet as pq

from duplicate.io import PARQUET_THREADS

PARQUET_MAGIC = b"PAR1"
# Row groups of a Parquet file read at once, each on its own thread.
READING_THREADS = PARQUET_THREADS


@dataclass(frozen=True)
class NumberColumns:
    """The number columns of a file that miss no value, as numpy arrays, and the names
    of every column in the file's order (the others are left to Arrow's usual read)."""

    names: list[str]
    numbers: dict[str, npt.NDArray[np.generic]]

    @property
    def others(self) -> list[str]:
        return [name for name in self.names if name not in self.numbers]


def is_parquet(path: str | Path) -> bool:
    """A Parquet file (by its first 4 bytes) or a directory of them; never standard input."""
    if str(path) == "-":
        return False
    if Path(path).is_dir():
        return True
    try:
        with open(path, "rb") as handle:
            return handle.read(len(PARQUET_MAGIC)) == PARQUET_MAGIC
    except OSError:
        return False


def read_number_columns(path: str) -> NumberColumns | None:
    """The file's number columns, filled row group by row group on READING_THREADS
    threads (what `prefetching` started, if it did, for this very file).

    At 10M rows this touches half the memory of a whole Arrow table turned into pandas
    (0.35 s instead of 0.65 s). None when the file stores a pandas index (which only
    to_pandas restores), has one row group, or no number column: read it the usual way.
    Raises what Arrow raises on a file it cannot read.
    """
    early = _started.pop(path, None)
    if early is not None and early[0] == _identity(path):
        return early[1].result()
    return _read(path)


@contextmanager
def prefetching(path: str) -> Iterator[None]:
    """Within the block, `path`'s number columns are being read on a thread of their own.

    A command starts this before it imports pandas (about 0.3 s, on one core): by the
    time it reads the file, much of it is in memory. Only a local Parquet file is read
    ahead; a read after the block reads afresh.
    """
    if path not in _started and Path(path).is_file() and is_parquet(path):
        future: Future[NumberColumns | None] = Future()

        def run() -> None:
            try:
                future.set_result(_read(path))
            except Exception as exc:  # told by read_number_columns, as without prefetch
                future.set_exception(exc)

        # A daemon: a command that fails before it reads does not wait for the file.
        _started[path] = (_identity(path), future)
        threading.Thread(target=run, name="prefetch", daemon=True).start()
    try:
        yield
    finally:
        _started.pop(path, None)


# Reads started by `prefetching`, by path, with the file's identity when they started.
_started: dict[str, tuple[tuple[int, int, int], Future[NumberColumns | None]]] = {}


def _identity(path: str) -> tuple[int, int, int]:
    """What tells a file was not replaced or changed: inode, size and time written."""
    try:
        stat = os.stat(path)
    except OSError:
        return (-1, -1, -1)
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


def _read(path: str) -> NumberColumns | None:
    mapped = pa.memory_map(path)
    file = pq.ParquetFile(mapped)
    schema, meta = file.schema_arrow, file.metadata
    if _stores_index(schema) or meta.num_row_groups < 2:
        return None
    numbers = [
        f.name
        for f in schema
        if (pa.types.is_integer(f.type) or pa.types.is_floating(f.type))
        and not pa.types.is_float16(f.type)
    ]
    if not numbers or len(set(schema.names)) != len(schema.names):
        return None
    columns = {
        name: np.empty(meta.num_rows, schema.field(name).type.to_pandas_dtype()) for name in numbers
    }
    starts = np.cumsum([0] + [meta.row_group(i).num_rows for i in range(meta.num_row_groups)])
    with_nulls: set[str] = set()

    def read_group(group: int) -> None:
        # A reader of its own per thread; the mapped file is shared.
        part = pq.ParquetFile(mapped, metadata=meta).read_row_group(
            group, columns=numbers, use_threads=False
        )
        for name in numbers:
            column = part.column(name)
            if column.null_count:
                with_nulls.add(name)
                continue
            at = int(starts[group])
            for chunk in column.chunks:
                columns[name][at : at + len(chunk)] = chunk.to_numpy()
                at += len(chunk)

    with ThreadPoolExecutor(max_workers=READING_THREADS) as pool:
        list(pool.map(read_group, range(meta.num_row_groups)))
    return NumberColumns(
        list(schema.names),
        {name: values for name, values in columns.items() if name not in with_nulls},
    )


def _stores_index(schema: pa.Schema) -> bool:
    """Whether pandas stored an index in the file as columns (to_pandas restores it)."""
    stored = (schema.metadata or {}).get(b"pandas")
    if stored is None:
        return False
    try:
        index = json.loads(stored).get("index_columns", [])
    except ValueError:
        return True
    return any(isinstance(column, str) for column in index)
