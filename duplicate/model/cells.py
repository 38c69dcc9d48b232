"""A raw table's columns as they are typed (model.results.parse_results): identifiers
as int64 when every cell is a plain integer, else trimmed text; numbers held exactly;
a problem for each bad cell, shown as written.

The columns are Arrow's, as a file is read; a pandas table is taken column by column
(raw_columns), its own cells shown in messages.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.errors import Problem
from duplicate.limits import MAX_COLUMN_SUM, MAX_LISTED
from duplicate.model.codes import is_pandas, one_chunk
from duplicate.model.exact import IntArray
from duplicate.model.numbers import Units, column_sum_too_large, decimal_units, refusal
from duplicate.model.text_bytes import bytes_of

if TYPE_CHECKING:
    import pandas as pd

_INTEGER_TEXT = r"-?(?:0|[1-9][0-9]{0,17})"
# The same, for Arrow's regular expressions (the whole cell).
_WHOLE_INTEGER_TEXT = f"^(?:{_INTEGER_TEXT})$"
# The cells that tell a column of names from one of numbers before a pass over all.
_FIRST_CELLS = 64


SCORE_HINT = "write the game score as a number such as 12 or -3.5"
SECONDS_HINT = "give every row its play time in seconds, or drop the column"


@dataclass
class RawColumns:
    """A table as read: its headers and columns (Arrow), in order.

    `frame` is the pandas table they were taken from, if any: messages show its cells
    as they are there (`at`: each row's position in it).
    """

    labels: list[Hashable]
    arrays: list[pa.ChunkedArray[Any] | None]
    frame: pd.DataFrame | None = None
    at: np.ndarray | None = None

    def __len__(self) -> int:
        for array in self.arrays:
            if array is not None:
                return len(array)
        return 0 if self.at is None else len(self.at)

    def kept(self, keep: np.ndarray) -> RawColumns:
        """The rows where `keep` is True."""
        mask = pa.array(keep)
        arrays = [None if a is None else a.filter(mask) for a in self.arrays]
        at = np.flatnonzero(keep) if self.at is None else self.at[keep]
        return RawColumns(self.labels, arrays, self.frame, at)

    def shown(self, position: int, rows: np.ndarray) -> list[object]:
        """The cells of a column at `rows`, as the table held them."""
        if self.frame is not None:
            at = rows if self.at is None else self.at[rows]
            values: list[object] = list(self.frame.iloc[at, position].to_numpy(dtype=object))
            return values
        array = self.arrays[position]
        assert array is not None, "a column is shown before it is dropped"
        return list(array.take(pa.array(rows)).to_pylist())


def raw_columns(raw: pd.DataFrame | pa.Table) -> RawColumns:
    """The columns of a table as read (Arrow), or of a pandas table."""
    if isinstance(raw, pa.Table):
        return RawColumns(list(raw.column_names), list(raw.columns))
    arrays: list[pa.ChunkedArray[Any] | None] = [
        _from_pandas(raw.iloc[:, i]) for i in range(raw.shape[1])
    ]
    return RawColumns(list(raw.columns), arrays, raw)


def _from_pandas(column: pd.Series) -> pa.ChunkedArray[Any]:
    """A pandas column as Arrow: Python objects as their text, missing values null."""
    values: Any = column
    if column.dtype == object:
        values = column.map(lambda v: None if _blank_value(v) else str(v), na_action="ignore")
        array = pa.array(values, pa.large_string(), from_pandas=True)
    else:
        array = pa.array(values, from_pandas=True)
    return array if isinstance(array, pa.ChunkedArray) else pa.chunked_array([array])


class Cells:
    """The columns of a raw table as they are typed, and the problems found in them."""

    def __init__(
        self,
        raw: RawColumns,
        columns: dict[str, int],
        rows: np.ndarray,
        source: str,
        consume: bool,
    ) -> None:
        self.raw, self.columns, self.rows = raw, columns, rows
        self.source, self.consume = source, consume
        self.problems: list[Problem] = []

    def column(self, name: str) -> pa.ChunkedArray[Any]:
        array = self.raw.arrays[self.columns[name]]
        assert array is not None, f"column {name} read twice"
        return array

    def done(self, name: str) -> None:
        """The column is read: a big file's text goes before the next column."""
        if self.consume:
            self.raw.arrays[self.columns[name]] = None

    def flag(
        self,
        name: str,
        bad: np.ndarray,
        what: str,
        hint: str,
        why: Callable[[object], str | None] = lambda value: None,
        *,
        code: str,
    ) -> None:
        """A problem for each bad cell of the column (of the kind `code`), shown as
        written: `why` it is bad when it says, else `what`."""
        if not bad.any():
            return
        at = np.flatnonzero(bad)
        # The first cells one by one; the rest of the column as one count.
        listed, rest = at[:MAX_LISTED], at[MAX_LISTED:]
        values = self.raw.shown(self.columns[name], listed)
        for i, value in zip(listed, values, strict=True):
            shown = "empty" if _blank_value(value) else f"{value!r} {why(value) or what}"
            self.problems.append(
                Problem(self.source, shown, (int(self.rows[i]),), name, hint, code=code)
            )
        if len(rest):
            self.problems.append(
                Problem(
                    self.source,
                    f"{len(rest)} more cells like these",
                    tuple(int(r) for r in self.rows[rest[:10]]),
                    name,
                    hint,
                    count=len(rest),
                    code=code,
                )
            )

    def section(self) -> object:
        if "section" not in self.columns:
            from duplicate.model.results import no_section

            return no_section(len(self.rows))
        text: Any = _text(self.column("section"))
        text = pc.fill_null(text, "")
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
            plain = _numpy(pc.match_substring_regex(text, _WHOLE_INTEGER_TEXT), False)
            number = _numpy(pc.cast(pc.if_else(pa.array(plain), text, "1"), pa.int64()), 1)
            bad = ~plain | (number < 1)
            self.flag(
                name,
                bad,
                "is not a round number",
                "rounds are whole numbers from 1",
                code="cell.not-a-round",
            )
            values: object = np.where(bad, 1, number).astype(np.int64)
        else:
            missing = _numpy(text.is_null(), False)
            self.flag(name, missing, "", f"every row needs a {name}", code="cell.empty")
            values = _identifier(text)
        self.done(name)
        return values

    def units(
        self, name: str, what: str, hint: str, code: str, non_negative: bool = False
    ) -> Units:
        """A number column held exactly (model.numbers); bad cells are problems of the
        kind `code`."""
        held = decimal_units(self.column(name))
        bad = held.bad
        # One pass to see that all is well (bad cells hold 0); the masks only if not.
        if non_negative and int(held.units.min()) < 0:
            bad = bad | (held.units < 0)
        self.flag(name, bad, what, hint, refusal, code=code)
        if column_sum_too_large(held.units):
            self.problems.append(
                Problem(
                    self.source,
                    f"the values add up past {MAX_COLUMN_SUM:,} (without their points): "
                    "totals could not be held exactly",
                    column=name,
                    hint="check the column for values far too large",
                    code="number.column-too-large",
                )
            )
        self.done(name)
        return held


def _whole_integers(column: pa.ChunkedArray[Any]) -> bool:
    """An integer column with no missing value (as Parquet files often hold)."""
    return pa.types.is_integer(column.type) and not column.null_count


# Integer identifiers are held as int64 below this (as text beyond, like 19 digits
# of text): room to count on from them (the next round) without overflow.
_ID_LIMIT = 10**18


def _held_integers(column: pa.ChunkedArray[Any]) -> IntArray | None:
    """An integer column's values as int64 when all lie within _ID_LIMIT: never wrapped
    (a uint64 above 2**63 is not turned negative)."""
    values = one_chunk(column).to_numpy()
    if not len(values):
        return np.zeros(0, dtype=np.int64)
    low, high = int(values.min()), int(values.max())
    if low <= -_ID_LIMIT or high >= _ID_LIMIT:
        return None
    return values.astype(np.int64)


def _plain_integers(column: pa.ChunkedArray[Any]) -> IntArray | None:
    """A text column as int64 when every cell is an integer written plainly (no
    sign +, no leading zero, no space, at most 18 digits): an identifier such as "007"
    stays text."""
    if not _is_text(column.type):
        return None
    # Names (P0012345) are told by their first cells: Arrow's failing cast costs a
    # moment for every cell it fails on.
    if _cast_integers(column.slice(0, _FIRST_CELLS)) is None:
        return None
    ints = _cast_integers(column)
    if ints is None or not len(ints):
        return None
    if max(int(ints.max()), -int(ints.min())) >= _ID_LIMIT:
        return None
    # Arrow's cast reads "007", "-0" and "0x10" too: those start with 0 or -0.
    return None if any(_zero_first(chunk) for chunk in column.chunks) else ints


def _is_text(kind: pa.DataType) -> bool:
    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind))


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


