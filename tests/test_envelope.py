"""Every command that gives JSON gives one envelope (version, kind, rules, items), and
every command that gives a result takes --format (docs/output.md)."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import SAMPLE
from tests.test_commands import event_folder, final_hands, games

runner = CliRunner()
EVENT = SAMPLE / "big2_event.csv"
STAGE = SAMPLE / "stage_example.csv"
ENVELOPE = ["version", "kind", "rules"]


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def commands(tmp: Path) -> dict[str, tuple[list[object], str]]:
    """Each command giving JSON, and the kind of its items."""
    raw = tmp / "raw.csv"
    raw.write_text(
        "round,deal,table,seat,player,cards_left,open,doubled\n"
        "1,1,1,0,A,0,false,false\n1,1,1,1,B,5,false,false\n"
        "1,1,1,2,C,8,false,false\n1,1,1,3,D,12,false,false\n"
    )
    return {
        "score": (["score", EVENT], "scores"),
        "standings": (["standings", EVENT], "standings"),
        "explain": (["explain", "P39", EVENT], "deals"),
        "seat": (["seat", EVENT], "seating"),
        "elimination": (["elimination", STAGE], "standings"),
        "final": (["final", final_hands(tmp), "--hands", "2"], "standings"),
        "game-score": (["game-score", "-g", "big2", raw], "results"),
        "leaderboard": (["leaderboard", games(tmp)], "leaderboard"),
        "validate": (["validate", EVENT], "problems"),
        "import": (["import", SAMPLE / "bridge_session.pbn"], "results"),
        "event status": (["event", "status", event_folder(tmp, "spring")], "rounds"),
        "rules": (["rules", "--tie-ranking", "dense"], "settings"),
    }


def test_every_json_is_the_one_envelope(tmp_path: Path) -> None:
    for name, (args, kind) in commands(tmp_path).items():
        code, out, err = run(*args, "--format", "json")
        assert code == 0, (name, err)
        document = json.loads(out)
        keys = list(document)
        assert keys[:3] == ENVELOPE, name
        assert keys[-1] == "items", name
        assert document["kind"] == kind, name
        assert document["version"] == duplicate.__version__, name
        assert isinstance(document["items"], list), name
        assert "tie_ranking" in document["rules"], name


def test_every_result_takes_csv_and_a_table(tmp_path: Path) -> None:
    for name, (args, _) in commands(tmp_path).items():
        code, out, err = run(*args, "--format", "csv")
        assert code == 0, (name, err)
        if name == "validate":
            assert out.startswith("level,code,source,rows,"), out
            continue
        document = json.loads(run(*args, "--format", "json")[1])
        table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
        assert len(table) == len(document["items"]), name
        assert list(table.columns) == list(document["items"][0]), name
        code, _, err = run(*args, "--format", "table")
        assert code == 0, (name, err)


def test_rules_are_toml_or_their_settings_as_items() -> None:
    """Without --format the rules file; as JSON its settings are the items, each value
    as the file writes it (0.35, not the float nearest it), and they make the same rules."""
    code, toml_text, _ = run("rules", "--rank-factors", "1,0.7,0.5,0.35")
    assert code == 0
    assert duplicate.Rules().to_toml() == toml_text
    document = json.loads(run("rules", "--format", "json")[1], parse_float=Decimal)
    listed = {item["setting"]: item["value"] for item in document["items"]}
    assert listed["rank_points.factors"] == [Decimal(s) for s in ("1.0", "0.7", "0.5", "0.35")]
    assert listed["tie_ranking"] == "competition"
    # Every line of the file that sets a value is one item, in the file's order.
    keys = [line.split(" = ")[0] for line in toml_text.splitlines() if " = " in line]
    assert [item["setting"].rsplit(".", 1)[-1] for item in document["items"]] == keys


def test_validate_gives_its_problems_as_rows(tmp_path: Path) -> None:
    bad = tmp_path / "results.csv"
    bad.write_text("round,deal,table,seat,player,score\n1,1,1,0,A,5\n1,1,1,1,B,x\n")
    code, out, _ = run("validate", bad, "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert document["ok"] is False
    assert [p["level"] for p in document["items"]] == ["error"]
    assert document["items"][0]["rows"] == [3]
    code, out, _ = run("validate", bad, "--format", "csv")
    assert code == 1
    rows = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert list(rows["level"]) == ["error"]
    assert list(rows["code"]) == [document["items"][0]["code"]]
    # For a person, as before: messages on standard error, nothing on standard output.
    code, out, err = run("validate", bad)
    assert (code, out) == (1, "")
    assert document["items"][0]["code"] in err


def test_event_status_as_csv_and_a_table(tmp_path: Path) -> None:
    folder = event_folder(tmp_path, "spring")
    code, out, _ = run("event", "status", folder, "--format", "csv")
    assert code == 0
    rounds = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert list(rounds.columns) == ["round", "rows", "sha256", "file"]
    assert list(rounds["round"]) == ["1", "2", "3"]
    code, out, err = run("event", "status", folder, "--format", "table")
    assert code == 0
    assert "round-0003.parquet" in out
    assert "chain intact" in err


def test_explain_as_csv_gives_the_deals() -> None:
    code, out, _ = run("explain", "P39", EVENT, "--format", "csv")
    assert code == 0
    deals = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert len(deals) == 24
    assert list(deals.columns)[:4] == ["round", "deal", "table", "seat"]


def test_verify_reads_standings_published_as_the_envelope_or_as_before(tmp_path: Path) -> None:
    code, out, _ = run("standings", EVENT, "--format", "json")
    document = json.loads(out)
    (tmp_path / "new.json").write_text(out)
    before = {k: v for k, v in document.items() if k not in ("kind", "items")}
    (tmp_path / "old.json").write_text(json.dumps({**before, "standings": document["items"]}))
    for name in ("new.json", "old.json"):
        code, _, err = run("verify", EVENT, tmp_path / name)
        assert code == 0, err


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_a_manifest_check_gives_its_checks(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results.csv").write_bytes(EVENT.read_bytes())
    code, _, err = run("standings", "results.csv", "-o", "s.csv", "--manifest", "run.json")
    assert code == 0, err
    code, out, err = run("manifest", "check", "run.json", "--no-rerun", "--format", fmt)
    assert code == 0, err
    if fmt == "json":
        document = json.loads(out)
        assert document["kind"] == "checks"
        assert document["agrees"] is True
        assert {c["path"] for c in document["items"]} >= {"results.csv", "s.csv"}
    else:
        checks = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
        assert list(checks.columns) == ["item", "path", "recorded", "now", "agrees"]
        assert set(checks["agrees"]) == {"true"}


def test_a_rules_file_s_decimals_are_held_as_written(tmp_path: Path) -> None:
    """A factor written with more digits than a float holds is kept digit for digit:
    in the rules printed, in the envelope's rules and in its items; a whole number
    written as 10000.0 is refused as a whole number, named as written."""
    exact = "0.12345678901234567890123"
    rules = tmp_path / "rules.toml"
    rules.write_text(f"[rank_points]\nfactors = [1, {exact}]\n")
    code, out, err = run("rules", "--rules", rules)
    assert code == 0, err
    assert f"factors = [1.0, {exact}]" in out
    document = json.loads(run("rules", "--rules", rules, "--format", "json")[1], parse_float=str)
    assert document["rules"]["rank_points"]["factors"] == ["1.0", exact]
    listed = {item["setting"]: item["value"] for item in document["items"]}
    assert listed["rank_points.factors"] == ["1.0", exact]
    rules.write_text("[rank_points]\nbase = 10000.0\n")
    code, _, err = run("rules", "--rules", rules)
    assert code == 2
    assert "rank_points.base must be a whole number, not 10000.0" in " ".join(err.split())
