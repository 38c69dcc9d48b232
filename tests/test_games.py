"""Game scores from raw outcomes: the seeds' examples, caps, zero sums and bad rows."""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import codes, line_of

runner = CliRunner()
BAD = Path(__file__).parent / "data" / "bad_games"
EXPECTED = tomllib.loads((BAD / "EXPECTED.toml").read_text(encoding="utf-8"))
# Each file's problems: their codes, where the first is, and what it names.
PROBLEMS = {
    "big2_two_winners.csv": (["raw.table-inconsistent"], "rows 2, 3, 4, 5", "table 1"),
    "big2_fourteen_cards.csv": (["raw.bad-cell"], "row 3, column 'cards_left'", "'14'"),
    "doudizhu_bid_four.csv": (["raw.bad-cell"] * 3, "row 2, column 'bid'", "'4'"),
    "doudizhu_two_landlords.csv": (["raw.table-inconsistent"] * 2, "rows 2, 3, 4", "table 1"),
    "paohuzi_two_winners.csv": (["raw.table-inconsistent"], "rows 2, 3, 4", "table 1"),
    "paohuzi_huxi_too_low.csv": (["raw.bad-cell"], "row 2, column 'huxi'", "'9'"),
}
IDS = {"round": 1, "deal": 1, "table": 1}


def scores(
    game: str, rows: list[dict[str, object]], rules: duplicate.Rules | None = None
) -> list[int]:
    records = [{**IDS, "seat": i, "player": f"P{i}", **r} for i, r in enumerate(rows)]
    raw = pd.DataFrame(records, dtype=object).fillna("").astype(str)
    return [int(s) for s in duplicate.game_score(raw, game, rules).frame["score"]]


def test_big2_appendix_1_example() -> None:
    rows = [
        {"cards_left": 5, "doubled": 1},
        {"cards_left": 8},
        {"cards_left": 0},
        {"cards_left": 12, "doubled": 1},
    ]
    assert scores("big2", rows) == [136, 2, 98, -236]


def test_big2_shown_hand_triples_the_stakes() -> None:
    assert scores("big2", [{"cards_left": 0}, {"cards_left": 3, "open": 1}]) == [9, -9]


def test_paohuzi_appendix_1_example() -> None:
    rows = [{"winner": 1, "huxi": 15, "fan": 2}, {"winner": 0}, {"winner": 0}]
    assert scores("paohuzi", rows) == [4, -2, -2]
    # 21 huxi over a minimum of 15: tun = 6 // 3 + 1 = 3.
    rows[0]["huxi"] = 21
    assert scores("paohuzi", rows) == [12, -6, -6]
    assert scores("paohuzi", rows, duplicate.Rules(paohuzi_min_huxi=10)) == [16, -8, -8]


def test_paohuzi_drawn_hand_scores_nothing() -> None:
    assert scores("paohuzi", [{"winner": 0}] * 3) == [0, 0, 0]


@pytest.mark.parametrize(
    ("bid", "bombs", "rocket", "spring", "landlord_won", "expected"),
    [
        (3, 1, 1, 0, True, [24, -12, -12]),  # 3 x 2 x 2: the 002 example's 24/-12/-12
        (1, 0, 0, 0, False, [-2, 1, 1]),
        (3, 4, 1, 1, True, [96, -48, -48]),  # 3 x 16 x 2 x 2 = 192, capped at 48 and 96
        (2, 3, 0, 0, False, [-32, 16, 16]),
    ],
)
def test_doudizhu_multipliers_and_caps(
    bid: int, bombs: int, rocket: int, spring: int, landlord_won: bool, expected: list[int]
) -> None:
    common = {"bid": bid, "bombs": bombs, "rocket": rocket, "spring": spring}
    rows = [
        {**common, "role": "landlord", "won": int(landlord_won)},
        {**common, "role": "farmer", "won": int(not landlord_won)},
        {**common, "role": "农民", "won": int(not landlord_won)},
    ]
    assert scores("doudizhu", rows) == expected


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.lists(st.integers(1, 13), min_size=3, max_size=3), min_size=1, max_size=5),
    st.randoms(use_true_random=False),
)
def test_big2_tables_sum_to_zero(hands: list[list[int]], rnd: object) -> None:
    rows = []
    for table, cards in enumerate(hands, 1):
        for seat, left in enumerate([0, *cards]):
            rows.append(
                {
                    "round": 1,
                    "deal": 1,
                    "table": table,
                    "seat": seat,
                    "player": f"t{table}s{seat}",
                    "cards_left": left,
                    "open": rnd.random() < 0.2,
                    "doubled": rnd.random() < 0.3,
                }
            )  # type: ignore[attr-defined]
    raw = pd.DataFrame(rows).astype(str)
    got = duplicate.game_score(raw, "big2").frame
    assert (got["score"].astype(int).groupby(pd.DataFrame(rows)["table"]).sum() == 0).all()


