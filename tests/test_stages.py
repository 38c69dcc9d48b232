"""Stage formats (docs/scoring.md section 8): elimination, fixed-hand finals, equal results."""

from __future__ import annotations

import io
import random
import tempfile
import tomllib
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import duplicate
from duplicate import StageRules
from duplicate.cli import app
from tests import stage_reference
from tests.conftest import SAMPLE

runner = CliRunner()
EXAMPLE = SAMPLE / "stage_example.csv"
GOLDEN = Path(__file__).parent / "golden_stages"
BAD = Path(__file__).parent / "data" / "bad_hands"
EXAMPLE_OPTIONS = ["--base", "0:100,4:200,8:400", "--advance", "3"]


def run(*args: object, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_the_worked_example_of_section_8(tmp_path: Path) -> None:
    out, ledger = tmp_path / "stage.csv", tmp_path / "ledger.csv"
    code, _, err = run("elimination", EXAMPLE, *EXAMPLE_OPTIONS, "--ledger", ledger, "-o", out)
    assert code == 0, err
    standings = pd.read_csv(out, dtype=str, keep_default_na=False)
    # docs/scoring.md: 1 F 2200, 2 B 2100, 3 A 1700 (qualified, carried as much),
    # 4 E (out in hand 4), 5 C (hand 3), 6 D (hand 2).
    assert list(standings["player"]) == ["F", "B", "A", "E", "C", "D"]
    assert list(standings["chips"]) == ["2200", "2100", "1700", "0", "0", "0"]
    assert list(standings["eliminated_in"]) == ["", "", "", "4", "3", "2"]
    assert list(standings["carried"]) == ["2200", "2100", "1700", "", "", ""]
    assert list(standings["qualified"]) == ["true"] * 3 + ["false"] * 3
    assert out.read_bytes() == (GOLDEN / "standings.csv").read_bytes()
    assert ledger.read_bytes() == (GOLDEN / "ledger.csv").read_bytes()
    payments = pd.read_csv(ledger, dtype=str, keep_default_na=False)
    d_to_f = payments[(payments["payer"] == "D") & (payments["payee"] == "F")].iloc[0]
    assert (d_to_f["owed"], d_to_f["paid"], d_to_f["cap"]) == ("600", "400", "payer_left")


def ledger_of(tmp_path: Path, hands: list[tuple[int, int, str, int]], base: str) -> pd.DataFrame:
    """The ledger of a stage of 1000 chips a player, nobody out, from (hand, minute,
    player, score) rows at one table, seats in the order given."""
    log = tmp_path / "hands.csv"
    seat: dict[int, int] = {}
    lines = ["hand,minute,table,seat,player,score"]
    for number, minute, player, score in hands:
        seat[number] = seat.get(number, -1) + 1
        lines.append(f"{number},{minute},T1,{seat[number]},{player},{score}")
    log.write_text("\n".join(lines) + "\n")
    ledger = tmp_path / "ledger.csv"
    options = ["--start", "1000", "--base", base, "--eliminate-below", "0"]
    code, _, err = run("elimination", log, *options, "--ledger", ledger, "-o", tmp_path / "s.csv")
    assert code == 0, err
    return pd.read_csv(ledger, dtype=str, keep_default_na=False)


def test_the_seeds_two_minimization_examples(tmp_path: Path) -> None:
    """003: a winner with 30 chips owed 200 receives 30; a loser with 120 who owes 140
    pays 120."""
    # Hand 1 (base 10) leaves W with 30 chips; hand 2 is played for a base of 100.
    first = [(1, 1, "W", -97), (1, 1, "X", 97), (2, 6, "W", 2), (2, 6, "L", -2)]
    paid = ledger_of(tmp_path, first, "0:10,5:100").query("hand == '2'")
    assert paid[["payer", "payee", "owed", "paid", "cap"]].values.tolist() == [
        ["L", "W", "200", "30", "payee_chips"]
    ]
    # Hand 1 leaves L with 120 chips; hand 2, for a base of 10, takes them all.
    second = [(1, 1, "L", -88), (1, 1, "X", 88), (2, 2, "W", 14), (2, 2, "L", -14)]
    paid = ledger_of(tmp_path, second, "0:10").query("hand == '2'")
    assert paid[["payer", "payee", "owed", "paid", "cap"]].values.tolist() == [
        ["L", "W", "140", "120", "payer_chips"]
    ]


def test_a_paying_hub_pays_in_seat_order_after_its_own_seat(tmp_path: Path) -> None:
    # Hand 1 leaves A and B with 900 chips and C with 300; in hand 2 C owes 400 to each.
    hands = [(1, 1, "A", -1), (1, 1, "B", -1), (1, 1, "C", -7), (1, 1, "X", 9)]
    hands += [(2, 2, "A", 2), (2, 2, "B", 2), (2, 2, "C", -4)]
    paid = ledger_of(tmp_path, hands, "0:100").query("hand == '2'")
    assert paid[["payer", "payee", "paid"]].values.tolist() == [
        ["C", "A", "200"],
        ["C", "B", "100"],
    ]


# Random stages: tables of 3, scores with one winner or one loser, hands that only
# players still in play (the reference says who is in while the log is made).
@st.composite
def stages(draw: st.DrawFn, tight: bool = False) -> tuple[list[dict[str, object]], StageRules]:
    """A random stage; `tight`: few chips for the base, so that the payment caps bind and
    players often end level on chips (the equal-result rule then decides)."""
    n = draw(st.integers(3, 9))
    start = draw(st.sampled_from([100, 200] if tight else [50, 300, 1000]))
    schedule_text = draw(
        st.sampled_from(["0:100"] if tight else ["0:100", "0:10,3:40", "0:50,2:80,6:300"])
    )
    fixed = draw(st.sampled_from([None, 0, 60]))
    share = draw(st.sampled_from([Decimal("0.25"), Decimal(0), Decimal("1.5")]))
    rules = StageRules(
        start=start,
        base=tuple(
            (Decimal(m), int(b)) for m, b in (p.split(":") for p in schedule_text.split(","))
        ),
        eliminate_below=share,
        eliminate_below_chips=fixed,
        advance=draw(st.integers(0, n)),
        carry=draw(st.sampled_from(["ratio", "sqrt", "none"])),
        carry_ratio=draw(st.sampled_from([Decimal(1), Decimal("0.5")])),
    )
    schedule = [(Fraction(m), b) for m, b in rules.base]
    players = [f"p{i}" for i in range(n)]
    rows: list[dict[str, object]] = []
    minute = 0
    for number in range(1, draw(st.integers(1, 14)) + 1):
        state = (
            stage_reference.run_stage(rows, start, schedule, Fraction(share), fixed) if rows else {}
        )
        still_in = [p for p in players if p not in state or state[p].out_position is None]
        if len(still_in) < 3:
            break
        table = draw(st.permutations(still_in))[:3]
        minute += draw(st.integers(1, 3))
        hub = draw(st.integers(0, 2))
        sign = draw(st.sampled_from([1, -1]))
        others = [draw(st.integers(0, 3 if tight else 6)) for _ in range(2)]
        scores = [-sign * s for s in others]
        scores.insert(hub, sign * sum(others))
        for seat, (player, score) in enumerate(zip(table, scores, strict=True)):
            rows.append(
                {
                    "hand": number,
                    "minute": minute,
                    "table": 1 + number % 2,
                    "seat": seat,
                    "player": player,
                    "score": score,
                }
            )
    return rows, rules


common = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))


