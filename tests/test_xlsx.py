"""Excel workbooks in and out: an upload typed in a spreadsheet scores as its CSV does."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pandas as pd
import xlsxwriter
from python_calamine import CalamineWorkbook
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT

runner = CliRunner()
EVENT = ROOT / "sample_data" / "big2_event.csv"
HEADERS = {"round": "轮次", "deal": "牌副", "table": "桌号", "seat": "座位", "player": "选手"}


def run(*args: object) -> tuple[int, bytes, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout_bytes, result.stderr


def workbook(path: Path, sheets: dict[str, pd.DataFrame]) -> Path:
    """Sheets as a scorer types them: numbers as numbers, names as text."""
    with xlsxwriter.Workbook(str(path)) as book:
        for name, frame in sheets.items():
            sheet = book.add_worksheet(name)
            sheet.write_row(0, 0, list(frame.columns))
            for row, values in enumerate(frame.itertuples(index=False), start=1):
                sheet.write_row(row, 0, list(values))
    return path


def chinese_event() -> pd.DataFrame:
    event = pd.read_csv(EVENT)
    event["player"] = event["player"].str.replace("P", "选手")
    return event.rename(columns=HEADERS)


def test_a_workbook_scores_as_its_csv_does(tmp_path: Path) -> None:
    event = chinese_event()
    csv = tmp_path / "event.csv"
    event.to_csv(csv, index=False)
    book = workbook(tmp_path / "event.xlsx", {"第一轮": event})
    assert run("standings", book)[1] == run("standings", csv)[1]
    code, out, _ = run("score", book, "-o", "-")
    assert code == 0
    assert out == run("score", csv, "-o", "-")[1]


def test_a_sheet_is_chosen_by_name(tmp_path: Path) -> None:
    event = chinese_event()
    book = workbook(tmp_path / "event.xlsx", {"notes": event.head(0), "results": event})
    code, _, err = run("validate", book, "--sheet", "results")
    assert code == 0, err
    code, _, err = run("validate", book, "--sheet", "round 9")
    assert code == 1
    assert "has no sheet named 'round 9'; its sheets: notes, results" in err


def test_standings_as_a_workbook_are_typed_and_read_back(tmp_path: Path) -> None:
    out = tmp_path / "standings.xlsx"
    code, _, err = run("standings", EVENT, "-o", out)
    assert code == 0, err
    book = CalamineWorkbook.from_path(str(out))
    assert book.sheet_names == ["standings", "rules"]
    rows = book.get_sheet_by_name("standings").to_python()
    assert rows[0][:4] == ["section", "place", "player", "total"]
    # Numbers are numbers, text is text.
    assert (rows[1][1], rows[1][2], rows[1][3]) == (1.0, "P39", 67835.09)
    rules = book.get_sheet_by_name("rules").to_python()
    assert any("tie_ranking" in line[0] for line in rules)
    with zipfile.ZipFile(out) as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml").decode()
    assert 'state="frozen"' in sheet
    assert "<cols>" in sheet
    assert run("verify", EVENT, out)[0] == 0


def test_a_workbook_that_unpacks_into_gigabytes_is_refused(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (2**30 + 1))
    code, out, err = run("validate", bomb)
    assert (code, out) == (1, b"")
    assert "unpacks into 1,073,741,825 bytes" in err


def test_a_broken_workbook_is_refused_cleanly(tmp_path: Path) -> None:
    broken = tmp_path / "broken.xlsx"
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    broken.write_bytes(data.getvalue())
    code, _, err = run("score", broken)
    assert code == 1
    assert "is not a readable .xlsx workbook" in err
    assert "Traceback" not in err


def test_the_sheet_option_is_the_main_inputs_only(tmp_path: Path) -> None:
    """A players file beside a workbook is read as it is, whatever --sheet names."""
    event = chinese_event()
    book = workbook(tmp_path / "event.xlsx", {"notes": event.head(0), "results": event})
    players = tmp_path / "players.csv"
    players.write_text("player\n" + "\n".join(sorted(set(event["选手"]))) + "\n")
    code, _, err = run("seat", book, "--sheet", "results", "--players", players, "-k", "4")
    assert code == 0, err
