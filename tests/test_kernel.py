"""Matchpoints, tops and deal ranks against a plain per-row computation, on events with
heavy ties, no ties, groups of one and ids far apart. (Events too wide for tables of
counts: tests/test_ids_and_order.py, the sprawling event.)"""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

import duplicate


def per_row(frame: pd.DataFrame) -> pd.DataFrame:
    """Matchpoints and competition deal ranks the slow way: every pair of rows."""
    mp, top = [], []
    for _, row in frame.iterrows():
        group = frame[(frame["deal"] == row["deal"]) & (frame["seat"] == row["seat"])]
        others = group["score"].drop(row.name)
        mp.append(int(2 * (others < row["score"]).sum() + (others == row["score"]).sum()))
        top.append(2 * (len(group) - 1))
    out = frame.assign(mp=mp, top=top)
    key = [m / t if t else 0.5 for m, t in zip(mp, top, strict=True)]
    out["key"] = key
    out["rank"] = [
        1 + int((out[(out["deal"] == r.deal)]["key"] > r.key).sum()) for r in out.itertuples()
    ]
    return out


@st.composite
def events(draw: st.DrawFn) -> pd.DataFrame:
    kind = draw(st.sampled_from(["heavy ties", "no ties", "groups of one", "sparse ids"]))
    rows = []
    for deal in range(draw(st.integers(1, 3))):
        for seat in range(draw(st.integers(1, 3))):
            size = 1 if kind == "groups of one" else draw(st.integers(1, 6))
            for i in range(size):
                score = {"heavy ties": draw(st.integers(0, 1)), "no ties": i * 7 - deal}.get(
                    kind, draw(st.integers(-50, 50))
                )
                ids = (
                    (deal * 10**9, seat * 7919, f"p{deal}-{seat}-{i}")
                    if kind == "sparse ids"
                    else (deal, seat, f"p{seat}-{i}")
                )
                rows.append(
                    {"deal": ids[0], "seat": ids[1], "player": f"{ids[2]}-d{deal}", "score": score}
                )
    return pd.DataFrame(rows)


@settings(max_examples=80, deadline=None)
@given(event=events())
def test_kernel_agrees_with_a_plain_computation(event: pd.DataFrame) -> None:
    got = duplicate.score(event).frame.set_index("player")
    want = per_row(event).set_index("player")
    for player in want.index:
        assert got.loc[player, "mp"] == want.loc[player, "mp"]
        assert got.loc[player, "top"] == want.loc[player, "top"]
        assert got.loc[player, "deal_rank"] == want.loc[player, "rank"]
