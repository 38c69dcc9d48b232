"""Every command has its function in the library, giving what the command writes."""

from __future__ import annotations

import ast
import importlib
import io
import json
import tomllib
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
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
    assert set(duplicate.__all__) <= set(dir(duplicate))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        duplicate.nothing  # noqa: B018


def test_type_checkers_see_the_names_the_package_gives() -> None:
    """The package imports each name on first use; the imports type checkers read
    (under TYPE_CHECKING) name the same objects, from the same modules."""
    tree = ast.parse(Path(duplicate.__file__).read_text(encoding="utf-8"))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    )
    seen = {
        alias.asname or alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert set(seen) == set(duplicate.__all__) - {"__version__"}
    for name, module in seen.items():
        assert getattr(duplicate, name) is getattr(importlib.import_module(str(module)), name)


def test_seat_is_the_seat_command() -> None:
    seating = duplicate.seat(EVENT)
    assert isinstance(seating, duplicate.Seated)
    shown = pd.read_csv(io.StringIO(cli("seat", str(EVENT))))
    assert seating.frame["player"].astype(str).tolist() == shown["player"].tolist()


def test_explain_is_the_explain_command() -> None:
    explained = duplicate.explain(EVENT, "P39", duplicate.Rules())
    assert isinstance(explained, duplicate.Explanation)
    # Numbers as written on both sides: 72.73 is the decimal, not the float near it.
    document = json.loads(
        cli("explain", "P39", str(EVENT), "--format", "json"), parse_float=Decimal
    )
    # The command's JSON is the envelope: the deals as its items, the rest beside them.
    assert (document["version"], document["kind"]) == (duplicate.__version__, "deals")
    assert document["rules"] == tomllib.loads(explained.rules.to_toml(), parse_float=Decimal)
    found = {k: v for k, v in document.items() if k not in ("version", "kind", "rules")}
    deals = found.pop("items")
    assert explained.to_json() == {**found, "deals": deals}


def test_verify_and_publish_agree_with_the_commands(tmp_path: Path) -> None:
    event = duplicate.load_event(EVENT)
    out = tmp_path / "standings.csv"
    written = duplicate.publish(duplicate.standings(event), str(out))
    assert [w.path for w in written] == [str(out), str(tmp_path / "standings.rules.toml")]
    assert out.read_text() == cli("standings", str(EVENT))
    found = duplicate.verify(event, out)
    assert found.agrees
    assert found.differences.frame.empty


def test_game_score_is_the_game_score_command() -> None:
    case = Path(__file__).parent / "golden_games" / "big2_appendix_1"
    table = duplicate.game_score(case / "raw.csv", "big2").frame
    shown = pd.read_csv(io.StringIO(cli("game-score", "-g", "big2", str(case / "raw.csv"))))
    assert table["score"].astype(int).tolist() == shown["score"].tolist()


def test_leaderboard_is_the_leaderboard_command(tmp_path: Path) -> None:
    games = tmp_path / "games.csv"
    games.write_text(
        "player,game_id,finished_at,outcome\n"
        "A,1,2025-01-21T10:00,win\nB,1,2025-01-21T10:00,loss\n"
        "B,2,2025-01-21T11:00,win\nC,2,2025-01-21T11:00,loss\n"
    )
    board = duplicate.leaderboard(games, "xiangqi").frame
    shown = pd.read_csv(io.StringIO(cli("leaderboard", str(games), "--scheme", "xiangqi")))
    assert board["player"].astype(str).tolist() == shown["player"].tolist()


def test_a_manifest_records_the_files(tmp_path: Path) -> None:
    out = tmp_path / "scores.parquet"
    manifest = tmp_path / "run.json"
    table = duplicate.score(EVENT)
    duplicate.publish(table, str(out), manifest=str(manifest))
    document = json.loads(manifest.read_text())
    assert document["outputs"][0]["rows"] == len(table)
    assert document["inputs"][0]["rows"] == 1152


def test_publish_never_replaces_an_input(tmp_path: Path) -> None:
    import pytest

    rules_file = tmp_path / "out.rules.toml"
    rules_file.write_text("tie_ranking = 'dense'\n")
    table = duplicate.standings(EVENT, rules_file=str(rules_file))
    with pytest.raises(duplicate.UsageError) as caught:
        duplicate.publish(table, str(tmp_path / "out.csv"))
    assert caught.value.code == "output.is-input"
    assert rules_file.read_text() == "tie_ranking = 'dense'\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.rules.toml"]


