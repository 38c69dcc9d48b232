""".xlsx workbooks that must be refused rather than guessed at, and workbooks built to
exhaust the reader: each is read as a scorer's upload would be, and either scores as
its CSV twin does or is refused with a code, in bounded time and memory."""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT
from tests.xlsx_parts import Book, spec_book, spec_grid, zip_of

runner = CliRunner()
SPEC = ROOT / "sample_data" / "spec_example.csv"
# Address space a hostile workbook's run may take (the reader's own needs fit easily).
MEMORY = 2 * 1024**3


def run(*args: object) -> tuple[int, bytes, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout_bytes, result.stderr


def standings_of(path: Path, *options: str) -> tuple[int, bytes, str]:
    return run("standings", path, "-f", "csv", "-o", "-", *options)


def csv_standings() -> bytes:
    code, out, err = standings_of(SPEC)
    assert code == 0, err
    return out


def written(tmp_path: Path, data: bytes, name: str = "upload.xlsx") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def bounded(*args: object, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    """The command in a process of its own, its memory capped (a reader that allocated
    without bound would abort the process, not raise)."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run(
        [sys.executable, "-m", "duplicate", *(str(a) for a in args)],
        capture_output=True,
        timeout=timeout,
        preexec_fn=cap,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )


def refused_cleanly(result: subprocess.CompletedProcess[bytes], code: str) -> None:
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 1, (result.returncode, err[-2000:])
    assert f"error[{code}]" in err
    assert "Traceback" not in err
    assert "panicked" not in err


# -- what is read ---------------------------------------------------------------------


def test_a_built_workbook_scores_as_its_csv(tmp_path: Path) -> None:
    """The parts these tests build make a workbook that reads as the CSV file does
    (elements with a namespace prefix too, as some programs write them)."""
    assert standings_of(written(tmp_path, spec_book().data()))[1] == csv_standings()
    prefixed = written(tmp_path, spec_book().data("x:"), "prefixed.xlsx")
    assert standings_of(prefixed)[1] == csv_standings()


@pytest.mark.parametrize("state", ["hidden", "veryHidden"])
def test_a_hidden_first_sheet_is_never_read_unless_named(tmp_path: Path, state: str) -> None:
    book = Book()
    stale = [[*row[:3], "999", *row[4:]] if at else row for at, row in enumerate(spec_grid())]
    book.add("old", book.grid_xml(stale), state=state)
    book.add("results", book.grid_xml(spec_grid()))
    path = written(tmp_path, book.data())
    assert standings_of(path) == (0, csv_standings(), "")
    # Named exactly, the hidden sheet is read.
    code, out, _ = standings_of(path, "--sheet", "old")
    assert code == 0
    assert out != csv_standings()


def test_a_workbook_of_hidden_sheets_only_is_refused(tmp_path: Path) -> None:
    book = Book()
    book.add("results", book.grid_xml(spec_grid()), state="hidden")
    code, out, err = standings_of(written(tmp_path, book.data()))
    assert (code, out) == (1, b"")
    assert "error[input.no-sheet]" in err


def test_a_repeated_header_is_refused_as_the_csv_twin_is(tmp_path: Path) -> None:
    grid = [[*row, row[3]] for row in spec_grid()]
    grid[1][-1] = "0"
    book = Book()
    book.add("results", book.grid_xml(grid))
    twin = tmp_path / "twin.csv"
    twin.write_text("\n".join(",".join(row) for row in grid) + "\n")
    for path in (written(tmp_path, book.data()), twin):
        code, out, err = standings_of(path)
        assert (code, out) == (1, b""), err
        assert "error[column.repeated]" in err


def test_a_formula_cell_is_refused_unless_its_saved_result_is_asked_for(tmp_path: Path) -> None:
    # D2 holds the first row's score, 15, saved beside a formula that does not give it.
    path = written(tmp_path, spec_book(formulas="D2").data())
    code, out, err = standings_of(path)
    assert (code, out) == (1, b"")
    assert "error[input.formula]" in err
    assert "D2" in err
    code, out, err = standings_of(path, "--formulas", "cached")
    assert (code, out) == (0, csv_standings())
    assert "warning[input.formula-cached]" in err
    assert "D2" in err


def test_an_escaped_nul_in_a_player_id_is_refused(tmp_path: Path) -> None:
    grid = spec_grid()
    grid[1][2] = "P_x0000_1"
    book = Book()
    book.add("results", book.grid_xml(grid))
    code, out, err = standings_of(written(tmp_path, book.data()))
    assert (code, out) == (1, b"")
    assert "error[input.control-character]" in err


@pytest.mark.parametrize("index", ["x", " 1", "+1", "99999999999999999999"])
def test_a_cell_naming_no_shared_string_is_refused(tmp_path: Path, index: str) -> None:
    """calamine would read it as the first string (the header's 'deal')."""
    book = spec_book()
    parts = book.parts()
    sheet = parts["xl/worksheets/sheet1.xml"]
    first = book.string("P1")
    parts["xl/worksheets/sheet1.xml"] = sheet.replace(
        f't="s"><v>{first}</v>', f't="s"><v>{index}</v>', 1
    )
    code, out, err = standings_of(written(tmp_path, zip_of(dict(parts))))
    assert (code, out) == (1, b"")
    assert "error[input.not-xlsx]" in err


def test_rows_are_numbered_as_the_sheet_shows_them(tmp_path: Path) -> None:
    """Three blank rows above the header: the bad score in the second result row is on
    the sheet's row 6."""
    grid = spec_grid()
    grid[2][3] = "abc"
    book = Book()
    book.add("results", book.grid_xml(grid, first_row=4))
    code, _, err = run("validate", written(tmp_path, book.data()))
    assert code == 1
    assert "row 6" in err
    assert "row 3," not in err


def test_a_zip_name_marked_utf8_that_is_not_is_refused(tmp_path: Path) -> None:
    data = bytearray(zip_of({**spec_book().parts(), "xl/media/QQQQ.bin": "x"}))
    # Flag the name as UTF-8 (bit 11) in both headers, and make it not UTF-8.
    for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(signature)
        while at >= 0:
            flags = struct.unpack_from("<H", data, at + flags_at)[0]
            struct.pack_into("<H", data, at + flags_at, flags | 0x800)
            at = data.find(signature, at + 4)
    data = bytearray(bytes(data).replace(b"QQQQ", b"\xff\xfe\xfd\xfc"))
    code, out, err = standings_of(written(tmp_path, bytes(data)))
    assert (code, out) == (1, b"")
    assert "error[input.not-xlsx]" in err
    assert "Traceback" not in err


# -- bounded before calamine reads ----------------------------------------------------


def test_a_cell_at_the_last_cell_of_a_sheet_is_refused_without_allocating(
    tmp_path: Path,
) -> None:
    book = Book()
    far = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    book.add("results", book.grid_xml(spec_grid(), extra=far))
    refused_cleanly(bounded("standings", written(tmp_path, book.data())), "input.too-large")


def test_a_declared_count_of_billions_of_strings_is_refused(tmp_path: Path) -> None:
    book = spec_book()
    book.sst_attributes = 'count="4000000000" uniqueCount="4000000000"'
    refused_cleanly(bounded("standings", written(tmp_path, book.data())), "input.not-xlsx")


def test_a_long_shared_string_named_by_many_cells_is_refused(tmp_path: Path) -> None:
    """A kilobyte archive: one string of a million characters, named by 400 cells."""
    book = Book()
    long = book.string("x" * 1_000_000)
    cells = "".join(f'<c r="F{row}" t="s"><v>{long}</v></c>' for row in range(2, 402))
    book.add("results", book.grid_xml(spec_grid()) + f'<row r="402">{cells}</row>')
    path = written(tmp_path, book.data())
    assert path.stat().st_size < 100_000
    refused_cleanly(bounded("standings", path), "input.too-large")


def test_a_part_stored_twice_under_one_name_is_refused(tmp_path: Path) -> None:
    """Names alike but for case: which one calamine reads is not for the reader to
    guess (here the second declares billions of strings)."""
    parts = spec_book().parts()
    twin = parts["xl/sharedStrings.xml"].replace('uniqueCount="', 'uniqueCount="4000000000" x="')
    data = zip_of({**parts, "xl/SharedStrings.xml": twin})
    refused_cleanly(bounded("standings", written(tmp_path, data)), "input.not-xlsx")


def test_rows_past_max_rows_are_refused_before_they_are_read(tmp_path: Path) -> None:
    """Four million rows in a few megabytes: refused once past the limit, not after
    calamine has read them all (a minute, and gigabytes)."""
    book = spec_book()
    parts = book.parts()
    sheet = parts.pop("xl/worksheets/sheet1.xml")
    head, tail = sheet.split("</sheetData>")
    path = tmp_path / "rows.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as stream:
            stream.write(head.encode())
            for _ in range(400):
                stream.write(b"<row><c><v>1</v></c></row>" * 10_000)
            stream.write(("</sheetData>" + tail).encode())
    assert path.stat().st_size < 5_000_000
    started = time.monotonic()
    result = bounded("--max-rows", "1000", "standings", path)
    refused_cleanly(result, "input.too-many-rows")
    assert time.monotonic() - started < 20


@pytest.mark.slow
def test_more_rows_than_a_sheet_holds_are_refused(tmp_path: Path) -> None:
    """Rows without numbers: as many as the archive holds, past Excel's 1,048,576."""
    rows = "<row><c><v>1</v></c></row>" * 1_048_577
    book = Book()
    book.add("results", rows)
    result = bounded("--max-rows", "0", "standings", written(tmp_path, book.data()))
    refused_cleanly(result, "input.not-xlsx")
