"""IMP scoring (docs/bridge.md, "IMPs"): the WBF scale, cross-IMPs and Butler, worked
by hand and checked against tests/imp_reference.py on random events."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from duplicate.errors import UsageError
from duplicate.model.adjustments import parse_adjustments
from duplicate.scoring.imp_scale import imps
from tests import imp_reference
from tests.conftest import codes, problem_codes

CROSS = duplicate.Rules(method="cross-imps")
CROSS_SUM = duplicate.Rules(method="cross-imps", cross_imps="sum")
BUTLER = duplicate.Rules(method="butler")


def board(ns_scores: list[int], deal: int = 1) -> list[dict[str, object]]:
    """One deal's traveller: pair nI sits NS and scores ns_scores[I], eI sits EW."""
    rows: list[dict[str, object]] = []
    for i, score in enumerate(ns_scores):
        rows.append({"deal": deal, "seat": "NS", "player": f"n{i}", "score": score})
        rows.append({"deal": deal, "seat": "EW", "player": f"e{i}", "score": -score})
    return rows


def imps_of(frame: pd.DataFrame, rules: duplicate.Rules) -> dict[str, object]:
    scored = duplicate.score(frame, rules).frame
    return dict(zip(scored["player"], scored["imps"], strict=True))


@pytest.mark.parametrize(
    ("difference", "expected"),
    [
        (0, 0),
        (10, 0),
        (19, 0),
        (20, 1),
        (40, 1),
        (50, 2),
        (120, 3),
        (130, 4),
        (210, 5),
        (220, 6),
        (420, 9),
        (430, 10),
        (490, 10),
        (500, 11),
        (590, 11),
        (600, 12),
        (740, 12),
        (750, 13),
        (1090, 14),
        (1100, 15),
        (1490, 16),
        (1500, 17),
        (1740, 17),
        (1750, 18),
        (2240, 19),
        (2250, 20),
        (2990, 21),
        (3000, 22),
        (3990, 23),
        (4000, 24),
        (7600, 24),
        (-450, -10),
        (-4000, -24),
    ],
)
def test_the_wbf_scale(difference: int, expected: int) -> None:
    assert int(imps(np.array([difference]))[0]) == expected
    assert imp_reference.imps(Fraction(difference)) == expected


@given(st.integers(-6000, 6000), st.integers(1, 40))
def test_the_scale_agrees_with_the_printed_table_on_fractions(num: int, den: int) -> None:
    assert int(imps(np.array([num]), np.array([den]))[0]) == imp_reference.imps(Fraction(num, den))


def test_cross_imps_by_hand() -> None:
    # NS +420 against 450 (-30: -1), -50 (470: +10) and 100 (320: +8): 17 over 3 comparisons.
    frame = pd.DataFrame(board([420, 450, -50, 100]))
    summed = imps_of(frame, CROSS_SUM)
    assert summed == {
        "n0": 17,
        "n1": 20,
        "n2": -25,
        "n3": -12,
        "e0": -17,
        "e1": -20,
        "e2": 25,
        "e3": 12,
    }
    averaged = imps_of(frame, CROSS)
    assert averaged["n0"] == Decimal("5.67")  # 17 / 3
    assert averaged["e2"] == Decimal("8.33")  # 25 / 3
    scored = duplicate.score(frame, CROSS).frame
    assert set(scored["comparisons"]) == {3}


def test_butler_by_hand() -> None:
    # Four NS scores with the top and bottom kept: datum 400; +600 is 200 over (5 IMPs),
    # -200 is 600 under (-12).
    frame = pd.DataFrame(board([600, 600, 600, -200]))
    kept = duplicate.Rules(method="butler", butler_drop=0)
    assert imps_of(frame, kept) == {
        "n0": 5,
        "n1": 5,
        "n2": 5,
        "n3": -12,
        "e0": -5,
        "e1": -5,
        "e2": -5,
        "e3": 12,
    }
    scored = duplicate.score(frame, kept).frame
    assert {abs(d) for d in scored["datum"]} == {Decimal("400.00")}
    # The default drops the top and bottom: the datum of 600 and 600 is 600.
    assert imps_of(frame, BUTLER)["n3"] == -13


