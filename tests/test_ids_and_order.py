"""Identifiers of every kind, in every container, and rows in any order: the scores
and standings are the reference's, and `score` writes its rows in (section, round, deal,
table, seat, player) order.

Uploads hold ids as small numbers, federation numbers far apart (and negative), names
of any length (Chinese ones too), membership numbers of one length, spreadsheet
categories; files come sorted, nearly sorted or in any order, and Arrow hands their
columns over in chunks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from decimal import Decimal

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import duplicate
from tests import reference
from tests.test_properties import as_reference_rows, events

PLACES = ["section", "round", "deal", "table", "seat", "player"]

# How an id column may be spelled: each keeps the ids distinct, and each is a column
# type an upload gives. Text ids are compared as Python compares strings.
NAMES = ["张伟", "A", "b", "李", "Zz", "0", "é", "a", "B", "伟张"]
SPELLINGS: dict[str, Callable[[int], object]] = {
    "small numbers": lambda i: i,
    "numbers far apart": lambda i: i * 10**12 - 3 * 10**12,
    "names": lambda i: f"{NAMES[i % len(NAMES)]}{i // len(NAMES) or ''}",
    "one length": lambda i: f"P{i:07d}",
    "one length, Chinese": lambda i: f"张{i:04d}",
    "three bytes": lambda i: f"{i:03d}",
}
ORDERS = ["as drawn", "sorted", "shuffled", "sorted but the last"]
CONTAINERS = ["pandas", "arrow string", "arrow large_string in chunks", "categories"]


def spelled(column: pd.Series, spelling: str) -> pd.Series:
    """The column's distinct values spelled another way, keeping their order apart
    from the spelling's own."""
    codes = {v: i for i, v in enumerate(sorted(column.unique(), key=str))}
    return column.map(lambda v: SPELLINGS[spelling](codes[v]))


def ordered(frame: pd.DataFrame, order: str, seed: int) -> pd.DataFrame:
    if order == "as drawn":
        return frame
    places = [c for c in PLACES if c in frame]
    if order == "shuffled":
        return frame.sample(frac=1, random_state=seed)
    frame = frame.sort_values(places, ignore_index=True)
    if order == "sorted but the last" and len(frame) > 1:
        frame = pd.concat([frame.iloc[[-1]], frame.iloc[:-1]], ignore_index=True)
    return frame


def contained(frame: pd.DataFrame, container: str) -> pd.DataFrame:
    """The frame as pandas holds it, as Arrow hands it over (in chunks, sliced), or with
    its text columns as categories listing unused values, in reverse order."""
    if container == "pandas":
        return frame
    if container == "categories":
        text = [
            c for c in frame if frame[c].dtype == object or pd.api.types.is_string_dtype(frame[c])
        ]
        return frame.astype(
            {
                c: pd.CategoricalDtype(sorted({*frame[c], "zz-unused", "-"}, reverse=True))
                for c in text
            }
        )
    table = pa.Table.from_pandas(frame, preserve_index=False)
    if container == "arrow large_string in chunks":
        table = table.cast(
            pa.schema(
                f.with_type(pa.large_string()) if pa.types.is_string(f.type) else f
                for f in table.schema
            )
        )
        cut = len(table) // 2
        # Sliced pieces of one table: chunks that start inside their buffers.
        table = pa.concat_tables([table.slice(0, cut), table.slice(cut)])
    return table.to_pandas(types_mapper=pd.ArrowDtype)


def python(value: object) -> object:
    """A cell of an output frame as the reference holds it."""
    return value.item() if hasattr(value, "item") else value


def assert_agrees_with_the_reference(event: pd.DataFrame, given: pd.DataFrame) -> None:
    """`given` (the event in some container and order) scores and ranks as the reference
    scores and ranks `event`; score's rows come in place order."""
    rows = as_reference_rows(event)
    reference.score_rows(rows)
    want = {
        (r.section, r.round, r.deal, r.player): (r.mp, r.top, r.rank, Decimal(r.points_cents) / 100)
        for r in rows
    }
    scored = duplicate.score(given).frame
    have = {
        tuple(python(getattr(r, c)) for c in ("section", "round", "deal", "player")): (
            r.mp,
            r.top,
            r.deal_rank,
            r.rank_points,
        )
        for r in scored.itertuples()
    }
    assert have == want
    places = [c for c in PLACES if c in event]
    written = [tuple(python(v) for v in row) for row in scored[places].itertuples(index=False)]
    assert written == sorted(written)
    standings = duplicate.standings(given).frame
    assert [
        ((python(r.section), python(r.player)), r.decided_by, r.playoff)
        for r in standings.itertuples()
    ] == reference.standings(rows, "table" in event, "seconds" in event)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    event=events(),
    players=st.sampled_from(sorted(SPELLINGS)),
    deals=st.sampled_from(["small numbers", "numbers far apart", "names", "one length"]),
    tables=st.sampled_from(["small numbers", "numbers far apart", "one length"]),
    order=st.sampled_from(ORDERS),
    container=st.sampled_from(CONTAINERS),
    seed=st.integers(0, 2**16),
)
def test_any_ids_in_any_order_score_as_the_reference(
    event: pd.DataFrame,
    players: str,
    deals: str,
    tables: str,
    order: str,
    container: str,
    seed: int,
) -> None:
    event = event.assign(
        player=spelled(event["player"], players), deal=spelled(event["deal"], deals)
    )
    if "table" in event:
        event["table"] = spelled(event["table"], tables)
    given = contained(ordered(event, order, seed), container)
    assert_agrees_with_the_reference(event, given)


def test_a_file_sorted_by_player_only_at_first() -> None:
    """Ids in sort order for thousands of rows, then not (a file sorted by name, with
    late entries added at its end)."""
    rows = []
    for round_no in range(1, 751):
        for place in range(4):
            rows.append((round_no, place // 2, place % 2, f"P{4 * round_no + place:05d}"))
    late = ["P00004x", "A", "张", "P99999"]
    rows += [(751, place // 2, place % 2, name) for place, name in enumerate(late)]
    rng = random.Random(3)
    event = pd.DataFrame(rows, columns=["round", "table", "seat", "player"]).assign(
        deal=1, section="", score=[rng.randint(-3, 3) for _ in rows]
    )
    assert_agrees_with_the_reference(event, event.astype({"player": "str"}))


@pytest.mark.parametrize(
    ("spelling", "with_table"), [("one length", True), ("small numbers", False)]
)
def test_a_sprawling_event_scores_as_the_reference(spelling: str, with_table: bool) -> None:
    """Thousands of sections of two tables, each its own round, deal and seat, scores
    spread wide, rows last first: more (deal, seat) groups times scores, players times
    deals, deals times players, and groups times rows than tables of counts hold,
    counted another way."""
    n = 6500
    rng = random.Random(5)
    rows = []
    for i in range(n):
        first = rng.randint(-(10**6), 10**6)
        second = first if i % 7 == 0 else rng.randint(-(10**6), 10**6)  # some ties
        for table, score in ((1, first), (2, second)):
            rows.append((f"S{i:05d}", i + 1, i + 1, table, i, 2 * i + table, score))
    event = pd.DataFrame(
        rows, columns=["section", "round", "deal", "table", "seat", "player", "score"]
    )
    event["player"] = spelled(event["player"], spelling)
    if not with_table:
        event = event.drop(columns="table")
    assert_agrees_with_the_reference(event, event.iloc[::-1])
