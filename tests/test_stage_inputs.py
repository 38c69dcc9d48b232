"""What a stage reads, refused rather than guessed (docs/stages.md): carried points
(a player listed twice, a player who plays no hand, points past what is held), compass
seats in clockwise order, the final's number of hands, and times far from now."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from duplicate.errors import InvalidData
from tests.conftest import ROOT, line_of
from tests.conftest import codes as every_code

runner = CliRunner()
FINAL = "hand,minute,table,seat,player,score\n1,1,1,0,F,-2\n1,1,1,1,B,4\n1,1,1,2,A,-2\n"


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.stderr
    return result.exit_code, result.stdout, result.stderr


def codes(err: str) -> list[str]:
    return [line.split("]")[0][len("error[") :] for line in err.splitlines() if "error[" in line]


def final_with(tmp_path: Path, carried: str, *options: str) -> tuple[int, str, str]:
    hands, points = tmp_path / "final.csv", tmp_path / "carried.csv"
    hands.write_text(FINAL)
    points.write_text(carried)
    out = tmp_path / "out.csv"
    result = run("final", hands, "--hands", "1", "--carried", points, "-o", out, *options)
    assert out.exists() == (result[0] == 0)
    return result


# -- carried points -----------------------------------------------------------------------


def test_a_player_carried_twice_is_refused(tmp_path: Path) -> None:
    """Read as it was, the later row's points were taken without a word."""
    code, _, err = final_with(tmp_path, "player,carried\nA,5\nB,1\nA,7\nF,2\n")
    assert code == 1
    assert codes(err) == ["final.carried-twice"]
    # Listed twice, once without points, is as unclear.
    code, _, err = final_with(tmp_path, "player,carried\nA,5\nB,1\nA,\nF,2\n")
    assert (code, codes(err)) == (1, ["final.carried-twice"])


def test_a_carried_player_who_plays_no_hand_is_refused(tmp_path: Path) -> None:
    code, _, err = final_with(tmp_path, "player,carried\nA,5\nB,1\nF,2\nZ,9\n")
    assert code == 1
    assert codes(err) == ["final.carried-unknown"]
    # A qualifier who does not play the final has no carried points (the elimination
    # output's form for players who did not qualify): not a finalist.
    code, _, err = final_with(tmp_path, "player,carried\nA,5\nB,1\nF,2\nZ,\n")
    assert code == 0, err


def test_the_elimination_output_as_it_is_carries_its_qualifiers(tmp_path: Path) -> None:
    code, _, err = final_with(tmp_path, "place,player,carried\n1,B,7\n2,A,3\n3,F,1\n4,Z,\n")
    assert code == 0, err
    table = pd.read_csv(tmp_path / "out.csv", dtype=str)
    assert table[["player", "total"]].values.tolist() == [["B", "11"], ["A", "1"], ["F", "-1"]]


@pytest.mark.parametrize(
    "points", ["9223372036854775808", "-9223372036854775809", "1000000000000000", "--5", "1e20"]
)
def test_carried_points_past_what_is_held_are_refused(tmp_path: Path, points: str) -> None:
    code, _, err = final_with(tmp_path, f"player,carried\nA,{points}\nB,1\nF,2\n")
    assert code == 1
    assert codes(err) == ["cell.not-a-whole-number"]


@pytest.mark.parametrize("points", [2**64, -(2**63) - 1, 10**15, 1.5, "7", True])
def test_carried_points_given_by_a_program_are_checked_alike(points: object) -> None:
    log = pd.read_csv(io.StringIO(FINAL))
    with pytest.raises(InvalidData) as refused:
        duplicate.final(log, 1, {"A": points, "B": 0, "F": 0})
    assert refused.value.code == "cell.not-a-whole-number"


def test_the_most_a_player_may_carry_is_held_exactly(tmp_path: Path) -> None:
    code, _, err = final_with(tmp_path, "player,carried\nA,-999999999999999\nB,999999999999999\n")
    assert code == 0, err
    table = pd.read_csv(tmp_path / "out.csv", dtype=str)
    assert table[["player", "total"]].values.tolist() == [
        ["B", "1000000000000003"],
        ["F", "-2"],
        ["A", "-1000000000000001"],
    ]


@pytest.mark.parametrize("given", ["0", "-3"])
def test_a_final_of_no_hands_is_a_usage_error(tmp_path: Path, given: str) -> None:
    hands = tmp_path / "final.csv"
    hands.write_text(FINAL)
    for extra in ([], ["--explain", "A"]):
        code, out, err = run("final", hands, "--hands", given, *extra)
        assert (code, out) == (2, "")
        assert codes(err) == ["final.no-hands"]


# -- compass seats ------------------------------------------------------------------------


