"""A CSV file read from the disk gives what its bytes give through standard input: the
same table, or the same problems; small files, and files larger than the reader takes
in one look (16 MiB), with a character split by the look, a NUL byte past it, or a
header longer than it."""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from duplicate import InvalidData
from duplicate.io.read import read_raw

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


# A problem: its code, and its text (to compare a file's problems read two ways).
Outcome = tuple[pd.DataFrame | None, list[tuple[str, str]], int]

# The bytes a reader takes in one look at a file.
LOOK = 1 << 24


def outcome(given: str, data: bytes, max_rows: int | None = None) -> Outcome:
    """The table read_raw reads from `given` (a file, or '-' for `data` on standard
    input) and its first row's number, or the problems found (named the same whatever
    the source)."""
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        frame, first_row = read_raw(given, max_rows=max_rows)
    except InvalidData as error:
        name = "<stdin>" if given == "-" else given
        return None, [(p.code, str(p).replace(name, "FILE")) for p in error.problems], 0
    finally:
        sys.stdin = saved
    return frame.astype(object).where(frame.notna(), None), [], first_row


def read_both_ways(data: bytes, max_rows: int | None = None) -> tuple[Outcome, Outcome]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "upload.csv"
        path.write_bytes(data)
        from_disk = outcome(str(path), b"", max_rows)
    return from_disk, outcome("-", data, max_rows)


def same(a: Outcome, b: Outcome) -> bool:
    (x, x_problems, x_first), (y, y_problems, y_first) = a, b
    if x is None or y is None:
        return x is y and x_problems == y_problems
    return x_first == y_first and list(x.columns) == list(y.columns) and x.equals(y)


@given(
    st.sampled_from(HEADERS),
    st.lists(st.sampled_from(PIECES), max_size=30),
)
@settings(max_examples=400, deadline=None)
@example(b"deal,player\n", ["张伟".encode(), b"\n"])
@example(b"", [b"\xff\xfe"])  # UTF-16 by its BOM
@example(b"deal,player\n", [b"a", b"\x00"])  # NUL after text
@example(b"deal,player\n", [b"a", "李".encode("gb18030")])  # GB18030 after ASCII
@example(b"", [b" ", b"\n", b" "])  # blank
def test_a_file_reads_as_its_bytes_do(header: bytes, pieces: list[bytes]) -> None:
    from_disk, from_bytes = read_both_ways(header + b"".join(pieces))
    assert same(from_disk, from_bytes), (from_disk, from_bytes)


def padded_to_a_look(header: bytes, at: int, tail: bytes) -> bytes:
    """`header`, rows of padding, then `tail` starting `at` bytes from the end of the
    reader's first look (a UTF-8 BOM at the start is not counted in it)."""
    start = len(header) - (3 if header.startswith(b"\xef\xbb\xbf") else 0)
    rows, room = [], LOOK - at - start
    while room > 0:
        width = min(room, 1 << 20) - 3
        rows.append(b"1," + b"x" * max(width, 0) + header[-1:])  # the header's line end
        room -= len(rows[-1])
    data = header + b"".join(rows)
    return data[: len(header) + LOOK - at - start] + tail


@pytest.mark.parametrize(
    ("header", "at", "tail", "expected"),
    [
        # A character over the end of the first look, after ASCII only.
        (b"deal,player\n", 3, "1,张伟\n".encode(), "table"),
        (b"\xef\xbb\xbfdeal,player\n", 4, "1,张伟\n".encode(), "table"),
        # NUL bytes after the first look: not text.
        (b"deal,player\n", -2, b"1,a\x00\n", "input.binary"),
        # Lines ended by a lone CR, the last one unended.
        (b"deal,player\r", 0, b"1,a\r2,b", "table"),
    ],
    ids=["character split", "character split after a BOM", "NUL", "CR"],
)
def test_a_file_larger_than_a_look_reads_as_its_bytes_do(
    header: bytes, at: int, tail: bytes, expected: str
) -> None:
    data = padded_to_a_look(header, at, tail)
    from_disk, from_bytes = read_both_ways(data)
    assert same(from_disk, from_bytes)
    if expected == "table":
        assert from_disk[0] is not None
        assert list(from_disk[0].columns) == ["deal", "player"]
        assert from_disk[0]["player"].iloc[-1] == tail.split(b",")[-1].strip().decode()
    else:
        assert [code for code, _ in from_disk[1]] == [expected]
    if expected == "table" and header.endswith(b"\r"):
        rows = len(from_disk[0])
        assert outcome_refused(data, rows - 1)
        assert not outcome_refused(data, rows)


def outcome_refused(data: bytes, max_rows: int) -> bool:
    """Whether the row limit refuses `data` (from the disk and from standard input)."""
    refused = [
        any(code == "input.too-many-rows" for code, _ in problems)
        for _, problems, _ in read_both_ways(data, max_rows)
    ]
    assert refused[0] == refused[1]
    return refused[0]


def test_a_header_longer_than_a_look_is_refused_alike() -> None:
    """More than a look of names (each under the 128 KiB a name may have): as long as a
    row may be, so a clean problem from the disk and from standard input alike: a first
    line that long is no header."""
    names = [f"c{i:03d}" + "x" * 100_000 for i in range(170)]
    data = (",".join(names) + "\n" + ",".join(["1"] * len(names)) + "\n").encode()
    assert len(data) > LOOK
    from_disk, from_bytes = read_both_ways(data)
    assert same(from_disk, from_bytes)
    assert [code for code, _ in from_disk[1]] == ["input.long-header"]


@given(
    st.integers(0, 6),
    st.sampled_from([b"\n", b"\r\n", b"\r"]),
    st.booleans(),
)
@settings(max_examples=100, deadline=None)
def test_the_row_limit_counts_every_row(rows: int, line_end: bytes, ends_last_line: bool) -> None:
    """A file of n rows is read under a limit of n rows and refused under n - 1, with
    any line ends, the last line ended or not, from the disk or standard input."""
    lines = [b"deal,player", *(b"%d,p%d" % (i, i) for i in range(rows))]
    data = line_end.join(lines) + (line_end if ends_last_line else b"")
    assert not outcome_refused(data, rows)
    assert rows == 0 or outcome_refused(data, rows - 1)
