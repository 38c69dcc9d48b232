"""Numbers are held exactly: the scores `score` shows agree with a literal reading by
Python's Decimal, cell by cell, on text, floats and integers; a file with a cell that
cannot be held is refused, naming exactly those cells."""

from __future__ import annotations

import math
import os
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import example, given, settings
from hypothesis import strategies as st

import duplicate

# README, "Exactness": up to 6 decimal places and 18 digits, held as integers below 2**53.
MAX_DECIMALS = 6
MAX_UNITS = 2**53

GRAMMAR = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def reference(cells: list[object]) -> tuple[list[int], int, list[bool]]:
    """One cell at a time: the exact value, or None when it is refused."""
    values: list[Decimal | None] = []
    for cell in cells:
        value: Decimal | None = None
        if isinstance(cell, str):
            text = cell.strip()
            if GRAMMAR.fullmatch(text):
                value = Decimal(text)
        elif isinstance(cell, float) and math.isfinite(cell):
            value = Decimal(repr(cell)).normalize()  # the shortest decimal that reads back
        elif isinstance(cell, int):
            value = Decimal(cell)
        if value is not None and (
            -value.as_tuple().exponent > MAX_DECIMALS  # type: ignore[operator]
            or len("".join(map(str, value.as_tuple().digits)).lstrip("0")) > 18
        ):
            value = None  # too many decimals, or more than 18 digits written
        values.append(value)
    # A value too large at its own decimals is refused alone; it sets no decimals for
    # the others (the file is refused anyway).
    values = [
        None
        if v is None or abs(v.scaleb(max(0, -v.as_tuple().exponent))) >= MAX_UNITS  # type: ignore[operator]
        else v
        for v in values
    ]
    scale = max((max(0, -v.as_tuple().exponent) for v in values if v is not None), default=0)  # type: ignore[operator]
    units = [None if v is None else int(v.scaleb(scale)) for v in values]
    units = [None if u is None or abs(u) >= MAX_UNITS else u for u in units]
    if all(u is None for u in units):
        scale = 0
    return [u or 0 for u in units], scale, [u is None for u in units]


def same(
    got: tuple[list[int], int, list[bool]], expected: tuple[list[int], int, list[bool]]
) -> bool:
    """The same cells refused; when none is, the same values at the same scale (a
    refused cell refuses the file, so nothing else of it shows)."""
    if any(got[2]) or any(expected[2]):
        return got[2] == expected[2]
    values = [[Fraction(u, 10**scale) for u in units] for units, scale, _ in (got, expected)]
    return values[0] == values[1] and got[1] == expected[1]


def parsed(column: pd.Series | pa.Array) -> tuple[list[int], int, list[bool]]:
    """The cells as scores of a deal each: (units, scale, refused) as `score` shows
    them, every value as an integer of units at the column's scale; or which cells the
    file is refused for."""
    n = len(column)
    if isinstance(column, pa.Array):
        column = pd.Series(pd.arrays.ArrowExtensionArray(column))
    frame = pd.DataFrame({"deal": range(1, n + 1), "seat": 0, "player": "p"})
    frame["score"] = column.reset_index(drop=True)
    try:
        scored = duplicate.score(frame).frame
    except duplicate.InvalidData as refused:
        rows = {r for p in refused.problems if p.column == "score" for r in p.rows}
        return [0] * n, 0, [i + 1 in rows for i in range(n)]  # a table's rows from 1
    scale = scored["score"].dtype.pyarrow_dtype.scale
    return [int(v.scaleb(scale)) for v in scored["score"]], scale, [False] * n


DIGITS = st.text("0123456789", min_size=0, max_size=20)
TEXT = st.one_of(
    st.builds(
        lambda sign, whole, point, part, pad: f"{pad}{sign}{whole}{point}{part}{pad}",
        st.sampled_from(["", "-", "+", "--", "+-"]),
        DIGITS,
        st.sampled_from(["", ".", ".."]),
        DIGITS,
        st.sampled_from(["", " ", "\t"]),
    ),
    st.sampled_from(["0x10", "1e5", "1_000", "１２", "NaN", "inf", "", " ", "٣", "1,5"]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=8))
