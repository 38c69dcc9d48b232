"""Bridge-grade matchpointing (docs/scoring.md section 9): Neuberg factoring, and the
warning when no result is compared with any other."""

from __future__ import annotations

import io
import json
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pandas as pd
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import codes, line_of
from tests.test_properties import events

runner = CliRunner()


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def section_9_example(tmp_path: Path) -> Path:
    """Deal 1 played 11 times, deal 2 only 10: N = 11 for both."""
    rows = ["deal,seat,player,score"]
    rows += [f"1,0,p{i},{i}" for i in range(1, 12)]
    rows += [f"2,0,p{i},{i * 10}" for i in range(1, 11)]
    path = tmp_path / "session.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_the_example_of_section_9(tmp_path: Path) -> None:
    """N = 11, n = 10, MP 8 of 18: MP' = 8.9, 44.50% (not 44.44%)."""
    code, out, err = run("score", section_9_example(tmp_path), "--factoring", "neuberg")
    assert code == 0, err
    scores = pd.read_csv(io.StringIO(out), dtype=str).set_index(["deal", "player"])
    row = scores.loc[("2", "p5")]
    assert (row["n"], row["mp"], row["top"], row["mp_pct"]) == ("10", "8.90", "20", "44.50")
    # Deal 1 was played its normal number of times: unchanged, MP still whole.
    full = scores.loc[("1", "p5")]
    assert (full["mp"], full["top"], full["mp_pct"]) == ("8.00", "20", "40.00")
    code, out, _ = run("score", section_9_example(tmp_path))
    plain = pd.read_csv(io.StringIO(out), dtype=str).set_index(["deal", "player"])
    assert (plain.loc[("2", "p5")]["mp"], plain.loc[("2", "p5")]["mp_pct"]) == ("8", "44.44")


def test_factoring_reaches_standings_explain_and_parquet(tmp_path: Path) -> None:
    session = section_9_example(tmp_path)
    code, out, _ = run("explain", "p5", session, "--factoring", "neuberg")
    assert code == 0
    assert "8.90" in out
    parquet = tmp_path / "scores.parquet"
    assert run("score", session, "--factoring", "neuberg", "-o", parquet)[0] == 0
    table = pd.read_parquet(parquet)
    assert str(table["mp"].dtype).startswith("decimal") or table["mp"].dtype == object
    assert Decimal(str(table.loc[table["player"] == "p5", "mp"].iloc[1])) == Decimal("8.90")
    assert run("standings", session, "--factoring", "neuberg")[0] == 0


def test_factoring_is_a_matchpoint_rule_on_the_local_engine(tmp_path: Path) -> None:
    session = section_9_example(tmp_path)
    code, _, err = run(
        "standings", session, "--factoring", "neuberg", "--method", "standard-points"
    )
    assert code == 2
    assert codes(err) == ["rules.conflict"]


common = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def factored(event: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    rules = duplicate.Rules(factoring="neuberg")
    return duplicate.score(event).frame, duplicate.score(event, rules).frame


def drop_rows(event: pd.DataFrame, every: int) -> pd.DataFrame:
    """Remove a table's worth of results from some deals (a fouled board, a sit-out)."""
    keep = [
        i % every != every - 1 or row["deal"] == 1 for i, row in enumerate(event.to_dict("records"))
    ]
    return event[keep].reset_index(drop=True)


@common
@given(events(with_table=False))
def test_neuberg_follows_its_formula_exactly(event: pd.DataFrame) -> None:
    event = drop_rows(event, 3)
    plain, neu = factored(event)
    keys = ["section", "round", "deal", "seat", "player"]
    both = plain.merge(neu, on=keys, suffixes=("", "_n"))
    session_seat = both.groupby(["section", "round", "seat"])["n"].transform("max")
    for row, big_n in zip(both.to_dict("records"), session_seat, strict=True):
        n, mp = int(row["n"]), int(row["mp"])
        exact = Fraction((mp + 1) * int(big_n), n) - 1
        assert Decimal(str(row["mp_n"])) == _half_up(exact)
        assert int(row["top_n"]) == 2 * (int(big_n) - 1)
        if n == int(big_n):
            # Played the normal number of times: nothing changes.
            assert (Decimal(str(row["mp_n"])), row["mp_pct_n"]) == (Decimal(mp), row["mp_pct"])
        if n == 1 and big_n > 1:
            assert Decimal(str(row["mp_pct_n"])) == Decimal("50.00")


@common
@given(events(with_table=False))
def test_factored_matchpoints_average_what_a_full_group_would(event: pd.DataFrame) -> None:
    event = drop_rows(event, 2)
    plain, _ = factored(event)
    groups = plain.groupby(["section", "round", "deal", "seat"])
    session_seat = plain.groupby(["section", "round", "seat"])["n"].max()
    for (section, rnd, _, seat), group in groups:
        big_n = int(session_seat[(section, rnd, seat)])
        n = len(group)
        total = sum(Fraction((int(mp) + 1) * big_n, n) - 1 for mp in group["mp"])
        # n results of a full group of N would hold n x (N - 1) matchpoints.
        assert total == n * (big_n - 1)


def test_a_movement_scored_per_round_is_warned_of(tmp_path: Path) -> None:
    rows = ["round,deal,seat,player,score"]
    rows += [f"{r},1,{s},q{r}{s},{r * s}" for r in (1, 2, 3) for s in (0, 1)]
    path = tmp_path / "movement.csv"
    path.write_text("\n".join(rows) + "\n")
    for command in ("validate", "score", "standings"):
        code, _, err = run(command, path)
        assert code == 0
        assert codes(err) == ["scoring.nothing-compared"]
        assert "--deal-scope event" in line_of("scoring.nothing-compared", err)
        code, _, err = run(command, path, "--deal-scope", "event")
        assert code == 0
        assert codes(err) == []


def _half_up(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )


def test_percentage_standings_are_the_mean_mp_percentage(tmp_path: Path) -> None:
    session = section_9_example(tmp_path)
    code, out, err = run("standings", session, "--method", "percentage")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert list(table.columns) == ["section", "place", "player", "percentage", "mp", "top", "deals"]
    rows = table.set_index("player")
    # p10: 18/20 on deal 1 and 18/18 on deal 2, a mean of 95%; p5: 40% and 44.44...%.
    assert tuple(rows.loc["p10", ["place", "percentage", "mp", "top", "deals"]]) == (
        "2",
        "95.00",
        "36",
        "38",
        "2",
    )
    assert rows.loc["p5", "percentage"] == "42.22"
    assert rows.loc["p11", "percentage"] == "100.00"
    published = tmp_path / "published.csv"
    published.write_text(out)
    assert run("verify", session, published, "--method", "percentage")[0] == 0
    assert run("verify", session, published)[0] == 1


def test_equal_percentages_share_the_place_and_assigned_results_count(tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    path.write_text(
        "deal,seat,player,score\n1,0,A,10\n1,0,B,0\n2,0,A,0\n2,0,B,10\n3,0,A,5\n3,0,B,1\n"
    )
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text(
        "round,deal,player,kind,value,reason\n1,3,A,mp_pct,40,fouled\n1,3,B,void,,fouled\n"
    )
    code, out, _ = run("standings", path, "--method", "percentage")
    table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert code == 0
    assert list(table["place"]) == ["1", "2"]
    code, out, _ = run("standings", path, "--method", "percentage", "--adjustments", adjustments)
    table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert code == 0
    # A: 100, 0 and an assigned 40 -> 46.67; B: 0 and 100 (the void leaves) -> 50.
    assert table[["player", "percentage", "deals"]].values.tolist() == [
        ["B", "50.00", "2"],
        ["A", "46.67", "3"],
    ]
    path.write_text("deal,seat,player,score\n1,0,A,10\n1,0,B,0\n2,0,A,0\n2,0,B,10\n")
    code, out, _ = run("standings", path, "--method", "percentage")
    assert pd.read_csv(io.StringIO(out), dtype=str)["place"].tolist() == ["1", "1"]


@common
@given(events())
def test_percentages_are_exact_means(event: pd.DataFrame) -> None:
    rules = duplicate.Rules(method="percentage")
    table = duplicate.standings(event, rules).frame
    scores = duplicate.score(event, rules).frame
    means = {}
    for key, group in scores.groupby(["section", "player"]):
        parts = [
            Fraction(int(mp), int(top)) if int(top) else Fraction(1, 2)
            for mp, top in zip(group["mp"], group["top"], strict=True)
        ]
        means[key] = sum(parts) / len(parts)
    for row in table.itertuples():
        assert Decimal(str(row.percentage)) == _half_up(means[(row.section, row.player)] * 100)
    for section, group in table.groupby("section"):
        exact = [means[(section, p)] for p in group["player"]]
        assert exact == sorted(exact, reverse=True)


def test_average_plus_and_minus_take_the_players_own_percentage_beyond_60_and_40(
    tmp_path: Path,
) -> None:
    results = tmp_path / "session.csv"
    # Over deals 1 and 2: A 100% then 100% (100%), B 50% and 50% (50%), C 0% and 0%.
    results.write_text(
        "deal,seat,player,score\n"
        "1,0,A,10\n1,0,B,5\n1,0,C,0\n2,0,A,10\n2,0,B,5\n2,0,C,0\n"
        "3,0,A,1\n3,0,B,1\n3,0,C,1\n"
    )
    adjustments = tmp_path / "adjustments.csv"

    def assigned(a: str, b: str, c: str) -> list[str]:
        adjustments.write_text(
            f"round,deal,player,kind,value,reason\n1,3,A,{a},,x\n1,3,B,{b},,x\n1,3,C,{c},,x\n"
        )
        code, out, err = run("score", results, "--adjustments", adjustments)
        assert code == 0, err
        scores = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
        return list(scores[scores["deal"] == "3"]["mp_pct"])

    # Plus: 60% unless the player's own is higher; minus: 40% unless lower.
    assert assigned("avg_plus", "avg_plus", "avg_plus") == ["100.00", "60.00", "60.00"]
    assert assigned("avg_minus", "avg_minus", "avg_minus") == ["40.00", "40.00", "0.00"]
    code, out, _ = run("standings", results, "--adjustments", adjustments, "--method", "percentage")
    assert code == 0
    table = pd.read_csv(io.StringIO(out), dtype=str).set_index("player")
    # A: 100, 100 and 40 -> 80%; an average counts as a deal with a result.
    assert (table.loc["A", "percentage"], table.loc["A", "deals"]) == ("80.00", "3")


def test_an_average_is_named_with_its_reason(tmp_path: Path) -> None:
    results = section_9_example(tmp_path)
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text("round,deal,player,kind,value,reason\n1,2,p5,avg_plus,,fouled\n")
    code, out, _ = run("explain", "p5", results, "--adjustments", adjustments)
    assert code == 0
    assert "avg_plus: fouled" in out


def test_percentage_standings_are_explained_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "session.csv"
    rows = ["deal,seat,player,score"]
    scores = {"a": (10, 1, 1), "b": (20, 0, 2), "c": (20, 0, 3), "d": (5, 3, 4)}
    rows += [f"{deal + 1},0,{p},{s[deal]}" for deal in range(3) for p, s in scores.items()]
    path.write_text("\n".join(rows) + "\n")
    code, out, err = run("explain", "b", path, "--method", "percentage", "--format", "json")
    assert code == 0, err
    explained = json.loads(out)
    # b: 5, 1 and 2 MP of 6: 83.33% + 16.67% + 33.33%, a mean of exactly 400/9.
    assert explained["place"] == 3
    assert explained["percentage"] == {"value": 44.44, "exact": "400/9"}
    assert (explained["mp"], explained["top"], explained["deals_counted"]) == (8, 18, 3)
    assert "rank_points" not in explained["items"][0]
    assert explained["above"]["player"] == "c"
    assert explained["above"]["by_exact"] == "100/9"
    code, out, _ = run("explain", "b", path, "--method", "percentage")
    assert "Percentage 44.44 = mean MP% over 3 deals (exact 400/9); MP 8 of 18" in out
    assert "Above: c, place 2, 55.56%. c is ahead: 55.56 against 44.44" in out
    site = tmp_path / "site"
    code, _, err = run("report", path, "--method", "percentage", "-o", site)
    assert code == 0, err
    index = (site / "index.html").read_text()
    assert ">Percentage</th>" in index
    assert ">66.67</td>" in index
    assert ">Points</th>" not in (site / "deals" / "1.html").read_text()


def test_shared_places_are_explained_as_shared(tmp_path: Path) -> None:
    path = tmp_path / "session.csv"
    path.write_text("deal,seat,player,score\n1,0,a,1\n1,0,b,1\n1,0,c,0\n")
    code, out, _ = run("explain", "a", path, "--method", "percentage")
    assert code == 0
    assert "Equal percentages: the place is shared." in out
