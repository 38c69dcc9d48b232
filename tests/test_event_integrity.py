"""An event folder is read only as its log says it is: a round swapped or deleted, a
players file edited, a file put in by hand, a log edited, is an error naming the file
(until a user accepts the folder as it is, logged with who and why), and `event status`
lists every difference. Nothing is written through a link out of the folder."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import ROOT

runner = CliRunner()
EVENT = ROOT / "sample_data" / "big2_event.csv"


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def codes(err: str) -> set[str]:
    return {line.split("]")[0].split("[")[1] for line in err.splitlines() if line.startswith("e")}


def uploads(tmp_path: Path) -> dict[int, Path]:
    played = pd.read_csv(EVENT)
    found = {}
    for number, rows in played.groupby("round"):
        found[int(number)] = tmp_path / f"round{number}.csv"
        rows.to_csv(found[int(number)], index=False)
    pd.DataFrame({"player": sorted(played["player"].unique())}).to_csv(
        tmp_path / "players.csv", index=False
    )
    return found


def folder_of(tmp_path: Path, rounds: tuple[int, ...] = (1, 2)) -> tuple[Path, dict[int, Path]]:
    """An event folder with `rounds` added, made as the command line makes it."""
    files = uploads(tmp_path)
    folder = tmp_path / "spring"
    duplicate.event_init(
        folder, "Spring", "2026-12-05", "big2", 4, players=tmp_path / "players.csv"
    )
    for number in rounds:
        duplicate.event_add(folder, files[number])
    return folder, files


def status(folder: Path) -> dict:
    code, out, err = run("event", "status", folder)
    assert code == 0, err
    return json.loads(out)


def problems(folder: Path) -> list[tuple[str, str]]:
    return [(p["code"], Path(p["file"]).name) for p in status(folder)["problems"]]


def test_a_swapped_round_is_seen_by_status_and_standings(tmp_path: Path) -> None:
    folder, _ = folder_of(tmp_path)
    assert status(folder)["intact"] is True
    rounds = folder / "rounds"
    shutil.copyfile(rounds / "round-0002.parquet", rounds / "round-0001.parquet")
    assert problems(folder) == [("event.file-changed", "round-0001.parquet")]
    code, out, err = run("standings", folder)
    assert code == 1
    assert out == ""
    assert codes(err) == {"event.file-changed"}
    assert "round-0001.parquet" in err


def test_a_deleted_round_is_seen(tmp_path: Path) -> None:
    folder, _ = folder_of(tmp_path)
    (folder / "rounds" / "round-0002.parquet").unlink()
    assert problems(folder) == [("event.file-missing", "round-0002.parquet")]
    code, _, err = run("standings", folder)
    assert code == 1
    assert codes(err) == {"event.file-missing"}


def test_an_edited_players_file_is_seen(tmp_path: Path) -> None:
    folder, _ = folder_of(tmp_path)
    with open(folder / "players.csv", "a") as players:
        players.write("P99\n")
    assert problems(folder) == [("event.file-changed", "players.csv")]
    code, _, err = run("seat", folder, "-k", "4")
    assert code == 1
    assert codes(err) == {"event.file-changed"}


def test_an_edited_log_stops_every_command_not_only_status(tmp_path: Path) -> None:
    folder, files = folder_of(tmp_path)
    log = folder / "log.jsonl"
    log.write_text(log.read_text().replace('"round": 1', '"round": 7'))
    assert problems(folder) == [("event.log-edited", "log.jsonl")]
    code, _, err = run("standings", folder)
    assert code == 1
    assert codes(err) == {"event.log-edited"}
    code, _, err = run("event", "add", folder, files[3])
    assert code == 1
    assert not (folder / "rounds" / "round-0003.parquet").exists()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[:-30], id="truncated"),
        pytest.param(lambda data: data + b"\xff\xfe\n", id="not-utf8"),
        pytest.param(lambda data: b"", id="emptied"),
    ],
)
def test_a_damaged_log_refuses_add_before_storing_anything(tmp_path: Path, damage) -> None:
    folder, files = folder_of(tmp_path)
    log = folder / "log.jsonl"
    log.write_bytes(damage(log.read_bytes()))
    code, _, err = run("event", "add", folder, files[3])
    assert code == 1, err
    assert codes(err) & {"event.log-broken", "event.log-not-utf8", "event.file-unlogged"}
    assert sorted(p.name for p in (folder / "rounds").iterdir()) == [
        "round-0001.parquet",
        "round-0002.parquet",
    ]
    assert status(folder)["intact"] is False


def test_a_file_put_in_by_hand_is_seen_and_a_misnamed_round_is_a_clear_error(
    tmp_path: Path,
) -> None:
    folder, files = folder_of(tmp_path)
    shutil.copyfile(folder / "rounds" / "round-0001.parquet", folder / "rounds" / "round-x.parquet")
    assert problems(folder) == [("event.file-misnamed", "round-x.parquet")]
    for args in (("event", "add", folder, files[3]), ("standings", folder)):
        code, _, err = run(*args)
        assert code == 1, err
        assert codes(err) == {"event.file-misnamed"}
    # A misnamed round cannot be accepted: it would be read as results.
    code, _, err = run("event", "accept", folder, "--reason", "x")
    assert code == 1
    (folder / "rounds" / "round-x.parquet").unlink()
    shutil.copyfile(files[3], folder / "seatings" / "notes.csv")
    assert problems(folder) == [("event.file-unlogged", "notes.csv")]


def test_a_corrupt_round_is_a_clear_error(tmp_path: Path) -> None:
    folder, files = folder_of(tmp_path)
    (folder / "rounds" / "round-0002.parquet").write_bytes(b"PAR1 not really")
    found = {code for code, _ in problems(folder)}
    assert found == {"event.file-changed", "event.round-unreadable"}
    code, _, err = run("event", "add", folder, files[3])
    assert code == 1
    code, _, err = run("event", "accept", folder, "--reason", "x")
    assert code == 1
    assert codes(err) == {"event.round-unreadable"}


def test_accept_logs_who_what_and_why_and_an_edit_after_it_is_seen_again(
    tmp_path: Path,
) -> None:
    folder, files = folder_of(tmp_path)
    with open(folder / "players.csv", "a") as players:
        players.write("P99\n")
    log = folder / "log.jsonl"
    log.write_text(log.read_text().replace('"round": 1', '"round": 7'))
    code, _, err = run("event", "accept", folder, "--reason", "a late entry")
    assert code == 0, err
    last = json.loads(log.read_text().splitlines()[-1])
    assert last["action"] == "accept"
    assert last["reason"] == "a late entry"
    assert last["by"]
    assert [a["path"] for a in last["accepted"]] == ["players.csv"]
    assert [p["code"] for p in last["log_problems"]] == ["event.log-edited"]
    assert status(folder)["intact"] is True
    assert run("standings", folder)[0] == 0
    assert run("event", "add", folder, files[3])[0] == 0
    assert run("event", "accept", folder, "--reason", "x")[2].startswith("nothing to accept")
    # The log before the acceptance is sealed by it: edited again, it is seen again.
    log.write_text(log.read_text().replace('"round": 7', '"round": 8'))
    assert [c for c, _ in problems(folder)] == ["event.log-edited"]
    code, _, err = run("event", "accept", folder, "--reason", "again", "--by", "arbiter")
    assert code == 0, err
    assert json.loads(log.read_text().splitlines()[-1])["by"] == "arbiter"
    assert run("event", "accept", folder, "--reason", " ")[0] == 2


def test_a_deleted_log_is_seen_and_can_be_accepted(tmp_path: Path) -> None:
    folder, _ = folder_of(tmp_path)
    (folder / "log.jsonl").unlink()
    assert problems(folder) == [("event.log-missing", "log.jsonl")]
    assert run("standings", folder)[0] == 1
    assert run("event", "accept", folder, "--reason", "log lost")[0] == 0
    assert status(folder)["intact"] is True
    assert run("standings", folder)[0] == 0


@pytest.mark.parametrize("linked", ["rounds", "replaced"])
def test_a_linked_folder_is_never_written_through(tmp_path: Path, linked: str) -> None:
    folder, files = folder_of(tmp_path)
    outside = tmp_path / "outside"
    shutil.move(folder / linked, outside)
    os.symlink(outside, folder / linked)
    before = sorted(p.name for p in outside.iterdir())
    for args in (
        ("event", "add", folder, files[3]),
        ("event", "add", folder, files[2], "--replace"),
        ("event", "accept", folder, "--reason", "x"),
    ):
        code, _, err = run(*args)
        assert code == 1, err
        assert "event.symlink" in codes(err)
    assert sorted(p.name for p in outside.iterdir()) == before
    assert ("event.symlink", linked) in problems(folder)


def test_a_replace_keeps_the_earlier_upload_and_logs_both(tmp_path: Path) -> None:
    folder, files = folder_of(tmp_path)
    typed = pd.read_csv(files[2])
    typed.loc[0, "score"] = 999
    typed.to_csv(tmp_path / "typo.csv", index=False)
    first = (folder / "rounds" / "round-0002.parquet").read_bytes()
    code, _, err = run("event", "add", folder, tmp_path / "typo.csv", "--replace")
    assert code == 0, err
    kept = list((folder / "replaced").iterdir())
    assert [p.read_bytes() for p in kept] == [first]
    assert status(folder)["intact"] is True
    # Back to the first upload: its kept copy is the same file, logged once more.
    assert run("event", "add", folder, files[2], "--replace")[0] == 0
    assert len(list((folder / "replaced").iterdir())) == 2
    assert status(folder)["intact"] is True


# -- the scorer's day: the folder tampered with, every command notices ---------------------


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, Path], Path]:
    """Three rounds in, round 4 seated into the folder, the standings published."""
    tmp_path = tmp_path_factory.mktemp("day")
    folder, files = folder_of(tmp_path, (1, 2, 3))
    code, _, err = run("seat", folder, "-k", "4", "-o", folder / "seatings" / "round-0004.csv")
    assert code == 0, err
    published = tmp_path / "standings.csv"
    assert run("standings", folder, "-o", published)[0] == 0
    assert status(folder)["intact"] is True
    return folder, files, published


def swap_round(folder: Path) -> None:
    rounds = folder / "rounds"
    shutil.copyfile(rounds / "round-0001.parquet", rounds / "round-0002.parquet")


def edit_log_line(folder: Path) -> None:
    log = folder / "log.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    lines[2] = lines[2].replace('"add"', '"added"')
    log.write_text("".join(lines))


def edit_players(folder: Path) -> None:
    with open(folder / "players.csv", "a") as players:
        players.write("P99\n")


TAMPERED = {
    "round swapped": (swap_round, "event.file-changed"),
    "round deleted": (
        lambda f: (f / "rounds" / "round-0003.parquet").unlink(),
        "event.file-missing",
    ),
    "players edited": (edit_players, "event.file-changed"),
    "log line edited": (edit_log_line, "event.log-edited"),
    "file added": (
        lambda f: shutil.copyfile(
            f / "rounds" / "round-0001.parquet", f / "rounds" / "round-0005.parquet"
        ),
        "event.file-unlogged",
    ),
}


@pytest.mark.parametrize("tampering", sorted(TAMPERED))
def test_every_command_notices_a_tampered_folder(
    day: tuple[Path, dict[int, Path], Path], tmp_path: Path, tampering: str
) -> None:
    pristine, files, published = day
    folder = tmp_path / "spring"
    shutil.copytree(pristine, folder)
    tamper, expected = TAMPERED[tampering]
    tamper(folder)
    player = pd.read_csv(EVENT)["player"].iloc[0]
    corrections = tmp_path / "adjustments.csv"
    corrections.write_text(f"round,deal,player,kind,value,reason\n1,1,{player},void,,x\n")
    out = tmp_path / "out"
    commands = {
        "standings": ("standings", folder),
        "score": ("score", folder, "-o", out.with_suffix(".csv")),
        "seat": ("seat", folder, "-k", "4", "-o", out.with_suffix(".seat.csv")),
        "report": ("report", folder, "-o", out),
        "print": ("print", folder, "--what", "score-cards", "-o", out.with_suffix(".pdf")),
        "explain": ("explain", player, folder),
        "verify": ("verify", folder, published),
        "event add": ("event", "add", folder, files[3], "--replace"),
        "event adjustments": ("event", "adjustments", folder, corrections),
    }
    log = (folder / "log.jsonl").read_bytes()
    for name, args in commands.items():
        code, _, err = run(*args)
        assert code == 1, (name, err)
        assert expected in codes(err), (name, err)
    assert not list(tmp_path.glob("out*"))
    assert (folder / "log.jsonl").read_bytes() == log
    assert expected in {code for code, _ in problems(folder)}


def test_an_output_is_never_written_over_a_stored_file(tmp_path: Path) -> None:
    folder, _ = folder_of(tmp_path)
    stored = folder / "rounds" / "round-0001.parquet"
    before = stored.read_bytes()
    for target in (stored, folder / "players.csv"):
        code, _, err = run("standings", folder, "-o", target)
        assert code == 2, err
        assert "error[output.is-input]" in err
    assert stored.read_bytes() == before
    # A new file written into rounds/ is not a round the log vouches for.
    assert run("standings", folder, "-o", folder / "rounds" / "round-0009.parquet")[0] == 0
    assert problems(folder) == [("event.file-unlogged", "round-0009.parquet")]
    assert run("standings", folder)[0] == 1


def test_a_journal_naming_a_file_outside_the_folder_is_not_followed(tmp_path: Path) -> None:
    folder, _ = folder_of(tmp_path)
    victim = tmp_path / "keep.txt"
    victim.write_text("mine")
    steps = {
        "log": "0" * 64,
        "log_temp": ".log.jsonl.0123456789abcdef.tmp",
        "files": [{"path": "../keep.txt", "temp": "x", "sha256": "0" * 64, "backup": None}],
    }
    (folder / ".pending.json").write_text(json.dumps(steps))
    code, _, err = run("standings", folder)
    assert code == 1
    assert codes(err) == {"event.half-done"}
    assert victim.read_text() == "mine"