def test_butler_datum_rounding() -> None:
    # 420 and 430: the mean 425 is halfway; away from zero 430, to even 420.
    frame = pd.DataFrame(board([420, 430]))
    away = duplicate.score(frame, BUTLER).frame.set_index("player")
    assert away.loc["n0", "datum"] == Decimal("430.00")
    assert away.loc["e0", "datum"] == Decimal("-430.00")  # EW's datum mirrors NS's
    even = duplicate.Rules(method="butler", butler_half="even")
    assert duplicate.score(frame, even).frame.set_index("player").loc["n0", "datum"] == Decimal(
        "420.00"
    )
    frame = pd.DataFrame(board([430, 440]))  # 435: to even is 440
    assert duplicate.score(frame, even).frame.set_index("player").loc["n0", "datum"] == Decimal(
        "440.00"
    )
    exact = duplicate.Rules(method="butler", butler_round=0, butler_drop=0)
    frame = pd.DataFrame(board([0, 35]))  # datum 17.5: differences of 17.5 are 0 IMPs
    scored = duplicate.score(frame, exact).frame.set_index("player")
    assert scored.loc["n1", "datum"] == Decimal("17.50")
    assert scored.loc["n1", "difference"] == Decimal("17.50")
    assert scored.loc["n1", "imps"] == 0


def test_a_share_of_the_results_can_be_dropped() -> None:
    # Twenty results 0, 10, ..., 190: 10% is two at each end (ACBLscore drops 5%: one).
    frame = pd.DataFrame(board([10 * i for i in range(20)]))
    datum = {}
    for trim in ("0.1", "0.05"):
        rules = duplicate.Rules(method="butler", butler_drop=0, butler_trim=Decimal(trim))
        scored = duplicate.score(frame, rules).frame.set_index("player")
        datum[trim] = scored.loc["n0", "datum"]
    # Either way the mean of what is kept is 95; rounded away from zero: 100.
    assert datum == {"0.1": Decimal("100.00"), "0.05": Decimal("100.00")}
    skewed = pd.DataFrame(board([0] * 18 + [4000, 4000]))
    rules = duplicate.Rules(method="butler", butler_drop=0, butler_trim=Decimal("0.1"))
    scored = duplicate.score(skewed, rules).frame.set_index("player")
    assert scored.loc["n0", "datum"] == Decimal("0.00")  # both 4000s dropped
    rules = duplicate.Rules(method="butler", butler_drop=0, butler_trim=Decimal("0.05"))
    scored = duplicate.score(skewed, rules).frame.set_index("player")
    assert scored.loc["n0", "datum"] == Decimal("220.00")  # one dropped: 4000 / 18 = 222


def test_small_groups_keep_one_result_for_the_datum() -> None:
    # Three results and two to drop at each end: one is dropped, the median is the datum.
    frame = pd.DataFrame(board([100, 500, 620]))
    rules = duplicate.Rules(method="butler", butler_drop=2)
    scored = duplicate.score(frame, rules).frame.set_index("player")
    assert scored.loc["n0", "datum"] == Decimal("500.00")
    alone = duplicate.score(pd.DataFrame(board([420])), CROSS).frame
    assert list(alone["imps"]) == [0, 0]


def test_standings_total_average_and_shared_places() -> None:
    rows = board([420, 450, -50, 100]) + board([-100, -100, 200, 200], deal=2)
    table = duplicate.standings(pd.DataFrame(rows), CROSS_SUM).frame.set_index("player")
    # n0: 17 on deal 1; on deal 2 -100 against -100 (0), 200 (-7), 200 (-7): -14.
    assert table.loc["n0", "imps"] == 3
    assert table.loc["n0", "average_imps"] == Decimal("1.50")
    assert table.loc["n0", "deals"] == 2
    # NS 0, 0, 50: n2 +4, e0 and e1 +2, n0 and n1 -2, e2 -4.
    level = duplicate.standings(pd.DataFrame(board([0, 0, 50])), CROSS_SUM).frame
    assert list(level["place"]) == [1, 2, 2, 4, 4, 6]
    assert list(level["imps"]) == [4, 2, 2, -2, -2, -4]