def compass_ledger(tmp_path: Path, seats: dict[str, str]) -> list[list[str]]:
    """A losing hub at North owes 400 to East and to West with 500 chips left: who is
    paid first is paid in full. `seats`: how each compass point is written."""
    log = tmp_path / "hands.csv"
    n, e, s, w = (seats[k] for k in "NESW")
    log.write_text(
        "hand,minute,table,seat,player,score\n"
        # Hand 1 leaves the hub with 500 chips (base 100, 1000 at the start).
        f"1,1,1,{n},HUB,-5\n1,1,1,{e},EAST,0\n1,1,1,{s},SOUTH,5\n1,1,1,{w},WEST,0\n"
        f"2,2,1,{w},WEST,4\n2,2,1,{s},SOUTH,0\n2,2,1,{e},EAST,4\n2,2,1,{n},HUB,-8\n"
    )
    ledger = tmp_path / "ledger.csv"
    options = ["--base", "0:100", "--eliminate-below", "0", "--ledger", ledger]
    code, _, err = run("elimination", log, *options, "-o", tmp_path / "stage.csv")
    assert code == 0, err
    paid = pd.read_csv(ledger, dtype=str).query("hand == '2'")
    return paid[["payer", "payee", "paid"]].values.tolist()


@pytest.mark.parametrize(
    "seats",
    [
        {"N": "N", "E": "E", "S": "S", "W": "W"},
        {"N": "north", "E": "East", "S": "SOUTH", "W": "w"},
    ],
)
def test_compass_seats_are_paid_clockwise_from_the_hub(tmp_path: Path, seats: dict) -> None:
    """Ordered as text (E, N, S, W), the hub at North paid West first."""
    assert compass_ledger(tmp_path, seats) == [["HUB", "EAST", "400"], ["HUB", "WEST", "100"]]


def test_numbered_seats_are_paid_in_their_order(tmp_path: Path) -> None:
    seats = {"N": "0", "E": "1", "S": "2", "W": "3"}
    assert compass_ledger(tmp_path, seats) == [["HUB", "EAST", "400"], ["HUB", "WEST", "100"]]


def test_a_log_mixing_compass_and_other_seats_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "hands.csv"
    log.write_text("hand,minute,table,seat,player,score\n1,1,1,N,A,-2\n1,1,1,E,B,1\n1,1,1,X,C,1\n")
    code, _, err = run("elimination", log, "-o", tmp_path / "stage.csv")
    assert code == 1
    assert codes(err) == ["hands.mixed-seats"]


# -- times --------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["elimination", "final"])
def test_times_far_from_now_are_held_exactly(tmp_path: Path, command: str) -> None:
    """Read as nanoseconds, year 2300 and year 0001 ended the command with exit 70."""
    log = tmp_path / "hands.csv"
    log.write_text(
        "hand,finished_at,table,seat,player,score\n"
        "1,2300-01-01T00:00:00Z,1,0,A,1\n1,2300-01-01T00:00:00Z,1,1,B,-1\n"
        "2,0001-01-01T00:00:30Z,1,0,A,-2\n2,0001-01-01T00:00:30Z,1,1,B,2\n"
    )
    options = ["--hands", "2"] if command == "final" else ["--ledger", tmp_path / "l.csv"]
    code, _, err = run(command, log, *options, "-o", tmp_path / "out.csv")
    assert code == 0, err
    if command == "elimination":
        ledger = pd.read_csv(tmp_path / "l.csv", dtype=str)
        # Hand 2 (year 0001) first, at minute 0; hand 1 some 1.2 billion minutes on.
        assert list(ledger["hand"]) == ["2", "1"]
        assert ledger["minute"].iloc[0] == "0"
        assert ledger["minute"].iloc[1] == "1209156479.5"


def test_a_time_finer_than_nanoseconds_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "hands.csv"
    log.write_text(
        "hand,finished_at,table,seat,player,score\n"
        "1,2026-01-01T00:00:00.1234567891Z,1,0,A,1\n1,2026-01-01T00:00:00.1234567891Z,1,1,B,-1\n"
    )
    code, _, err = run("final", log, "--hands", "1")
    assert code == 1
    assert set(codes(err)) == {"cell.not-a-time"}


def test_a_final_of_more_hands_than_played_says_so(tmp_path: Path) -> None:
    log = ROOT / "docs" / "examples" / "final_hands.csv"
    result = CliRunner().invoke(app, ["final", str(log), "--hands", "5", "-o", "-"])
    assert result.exit_code == 0
    assert every_code(result.stderr) == ["final.hands-short"]
    assert "at most 2" in line_of("final.hands-short", result.stderr)
    # No place until every hand is played; the totals so far are shown.
    assert set(pd.read_csv(io.StringIO(result.stdout))["place"].isna()) == {True}
    table = duplicate.final(log, hands=5)
    assert [w.code for w in table.event.warnings] == ["final.hands-short"]  # type: ignore[union-attr]
    played = CliRunner().invoke(app, ["final", str(log), "--hands", "2", "-o", "-"])
    assert every_code(played.stderr) == []
