"""Read result files (CSV in UTF-8 or GB18030, Parquet, or .xlsx) into validated Results."""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from duplicate.errors import InputOutputError, InvalidData, Problem
from duplicate.io.csv_file import csv_text, read_csv
from duplicate.io.source import STDIN, Source, dataset_files, resolve
from duplicate.io.spreadsheet import read_xlsx
from duplicate.limits import MAX_ROWS
from duplicate.model.adjustments import Adjustments, parse_adjustments
from duplicate.model.results import Results, parse_results
from duplicate.stages.hand_log import HandLog, parse_hand_log

# Columns of a Parquet file read at once (Arrow decodes them on threads of their own),
# in at most PARQUET_READS reads: more at once when a file has many.
PARQUET_COLUMNS_AT_ONCE = 2
PARQUET_READS = 8


def source_name(path: str | Path | Source) -> str:
    """How messages name an input."""
    if isinstance(path, Source):
        return path.name
    return "<stdin>" if str(path) == STDIN else str(path)


def sha256_of(path: str | Path | Source) -> str:
    """The sha256 of an input: the file as it is now, or what standard input gave."""
    return resolve(path).sha256()


def read_raw(
    path: str | Path | Source,
    encoding: str | None = None,
    max_rows: int | None = MAX_ROWS,
    sheet: str | None = None,
) -> tuple[pd.DataFrame, int]:
    """The table as stored, every CSV cell as text, and the row number of its first row.

    A directory is read as one dataset of Parquet files (say, partitioned by round); an
    .xlsx workbook by its sheet `sheet` (default: the first), every cell as text.
    More than `max_rows` rows (None: no limit) is refused before the table is parsed.
    """
    source = resolve(path)
    if source.kind == "xlsx":
        table = read_xlsx(source.read_bytes(), source.name, sheet)
        if max_rows is not None:
            _check_rows(source, len(table), max_rows, "rows")
        return table, 2
    if source.kind == "csv":
        text = csv_text(source, encoding)
        if max_rows is not None:
            # Line ends after the header bound the rows from above (LF, CRLF or CR).
            _check_rows(source, text.lines, max_rows, "lines after its header")
        return _to_pandas(read_csv(text)), 2
    if source.kind == "dataset":
        if max_rows is not None:
            _check_rows(source, _dataset_rows(source), max_rows, "rows")
        return _to_pandas(_read_parquet(source)), 1
    with _parquet_errors(source):
        file = pq.ParquetFile(_parquet_input(source))
    if max_rows is not None:
        # The rows the footer declares: nothing else is read yet.
        _check_rows(source, file.metadata.num_rows, max_rows, "rows")
    return _parquet_frame(source, file), 1


def _check_rows(source: Source, rows: int, max_rows: int, what: str) -> None:
    if rows > max_rows:
        raise InvalidData(
            [
                Problem(
                    source.name,
                    f"has {rows:,} {what}, more than the {max_rows:,} rows read at once",
                    hint="allow more with `duplicate --max-rows N` if the machine has "
                    "the memory (about 200 bytes a row), or use --engine dask",
                )
            ]
        )


def _dataset_rows(source: Source) -> int:
    """The rows a Parquet dataset's files declare in their footers (nothing else read)."""
    with _parquet_errors(source):
        return sum(pq.read_metadata(f).num_rows for f in dataset_files(Path(source.given)))


def read_results(
    path: str | Path | Source,
    encoding: str | None = None,
    deal_scope: str = "round",
    check_structure: bool = True,
    max_rows: int | None = MAX_ROWS,
    sheet: str | None = None,
) -> Results:
    """Read and validate a results file; raise InvalidData listing every problem.

    With `check_structure` False, seating and duplication are left to check_results.
    `sheet` names the sheet of an .xlsx workbook (default: the first).
    """
    source = resolve(path)
    raw, first_row = read_raw(source, encoding, max_rows, sheet)
    return parse_results(
        raw,
        source.name,
        first_row,
        deal_scope,
        check_structure=check_structure,
        # The table read is ours: each text column goes once it is parsed.
        consume=True,
    )


def read_player_details(path: str | Path | Source, encoding: str | None = None) -> pd.DataFrame:
    """A players file's ids, names and clubs (seating.players.player_details)."""
    from duplicate.seating.players import player_details

    return player_details(read_raw(path, encoding)[0])


def read_adjustments(
    path: str | Path | Source, encoding: str | None = None, max_rows: int | None = MAX_ROWS
) -> Adjustments:
    """Read and validate an adjustments file (round, deal, player, kind, value, reason)."""
    raw, first_row = read_raw(path, encoding, max_rows)
    return parse_adjustments(raw, source_name(path), first_row)


