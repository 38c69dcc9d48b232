"""A raw table's columns as they are typed (model.results.parse_results): identifiers
as int64 when every cell is a plain integer, else trimmed text; numbers held exactly;
a problem for each bad cell, shown as written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.errors import Problem
from duplicate.limits import MAX_COLUMN_SUM, MAX_LISTED
from duplicate.model.codes import arrow_strings, one_chunk
from duplicate.model.exact import IntArray
from duplicate.model.numbers import Units, column_sum_too_large, decimal_units, refusal
from duplicate.model.text_bytes import bytes_of

_INTEGER_TEXT = r"-?(?:0|[1-9][0-9]{0,17})"
# The cells that tell a column of names from one of numbers before a pass over all.
_FIRST_CELLS = 64


SCORE_HINT = "write the game score as a number such as 12 or -3.5"
SECONDS_HINT = "give every row its play time in seconds, or drop the column"


class Cells:
    """The columns of a raw table as they are typed, and the problems found in them."""

    def __init__(
        self,
        raw: pd.DataFrame,
        columns: dict[str, str],
        rows: np.ndarray,
        source: str,
        consume: bool,
    ) -> None:
        self.raw, self.columns, self.rows = raw, columns, rows
        self.source, self.consume = source, consume
        self.problems: list[Problem] = []

    def column(self, name: str) -> pd.Series:
        return self.raw[self.columns[name]]

    def done(self, name: str) -> None:
        """The column is read: a big CSV file's text goes before the next column."""
        if self.consume:
            del self.raw[self.columns[name]]

    def flag(
        self,
        name: str,
        bad: np.ndarray,
        what: str,
        hint: str,
        why: Callable[[object], str | None] = lambda value: None,
    ) -> None:
        """A problem for each bad cell of the column, shown as written: `why` it is bad
        when it says, else `what`."""
        if not bad.any():
            return
        at = np.flatnonzero(bad)
        # The first cells one by one; the rest of the column as one count.
        listed, rest = at[:MAX_LISTED], at[MAX_LISTED:]
        values = self.column(name).iloc[listed].to_numpy(dtype=object)
        for i, value in zip(listed, values, strict=True):
            shown = "empty" if _blank(value) else f"{value!r} {why(value) or what}"
            self.problems.append(Problem(self.source, shown, (int(self.rows[i]),), name, hint))
        if len(rest):
            self.problems.append(
                Problem(
                    self.source,
                    f"{len(rest)} more cells like these",
                    tuple(int(r) for r in self.rows[rest[:10]]),
                    name,
                    hint,
                    count=len(rest),
                )
            )

    def section(self) -> object:
        if "section" not in self.columns:
            # One empty section, held as a category (not n empty strings).
            n = len(self.rows)
            codes = np.zeros(n, dtype=np.int8)
            return pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype([""]))
        text = _text(self.column("section")).fillna("")
        self.done("section")
        return text

    def identifier(self, name: str) -> object:
        """Round, deal, table, seat or player: int64 when every cell is a plain integer
        (rounds from 1), else text; missing cells and bad rounds are problems."""
        column = self.column(name)
        ints = _held_integers(column) if _whole_integers(column) else _plain_integers(column)
        if ints is not None and (name != "round" or int(ints.min()) >= 1):
            self.done(name)
            return ints
        text = _text(column)
        if name == "round":
            number = pd.to_numeric(text.where(text.str.fullmatch(_INTEGER_TEXT)), errors="coerce")
            bad = number.isna().to_numpy() | (number.fillna(1) < 1).to_numpy()
            self.flag(name, bad, "is not a round number", "rounds are whole numbers from 1")
            values: object = number.fillna(1).astype("int64").to_numpy()
        else:
            self.flag(name, text.isna().to_numpy(), "", f"every row needs a {name}")
            values = _identifier(text)
        self.done(name)
        return values

    def units(self, name: str, what: str, hint: str, non_negative: bool = False) -> Units:
        """A number column held exactly (model.numbers); bad cells are problems."""
        held = decimal_units(self.column(name))
        bad = held.bad
        # One pass to see that all is well (bad cells hold 0); the masks only if not.
        if non_negative and int(held.units.min()) < 0:
            bad = bad | (held.units < 0)
        self.flag(name, bad, what, hint, refusal)
        if column_sum_too_large(held.units):
            self.problems.append(
                Problem(
                    self.source,
                    f"the values add up past {MAX_COLUMN_SUM:,} (without their points): "
                    "totals could not be held exactly",
                    column=name,
                    hint="check the column for values far too large",
                )
            )
        self.done(name)
        return held


def _whole_integers(column: pd.Series) -> bool:
    """An integer column with no missing value (as Parquet files often hold)."""
    if isinstance(column.dtype, np.dtype):
        # numpy integers cannot be missing: no pass over the rows to ask.
        return column.dtype.kind in "iu"
    return pd.api.types.is_integer_dtype(column.dtype) and not bool(column.isna().any())


