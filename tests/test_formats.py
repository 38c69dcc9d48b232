"""Pairs events (partners opposite, moving as a unit) and human-versus-robot tables."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import codes, line_of, problem_codes

runner = CliRunner()
PLAYERS = [f"p{i:02d}" for i in range(16)]
PARTNERS = {
    **{PLAYERS[i]: PLAYERS[i + 1] for i in range(0, 16, 2)},
    **{PLAYERS[i + 1]: PLAYERS[i] for i in range(0, 16, 2)},
}


def assert_partners_opposite(seating: pd.DataFrame, partners: dict[str, str]) -> None:
    at = seating.set_index("player")
    for player, partner in partners.items():
        if player in at.index:
            assert at.loc[player, "table"] == at.loc[partner, "table"]
            assert abs(int(at.loc[player, "seat"]) - int(at.loc[partner, "seat"])) == 2


def play(seating: pd.DataFrame, round_no: int, rng: np.random.Generator) -> pd.DataFrame:
    seated = seating[~seating["bye"]]
    return pd.DataFrame(
        {
            "round": round_no,
            "deal": 1,
            "table": seated["table"].to_numpy(dtype=np.int64),
            "seat": seated["seat"].to_numpy(dtype=np.int64),
            "player": seated["player"].astype(str).to_numpy(),
            "score": rng.integers(-5, 6, len(seated)),
        }
    )


def test_partners_sit_opposite_and_move_as_units_round_after_round() -> None:
    rng = np.random.default_rng(4)
    field = pd.DataFrame({"player": PLAYERS})
    seating = duplicate.seat(players=field, round_number=1, seed=8, partners=PARTNERS).frame
    results = []
    for round_no in (1, 2, 3):
        assert_partners_opposite(seating, PARTNERS)
        assert sorted(seating["player"]) == sorted(PLAYERS)
        results.append(play(seating, round_no, rng))
        seating = duplicate.seat(pd.concat(results), partners=PARTNERS).frame


def test_units_follow_their_better_placed_member() -> None:
    rng = np.random.default_rng(5)
    field = pd.DataFrame({"player": PLAYERS})
    first = duplicate.seat(players=field, round_number=1, seed=2, partners=PARTNERS).frame
    results = play(first, 1, rng)
    order = list(duplicate.standings(results).frame["player"])
    seating = duplicate.seat(results, partners=PARTNERS, avoid_repeats=False).frame
    unit_rank = sorted({min(order.index(p), order.index(PARTNERS[p])) for p in PLAYERS})
    leaders = [order[i] for i in unit_rank]
    table1 = seating[seating["table"] == 1]
    assert set(table1["player"]) == {
        leaders[0],
        PARTNERS[leaders[0]],
        leaders[1],
        PARTNERS[leaders[1]],
    }
    assert int(table1.set_index("player").loc[leaders[0], "seat"]) in (0, 2)


def test_an_odd_number_of_partnerships_gets_a_robot_pair() -> None:
    field = pd.DataFrame({"player": PLAYERS[:6]})
    partners = {p: q for p, q in PARTNERS.items() if p in PLAYERS[:6]}
    seating = duplicate.seat(players=field, round_number=1, seed=1, partners=partners)
    robots = seating.frame[seating.frame["player"].str.startswith("robot-")]
    assert sorted(robots["player"]) == ["robot-1", "robot-2"]
    assert abs(int(robots["seat"].iloc[0]) - int(robots["seat"].iloc[1])) == 2
    assert seating.reports[0].robots == 2


def test_partner_file_problems(tmp_path: Path) -> None:
    players, partners = tmp_path / "players.csv", tmp_path / "partners.csv"
    players.write_text("player\nA\nB\nC\nD\n")
    seat = ["seat", "--players", str(players), "--round", "1", "--seed", "1"]
    for lines, code, where, named in [
        ("A,B\nA,C\n", "partners.several", "rows 2, 3, column 'partner'", ["'A'", "'B'", "'C'"]),
        ("A,A\n", "partners.own-partner", "row 2, column 'partner'", ["'A'"]),
    ]:
        partners.write_text("player,partner\n" + lines)
        done = runner.invoke(app, [*seat, "--partners", str(partners)])
        assert done.exit_code == 1
        assert codes(done.stderr) == [code]
        line = line_of(code, done.stderr)
        assert f"[{code}]: {partners}, {where}: " in line
        assert all(name in line for name in named)
    field = pd.DataFrame({"player": ["A", "B", "C", "D"]})
    with pytest.raises(duplicate.UsageError) as caught:
        duplicate.seat(players=field, round_number=1, seed=1, partners={"A": "B", "B": "A"})
    assert problem_codes(caught.value) == ["partners.missing"]
    assert "'C', 'D'" in str(caught.value)


def test_versus_robots_seats_everyone_alone_in_seat_0() -> None:
    field = pd.DataFrame({"player": PLAYERS[:5]})
    seating = duplicate.seat(
        players=field, round_number=1, seed=1, table_size=3, versus_robots=True
    ).frame
    humans = seating[~seating["player"].str.startswith("robot-")]
    assert sorted(humans["player"]) == PLAYERS[:5]
    assert set(humans["seat"]) == {0}
    assert humans["table"].is_unique
    assert seating["player"].is_unique
    assert len(seating) == 15


def test_seat_command_with_partners(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("player\n" + "\n".join(PLAYERS[:8]) + "\n", encoding="utf-8")
    partners = tmp_path / "partners.csv"
    partners.write_text("player,partner\np00,p01\np02,p03\np04,p05\np06,p07\n", encoding="utf-8")
    args = [
        "seat",
        "--players",
        str(players),
        "--partners",
        str(partners),
        "--round",
        "1",
        "--seed",
        "3",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    seating = pd.read_csv(io.StringIO(result.stdout))
    assert_partners_opposite(seating, {**PARTNERS})
    bad = runner.invoke(app, [*args, "-k", "3"])
    assert bad.exit_code == 2
    assert codes(bad.stderr) == ["seat.partners-table"]
    both = runner.invoke(app, [*args, "--versus-robots"])
    assert both.exit_code == 2
