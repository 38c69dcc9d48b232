"""Who sat where (docs/scoring.md section 1): an event is refused exactly when a plain
reading of the rules finds one broken, with the problems named, however its rows are
ordered and its ids spelled; a sound event scores as the reference."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import duplicate
from tests import reference
from tests.test_properties import as_reference_rows

FAULTS = (
    "none",
    "repeat_row",
    "move_seat",
    "move_table",
    "share_seat",
    "swap_seats",
    "drop_row",
    "add_row",
)


def event(rng: np.random.Generator, rounds: int, deals: int, tables: int, k: int) -> pd.DataFrame:
    """A sound event: the same players at each table for every deal of a round."""
    frames = []
    for round_no in range(1, rounds + 1):
        order = rng.permutation(tables * k)
        for deal in range(1, deals + 1):
            frames.append(
                pd.DataFrame(
                    {
                        "round": round_no,
                        "deal": deal,
                        "table": order // k * 7 + 3,  # sparse table numbers
                        "seat": order % k,
                        "player": np.arange(tables * k) * 11 + 5,  # sparse player ids
                        "score": rng.integers(-3, 4, tables * k),
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)


def broken(frame: pd.DataFrame, fault: str, row: int) -> pd.DataFrame:
    frame = frame.copy()
    if fault == "repeat_row":
        return pd.concat([frame, frame.iloc[[row]]], ignore_index=True)
    if fault == "move_seat":
        frame.loc[row, "seat"] = frame["seat"].max() + 1
    elif fault == "move_table":
        frame.loc[row, "table"] = frame["table"].max() + 7
    elif fault in ("share_seat", "swap_seats"):
        table = frame[
            (frame["round"] == frame.loc[row, "round"])
            & (frame["deal"] == frame.loc[row, "deal"])
            & (frame["table"] == frame.loc[row, "table"])
        ].index
        other = table[table != row][0]
        mine, theirs = frame.loc[row, "player"], frame.loc[other, "player"]
        frame.loc[row, "player"] = theirs
        if fault == "swap_seats":
            frame.loc[other, "player"] = mine
    elif fault == "drop_row":
        return frame.drop(index=row).reset_index(drop=True)
    elif fault == "add_row":
        extra = frame.iloc[[row]].assign(seat=frame["seat"].max() + 1, player=-1)
        return pd.concat([frame, extra], ignore_index=True)
    return frame


def every_deal(deals: range | tuple[int, ...], **columns: object) -> pd.DataFrame:
    """One round whose deals each have the same rows (`columns`), all scored 0."""
    return pd.concat(
        [pd.DataFrame({"round": 1, "deal": deal, **columns, "score": 0}) for deal in deals],
        ignore_index=True,
    )


def broken_rules(frame: pd.DataFrame, deal_scope: str) -> set[str]:
    """The columns whose rules a plain reading of section 1 finds broken: a player twice
    on a deal (player); a player changing seat in a round, or two players in one seat
    of a deal (seat); a player changing table in a round, or a table whose deals of a
    round have different numbers of players (table)."""
    rows = frame.assign(section=frame.get("section", "")).to_dict("records")
    deal_key = ("section", "round", "deal") if deal_scope == "round" else ("section", "deal")
    by: dict[tuple[object, ...], list[object]] = defaultdict(list)
    for r in rows:
        deal = tuple(r[k] for k in deal_key)
        by[("twice", *deal, r["player"])].append(r)
        by[("seat", r["section"], r["round"], r["player"])].append(r["seat"])
        if "table" in r:
            by[("table", r["section"], r["round"], r["player"])].append(r["table"])
            by[("shared", *deal, r["table"], r["seat"])].append(r["player"])
            by[("size", r["section"], r["round"], r["table"], r["deal"])].append(r)
    broken = set()
    sizes: dict[tuple[object, ...], set[int]] = defaultdict(set)
    for (rule, *key), held in by.items():
        if rule == "twice" and len(held) > 1:
            broken.add("player")
        elif rule in ("seat", "table") and len(set(held)) > 1:
            broken.add(rule)
        elif rule == "shared" and len(set(held)) > 1:
            broken.add("seat")
        elif rule == "size":
            sizes[tuple(key[:3])].add(len(held))
    if any(len(counts) > 1 for counts in sizes.values()):
        broken.add("table")
    return broken


def problem_columns(frame: pd.DataFrame, deal_scope: str) -> set[str]:
    """The columns named by the problems the event is refused with (none: accepted)."""
    try:
        duplicate.load_event(frame, deal_scope=deal_scope)
    except duplicate.InvalidData as refused:
        return {p.column for p in refused.problems if p.column is not None}
    return set()


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rounds=st.integers(1, 3),
    deals=st.integers(1, 3),
    # 40 tables: more places than a byte counts, times the deals.
    tables=st.one_of(st.integers(1, 4), st.just(40)),
    k=st.integers(2, 4),
    fault=st.sampled_from(FAULTS),
    with_table=st.booleans(),
    deal_scope=st.sampled_from(["round", "event"]),
    in_file_order=st.booleans(),
    # Ids as text: names of any length, and ids of one length.
    text_ids=st.sampled_from(["", "P{}", "P{:07d}", "{:04d}"]),
)
def test_an_event_is_refused_exactly_when_a_rule_is_broken(
    seed: int,
    rounds: int,
    deals: int,
    tables: int,
    k: int,
    fault: str,
    with_table: bool,
    deal_scope: str,
    in_file_order: bool,
    text_ids: str,
) -> None:
    rng = np.random.default_rng(seed)
    frame = event(rng, rounds, deals, tables, k)
    if deal_scope == "event":
        frame["deal"] += (frame["round"] - 1) * deals
    if in_file_order:
        # Deal by deal, (table, seat) rising: the layout most files have.
        frame = frame.sort_values(["round", "deal", "table", "seat"], ignore_index=True)
    frame = broken(frame, fault, int(rng.integers(len(frame))))
    if not with_table:
        frame = frame.drop(columns="table")
    if not in_file_order:
        frame = frame.sample(frac=1, random_state=seed % 1000)
    if text_ids:
        frame["player"] = frame["player"].map(text_ids.format).astype("str")
    expected = broken_rules(frame, deal_scope)
    assert problem_columns(frame, deal_scope) == expected
    if not expected and deal_scope == "round" and len(frame) <= 200:
        # Accepted: scored and ranked as the reference scores and ranks it.
        rows = as_reference_rows(frame.assign(section=""))
        reference.score_rows(rows)
        want = reference.standings(rows, with_table, False)
        got = duplicate.standings(frame).frame
        assert [((r.section, r.player), r.decided_by, r.playoff) for r in got.itertuples()] == want


def test_a_deal_played_in_two_rounds_does_not_hide_an_uneven_table() -> None:
    # Deal scope "event": deals 1 and 2 are played in round 1 at table 1 and in round 2
    # at table 2, where deal 2 lacks a player. Rows come so that deal 1 is last seen in
    # round 1 and deal 2 in round 2: counted by the round each deal was last seen in,
    # table 2 would look even.
    def rows(round_no: int, deal: int, table: int, players: list[int]) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "round": round_no,
                "deal": deal,
                "table": table,
                "seat": range(len(players)),
                "player": players,
                "score": 0,
            }
        )

    frame = pd.concat(
        [
            rows(2, 1, 2, [5, 6, 7, 8]),
            rows(1, 1, 1, [1, 2, 3, 4]),
            rows(1, 2, 1, [1, 2, 3, 4]),
            rows(2, 2, 2, [5, 6, 7]),
        ],
        ignore_index=True,
    )
    with pytest.raises(duplicate.InvalidData) as refused:
        duplicate.load_event(frame, deal_scope="event")
    assert [(p.code, p.column) for p in refused.value.problems] == [
        ("seating.table-uneven", "table")
    ]


@pytest.mark.parametrize("moved", [False, True])
def test_table_numbers_far_apart_on_hundreds_of_deals(moved: bool) -> None:
    """Tables 1 and 65,000 on 300 deals, rows last first: as many (deal, table, seat)
    places as their numbers span are more than a table of counts holds; their two
    tables are few. A player moved onto the seat beside them on the last deal shares it."""
    deals = range(1, 301)
    frame = every_deal(
        deals, table=[1] * 4 + [65_000] * 4, seat=[0, 1, 2, 3] * 2, player=list(range(8))
    )
    if moved:
        frame.loc[len(frame) - 1, "seat"] = 2
    frame = frame.iloc[::-1]
    assert broken_rules(frame, "round") == ({"seat"} if moved else set())
    if not moved:
        duplicate.load_event(frame)  # accepted
        return
    with pytest.raises(duplicate.InvalidData) as refused:
        duplicate.load_event(frame)
    moved_seat, shared = refused.value.problems
    assert (moved_seat.code, moved_seat.column) == ("seating.moved-seat", "seat")
    assert moved_seat.rows == tuple(range(1, 2400, 8))
    assert all(value in moved_seat.message for value in ("7", "2, 3"))
    assert (shared.code, shared.column, shared.rows) == ("seating.seat-shared", "seat", (1, 2))
    assert all(value in shared.message for value in ("65000", "300", "7, 6"))


@pytest.mark.parametrize("deals", [1, 3])
def test_a_player_twice_in_every_deal_is_found_in_file_order(deals: int) -> None:
    # Every deal has the same rows (table, seat rising) and the same player at each:
    # but P1 sits twice, so no deal is sound.
    frame = every_deal(
        range(1, deals + 1), table=[1] * 4, seat=[0, 1, 2, 3], player=["P1", "P2", "P1", "P4"]
    )
    assert problem_columns(frame, "round") == broken_rules(frame, "round") == {"player", "seat"}


# (deal, table, seat, player) rows of one round that look alike deal by deal, and
# each break a rule.
LOOKALIKES = {
    "players swap seats": [(1, 1, 0, 1), (1, 1, 1, 2), (2, 1, 0, 2), (2, 1, 1, 1)],
    "two players share a seat": [(1, 1, 0, 1), (1, 1, 0, 2), (2, 1, 0, 1), (2, 1, 0, 2)],
    "a seat written out of order": [(1, 1, 0, 1), (1, 1, 1, 2), (2, 1, 1, 1), (2, 1, 0, 2)],
    "deals interleaved": [(1, 1, 0, 1), (2, 1, 1, 2), (1, 1, 0, 1), (2, 1, 1, 2)],
}


@pytest.mark.parametrize("name", sorted(LOOKALIKES))
@pytest.mark.parametrize("ids", ["numbers", "text"])
def test_rows_that_look_alike_but_break_a_rule(name: str, ids: str) -> None:
    frame = pd.DataFrame(LOOKALIKES[name], columns=["deal", "table", "seat", "player"])
    frame = frame.assign(round=1, score=0)
    if ids == "text":
        frame["player"] = "P" + frame["player"].astype(str)
    expected = broken_rules(frame, "round")
    assert expected
    assert problem_columns(frame, "round") == expected