def stage_of(rows: list[dict[str, object]], rules: StageRules) -> duplicate.StageTable:
    """The elimination of a hand log read from a Parquet file of `rows`."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "hands.parquet"
        pd.DataFrame(rows).to_parquet(log, index=False)
        return duplicate.elimination(str(log), duplicate.Rules(stage=rules))


def standings_of(rows: list[dict[str, object]], rules: StageRules) -> pd.DataFrame:
    return stage_of(rows, rules).frame


def _reference(rows: list[dict[str, object]], rules: StageRules) -> Any:
    """The plain reference's run of the stage, under the same rules."""
    return stage_reference.run_stage(
        rows,
        rules.start,
        [(Fraction(m), b) for m, b in rules.base],
        Fraction(rules.eliminate_below),
        rules.eliminate_below_chips,
    )


@common
@given(stages())
def test_elimination_agrees_with_the_reference(
    stage: tuple[list[dict[str, object]], StageRules],
) -> None:
    rows, rules = stage
    if not rows:
        return
    got = standings_of(rows, rules)
    want = _reference(rows, rules)
    order = stage_reference.stage_order(want)
    assert list(got["player"]) == order
    for position, row in enumerate(got.itertuples()):
        s = want[row.player]
        assert (row.chips, row.hands) == (s.chips, s.hands)
        assert row.eliminated_in == ("" if s.out_hand is None else str(s.out_hand))
        assert row.qualified == (position < rules.advance)
        if row.qualified:
            assert row.carried == stage_reference.carried(s.chips, rules.carry, rules.carry_ratio)
        else:
            assert row.carried is pd.NA