def test_text_is_read_exactly_or_refused(cells: list[str]) -> None:
    column = pd.Series(cells, dtype="str")
    expected = reference(cells)
    got = parsed(column)
    assert same(got, expected)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(TEXT, min_size=0, max_size=4), min_size=1, max_size=4))
@example([["10000000000", "10000000000.000000"]])
def test_text_in_chunks_is_read_as_one_column(chunks: list[list[str]]) -> None:
    """As a CSV file is read: Arrow strings (32-bit offsets) in blocks, each block with
    its own decimals; the column's scale is the most of any cell's."""
    cells = [cell for chunk in chunks for cell in chunk]
    column = pd.Series(
        pd.arrays.ArrowExtensionArray(pa.chunked_array(chunks, pa.string()))  # type: ignore[arg-type]
    )
    expected = reference(cells)
    assert parsed(column) == parsed(pd.Series(cells, dtype="str"))
    if cells:
        assert same(parsed(column), expected)


FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**9), 10**9).map(lambda k: k / 10),
    st.integers(-(10**12), 10**12).map(lambda k: k / 1000),
    st.integers(-(10**15), 10**15).map(lambda k: k / 10**6),
    st.sampled_from([0.1, 0.2 + 0.1, 3.3000000000000003, 5e-5, 1e-7, 2.0**53, 2.0**53 - 1]),
)


@settings(max_examples=int(os.environ.get("DUPLICATE_NUMBER_EXAMPLES", "200")), deadline=None)
@given(st.lists(FLOATS, min_size=1, max_size=8))
@example([900719925475.0, 900719925474.9375])  # the second alone is too large at its decimals
def test_floats_are_read_as_their_shortest_decimal(cells: list[float]) -> None:
    got = parsed(pd.Series(cells, dtype="float64"))
    expected = reference([None if math.isnan(c) else c for c in cells])
    assert same(got, expected)


@settings(deadline=None)
@given(st.lists(st.integers(-(2**63), 2**64 - 1), min_size=1, max_size=8))
def test_integers_are_held_or_refused_never_wrapped(cells: list[int]) -> None:
    signed = all(-(2**63) <= c < 2**63 for c in cells)
    array = (
        pa.array(cells, type=pa.int64() if signed else pa.uint64())
        if (signed or all(c >= 0 for c in cells))
        else None
    )
    if array is None:
        return
    assert same(parsed(array), reference(cells))


def test_missing_cells_are_refused() -> None:
    assert parsed(pd.Series([1, None], dtype="Int64"))[2] == [False, True]
    assert parsed(pd.Series(["1.5", None], dtype="str"))[2] == [False, True]
    assert parsed(pa.array([None, None]))[2] == [True, True]
    assert parsed(pd.Series([np.nan, 2.5]))[2] == [True, False]


def test_examples_of_the_hostile_kind() -> None:
    assert parsed(pd.Series(["8705559159.401450", "8705559159.401449"], dtype="str"))[0] == [
        8705559159401450,
        8705559159401449,
    ]
    assert parsed(pd.Series(["0x10"], dtype="str"))[2] == [True]
    assert parsed(pd.Series([0.00005, 3.3000000000000003]))[2] == [False, True]
    assert parsed(pd.Series([0.00005, 3.3])) == ([5, 330000], 5, [False, False])
    assert parsed(pa.array([2**63 + 1], type=pa.uint64()))[2] == [True]


def test_the_scale_is_the_most_decimals_written() -> None:
    assert parsed(pd.Series(["1.5", "2.25", "3.125"], dtype="str")) == (
        [1500, 2250, 3125],
        3,
        [False] * 3,
    )
    assert parsed(pd.Series(["1", "2.50", "-.5"], dtype="str")) == ([100, 250, -50], 2, [False] * 3)
    assert parsed(pd.Series(["10", "20"], dtype="str")) == ([10, 20], 0, [False, False])