@st.composite
def imp_events(draw: st.DrawFn) -> pd.DataFrame:
    """Bridge-like events: deals played by a few pairs a side, scores in tens with an odd
    one now and then, sometimes two sections."""
    rows = []
    for section in draw(st.sampled_from([[""], ["A", "B"]])):
        pairs = draw(st.integers(1, 6))
        for deal in range(1, draw(st.integers(1, 4)) + 1):
            playing = draw(st.lists(st.integers(0, pairs - 1), min_size=1, unique=True))
            for pair in playing:
                score = draw(
                    st.one_of(
                        st.integers(-250, 250).map(lambda x: 10 * x),
                        st.integers(-5000, 5000),
                    )
                )
                rows.append(
                    {
                        "section": section,
                        "round": 1,
                        "deal": deal,
                        "seat": "NS",
                        "player": f"n{pair}",
                        "score": score,
                    }
                )
                rows.append(
                    {
                        "section": section,
                        "round": 1,
                        "deal": deal,
                        "seat": "EW",
                        "player": f"e{pair}",
                        "score": -score,
                    }
                )
    return pd.DataFrame(rows)


common = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


Keyed = dict[tuple[object, object, object], object]


def _by_player(frame: pd.DataFrame, values: list[object]) -> Keyed:
    return {
        (r["section"], r["deal"], r["player"]): v
        for r, v in zip(frame.to_dict("records"), values, strict=True)
    }


def _scored(frame: pd.DataFrame, column: str) -> Keyed:
    return {(str(r.section), r.deal, r.player): getattr(r, column) for r in frame.itertuples()}


def _standings(event: pd.DataFrame, rules: duplicate.Rules) -> set[tuple[str, object, int, object]]:
    """The standings as (section, player, place, IMPs), checked to be in order."""
    table = duplicate.standings(event, rules).frame
    for _, field in table.groupby("section", observed=True, sort=False):
        assert list(field["imps"]) == sorted(field["imps"], reverse=True)
    return {(str(r.section), r.player, r.place, r.imps) for r in table.itertuples()}


@pytest.mark.slow
@common
@given(imp_events(), st.booleans())
def test_cross_imps_agree_with_the_reference(event: pd.DataFrame, average: bool) -> None:
    rules = duplicate.Rules(method="cross-imps", cross_imps="average" if average else "sum")
    rows = event.to_dict("records")
    want = imp_reference.cross_imps(rows, average)
    shown = [imp_reference.shown(v) if average else int(v) for v in want]
    assert _scored(duplicate.score(event, rules).frame, "imps") == _by_player(event, shown)
    assert _standings(event, rules) == {
        (s, p, place, imp_reference.shown(t) if average else int(t))
        for s, p, place, t in imp_reference.standings(rows, want)
    }


@pytest.mark.slow
@common
@given(
    imp_events(),
    st.integers(0, 3),
    st.sampled_from([0, 10, 50]),
    st.sampled_from(["away", "even"]),
    st.sampled_from(["0", "0.05", "0.1", "0.25", "0.49"]),
)
def test_butler_agrees_with_the_reference(
    event: pd.DataFrame, drop: int, step: int, half: str, trim: str
) -> None:
    rules = duplicate.Rules(
        method="butler",
        butler_drop=drop,
        butler_round=step,
        butler_half=half,  # type: ignore[arg-type]
        butler_trim=Decimal(trim),
    )
    rows = event.to_dict("records")
    datums, want = imp_reference.butler(rows, drop, step, half, Fraction(trim))
    scored = duplicate.score(event, rules).frame
    assert _scored(scored, "imps") == _by_player(event, want)
    assert _scored(scored, "datum") == _by_player(event, [imp_reference.shown(d) for d in datums])
    assert _standings(event, rules) == {
        (s, p, place, int(t))
        for s, p, place, t in imp_reference.standings(rows, [Fraction(v) for v in want])
    }


