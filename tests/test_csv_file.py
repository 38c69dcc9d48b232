"""A CSV file read from the disk (looked through block by block, then read by Arrow)
gives what its bytes give through standard input (held whole, decoded first): the same
table, or the same problems."""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest import mock

import pandas as pd
from hypothesis import example, given, settings
from hypothesis import strategies as st

from duplicate.errors import InvalidData
from duplicate.io import csv_file
from duplicate.io.read import read_raw
from duplicate.io.source import Source

# Pieces of files: the text of CSV files in the encodings users save, and bytes that
# are not text. UTF-8 characters are 3 bytes, so small looks split them.
PIECES = [
    b"a",
    b"7",
    b",",
    b"\n",
    b"\r\n",
    b"\r",
    b'"',
    b" ",
    "张伟".encode(),
    "李".encode("gb18030"),
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\x00",
    b"\xff",
    b"\xe5",  # the first byte of a 3-byte character, alone
]
HEADERS = [b"", b"deal,player\n", "牌副,牌手\r\n".encode(), b"\xef\xbb\xbfdeal,player\n"]


Outcome = tuple[pd.DataFrame | None, list[str], int]


def outcome(source: Source) -> Outcome:
    """The table read and its first row's number, or the problems found (named the
    same whatever the source)."""
    try:
        frame, first_row = read_raw(source)
    except InvalidData as error:
        return None, [str(p).replace(source.name, "FILE") for p in error.problems], 0
    return frame.astype(object).where(frame.notna(), None), [], first_row


def read_both_ways(data: bytes, look_bytes: int) -> tuple[Outcome, Outcome]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "upload.csv"
        path.write_bytes(data)
        with mock.patch.object(csv_file, "LOOK_BYTES", look_bytes):
            from_disk = outcome(Source(str(path), "csv"))
    return from_disk, outcome(Source("-", "csv", data))


def same(a: Outcome, b: Outcome) -> bool:
    (x, x_problems, x_first), (y, y_problems, y_first) = a, b
    if x is None or y is None:
        return x is y and x_problems == y_problems
    return x_first == y_first and list(x.columns) == list(y.columns) and x.equals(y)


@given(
    st.sampled_from(HEADERS),
    st.lists(st.sampled_from(PIECES), max_size=30),
    st.integers(1, 12),
)
@settings(max_examples=400, deadline=None)
@example(b"deal,player\n", ["张伟".encode(), b"\n"], 1)  # a character over every look
@example(b"", [b"\xff\xfe"], 4)  # UTF-16 by its BOM
@example(b"deal,player\n", [b"a", b"\x00"], 2)  # NUL after the first look
@example(b"deal,player\n", [b"a", "李".encode("gb18030")], 3)  # GB18030 after ASCII
@example(b"", [b" ", b"\n", b" "], 1)  # blank
def test_a_file_reads_as_its_bytes_do(header: bytes, pieces: list[bytes], look: int) -> None:
    from_disk, from_bytes = read_both_ways(header + b"".join(pieces), look)
    assert same(from_disk, from_bytes), (from_disk, from_bytes)


def test_a_header_longer_than_a_look_is_read() -> None:
    data = "牌副,牌手,得分\n1,张伟,10\n".encode()
    from_disk, from_bytes = read_both_ways(data, 4)
    assert same(from_disk, from_bytes)
    assert from_disk[0] is not None
    assert list(from_disk[0].columns) == ["牌副", "牌手", "得分"]


@given(
    st.integers(0, 6),
    st.sampled_from([b"\n", b"\r\n", b"\r"]),
    st.booleans(),
    st.integers(1, 12),
)
@settings(max_examples=200, deadline=None)
def test_the_row_limit_counts_every_row(
    rows: int, line_end: bytes, ends_last_line: bool, look: int
) -> None:
    """A file of n rows is read under a limit of n rows and refused under n - 1, with
    any line ends, the last line ended or not, from the disk or standard input."""
    lines = [b"deal,player", *(b"%d,p%d" % (i, i) for i in range(rows))]
    data = line_end.join(lines) + (line_end if ends_last_line else b"")

    def refused(max_rows: int, source: Source) -> bool:
        try:
            read_raw(source, max_rows=max_rows)
        except InvalidData as error:
            return any("rows read at once" in p.message for p in error.problems)
        return False

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "upload.csv"
        path.write_bytes(data)
        with mock.patch.object(csv_file, "LOOK_BYTES", look):
            for source in (Source(str(path), "csv"), Source("-", "csv", data)):
                assert not refused(rows, source)
                assert rows == 0 or refused(rows - 1, source)
