"""Read result files (CSV in UTF-8 or GB18030, Parquet, or .xlsx) into validated Results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from duplicate.errors import InputOutputError, InvalidData, Problem
from duplicate.io.source import STDIN, Source, dataset_files, resolve
from duplicate.limits import MAX_ROWS
from duplicate.model.cells import raw_columns
from duplicate.model.results import Results, parse_results

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow.parquet as pq

    from duplicate.model.adjustments import Adjustments
    from duplicate.stages.hand_log import HandLog

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
    formulas: str | None = None,
) -> tuple[pd.DataFrame, int]:
    """The table as stored, every CSV cell as text, and the row number of its first row.

    A directory is read as one dataset of Parquet files (say, partitioned by round); an
    .xlsx workbook by its sheet `sheet` (default: the first visible one), every cell as
    text, its formula cells refused unless `formulas` is "cached" (their saved results
    are then read, with a warning: see read_warnings).
    More than `max_rows` rows (None: no limit) is refused before the table is parsed.
    """
    table, first_row = read_stored(path, encoding, max_rows, sheet, formulas)
    return (table if not isinstance(table, pa.Table) else _to_pandas(table)), first_row


def read_stored(
    path: str | Path | Source,
    encoding: str | None = None,
    max_rows: int | None = MAX_ROWS,
    sheet: str | None = None,
    formulas: str | None = None,
) -> tuple[pa.Table | pd.DataFrame, int]:
    """read_raw's table as Arrow reads it (CSV, Parquet); an .xlsx workbook's in pandas."""
    return _read_source(resolve(path), encoding, max_rows, sheet, formulas)


def read_warnings(table: pa.Table | pd.DataFrame) -> list[Problem]:
    """What reading a table warned of (an .xlsx sheet's formulas read as saved)."""
    if isinstance(table, pa.Table):
        return []
    from duplicate.io.spreadsheet import WARNINGS

    return list(table.attrs.get(WARNINGS, []))


def _read_source(
    source: Source,
    encoding: str | None,
    max_rows: int | None,
    sheet: str | None,
    formulas: str | None = None,
) -> tuple[pa.Table | pd.DataFrame, int]:
    if source.kind == "xlsx":
        from duplicate.io.spreadsheet import read_xlsx

        frame, first_row = read_xlsx(source.read_bytes(), source.name, sheet, formulas, max_rows)
        if max_rows is not None:
            _check_rows(source, len(frame), max_rows, "rows")
        return frame, first_row
    if source.kind == "csv":
        from duplicate.io.csv_file import csv_text, read_csv

        text = csv_text(source, encoding)
        if max_rows is not None:
            # Line ends after the header bound the rows from above (LF, CRLF or CR).
            _check_rows(source, text.lines, max_rows, "lines after its header")
        return read_csv(text), 2
    if source.kind == "dataset":
        if max_rows is not None:
            _check_rows(source, _dataset_rows(source), max_rows, "rows")
        return _read_parquet(source), 1
    import pyarrow.parquet as pq

    with _parquet_errors(source):
        file = pq.ParquetFile(_parquet_input(source))
    if max_rows is not None:
        # The rows the footer declares: nothing else is read yet.
        _check_rows(source, file.metadata.num_rows, max_rows, "rows")
    return _parquet_table(source, file), 1


def _check_rows(source: Source, rows: int, max_rows: int, what: str) -> None:
    if rows > max_rows:
        raise InvalidData(
            [
                Problem(
                    source.name,
                    f"has {rows:,} {what}, more than the {max_rows:,} rows read at once",
                    hint="allow more ({opt:max_rows}) if the machine has "
                    "the memory (about 200 bytes a row), or run it on a cluster "
                    "({opt:engine=dask})",
                    code="input.too-many-rows",
                )
            ]
        )


def _dataset_rows(source: Source) -> int:
    """The rows a Parquet dataset's files declare in their footers (nothing else read)."""
    import pyarrow.parquet as pq

    with _parquet_errors(source):
        return sum(pq.read_metadata(f).num_rows for f in dataset_files(Path(source.given)))


def read_results(
    path: str | Path | Source,
    encoding: str | None = None,
    deal_scope: str = "round",
    check_structure: bool = True,
    max_rows: int | None = MAX_ROWS,
    sheet: str | None = None,
    formulas: str | None = None,
) -> Results:
    """Read and validate a results file; raise InvalidData listing every problem.

    With `check_structure` False, seating and duplication are left to check_results.
    `sheet` names the sheet of an .xlsx workbook (default: the first visible one);
    `formulas` "cached" reads its formula cells' saved results (else they are refused).
    """
    source = resolve(path)
    table, first_row = _read_source(source, encoding, max_rows, sheet, formulas)
    warnings = read_warnings(table)
    # The table read is ours: each column goes once it is parsed (consume), held by
    # nothing else.
    columns = raw_columns(table)
    del table
    results = parse_results(
        columns, source.name, first_row, deal_scope, check_structure=check_structure, consume=True
    )
    return replace(results, read_warnings=tuple(warnings)) if warnings else results


def read_player_details(path: str | Path | Source, encoding: str | None = None) -> pd.DataFrame:
    """A players file's ids, names and clubs (seating.players.player_details)."""
    from duplicate.seating.players import player_details

    return player_details(read_raw(path, encoding)[0])


def read_adjustments(
    path: str | Path | Source, encoding: str | None = None, max_rows: int | None = MAX_ROWS
) -> Adjustments:
    """Read and validate an adjustments file (round, deal, player, kind, value, reason)."""
    from duplicate.model.adjustments import parse_adjustments

    raw, first_row = read_raw(path, encoding, max_rows)
    return parse_adjustments(raw, source_name(path), first_row)


def read_hand_log(
    path: str | Path | Source, encoding: str | None = None, max_rows: int | None = MAX_ROWS
) -> HandLog:
    """Read and check a stage's hand log (docs/scoring.md section 8)."""
    from duplicate.stages.hand_log import parse_hand_log

    raw, first_row = read_raw(path, encoding, max_rows)
    return parse_hand_log(raw, source_name(path), first_row)


def read_published(path: str | Path | Source, encoding: str | None = None) -> pd.DataFrame:
    """A table as `duplicate` writes it: CSV, Parquet, .xlsx (its first sheet), or JSON
    ({"kind": "standings", "items": [...]})."""
    import pandas as pd

    from duplicate.io.spreadsheet import read_xlsx

    source = resolve(path)
    if source.kind == "xlsx":
        return read_xlsx(source.read_bytes(), source.name)[0]
    if source.kind != "csv":
        return _to_pandas(_read_parquet(source))
    data = source.read_bytes()
    start = data.lstrip(b" \t\r\n\xef\xbb\xbf")[:1]
    if start == b"[":
        raise InvalidData(
            [
                Problem(
                    source.name,
                    "is a JSON list, not a table written by standings (JSON as standings "
                    'writes it is an object: {"items": [...]})',
                    hint="give a file written by standings",
                    code="published.no-standings",
                )
            ]
        )
    if start == b"{":
        try:
            # Decimals, so that published numbers compare exactly.
            document = json.loads(data, parse_float=Decimal)
        except ValueError as exc:
            raise InvalidData(
                [Problem(source.name, f"is not valid JSON ({exc})", code="published.not-json")]
            ) from None
        except RecursionError:
            raise InvalidData(
                [
                    Problem(
                        source.name, "is JSON nested too deeply to read", code="published.not-json"
                    )
                ]
            ) from None
        rows = _published_rows(document)
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise InvalidData(
                [
                    Problem(
                        source.name,
                        "has no 'items' list of standings rows",
                        hint="give a file written by standings",
                        code="published.no-standings",
                    )
                ]
            )
        return pd.DataFrame(rows)
    from duplicate.io.csv_file import csv_text, read_csv

    return _to_pandas(read_csv(csv_text(source, encoding, data)))


def _published_rows(document: object) -> object:
    """The rows of published standings as JSON: `items` (of kind standings), or the
    `standings` list files written before the envelope named it so."""
    if not isinstance(document, dict):
        return None
    if "items" in document and document.get("kind", "standings") == "standings":
        return document["items"]
    return document.get("standings")


def _read_parquet(source: Source) -> pa.Table:
    """A Parquet file or dataset as one table."""
    import pyarrow.parquet as pq

    with _parquet_errors(source):
        if source.kind == "dataset":
            if not dataset_files(Path(source.given)):
                raise InputOutputError(
                    f"{source.given}: a directory with no .parquet files", "input.empty-folder"
                )
            # One read of every file, straight into one table (partition columns included).
            return pq.read_table(source.given)
        return pq.read_table(_parquet_input(source))


def _parquet_table(source: Source, file: pq.ParquetFile) -> pa.Table:
    """A Parquet file read a few columns at a time, in at most PARQUET_READS reads
    (Arrow decodes a read's columns on threads of their own): its columns come as
    single arrays, no chunks to join."""
    with _parquet_errors(source):
        names = _data_columns(file.schema_arrow)
        if not names:
            return file.read()
        step = max(PARQUET_COLUMNS_AT_ONCE, -(-len(names) // PARQUET_READS))
        parts = [
            file.read(columns=names[start : start + step]) for start in range(0, len(names), step)
        ]
    return pa.Table.from_arrays(
        [column for part in parts for column in part.columns],
        names=[name for part in parts for name in part.column_names],
    )


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
            [
                Problem(
                    source.name,
                    f"is not a readable Parquet {what} ({exc})",
                    code="input.not-parquet",
                )
            ]
        ) from None


def _to_pandas(table: pa.Table) -> pd.DataFrame:
    """Arrow buffers are released as they convert: the file is not held twice. Text
    stays Arrow's own (ArrowDtype: 32-bit offsets where pandas' text takes 64)."""
    import pandas as pd

    def arrow_text(data_type: pa.DataType) -> pd.ArrowDtype | None:
        return pd.ArrowDtype(data_type) if pa.types.is_string(data_type) else None

    return table.to_pandas(self_destruct=True, split_blocks=True, types_mapper=arrow_text)
