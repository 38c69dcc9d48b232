"""Run manifests: hashes that match the files, and the same manifest on a re-run."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import GOLDEN, ROOT, SAMPLE, codes, line_of

runner = CliRunner()
CASE = GOLDEN / "adjustments"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_standings(tmp_path: Path, manifest: str) -> dict[str, object]:
    args = [
        "standings",
        str(CASE / "results.csv"),
        "--adjustments",
        str(CASE / "adjustments.csv"),
        "-o",
        str(tmp_path / "standings.parquet"),
        "--manifest",
        str(tmp_path / manifest),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    document: dict[str, object] = json.loads((tmp_path / manifest).read_text(encoding="utf-8"))
    return document


def test_manifest_hashes_match_the_files(tmp_path: Path) -> None:
    m = run_standings(tmp_path, "m.json")
    inputs = {i["role"]: i for i in m["inputs"]}  # type: ignore[attr-defined]
    assert inputs["results"]["sha256"] == sha256(CASE / "results.csv")
    assert inputs["results"]["rows"] == 8
    assert inputs["adjustments"]["sha256"] == sha256(CASE / "adjustments.csv")
    (output,) = m["outputs"]  # type: ignore[misc]
    assert output["sha256"] == sha256(tmp_path / "standings.parquet")
    assert output["rows"] == 4
    rules = m["rules"]  # type: ignore[index]
    assert hashlib.sha256(rules["toml"].encode()).hexdigest() == rules["sha256"]
    assert [a["reason"] for a in m["adjustments"]] == [  # type: ignore[attr-defined]
        "table disconnected through no fault of the player",
        "played out of turn",
        "slow play after a warning",
    ]


def test_a_rerun_gives_the_same_manifest_but_for_the_time(tmp_path: Path) -> None:
    first = run_standings(tmp_path, "a.json")
    second = run_standings(tmp_path, "b.json")
    first.pop("created")
    second.pop("created")
    assert first == second
    text = (tmp_path / "a.json").read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def test_manifest_of_stdin_and_stdout(tmp_path: Path) -> None:
    data = (SAMPLE / "spec_example.csv").read_bytes()
    manifest = tmp_path / "m.json"
    result = runner.invoke(app, ["score", "-", "-o", "-", "--manifest", str(manifest)], input=data)
    assert result.exit_code == 0
    m = json.loads(manifest.read_text(encoding="utf-8"))
    assert m["inputs"][0] == {
        "path": "-",
        "role": "results",
        "rows": 9,
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    assert m["outputs"][0]["sha256"] == hashlib.sha256(result.stdout_bytes).hexdigest()


def test_seat_manifest_records_the_seed(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("player\nA\nB\nC\nD\n", encoding="utf-8")
    args = [
        "seat",
        "--players",
        str(players),
        "--round",
        "1",
        "--seed",
        "11",
        "-k",
        "2",
        "-o",
        str(tmp_path / "r1.csv"),
        "--manifest",
        str(tmp_path / "m.json"),
    ]
    assert runner.invoke(app, args).exit_code == 0
    m = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert m["notes"] == {"seed": "11"}
    assert m["inputs"][0]["role"] == "players"


def test_every_command_that_writes_results_takes_a_manifest(tmp_path: Path) -> None:
    raw = tmp_path / "raw.csv"
    raw.write_text(
        "round,deal,table,seat,player,cards_left\n1,1,1,0,A,0\n1,1,1,1,B,3\n", encoding="utf-8"
    )
    games = tmp_path / "games.csv"
    games.write_text(
        "player,game_id,outcome,finished_at\nA,1,win,2025-01-21T10:00\nB,1,loss,2025-01-21T10:00\n",
        encoding="utf-8",
    )
    commands = {
        "game-score": ["game-score", "--game", "big2", str(raw), "-o", str(tmp_path / "g.csv")],
        "leaderboard": ["leaderboard", str(games), "-o", str(tmp_path / "l.csv")],
        "report": ["report", str(SAMPLE / "spec_example.csv"), "-o", str(tmp_path / "site")],
    }
    for name, args in commands.items():
        manifest = tmp_path / f"{name}.json"
        result = runner.invoke(app, [*args, "--manifest", str(manifest)])
        assert result.exit_code == 0, result.stderr
        document = json.loads(manifest.read_text(encoding="utf-8"))
        assert document["command"].startswith(name)
        assert document["inputs"][0]["sha256"] == sha256(
            Path(args[-3] if name == "game-score" else args[1])
        )
        assert document["outputs"][0]["sha256"]
    site = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["outputs"][0]
    assert site["format"] == "site"
    assert site["rows"] == len(list((tmp_path / "site").rglob("*.html")))


def test_seat_manifest_counts_the_rows_each_file_has(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("player\nA\nB\nC\nD\n", encoding="utf-8")
    partners = tmp_path / "partners.csv"
    partners.write_text("player,partner\nA,B\nC,D\n", encoding="utf-8")
    args = [
        "seat",
        "--players",
        str(players),
        "--partners",
        str(partners),
        "--round",
        "1",
        "--seed",
        "2",
        "-o",
        str(tmp_path / "r1.csv"),
        "--manifest",
        str(tmp_path / "m.json"),
    ]
    assert runner.invoke(app, args).exit_code == 0
    inputs = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["inputs"]
    assert [(i["role"], i["rows"]) for i in inputs] == [("players", 4), ("partners", 2)]


def _duplicate(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "duplicate", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )


def test_manifest_check_hashes_again_and_runs_again(tmp_path: Path) -> None:
    results = tmp_path / "results.csv"
    results.write_bytes((ROOT / "sample_data" / "big2_event.csv").read_bytes())
    done = _duplicate(
        "standings", "results.csv", "-o", "standings.csv", "--manifest", "run.json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    recorded = json.loads((tmp_path / "run.json").read_text())
    assert recorded["command_line"] == [
        "standings", "results.csv", "-o", "standings.csv", "--manifest", "run.json"
    ]  # fmt: skip
    check = _duplicate("manifest", "check", "run.json", cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert "same  re-run output  standings.csv" in check.stdout
    assert "all 6 checks agree" in check.stderr
    # An input changed since: said, and the exit is 1.
    results.write_text(results.read_text().replace("1,1,1,0,P17,-385,", "1,1,1,0,P17,9000,"))
    check = _duplicate("manifest", "check", "run.json", cwd=tmp_path)
    assert check.returncode == 1
    assert "DIFFERS  input results  results.csv  recorded" in check.stdout
    assert "DIFFERS  re-run output  standings.csv" in check.stdout


def test_manifest_check_of_a_library_run_and_of_other_files(tmp_path: Path) -> None:
    table = duplicate.standings(ROOT / "sample_data" / "big2_event.csv")
    out = tmp_path / "standings.csv"
    duplicate.publish(table, str(out), manifest=str(tmp_path / "run.json"))
    document = json.loads((tmp_path / "run.json").read_text())
    assert document["inputs"][0]["rows"] == 1152
    result = CliRunner().invoke(app, ["manifest", "check", str(tmp_path / "run.json")])
    assert result.exit_code == 0, result.stderr
    assert "not run again" in result.stderr
    (tmp_path / "other.json").write_text('{"a": 1}')
    result = CliRunner().invoke(app, ["manifest", "check", str(tmp_path / "other.json")])
    assert result.exit_code == 1
    assert codes(result.stderr) == ["manifest.not-a-manifest"]
    assert str(tmp_path / "other.json") in line_of("manifest.not-a-manifest", result.stderr)
