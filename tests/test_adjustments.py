"""Arbiter's corrections: each kind changes exactly the numbers it should."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from duplicate.model.adjustments import Adjustments, parse_adjustments
from tests.conftest import GOLDEN, codes, line_of, problem_codes

CASE = GOLDEN / "adjustments"
RESULTS = duplicate.load_event(CASE / "results.csv")


def adjust(*rows: tuple[int, int, str, str, str, str]) -> Adjustments:
    return parse_adjustments(
        pd.DataFrame(rows, columns=["round", "deal", "player", "kind", "value", "reason"])
    )


def by_row(frame: pd.DataFrame) -> dict[tuple[int, str], tuple[object, ...]]:
    def value(v: object) -> object:
        return None if v is pd.NA else v

    return {
        (r.deal, r.player): tuple(
            value(v) for v in (r.n, r.mp, r.mp_pct, r.deal_rank, r.rank_points)
        )
        for r in frame.astype(object).itertuples()
    }


def changed(before: pd.DataFrame, after: pd.DataFrame) -> set[tuple[int, str]]:
    a, b = by_row(before), by_row(after)
    return {key for key in a if a[key] != b[key]}


PLAIN = duplicate.score(RESULTS).frame


def test_an_assigned_mp_pct_leaves_the_group_and_enters_the_ranking() -> None:
    after = duplicate.score(
        RESULTS, adjustments=adjust((1, 1, "C", "mp_pct", "60", "disrupted"))
    ).frame
    assert changed(PLAIN, after) <= {(1, p) for p in "ABCD"}
    rows = by_row(after)
    # A, B, D are compared among themselves: N = 3, top 4.
    assert rows[(1, "A")][:3] == (3, 4, Decimal("100.00"))
    assert rows[(1, "B")][:3] == (3, 2, Decimal("50.00"))
    assert rows[(1, "C")] == (None, None, Decimal("60.00"), 2, Decimal("7000.00"))
    assert [rows[(1, p)][3] for p in "ABD"] == [1, 3, 4]


def test_a_void_result_is_not_compared_ranked_or_scored() -> None:
    after = duplicate.score(
        RESULTS, adjustments=adjust((1, 2, "D", "void", "", "out of turn"))
    ).frame
    assert changed(PLAIN, after) == {(2, p) for p in "ABCD"}
    rows = by_row(after)
    assert rows[(2, "D")] == (None, None, None, None, None)
    assert [rows[(2, p)][3] for p in "CBA"] == [1, 2, 3]
    table = duplicate.standings(RESULTS, adjustments=adjust((1, 2, "D", "void", "", "x"))).frame
    assert table.set_index("player").loc["D", "rank_counts"] == "4:1"


def test_a_penalty_changes_only_the_total() -> None:
    before = duplicate.standings(RESULTS).frame.set_index("player")
    after = duplicate.standings(
        RESULTS, adjustments=adjust((1, 1, "A", "penalty", "500", "slow play"))
    ).frame.set_index("player")
    assert after.loc["A", "total"] == before.loc["A", "total"] - Decimal(500)
    assert after.loc["A", "penalty"] == Decimal("500.00")
    for player in "BCD":
        assert after.loc[player, "total"] == before.loc[player, "total"]
    assert (
        changed(
            PLAIN,
            duplicate.score(RESULTS, adjustments=adjust((1, 1, "A", "penalty", "500", "x"))).frame,
        )
        == set()
    )


def test_the_golden_event_totals() -> None:
    adjustments = CASE / "adjustments.csv"
    table = duplicate.standings(RESULTS, adjustments=adjustments).frame
    assert list(table["player"]) == ["C", "A", "B", "D"]
    assert list(table["total"]) == [Decimal(17000), Decimal(14500), Decimal(12000), Decimal(3500)]


@pytest.mark.parametrize(
    ("rows", "problem", "where", "named"),
    [
        ([(1, 3, "A", "void", "", "x")], "adjustment.no-result", ((2,), "player"), ["'A'", "'3'"]),
        ([(1, 1, "Z", "void", "", "x")], "adjustment.no-result", ((2,), "player"), ["'Z'"]),
        ([(1, 1, "A", "bonus", "5", "x")], "adjustment.unknown-kind", ((2,), "kind"), ["'bonus'"]),
        ([(1, 1, "A", "void", "", "")], "cell.empty", ((2,), "reason"), []),
        ([(1, 1, "A", "mp_pct", "120", "x")], "adjustment.bad-value", ((2,), "value"), ["120"]),
        ([(1, 1, "A", "penalty", "-5", "x")], "adjustment.bad-value", ((2,), "value"), ["'-5'"]),
        (
            [(1, 1, "A", "mp_pct", "60", "x"), (1, 1, "A", "void", "", "y")],
            "adjustment.clash",
            ((2, 3), "kind"),
            [],
        ),
    ],
)
def test_bad_adjustments_are_errors(
    rows: list[tuple[int, int, str, str, str, str]],
    problem: str,
    where: tuple[tuple[int, ...], str],
    named: list[str],
) -> None:
    with pytest.raises(duplicate.InvalidData) as caught:
        duplicate.score(RESULTS, adjustments=adjust(*rows))
    assert problem_codes(caught.value) == [problem]
    (found,) = caught.value.problems
    assert (found.rows, found.column) == where
    for value in named:
        assert value in found.message


def test_cli_names_the_adjustments_file_row(tmp_path: Path) -> None:
    bad = tmp_path / "adj.csv"
    bad.write_text(
        "round,deal,player,kind,value,reason\n1,1,A,void,,x\n1,9,A,void,,y\n", encoding="utf-8"
    )
    result = CliRunner().invoke(
        app, ["standings", str(CASE / "results.csv"), "--adjustments", str(bad)]
    )
    assert result.exit_code == 1
    assert codes(result.stderr) == ["adjustment.no-result"]
    line = line_of("adjustment.no-result", result.stderr)
    assert f"]: {bad}, row 3, column 'player': " in line
    assert "'A'" in line
    assert "'9'" in line


def test_seating_follows_the_corrected_standings() -> None:
    case = GOLDEN / "adjustments"
    args = ["seat", str(case / "results.csv"), "-k", "2", "--no-avoid-repeats"]
    plain = CliRunner().invoke(app, args)
    corrected = CliRunner().invoke(app, [*args, "--adjustments", str(case / "adjustments.csv")])
    assert corrected.exit_code == 0, corrected.stderr
    assert [line.split(",")[4] for line in corrected.stdout.splitlines()[1:]] == [
        "C",
        "A",
        "D",
        "B",
    ]
    assert plain.stdout != corrected.stdout


def test_a_penalty_without_a_deal_is_the_events() -> None:
    before = duplicate.standings(RESULTS).frame.set_index("player")
    frame = pd.DataFrame(
        [("", "", "B", "penalty", "300", "unsporting conduct")],
        columns=["round", "deal", "player", "kind", "value", "reason"],
    )
    corrections = parse_adjustments(frame)
    after = duplicate.standings(RESULTS, adjustments=corrections).frame.set_index("player")
    assert after.loc["B", "total"] == before.loc["B", "total"] - Decimal(300)
    assert after.loc["B", "penalty"] == Decimal("300.00")
    scored = duplicate.score(RESULTS, adjustments=corrections).frame
    assert "penalty 300.00 (the event's): unsporting conduct" in set(scored["adjustment"])
    frame.loc[0, "player"] = "Q"
    with pytest.raises(duplicate.InvalidData) as caught:
        duplicate.standings(RESULTS, adjustments=parse_adjustments(frame))
    assert problem_codes(caught.value) == ["adjustment.no-result"]
    assert "'Q'" in caught.value.problems[0].message
    frame.loc[0, ["player", "kind"]] = ["B", "void"]
    with pytest.raises(duplicate.InvalidData) as caught:
        parse_adjustments(frame)
    assert problem_codes(caught.value) == ["cell.empty"]
    assert caught.value.problems[0].column == "deal"


def test_a_void_result_is_not_a_deal_played() -> None:
    corrections = adjust((1, 2, "D", "void", "", "out of turn"))
    table = duplicate.standings(RESULTS, adjustments=corrections).frame.set_index("player")
    assert table.loc["D", "deals"] == 1
    assert table.loc["A", "deals"] == 2
