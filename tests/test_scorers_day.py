"""A scorer's day, as a script runs it: init the event, draw round 1, seat and upload
four rounds (CSV, .xlsx, standard input), a typo caught by --strict, a correction
with --replace, the arbiter's adjustment, a late entry and a withdrawal, then the
report and the printed cards; the log tells the day. Then the folder is tampered with
in five ways, and every command notices."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pypdfium2 as pdfium
import xlsxwriter
from typer.testing import CliRunner

from duplicate.cli import app

runner = CliRunner()
PLAYERS = [f"P{i:02d}" for i in range(1, 17)]
NAMES = ["郭涛", "李娜", "王芳", "张伟", "刘洋", "陈静", "杨磊", "赵敏"]
DEALS_PER_ROUND = 4


def run(*args: object, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def ok(*args: object, stdin: bytes | None = None) -> str:
    code, out, err = run(*args, stdin=stdin)
    assert code == 0, f"{args}: {err}"
    return out


def played(seating: Path, round_number: int, seed: int) -> pd.DataFrame:
    """The round as its tables played it: the stored seats, zero-sum scores (none 0,
    so that a digit typed twice always leaves the table off zero)."""
    seats = pd.read_csv(seating, dtype=str)
    rng = np.random.default_rng(seed)
    rows = []
    for deal in range(1, DEALS_PER_ROUND + 1):
        number = (round_number - 1) * DEALS_PER_ROUND + deal
        for _, table in seats.groupby("table"):
            scores = rng.choice([-1, 1], len(table) - 1) * rng.integers(11, 60, len(table) - 1)
            scores = [*scores.tolist(), -int(scores.sum())]
            for (_, seat), score in zip(table.iterrows(), scores, strict=True):
                rows.append([round_number, number, seat["table"], seat["seat"], seat["player"]])
                rows[-1].append(score)
    frame = pd.DataFrame(rows, columns=["round", "deal", "table", "seat", "player", "score"])
    return frame.astype("str")


def as_workbook(frame: pd.DataFrame, path: Path) -> Path:
    with xlsxwriter.Workbook(str(path)) as book:
        sheet = book.add_worksheet("成绩")
        sheet.write_row(0, 0, ["轮次", "牌副", "桌号", "座位", "选手", "得分"])
        for row, values in enumerate(frame.itertuples(index=False), start=1):
            sheet.write_row(row, 0, [int(v) if v.lstrip("-").isdigit() else v for v in values])
    return path


def test_a_scorers_day(tmp_path: Path) -> None:
    names = NAMES + [""] * (len(PLAYERS) - len(NAMES))
    pd.DataFrame({"player": PLAYERS, "name": names}).to_csv(tmp_path / "players.csv", index=False)
    event = tmp_path / "spring"
    ok(
        "event", "init", event, "--name", "春季杯", "--date", "2026-12-05", "--venue", "俱乐部",
        "--game", "big2", "--table-size", "4", "--players", tmp_path / "players.csv",
    )  # fmt: skip
    seatings = event / "seatings"

    # Round 1: drawn, kept in the folder; uploaded as CSV.
    ok("seat", event, "--round", "1", "--seed", "2026", "-o", tmp_path / "draw.csv")
    one = played(seatings / "round-0001.csv", 1, seed=1)
    # Two scores of a table read the wrong way round: it still adds up to zero.
    swapped = one.copy()
    swapped.loc[[0, 1], "score"] = swapped.loc[[1, 0], "score"].to_numpy()
    swapped.to_csv(tmp_path / "round1.csv", index=False)
    ok("event", "add", event, tmp_path / "round1.csv", "--strict")

    # Round 2: seated by the standings, uploaded as a workbook.
    ok("seat", event, "-o", "-")
    two = played(seatings / "round-0002.csv", 2, seed=2)
    ok("event", "add", event, as_workbook(two, tmp_path / "round2.xlsx"), "--strict")

    # The swapped scores are found on the sheet: round 1 corrected with --replace.
    one.to_csv(tmp_path / "round1-fixed.csv", index=False)
    assert run("event", "add", event, tmp_path / "round1-fixed.csv")[0] == 2
    ok("event", "add", event, tmp_path / "round1-fixed.csv", "--replace")

    # A late entry and a withdrawal before round 3: the seating follows.
    ok("event", "player", "add", event, "P17", "--name", "新手", "--club", "俱乐部")
    ok("event", "player", "withdraw", event, "P05", "--reason", "unwell")
    seated = pd.read_csv(io.StringIO(ok("seat", event, "-o", "-")), dtype=str)
    assert "P17" in set(seated["player"])
    assert "P05" not in set(seated["player"])

    # Round 3 from standard input, a score typed with a digit twice: --strict catches it.
    three = played(seatings / "round-0003.csv", 3, seed=3)
    typo = three.copy()
    at = int(typo.index[typo["score"].astype(int) > 0][0])
    meant = typo.loc[at, "score"]
    typo.loc[at, "score"] = meant + meant[-1]
    code, _, err = run(
        "event", "add", event, "-", "--strict", stdin=typo.to_csv(index=False).encode()
    )
    assert code == 1
    assert "error[entry.table-not-zero]" in err
    named = re.search(r"<stdin>, rows? ([0-9, ]+), column 'score'", err)
    assert named is not None
    assert str(at + 2) in named[1].split(", ")
    assert f"{meant + meant[-1]}, perhaps {meant}" in err
    assert not (event / "rounds" / "round-0003.parquet").exists()
    ok("event", "add", event, "-", "--strict", stdin=three.to_csv(index=False).encode())

    # The arbiter's ruling: a penalty, logged with why.
    adjustments = tmp_path / "ruling.csv"
    adjustments.write_text("round,deal,player,kind,value,reason\n3,9,P17,penalty,50,late\n")
    before = pd.read_csv(io.StringIO(ok("standings", event, "-o", "-")), dtype=str)
    ok("event", "adjust", event, adjustments, "--reason", "arbiter's ruling, round 3")

    # Round 4, CSV again.
    ok("seat", event, "-o", "-")
    four = played(seatings / "round-0004.csv", 4, seed=4)
    four.to_csv(tmp_path / "round4.csv", index=False)
    ok("event", "add", event, tmp_path / "round4.csv", "--strict")

    # The standings: every round, the penalty, the late entry named, the withdrawn kept.
    ok("standings", event, "-o", tmp_path / "standings.csv")
    standings = pd.read_csv(tmp_path / "standings.csv", dtype=str)
    assert set(standings["player"]) == set(PLAYERS) | {"P17"}
    p17 = standings.set_index("player").loc["P17"]
    assert (p17["name"], p17["penalty"]) == ("新手", "50.00")
    assert before.set_index("player").loc["P17", "penalty"] == "0.00"
    assert standings.set_index("player").loc["P05", "deals"] == str(2 * DEALS_PER_ROUND)

    # Round 5's seating, the report and the printed cards.
    ok("seat", event, "-o", "-")
    ok("report", event, "-o", tmp_path / "site")
    assert "春季杯" in (tmp_path / "site" / "index.html").read_text()
    ok("print", event, "--what", "table-cards", "-o", tmp_path / "tables.pdf")
    ok("print", event, "--what", "score-cards", "-o", tmp_path / "cards.pdf")
    cards = pdfium.PdfDocument(str(tmp_path / "cards.pdf"))
    text = "".join(page.get_textpage().get_text_range() for page in cards)
    assert "P17 新手" in text

    status = json.loads(ok("event", "status", event))
    assert [r["round"] for r in status["items"]] == [1, 2, 3, 4]
    assert status["seatings"] == [1, 2, 3, 4, 5]
    assert status["log"]["chain_intact"]
    log = [json.loads(line) for line in (event / "log.jsonl").read_text().splitlines()]
    changes = [e["action"] for e in log if e["action"] not in ("report", "print table-cards")]
    assert changes == [
        "init", "seating", "seating", "add", "seating", "add", "replace", "player-add",
        "player-withdraw", "seating", "add", "adjust", "seating", "add", "standings",
        "seating", "print score-cards",
    ]  # fmt: skip

    # The day's folder then tampered with in five ways: every command stops with the
    # code that says what changed, and writes nothing.
    for tamper, expected in TAMPERINGS.items():
        folder = tmp_path / f"tampered-{tamper.__name__}"
        shutil.copytree(event, folder)
        tamper(folder)
        out = tmp_path / f"out-{tamper.__name__}"
        commands = [
            ("standings", folder),
            ("score", folder, "-o", out.with_suffix(".csv")),
            ("seat", folder, "-o", "-"),
            ("report", folder, "-o", out),
            ("print", folder, "--what", "score-cards", "-o", out.with_suffix(".pdf")),
            ("explain", "P01", folder),
            ("verify", folder, tmp_path / "standings.csv"),
            ("event", "add", folder, tmp_path / "round4.csv", "--replace"),
            ("event", "adjust", folder, adjustments, "--reason", "again"),
        ]
        log = (folder / "log.jsonl").read_bytes()
        for args in commands:
            code, _, err = run(*args)
            assert code == 1, (tamper.__name__, args, err)
            assert f"error[{expected}]" in err, (tamper.__name__, args, err)
        assert not list(tmp_path.glob(f"out-{tamper.__name__}*"))
        assert (folder / "log.jsonl").read_bytes() == log


def round_swapped(folder: Path) -> None:
    shutil.copyfile(
        folder / "rounds" / "round-0001.parquet", folder / "rounds" / "round-0002.parquet"
    )


def round_deleted(folder: Path) -> None:
    (folder / "rounds" / "round-0003.parquet").unlink()


def players_edited(folder: Path) -> None:
    with open(folder / "players.csv", "a", encoding="utf-8") as players:
        players.write("P99,\n")


def log_line_edited(folder: Path) -> None:
    path = folder / "log.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first_add = next(i for i, line in enumerate(lines) if json.loads(line)["action"] == "add")
    lines[first_add] = lines[first_add].replace('"add"', '"added"', 1)
    path.write_text("".join(lines), encoding="utf-8")


def round_put_in(folder: Path) -> None:
    shutil.copyfile(
        folder / "rounds" / "round-0001.parquet", folder / "rounds" / "round-0009.parquet"
    )


TAMPERINGS = {
    round_swapped: "event.file-changed",
    round_deleted: "event.file-missing",
    players_edited: "event.file-changed",
    log_line_edited: "event.log-edited",
    round_put_in: "event.file-unlogged",
}