@common
@given(stages(tight=True))
def test_equal_chips_are_settled_by_the_last_hands_game_score(
    stage: tuple[list[dict[str, object]], StageRules],
) -> None:
    """docs/scoring.md 8.5 on stages where the caps bind: the order and the shared
    places are the reference's, which compares the last hand's `score`."""
    rows, rules = stage
    if not rows:
        return
    got = standings_of(rows, rules)
    want = _reference(rows, rules)
    assert list(got["player"]) == stage_reference.stage_order(want)
    places = stage_reference.stage_places(want)
    assert [int(p) for p in got["place"]] == [places[p] for p in got["player"]]


def test_two_players_who_scored_the_same_share_the_place_whatever_the_caps_paid(
    tmp_path: Path,
) -> None:
    # B and X both win +4 in hand 2, on 900 chips after it; A runs out paying B in full
    # and X only 100: the chips moved differ, the game scores do not.
    log = tmp_path / "hands.csv"
    log.write_text(
        "hand,minute,table,seat,player,score\n"
        "1,1,1,0,X,3\n1,1,1,1,Y,-3\n1,1,1,2,Q,0\n"
        "2,2,1,0,A,-8\n2,2,1,1,B,4\n2,2,1,2,X,4\n"
    )
    code, out, err = run("elimination", log, "--start", "500", "-f", "csv")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert list(table["player"])[:2] == ["B", "X"]
    assert list(table["chips"])[:2] == ["900", "900"]
    assert list(table["place"])[:2] == ["1", "1"]
    assert list(table["decided_by"])[:2] == ["", "tied"]


@common
@given(stages())
def test_chips_are_conserved_never_negative_and_out_means_below_the_limit(
    stage: tuple[list[dict[str, object]], StageRules],
) -> None:
    rows, rules = stage
    if not rows:
        return
    result = stage_of(rows, rules)
    table = result.frame
    assert int(table["chips"].sum()) == rules.start * len(table)
    assert (table["chips"] >= 0).all()
    ledger = result.ledger
    assert (ledger["paid"] >= 0).all()
    assert (ledger["paid"] <= ledger["owed"]).all()
    assert (ledger[["payer_chips_after", "payee_chips_after"]] >= 0).all().all()
    assert rules.base is not None
    schedule = [(Fraction(m), b) for m, b in rules.base]
    last_base = {}
    for record in sorted(rows, key=lambda r: (r["minute"], r["hand"])):
        minute = Fraction(str(record["minute"]))
        last_base[record["player"]] = stage_reference.base_at(schedule, minute)
    for row in table.itertuples():
        below = (
            row.chips < rules.eliminate_below_chips
            if rules.eliminate_below_chips is not None
            else row.chips < rules.eliminate_below * last_base[row.player]
        )
        assert below == (row.eliminated_in != "")


@common
@given(stages(), st.randoms(use_true_random=False))
def test_shuffling_the_log_changes_nothing(
    stage: tuple[list[dict[str, object]], StageRules], rnd: random.Random
) -> None:
    rows, rules = stage
    if not rows:
        return
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    pd.testing.assert_frame_equal(standings_of(rows, rules), standings_of(shuffled, rules))


def test_chips_after_every_hand(tmp_path: Path) -> None:
    chips = tmp_path / "chips.csv"
    code, _, err = run("elimination", EXAMPLE, *EXAMPLE_OPTIONS, "--chips", chips)
    assert code == 0, err
    table = pd.read_csv(chips, dtype=str)
    assert list(table.columns) == ["hand", "minute", "player", "chips", "out"]
    assert list(table[table["player"] == "A"]["chips"]) == ["1600", "900", "1700"]
    assert list(table[table["out"] == "true"]["player"]) == ["D", "C", "E"]


def test_carry_modes_round_half_up(tmp_path: Path) -> None:
    code, out, _ = run(
        "elimination", EXAMPLE, *EXAMPLE_OPTIONS, "--carry", "sqrt", "--carry-ratio", "10"
    )
    assert code == 0
    carried = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)["carried"]
    # sqrt(2200) x 10 = 469.04..., sqrt(2100) x 10 = 458.25..., sqrt(1700) x 10 = 412.31...
    assert list(carried[:3]) == ["469", "458", "412"]
    code, out, _ = run("elimination", EXAMPLE, *EXAMPLE_OPTIONS, "--carry", "none")
    assert list(pd.read_csv(io.StringIO(out))["carried"][:3]) == [0, 0, 0]


