"""Weighted assigned scores (docs/scoring.md section 9): one result replaced by several scores
with weights; the result scores each part against the others as played, and every other
result is compared with each part, by its weight."""

from __future__ import annotations

import io
import json
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from duplicate.model.adjustments import Adjustments, parse_adjustments
from tests.conftest import codes, line_of

runner = CliRunner()
OTHERS = [100, 110, 120, 130, 140, 150, 160, 170, 180, 190]


def session(scores: list[int], weighted_player: str = "w") -> pd.DataFrame:
    """One deal, one seat: the weighted player's own score first, then the others."""
    players = [weighted_player] + [f"p{i}" for i in range(1, len(scores))]
    return pd.DataFrame(
        {"deal": 1, "seat": 0, "player": players, "score": scores}, columns=None
    ).astype({"player": "str"})


def parts(*weighted: tuple[int, int], player: str = "w") -> Adjustments:
    rows = [
        (1, 1, player, "weighted", str(score), str(weight), "director")
        for score, weight in weighted
    ]
    columns = ["round", "deal", "player", "kind", "value", "weight", "reason"]
    return parse_adjustments(pd.DataFrame(rows, columns=columns))


def test_the_example_of_section_9() -> None:
    """67% of +170 and 33% of +140 among 11 results."""
    scored = duplicate.score(session([0, *OTHERS]), adjustments=parts((170, 67), (140, 33))).frame
    rows = scored.set_index("player")
    # 170: 7 below and 1 equal, 15 MP; 140: 4 below and 1 equal, 9 MP.
    # 0.67 x 15 + 0.33 x 9 = 13.02 of 20.
    assert (rows.loc["w", "n"], rows.loc["w", "top"]) == (11, 20)
    assert (rows.loc["w", "mp"], rows.loc["w", "mp_pct"]) == (Decimal("13.02"), Decimal("65.10"))
    # 150 beats 5 others (10) and the 33% part at 140 (0.66): 10.66.
    assert (rows.loc["p6", "mp"], rows.loc["p6", "mp_pct"]) == (Decimal("10.66"), Decimal("53.30"))
    # 170 beats 7 others (14), ties the 67% part (0.67), beats the 33% part (0.66).
    assert (rows.loc["p8", "mp"], rows.loc["p8", "mp_pct"]) == (Decimal("15.33"), Decimal("76.65"))
    # Every result is compared with the other 10: the group's MP add up to 11 x 10.
    assert sum(rows["mp"]) == 110
    assert (
        "weighted 67% of 170: director; weighted 33% of 140: director"
        in rows.loc["w", "adjustment"]
    )
    # Ranks from the exact values: 76.65 (p8) > 65.10 (w) > 53.30 (p6)
    assert rows.loc["p8", "deal_rank"] < rows.loc["w", "deal_rank"] < rows.loc["p6", "deal_rank"]


def literal(scores: list[int], weighted: list[tuple[int, int]]) -> list[Fraction]:
    """Matchpoints pair by pair, as the spec words it; the weighted result first."""

    def versus(mine: int, theirs: int) -> int:
        return 2 if mine > theirs else 1 if mine == theirs else 0

    others = scores[1:]
    own = sum(
        (Fraction(w, 100) * sum(versus(s, o) for o in others) for s, w in weighted), Fraction(0)
    )
    rest = [
        sum(versus(mine, o) for j, o in enumerate(others) if j != i)
        + sum((Fraction(w, 100) * versus(mine, s) for s, w in weighted), Fraction(0))
        for i, mine in enumerate(others)
    ]
    return [own, *rest]


def _half_up(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )


@st.composite
def weighted_groups(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int]]]:
    scores = draw(st.lists(st.integers(-3, 3), min_size=1, max_size=8))
    n_parts = draw(st.integers(1, 3))
    cuts = sorted(draw(st.lists(st.integers(0, 100), min_size=n_parts - 1, max_size=n_parts - 1)))
    weights = [b - a for a, b in zip([0, *cuts], [*cuts, 100], strict=True)]
    part_scores = draw(st.lists(st.integers(-3, 3), min_size=n_parts, max_size=n_parts))
    return scores, list(zip(part_scores, weights, strict=True))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(weighted_groups())
@example(([0, 1], [(1, 100)]))
@example(([0], [(5, 60), (-5, 40)]))
def test_weighted_scores_follow_the_literal_reading(
    group: tuple[list[int], list[tuple[int, int]]],
) -> None:
    scores, weighted = group
    scored = duplicate.score(session(scores), adjustments=parts(*weighted)).frame
    rows = scored.set_index("player")
    players = ["w"] + [f"p{i}" for i in range(1, len(scores))]
    top = 2 * (len(scores) - 1)
    for player, mp in zip(players, literal(scores, weighted), strict=True):
        assert rows.loc[player, "mp"] == _half_up(mp)
        assert rows.loc[player, "top"] == top
        pct = mp / top * 100 if top else Fraction(50)
        assert rows.loc[player, "mp_pct"] == _half_up(pct)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=9), st.integers(-5, 5))