def read_hand_log(
    path: str | Path | Source, encoding: str | None = None, max_rows: int | None = MAX_ROWS
) -> HandLog:
    """Read and check a stage's hand log (SCORING.md section 8)."""
    raw, first_row = read_raw(path, encoding, max_rows)
    return parse_hand_log(raw, source_name(path), first_row)


def read_published(path: str | Path | Source, encoding: str | None = None) -> pd.DataFrame:
    """A table as `duplicate` writes it: CSV, Parquet, .xlsx (its first sheet), or JSON
    ({"standings": [...]})."""
    source = resolve(path)
    if source.kind == "xlsx":
        return read_xlsx(source.read_bytes(), source.name)
    if source.kind != "csv":
        return _to_pandas(_read_parquet(source))
    data = source.read_bytes()
    if data.lstrip()[:1] == b"{":
        try:
            # Decimals, so that published numbers compare exactly.
            document = json.loads(data, parse_float=Decimal)
        except ValueError as exc:
            raise InvalidData([Problem(source.name, f"is not valid JSON ({exc})")]) from None
        except RecursionError:
            raise InvalidData([Problem(source.name, "is JSON nested too deeply to read")]) from None
        rows = document.get("standings") if isinstance(document, dict) else None
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise InvalidData(
                [
                    Problem(
                        source.name,
                        "has no 'standings' list of rows",
                        hint="give a file written by standings",
                    )
                ]
            )
        return pd.DataFrame(rows)
    return _to_pandas(read_csv(csv_text(source, encoding, data)))


def _read_parquet(source: Source) -> pa.Table:
    """A Parquet file or dataset as one table."""
    with _parquet_errors(source):
        if source.kind == "dataset":
            if not dataset_files(Path(source.given)):
                raise InputOutputError(f"{source.given}: a directory with no .parquet files")
            # One read of every file, straight into one table (partition columns included).
            return pq.read_table(source.given)
        return pq.read_table(_parquet_input(source))


def _parquet_frame(source: Source, file: pq.ParquetFile) -> pd.DataFrame:
    """A Parquet file as pandas (_to_pandas), read a few columns at a time.

    Each group's Arrow buffers are freed before the next group is read, and the heap
    takes the next columns into them: a lower peak than the whole table's, and quicker
    (fewer fresh pages; docs/performance.md).
    """
    with _parquet_errors(source):
        names = _data_columns(file.schema_arrow)
        if not names:
            return _to_pandas(file.read())
        step = max(PARQUET_COLUMNS_AT_ONCE, -(-len(names) // PARQUET_READS))
        columns: dict[Hashable, pd.Series] = {}
        for start in range(0, len(names), step):
            part = _to_pandas(file.read(columns=names[start : start + step]))
            columns.update(part.items())
    return pd.DataFrame(columns, copy=False)


def _data_columns(schema: pa.Schema) -> list[str] | None:
    """The columns to read one group after another: all but a pandas index stored as a
    column (the index goes: results are matched by position). None when some name is
    held twice (the table is read whole, and the doubled column reported)."""
    if len(set(schema.names)) != len(schema.names):
        return None
    index = (schema.pandas_metadata or {}).get("index_columns", [])
    return [name for name in schema.names if name not in index]


def _parquet_input(source: Source) -> pa.NativeFile:
    # Mapped, not read into memory first: a big file is not held twice.
    return pa.BufferReader(source.data) if source.data is not None else pa.memory_map(source.given)


@contextmanager
def _parquet_errors(source: Source) -> Iterator[None]:
    """Arrow's and the system's errors while reading a Parquet input, as a problem."""
    try:
        yield
    except (pa.ArrowException, OSError) as exc:
        what = "dataset" if source.kind == "dataset" else "file"
        raise InvalidData(
            [Problem(source.name, f"is not a readable Parquet {what} ({exc})")]
        ) from None


def _to_pandas(table: pa.Table) -> pd.DataFrame:
    """Arrow buffers are released as they convert: the file is not held twice. Text
    stays Arrow's own (ArrowDtype: 32-bit offsets where pandas' text takes 64), and each
    column is parsed into its type, then dropped (results.parse_results)."""
    return table.to_pandas(self_destruct=True, split_blocks=True, types_mapper=_arrow_text)


def _arrow_text(data_type: pa.DataType) -> pd.ArrowDtype | None:
    return pd.ArrowDtype(data_type) if pa.types.is_string(data_type) else None