@settings(max_examples=50, deadline=None)
@given(
    st.integers(1, 3),
    st.integers(0, 6),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2),
)
def test_doudizhu_and_paohuzi_sum_to_zero(
    bid: int, bombs: int, rocket: bool, spring: bool, won: bool, seat: int
) -> None:
    common = {"bid": bid, "bombs": bombs, "rocket": int(rocket), "spring": int(spring)}
    rows = [
        {**common, "role": "landlord" if i == seat else "farmer", "won": int(won == (i == seat))}
        for i in range(3)
    ]
    assert sum(scores("doudizhu", rows)) == 0
    paohuzi = [{"winner": int(i == seat), "huxi": 15 + bombs * 4, "fan": bid} for i in range(3)]
    assert sum(scores("paohuzi", paohuzi)) == 0


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_raw_rows_that_break_the_rules_are_rejected(name: str) -> None:
    game = name.split("_")[0]
    result = runner.invoke(app, ["game-score", "--game", game, str(BAD / name)])
    assert result.exit_code == 1
    problems, where, named = PROBLEMS[name]
    assert codes(result.stderr, "error") == problems
    line = line_of(problems[0], result.stderr)
    assert f"]: {BAD / name}, {where}: " in line
    assert named in line
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


def test_a_given_score_is_checked(tmp_path: Path) -> None:
    raw = tmp_path / "raw.csv"
    raw.write_text(
        "round,deal,table,seat,player,cards_left,score\n1,1,1,0,A,0,3\n1,1,1,1,B,3,-3\n",
        encoding="utf-8",
    )
    assert runner.invoke(app, ["game-score", "-g", "big2", str(raw)]).exit_code == 0
    raw.write_text(
        "round,deal,table,seat,player,cards_left,score\n1,1,1,0,A,0,4\n1,1,1,1,B,3,-3\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["game-score", "-g", "big2", str(raw)])
    assert result.exit_code == 1
    assert codes(result.stderr, "error") == ["raw.score-differs"]
    given_and_computed = line_of("raw.score-differs", result.stderr).split(
        ", row 2, column 'score': "
    )
    assert "4" in given_and_computed[1]
    assert "3" in given_and_computed[1]


def test_game_scores_feed_the_standings(tmp_path: Path) -> None:
    raw = tmp_path / "raw.csv"
    lines = ["round,deal,table,seat,player,cards_left,doubled"]
    for table, cards in ((1, [0, 5, 8, 12]), (2, [3, 0, 9, 13])):
        lines += [f"1,1,{table},{s},T{table}S{s},{c},{int(s == 0)}" for s, c in enumerate(cards)]
    raw.write_text("\n".join(lines) + "\n", encoding="utf-8")
    scored = runner.invoke(app, ["game-score", "-g", "big2", str(raw), "-o", "-"])
    assert scored.exit_code == 0
    table = runner.invoke(app, ["standings", "-"], input=scored.stdout_bytes)
    assert table.exit_code == 0, table.stderr
    standings = pd.read_csv(io.StringIO(table.stdout))
    assert len(standings) == 8
    # Two players per seat: four score MP% 100 (1st, 10000), four 0% (5th, 2000).
    assert sorted(standings["total"]) == [2000.0] * 4 + [10000.0] * 4


GOLDEN_GAMES = sorted(
    p for p in (Path(__file__).parent / "golden_games").iterdir() if (p / "raw.csv").exists()
)


@pytest.mark.parametrize("case", GOLDEN_GAMES, ids=[c.name for c in GOLDEN_GAMES])
def test_golden_game_scores(case: Path) -> None:
    from tests.golden_games.regenerate import computed

    assert computed(case) == (case / "expected.csv").read_bytes()


def test_the_golden_examples_carry_the_documents_numbers() -> None:
    expected = {
        "big2_appendix_1": [136, 2, 98, -236],
        "paohuzi_appendix_1": [4, -2, -2],
        "doudizhu_example_002": [24, -12, -12],
    }
    for case in GOLDEN_GAMES:
        assert list(pd.read_csv(case / "expected.csv")["score"]) == expected[case.name]


def test_a_bad_value_under_a_chinese_header_is_shown(tmp_path: Path) -> None:
    raw = tmp_path / "raw.csv"
    raw.write_text(
        "轮次,牌副,桌号,方位,牌手,剩余牌数\n1,1,1,0,A,0\n1,1,1,1,B,15\n", encoding="utf-8"
    )
    result = runner.invoke(app, ["game-score", "-g", "big2", str(raw)])
    assert result.exit_code == 1
    assert codes(result.stderr, "error") == ["raw.bad-cell"]
    line = line_of("raw.bad-cell", result.stderr)
    assert "row 3, column 'cards_left': " in line
    assert "'15'" in line


def test_every_game_can_be_sent_to_another_process() -> None:
    """A caller may hand a game to validate in a worker process: every game, and one
    with no raw columns, survives pickling and copying whole."""
    import copy
    import pickle

    from duplicate.games.registry import GAMES, Game

    for game in (*GAMES, Game("cards", "Cards")):
        assert pickle.loads(pickle.dumps(game)) == game
        assert copy.deepcopy(game) == game