def test_the_rules_file_holds_the_stage(tmp_path: Path) -> None:
    rules = tmp_path / "stage.rules.toml"
    rules.write_text('[stage]\nbase = "0:100,4:200,8:400"\nadvance = 3\nstart = 1000\n')
    with_file = run("elimination", EXAMPLE, "--rules", rules)
    assert with_file[:2] == run("elimination", EXAMPLE, *EXAMPLE_OPTIONS)[:2]
    printed = tomllib.loads(run("rules", "--rules", rules)[1])
    assert printed["stage"]["base"] == "0:100,4:200,8:400"
    assert printed["stage"]["advance"] == 3


def test_a_fixed_hand_final_takes_the_elimination_output(tmp_path: Path) -> None:
    stage = tmp_path / "stage.csv"
    assert run("elimination", EXAMPLE, *EXAMPLE_OPTIONS, "-o", stage)[0] == 0
    hands = tmp_path / "final.csv"
    hands.write_text(
        "hand,minute,table,seat,player,score\n"
        "1,1,1,0,F,2\n1,1,1,1,B,-1\n1,1,1,2,A,-1\n"
        "2,2,1,0,F,-2\n2,2,1,1,B,4\n2,2,1,2,A,-2\n"
    )
    code, out, err = run("final", hands, "--hands", "2", "--carried", stage, "--base", "0:10")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    # F 2200 + 20 - 20, B 2100 - 10 + 40, A 1700 - 10 - 20.
    assert table[["place", "player", "total", "carried", "hands"]].to_dict("list") == {
        "place": ["1", "2", "3"],
        "player": ["F", "B", "A"],
        "total": ["2200", "2130", "1670"],
        "carried": ["2200", "2100", "1700"],
        "hands": ["2", "2", "2"],
    }


