"""Standard points (003_*.txt): the datum, the conversion table, and exact averages."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import GOLDEN, codes

SP = duplicate.Rules(method="standard-points")


def test_the_003_example() -> None:
    event = duplicate.load_event(GOLDEN / "standard_points_example" / "results.csv")
    scored = duplicate.score(event, SP).frame
    assert set(scored["datum"]) == {Decimal("9.00")}
    assert list(scored["standard_points"]) == [-3, -3, 3, -6, 3, -12, 3, 3]


@pytest.mark.parametrize(
    ("difference", "points"),
    [
        (0, 0),
        (7, 7),
        (12, 12),
        (13, 13),
        (16, 13),
        (17, 14),
        (21, 14),
        (22, 15),
        (26, 15),
        (27, 16),
        (32, 16),
        (33, 17),
        (40, 17),
        (41, 18),
        (49, 18),
        (50, 19),
        (65, 19),
        (66, 20),
        (84, 20),
        (85, 21),
        (104, 21),
        (105, 22),
        (144, 22),
        (145, 23),
        (199, 23),
        (200, 24),
        (5000, 24),
        (-13, -13),
        (-200, -24),
    ],
)
def test_the_conversion_table(difference: int, points: int) -> None:
    """Two results 2d apart: the datum is midway, and their differences are -d and +d."""
    frame = pd.DataFrame({"deal": 1, "seat": 0, "player": ["a", "b"], "score": [0, 2 * difference]})
    scored = duplicate.score(frame, SP).frame.set_index("player")
    assert scored.loc["b", "difference"] == difference
    assert scored.loc["b", "standard_points"] == points
    assert scored.loc["a", "standard_points"] == -points


def test_fractional_differences_round_half_up_before_the_table() -> None:
    # Two results 0 and 25: datum 12.5, differences -12.5 and +12.5 -> 13 -> 13 points.
    frame = pd.DataFrame({"deal": 1, "seat": 0, "player": ["a", "b"], "score": [0, 25]})
    scored = duplicate.score(frame, SP).frame
    assert list(scored["difference"]) == [Decimal("-12.50"), Decimal("12.50")]
    assert list(scored["standard_points"]) == [-13, 13]
    frame["score"] = [0, 24.8]
    assert list(duplicate.score(frame, SP).frame["standard_points"]) == [-12, 12]


def test_larger_groups_drop_more_results() -> None:
    scores = [*range(11), 100]
    frame = pd.DataFrame(
        {"deal": 1, "seat": 0, "player": [f"p{i}" for i in range(12)], "score": scores}
    )
    scored = duplicate.score(frame, SP).frame  # 12 results: 3 dropped at each end, datum of 3..8
    assert set(scored["datum"]) == {Decimal("5.50")}
    untrimmed = duplicate.score(
        frame, duplicate.Rules(method="standard-points", sp_trim=Decimal(0))
    ).frame
    assert set(untrimmed["datum"]) == {Decimal("12.92")}  # 155 / 12


def event_with_averages() -> pd.DataFrame:
    """A: +1 on 5 of 7 deals (5/7 = 0.714); B: +1 on 12 of 17 (0.706); both print 0.71."""
    rows = []
    for player, deals, wins in (("A", 7, 5), ("B", 17, 12)):
        for d in range(deals):
            rows.append(
                {"deal": f"{player}{d}", "seat": 0, "player": player, "score": 2 if d < wins else 0}
            )
            rows.append(
                {"deal": f"{player}{d}", "seat": 0, "player": f"{player}-opp{d}", "score": 0}
            )
    return pd.DataFrame(rows)


def test_averages_that_print_alike_are_still_ordered_exactly() -> None:
    table = duplicate.standings(event_with_averages(), SP).frame.set_index("player")
    assert table.loc["A", "average_sp"] == table.loc["B", "average_sp"] == Decimal("0.71")
    assert table.loc["A", "place"] == 1
    assert table.loc["B", "place"] == 2
    assert table.loc["B", "decided_by"] == "average"


def test_equal_averages_go_to_more_deals_and_short_players_get_no_place() -> None:
    rows = [
        {"deal": d, "seat": 0, "player": p, "score": s}
        for d in range(4)
        for p, s in (("A", 2), ("Z", 0))
    ] + [
        {"deal": 9, "seat": 0, "player": "B", "score": 2},
        {"deal": 9, "seat": 0, "player": "Y", "score": 0},
    ]
    table = duplicate.standings(pd.DataFrame(rows), SP).frame
    assert list(table["player"][:2]) == ["A", "B"]
    assert list(table["decided_by"][:2]) == ["", "deals"]
    short = duplicate.standings(
        pd.DataFrame(rows), duplicate.Rules(method="standard-points", sp_min_deals=2)
    ).frame
    assert list(short["player"]) == ["A", "Z", "B", "Y"]
    assert list(short["place"].astype(object).where(short["place"].notna(), None)) == [
        1,
        2,
        None,
        None,
    ]


def test_cli_method_flag_and_adjustments_refused() -> None:
    runner = CliRunner()
    case = GOLDEN / "standard_points_example"
    result = runner.invoke(
        app, ["standings", str(case / "results.csv"), "--method", "standard-points"]
    )
    assert result.exit_code == 0
    assert (
        result.stdout.splitlines()[0]
        == "section,place,player,deals,total_sp,average_sp,decided_by,playoff"
    )
    adjusted = runner.invoke(
        app,
        [
            "score",
            str(GOLDEN / "adjustments" / "results.csv"),
            "--method",
            "standard-points",
            "--adjustments",
            str(GOLDEN / "adjustments" / "adjustments.csv"),
        ],
    )
    assert adjusted.exit_code == 2
    assert codes(adjusted.stderr) == ["scoring.method-unsupported"]


def test_rows_come_in_the_same_order_as_matchpoint_scores() -> None:
    from tests.conftest import SAMPLE

    event = duplicate.load_event(SAMPLE / "big2_event.csv")
    keys = ["round", "deal", "table", "seat", "player"]
    by_sp = duplicate.score(event, SP).frame[keys]
    assert by_sp.equals(duplicate.score(event).frame[keys])
