"""Printed material for the venue: table cards, a seating list and score cards as PDF,
read back by their text; a table card is kept as test-artifacts/printed-table-card.png."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pypdfium2 as pdfium
import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT

runner = CliRunner()
EVENT = ROOT / "sample_data" / "big2_event.csv"
NAMES = {"P17": "郭涛", "P39": "李娜", "P47": "王芳"}


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """Two rounds played, the third seated and published."""
    played = pd.read_csv(EVENT)
    players = pd.DataFrame({"player": sorted(played["player"].unique())})
    players["name"] = players["player"].map(NAMES).fillna("")
    players.to_csv(tmp_path / "players.csv", index=False)
    folder = tmp_path / "spring"
    code, _, err = run(
        "event", "init", folder, "--name", "春季杯", "--date", "2026-12-05",
        "--venue", "老年活动中心", "--game", "big2", "--table-size", "4",
        "--players", tmp_path / "players.csv",
    )  # fmt: skip
    assert code == 0, err
    for number in (1, 2):
        upload = tmp_path / f"round{number}.csv"
        played[played["round"] == number].to_csv(upload, index=False)
        assert run("event", "add", folder, upload)[0] == 0
    seating = folder / "seatings" / "round-0003.csv"
    code, _, err = run("seat", folder, "-k", "4", "-o", seating)
    assert code == 0, err
    return folder


def pages(path: Path) -> list[str]:
    document = pdfium.PdfDocument(str(path))
    return [page.get_textpage().get_text_range() for page in document]


def test_table_cards_one_page_per_table(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "tables.pdf"
    code, _, err = run("print", event, "--what", "table-cards", "-o", out)
    assert code == 0, err
    text = pages(out)
    assert len(text) == 12  # 48 players at tables of 4
    seating = pd.read_csv(event / "seatings" / "round-0003.csv")
    for table, group in seating.groupby("table"):
        page = next(p for p in text if f"Table {table}\r\n" in p)
        for player in group["player"]:
            assert player in page
    assert all("春季杯 · 2026-12-05 · 老年活动中心" in page for page in text)
    assert "郭涛" in "".join(text)
    # One page as an image: dark glyphs on white, in the page's upper half.
    image = pdfium.PdfDocument(str(out))[0].render(scale=1).to_pil().convert("L")
    # Kept for a person to look at, as the report's screenshot is.
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    image.save(ROOT / "test-artifacts" / "printed-table-card.png")
    width, height = image.size
    histogram = image.crop((0, 0, width, height // 2)).histogram()
    assert sum(histogram[:128]) > 500


def test_a_seating_list_by_name(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "seating.pdf"
    assert run("print", event, "--what", "seating-list", "-o", out)[0] == 0
    text = "".join(pages(out))
    seating = pd.read_csv(event / "seatings" / "round-0003.csv")
    row = seating[seating["player"] == "P17"].iloc[0]
    assert f"P17 郭涛 第 {row['table']} 桌 Table {row['table']} 座位 Seat {row['seat']}" in text


def test_score_cards_show_each_deal_and_the_total(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "cards.pdf"
    assert run("print", event, "--what", "score-cards", "-o", out)[0] == 0
    text = pages(out)
    assert len(text) == 48
    standings = pd.read_csv(
        io.StringIO(run("standings", event)[1]), dtype=str, keep_default_na=False
    )
    first = standings.iloc[0]
    assert f"{first['player']}" in text[0]
    assert f"总分 Total {first['total']}" in text[0]
    card = next(page for page in text if "P39 李娜" in page)
    assert card.count("\r\n1 ") + card.count("\r\n2 ") == 16  # 16 deals played


def test_printing_needs_an_event_and_a_published_seating(tmp_path: Path) -> None:
    code, _, err = run("print", tmp_path, "--what", "table-cards", "-o", tmp_path / "x.pdf")
    assert code == 2
    assert "is not an event folder" in err


def test_the_event_log_chains_every_publication(event: Path, tmp_path: Path) -> None:
    import json

    out = tmp_path / "tables.pdf"
    assert run("print", event, "--what", "table-cards", "-o", out)[0] == 0
    assert run("report", event, "-o", tmp_path / "site")[0] == 0
    entries = [json.loads(line) for line in (event / "log.jsonl").read_text().splitlines()]
    assert [e["action"] for e in entries] == [
        "init",
        "add",
        "add",
        "seating",
        "print table-cards",
        "report",
    ]
    import hashlib

    assert entries[4]["outputs"] == [
        {"path": str(out), "sha256": hashlib.sha256(out.read_bytes()).hexdigest()}
    ]
    status = json.loads(run("event", "status", event)[1])
    assert status["log"] == {"entries": 6, "chain_intact": True}