@pytest.mark.slow
@common
@given(imp_events(), st.data(), st.booleans())
def test_adjusted_events_agree_with_the_reference(
    event: pd.DataFrame, data: st.DataObject, butler: bool
) -> None:
    """Some results assigned average plus or minus, some void: compared with nothing."""
    # Adjustments name a player, not a section: ids unique across sections.
    event = event.assign(player=event["section"] + event["player"])
    kinds = data.draw(
        st.lists(
            st.sampled_from(["", "", "", "avg_plus", "avg_minus", "void"]),
            min_size=len(event),
            max_size=len(event),
        )
    )
    rows = event.to_dict("records")
    for row, kind in zip(rows, kinds, strict=True):
        row["kind"] = kind
    adjusted = [r for r in rows if r["kind"]]
    frame = pd.DataFrame(
        [
            {"round": r["round"], "deal": r["deal"], "player": r["player"], "kind": r["kind"]}
            | {"value": "", "reason": "test", "section": r["section"]}
            for r in adjusted
        ],
        columns=["section", "round", "deal", "player", "kind", "value", "reason"],
    )
    adjustments = parse_adjustments(frame) if len(frame) else None
    if butler:
        rules = duplicate.Rules(method="butler")
        want = imp_reference.with_assigned(
            rows, [Fraction(v) for v in imp_reference.butler(rows, 1, 10, "away")[1]]
        )
        shown: list[object] = [int(v) for v in want]
    else:
        rules = CROSS
        want = imp_reference.with_assigned(rows, imp_reference.cross_imps(rows, True))
        shown = [imp_reference.shown(v) for v in want]
    scored = duplicate.score(event, rules, adjustments).frame
    expected = {
        k: v
        for k, v, r in zip(_by_player(event, shown), shown, rows, strict=True)
        if r["kind"] != "void"
    }
    have = {k: v for k, v in _scored(scored, "imps").items() if not pd.isna(v)}
    assert have == expected
    table = duplicate.standings(event, rules, adjustments).frame
    got = {(str(r.section), r.player, r.place, r.imps) for r in table.itertuples()}
    assert got == {
        (s, p, place, imp_reference.shown(t) if not butler else int(t))
        for s, p, place, t in imp_reference.standings(rows, want)
    }


@pytest.mark.slow
@common
@given(imp_events())
def test_ew_mirrors_ns_and_cross_imps_add_to_nothing(event: pd.DataFrame) -> None:
    for rules in (CROSS_SUM, BUTLER):
        scored = duplicate.score(event, rules).frame
        by = {(str(r.section), r.deal, r.player): r.imps for r in scored.itertuples()}
        for (section, deal, player), value in by.items():
            if player.startswith("n"):
                assert by[(section, deal, "e" + player[1:])] == -value
    summed = duplicate.score(event, CROSS_SUM).frame
    assert (summed.groupby(["section", "deal", "seat"], observed=True)["imps"].sum() == 0).all()


def test_imp_events_refuse_what_they_do_not_do() -> None:
    with pytest.raises(UsageError) as caught:
        duplicate.Rules(method="butler", factoring="neuberg")
    assert problem_codes(caught.value) == ["rules.conflict"]
    with pytest.raises(UsageError) as caught:
        duplicate.Rules(method="butler", butler_drop=-1)
    assert problem_codes(caught.value) == ["rules.bad-value"]


