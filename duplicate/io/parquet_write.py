"""Parquet files as `duplicate` writes them: its metadata, required columns declared,
decimals stored as integers, row groups of 2**20 rows, encoded on several threads when
asked and joined into the bytes one writer writes."""

from __future__ import annotations

import contextlib
import itertools
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import pyarrow as pa

if TYPE_CHECKING:
    from concurrent.futures import Future

IDENTIFIERS = {"section", "round", "deal", "table", "seat", "player"}
# Integer identifiers that mostly rise row by row: delta encoding stores them in almost
# nothing, at a third of the cost of a dictionary.
RISING_IDENTIFIERS = {"table", "player"}
# Rows per Parquet row group (pyarrow's default), however a table arrives in parts.
ROW_GROUP_ROWS = 1 << 20


def parquet_bytes(table: pa.Table, meta: dict[str, str], threads: int = 1) -> bytes:
    """The table as a Parquet file, with the tool's metadata (see write_parquet)."""
    nullable = {name for name in table.column_names if table.column(name).null_count > 0}
    sink = pa.BufferOutputStream()
    write_parquet(sink, [table], nullable, meta, threads)
    return bytes(sink.getvalue().to_pybytes())


def write_parquet(
    sink: str | pa.NativeFile,
    tables: Iterable[pa.Table],
    nullable: set[str],
    meta: dict[str, str],
    threads: int = 1,
) -> int:
    """Write the tables, one after another, as one Parquet file; return the rows written.

    Columns not in `nullable` are declared required. Decimals are stored as integers,
    rising identifiers delta-encoded, and other columns as dictionaries (scores and
    matchpoints repeat within a deal): half the size and time of pyarrow's defaults
    (docs/performance.md). Row groups are cut
    every 2**20 rows whatever the tables' lengths, so the bytes do not depend on how
    the rows were split.

    Arrow encodes a file on one thread. With `threads` > 1 and more than one row
    group, each row group is encoded as a file of its own, that many at once, and the
    files are joined in order (parquet_footer.FileJoiner): the bytes are those one
    writer writes.
    """
    groups_of = _row_groups(tables, nullable, meta)
    # The first two row groups tell whether there is more than one.
    first = list(itertools.islice(groups_of, 2))
    if threads <= 1 or len(first) < 2:
        return _write_parquet_plainly(sink, itertools.chain(first, groups_of))
    from concurrent.futures import ThreadPoolExecutor

    from duplicate.io.parquet_footer import FileJoiner

    rows = groups = 0
    joiner = FileJoiner()
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(sink, "wb")) if isinstance(sink, str) else sink
        pool = stack.enter_context(ThreadPoolExecutor(max_workers=threads))
        # At most one row group per thread waits or is encoded: memory stays bounded.
        encoding: deque[Future[pa.Buffer]] = deque()

        def write_oldest() -> None:
            for piece in joiner.add(memoryview(encoding.popleft().result())):
                out.write(piece)

        schema: pa.Schema | None = None
        for group in itertools.chain(first, groups_of):
            rows, groups, schema = rows + len(group), groups + 1, group.schema
            if len(encoding) >= threads:
                write_oldest()
            encoding.append(pool.submit(_encoded, _as_stored(group)))
        while encoding:
            write_oldest()
        if schema is not None:
            if any(_stored_as_int64(field.type) for field in schema):
                # The footer says what the columns are, as Arrow would for the table.
                joiner.describe_as(memoryview(_encoded(schema.empty_table())))
            for piece in joiner.end():
                out.write(piece)
    return rows


def _write_parquet_plainly(sink: str | pa.NativeFile, groups: Iterable[pa.Table]) -> int:
    """write_parquet with one writer, row group after row group (_row_groups)."""
    import pyarrow.parquet as pq

    rows = 0
    writer: pq.ParquetWriter | None = None
    try:
        for group in groups:
            if writer is None:
                writer = pq.ParquetWriter(sink, group.schema, **_parquet_options(group.schema))
            writer.write_table(group, row_group_size=ROW_GROUP_ROWS)
            rows += len(group)
    finally:
        if writer is not None:
            writer.close()
    return rows


