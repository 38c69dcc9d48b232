"""CSV files read by Arrow, every cell as text, in whatever encoding they came.

The usual upload, a UTF-8 file, is looked through block by block (its encoding, its
lines, its header) and then read by Arrow from the disk: its bytes are never held whole
beside the table they become. Standard input, a file in another encoding (UTF-16 by its
BOM, GB18030; Big5 refused) and a file read with --encoding are held whole and decoded
first.
"""

from __future__ import annotations

import codecs
import csv
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from duplicate.errors import InvalidData, Problem
from duplicate.io.source import Source, unreadable

FALLBACK_ENCODING = "gb18030"
UTF8_BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# Bytes of a file looked at at once, and parsed by Arrow at once.
LOOK_BYTES = 1 << 24
PARSE_BYTES = 1 << 24


@dataclass(frozen=True)
class CsvText:
    """A CSV file's UTF-8 text, ready for Arrow: where to read it, the header's names,
    and its line ends after the header (at least its rows)."""

    name: str
    header: list[str]
    lines: int
    stream: Callable[[], pa.NativeFile]


def csv_text(source: Source, encoding: str | None = None, data: bytes | None = None) -> CsvText:
    """The text of a CSV source (its bytes `data` if already read), decoded if needed.

    InvalidData if it is not text, not in a known encoding, or empty.
    """
    data = source.data if data is None else data
    if data is None and encoding is None:
        found = _utf8_file(source)
        if found is not None:
            return found
    if data is None:
        data = source.read_bytes()
    text = decode(data, source.name, encoding)
    if not text or text.isspace():
        raise InvalidData(
            [
                Problem(
                    source.name,
                    "is empty",
                    hint="give a header row and result rows",
                    code="input.empty",
                )
            ]
        )
    lines = _lines_after_header(_count_byte(text, b"\n"), _count_byte(text, b"\r"), text[-1:])
    return CsvText(source.name, _header(text, source.name), lines, lambda: pa.BufferReader(text))