@st.composite
def finals(draw: st.DrawFn) -> tuple[list[dict[str, object]], int, dict[str, int], str]:
    """A random fixed-hand final: tables of 3 each round, small scores (totals and last
    hands often level), some tables missing the last round, some carried points, and a
    base that grows (points then differ from game scores)."""
    players = [f"p{i}" for i in range(3 * draw(st.integers(1, 3)))]
    rounds = draw(st.integers(1, 4))
    rows: list[dict[str, object]] = []
    for number in range(1, rounds + 1):
        order = draw(st.permutations(players))
        for t in range(len(players) // 3):
            if number == rounds and draw(st.integers(0, 4)) == 0:
                continue
            hub = draw(st.integers(0, 2))
            sign = draw(st.sampled_from([1, -1]))
            others = [draw(st.integers(0, 2)) for _ in range(2)]
            scores = [-sign * x for x in others]
            scores.insert(hub, sign * sum(others))
            for seat in range(3):
                rows.append(
                    {
                        "hand": f"{number}-{t}",
                        "minute": 2 * number + t % 2,
                        "table": t + 1,
                        "seat": seat,
                        "player": order[3 * t + seat],
                        "score": scores[seat],
                    }
                )
    carried = {p: draw(st.sampled_from([0, 0, 2, 4])) for p in players}
    base = draw(st.sampled_from(["0:1", "0:1,5:2"]))
    return rows, rounds, carried, base


@common
@given(finals())
def test_a_final_agrees_with_the_reference(
    final: tuple[list[dict[str, object]], int, dict[str, int], str],
) -> None:
    """docs/scoring.md 8.4-8.5: totals, then the last hand's game score; shared places."""
    rows, hands, carried, base = final
    if not rows:
        return
    played = {str(r["player"]) for r in rows}
    carried = {p: c for p, c in carried.items() if p in played}
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "final.parquet"
        pd.DataFrame(rows).to_parquet(log, index=False)
        got = duplicate.final(str(log), hands, carried, base=base).frame
    schedule = [(Fraction(m), int(b)) for m, b in (p.split(":") for p in base.split(","))]
    want = stage_reference.final_places(rows, hands, carried, schedule)
    assert list(got["player"]) == [p for p, _, _ in want]
    assert [None if p is pd.NA else int(p) for p in got["place"]] == [w for _, w, _ in want]
    assert [int(t) for t in got["total"]] == [t for _, _, t in want]


def test_a_final_orders_by_total_then_last_hand_then_registration(tmp_path: Path) -> None:
    hands = tmp_path / "final.csv"
    # A and B end level on 0; A won the last hand. C and D are level with the same
    # last hand: registration decides, or nothing does.
    hands.write_text(
        "hand,minute,table,seat,player,score\n"
        "1,1,1,0,A,-2\n1,1,1,1,B,2\n2,2,1,0,A,2\n2,2,1,1,B,-2\n"
        "3,1,2,0,C,1\n3,1,2,1,D,1\n3,1,2,2,E,-2\n4,2,2,0,C,0\n4,2,2,1,D,0\n4,2,2,2,E,0\n"
    )
    code, out, _ = run("final", hands, "--hands", "2")
    table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert code == 0
    assert list(table["player"]) == ["C", "D", "A", "B", "E"]
    assert list(table["place"]) == ["1", "1", "3", "4", "5"]
    assert list(table["decided_by"]) == ["", "tied", "total", "last_hand", "total"]
    players = tmp_path / "players.csv"
    players.write_text("player,registered\nD,2026-01-01\nC,2026-01-02\nA,x\nB,y\nE,z\n")
    code, out, _ = run("final", hands, "--hands", "2", "--players", players)
    table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert list(table["player"])[:2] == ["D", "C"]
    assert list(table["decided_by"])[:2] == ["", "registration"]


def test_players_short_of_the_hands_get_no_place(tmp_path: Path) -> None:
    hands = tmp_path / "final.csv"
    hands.write_text(
        "hand,minute,table,seat,player,score\n1,1,1,0,A,5\n1,1,1,1,B,-5\n"
        "2,2,1,0,A,1\n2,2,1,1,C,-1\n"
    )
    code, out, _ = run("final", hands, "--hands", "2")
    table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert code == 0
    assert table.to_dict("records")[0]["player"] == "A"
    assert list(table["place"]) == ["1", "", ""]
    code, _, err = run("final", hands, "--hands", "1")
    assert code == 1
    assert "plays 2 hands, more than the 1 of the final" in err


def test_explain_shows_the_payments_behind_a_players_chips() -> None:
    code, out, _ = run("elimination", EXAMPLE, *EXAMPLE_OPTIONS, "--explain", "C", "-f", "csv")
    assert code == 0
    rows = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert list(rows["hand"]) == ["1", "3"]
    assert list(rows["cap"]) == ["", "payer_chips"]


def test_ass_lists_every_sitting_longer_than_allowed(tmp_path: Path) -> None:
    hands = tmp_path / "hands.csv"
    lines = ["hand,minute,table,seat,player,score"]
    for h in range(1, 5):
        lines += [f"{h},{h},1,0,A,1", f"{h},{h},1,1,B,-1"]
    hands.write_text("\n".join(lines) + "\n")
    assert run("elimination", hands)[0] == 0
    code, _, err = run("elimination", hands, "--ass", "3")
    assert code == 1
    assert "table 1 plays 4 hands in a row with the same players" in err


EXPECTED = tomllib.loads((BAD / "EXPECTED.toml").read_text(encoding="utf-8"))


def test_every_bad_hand_log_has_an_expectation() -> None:
    assert {p.name for p in BAD.iterdir() if p.name != "EXPECTED.toml"} == set(EXPECTED)


# A final eliminates no one: that file is the elimination's alone.
CASES = [("elimination", name) for name in sorted(EXPECTED)] + [
    ("final", name) for name in sorted(EXPECTED) if name != "played_after_elimination.csv"
]


@pytest.mark.parametrize(("command", "name"), CASES)
def test_bad_hand_logs_are_rejected_cleanly(command: str, name: str, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    extra = ["--hands", "9"] if command == "final" else ["--ledger", str(tmp_path / "l.csv")]
    code, stdout, err = run(command, BAD / name, *extra, "-o", out)
    assert code == 1, err
    assert EXPECTED[name] in err
    assert "Traceback" not in err
    assert stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_swiss_with_cuts_seats_the_first_n_and_lists_the_rest(tmp_path: Path) -> None:
    results = SAMPLE / "big2_event.csv"
    standings = pd.read_csv(io.StringIO(run("standings", results)[1]), dtype=str)
    out, manifest = tmp_path / "seats.csv", tmp_path / "run.json"
    code, _, err = run("seat", results, "--keep", "40", "-o", out, "--manifest", manifest)
    assert code == 0, err
    seated = pd.read_csv(out, dtype=str)
    assert set(seated["player"]) == set(standings["player"][:40])
    cut = list(standings["player"][40:])
    assert f"cut after 40 places, 8 players out: {', '.join(cut)}" in err
    assert ",".join(cut) in manifest.read_text()
    assert run("seat", results, "--keep", "0")[0] == 2


def test_finished_at_times_settle_like_minutes(tmp_path: Path) -> None:
    frame = pd.read_csv(EXAMPLE)
    stamps = pd.Timestamp("2026-05-01T20:00:00+08:00") + pd.to_timedelta(frame["minute"], "min")
    timed = tmp_path / "timed.csv"
    frame.drop(columns="minute").assign(finished_at=stamps.map(pd.Timestamp.isoformat)).to_csv(
        timed, index=False
    )
    # The stage begins at the first hand's end (minute 2 of the example): shift the
    # schedule by as much.
    code, out, err = run("elimination", timed, "--base", "0:100,2:200,6:400", "--advance", "3")
    assert code == 0, err
    assert out == run("elimination", EXAMPLE, *EXAMPLE_OPTIONS)[1].replace(
        "4,8,false", "4,6,false"
    ).replace("3,5,false", "3,3,false").replace("2,3,false", "2,1,false")


@pytest.mark.parametrize(
    ("base", "fragment"),
    [
        ("4:100,8:200", "starts at minute 0"),
        ("0:200,4:100", "minutes and bases both grow"),
        ("0:100,0:200", "minutes and bases both grow"),
        ("0:1e2", "is not minute:base"),
        ("0:0", "a base is a whole number"),
    ],
)
def test_a_base_schedule_starts_at_0_and_grows(base: str, fragment: str) -> None:
    code, _, err = run("elimination", EXAMPLE, "--base", base)
    assert code == 2
    assert fragment in err


def test_a_swiss_final_settles_equal_totals_by_registration_alone() -> None:
    """B, D and C are level on their totals (C behind on rank counts): the next round
    seats them by registration, D and C registered first, B not in the file."""
    ranks = {1: ["A", "B", "C", "D", "E"], 2: ["A", "D", "C", "B", "E"]}  # best first
    results = pd.DataFrame(
        [
            {"deal": deal, "seat": 0, "player": player, "score": 10 - place}
            for deal, order in ranks.items()
            for place, player in enumerate(order)
        ]
    )
    # 2nd and 4th make a 3rd twice: 0.7 + 0.3 = 0.5 + 0.5.
    rules = duplicate.Rules(rank_factors=tuple(Decimal(f) for f in ("1", "0.7", "0.5", "0.3")))
    standings = duplicate.standings(results, rules).frame
    assert list(standings["player"]) == ["A", "B", "D", "C", "E"]
    assert standings["total"].tolist()[1:4] == [Decimal("10000.00")] * 3
    players = pd.DataFrame({"player": ["D", "C", "A", "E"]})
    seating = duplicate.seat(
        results,
        rules,
        players=players,
        table_size=5,
        order="straight",
        avoid_repeats=False,
        tie_rule="registration",
    ).frame
    assert list(seating.sort_values("seat")["player"]) == ["A", "D", "C", "B", "E"]


def test_seat_with_the_registration_tie_rule_needs_the_players_file(tmp_path: Path) -> None:
    results = SAMPLE / "big2_event.csv"
    code, _, err = run("seat", results, "--tie-rule", "registration")
    assert code == 2
    assert "needs the players file" in err
    players = tmp_path / "players.csv"
    standings = pd.read_csv(io.StringIO(run("standings", results)[1]), dtype=str)
    players.write_text("player\n" + "\n".join(reversed(list(standings["player"]))) + "\n")
    code, out, err = run("seat", results, "--tie-rule", "registration", "--players", players)
    assert code == 0, err
    assert len(pd.read_csv(io.StringIO(out))) == 48


def test_a_manifest_records_the_stage_and_every_output(tmp_path: Path) -> None:
    import json

    manifest = tmp_path / "run.json"
    code, _, err = run(
        "elimination",
        EXAMPLE,
        *EXAMPLE_OPTIONS,
        "-o",
        tmp_path / "stage.parquet",
        "--ledger",
        tmp_path / "ledger.csv",
        "--report",
        tmp_path / "site",
        "--manifest",
        manifest,
    )
    assert code == 0, err
    record = json.loads(manifest.read_text())
    assert record["command"] == "elimination"
    assert [i["role"] for i in record["inputs"]] == ["hands"]
    assert record["inputs"][0]["rows"] == 12
    formats = sorted(o["format"] for o in record["outputs"])
    assert formats == ["csv", "parquet", "site", "toml"]
    assert 'base = "0:100,4:200,8:400"' in record["rules"]["toml"]
