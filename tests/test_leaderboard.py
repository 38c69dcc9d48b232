"""Points races (004_*.txt): presets, ties to the first to finish, scheme files, bad rows."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from duplicate.games.leaderboard import load_scheme
from tests.conftest import codes, line_of, problem_codes

runner = CliRunner()


def board(rows: list[dict[str, object]], scheme: str) -> pd.DataFrame:
    return duplicate.leaderboard(pd.DataFrame(rows).astype(str), scheme).frame


def game(gid: str, when: str, **players: object) -> list[dict[str, object]]:
    return [
        {"game_id": gid, "finished_at": when, "player": p, "outcome": o} for p, o in players.items()
    ]


def test_xiangqi_and_go_points() -> None:
    rows = game("1", "2025-01-21T10:00", A="win", B="loss") + game(
        "2", "2025-01-21T11:00", A="和", C="和"
    )
    table = board(rows, "go")
    assert dict(zip(table["player"], table["points"], strict=True)) == {"A": 4, "C": 1, "B": -2}
    assert load_scheme("xiangqi").points == load_scheme("go").points
    assert load_scheme("go").points == {"win": 3, "draw": 1, "loss": -2}


def test_equal_points_go_to_the_player_who_finished_first() -> None:
    rows = game("1", "2025-01-21T10:00", A="win", X="loss") + game(
        "2", "2025-01-21T09:00", B="win", Y="loss"
    )
    table = board(rows, "gomoku")
    assert list(table["player"][:2]) == ["B", "A"]
    assert list(table["decided_by"][:2]) == ["", "finished_first"]
    same = game("1", "2025-01-21T10:00", A="win", X="loss") + game(
        "2", "2025-01-21T10:00", B="win", Y="loss"
    )
    tied = board(same, "gomoku")
    assert list(tied["place"][:2]) == [1, 1]
    assert list(tied["tied"][:2]) == [True, True]


def test_gomoku_has_no_draw() -> None:
    with pytest.raises(duplicate.InvalidData) as caught:
        board(game("1", "2025-01-21T10:00", A="draw", B="draw"), "gomoku")
    assert problem_codes(caught.value) == ["games.bad-cell"] * 2
    assert [(p.rows, p.column) for p in caught.value.problems] == [
        ((2,), "outcome"),
        ((3,), "outcome"),
    ]


def test_guandan_by_finishing_places() -> None:
    rows = []
    for gid, finish in (("1", "1-2"), ("2", "1-3"), ("3", "1-4")):
        for player, outcome in (("W1", "win"), ("W2", "win"), ("L1", "loss"), ("L2", "loss")):
            rows.append(
                {
                    "game_id": gid,
                    "finished_at": f"2025-01-22T1{gid}:00",
                    "player": player,
                    "outcome": outcome,
                    "finish": finish,
                }
            )
    table = board(rows, "guandan")
    assert dict(zip(table["player"], table["points"], strict=True)) == {
        "W1": 15,
        "W2": 15,
        "L1": 3,
        "L2": 3,
    }


@pytest.mark.parametrize(
    ("defended", "dealer"),
    [
        (0, 3),
        (5, 2),
        (35, 2),
        (40, 1),
        (75, 1),
        (80, -1),
        (115, -1),
        (120, -2),
        (155, -2),
        (160, -3),
        (200, -3),
    ],
)
def test_shengji_by_the_defenders_points(defended: int, dealer: int) -> None:
    rows = [
        {
            "game_id": "1",
            "finished_at": "2025-01-23T10:00",
            "player": p,
            "role": role,
            "defender_points": defended,
        }
        for p, role in (("D1", "dealer"), ("D2", "庄家"), ("F1", "defender"), ("F2", "闲家"))
    ]
    points = dict(zip(*(board(rows, "shengji")[c] for c in ("player", "points")), strict=True))
    assert points == {"D1": dealer, "D2": dealer, "F1": -dealer, "F2": -dealer}


def test_doudizhu_points_by_multipliers() -> None:
    rows = [
        {
            "game_id": "1",
            "finished_at": "2025-01-24T10:00",
            "player": p,
            "role": role,
            "bid": 3,
            "bombs": 1,
            "rocket": 1,
            "spring": 0,
            "won": won,
        }
        for p, role, won in (("L", "landlord", 1), ("F1", "farmer", 0), ("F2", "farmer", 0))
    ] + [
        {
            "game_id": "2",
            "finished_at": "2025-01-24T11:00",
            "player": p,
            "role": role,
            "bid": 1,
            "bombs": 0,
            "rocket": 0,
            "spring": 0,
            "won": won,
        }
        for p, role, won in (("F1", "landlord", 0), ("L", "farmer", 1), ("F2", "farmer", 1))
    ]
    table = board(rows, "doudizhu")
    assert dict(zip(table["player"], table["points"], strict=True)) == {
        "L": 25,
        "F2": -11,
        "F1": -14,
    }


def test_a_scheme_file(tmp_path: Path) -> None:
    scheme = tmp_path / "mahjong.toml"
    scheme.write_text("[points]\nwin = 4\nloss = -1\n", encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text(
        "player,game_id,outcome,finished_at\nA,1,win,2025-01-25T10:00\nB,1,loss,2025-01-25T10:00\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["leaderboard", str(games), "--scheme", str(scheme)])
    assert result.exit_code == 0, result.stderr
    assert list(pd.read_csv(io.StringIO(result.stdout))["points"]) == [4, -1]
    bad = runner.invoke(app, ["leaderboard", str(games), "--scheme", "chess"])
    assert bad.exit_code == 2
    assert codes(bad.stderr) == ["scheme.unknown"]
    assert "'chess'" in line_of("scheme.unknown", bad.stderr)


def test_bad_rows_name_the_row(tmp_path: Path) -> None:
    games = tmp_path / "games.csv"
    games.write_text(
        "player,game_id,outcome,finished_at\nA,1,win,yesterday\nB,1,lost it,2025-01-25T10:00\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["leaderboard", str(games)])
    assert result.exit_code == 1
    assert codes(result.stderr) == ["games.bad-cell"]
    assert "row 2, column 'finished_at': " in line_of("games.bad-cell", result.stderr)


def test_finishing_times_compare_across_zones_and_keep_their_own() -> None:
    """10:00 in Beijing (+08:00) is 02:00 UTC: before 09:00 UTC; each time is shown as
    it was written."""
    rows = game("1", "2025-01-21T09:00:00Z", A="win", X="loss") + game(
        "2", "2025-01-21T10:00:00+08:00", B="win", Y="loss"
    )
    table = board(rows, "gomoku")
    assert list(table["player"][:2]) == ["B", "A"]
    assert list(table["last_finished"][:2]) == ["2025-01-21T10:00:00+08:00", "2025-01-21T09:00:00Z"]
