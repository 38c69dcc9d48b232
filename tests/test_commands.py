"""For every command: the library function gives what the command writes, and a run
manifest of the command checks clean (its output and manifest sharing a stem)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import GOLDEN, SAMPLE

runner = CliRunner()
EVENT = SAMPLE / "big2_event.csv"
STAGE = SAMPLE / "stage_example.csv"
SESSION = SAMPLE / "bridge_session.pbn"
RAW = Path(__file__).parent / "golden_games" / "big2_appendix_1" / "raw.csv"
CASE = GOLDEN / "adjustments"


def cli(*args: object) -> bytes:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.stderr
    return result.stdout_bytes


def published(result: object, path: Path) -> bytes:
    duplicate.publish(result, str(path))  # type: ignore[arg-type]
    return path.read_bytes()


def games(folder: Path) -> Path:
    path = folder / "games.csv"
    path.write_text(
        "player,game_id,finished_at,outcome\n"
        "A,1,2025-01-21T10:00,win\nB,1,2025-01-21T10:00,loss\n"
        "B,2,2025-01-21T11:00,win\nC,2,2025-01-21T11:00,loss\n"
    )
    return path


def final_hands(folder: Path) -> Path:
    path = folder / "final.csv"
    path.write_text(
        "hand,minute,table,seat,player,score\n"
        "1,1,1,0,F,2\n1,1,1,1,B,-1\n1,1,1,2,A,-1\n"
        "2,2,1,0,F,-2\n2,2,1,1,B,4\n2,2,1,2,A,-2\n"
    )
    return path


# Each table command: its command line (writing to OUT) and the library call.
TABLES: dict[str, tuple[Callable[[Path], list[object]], Callable[[Path], object]]] = {
    "score": (
        lambda t: ["score", EVENT, "--tie-ranking", "dense"],
        lambda t: duplicate.score(EVENT, tie_ranking="dense"),
    ),
    "standings": (
        lambda t: ["standings", CASE / "results.csv", "--adjustments", CASE / "adjustments.csv"],
        lambda t: duplicate.standings(CASE / "results.csv", adjustments=CASE / "adjustments.csv"),
    ),
    "seat": (
        lambda t: ["seat", EVENT, "-k", "4"],
        lambda t: duplicate.seat(EVENT, table_size=4),
    ),
    "elimination": (
        lambda t: ["elimination", STAGE, "--base", "0:100,4:200,8:400", "--advance", "3"],
        lambda t: duplicate.elimination(STAGE, base="0:100,4:200,8:400", advance=3),
    ),
    "final": (
        lambda t: ["final", final_hands(t), "--hands", "2", "--base", "0:10"],
        lambda t: duplicate.final(final_hands(t), 2, base="0:10"),
    ),
    "game-score": (
        lambda t: ["game-score", "--game", "big2", RAW],
        lambda t: duplicate.game_score(RAW, "big2"),
    ),
    "leaderboard": (
        lambda t: ["leaderboard", games(t), "--scheme", "xiangqi"],
        lambda t: duplicate.leaderboard(games(t), "xiangqi"),
    ),
    "import": (
        lambda t: ["import", SESSION],
        lambda t: duplicate.import_session(SESSION),
    ),
}


@pytest.mark.parametrize("command", sorted(TABLES))
def test_the_library_writes_what_the_command_writes(command: str, tmp_path: Path) -> None:
    arguments, call = TABLES[command]
    out = tmp_path / "cli.csv"
    cli(*arguments(tmp_path), "-o", out)
    assert published(call(tmp_path), tmp_path / "library.csv") == out.read_bytes()
    assert (tmp_path / "library.rules.toml").read_bytes() == (
        tmp_path / "cli.rules.toml"
    ).read_bytes()


def test_explain_is_the_explain_command() -> None:
    from duplicate.io.publish import metadata
    from duplicate.io.write import json_document

    shown = cli("explain", "P39", EVENT, "--format", "json")
    found = duplicate.explain(EVENT, "P39")
    document = found.to_json()
    deals = document.pop("deals")
    assert json_document("deals", metadata(found.rules), deals, document) == shown


def test_verify_is_the_verify_command(tmp_path: Path) -> None:
    published_file = tmp_path / "published.csv"
    text = cli("standings", EVENT).decode()
    published_file.write_text(text.replace("67835.09", "67835.90"))
    shown = cli("verify", EVENT, published_file, "-o", "-")
    found = duplicate.verify(EVENT, published_file)
    assert not found.agrees
    assert published(found.differences, tmp_path / "d.csv") == shown


def test_validate_is_the_validate_command() -> None:
    shown = json.loads(cli("validate", CASE / "results.csv", "--format", "json"))
    found = duplicate.validate(CASE / "results.csv")
    assert found.to_json()["ok"] is shown["ok"] is True
    assert found.to_json()["results"] == shown["results"]


def test_report_is_the_report_command(tmp_path: Path) -> None:
    cli("report", EVENT, "-o", tmp_path / "site")
    site = duplicate.report(EVENT)
    for path, html in site.pages.items():
        assert (tmp_path / "site" / path).read_text(encoding="utf-8") == html


def event_folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    duplicate.event_init(folder, "Spring", "2026-12-05", "big2", 4)
    rounds = EVENT.read_text().splitlines()
    header = rounds[0]
    for number in (1, 2, 3):
        upload = tmp_path / f"{name}-round{number}.csv"
        rows = [line for line in rounds[1:] if line.startswith(f"{number},")]
        upload.write_text("\n".join([header, *rows]) + "\n")
        duplicate.event_add(folder, upload)
    return folder


def test_print_is_the_print_command(tmp_path: Path) -> None:
    folder = event_folder(tmp_path, "spring")
    cli("print", folder, "--what", "score-cards", "-o", tmp_path / "cards.pdf")
    printed = duplicate.print_event(folder, "score-cards")
    assert printed.pdf == (tmp_path / "cards.pdf").read_bytes()


def test_the_event_commands_are_their_functions(tmp_path: Path) -> None:
    by_library = event_folder(tmp_path, "a")
    by_cli = tmp_path / "b"
    cli("event", "init", by_cli, "--name", "Spring", "--date", "2026-12-05", "--game", "big2",
        "--table-size", "4")  # fmt: skip
    for number in (1, 2, 3):
        cli("event", "add", by_cli, tmp_path / f"a-round{number}.csv")
    for made in ("event.toml", "rules.toml", *(f"rounds/round-000{n}.parquet" for n in (1, 2, 3))):
        assert (by_library / made).read_bytes() == (by_cli / made).read_bytes(), made
    status = duplicate.event_status(by_library).to_json()
    shown = json.loads(cli("event", "status", by_cli))
    assert status["rounds"] == shown["items"]
    assert status["log"] == shown["log"]


# -- manifests -----------------------------------------------------------------------------

# Every command that publishes a result, as a shell runs it, its output and manifest
# sharing a stem where it has an output file.
MANIFESTED = {
    "score": ["score", "results.csv", "-o", "a.csv", "--manifest", "a.json"],
    "standings": ["standings", "results.csv", "-o", "a.parquet", "--manifest", "a.json"],
    "explain": ["explain", "P39", "results.csv", "--manifest", "a.json"],
    "verify": ["verify", "results.csv", "published.csv", "--manifest", "a.json"],
    "validate": ["validate", "results.csv", "--format", "json", "--manifest", "a.json"],
    "seat": ["seat", "results.csv", "-o", "a.csv", "--manifest", "a.json"],
    "report": ["report", "results.csv", "-o", "a", "--manifest", "a.json"],
    "elimination": [
        "elimination", "stage.csv", "--advance", "3", "-o", "a.csv", "--ledger", "a.l.csv",
        "--manifest", "a.json",
    ],
    "final": ["final", "final.csv", "--hands", "2", "-o", "a.json.csv", "--manifest", "a.json"],
    "game-score": ["game-score", "-g", "big2", "raw.csv", "-o", "a.csv", "--manifest", "a.json"],
    "leaderboard": ["leaderboard", "games.csv", "-o", "a.xlsx", "--manifest", "a.json"],
    "import": ["import", "session.pbn", "-o", "a.csv", "--manifest", "a.json"],
    "print": ["print", "spring", "--what", "score-cards", "-o", "a.pdf", "--manifest", "a.json"],
    "event status": ["event", "status", "spring", "--manifest", "a.json"],
}  # fmt: skip


def program(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "duplicate", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(MANIFESTED))
def test_a_manifest_of_every_command_checks_clean(command: str, tmp_path: Path) -> None:
    shutil.copy(EVENT, tmp_path / "results.csv")
    shutil.copy(STAGE, tmp_path / "stage.csv")
    shutil.copy(RAW, tmp_path / "raw.csv")
    shutil.copy(SESSION, tmp_path / "session.pbn")
    games(tmp_path)
    final_hands(tmp_path)
    (tmp_path / "published.csv").write_bytes(cli("standings", EVENT))
    if command in ("print", "event status"):
        event_folder(tmp_path, "spring")
    done = program(*MANIFESTED[command], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    # (A verify that finds no difference writes nothing but the manifest.)
    assert manifest["outputs"] or command == "verify", "a manifest lists what the run wrote"
    check = program("manifest", "check", "a.json", cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "DIFFERS" not in check.stdout
    assert "re-run exit status" in check.stdout
