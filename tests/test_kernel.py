"""The cell kernel against a plain per-row computation, on both of its paths."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import duplicate
from duplicate.model import codes


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


@pytest.fixture(params=["histogram", "sort"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "sort":
        monkeypatch.setattr(codes, "HISTOGRAM_LIMIT", 0)
        monkeypatch.setattr("duplicate.scoring.kernel.HISTOGRAM_LIMIT", 0)
    return str(request.param)


# The fixture only switches the kernel's path: the same for every example.
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(event=events())
def test_kernel_agrees_with_a_plain_computation(path: str, event: pd.DataFrame) -> None:
    got = duplicate.score(event).set_index("player")
    want = per_row(event).set_index("player")
    for player in want.index:
        assert got.loc[player, "mp"] == want.loc[player, "mp"]
        assert got.loc[player, "top"] == want.loc[player, "top"]
        assert got.loc[player, "deal_rank"] == want.loc[player, "rank"]


def test_codes_keep_the_order_of_the_values() -> None:
    for values in (
        np.array([30, 10, 20, 10]),
        np.array([10**12, 5, 10**12]),
        pd.Series(["b", "a", "b"]),
    ):
        coded, size = codes.dense_codes(values)
        order = np.argsort(np.asarray(values), kind="stable")
        assert list(np.asarray(coded)[order]) == sorted(coded)
        assert size == len(set(np.asarray(values).tolist()))