def test_a_stage_from_the_library_is_the_elimination_command() -> None:
    stage = duplicate.StageRules(
        base=(
            (Decimal(0), 100),
            (Decimal(4), 200),
            (Decimal(8), 400),
        ),
        advance=3,
    )
    played = duplicate.elimination(SAMPLE / "stage_example.csv", duplicate.Rules(stage=stage))
    shown = cli(
        "elimination",
        str(SAMPLE / "stage_example.csv"),
        "--base",
        "0:100,4:200,8:400",
        "--advance",
        "3",
    )
    assert list(played.frame["player"]) == list(pd.read_csv(io.StringIO(shown))["player"])
    assert len(played.ledger) == 8


def test_report_can_be_called_again() -> None:
    first = duplicate.report(SAMPLE / "spec_example.csv")
    again = duplicate.report(SAMPLE / "spec_example.csv", lang="zh")
    assert isinstance(first, duplicate.Site)
    assert isinstance(again, duplicate.Site)
    assert sorted(first.pages) == sorted(again.pages)


def test_tables_in_memory_are_read_as_the_command_says() -> None:
    raw_file = Path(__file__).parent / "golden_games" / "big2_appendix_1" / "raw.csv"
    raw = pd.read_csv(raw_file, dtype=str, keep_default_na=False)
    scored = duplicate.game_score(raw, "big2").frame
    assert (
        scored["score"].tolist() == duplicate.game_score(raw_file, "big2").frame["score"].tolist()
    )
    hands = pd.read_csv(SAMPLE / "stage_example.csv", dtype=str, keep_default_na=False)
    stage = duplicate.elimination(hands, advance=3).frame
    assert stage.equals(duplicate.elimination(SAMPLE / "stage_example.csv", advance=3).frame)


def test_what_holds_arrays_is_compared_by_identity() -> None:
    """An event's results and adjustments, and a command's table, can be compared and
    put in a set: each is itself only (their arrays have no single truth value)."""
    session = SAMPLE / "bridge_session.pbn"
    event = duplicate.load_event(session, adjustments=SAMPLE / "bridge_adjustments.csv")
    again = duplicate.load_event(session, adjustments=SAMPLE / "bridge_adjustments.csv")
    table = duplicate.standings(event)
    assert event.results == event.results
    assert event.results != again.results
    assert event.adjustments == event.adjustments
    assert event.adjustments != again.adjustments
    assert table == table
    assert table != duplicate.standings(again)
    assert len({event.results, again.results, event.adjustments, table}) == 4


TEXT = "str"
DECIMAL2 = "decimal64(18, 2)[pyarrow]"


def test_the_library_gives_its_tables_in_pandas_with_their_types() -> None:
    """A caller working in pandas gets the results, scores and standings with the
    column types they have always had: text as pandas' str, exact decimals kept."""
    results = duplicate.load_event(EVENT).results
    assert results is not None
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
    standings = duplicate.standings(results).frame
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
    percentage = duplicate.standings(results, duplicate.Rules(method="percentage")).frame
    assert {k: str(v) for k, v in percentage.dtypes.items()} == {
        "section": TEXT,
        "place": "int64",
        "player": TEXT,
        "percentage": DECIMAL2,
        "mp": "int64",
        "top": "int64",
        "deals": "int64",
    }
    points = duplicate.standings(results, duplicate.Rules(method="standard-points")).frame
    assert str(points["place"].dtype) == "Int64"
    assert str(points["average_sp"].dtype) == DECIMAL2
    scores = duplicate.score(results).frame
    assert str(scores["player"].dtype) == "large_string[pyarrow]"
    assert str(scores["rank_points"].dtype) == DECIMAL2


def test_results_from_pandas_are_the_file_s_results() -> None:
    """A pandas table is read as the file it came from: the same scores."""
    from_pandas = pd.read_csv(EVENT, dtype=str, keep_default_na=False)
    assert duplicate.score(from_pandas).frame.equals(duplicate.score(EVENT).frame)
    assert duplicate.standings(from_pandas).frame.equals(duplicate.standings(EVENT).frame)


@pytest.mark.slow
def test_a_misspelled_name_is_a_type_error(tmp_path: Path) -> None:
    """Names are imported on first use at run time; a type checker still knows them
    all, and no other."""
    api = pytest.importorskip("mypy.api")
    program = tmp_path / "uses.py"
    program.write_text(
        "import duplicate\n"
        "table = duplicate.standings('results.csv')\n"
        "other = duplicate.standingz('results.csv')\n"
    )
    root = Path(duplicate.__file__).parent.parent
    options = ["--cache-dir", str(tmp_path / "cache"), "--follow-imports", "silent"]
    config = ["--config-file", str(root / "pyproject.toml")]
    out, _, status = api.run([str(program), *options, *config])
    assert status == 1, out
    assert 'has no attribute "standingz"' in out
    assert "uses.py:2" not in out
