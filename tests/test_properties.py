"""Properties of scoring and standings on random events, and agreement with tests/reference.py."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import duplicate
from tests import reference


@st.composite
def events(draw: st.DrawFn, with_table: bool | None = None) -> pd.DataFrame:
    """Small events with heavy ties: every table full, players keep a seat for a round."""
    table = draw(st.booleans()) if with_table is None else with_table
    timed = draw(st.booleans())
    rows = []
    for section in draw(st.sampled_from([[""], ["A", "B"]])):
        seats = draw(st.integers(1, 3))
        tables = draw(st.integers(1, 4))
        players = [f"{section}p{i}" for i in range(seats * tables)]
        for rnd in range(1, draw(st.integers(1, 2)) + 1):
            order = draw(st.permutations(players))
            for deal in range(1, draw(st.integers(1, 3)) + 1):
                for i, player in enumerate(order):
                    row = {
                        "section": section,
                        "round": rnd,
                        "deal": deal,
                        "seat": i % seats,
                        "player": player,
                        "score": draw(st.integers(-2, 2)),
                    }
                    if table:
                        row["table"] = i // seats
                    if timed:
                        row["seconds"] = draw(st.integers(0, 4))
                    rows.append(row)
    return pd.DataFrame(rows)


def as_reference_rows(frame: pd.DataFrame) -> list[reference.Row]:
    return [
        reference.Row(
            section=r["section"],
            round=int(r["round"]),
            deal=r["deal"],
            table=r.get("table"),
            seat=r["seat"],
            player=r["player"],
            score=Fraction(int(r["score"])),
            seconds=Fraction(int(r["seconds"])) if "seconds" in r else None,
        )
        for r in frame.to_dict("records")
    ]


common = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(events(), st.sampled_from(["competition", "dense"]))
def test_score_agrees_with_the_reference(event: pd.DataFrame, tie_ranking: str) -> None:
    rules = duplicate.Rules(tie_ranking=tie_ranking)  # type: ignore[arg-type]
    got = duplicate.score(event, rules).frame
    rows = as_reference_rows(event)
    reference.score_rows(rows, dense=tie_ranking == "dense")
    want = {
        (r.section, r.round, r.deal, r.player): (r.mp, r.top, r.rank, Decimal(r.points_cents) / 100)
        for r in rows
    }
    have = {
        (r.section, r.round, r.deal, r.player): (r.mp, r.top, r.deal_rank, r.rank_points)
        for r in got.itertuples()
    }
    assert have == want


@common
@given(events())
def test_standings_agree_with_the_reference(event: pd.DataFrame) -> None:
    got = duplicate.standings(event).frame
    rows = as_reference_rows(event)
    reference.score_rows(rows)
    want = reference.standings(rows, "table" in event, "seconds" in event)
    have = [((r.section, r.player), r.decided_by, r.playoff) for r in got.itertuples()]
    assert have == want


@common
@given(events())
def test_matchpoints_in_a_group_sum_to_n_times_n_minus_1(event: pd.DataFrame) -> None:
    scored = duplicate.score(event).frame
    for _, group in scored.groupby(["section", "round", "deal", "seat"]):
        n = len(group)
        assert group["mp"].sum() == n * (n - 1)
        assert (group["n"] == n).all()


@common
@given(events())
def test_mp_percentages_average_exactly_50(event: pd.DataFrame) -> None:
    scored = duplicate.score(event).frame
    for _, group in scored.groupby(["section", "round", "deal", "seat"]):
        exact = [
            Fraction(int(m), int(t)) if t else Fraction(1, 2)
            for m, t in zip(group["mp"], group["top"], strict=True)
        ]
        assert sum(exact) / len(exact) == Fraction(1, 2)


@common
@given(events(), st.randoms(use_true_random=False))
def test_row_order_changes_nothing(event: pd.DataFrame, rnd: object) -> None:
    shuffled = event.sample(frac=1, random_state=rnd.randint(0, 2**31))  # type: ignore[attr-defined]
    for run in (duplicate.score, duplicate.standings):
        pd.testing.assert_frame_equal(run(shuffled).frame, run(event).frame)


@common
@given(events(), st.randoms(use_true_random=False))
def test_relabelling_players_changes_only_labels(event: pd.DataFrame, rnd: object) -> None:
    names = sorted(event["player"].unique())
    new = list(names)
    rnd.shuffle(new)  # type: ignore[attr-defined]
    rename = dict(zip(names, [f"x{n}" for n in new], strict=True))
    back = {v: k for k, v in rename.items()}
    before = duplicate.standings(event).frame
    after = duplicate.standings(event.assign(player=event["player"].map(rename))).frame
    after["player"] = after["player"].map(back)

    def records(frame: pd.DataFrame) -> dict[object, tuple[object, ...]]:
        return {
            r.player: (r.section, r.place, r.total, r.deals, r.beaten_avg, r.rank_counts, r.playoff)
            for r in frame.astype(object).itertuples()
        }

    assert records(after) == records(before)
    by_place: dict[tuple[object, object], list[str]] = defaultdict(list)
    for frame, tag in ((before, "b"), (after, "a")):
        for r in frame.itertuples():
            by_place[(tag, r.place)].append(r.decided_by)
    for (tag, place), decided in by_place.items():
        if tag == "b":
            assert sorted(decided) == sorted(by_place[("a", place)])
