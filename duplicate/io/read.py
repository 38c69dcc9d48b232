"""Read result files (CSV in UTF-8 or GB18030, or Parquet) into validated Results."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from duplicate.errors import InputOutputError, InvalidData, Problem
from duplicate.io.source import STDIN, Source, dataset_files, resolve
from duplicate.model.adjustments import Adjustments, parse_adjustments
from duplicate.model.results import Results, parse_results

FALLBACK_ENCODING = "gb18030"


def source_name(path: str | Path | Source) -> str:
    """How messages name an input."""
    if isinstance(path, Source):
        return path.name
    return "<stdin>" if str(path) == STDIN else str(path)


def sha256_of(path: str | Path | Source) -> str:
    """The sha256 of an input: the file as it is now, or what standard input gave."""
    return resolve(path).sha256()


def read_raw(path: str | Path | Source, encoding: str | None = None) -> tuple[pd.DataFrame, int]:
    """The table as stored, every CSV cell as text, and the row number of its first row.

    A directory is read as one dataset of Parquet files (say, partitioned by round).
    """
    source = resolve(path)
    if source.kind == "csv":
        return _read_csv(source.read_bytes(), source.name, encoding), 2
    return _to_pandas(_read_parquet(source)), 1


def read_results(
    path: str | Path | Source,
    encoding: str | None = None,
    deal_scope: str = "round",
    check_structure: bool = True,
) -> Results:
    """Read and validate a results file; raise InvalidData listing every problem.

    With `check_structure` False, seating and duplication are left to check_results.
    """
    source = resolve(path)
    raw, first_row = read_raw(source, encoding)
    return parse_results(
        raw,
        source.name,
        first_row,
        deal_scope,
        check_structure=check_structure,
        # The table read is ours: each text column goes once it is parsed.
        consume=True,
    )


def read_adjustments(path: str | Path | Source, encoding: str | None = None) -> Adjustments:
    """Read and validate an adjustments file (round, deal, player, kind, value, reason)."""
    raw, first_row = read_raw(path, encoding)
    return parse_adjustments(raw, source_name(path), first_row)


def read_published(path: str | Path | Source, encoding: str | None = None) -> pd.DataFrame:
    """A table as `duplicate` writes it: CSV, Parquet, or JSON ({"standings": [...]})."""
    source = resolve(path)
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
    return _read_csv(data, source.name, encoding)


def _read_parquet(source: Source) -> pa.Table:
    try:
        if source.kind == "dataset":
            if not dataset_files(Path(source.given)):
                raise InputOutputError(f"{source.given}: a directory with no .parquet files")
            # One read of every file, straight into one table (partition columns included).
            return pq.read_table(source.given)
        if source.data is not None:
            return pq.read_table(pa.BufferReader(source.data))
        # Mapped, not read into memory first: a big file is not held twice.
        return pq.read_table(pa.memory_map(source.given))
    except (pa.ArrowException, OSError) as exc:
        what = "dataset" if source.kind == "dataset" else "file"
        raise InvalidData(
            [Problem(source.name, f"is not a readable Parquet {what} ({exc})")]
        ) from None


def _to_pandas(table: pa.Table) -> pd.DataFrame:
    # Arrow buffers are released as they convert: the file is not held twice.
    return table.to_pandas(self_destruct=True, split_blocks=True)


def _decode(data: bytes, source: str, encoding: str | None) -> bytes:
    """UTF-8 bytes without a BOM: as given, or detected (UTF-8, then GB18030)."""
    if encoding is not None:
        try:
            return data.decode(encoding).lstrip("\ufeff").encode("utf-8")
        except LookupError:
            raise InvalidData(
                [Problem(source, f"unknown encoding {encoding!r}", hint="try utf-8 or gb18030")]
            ) from None
        except UnicodeDecodeError as exc:
            row = data[: exc.start].count(b"\n") + 1
            raise InvalidData(
                [Problem(source, f"is not valid {encoding}", (row,), hint="check --encoding")]
            ) from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.isascii():  # far quicker to ask than decoding: the usual file is ASCII
        return data
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        pass
    try:
        return data.decode(FALLBACK_ENCODING).encode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidData(
            [
                Problem(
                    source,
                    "is neither UTF-8 nor GB18030 text",
                    rows=(data[: exc.start].count(b"\n") + 1,),
                    hint="save it as UTF-8 CSV, or name its encoding with --encoding",
                )
            ]
        ) from None


def _read_csv(data: bytes, source: str, encoding: str | None) -> pd.DataFrame:
    text = _decode(data, source, encoding)
    if not text.strip():
        raise InvalidData([Problem(source, "is empty", hint="give a header row and result rows")])
    # A line ends at LF, CRLF or a lone CR (old Mac files), as Arrow reads it.
    ends = [at for at in (text.find(b"\n"), text.find(b"\r")) if at >= 0]
    first_line = text[: min(ends, default=len(text))].decode("utf-8")
    header = next(csv.reader([first_line]), [])
    # Every column as text: identifiers such as "007" keep their spelling, and bad
    # numbers are reported by row instead of turning a whole column into text.
    convert = pacsv.ConvertOptions(
        # large_string: what pandas holds text in, so that to_pandas copies nothing.
        column_types={name: pa.large_string() for name in header},
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    try:
        table = pacsv.read_csv(
            pa.BufferReader(text),  # type: ignore[arg-type]
            read_options=pacsv.ReadOptions(block_size=1 << 24),
            parse_options=pacsv.ParseOptions(newlines_in_values=True),
            convert_options=convert,
        )
    except pa.ArrowInvalid as exc:
        raise InvalidData(
            [
                Problem(
                    source,
                    f"is not a well-formed CSV file: {exc}",
                    hint="every row needs as many fields as the header",
                )
            ]
        ) from None
    # Arrow buffers are released as they convert: the file is not held twice.
    return table.to_pandas(self_destruct=True, split_blocks=True)
