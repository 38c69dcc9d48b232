"""Swiss seating: the spec's snake table, fills, players files and reproducible draws."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import SAMPLE, codes, line_of

runner = CliRunner()


def grid(seating: pd.DataFrame) -> list[list[object]]:
    """Rank numbers (1-based) by table, seat 0 first."""
    rows = seating.sort_values(["table", "seat"])
    return [list(group["player"]) for _, group in rows.groupby("table")]


def ranked(field: list[object], sat_out: dict[object, int] | None = None) -> pd.DataFrame:
    """Results whose standings are `field` in order: one deal, everyone in one
    comparison group, best first; then a round for each bye in `sat_out` (a player's
    count of rounds missed), in which every other player ties."""
    rows = [
        {"round": 1, "deal": 1, "seat": 0, "player": p, "score": len(field) - i}
        for i, p in enumerate(field)
    ]
    for round_no in range(2, 2 + max((sat_out or {}).values(), default=0)):
        rows += [
            {"round": round_no, "deal": 1, "seat": 0, "player": p, "score": 0}
            for p in field
            if (sat_out or {}).get(p, 0) < round_no - 1
        ]
    return pd.DataFrame(rows)


def numbered(tables: list[list[int]]) -> list[list[str]]:
    """Player numbers as a seating names them."""
    return [[str(p) for p in table] for table in tables]


def seated(field: list[object], k: int, **options: object) -> duplicate.Seated:
    return duplicate.seat(ranked(field), table_size=k, avoid_repeats=False, **options)  # type: ignore[arg-type]


def test_spec_snake_table_of_3() -> None:
    seating = seated(list(range(1, 13)), 3).frame
    assert grid(seating) == numbered([[1, 2, 3], [6, 5, 4], [7, 8, 9], [12, 11, 10]])


def test_snake_and_straight_tables_of_4() -> None:
    assert grid(seated(list(range(1, 13)), 4).frame) == numbered(
        [[1, 2, 3, 4], [8, 7, 6, 5], [9, 10, 11, 12]]
    )
    straight = seated(list(range(1, 13)), 4, order="straight").frame
    assert grid(straight) == numbered([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])


def test_robots_complete_the_last_table() -> None:
    seating = seated(["a", "b", "c", "d", "e"], 3)
    assert [report.robots for report in seating.reports] == [1]
    assert grid(seating.frame) == [["a", "b", "c"], ["robot-1", "e", "d"]]


def test_byes_go_to_the_lowest_ranked_with_fewest_byes() -> None:
    field = ["a", "b", "c", "d", "e"]
    first = seated(field, 2, fill="bye").frame
    assert list(first.loc[first["bye"], "player"]) == ["e"]
    # e sat out round 2 (and stays last): the bye goes to d.
    again = duplicate.seat(ranked(field, {"e": 1}), table_size=2, fill="bye", avoid_repeats=False)
    assert list(again.frame.loc[again.frame["bye"], "player"]) == ["d"]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(2, 5),
    st.sampled_from(["snake", "straight"]),
    st.sampled_from(["robot", "bye"]),
)
def test_every_player_is_seated_exactly_once(n: int, k: int, order: str, fill: str) -> None:
    field = [f"p{i}" for i in range(n)]
    seating = seated(field, k, order=order, fill=fill).frame
    humans = seating[~seating["player"].str.startswith("robot-")]
    assert sorted(humans["player"]) == sorted(field)
    at_tables = seating[~seating["bye"]]
    assert (at_tables.groupby("table").size() == k).all()
    assert at_tables.empty or sorted(at_tables["seat"].unique()) == list(range(k))
    assert not at_tables.duplicated(["table", "seat"]).any()
    assert seating["bye"].sum() == (n % k if fill == "bye" else 0)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.text("abcdef", min_size=1, max_size=4), unique=True, max_size=30),
    st.integers(0, 2**32),
)
def test_round_1_draw_is_reproducible_from_the_seed(names: list[str], seed: int) -> None:
    players = pd.DataFrame({"player": names})
    shuffled = pd.DataFrame({"player": list(reversed(names))})
    one = duplicate.seat(players=players, table_size=3, round_number=1, seed=seed).frame
    two = duplicate.seat(players=shuffled, table_size=3, round_number=1, seed=seed).frame
    assert one.equals(two)


def test_next_round_follows_the_standings() -> None:
    event = duplicate.load_event(SAMPLE / "big2_event.csv")
    order = list(duplicate.standings(event).frame["player"])
    seating = duplicate.seat(event, avoid_repeats=False).frame
    assert set(seating["round"]) == {4}
    assert grid(seating)[0] == order[:4]
    assert grid(seating)[1] == order[4:8][::-1]


def test_players_file_withdrawals_and_late_entries(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text(
        "player,status,registered\nP39,withdrawn,1\nLATE2,,9\nLATE1,active,5\n", encoding="utf-8"
    )
    seating = duplicate.seat(
        SAMPLE / "big2_event.csv", players=str(players), avoid_repeats=False
    ).frame
    assert "P39" not in set(seating["player"])
    where = seating.set_index("player")[["table", "seat"]]
    # 47 ranked players, then LATE1 (registered first) as 48th, LATE2 as 49th: the
    # last three tables hold three players and a robot each (47, LATE1, LATE2 at 13).
    assert tuple(where.loc["LATE1"]) == (13, 1)
    assert tuple(where.loc["LATE2"]) == (13, 2)
    assert len(seating) == 52
    robots = seating[seating["player"].str.startswith("robot-")]
    assert sorted(robots["table"]) == [11, 12, 13]


@pytest.mark.parametrize("avoid_repeats", [False, True])
def test_robots_are_spread_one_a_table(avoid_repeats: bool) -> None:
    event = pd.read_csv(SAMPLE / "big2_event.csv")
    fewer = event[~event["player"].isin(["P17", "P18", "P19"])]
    seating = duplicate.seat(fewer, table_size=4, avoid_repeats=avoid_repeats).frame
    robots = seating[seating["player"].str.startswith("robot-")]
    assert len(robots) == 3
    assert robots["table"].nunique() == 3


def test_a_bye_never_goes_to_a_player_who_has_not_yet_played(tmp_path: Path) -> None:
    # 48 ranked players and one late entry: 49, tables of 4, one bye.
    players = tmp_path / "players.csv"
    players.write_text("player,registered\nLATE,1\n", encoding="utf-8")
    seating = duplicate.seat(
        SAMPLE / "big2_event.csv", players=str(players), fill="bye", avoid_repeats=False
    ).frame
    byes = seating[seating["bye"]]
    assert len(byes) == 1
    assert byes["player"].iloc[0] != "LATE"
    assert "LATE" in set(seating.loc[~seating["bye"], "player"])


def test_robots_are_matchpointed_but_take_no_rank_points_or_place() -> None:
    frame = pd.DataFrame(
        {
            "round": 1,
            "deal": 1,
            "table": [1, 1, 2, 2],
            "seat": [0, 1, 0, 1],
            "player": ["A", "B", "C", "robot-1"],
            "score": [3, -3, 1, -1],
        }
    )
    scored = duplicate.score(frame).frame.set_index("player")
    assert scored.loc["robot-1", "mp"] == 2
    assert pd.isna(scored.loc["robot-1", "deal_rank"])
    assert pd.isna(scored.loc["robot-1", "rank_points"])
    assert scored.loc["A", "deal_rank"] == 1
    assert scored.loc["B", "rank_points"] == Decimal("7000.00")
    table = duplicate.standings(frame).frame
    assert list(table["player"]) == ["A", "B", "C"]
    assert list(table["beaten_avg"].astype(str)) == ["7000.00", "0.00", "0.00"]


def test_seat_command(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("player\nA\nB\nC\nD\nE\n", encoding="utf-8")
    first = runner.invoke(
        app, ["seat", "--players", str(players), "--round", "1", "--seed", "5", "-k", "3"]
    )
    assert first.exit_code == 0, first.stderr
    assert "seed 5" in first.stderr
    assert first.stdout.count("robot-") == 1
    assert (
        runner.invoke(
            app, ["seat", "--players", str(players), "--round", "1", "--seed", "5", "-k", "3"]
        ).stdout
        == first.stdout
    )
    nxt = runner.invoke(
        app, ["seat", str(SAMPLE / "spec_example.csv"), "-k", "3", "--order", "straight"]
    )
    assert nxt.exit_code == 0
    assert nxt.stdout.splitlines()[1:] == [",2,1,0,P2,false", ",2,1,1,P1,false", ",2,1,2,P3,false"]


@pytest.mark.parametrize(
    ("args", "problem", "named"),
    [
        (["seat", "--round", "1", "--seed", "1"], "seat.no-players", "--players"),
        (["seat", "--players", "{players}", "--round", "1"], "seat.no-seed", "--seed"),
        (["seat"], "seat.no-results", ""),
        (["seat", "{spec}", "-k", "1"], "seat.table-size", ""),
        (["seat", "{spec}", "-k", "0"], "seat.table-size", ""),
        (["seat", "{spec}", "-k", "9"], "seat.table-size", "--force"),
    ],
)
def test_seat_usage_errors(args: list[str], problem: str, named: str, tmp_path: Path) -> None:
    players = tmp_path / "p.csv"
    players.write_text("player\nA\n", encoding="utf-8")
    argv = [a.format(players=players, spec=SAMPLE / "spec_example.csv") for a in args]
    result = runner.invoke(app, argv)
    assert result.exit_code == 2
    assert codes(result.stderr) == [problem]
    assert named in line_of(problem, result.stderr)


def test_validate_against_the_published_seating(tmp_path: Path) -> None:
    seating = tmp_path / "seating.csv"
    results = tmp_path / "results.csv"
    seating.write_text(
        "round,table,seat,player,bye\n2,1,0,A,false\n2,1,1,B,false\n2,,,C,true\n", encoding="utf-8"
    )
    results.write_text(
        "round,deal,table,seat,player,score\n2,1,1,0,A,1\n2,1,1,1,B,-1\n", encoding="utf-8"
    )
    ok = runner.invoke(app, ["validate", str(results), "--seating", str(seating)])
    assert ok.exit_code == 0, ok.stderr
    results.write_text(
        "round,deal,table,seat,player,score\n2,1,1,1,A,1\n2,1,1,0,D,-1\n", encoding="utf-8"
    )
    bad = runner.invoke(app, ["validate", str(results), "--seating", str(seating)])
    assert bad.exit_code == 1
    assert codes(bad.stderr, "error") == [
        "seating.moved-from-published",
        "seating.no-results",
        "seating.not-seated",
    ]
    moved = line_of("seating.moved-from-published", bad.stderr)
    assert f"]: {results}, row 2, column 'seat': " in moved
    assert "'A'" in moved
    assert "'B'" in line_of("seating.no-results", bad.stderr)
    not_seated = line_of("seating.not-seated", bad.stderr)
    assert f"]: {results}, row 3, column 'player': " in not_seated
    assert "'D'" in not_seated
    assert "3 problems found" in bad.stderr


def test_chinese_statuses_withdraw_a_player(tmp_path: Path) -> None:
    players = tmp_path / "选手.csv"
    players.write_text("选手,状态\nP39,退赛\nP47,弃权\nP17,在赛\n", encoding="utf-8")
    seating = duplicate.seat(SAMPLE / "big2_event.csv", players=str(players), avoid_repeats=False)
    seated = set(seating.frame["player"])
    assert {"P39", "P47"}.isdisjoint(seated)
    assert "P17" in seated


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 12),
    k=st.integers(2, 4),
    late=st.integers(0, 3),
    data=st.data(),
)
def test_byes_go_to_players_who_have_played_then_fewest_byes_then_lowest_ranked(
    n: int, k: int, late: int, data: st.DataObject
) -> None:
    """The literal rule, player by player, against the byes given: over the standings
    (then the late entries, by registration), byes counted from the results."""
    players = [f"p{i}" for i in range(n)]
    rows = []
    for round_no in range(1, data.draw(st.integers(1, 4)) + 1):
        playing = data.draw(st.sets(st.sampled_from(players), min_size=1))
        rows += [
            {
                "round": round_no,
                "deal": 1,
                "seat": 0,
                "player": p,
                "score": data.draw(st.integers(0, 3)),
            }
            for p in sorted(playing)
        ]
    results = pd.DataFrame(rows)
    entries = [f"late{i}" for i in range(late)]
    registered = pd.DataFrame({"player": entries, "registered": range(1, late + 1)})
    seating = duplicate.seat(
        results, players=registered, table_size=k, fill="bye", avoid_repeats=False
    ).frame
    field = [*duplicate.standings(results).frame["player"], *entries]
    rounds_played = {p: set(results.loc[results["player"] == p, "round"]) for p in field}
    last = int(results["round"].max())
    had = {p: last - min(r) + 1 - len(r) if r else 0 for p, r in rounds_played.items()}
    by_rule = sorted(range(len(field)), key=lambda i: (field[i] in entries, had[field[i]], -i))
    expected = {field[i] for i in by_rule[: len(field) % k]}
    assert set(seating.loc[seating["bye"], "player"]) == expected


def test_a_bridge_session_is_not_seated_four_to_a_table(tmp_path: Path) -> None:
    """Card players' tables (four seats, robots filling them) are no bridge tables:
    refused, never written into the event folder; two pairs to a table is a Swiss pairs
    event's seating."""
    session = SAMPLE / "bridge_session.pbn"
    folder = tmp_path / "club"
    made = runner.invoke(app, ["import", str(session), "--event", str(folder)])
    assert made.exit_code == 0, made.stderr
    for source in (session, folder):
        refused = runner.invoke(app, ["seat", str(source)])
        assert refused.exit_code == 2, refused.stdout
        assert codes(refused.stderr) == ["seat.bridge"]
    assert not list((folder / "seatings").iterdir())
    pairs = runner.invoke(app, ["seat", str(session), "--table-size", "2", "-f", "csv"])
    assert pairs.exit_code == 0, pairs.stderr
