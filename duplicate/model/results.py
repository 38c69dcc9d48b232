"""Turn a table as read (any dtypes, any header spelling) into typed, validated results."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.errors import InvalidData, Problem
from duplicate.model.arrays import arrow_array
from duplicate.model.cells import SCORE_HINT, SECONDS_HINT, Cells, RawColumns, raw_columns
from duplicate.model.codes import (
    combine,
    compact_codes,
    dense_codes,
    one_chunk,
    sorting_codes,
)
from duplicate.model.columns import (
    KNOWN,
    PLAY_COLUMNS,
    RAW_REQUIRED,
    REQUIRED,
    canonical_name,
    compared,
    unused_headers,
)
from duplicate.model.exact import CodeArray
from duplicate.model.numbers import (
    Units,
)
from duplicate.model.validation import structural_problems

if TYPE_CHECKING:
    import pandas as pd


# A column of the results as held: identifiers and numbers as numpy arrays, text
# identifiers as one Arrow large_string array, and a file without a section column's
# one empty section as an Arrow dictionary (no text per row).
Column = Any


# Compared by identity (eq=False): arrays have no single truth value to compare by.
@dataclass(frozen=True, eq=False)
class Results:
    """Validated results: one row per player per deal, with exact integer scores.

    `columns` holds section, round, deal, table, seat, player (identifiers: int64 when
    every value is a plain integer, else Arrow text), score_units and seconds_units
    (the value times 10**scale, exactly), and row (the row number used in messages).
    `frame` is the same as a pandas DataFrame, made when first asked for.
    """

    columns: dict[str, Column]
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
    # What reading the file warned of (an .xlsx sheet's formulas read as saved).
    read_warnings: tuple[Problem, ...] = ()
    # Not init fields: dataclasses.replace(results, columns=...) must start a fresh cache.
    _codes: dict[str, tuple[CodeArray, int]] = field(default_factory=dict, init=False, repr=False)
    _keys: dict[tuple[str, ...], tuple[CodeArray, int]] = field(
        default_factory=dict, init=False, repr=False
    )
    _sorting: dict[str, tuple[CodeArray, int]] = field(default_factory=dict, init=False, repr=False)
    _facts: dict[tuple[str, ...], bool] = field(default_factory=dict, init=False, repr=False)

    def __len__(self) -> int:
        return len(self.columns["row"])

    @property
    def play_columns(self) -> tuple[str, ...]:
        """The PLAY_COLUMNS the results carry (text, as the session wrote them)."""
        return tuple(name for name in PLAY_COLUMNS if name in self.columns)

    @functools.cached_property
    def frame(self) -> pd.DataFrame:
        """The columns as a pandas DataFrame (text as pandas' str, a missing section as
        a category), for the callers that work in pandas."""
        return frame_of(self.columns)

    def numbers(self, column: str) -> np.ndarray:
        """An integer column (round, score_units, seconds_units, row, or an integer
        identifier) as numpy."""
        values: np.ndarray = self.columns[column]
        return values

    def fact(self, name: tuple[str, ...], decide: Callable[[], bool]) -> bool:
        """A fact about the results that more than one check asks (say, whether every
        deal of a round is seated alike), decided once."""
        if name not in self._facts:
            self._facts[name] = decide()
        return self._facts[name]

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
            own = sorting_codes(self.columns[column])
            self._sorting[column] = own if own is not None else self.codes(column)
        return self._sorting[column]

    def codes(self, column: str) -> tuple[CodeArray, int]:
        """Ordered dense codes of a column, computed once and shared by every step.

        Compact (int8 for seats, int32 for players...): combine them before arithmetic.
        """
        if column not in self._codes:
            self._codes[column] = compact_codes(self.columns[column])
        return self._codes[column]

    def know_codes(self, column: str, codes: CodeArray, n: int) -> None:
        """Keep the codes of a column that a check found on its way, for codes() to
        give: they must be what it would compute (the seating check finds the players'
        codes from each round's first deal)."""
        self._codes.setdefault(column, (codes, n))


def no_section(n: int) -> Any:
    """The one empty section of n rows, as a dictionary: a byte a row, no text."""
    return pa.DictionaryArray.from_arrays(
        arrow_array(np.zeros(n, dtype=np.int8)), pa.array([""], pa.large_string())
    )


def frame_of(columns: dict[str, Column]) -> pd.DataFrame:
    """Results columns as a pandas DataFrame, without copying numbers: text as pandas'
    str (Arrow-backed), the dictionary of a missing section as a category."""
    import pandas as pd

    def series(values: Column) -> object:
        if isinstance(values, pa.DictionaryArray):
            codes = np.asarray(values.indices.to_numpy(zero_copy_only=False))
            categories = [str(v) for v in values.dictionary.to_pylist()]
            return pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype(categories))
        if isinstance(values, pa.Array | pa.ChunkedArray):
            return pd.Series(
                # (the stubs lack ArrowStringArray's dtype: that of column.astype("str"))
                pd.arrays.ArrowStringArray(  # type: ignore[call-arg]
                    pa.chunked_array([values]) if isinstance(values, pa.Array) else values,
                    dtype=pd.StringDtype("pyarrow", na_value=np.nan),
                ),
                copy=False,
            )
        return values

    return pd.DataFrame({name: series(values) for name, values in columns.items()}, copy=False)


