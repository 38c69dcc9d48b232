"""Avoiding repeated tablemates: optimality, the rule-order bound, and a simulated event."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from duplicate.cli import app
from duplicate.seating.next_round import seat_next_round
from duplicate.seating.rematch import (
    assign_tables,
    pair_keys,
    repeats_in,
    template_count,
    templates,
)
from tests.conftest import SAMPLE
from tests.simulate import simulate

runner = CliRunner()


@pytest.mark.parametrize(("k", "s"), [(2, 2), (2, 4), (3, 3), (3, 6), (4, 4), (4, 5)])
def test_template_count_formula(k: int, s: int) -> None:
    assert template_count(k, s) == len(templates(k, s).src)


def met_from_pairs(pairs: list[tuple[int, int]], n: int) -> np.ndarray:
    a = np.array([p for p, _ in pairs], dtype=np.int64)
    b = np.array([q for _, q in pairs], dtype=np.int64)
    return np.unique(pair_keys(a, b, n))


def cost_of(table: np.ndarray, k: int, met: np.ndarray, n: int) -> tuple[int, int]:
    rows = np.arange(n)[np.lexsort((np.arange(n), table))].reshape(-1, k)
    displacement = int(np.abs(table - np.arange(n) // k).sum())
    return int(repeats_in(rows, met, n).sum()), displacement


@st.composite
def histories(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, int]]]:
    k = draw(st.integers(2, 4))
    n = k * draw(st.integers(1, 6))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    return k, n, [(a, b) for a, b in pairs if a != b]


@settings(max_examples=80, deadline=None)
@given(histories())
def test_avoiding_repeats_never_does_worse_than_the_snake(
    case: tuple[int, int, list[tuple[int, int]]],
) -> None:
    k, n, pairs = case
    met = met_from_pairs(pairs, n)
    table = assign_tables(np.arange(n, dtype=np.int64), k, met, n)
    assert sorted(np.bincount(table, minlength=n // k)) == [k] * (n // k)
    assert cost_of(table, k, met, n) <= cost_of(np.arange(n) // k, k, met, n)


def all_tablings(n: int, k: int) -> list[np.ndarray]:
    """Every way to split ranks 0..n-1 into ordered tables of k."""
    if n == 0:
        return [np.zeros(0, dtype=np.int64)]
    out = []
    for first in combinations(range(n), k):
        rest = [i for i in range(n) if i not in first]
        for sub in all_tablings(n - k, k):
            table = np.empty(n, dtype=np.int64)
            table[list(first)] = 0
            table[rest] = sub + 1
            out.append(table)
    return out


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=20))
def test_a_window_covering_the_field_finds_the_global_optimum(pairs: list[tuple[int, int]]) -> None:
    n, k = 9, 3
    met = met_from_pairs([(a, b) for a, b in pairs if a != b], n)
    best = min(cost_of(t, k, met, n) for t in all_tablings(n, k))
    # With a window of n - k ranks every tabling is reachable, so the DP must find the best.
    table = assign_tables(np.arange(n, dtype=np.int64), k, met, n, window=n - k)
    assert cost_of(table, k, met, n) == best


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
    plain = seat_next_round(frame, table_size=2, avoid_repeats=False).frame
    assert list(plain.sort_values("seat")["player"]) == ["A", "B"]
    balanced = seat_next_round(frame, table_size=2).frame
    assert list(balanced.sort_values("seat")["player"]) == ["B", "A"]


def test_seat_command_reports_what_it_did() -> None:
    avoided = runner.invoke(app, ["seat", str(SAMPLE / "big2_event.csv")])
    assert avoided.exit_code == 0
    assert "round 4: 12 tables; 0 repeated tablemate pairs (rule order: 19)" in avoided.stderr
    assert "players moved off their snake table, by at most" in avoided.stderr
    plain = runner.invoke(app, ["seat", str(SAMPLE / "big2_event.csv"), "--no-avoid-repeats"])
    assert "round 4: 12 tables; 19 repeated tablemate pairs\n" in plain.stderr
    assert plain.stdout != avoided.stdout