def test_weights_of_100_and_0_score_the_plain_result(scores: list[int], other: int) -> None:
    plain = duplicate.score(session(scores)).frame.set_index("player")
    weighted = duplicate.score(
        session([99, *scores[1:]]), adjustments=parts((scores[0], 100), (other, 0))
    ).frame.set_index("player")
    for column in ("n", "top", "mp_pct", "deal_rank", "rank_points"):
        assert list(weighted[column]) == list(plain[column]), column
    assert [Decimal(int(v)) for v in plain["mp"]] == list(weighted["mp"])


def test_weighted_with_neuberg_factoring() -> None:
    """Factoring counts the weighted result as one of the n results."""
    event = pd.concat(
        [
            session([0, *OTHERS]),
            session([1, 2, 3]).assign(deal=2, player=["p1", "p2", "p3"]),
        ]
    )
    rules = duplicate.Rules(factoring="neuberg")
    rows = duplicate.score(event, rules, parts((170, 67), (140, 33))).frame.set_index(
        ["deal", "player"]
    )
    # Deal 1 is played its normal number of times (11): factoring changes nothing.
    assert rows.loc[(1, "w"), "mp"] == Decimal("13.02")
    # Deal 2, n = 3, N = 11: MP' = (MP + 1) x 11 / 3 - 1; p3 has 4 MP: 17.33.
    assert rows.loc[(2, "p3"), "mp"] == Decimal("17.33")


def test_weighted_with_standings_and_explain(tmp_path: Path) -> None:
    results = tmp_path / "session.csv"
    session([0, *OTHERS]).to_csv(results, index=False)
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text(
        "round,deal,player,kind,value,weight,reason\n"
        "1,1,w,weighted,170,67,director\n"
        "1,1,w,weighted,140,33,director\n"
    )
    args = [str(results), "--adjustments", str(adjustments)]
    result = runner.invoke(app, ["score", *args])
    assert result.exit_code == 0, result.stderr
    table = pd.read_csv(io.StringIO(result.stdout), dtype=str).set_index("player")
    assert table.loc["w", "mp"] == "13.02"
    result = runner.invoke(app, ["standings", *args, "--method", "percentage"])
    assert result.exit_code == 0, result.stderr
    assert "w,65.10,13.02,20,1" in result.stdout.replace("\r", "")
    result = runner.invoke(app, ["explain", "w", *args, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert '"mp": 13.02' in result.stdout
    assert "weighted 67% of 170" in result.stdout
    explained = json.loads(result.stdout)
    assert explained["items"][0]["parts"] == [
        {"score": 170, "weight": 67, "mp": 15},
        {"score": 140, "weight": 33, "mp": 9},
    ]
    result = runner.invoke(app, ["explain", "w", *args])
    assert "weighted: 67% of 170: 15 MP; 33% of 140: 9 MP" in result.stdout


@pytest.mark.parametrize(
    ("rows", "problem", "named"),
    [
        (["1,1,w,weighted,170,67,x", "1,1,w,weighted,140,30,x"], "weights-not-100", "97"),
        (["1,1,w,weighted,170,,x"], "bad-weight", "''"),
        (["1,1,w,weighted,170,101,x"], "bad-weight", "'101'"),
        (["1,1,w,weighted,abc,100,x"], "bad-value", "'abc'"),
        (["1,1,w,weighted,1.5,100,x"], "bad-value", "1.5"),
        (["1,1,w,void,,100,x"], "bad-weight", "void"),
        (
            ["1,1,w,weighted,170,100,x", "1,1,p1,weighted,170,100,x"],
            "weighted-together",
            "",
        ),
        (["1,1,w,weighted,170,100,x", "1,1,w,mp_pct,60,,x"], "clash", ""),
    ],
)
def test_bad_weighted_adjustments_name_the_row(
    tmp_path: Path, rows: list[str], problem: str, named: str
) -> None:
    results = tmp_path / "session.csv"
    session([0, *OTHERS]).to_csv(results, index=False)
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text("round,deal,player,kind,value,weight,reason\n" + "\n".join(rows) + "\n")
    result = runner.invoke(app, ["score", str(results), "--adjustments", str(adjustments)])
    assert result.exit_code == 1
    assert codes(result.stderr) == [f"adjustment.{problem}"]
    line = line_of(f"adjustment.{problem}", result.stderr)
    assert f"]: {adjustments}" in line
    assert named in line