def _cast_integers(text: pa.ChunkedArray[Any] | pa.Array[Any]) -> IntArray | None:
    """Arrow strings as int64 when every one reads as an integer, else None."""
    if text.null_count:
        return None
    try:
        ints = pc.cast(text, pa.int64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    return np.asarray(ints.to_numpy(), dtype=np.int64)


def _blank_value(value: object) -> bool:
    return (
        value is None
        or (isinstance(value, float) and np.isnan(value))
        or (isinstance(value, str) and not value.strip())
        or (is_pandas(value) and str(value) == "<NA>")
    )


def _numpy(array: Any, missing: object) -> np.ndarray:
    """An Arrow array as numpy, its missing values as `missing`."""
    return np.asarray(array.fill_null(missing).to_numpy(zero_copy_only=False))


def _text(column: pa.ChunkedArray[Any]) -> pa.Array[Any]:
    """The column as trimmed text (large_string, one chunk) with blanks as missing."""
    kind = column.type
    if pa.types.is_dictionary(kind):
        return _text(column.cast(kind.value_type))
    if _is_text(kind):
        return _trimmed(column)
    if pa.types.is_floating(kind):
        return _float_text(one_chunk(column))
    if pa.types.is_integer(kind) or pa.types.is_decimal(kind):
        # Arrow writes these as Python does (integers with missing cells, say).
        return _trimmed(column.cast(pa.large_string()))
    # Any other kind (booleans, dates) as Python writes it: rare columns, and the
    # messages show them so.
    cells = [None if v is None else str(v).strip() for v in column.to_pylist()]
    return pa.array([v if v else None for v in cells], pa.large_string())


def _float_text(column: pa.Array[Any]) -> pa.Array[Any]:
    """Parquet floats that hold identifiers: 3.0 means "3" (when exactly an integer;
    inf and 1e300 stay as Python writes them); NaN is missing."""
    values = np.asarray(column.to_numpy(zero_copy_only=False), dtype=np.float64)
    present = ~np.isnan(values) & _numpy(column.is_valid(), False).astype(bool)
    whole = present & (values == np.floor(values)) & (np.abs(values) < 2**53)
    text: Any = pc.cast(pa.array(np.where(whole, values, 0).astype(np.int64)), pa.large_string())
    others = np.flatnonzero(present & ~whole)
    if len(others):
        shown = np.asarray(text.to_pylist(), dtype=object)
        shown[others] = [str(float(v)) for v in values[others]]
        text = pa.array(shown, pa.large_string())
    missing: Any = pc.if_else(pa.array(present), text, pa.scalar(None, pa.large_string()))
    return missing  # type: ignore[no-any-return]


def _trimmed(text: pa.ChunkedArray[Any]) -> pa.Array[Any]:
    """Arrow strings trimmed, blanks missing, as one chunk of large_string (pandas'
    text): the codes and the output take it as it is, with no copy to join the chunks."""
    # Trimmed chunk by chunk, then joined: the one column-sized allocation is the result.
    pieces: Any = pc.utf8_trim_whitespace(text).cast(pa.large_string())
    trimmed: Any = one_chunk(pieces)
    del pieces
    blank: Any = pc.equal(pc.binary_length(trimmed), pa.scalar(0, pa.int64()))
    if trimmed.null_count or pc.any(blank).as_py():
        trimmed = pc.if_else(blank, pa.scalar(None, pa.large_string()), trimmed)
    return trimmed  # type: ignore[no-any-return]


def _identifier(text: pa.Array[Any]) -> object:
    """Identifiers as int64 when every one is a plain integer (so 10 sorts after 9)."""
    if text.null_count:
        return text
    # Names such as P0012345 are told by their first cells, without a pass over all.
    for cells in (text.slice(0, _FIRST_CELLS), text):
        if not pc.all(pc.match_substring_regex(cells, _WHOLE_INTEGER_TEXT)).as_py():
            return text
    return np.asarray(pc.cast(text, pa.int64()).to_numpy(), dtype=np.int64)