def columns_of(frame: pd.DataFrame) -> dict[str, Column]:
    """A results frame (as Results.frame gives it, say filtered) as Results columns."""
    import pandas as pd

    columns: dict[str, Column] = {}
    for name in frame.columns:
        values = frame[name]
        if isinstance(values.dtype, pd.CategoricalDtype):
            columns[str(name)] = pa.DictionaryArray.from_arrays(
                pa.array(values.cat.codes.to_numpy()),  # type: ignore[arg-type]
                pa.array([str(c) for c in values.cat.categories], pa.large_string()),
            )
        elif isinstance(values.dtype, np.dtype):
            columns[str(name)] = values.to_numpy()
        else:
            text = pa.array(values, from_pandas=True).cast(pa.large_string())
            columns[str(name)] = one_chunk(text)
    return columns


def parse_results(
    raw: pd.DataFrame | pa.Table | RawColumns,
    source: str = "<data>",
    first_row: int = 1,
    deal_scope: str = "round",
    score_required: bool = True,
    row_numbers: np.ndarray | None = None,
    check_structure: bool = True,
    consume: bool = False,
) -> Results:
    """Validate and type a results table (Arrow, as read, or pandas); raise InvalidData
    listing every problem.

    With `check_structure` False, who sat where and played what is left to the caller
    (`check_results`): every cell is still typed and checked.

    With `consume`, each column of `raw` (RawColumns: read_results hands over its own
    table's) is let go once read: a big file's text goes column by column, not all at
    the end.

    `row_numbers` (one per row) replace first_row when the table is a part of a file.

    `first_row` is the number messages give the first data row (2 for a CSV file, whose
    header is row 1, as a spreadsheet shows it).
    """
    table = raw if isinstance(raw, RawColumns) else raw_columns(raw)
    columns = _map_columns(table.labels, source, REQUIRED if score_required else RAW_REQUIRED)
    unused = tuple(unused_headers(table.labels))
    # Rows are matched by position: a pandas table's index (say, after a shuffle) does
    # not realign the columns.
    n = len(table)
    rows = _row_numbers(first_row, n) if row_numbers is None else np.asarray(row_numbers, np.int64)
    blank = blank_rows(table)
    skipped = rows[blank] if blank is not None else rows[:0]
    if blank is not None:
        table, rows, n = table.kept(~blank), rows[~blank], int((~blank).sum())
    if n == 0:
        raise InvalidData(
            [
                Problem(
                    source,
                    "has no result rows",
                    hint="add one row per player per deal",
                    code="input.empty",
                )
            ]
        )
    play = _play_columns(table)
    cells = Cells(table, columns, rows, source, consume)
    held, score, seconds = _typed_columns(cells)
    held |= play
    if cells.problems:
        raise InvalidData(cells.problems)
    results = Results(
        columns=held,
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


def _play_columns(table: RawColumns) -> dict[str, Column]:
    """The PLAY_COLUMNS among the table's (the first of a name given twice), as text:
    an empty cell is none; a result written "'+1" (CSV output guards a cell a
    spreadsheet would run as a formula with an apostrophe) is "+1" again."""
    found: dict[str, Column] = {}
    for label, array in zip(table.labels, table.arrays, strict=True):
        name = compared(label)
        if name not in PLAY_COLUMNS or name in found or array is None:
            continue
        text = pc.utf8_trim_whitespace(one_chunk(array).cast(pa.large_string()))
        text = pc.replace_substring_regex(text, r"^'([=+@-])", r"\1")
        empty = pc.equal(text, pa.scalar("", pa.large_string()))
        found[name] = pc.if_else(empty, pa.scalar(None, pa.large_string()), text)
    return found


def _row_numbers(first_row: int, n: int) -> np.ndarray:
    """The numbers messages give n rows from first_row on: int32 while it holds them
    (half the memory of int64 at millions of rows)."""
    return np.arange(
        first_row, first_row + n, dtype=np.int32 if first_row + n < 2**31 else np.int64
    )


def _typed_columns(cells: Cells) -> tuple[dict[str, object], Units, Units | None]:
    """The columns of the results frame (row numbers, section, identifiers and units),
    with the score's and play time's units (no score column: all 0; no play times:
    None); bad cells are left in cells.problems."""
    columns, n = cells.columns, len(cells.rows)
    frame: dict[str, object] = {"row": cells.rows, "section": cells.section()}
    for name in ("round", "deal", "table", "seat", "player"):
        if name in columns:
            frame[name] = cells.identifier(name)
    if "round" not in columns:
        frame["round"] = np.ones(n, dtype=np.int64)
    score = (
        cells.units("score", "is not a number", SCORE_HINT, "cell.not-a-score")
        if "score" in columns
        else Units(np.zeros(n, dtype=np.int64), 0, np.zeros(n, dtype=bool))
    )
    frame["score_units"] = score.units
    seconds = None
    if "seconds" in columns:
        seconds = cells.units(
            "seconds", "is not a time in seconds >= 0", SECONDS_HINT, "cell.not-a-play-time", True
        )
        frame["seconds_units"] = seconds.units
    return frame, score, seconds


def blank_rows(table: RawColumns) -> np.ndarray | None:
    """Which rows have every cell empty or missing; None when none has (usually found
    from the first column alone)."""
    blank: np.ndarray | None = None
    for column in table.arrays:
        if column is None:
            continue
        kind = column.type
        nothing: Any = pc.is_null(column, nan_is_null=True)
        if pa.types.is_string(kind) or pa.types.is_large_string(kind):
            # Empty, or spaces only: bitmaps, no copy of the text.
            empty = pc.equal(column, pa.scalar("", kind))
            either: Any = pc.or_(empty, pc.utf8_is_space(column))
            nothing = pc.fill_null(either, True)
        here = np.asarray(one_chunk(nothing).to_numpy(zero_copy_only=False), dtype=bool)
        blank = here if blank is None else blank & here
        if not blank.any():
            return None
    return blank


def check_results(results: Results) -> None:
    """Raise InvalidData listing every seating or duplication problem in `results`."""
    problems = structural_problems(results, results.deal_scope)
    if problems:
        raise InvalidData(problems)


def _map_columns(
    labels: list[Hashable], source: str, required: tuple[str, ...] = REQUIRED
) -> dict[str, int]:
    """Spec name -> the position of its column among `labels`; missing or doubled
    columns are problems."""
    found: dict[str, list[str]] = {}
    positions: dict[str, int] = {}
    for position, header in enumerate(labels):
        name = canonical_name(str(header))
        if name is not None:
            found.setdefault(name, []).append(str(header))
            positions.setdefault(name, position)
    problems = [
        Problem(
            source,
            f"columns {' and '.join(repr(h) for h in headers)} both mean '{name}'",
            hint="keep one of them",
            code="column.repeated",
        )
        for name, headers in found.items()
        if len(headers) > 1
    ]
    missing = [name for name in required if name not in found]
    if missing:
        have = ", ".join(repr(str(c)) for c in labels) or "none"
        problems.append(
            Problem(
                source,
                f"missing required column{'s' if len(missing) > 1 else ''} "
                f"{', '.join(missing)} (columns found: {have})",
                hint=f"the header needs {', '.join(required)}; optional: "
                f"{', '.join(c for c in KNOWN if c not in required)}",
                code="column.missing",
            )
        )
    if problems:
        raise InvalidData(problems)
    return {name: positions[name] for name in found}
