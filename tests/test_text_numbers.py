"""Text cells read as numbers by Arrow's cast give what the exact, slow reading gives."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.errors import InvalidData
from duplicate.model import cells as module
from duplicate.model.results import parse_results

# Spellings that look like integers to one reader or another.
SHORT = ["1", "2", "7", "10", "007", "+5", " 5", "5 ", "-0", "-3", "0", "3.0", "2.50", ".5"]
SHORT += ["00", "-07", "0x10", "-10", "101"]
LONG = ["999999999999999999", "1000000000000000000", "9007199254740993", "12345678901234567890"]
CELLS = st.sampled_from([*SHORT, *LONG, "x", ""])


def parsed(frame: pd.DataFrame) -> tuple[str, object]:
    try:
        results = parse_results(frame, "t.csv", first_row=2, check_structure=False)
    except InvalidData as problems:
        return "problems", [str(p) for p in problems.problems]
    out = results.frame
    return "results", (
        {c: str(out[c].dtype) for c in out.columns},
        out.astype(str).to_dict("list"),
        results.score_scale,
        results.seconds_scale,
    )


@settings(max_examples=200, deadline=None)
@given(
    cells=st.lists(st.tuples(CELLS, CELLS, CELLS, CELLS), min_size=1, max_size=6),
    seat=st.sampled_from(["0", "1", "+1", "01"]),
)
def test_fast_reading_agrees_with_the_exact_one(
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
    fast = parsed(frame)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "_cast_integers", lambda text: None)
        assert parsed(frame) == fast


def test_plain_integer_text_is_read_as_int64() -> None:
    column = pd.Series(["3", "10", "-2"], dtype="str")
    assert module._plain_integers(column).tolist() == [3, 10, -2]  # type: ignore[union-attr]
    assert module._plain_integers(pd.Series(["3", "007"], dtype="str")) is None


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
    results = parse_results(frame, "t.parquet", check_structure=False)
    assert results.frame["player"].tolist() == [7, 8]
    assert results.frame["score_units"].tolist() == [3, -1]
    frame["player"] = pd.array([7, None], dtype="Int64")
    with pytest.raises(InvalidData) as missing:
        parse_results(frame, "t.parquet", check_structure=False)
    [problem] = missing.value.problems
    assert (problem.column, problem.rows) == ("player", (2,))


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
    results = parse_results(frame, "t.parquet", check_structure=False)
    assert results.frame["player"].tolist() == [7, 8]
    assert (results.frame["score_units"].tolist(), results.score_scale) == ([30, -15], 1)
