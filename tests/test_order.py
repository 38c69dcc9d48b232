"""The standings' order when many players tie on their totals and are told apart late
(a rank count far down, a play time), and when players have played different numbers
of deals (a late entry, a round sat out): against the reference, with each player's
rank counts."""

from __future__ import annotations

from collections import Counter

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import duplicate
from tests import reference
from tests.test_properties import as_reference_rows


@st.composite
def uneven_events(draw: st.DrawFn) -> pd.DataFrame:
    """Rounds of a few tables drawn from a field larger than the tables seat: some
    players sit rounds out. Scores of few values, so that totals tie often."""
    seats = draw(st.integers(2, 4))
    tables = draw(st.integers(1, 3))
    field = [f"p{i}" for i in range(seats * tables + draw(st.integers(0, 3)))]
    with_table, timed = draw(st.booleans()), draw(st.booleans())
    rows = []
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        playing = draw(st.permutations(field))[: seats * tables]
        for deal in range(1, draw(st.integers(1, 4)) + 1):
            for i, player in enumerate(playing):
                row = {
                    "section": "",
                    "round": rnd,
                    "deal": deal,
                    "seat": i % seats,
                    "player": player,
                    "score": draw(st.integers(0, 2)),
                }
                if with_table:
                    row["table"] = i // seats
                if timed:
                    row["seconds"] = draw(st.sampled_from([1, 2, 30]))
                rows.append(row)
    return pd.DataFrame(rows)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event=uneven_events(), shuffled=st.booleans())
def test_ties_broken_late_and_uneven_fields_rank_as_the_reference(
    event: pd.DataFrame, shuffled: bool
) -> None:
    rows = as_reference_rows(event)
    reference.score_rows(rows)
    want = reference.standings(rows, "table" in event, "seconds" in event)
    given = event.sample(frac=1, random_state=len(event)) if shuffled else event
    got = duplicate.standings(given).frame
    assert [((r.section, r.player), r.decided_by, r.playoff) for r in got.itertuples()] == want
    ranks: dict[object, Counter[int]] = {}
    for row in rows:
        ranks.setdefault(row.player, Counter())[row.rank] += 1
    for r in got.itertuples():
        counted = " ".join(f"{rank}:{n}" for rank, n in sorted(ranks[r.player].items()))
        assert (r.rank_counts, r.deals) == (counted, sum(ranks[r.player].values()))
