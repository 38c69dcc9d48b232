"""Avoiding repeated tablemates: never worse than the snake, the best seating when the
search may reach every player, and a simulated event."""

from __future__ import annotations

from itertools import combinations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import SAMPLE
from tests.simulate import simulate

runner = CliRunner()


@st.composite
def histories(draw: st.DrawFn, k: int | None = None, n: int | None = None) -> pd.DataFrame:
    """Rounds of k-player tables, each round the field in a drawn order, one deal a
    round with drawn scores: who has met whom, and standings to seat from."""
    k = draw(st.integers(2, 4)) if k is None else k
    n = k * draw(st.integers(1, 6)) if n is None else n
    players = [f"p{i}" for i in range(n)]
    rows = []
    for round_no in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(players))
        rows += [
            {
                "round": round_no,
                "deal": 1,
                "table": i // k + 1,
                "seat": i % k,
                "player": player,
                "score": draw(st.integers(0, 3)),
            }
            for i, player in enumerate(order)
        ]
    return pd.DataFrame(rows)


def met_pairs(results: pd.DataFrame) -> set[frozenset[str]]:
    """Every pair of players who sat at one table in some round."""
    met = set()
    for _, table in results.groupby(["round", "table"]):
        met |= {frozenset(pair) for pair in combinations(table["player"], 2)}
    return met


def cost(
    tables: dict[str, int], ranked: list[str], k: int, met: set[frozenset[str]]
) -> tuple[int, int]:
    """(tablemates who have met before, how far players sit from their snake table):
    what avoiding repeats makes as small as it can, in that order."""
    at: dict[int, list[str]] = {}
    for player, table in tables.items():
        at.setdefault(table, []).append(player)
    repeats = sum(
        frozenset(pair) in met for players in at.values() for pair in combinations(players, 2)
    )
    moved = sum(abs(tables[p] - (i // k + 1)) for i, p in enumerate(ranked))
    return repeats, moved


def tables_of(results: pd.DataFrame, k: int, **options: object) -> dict[str, int]:
    seating = duplicate.seat(results, table_size=k, **options).frame  # type: ignore[arg-type]
    return dict(zip(seating["player"].astype(str), seating["table"].astype(int), strict=True))


@settings(max_examples=20, deadline=None)
@given(histories())
def test_avoiding_repeats_never_does_worse_than_the_snake(results: pd.DataFrame) -> None:
    k = int(results.groupby(["round", "table"]).size().max())
    ranked = [str(p) for p in duplicate.standings(results).frame["player"]]
    met = met_pairs(results)
    snake = tables_of(results, k, avoid_repeats=False, order="straight")
    avoided = tables_of(results, k, order="straight")
    assert sorted(pd.Series(avoided).value_counts()) == [k] * (len(ranked) // k)
    assert cost(avoided, ranked, k, met) <= cost(snake, ranked, k, met)


def all_tablings(players: list[str], k: int) -> list[dict[str, int]]:
    """Every way to split the players into numbered tables of k."""
    if not players:
        return [{}]
    out = []
    for first in combinations(players, k):
        rest = [p for p in players if p not in first]
        for tabling in all_tablings(rest, k):
            out.append({**dict.fromkeys(first, 1), **{p: t + 1 for p, t in tabling.items()}})
    return out


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(histories(k=3, n=9))
def test_a_window_covering_the_field_finds_the_best_seating(results: pd.DataFrame) -> None:
    ranked = [str(p) for p in duplicate.standings(results).frame["player"]]
    met = met_pairs(results)
    best = min(cost(t, ranked, 3, met) for t in all_tablings(ranked, 3))
    # With a window of n - k ranks every tabling is reachable: the best is found.
    found = tables_of(results, 3, order="straight", window=6)
    assert cost(found, ranked, 3, met) == best


@pytest.mark.slow
def test_nine_round_event_of_300_players_has_no_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    plain = simulate(300, 3, 9, avoid_repeats=False)
    avoided = simulate(300, 3, 9, avoid_repeats=True)
    with capsys.disabled():
        print()
        for report in avoided:
            print(f"  {report}")
    assert sum(r.repeats_left for r in plain) > 50
    assert [r.repeats_left for r in avoided] == [0] * 9
    assert max(r.largest_move for r in avoided) <= 2


def test_seats_rotate_for_a_player_always_in_the_same_seat() -> None:
    frame = pd.DataFrame(
        {
            "round": [1, 1, 2, 2],
            "deal": 1,
            "table": [1, 1, 1, 1],
            "seat": [0, 1, 0, 1],
            "player": ["A", "B", "A", "B"],
            "score": [1, 0, 1, 0],
        }
    )
    plain = duplicate.seat(frame, table_size=2, avoid_repeats=False).frame
    assert list(plain.sort_values("seat")["player"]) == ["A", "B"]
    balanced = duplicate.seat(frame, table_size=2).frame
    assert list(balanced.sort_values("seat")["player"]) == ["B", "A"]


def test_seat_command_reports_what_it_did() -> None:
    avoided = runner.invoke(app, ["seat", str(SAMPLE / "big2_event.csv")])
    assert avoided.exit_code == 0
    assert "round 4: 12 tables; 0 repeated tablemate pairs (rule order: 19)" in avoided.stderr
    assert "players moved off their snake table, by at most" in avoided.stderr
    plain = runner.invoke(app, ["seat", str(SAMPLE / "big2_event.csv"), "--no-avoid-repeats"])
    assert "round 4: 12 tables; 19 repeated tablemate pairs\n" in plain.stderr
    assert plain.stdout != avoided.stdout