def _stored_as_int64(kind: pa.DataType) -> bool:
    """A decimal64 that Parquet stores as INT64 (store_decimal_as_integer), as a plain
    int64 column is stored: the same values, encoded into the same bytes."""
    return isinstance(kind, pa.Decimal64Type) and kind.precision > 9


def _as_stored(table: pa.Table) -> pa.Table:
    """The table with its decimal64 columns as the int64 they are stored as.

    Arrow encodes int64 faster than decimal64, into the same column chunks.
    Only the footer differs, and write_parquet gives it the table's own.
    """
    stored = [
        pa.chunked_array([c.view(pa.int64()) for c in column.chunks], pa.int64())
        if _stored_as_int64(column.type)
        else column
        for column in table.columns
    ]
    schema = table.schema
    for i, field in enumerate(schema):
        if _stored_as_int64(field.type):
            schema = schema.set(i, field.with_type(pa.int64()))
    return pa.Table.from_arrays(stored, schema=schema)


def _row_groups(
    tables: Iterable[pa.Table], nullable: set[str], meta: dict[str, str]
) -> Iterator[pa.Table]:
    """The tables cut into row groups of ROW_GROUP_ROWS rows (the last may be shorter),
    with the file's schema; one empty table if every table is empty."""
    schema: pa.Schema | None = None
    pending: list[pa.Table] = []
    pending_rows = rows = 0
    for table in tables:
        if schema is None:
            schema = _parquet_schema(table, nullable, meta)
        pending.append(pa.Table.from_arrays(table.columns, schema=schema))
        pending_rows += len(table)
        rows += len(table)
        if pending_rows >= ROW_GROUP_ROWS:
            whole = pa.concat_tables(pending)
            for start in range(0, pending_rows - ROW_GROUP_ROWS + 1, ROW_GROUP_ROWS):
                yield whole.slice(start, ROW_GROUP_ROWS)
            cut = pending_rows // ROW_GROUP_ROWS * ROW_GROUP_ROWS
            pending, pending_rows = [whole.slice(cut)], pending_rows - cut
    if schema is not None and (pending_rows or not rows):
        yield pa.concat_tables(pending)


def _encoded(table: pa.Table) -> pa.Buffer:
    """The table as a Parquet file of its own (one row group), in memory."""
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    with pq.ParquetWriter(sink, table.schema, **_parquet_options(table.schema)) as writer:
        writer.write_table(table, row_group_size=ROW_GROUP_ROWS)
    return sink.getvalue()


def _parquet_schema(table: pa.Table, nullable: set[str], meta: dict[str, str]) -> pa.Schema:
    schema_meta: dict[bytes | str, bytes | str] = {
        key: value for key, value in (table.schema.metadata or {}).items() if key != b"pandas"
    }
    schema_meta.update({f"duplicate.{k}".encode(): v.encode() for k, v in meta.items()})
    return pa.schema(
        [field.with_nullable(field.name in nullable) for field in table.schema],
        metadata=schema_meta,
    )


def _parquet_options(schema: pa.Schema) -> dict[str, Any]:
    delta = {
        field.name: "DELTA_BINARY_PACKED"
        for field in schema
        if field.name in RISING_IDENTIFIERS and pa.types.is_integer(field.type)
    }
    # Min/max statistics help readers filter on identifiers; elsewhere they cost time.
    identifiers = [name for name in schema.names if name in IDENTIFIERS]
    return {
        # (pyarrow takes lists of columns here; its stubs say bool only)
        "use_dictionary": [name for name in schema.names if name not in delta],
        "column_encoding": delta or None,
        "write_statistics": identifiers or False,
        "store_decimal_as_integer": True,
    }