def test_cli_scores_and_ranks_by_imps(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    rows = board([420, 450, -50, 100]) + board([-100, -100, 200, 200], deal=2)
    pd.DataFrame(rows).assign(round=1).to_csv(path, index=False)
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "standings",
            str(path),
            "--method",
            "cross-imps",
            "--cross-imps",
            "sum",
            "--format",
            "csv",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "section,place,player,deals,imps,average_imps"
    assert result.stdout.splitlines()[1].startswith(",1,e2,2,")
    butler = runner.invoke(
        app, ["score", str(path), "--method", "butler", "--butler-drop", "0", "--format", "csv"]
    )
    assert butler.exit_code == 0, butler.output
    assert "datum" in butler.stdout.splitlines()[0]
    bad = runner.invoke(app, ["standings", str(path), "--method", "butler", "--butler-half", "up"])
    assert bad.exit_code == 2
    assert codes(bad.stderr) == ["option.bad-choice"]


def _csv(folder: Path) -> Path:
    path = folder / "results.csv"
    rows = board([420, 450, -50, 100]) + board([-100, -100, 200, 200], deal=2)
    pd.DataFrame(rows).assign(round=1).to_csv(path, index=False)
    return path


def test_explain_shows_how_each_deal_s_imps_were_found(tmp_path: Path) -> None:
    path = _csv(tmp_path)
    runner = CliRunner()
    cross = runner.invoke(app, ["explain", "n0", str(path), "--method", "cross-imps"])
    assert cross.exit_code == 0, cross.output
    assert "n1 450: -30 = -1; n2 -50: 470 = +10; n3 100: 320 = +8" in cross.stdout
    assert "IMPs 1 over 2 boards (average 0.5 a board)" in cross.stdout
    assert "Below: n3, place 4, 0.67 IMPs. n0 is ahead" in cross.stdout
    butler = runner.invoke(app, ["explain", "n0", str(path), "--method", "butler", "-f", "json"])
    assert butler.exit_code == 0, butler.output
    found = json.loads(butler.stdout)
    # Deal 1: 100 and 420 kept, datum 260; deal 2: -100 and 200 kept, datum 50.
    assert [(d["datum"], d["difference"], d["imps"]) for d in found["items"]] == [
        (260, 160, 4),
        (50, -150, -4),
    ]
    assert found["imps"] == 0
    assert found["below"]["criterion"] == "shared"


def test_explain_agrees_with_the_score_table() -> None:
    event = pd.DataFrame(
        board([420, 450, -50, 100, 620]) + board([-100, 1430, 200, 200, -50], deal=2)
    )
    for rules in (CROSS, CROSS_SUM, BUTLER):
        scored = duplicate.score(event, rules).frame
        for player in ("n0", "e3", "n4"):
            why = duplicate.explain(event, player, rules)
            assert why.imps is not None
            mine = scored[scored["player"] == player]["imps"]
            shown = [imp_reference.shown(d.imps) for d in why.imps.deals]
            assert shown == [Decimal(str(v)) for v in mine]


def test_the_report_labels_imps(tmp_path: Path) -> None:
    path = _csv(tmp_path)
    site = tmp_path / "site"
    result = CliRunner().invoke(app, ["report", str(path), "--method", "butler", "-o", str(site)])
    assert result.exit_code == 0, result.output
    index = (site / "index.html").read_text()
    assert ">IMPs</th>" in index
    assert ">Total</th>" not in index
    deal = (site / "deals" / "1.html").read_text()
    assert ">Datum</th>" in deal
    assert ">MP</th>" not in deal


def test_verify_compares_published_imps(tmp_path: Path) -> None:
    path = _csv(tmp_path)
    published = tmp_path / "published.csv"
    # As a club publishes it: place, pair, IMPs (its own header), one total mistyped.
    published.write_text(
        "Place,Player,IMPs\n1,e2,12\n2,n1,6\n3,n0,3\n4,n3,2\n5,e3,-2\n6,e0,-3\n7,e1,-6\n8,n2,-11\n"
    )
    runner = CliRunner()
    args = ["verify", str(path), str(published), "--method", "cross-imps", "--cross-imps", "sum"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    # e2: 25 on deal 1; -200 on deal 2 against 100, 100 and -200: -7, -7, 0. 25 - 14 = 11.
    assert result.stdout.splitlines() == [
        "section,player,field,published,recomputed",
        ",e2,imps,12,11",
    ]
    published.write_text(published.read_text().replace("e2,12", "e2,11"))
    assert runner.invoke(app, args).exit_code == 0


def test_assigned_results_score_their_imps(tmp_path: Path) -> None:
    """n0's +420 on deal 1 is replaced by average plus: 3 IMPs, and it leaves the
    group. Butler on the other three NS results (450, -50, 100; one dropped at each
    end): datum 100, so n1 +350 is 8 IMPs, n2 -150 is -4, n3 0."""
    path = _csv(tmp_path)
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text(
        "round,deal,player,kind,value,reason\n1,1,n0,avg_plus,,fouled\n1,2,n1,void,,not played\n"
    )
    runner = CliRunner()
    more = ["--method", "butler", "--adjustments", str(adjustments), "-o", "-"]
    result = runner.invoke(app, ["score", str(path), *more])
    assert result.exit_code == 0, result.output
    scored = pd.read_csv(io.StringIO(result.stdout), dtype=str, keep_default_na=False)
    deal_1 = scored[(scored["deal"] == "1") & (scored["seat"] == "NS")].set_index("player")
    assert dict(deal_1["imps"]) == {"n0": "3", "n1": "8", "n2": "-4", "n3": "0"}
    assert dict(deal_1["datum"]) == {"n0": "", "n1": "100.00", "n2": "100.00", "n3": "100.00"}
    assert deal_1.loc["n0", "adjustment"].startswith("avg_plus")
    result = runner.invoke(app, ["standings", str(path), *more])
    table = pd.read_csv(io.StringIO(result.stdout), dtype=str).set_index("player")
    # n1 has one deal that counts: 8 IMPs. n0: 3, and on deal 2, where n1's result is
    # void, -100 against the datum of -100, 200, 200 (the middle one, 200): -7.
    assert (table.loc["n1", "deals"], table.loc["n1", "imps"]) == ("1", "8")
    assert table.loc["n0", "imps"] == "-4"
    why = runner.invoke(app, ["explain", "n0", str(path), *more[:-2], "-f", "json"])
    assert why.exit_code == 0, why.output
    deals = json.loads(why.stdout)["items"]
    assert (deals[0]["n"], deals[0]["imps"]) == (None, 3)
    assert deals[0]["adjustment"].startswith("avg_plus")


def test_corrections_without_imp_meaning_and_factoring_are_refused(tmp_path: Path) -> None:
    path = _csv(tmp_path)
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text("round,deal,player,kind,value,reason\n1,1,n0,mp_pct,55,fouled\n")
    runner = CliRunner()
    args = ["standings", str(path), "--method", "butler", "--adjustments", str(adjustments)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert codes(result.stderr) == ["scoring.method-unsupported"]
    args = ["standings", str(path), "--method", "cross-imps", "--factoring", "neuberg"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert codes(result.stderr) == ["rules.conflict"]


def test_a_club_s_published_butler_example() -> None:
    """Hemel Hempstead Bridge Club's description of its Butler pairs (scored by
    ScoreBridge), http://freespace.virgin.net/herts.bridge/hemel/Butler.htm: East-West,
    4 pairs +620 and 3 pairs +170; one highest and one lowest out, the datum is 440;
    the four score +5 IMPs (+180), the three -7 (-270)."""
    ew = [620] * 4 + [170] * 3
    frame = pd.DataFrame(board([-s for s in ew]))
    scored = duplicate.score(frame, BUTLER).frame
    east_west = scored[scored["seat"] == "EW"]
    assert set(east_west["datum"]) == {Decimal("440.00")}
    assert sorted(east_west["imps"]) == [-7, -7, -7, 5, 5, 5, 5]


def test_explain_of_a_bridge_session_in_imps_says_board(tmp_path: Path) -> None:
    session = tmp_path / "club.pbn"
    session.write_text(
        '[Scoring "IMP;Cross"]\n\n'
        '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 420\n3 4 450\n\n'
        '[Board "2"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 110\n3 4 140\n',
        encoding="utf-8",
    )
    runner = CliRunner()
    for method in ("cross-imps", "butler"):
        shown = runner.invoke(app, ["explain", "1", str(session), "--method", method])
        assert shown.exit_code == 0, shown.output
        header = shown.stdout.splitlines()[2].split()
        assert header[:2] == ["round", "board"], header
        assert "over 2 boards (average" in shown.stdout
        assert " deal" not in shown.stdout


def test_averages_whose_denominators_outgrow_exact_sums_are_refused() -> None:
    """Averaged cross-IMPs are summed exactly over the product of the boards' group
    sizes: boards played 2, 3, ..., 41 times make it too large, and the standings say
    so and how to score the event instead (never a wrapped sum)."""
    frame = pd.DataFrame(
        [row for n in range(2, 42) for row in board([10 * i for i in range(n)], deal=n)]
    )
    rules = duplicate.Rules(method="cross-imps", cross_imps="average")
    with pytest.raises(duplicate.OutOfRange, match="score it with cross_imps='sum'") as refused:
        duplicate.standings(frame, rules)
    assert refused.value.code == "number.out-of-range"
    # Summed, not averaged, the same event is scored.
    assert len(duplicate.standings(frame, CROSS_SUM).frame) == 2 * 41
