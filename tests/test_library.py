"""Every command has its function in the library, giving what the command writes."""

from __future__ import annotations

import io
import json
from decimal import Decimal
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
    from duplicate.scoring.explain import as_json

    # Numbers as written on both sides: 72.73 is the decimal, not the float near it.
    document = json.loads(
        cli("explain", "P39", str(EVENT), "--format", "json"), parse_float=Decimal
    )
    assert as_json(explained) == document


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


TEXT = "str"
DECIMAL2 = "decimal64(18, 2)[pyarrow]"


def test_the_library_gives_its_tables_in_pandas_with_their_types() -> None:
    """A caller working in pandas gets the results, scores and standings with the
    column types they have always had: text as pandas' str, exact decimals kept."""
    results = duplicate.read_results(EVENT)
    assert {k: str(v) for k, v in results.frame.dtypes.items()} == {
        "row": "int32",
        "section": "category",
        "round": "int64",
        "deal": "int64",
        "table": "int64",
        "seat": "int64",
        "player": TEXT,
        "score_units": "int64",
        "seconds_units": "int64",
    }
    assert results.frame["section"].cat.categories.tolist() == [""]
    standings = duplicate.standings(results)
    assert {k: str(v) for k, v in standings.dtypes.items()} == {
        "section": TEXT,
        "place": "int64",
        "player": TEXT,
        "total": DECIMAL2,
        "penalty": DECIMAL2,
        "deals": "int64",
        "beaten_avg": DECIMAL2,
        "rank_counts": TEXT,
        "total_seconds": "decimal64(18, 0)[pyarrow]",
        "trimmed_seconds": DECIMAL2,
        "decided_by": TEXT,
        "playoff": "bool",
    }
    assert isinstance(standings.index, pd.RangeIndex)
    percentage = duplicate.standings(results, duplicate.Rules(method="percentage"))
    assert {k: str(v) for k, v in percentage.dtypes.items()} == {
        "section": TEXT,
        "place": "int64",
        "player": TEXT,
        "percentage": DECIMAL2,
        "mp": "int64",
        "top": "int64",
        "deals": "int64",
    }
    points = duplicate.standings(results, duplicate.Rules(method="standard-points"))
    assert str(points["place"].dtype) == "Int64"
    assert str(points["average_sp"].dtype) == DECIMAL2
    scores = duplicate.score(results)
    assert str(scores["player"].dtype) == "large_string[pyarrow]"
    assert str(scores["rank_points"].dtype) == DECIMAL2


def test_results_from_pandas_are_the_file_s_results() -> None:
    """parse_results takes a pandas table as the file's own: the same scores."""
    raw, first_row = duplicate.read_table(EVENT)
    from_pandas = duplicate.parse_results(raw, str(EVENT), first_row)
    from_file = duplicate.read_results(EVENT)
    assert duplicate.score(from_pandas).equals(duplicate.score(from_file))
    assert duplicate.standings(from_pandas).equals(duplicate.standings(from_file))
