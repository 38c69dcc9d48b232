"""Numbers and identifiers read from text: the same scores, or the same problems, whether
a column's cells are plain integers a quick cast reads or cells padded with spaces,
which only the exact reading takes; and pandas' nullable integers and floats as a
Parquet file gives them."""

from __future__ import annotations

import re
from decimal import Decimal

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import duplicate
from duplicate import InvalidData
from duplicate.model.results import parse_results

# Spellings that look like integers to one reader or another.
SHORT = ["1", "2", "7", "10", "007", "+5", " 5", "5 ", "-0", "-3", "0", "3.0", "2.50", ".5"]
SHORT += ["00", "-07", "0x10", "-10", "101"]
LONG = ["999999999999999999", "1000000000000000000", "9007199254740993", "12345678901234567890"]
CELLS = st.sampled_from([*SHORT, *LONG, "x", ""])
# Mostly round and deal numbers as uploads spell them, so that most events are scored.
NUMBERS = st.one_of(st.sampled_from(["1", "2", "7", "10", "007", "+5", " 5", "5 ", "101"]), CELLS)
SCORES = st.one_of(st.sampled_from(["1", "-3", "2.50", ".5", "10", "0", "+5", " 5"]), CELLS)


def outcome(frame: pd.DataFrame) -> object:
    """The scores of `frame`'s rows (read without the seating checks), or the problems
    found, with each quoted cell as it reads without its padding."""
    try:
        results = parse_results(frame, "t.csv", first_row=2, check_structure=False)
        scored = duplicate.score(results).frame
    except InvalidData as problems:
        return [re.sub(r"'\s*([^']*?)\s*'", r"'\1'", str(p)) for p in problems.problems]
    return {name: [str(v) for v in column] for name, column in scored.items()}


@settings(max_examples=150, deadline=None)
@given(
    cells=st.lists(st.tuples(NUMBERS, NUMBERS, CELLS, SCORES), min_size=1, max_size=6),
    seat=st.sampled_from(["0", "1", "+1", "01"]),
)
def test_padded_cells_read_as_the_plain_ones(
    cells: list[tuple[str, str, str, str]], seat: str
) -> None:
    frame = pd.DataFrame(
        {
            "round": [c[0] for c in cells],
            "deal": [c[1] for c in cells],
            "seat": seat,
            "player": [c[2] for c in cells],
            "score": [c[3] for c in cells],
            "seconds": [c[3] for c in cells],
        },
        dtype="str",
    )
    assert outcome(frame.map(lambda cell: f" {cell} ")) == outcome(frame)


def test_integer_ids_sort_as_numbers_and_others_keep_their_spelling() -> None:
    frame = pd.DataFrame(
        {"deal": "1", "seat": ["0", "1", "2"], "player": ["3", "10", "-2"], "score": "0"},
        dtype="str",
    )
    assert duplicate.score(frame).frame["player"].tolist() == [3, 10, -2]
    assert duplicate.standings(frame).frame["player"].tolist() == [-2, 3, 10]
    frame["player"] = ["3", "007", "10"]
    assert duplicate.score(frame).frame["player"].tolist() == ["3", "007", "10"]


def test_nullable_integer_columns_are_read_like_plain_ones() -> None:
    """pandas' Int64 columns, as a Parquet file with nullable integers gives them."""
    frame = pd.DataFrame(
        {
            "round": [1, 1],
            "deal": [1, 1],
            "seat": [0, 1],
            "player": pd.array([7, 8], dtype="Int64"),
            "score": pd.array([3, -1], dtype="Int64"),
        }
    )
    scored = duplicate.score(frame).frame
    assert scored["player"].tolist() == [7, 8]
    assert scored["score"].tolist() == [Decimal(3), Decimal(-1)]
    frame["player"] = pd.array([7, None], dtype="Int64")
    with pytest.raises(InvalidData) as missing:
        duplicate.score(frame)
    [problem] = missing.value.problems
    assert (problem.code, problem.column, problem.rows) == ("cell.empty", "player", (2,))


def test_float_columns_keep_their_decimals() -> None:
    frame = pd.DataFrame(
        {
            "round": [1, 1],
            "deal": [1, 1],
            "seat": [0, 1],
            "player": [7.0, 8.0],
            "score": [3.0, -1.5],
        }
    )
    scored = duplicate.score(frame).frame
    assert scored["player"].tolist() == [7, 8]
    assert [str(s) for s in scored["score"]] == ["3.0", "-1.5"]
