"""Turn a table as read (any dtypes, any header spelling) into typed, validated results."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.errors import InvalidData, Problem
from duplicate.limits import MAX_COLUMN_SUM, MAX_LISTED
from duplicate.model.codes import (
    arrow_strings,
    combine,
    compact_codes,
    dense_codes,
    sorting_codes,
)
from duplicate.model.columns import (
    KNOWN,
    RAW_REQUIRED,
    REQUIRED,
    canonical_name,
    unused_columns,
)
from duplicate.model.exact import CodeArray, IntArray
from duplicate.model.numbers import (
    Units,
    column_sum_too_large,
    decimal_units,
    refusal,
)
from duplicate.model.validation import structural_problems

_INTEGER_TEXT = r"-?(?:0|[1-9][0-9]{0,17})"
# The cells that tell a column of names from one of numbers before a pass over all.
_FIRST_CELLS = 64


@dataclass(frozen=True)
class Results:
    """Validated results: one row per player per deal, with exact integer scores.

    `frame` holds section, round, deal, table, seat, player (identifiers: int64 when every
    value is a plain integer, else text), score_units and seconds_units (the value times
    10**scale, exactly), and row (the row number used in messages).
    """

    frame: pd.DataFrame
    source: str
    has_table: bool
    has_seconds: bool
    score_scale: int
    seconds_scale: int
    deal_scope: str = "round"
    # Rows with every cell blank (a spreadsheet writes them after deleted rows): left
    # out, and counted here with the numbers of the first few, for a note.
    blank_rows: int = 0
    blank_row_numbers: tuple[int, ...] = ()
    # Headers that name no column (misspelled, or the scorer's own): a warning's matter.
    unused_columns: tuple[str, ...] = ()
    # Not an init field: dataclasses.replace(results, frame=...) must start a fresh cache.
    _codes: dict[str, tuple[CodeArray, int]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    _keys: dict[tuple[str, ...], tuple[CodeArray, int]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    _sorting: dict[str, tuple[CodeArray, int]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def key(self, *columns: str) -> tuple[CodeArray, int]:
        """The combined codes of several columns (see codes.combine), computed once."""
        if columns not in self._keys:
            # Compact, like the codes: combine widens it again before arithmetic.
            self._keys[columns] = combine([self.codes(c) for c in columns])
        return self._keys[columns]

    def dense_key(self, *columns: str) -> tuple[CodeArray, int]:
        """Dense codes 0..k-1 of the combinations of `columns` that occur, and k.

        When one column alone varies, its own (cached, compact) codes are the answer.
        """
        parts = [self.codes(c) for c in columns]
        varying = [part for part in parts if part[1] > 1]
        if len(varying) <= 1:
            return varying[0] if varying else parts[0]
        return dense_codes(combine(parts)[0])

    def sorting_codes(self, column: str) -> tuple[CodeArray, int]:
        """Codes that sort like the column and index a bounded table, dense or not:
        small non-negative integers are their own (codes.sorting_codes), others have
        their dense codes. Computed once."""
        if column not in self._sorting:
            own = sorting_codes(self.frame[column])
            self._sorting[column] = own if own is not None else self.codes(column)
        return self._sorting[column]

    def codes(self, column: str) -> tuple[CodeArray, int]:
        """Ordered dense codes of a column, computed once and shared by every step.

        Compact (int8 for seats, int32 for players...): combine them before arithmetic.
        """
        if column not in self._codes:
            self._codes[column] = compact_codes(self.frame[column])
        return self._codes[column]


def parse_results(
    raw: pd.DataFrame,
    source: str = "<data>",
    first_row: int = 1,
    deal_scope: str = "round",
    score_required: bool = True,
    row_numbers: np.ndarray | None = None,
    check_structure: bool = True,
    consume: bool = False,
) -> Results:
    """Validate and type a results table; raise InvalidData listing every problem.

    With `check_structure` False, who sat where and played what is left to the caller
    (`check_results`): every cell is still typed and checked.

    With `consume`, each column of `raw` is deleted from it once read (read_results
    hands over its own table): a big file's text goes column by column, not all at the
    end.

    `row_numbers` (one per row) replace first_row when the table is a part of a file.

    `first_row` is the number messages give the first data row (2 for a CSV file, whose
    header is row 1, as a spreadsheet shows it).
    """
    columns = _map_columns(raw, source, REQUIRED if score_required else RAW_REQUIRED)
    # Taken before the columns read are dropped (consume).
    unused = tuple(unused_columns(raw))
    # Rows are matched by position; a caller's index (say, after a shuffle) must not
    # realign the columns.
    if not raw.index.equals(pd.RangeIndex(len(raw))):
        raw = raw.reset_index(drop=True)
    n = len(raw)
    rows = (
        # int32 while it holds them: half the memory of int64 at millions of rows.
        np.arange(first_row, first_row + n, dtype=np.int32 if first_row + n < 2**31 else np.int64)
        if row_numbers is None
        else np.asarray(row_numbers, dtype=np.int64)
    )
    blank = blank_rows(raw)
    skipped = rows[blank] if blank is not None else rows[:0]
    if blank is not None:
        raw, rows, n = raw[~blank].reset_index(drop=True), rows[~blank], int((~blank).sum())
    if n == 0:
        raise InvalidData(
            [Problem(source, "has no result rows", hint="add one row per player per deal")]
        )
    cells = _Cells(raw, columns, rows, source, consume)
    # Columns are collected, then made one frame without copies: at millions of rows,
    # each copy costs a noticeable fraction of a second.
    frame: dict[str, object] = {"row": rows, "section": cells.section()}
    for name in ("round", "deal", "table", "seat", "player"):
        if name in columns:
            frame[name] = cells.identifier(name)
    if "round" not in columns:
        frame["round"] = np.ones(n, dtype=np.int64)
    score = (
        cells.units("score", "is not a number", SCORE_HINT)
        if "score" in columns
        else Units(np.zeros(n, dtype=np.int64), 0, np.zeros(n, dtype=bool))
    )
    frame["score_units"] = score.units
    seconds = None
    if "seconds" in columns:
        seconds = cells.units("seconds", "is not a time in seconds >= 0", SECONDS_HINT, True)
        frame["seconds_units"] = seconds.units
    if cells.problems:
        raise InvalidData(cells.problems)
    results = Results(
        frame=pd.DataFrame(frame, copy=False),
        source=source,
        has_table="table" in columns,
        has_seconds=seconds is not None,
        score_scale=score.scale,
        seconds_scale=0 if seconds is None else seconds.scale,
        deal_scope=deal_scope,
        blank_rows=len(skipped),
        blank_row_numbers=tuple(int(r) for r in skipped[:10]),
        unused_columns=unused,
    )
    if check_structure:
        check_results(results)
    return results


def blank_rows(raw: pd.DataFrame) -> np.ndarray | None:
    """Which rows have every cell empty or missing; None when none has (usually found
    from the first column alone)."""
    blank: np.ndarray | None = None
    for label in raw.columns:
        column = raw[label]
        text = arrow_strings(column)
        if text is not None:
            # Empty, or spaces only: bitmaps, no copy of the text.
            nothing: Any = pc.equal(text, pa.scalar("", text.type))
            empty = pc.fill_null(pc.or_(nothing, pc.utf8_is_space(text)), True)
            here = np.asarray(empty.to_numpy(zero_copy_only=False), dtype=bool)
        else:
            here = column.isna().to_numpy(dtype=bool)
        blank = here if blank is None else blank & here
        if not blank.any():
            return None
    return blank


SCORE_HINT = "write the game score as a number such as 12 or -3.5"
SECONDS_HINT = "give every row its play time in seconds, or drop the column"


class _Cells:
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


def check_results(results: Results) -> None:
    """Raise InvalidData listing every seating or duplication problem in `results`."""
    problems = structural_problems(results, results.deal_scope)
    if problems:
        raise InvalidData(problems)


def _map_columns(
    raw: pd.DataFrame, source: str, required: tuple[str, ...] = REQUIRED
) -> dict[str, str]:
    """Spec name -> header in `raw`; missing or doubled columns are problems."""
    found: dict[str, list[str]] = {}
    for header in raw.columns:
        name = canonical_name(str(header))
        if name is not None:
            found.setdefault(name, []).append(str(header))
    problems = [
        Problem(
            source,
            f"columns {' and '.join(repr(h) for h in headers)} both mean '{name}'",
            hint="keep one of them",
        )
        for name, headers in found.items()
        if len(headers) > 1
    ]
    missing = [name for name in required if name not in found]
    if missing:
        have = ", ".join(repr(str(c)) for c in raw.columns) or "none"
        problems.append(
            Problem(
                source,
                f"missing required column{'s' if len(missing) > 1 else ''} "
                f"{', '.join(missing)} (columns found: {have})",
                hint=f"the header needs {', '.join(required)}; optional: "
                f"{', '.join(c for c in KNOWN if c not in required)}",
            )
        )
    if problems:
        raise InvalidData(problems)
    return {name: headers[0] for name, headers in found.items()}


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
    ints = None if text is None else _cast_integers(text)
    if text is None or ints is None or not len(ints) or int(np.abs(ints).max()) >= _ID_LIMIT:
        return None
    # Arrow's cast reads "007", "-0" and "0x10" too: those start with 0 or -0.
    longer: Any = pc.greater(pc.binary_length(text), pa.scalar(1))
    zero_first = pc.and_(pc.starts_with(text, "0"), longer)
    if pc.any(zero_first).as_py() or pc.any(pc.starts_with(text, "-0")).as_py():
        return None
    return ints


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
    trimmed: Any = pieces.combine_chunks()
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
