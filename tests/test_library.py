"""Every command has its function in the library, giving what the command writes."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import SAMPLE

EVENT = SAMPLE / "big2_event.csv"


def cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_every_public_name_resolves() -> None:
    for name in duplicate.__all__:
        assert getattr(duplicate, name) is not None, name


def test_seat_next_round_is_the_seat_command() -> None:
    seating = duplicate.seat_next_round(duplicate.read_results(EVENT), duplicate.Rules())
    assert isinstance(seating, duplicate.Seating)
    shown = pd.read_csv(io.StringIO(cli("seat", str(EVENT))))
    assert seating.frame["player"].astype(str).tolist() == shown["player"].tolist()


def test_explain_is_the_explain_command() -> None:
    results = duplicate.read_results(EVENT)
    explained = duplicate.explain(results, "P39", duplicate.Rules())
    # Numbers as written: 72.73 is the decimal, not the float near it.
    document = json.loads(
        cli("explain", "P39", str(EVENT), "--format", "json"), parse_float=Decimal
    )
    assert_same_explanation(explained, document)


def assert_same_explanation(value: object, shown: object) -> None:
    """The library's explanation and the command's JSON hold the same things: each
    number the same number (a fraction with no decimal end shown as "1/3 (= 0.33)")."""
    if isinstance(value, dict):
        assert isinstance(shown, dict)
        assert [str(k) for k in value] == list(shown)
        for k, v in value.items():
            assert_same_explanation(v, shown[str(k)])
    elif isinstance(value, list):
        assert isinstance(shown, list)
        assert len(value) == len(shown)
        for v, w in zip(value, shown, strict=True):
            assert_same_explanation(v, w)
    elif isinstance(value, Fraction) and isinstance(shown, str):
        assert Fraction(shown.split(" ")[0]) == value
    elif isinstance(value, Fraction | Decimal | int) and not isinstance(value, bool):
        assert Fraction(shown) == Fraction(value)  # type: ignore[arg-type]
    else:
        assert shown == value


def test_verify_and_write_table_agree_with_the_commands(tmp_path: Path) -> None:
    results = duplicate.read_results(EVENT)
    rules = duplicate.Rules()
    out = tmp_path / "standings.csv"
    written = duplicate.write_table(duplicate.standings(results, rules), out, rules, "standings")
    assert [w.path for w in written] == [str(out), str(tmp_path / "standings.rules.toml")]
    assert out.read_text() == cli("standings", str(EVENT))
    found = duplicate.verify(results, duplicate.read_published(out), rules)
    assert found.empty


def test_scored_raw_is_the_game_score_command() -> None:
    case = Path(__file__).parent / "golden_games" / "big2_appendix_1"
    raw, first_row = duplicate.read_table(case / "raw.csv")
    results = duplicate.parse_results(raw, "raw.csv", first_row, score_required=False)
    table = duplicate.scored_raw(results, raw, "big2")
    shown = pd.read_csv(io.StringIO(cli("game-score", "-g", "big2", str(case / "raw.csv"))))
    assert table["score"].astype(int).tolist() == shown["score"].tolist()


def test_leaderboard_is_the_leaderboard_command(tmp_path: Path) -> None:
    games = tmp_path / "games.csv"
    games.write_text(
        "player,game_id,finished_at,outcome\n"
        "A,1,2025-01-21T10:00,win\nB,1,2025-01-21T10:00,loss\n"
        "B,2,2025-01-21T11:00,win\nC,2,2025-01-21T11:00,loss\n"
    )
    raw, _ = duplicate.read_table(games)
    board = duplicate.leaderboard(raw, duplicate.load_scheme("xiangqi"))
    shown = pd.read_csv(io.StringIO(cli("leaderboard", str(games), "--scheme", "xiangqi")))
    assert board["player"].astype(str).tolist() == shown["player"].tolist()


def test_write_manifest_records_the_files(tmp_path: Path) -> None:
    rules = duplicate.Rules()
    results = duplicate.read_results(EVENT)
    out = tmp_path / "scores.parquet"
    written = duplicate.write_table(duplicate.score_batches(results, rules), out, rules, "scores")
    manifest = tmp_path / "run.json"
    duplicate.write_manifest(
        str(manifest),
        command="score",
        rules=rules,
        inputs=[duplicate.input_record("results", str(EVENT), len(results.frame))],
        outputs=written,
    )
    document = json.loads(manifest.read_text())
    assert document["outputs"][0]["rows"] == len(results.frame)
    assert document["inputs"][0]["rows"] == 1152


def test_write_table_never_replaces_an_input(tmp_path: Path) -> None:
    import pytest

    rules_file = tmp_path / "out.rules.toml"
    rules_file.write_text("tie_ranking = 'dense'\n")
    rules = duplicate.load_rules(rules_file)
    table = duplicate.standings(duplicate.read_results(EVENT), rules)
    with pytest.raises(duplicate.UsageError, match="is an input file"):
        duplicate.write_table(table, tmp_path / "out.csv", rules, "standings", inputs=[rules_file])
    assert rules_file.read_text() == "tie_ranking = 'dense'\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.rules.toml"]


def test_a_stage_from_the_library_is_the_elimination_command() -> None:
    rules = duplicate.StageRules(
        base=(
            (Decimal(0), 100),
            (Decimal(4), 200),
            (Decimal(8), 400),
        ),
        advance=3,
    )
    stage = duplicate.eliminate(duplicate.read_hand_log(SAMPLE / "stage_example.csv"), rules)
    shown = cli(
        "elimination",
        str(SAMPLE / "stage_example.csv"),
        "--base",
        "0:100,4:200,8:400",
        "--advance",
        "3",
    )
    assert list(stage.standings["player"]) == list(pd.read_csv(io.StringIO(shown))["player"])
    assert len(stage.ledger) == 8