# Integer identifiers are held as int64 below this (as text beyond, like 19 digits
# of text): room to count on from them (the next round) without overflow.
_ID_LIMIT = 10**18


def _held_integers(column: pd.Series) -> IntArray | None:
    """An integer column's values as int64 when all lie within _ID_LIMIT: never wrapped
    (a uint64 above 2**63 is not turned negative)."""
    values = column.to_numpy()
    if not len(values):
        return np.zeros(0, dtype=np.int64)
    low, high = int(values.min()), int(values.max())
    if low <= -_ID_LIMIT or high >= _ID_LIMIT:
        return None
    return values.astype(np.int64)


def _plain_integers(column: pd.Series) -> IntArray | None:
    """A text column as int64 when every cell is an integer written plainly (no
    sign +, no leading zero, no space, at most 18 digits): an identifier such as "007"
    stays text."""
    text = arrow_strings(column)
    # Names (P0012345) are told by their first cells: Arrow's failing cast costs a
    # moment for every cell it fails on.
    if text is None or _cast_integers(text.slice(0, _FIRST_CELLS)) is None:
        return None
    ints = _cast_integers(text)
    if ints is None or not len(ints):
        return None
    if max(int(ints.max()), -int(ints.min())) >= _ID_LIMIT:
        return None
    # Arrow's cast reads "007", "-0" and "0x10" too: those start with 0 or -0.
    return None if any(_zero_first(chunk) for chunk in text.chunks) else ints


def _zero_first(text: pa.Array[Any]) -> bool:
    """Whether a cell of more than one byte starts with 0, or any starts with -0 (the
    cells are not empty: each read as an integer)."""
    offsets, data = bytes_of(text)
    if not len(data):
        return False
    starts = offsets[:-1] - offsets[0]
    longer = np.diff(offsets) > 1
    first = data[np.minimum(starts, len(data) - 1)]
    second = data[np.minimum(starts + 1, len(data) - 1)]
    zero, minus = ord("0"), ord("-")
    return bool((longer & ((first == zero) | ((first == minus) & (second == zero)))).any())


def _cast_integers(text: pa.ChunkedArray[Any]) -> IntArray | None:
    """Arrow strings as int64 when every one reads as an integer, else None."""
    if text.null_count:
        return None
    try:
        ints = pc.cast(text, pa.int64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    return np.asarray(ints.to_numpy(), dtype=np.int64)


def _blank(value: object) -> bool:
    return (
        value is None
        or value is pd.NA
        or (isinstance(value, float) and np.isnan(value))
        or (isinstance(value, str) and not value.strip())
    )


def _text(column: pd.Series) -> pd.Series:
    """The column as trimmed text with blanks as missing."""
    if pd.api.types.is_float_dtype(column.dtype):
        # Parquet floats that hold identifiers: 3.0 means "3" (when exactly an integer;
        # inf and 1e300 stay as they print).
        whole = column.notna() & (column == np.floor(column)) & (column.abs() < 2**53)
        integers = column.where(whole, 0).astype("int64").astype("str")
        text = column.astype("str").where(~whole, integers)
        return text.where(column.notna())
    arrow = arrow_strings(column)
    if arrow is not None:
        return _trimmed(arrow)
    text = column.astype("str").str.strip()
    return text.where(column.notna() & (text != ""))


def _trimmed(text: pa.ChunkedArray[Any]) -> pd.Series:
    """Arrow strings trimmed, blanks missing, as one chunk of pandas' text: the codes
    and the output take it as it is, with no copy to join the chunks."""
    # Trimmed chunk by chunk, then joined: the one column-sized allocation is the result.
    pieces: Any = pc.utf8_trim_whitespace(text).cast(pa.large_string())
    trimmed: Any = one_chunk(pieces)
    del pieces
    blank: Any = pc.equal(pc.binary_length(trimmed), pa.scalar(0, pa.int64()))
    if trimmed.null_count or pc.any(blank).as_py():
        trimmed = pc.if_else(blank, pa.scalar(None, pa.large_string()), trimmed)
    return pd.Series(
        # (the stubs lack ArrowStringArray's dtype: that of column.astype("str"))
        pd.arrays.ArrowStringArray(  # type: ignore[call-arg]
            pa.chunked_array([trimmed]), dtype=pd.StringDtype("pyarrow", na_value=np.nan)
        ),
        copy=False,
    )


def _identifier(text: pd.Series) -> pd.Series:
    """Identifiers as int64 when every one is a plain integer (so 10 sorts after 9)."""
    present = text.dropna()
    if len(present) < len(text):
        return text
    # Names such as P0012345 are told by their first cells, without a pass over all.
    for cells in (present.iloc[:_FIRST_CELLS], present):
        if not bool(cells.str.fullmatch(_INTEGER_TEXT).all()):
            return text
    return text.astype("int64")
