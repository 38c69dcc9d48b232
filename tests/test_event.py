"""An event folder grows round by round: init, add each upload, score from the folder."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import xlsxwriter
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import ROOT

runner = CliRunner()
EVENT = ROOT / "sample_data" / "big2_event.csv"


def run(*args: object) -> tuple[int, bytes, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout_bytes, result.stderr


def rounds(tmp_path: Path) -> dict[int, Path]:
    """The sample event's rounds as uploads: round 1 typed in a spreadsheet (Chinese
    headers), the others as CSV; and its players."""
    event = pd.read_csv(EVENT)
    uploads = {}
    for number, played in event.groupby("round"):
        path = tmp_path / f"round{number}.csv"
        played.to_csv(path, index=False)
        uploads[int(number)] = path
    book = tmp_path / "round1.xlsx"
    played = event[event["round"] == 1]
    headers = ["轮次", "牌副", "桌号", "座位", "选手", "得分", "出牌用时"]
    with xlsxwriter.Workbook(str(book)) as workbook:
        sheet = workbook.add_worksheet("第一轮")
        sheet.write_row(0, 0, headers)
        for row, values in enumerate(played.itertuples(index=False), start=1):
            sheet.write_row(row, 0, list(values))
    uploads[1] = book
    pd.DataFrame({"player": sorted(event["player"].unique())}).to_csv(
        tmp_path / "players.csv", index=False
    )
    return uploads


def init(tmp_path: Path, *extra: object) -> Path:
    folder = tmp_path / "spring"
    code, _, err = run(
        "event", "init", folder, "--name", "春季杯", "--date", "2026-12-05", "--game", "big2",
        "--table-size", "4", "--players", tmp_path / "players.csv", *extra,
    )  # fmt: skip
    assert code == 0, err
    return folder


def test_an_event_grows_round_by_round(tmp_path: Path) -> None:
    uploads = rounds(tmp_path)
    folder = init(tmp_path)
    assert run("event", "add", folder, uploads[1])[0] == 0
    # Round 2 first arrives with a mistyped score, then corrected with --replace.
    wrong = tmp_path / "round2-wrong.csv"
    typed = pd.read_csv(uploads[2])
    typed.loc[0, "score"] = 9999
    typed.to_csv(wrong, index=False)
    assert run("event", "add", folder, wrong)[0] == 0
    code, _, err = run("event", "add", folder, uploads[2])
    assert code == 2
    assert "round 2 is already in the event" in err
    code, _, err = run("event", "add", folder, uploads[2], "--replace")
    assert code == 0, err
    assert "the earlier upload is kept as" in err
    assert run("event", "add", folder, uploads[3])[0] == 0
    # Every command reads the folder as the whole event.
    assert run("standings", folder)[1] == run("standings", EVENT)[1]
    assert run("score", folder, "-o", "-")[1] == run("score", EVENT, "-o", "-")[1]
    code, out, _ = run("event", "status", folder)
    status = json.loads(out)
    assert status["event"]["name"] == "春季杯"
    assert [r["round"] for r in status["items"]] == [1, 2, 3]
    assert len(status["replaced"]) == 1
    assert status["log"] == {"entries": 5, "chain_intact": True}
    actions = [
        json.loads(line)["action"] for line in (folder / "log.jsonl").read_text().splitlines()
    ]
    assert actions == ["init", "add", "add", "replace", "add"]


def test_an_upload_is_checked_against_the_event(tmp_path: Path) -> None:
    uploads = rounds(tmp_path)
    folder = init(tmp_path)
    assert run("event", "add", folder, uploads[1])[0] == 0
    misspelled = tmp_path / "misspelled.csv"
    played = pd.read_csv(uploads[2])
    played.loc[played["player"] == "P17", "player"] = "P71"
    played.to_csv(misspelled, index=False)
    code, _, err = run("event", "add", folder, misspelled)
    assert code == 1
    assert "player 'P71' is not registered" in err
    # The round's stored seating: a player at another table is refused. A seating
    # saved by hand is not one: refused, not ignored.
    seating = pd.read_csv(uploads[2])[["round", "table", "seat", "player"]].drop_duplicates()
    seating.to_csv(folder / "seatings" / "by-hand.csv", index=False)
    code, _, err = run("event", "add", folder, uploads[2])
    assert code == 1
    # Put in by hand: not in the log (and a seating only counts when `seat` stored it).
    assert "error[event.file-unlogged]" in err
    (folder / "seatings" / "by-hand.csv").unlink()
    duplicate.event_store_seating(folder, seating)
    moved = tmp_path / "moved.csv"
    played = pd.read_csv(uploads[2])
    first = played[played["table"] == played["table"].min()]["player"].iloc[0]
    other = played[played["table"] == played["table"].max()]["player"].iloc[0]
    swap = {first: other, other: first}
    played["player"] = played["player"].replace(swap)
    played.to_csv(moved, index=False)
    code, _, err = run("event", "add", folder, moved)
    assert code == 1
    assert "seatings/round-0002.csv" in err or "round-0002.csv" in err
    assert run("event", "add", folder, uploads[2])[0] == 0
    both = tmp_path / "both.csv"
    pd.concat([pd.read_csv(uploads[2]), pd.read_csv(uploads[3])]).to_csv(both, index=False)
    code, _, err = run("event", "add", folder, both)
    assert code == 1
    assert "holds rounds 2, 3; an upload is one round" in err
    assert [r["round"] for r in json.loads(run("event", "status", folder)[1])["items"]] == [1, 2]


def test_the_event_rules_are_every_command_rules(tmp_path: Path) -> None:
    uploads = rounds(tmp_path)
    rules = tmp_path / "rules.toml"
    _, out, _ = run("rules", "--tie-ranking", "dense")
    rules.write_bytes(out)
    folder = init(tmp_path, "--rules", rules)
    for number in (1, 2, 3):
        assert run("event", "add", folder, uploads[number])[0] == 0
    dense = run("standings", EVENT, "--tie-ranking", "dense")[1]
    assert run("standings", folder)[1] == dense
    assert run("standings", folder)[1] != run("standings", EVENT)[1]


def test_an_edited_log_is_seen(tmp_path: Path) -> None:
    uploads = rounds(tmp_path)
    folder = init(tmp_path)
    assert run("event", "add", folder, uploads[1])[0] == 0
    log = folder / "log.jsonl"
    log.write_text(log.read_text().replace('"round": 1', '"round": 7'))
    code, out, err = run("event", "status", folder)
    assert code == 0
    status = json.loads(out)
    assert status["log"]["chain_intact"] is False
    assert [(p["code"], p["line"]) for p in status["problems"]] == [("event.log-edited", 2)]
    assert "warning[event.log-edited]" in err


def test_init_refuses_a_folder_in_use(tmp_path: Path) -> None:
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("x")
    code, _, err = run(
        "event", "init", tmp_path / "busy", "--name", "x", "--date", "2026-12-05",
        "--game", "big2", "--table-size", "4",
    )  # fmt: skip
    assert code == 2
    assert "exists and is not an empty folder" in err
    code, _, err = run(
        "event", "init", tmp_path / "new", "--name", "x", "--date", "5/12/2026",
        "--game", "big2", "--table-size", "4",
    )  # fmt: skip
    assert code == 2
    assert "is not YYYY-MM-DD" in err


def test_the_report_of_an_event_names_it_on_every_page(tmp_path: Path) -> None:
    uploads = rounds(tmp_path)
    folder = init(tmp_path, "--venue", "老年活动中心")
    for number in (1, 2):
        assert run("event", "add", folder, uploads[number])[0] == 0
    site = tmp_path / "site"
    code, _, err = run("report", folder, "-o", site, "--lang", "zh")
    assert code == 0, err
    pages = list(site.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        assert '<p class="event">春季杯 · 2026-12-05 · 老年活动中心</p>' in page.read_text()


def test_an_upload_and_the_folder_are_checked_for_typos(tmp_path: Path) -> None:
    uploads = rounds(tmp_path)
    folder = init(tmp_path)
    typed = pd.read_csv(uploads[2])
    typed.loc[0, "score"] = typed.loc[0, "score"] * 10
    wrong = tmp_path / "round2.csv"
    typed.to_csv(wrong, index=False)
    assert run("event", "add", folder, uploads[1])[0] == 0
    code, _, err = run("event", "add", folder, wrong)
    assert code == 0
    assert "warning[entry.table-not-zero]:" in err
    assert "not 0" in err
    # validate on the folder knows the event's game (big2: zero-sum tables).
    code, _, err = run("validate", folder)
    assert code == 0
    assert "scores add up to" in err
    assert run("validate", folder, "--strict")[0] == 1
