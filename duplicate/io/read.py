"""Read result files (CSV in UTF-8 or GB18030, or Parquet) into validated Results."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sys
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from duplicate.core.adjustments import Adjustments, parse_adjustments
from duplicate.core.results import Results, parse_results
from duplicate.errors import InputOutputError, InvalidData, Problem
from duplicate.io.memory import release_freed_memory
from duplicate.io.parquet_columns import PARQUET_MAGIC, is_parquet, read_number_columns

FALLBACK_ENCODING = "gb18030"


def source_name(path: str | Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


# sha256 of what was read from standard input: it cannot be read again for a manifest.
_stdin_sha256: list[str] = []


def read_bytes(path: str | Path) -> bytes:
    """The whole file, or standard input for '-'."""
    if str(path) == "-":
        data = sys.stdin.buffer.read()
        _stdin_sha256[:] = [hashlib.sha256(data).hexdigest()]
        return data
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputOutputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputOutputError(f"{path}: is a directory, not a results file") from None
    except OSError as exc:
        raise InputOutputError(f"{path}: cannot read: {exc.strerror or exc}") from None


def sha256_of(path: str | Path) -> str:
    """The sha256 of an input: the file as it is now, or what standard input gave."""
    if str(path) == "-":
        return _stdin_sha256[0] if _stdin_sha256 else ""
    if Path(path).is_dir():
        files = sorted(p for p in Path(path).rglob("*.parquet") if p.is_file())
        named = {str(f.relative_to(path)): sha256_of(f) for f in files}
        return hashlib.sha256(file_listing(named)).hexdigest()
    return hashlib.sha256(read_bytes(path)).hexdigest()


def file_listing(named_hashes: dict[str, str]) -> bytes:
    """A set of files as one text: each relative path and sha256, in path order.

    Its own sha256 names the set: a Parquet dataset read, or a report's site written.
    """
    return b"".join(f"{name}\0{digest}\n".encode() for name, digest in sorted(named_hashes.items()))


def read_raw(path: str | Path, encoding: str | None = None) -> tuple[pd.DataFrame, int]:
    """The table as stored, every CSV cell as text, and the row number of its first row.

    A directory is read as one dataset of Parquet files (say, partitioned by round).
    """
    if str(path) != "-" and Path(path).is_dir():
        return _read_parquet_directory(Path(path)), 1
    if is_parquet(path):
        # Mapped, not read into memory first: a big file is not held twice.
        return _read_parquet(str(path), source_name(path)), 1
    data = read_bytes(path)
    source = source_name(path)
    if data.startswith(PARQUET_MAGIC):
        return _read_parquet(data, source), 1
    return _read_csv(data, source, encoding), 2


def read_results(
    path: str | Path,
    encoding: str | None = None,
    deal_scope: str = "round",
    check_structure: bool = True,
) -> Results:
    """Read and validate a results file; raise InvalidData listing every problem.

    With `check_structure` False, seating and duplication are left to check_results.
    """
    raw, first_row = read_raw(path, encoding)
    # Text read from CSV is let go column by column; Parquet's numbers are kept as read.
    let_go = None if is_parquet(path) else release_freed_memory
    return parse_results(
        raw,
        source_name(path),
        first_row,
        deal_scope,
        check_structure=check_structure,
        let_go=let_go,
    )


def read_adjustments(path: str | Path, encoding: str | None = None) -> Adjustments:
    """Read and validate an adjustments file (round, deal, player, kind, value, reason)."""
    raw, first_row = read_raw(path, encoding)
    return parse_adjustments(raw, source_name(path), first_row)


def read_published(path: str | Path, encoding: str | None = None) -> pd.DataFrame:
    """A table as `duplicate` writes it: CSV, Parquet, or JSON ({"standings": [...]})."""
    data = read_bytes(path)
    source = source_name(path)
    if data.lstrip()[:1] == b"{":
        try:
            # Decimals, so that published numbers compare exactly.
            document = json.loads(data, parse_float=Decimal)
        except ValueError as exc:
            raise InvalidData([Problem(source, f"is not valid JSON ({exc})")]) from None
        rows = document.get("standings") if isinstance(document, dict) else None
        if not isinstance(rows, list):
            raise InvalidData(
                [
                    Problem(
                        source, "has no 'standings' list", hint="give a file written by standings"
                    )
                ]
            )
        return pd.DataFrame(rows)
    if data.startswith(PARQUET_MAGIC):
        return _read_parquet(data, source)
    return _read_csv(data, source, encoding)


def _read_parquet_directory(path: Path) -> pd.DataFrame:
    files = sorted(p for p in path.rglob("*.parquet") if p.is_file())
    if not files:
        raise InputOutputError(f"{path}: a directory with no .parquet files")
    try:
        # One read of every file, straight into one table (partition columns included).
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as exc:
        raise InvalidData(
            [Problem(str(path), f"is not a readable Parquet dataset ({exc})")]
        ) from None
    # Arrow buffers are released as they convert: the file is not held twice.
    return table.to_pandas(self_destruct=True, split_blocks=True)


def _read_parquet(data: bytes | str, source: str) -> pd.DataFrame:
    """A Parquet file's table, from its bytes or, memory-mapped, from its path."""
    try:
        if isinstance(data, str):
            frame = _read_parquet_file(data)
            if frame is not None:
                return frame
            table = pq.read_table(pa.memory_map(data))
        else:
            table = pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as exc:
        raise InvalidData([Problem(source, f"is not a readable Parquet file ({exc})")]) from None
    # Arrow buffers are released as they convert: the file is not held twice.
    return table.to_pandas(self_destruct=True, split_blocks=True)


def _read_parquet_file(path: str) -> pd.DataFrame | None:
    """The file's table as Arrow's to_pandas gives it, its number columns read in
    parallel (see read_number_columns); None when only to_pandas reads it right."""
    read = read_number_columns(path)
    if read is None:
        return None
    others = read.others
    rest = pq.read_table(pa.memory_map(path), columns=others) if others else pa.table({})
    text = rest.to_pandas(self_destruct=True, split_blocks=True)
    frame = {name: text[name] if name in others else read.numbers[name] for name in read.names}
    return pd.DataFrame(frame, copy=False)


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
    first_line = text[: text.find(b"\n") + 1 or len(text)].decode("utf-8")
    header = next(csv.reader(io.StringIO(first_line)))
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
