"""A whole event played through its folder, as a scorer runs it: init, seat round 1,
add each round's .xlsx upload (one corrected with --replace), standings, seat the next
round, ..., the report, and the printed cards."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pypdfium2 as pdfium
import xlsxwriter
from typer.testing import CliRunner

from duplicate.cli import app

runner = CliRunner()
NAMES = ["郭涛", "李娜", "王芳", "张伟", "刘洋", "陈静", "杨磊", "赵敏"]
PLAYERS = [f"P{i:02d}" for i in range(1, 17)]
DEALS_PER_ROUND = 4


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def played(seating: Path, round_number: int, seed: int) -> pd.DataFrame:
    """The round as the tables played it: the published seats, zero-sum scores."""
    seats = pd.read_csv(seating, dtype=str)
    rng = np.random.default_rng(seed)
    rows = []
    for deal in range(1, DEALS_PER_ROUND + 1):
        for _, table in seats.groupby("table"):
            scores = rng.integers(-60, 60, size=len(table) - 1).tolist()
            scores.append(-sum(scores))
            for (_, seat), score in zip(table.iterrows(), scores, strict=True):
                number = (round_number - 1) * DEALS_PER_ROUND + deal
                rows.append(
                    [round_number, number, seat["table"], seat["seat"], seat["player"], score]
                )
    return pd.DataFrame(rows, columns=["轮次", "牌副", "桌号", "座位", "选手", "得分"])


def as_workbook(frame: pd.DataFrame, path: Path) -> Path:
    with xlsxwriter.Workbook(str(path)) as book:
        sheet = book.add_worksheet("成绩")
        sheet.write_row(0, 0, list(frame.columns))
        for row, values in enumerate(frame.itertuples(index=False), start=1):
            sheet.write_row(row, 0, [int(v) if str(v).lstrip("-").isdigit() else v for v in values])
    return path


def test_a_three_round_event_through_its_folder(tmp_path: Path) -> None:
    players = pd.DataFrame({"player": PLAYERS, "name": NAMES + [""] * (len(PLAYERS) - len(NAMES))})
    players.to_csv(tmp_path / "players.csv", index=False)
    event = tmp_path / "spring"
    code, _, err = run(
        "event", "init", event, "--name", "春季杯", "--date", "2026-12-05", "--venue", "俱乐部",
        "--game", "big2", "--table-size", "4", "--players", tmp_path / "players.csv",
    )  # fmt: skip
    assert code == 0, err
    seating = event / "seatings" / "round-0001.csv"
    code, _, err = run("seat", event, "--round", "1", "--seed", "2026", "-o", seating)
    assert code == 0, err
    for number in (1, 2, 3):
        upload = as_workbook(played(seating, number, number), tmp_path / f"round{number}.xlsx")
        if number == 2:
            # First sent with a mistyped score, then corrected.
            wrong = played(seating, number, number)
            wrong.loc[0, "得分"] = 999
            bad = as_workbook(wrong, tmp_path / "round2-wrong.xlsx")
            assert run("event", "add", event, bad)[0] == 0
            code, _, err = run("event", "add", event, upload, "--replace")
        else:
            code, _, err = run("event", "add", event, upload)
        assert code == 0, err
        code, out, err = run("standings", event)
        assert code == 0, err
        assert len(pd.read_csv(io.StringIO(out))) == len(PLAYERS)
        seating = event / "seatings" / f"round-{number + 1:04d}.csv"
        code, _, err = run("seat", event, "-k", "4", "-o", seating)
        assert code == 0, err
    # The standings from the folder are those of the rounds' uploads together.
    together = pd.concat(
        [played(event / "seatings" / f"round-{n:04d}.csv", n, n) for n in (1, 2, 3)]
    )
    together.to_csv(tmp_path / "all.csv", index=False)
    # The folder's players file names the players in its standings.
    alone = run("standings", tmp_path / "all.csv", "--players", tmp_path / "players.csv")
    assert run("standings", event)[1] == alone[1]
    site = tmp_path / "site"
    assert run("report", event, "-o", site, "--lang", "zh")[0] == 0
    assert "春季杯 · 2026-12-05 · 俱乐部" in (site / "index.html").read_text()
    cards = tmp_path / "cards.pdf"
    assert run("print", event, "--what", "score-cards", "-o", cards)[0] == 0
    text = "".join(p.get_textpage().get_text_range() for p in pdfium.PdfDocument(str(cards)))
    assert "P01 郭涛" in text
    status = json.loads(run("event", "status", event)[1])
    assert [r["round"] for r in status["items"]] == [1, 2, 3]
    assert status["seatings"] == [1, 2, 3, 4]
    assert len(status["replaced"]) == 1
    assert status["log"]["chain_intact"]
    actions = [
        e.split('"action": "')[1].split('"')[0]
        for e in (event / "log.jsonl").read_text().splitlines()
    ]
    assert actions == [
        "init", "seating", "add", "seating", "add", "replace", "seating", "add", "seating",
        "report", "print score-cards",
    ]  # fmt: skip
