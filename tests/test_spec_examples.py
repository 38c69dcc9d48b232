"""docs/scoring.md's worked examples and the seeds' examples, as the numbers the documents print."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest

import duplicate
from tests.conftest import SAMPLE


def test_section_4_example_matchpoints(spec_example: Path) -> None:
    scored = duplicate.score(spec_example).frame
    mp = {(r.deal, r.player): (r.mp, r.mp_pct) for r in scored.itertuples()}
    assert [mp[(d, "P1")] for d in (1, 2, 3)] == [(2, 50), (3, 75), (1, 25)]
    assert [mp[(d, "P2")] for d in (1, 2, 3)] == [(0, 0), (3, 75), (4, 100)]
    assert [mp[(d, "P3")] for d in (1, 2, 3)] == [(4, 100), (0, 0), (1, 25)]


@pytest.mark.parametrize(
    ("tie_ranking", "ranks", "totals"),
    [
        (
            "competition",
            {"P1": [2, 1, 2], "P2": [3, 1, 1], "P3": [1, 3, 2]},
            {"P1": 24000, "P2": 25000, "P3": 22000},
        ),
        (
            "dense",
            {"P1": [2, 1, 2], "P2": [3, 1, 1], "P3": [1, 2, 2]},
            {"P1": 24000, "P2": 25000, "P3": 24000},
        ),
    ],
)
def test_section_4_example_ranks_totals_and_order(
    spec_example: Path, tie_ranking: str, ranks: dict[str, list[int]], totals: dict[str, int]
) -> None:
    rules = duplicate.Rules(tie_ranking=tie_ranking)  # type: ignore[arg-type]
    event = duplicate.load_event(spec_example)
    scored = duplicate.score(event, rules).frame
    for player, want in ranks.items():
        assert list(scored[scored["player"] == player]["deal_rank"]) == want
    table = duplicate.standings(event, rules).frame
    assert list(table["player"]) == ["P2", "P1", "P3"]
    assert {r.player: r.total for r in table.itertuples()} == {
        p: Decimal(t) for p, t in totals.items()
    }
    if tie_ranking == "dense":
        # P1 and P3 tie on S and rank counts; 420 s of play beats 439 s.
        assert list(table["decided_by"]) == ["", "total", "total_seconds"]
        assert list(table["total_seconds"]) == [439, 420, 439]


def test_doudizhu_example_from_002() -> None:
    table = duplicate.standings(SAMPLE / "doudizhu_example.csv").frame
    assert list(table["player"]) == ["牌手1", "牌手2", "牌手3"]
    assert list(table["total"]) == [Decimal(30000), Decimal(21000), Decimal(21000)]
    assert list(table["total_seconds"]) == [180, 220, 234]
    assert list(table["decided_by"]) == ["", "total", "total_seconds"]
    assert list(table["place"]) == [1, 2, 3]


def test_rank_point_schedule_to_the_cent() -> None:
    """Ranks 1 to 11 on one deal (eleven players, one comparison group)."""
    frame = pd.DataFrame(
        {
            "deal": 1,
            "seat": 0,
            "player": [f"p{i:02d}" for i in range(11)],
            "score": range(11, 0, -1),
        }
    )
    scored = duplicate.score(frame).frame
    assert list(scored["deal_rank"]) == list(range(1, 12))
    assert [int(p * 100) for p in scored["rank_points"]] == [
        1_000_000,
        700_000,
        500_000,
        350_000,
        200_000,
        166_667,
        142_857,
        125_000,
        111_111,
        100_000,
        90_909,
    ]


def big2(rows: list[dict[str, object]]) -> list[int]:
    """The Big Two scores of one deal's table from its raw outcomes."""
    records = [
        {"round": 1, "deal": 1, "table": 1, "seat": i, "player": f"P{i}", **r}
        for i, r in enumerate(rows)
    ]
    raw = pd.DataFrame(records, dtype=object).fillna("").astype(str)
    return [int(s) for s in duplicate.game_score(raw, "big2").frame["score"]]


def test_big2_card_points_and_appendix_1_example() -> None:
    # The player out of cards against three with n cards left each wins three times the
    # points of n cards.
    points = {n: big2([{"cards_left": 0}, *[{"cards_left": n}] * 3])[0] // 3 for n in range(1, 14)}
    assert [points[n] for n in (5, 7, 8, 9, 10, 12, 13)] == [5, 7, 16, 18, 30, 36, 52]
    scores = big2(
        [
            {"cards_left": 5, "doubled": 1},
            {"cards_left": 8},
            {"cards_left": 0},
            {"cards_left": 12, "doubled": 1},
        ]
    )
    assert scores == [136, 2, 98, -236]
