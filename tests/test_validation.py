"""The quick soundness check agrees with the rule-by-rule flags on sound and broken events."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.model import codes, validation
from duplicate.model.codes import compact_codes
from duplicate.model.results import Results, parse_results
from duplicate.model.validation import _certainly_sound, _flags, structural_problems

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


def unchecked(frame: pd.DataFrame, deal_scope: str) -> Results:
    """Typed results without the structural checks (so broken events can be built)."""
    return parse_results(frame, deal_scope=deal_scope, check_structure=False)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rounds=st.integers(1, 3),
    deals=st.integers(1, 3),
    # 40 tables: more places than the smallest codes count (int8), times the deals.
    tables=st.one_of(st.integers(1, 4), st.just(40)),
    k=st.integers(2, 4),
    fault=st.sampled_from(FAULTS),
    with_table=st.booleans(),
    deal_scope=st.sampled_from(["round", "event"]),
    in_file_order=st.booleans(),
    # Ids as text: names of any length, and ids of one length (compared by their bytes).
    text_ids=st.sampled_from(["", "P{}", "P{:07d}", "{:04d}"]),
)
def test_quick_check_agrees_with_the_flags(
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
        # Deal by deal, (table, seat) rising: the layout the quickest check knows.
        frame = frame.sort_values(["round", "deal", "table", "seat"], ignore_index=True)
    frame = broken(frame, fault, int(rng.integers(len(frame))))
    if not with_table:
        frame = frame.drop(columns="table")
    if not in_file_order:
        frame = frame.sample(frac=1, random_state=seed % 1000)
    if text_ids:
        # Names, as uploads have them: compared as text, not by their codes.
        frame["player"] = frame["player"].map(text_ids.format).astype("str")
    results = unchecked(frame, deal_scope)
    deal_key = ["section", "round", "deal"] if deal_scope == "round" else ["section", "deal"]
    flagged = any(bool(flag.any()) for flag in _flags(results, deal_key).values())
    sound = _certainly_sound(results, deal_key)
    # Sound must mean unflagged; and on events this small it is never merely cautious.
    assert sound == (not flagged)
    assert (structural_problems(results, deal_scope) == []) == sound
    # Codes the check found on its way (before any other step made them) are the
    # codes of every row's id.
    results = unchecked(frame, deal_scope)
    _certainly_sound(results, deal_key)
    codes, n = results.codes("player")
    fresh, n_fresh = compact_codes(results.frame["player"])
    assert n == n_fresh
    assert codes.dtype == fresh.dtype
    assert np.array_equal(codes, fresh)


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
    results = unchecked(frame, "event")
    assert not _certainly_sound(results, ["section", "deal"])
    problems = structural_problems(results, "event")
    assert [p.column for p in problems] == ["table"]


def test_sparse_table_numbers_are_checked_by_their_dense_codes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Tables 1000 and 2000: as their own codes, 2 deals x 2001 x 4 seats exceed the
    # histogram limit set here; their dense codes (2 tables) do not. The rows come last
    # first, past the check that compares deals in file order.
    frame = every_deal(
        (1, 2),
        table=[1000] * 4 + [2000] * 4,
        seat=[0, 1, 2, 3] * 2,
        player=[f"P{i}" for i in range(8)],
    )
    for module in (validation, codes):
        monkeypatch.setattr(module, "HISTOGRAM_LIMIT", 1000)
    assert _certainly_sound(unchecked(frame.iloc[::-1], "round"), ["section", "round", "deal"])
    # The last player moved onto the seat beside them on deal 2: that seat is shared.
    moved = frame.assign(seat=[0, 1, 2, 3] * 3 + [0, 1, 2, 2])
    results = unchecked(moved.iloc[::-1], "round")
    assert not _certainly_sound(results, ["section", "round", "deal"])
    assert [p.column for p in structural_problems(results, "round")] == ["seat", "seat"]


@pytest.mark.parametrize("deals", [1, 3])
def test_a_player_twice_in_every_deal_is_found_in_file_order(deals: int) -> None:
    # Every deal has the same rows (table, seat rising) and the same player at each:
    # but P1 sits twice, so no deal is sound.
    frame = every_deal(
        range(1, deals + 1), table=[1] * 4, seat=[0, 1, 2, 3], player=["P1", "P2", "P1", "P4"]
    )
    results = unchecked(frame, "round")
    assert not _certainly_sound(results, ["section", "round", "deal"])
    assert structural_problems(results, "round") != []


# (deal, table, seat, player) rows of one round that look alike deal by deal, and
# each break a rule: the quickest check must look closer.
LOOKALIKES = {
    "players swap seats": [(1, 1, 0, 1), (1, 1, 1, 2), (2, 1, 0, 2), (2, 1, 1, 1)],
    "two players share a seat": [(1, 1, 0, 1), (1, 1, 0, 2), (2, 1, 0, 1), (2, 1, 0, 2)],
    "a seat written out of order": [(1, 1, 0, 1), (1, 1, 1, 2), (2, 1, 1, 1), (2, 1, 0, 2)],
    "deals interleaved": [(1, 1, 0, 1), (2, 1, 1, 2), (1, 1, 0, 1), (2, 1, 1, 2)],
}


@pytest.mark.parametrize("name", sorted(LOOKALIKES))
def test_rows_that_look_alike_but_break_a_rule(name: str) -> None:
    frame = pd.DataFrame(LOOKALIKES[name], columns=["deal", "table", "seat", "player"])
    results = unchecked(frame.assign(round=1, score=0), "round")
    assert not _certainly_sound(results, ["section", "round", "deal"])
    assert structural_problems(results, "round") != []