def read_csv(text: CsvText) -> pa.Table:
    """Every column as Arrow's string (32-bit offsets): identifiers such as "007" keep
    their spelling, and bad numbers are reported by row instead of turning a whole
    column into text."""
    convert = pacsv.ConvertOptions(
        column_types={name: pa.string() for name in text.header},
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    try:
        with text.stream() as stream:  # a file opened from disk is closed after the read
            return pacsv.read_csv(
                stream,  # type: ignore[arg-type]
                read_options=pacsv.ReadOptions(block_size=PARSE_BYTES),
                parse_options=pacsv.ParseOptions(newlines_in_values=True),
                convert_options=convert,
            )
    except pa.ArrowInvalid as exc:
        raise InvalidData(
            [
                Problem(
                    text.name,
                    f"is not a well-formed CSV file: {exc}",
                    hint="every row needs as many fields as the header",
                    code="input.not-csv",
                )
            ]
        ) from None
    except OSError as exc:  # the file went away, or its disk failed, since it was looked at
        raise unreadable(text.name, exc) from None


def _utf8_file(source: Source) -> CsvText | None:
    """A file of UTF-8 text (a UTF-8 BOM allowed, which Arrow skips), looked through
    block by block; None when it is anything else, or blank: `decode` then says what
    it is, or reads it."""
    checker = codecs.getincrementaldecoder("utf-8")()
    ascii_so_far = blank = True
    line_feeds = returns = 0
    first = last = b""
    try:
        with open(source.given, "rb") as handle:
            start = handle.read(len(UTF8_BOM))
            if start.startswith(UTF16_BOMS):
                return None
            skip = len(start) if start == UTF8_BOM else 0
            handle.seek(skip)
            while block := handle.read(LOOK_BYTES):
                first, last = first or block, block[-1:]
                if b"\x00" in block:
                    return None
                # Once a block is not ASCII, every later one is decoded too (a
                # character may span two blocks).
                ascii_so_far = ascii_so_far and block.isascii()
                if not ascii_so_far:
                    checker.decode(block)
                blank = blank and block.isspace()
                line_feeds += _count_byte(block, b"\n")
                returns += _count_byte(block, b"\r")
            checker.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    except OSError as exc:
        raise unreadable(source.name, exc) from None
    ends_in_first = b"\n" in first or b"\r" in first
    if blank:
        return None
    if not (ends_in_first or len(first) < LOOK_BYTES):
        raise _long_header(source.name)
    lines = _lines_after_header(line_feeds, returns, last)
    return CsvText(source.name, _header(first, source.name), lines, _opener(source.given, skip))


def _lines_after_header(line_feeds: int, returns: int, last_byte: bytes) -> int:
    """The lines after the header, from the line ends of the text (LF, CRLF or a lone
    CR) and its last byte: a last line without an end is a line too."""
    ends = max(line_feeds, returns)
    return ends - 1 if last_byte in (b"\n", b"\r") else ends


def _count_byte(data: bytes, byte: bytes) -> int:
    """How often `byte` occurs in `data`: numpy compares a block at a time, where
    bytes.count goes byte by byte; a byte the data lacks (a file without carriage
    returns) is ruled out by one quick search."""
    if byte not in data:
        return 0
    values = np.frombuffer(data, dtype=np.uint8)
    return sum(
        int(np.count_nonzero(values[at : at + LOOK_BYTES] == ord(byte)))
        for at in range(0, len(values), LOOK_BYTES)
    )


def _opener(path: str, skip: int) -> Callable[[], pa.NativeFile]:
    """The file from byte `skip` on: Arrow sees what `decode` would give it."""

    def opened() -> pa.NativeFile:
        stream = pa.OSFile(path, "r")
        stream.seek(skip)
        return stream

    return opened


def _header(text: bytes, source: str) -> list[str]:
    """The names in the first line (a line ends at LF, CRLF or a lone CR, as Arrow reads
    it); InvalidData if a name is longer than the csv module reads (128 KiB) or the
    line longer than a block."""
    ends = [at for at in (text.find(b"\n"), text.find(b"\r")) if at >= 0]
    end = min(ends, default=len(text))
    if end > LOOK_BYTES:
        raise _long_header(source)
    first_line = text[:end].decode("utf-8")
    try:
        return next(csv.reader([first_line]), [])
    except csv.Error:
        limit = csv.field_size_limit()
        raise InvalidData(
            [
                Problem(
                    source,
                    f"its header (the first line) has a name of more than {limit:,} characters",
                    (1,),
                    hint="the first line must be the header: short column names such as "
                    "round, deal, seat, player, score",
                    code="input.long-header",
                )
            ]
        ) from None


def _long_header(source: str) -> InvalidData:
    return InvalidData(
        [
            Problem(
                source,
                f"its first line is longer than {LOOK_BYTES:,} bytes: it is not a header",
                (1,),
                hint="the first line must be the header: short column names such as "
                "round, deal, seat, player, score",
                code="input.long-header",
            )
        ]
    )


def decode(data: bytes, source: str, encoding: str | None) -> bytes:
    """UTF-8 bytes without a BOM: as given, or detected (UTF-8 or UTF-16 by their BOM,
    UTF-8, then GB18030 unless the text is Big5's)."""
    if encoding is not None:
        try:
            return data.decode(encoding).lstrip("\ufeff").encode("utf-8")
        except LookupError:
            raise InvalidData(
                [
                    Problem(
                        source,
                        f"unknown encoding {encoding!r}",
                        hint="try utf-8 or gb18030",
                        code="input.unknown-encoding",
                    )
                ]
            ) from None
        except UnicodeDecodeError as exc:
            row = data[: exc.start].count(b"\n") + 1
            raise InvalidData(
                [
                    Problem(
                        source,
                        f"is not valid {encoding}",
                        (row,),
                        hint="check {opt:encoding}",
                        code="input.encoding",
                    )
                ]
            ) from None
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]
    if data.startswith(UTF16_BOMS):
        return decode(data, source, "utf-16")
    if b"\x00" in data:
        raise InvalidData(
            [
                Problem(
                    source,
                    "is not text: it holds NUL bytes (binary, or UTF-16 without its BOM)",
                    hint="save it as UTF-8 CSV, or name its encoding ({opt:encoding})",
                    code="input.binary",
                )
            ]
        )
    if data.isascii():  # far quicker to ask than decoding: the usual file is ASCII
        return data
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode(FALLBACK_ENCODING)
    except UnicodeDecodeError as exc:
        raise InvalidData(
            [
                Problem(
                    source,
                    "is neither UTF-8 nor GB18030 text",
                    rows=(data[: exc.start].count(b"\n") + 1,),
                    hint="save it as UTF-8 CSV, or name its encoding ({opt:encoding})",
                    code="input.encoding",
                )
            ]
        ) from None
    if _NOT_IN_RESULTS.search(text) and _decodes(data, "cp950"):
        raise InvalidData(
            [
                Problem(
                    source,
                    "looks like Big5 (traditional Chinese), not GB18030: read as GB18030 it "
                    "holds characters no results file does (kana, Cyrillic, private use)",
                    hint="name its encoding: {opt:encoding=big5} "
                    "(or {opt:encoding=gb18030} if it is)",
                    code="input.big5",
                )
            ]
        )
    return text.encode("utf-8")


# Characters that Big5 bytes become when read as GB18030, and that no scorer's file of
# Chinese names holds: Greek, Cyrillic, box drawing, kana, bopomofo, private use.
_NOT_IN_RESULTS = re.compile("[\u0370-\u04ff\u2500-\u257f\u3040-\u30ff\u3100-\u312f\ue000-\uf8ff]")


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True
