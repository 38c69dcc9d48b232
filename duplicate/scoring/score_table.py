"""The `score` table as Arrow builds it: the columns of some rows, in a stable order
and types, exact decimals held as their integers. Every writer and the pandas view
(`ScoreBatches.to_frame`) read these tables; nothing else builds them."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from duplicate.model.arrays import arrow_array
from duplicate.model.codes import is_pandas, one_chunk
from duplicate.model.columns import PLAY_COLUMNS
from duplicate.model.exact import IntArray, decimal_array
from duplicate.model.results import Results
from duplicate.model.text_bytes import TakenRows

if TYPE_CHECKING:
    import pandas as pd

# Whose result a row is and what it was: the first columns of every score table.
RESULT_COLUMNS = ("section", "round", "deal", "table", "seat", "player", "score", "seconds")
SCORE_COLUMNS = (
    *RESULT_COLUMNS,
    "n",
    "mp",
    "top",
    "mp_pct",
    "deal_rank",
    "rank_points",
    "adjustment",
)
# A player's own view of a deal: the score columns without who and where they sat.
PLAYER_DEAL_COLUMNS = tuple(c for c in SCORE_COLUMNS if c not in ("section", "player"))


# The per-row numbers the matchpoint columns of `score` are made from.
MATCHPOINT_NUMBERS = ("n", "mp", "top", "mp_pct_centi", "deal_rank", "points")
IDENTIFIERS = ("section", "deal", "table", "seat", "player")


class ScoreBatches(NamedTuple):
    """The table `score` gives, as consecutive Arrow tables (all of it, in order).

    `nullable` names the columns that miss a value on some row of any batch, so that a
    writer can declare the whole table's schema before the first batch.
    """

    batches: Iterator[pa.Table]
    nullable: set[str]
    # Rows in all, when known before the batches are made.
    rows: int | None = None

    def tables(self) -> Iterator[pa.Table]:
        return self.batches

    @classmethod
    def whole(cls, table: pa.Table) -> ScoreBatches:
        """A table computed whole, as one batch."""
        nullable = {n for n in table.column_names if table.column(n).null_count}
        return cls(iter([table]), nullable, len(table))

    def to_table(self) -> pa.Table:
        """The batches as one Arrow table."""
        return pa.concat_tables(list(self.batches))

    def to_frame(self) -> pd.DataFrame:
        """The table as pandas (what `score` returns): Arrow-backed columns, missing
        values as <NA>; a column the input lacks (no table, no seconds) is all missing."""
        return frame_view(self.to_table())


def frame_view(table: pa.Table) -> pd.DataFrame:
    """An Arrow table as a pandas frame of Arrow-backed columns, exact decimals kept
    (dictionary columns, such as a missing section, as categories)."""
    import pandas as pd

    return table.to_pandas(
        types_mapper=lambda kind: None if pa.types.is_dictionary(kind) else pd.ArrowDtype(kind)
    )


# Columns by name: the results' own (Results.columns), or a pandas frame of them.
Columns = Mapping[str, Any] | Any


def identifier_arrays(columns: Columns, results: Results) -> dict[str, TakenRows]:
    """The identifier columns, as Arrow arrays of one chunk each (Arrow takes rows from
    a chunked array index by index, chunk by chunk), ready to take rows from."""
    arrays: dict[str, TakenRows] = {}
    for name in IDENTIFIERS:
        if name == "table" and not results.has_table:
            continue
        arrays[name] = TakenRows.of(one_chunk(_arrow(columns[name])))
    return arrays


def _arrow(values: Any) -> pa.Array[Any] | pa.ChunkedArray[Any]:
    """A column as Arrow: Arrow's own as it is, numpy and pandas without a copy where
    they can."""
    if isinstance(values, pa.Array | pa.ChunkedArray):
        return values
    if is_pandas(values):
        return pa.Array.from_pandas(values)
    return arrow_array(values) if isinstance(values, np.ndarray) else pa.array(values)


def result_arrays(
    results: Results,
    identifiers: dict[str, TakenRows],
    rows: IntArray | slice,
    columns: Columns | None = None,
) -> dict[str, pa.Array[Any]]:
    """The RESULT_COLUMNS of `rows`, whose result each is and what it was, as every
    scoring method writes them: identifiers taken from `identifiers`, round and the
    exact numbers from `columns` (the results' own by default); and the play columns
    the results carry (a session's contracts), text as written."""
    held = results.columns if columns is None else columns
    n = rows.stop - rows.start if isinstance(rows, slice) else len(rows)

    def numbers(name: str) -> IntArray:
        return np.asarray(held[name])[rows]

    seconds = numbers("seconds_units") if results.has_seconds else None
    return {
        **{name: values.take(rows) for name, values in identifiers.items()},
        **({} if results.has_table else {"table": pa.nulls(n, pa.large_string())}),
        **unit_arrays(numbers("round"), numbers("score_units"), seconds, results),
        **play_arrays(results, rows, held),
    }


def play_arrays(results: Results, rows: IntArray | slice, columns: Columns) -> dict[str, Any]:
    """The play columns of `rows` (the results' PLAY_COLUMNS found in `columns`)."""
    taken: dict[str, Any] = {}
    for name in results.play_columns:
        if name in columns:
            values = one_chunk(_arrow(columns[name])).cast(pa.large_string())
            taken[name] = TakenRows(values, None).take(rows)
    return taken


def table_of(columns: dict[str, pa.Array[Any]], names: Sequence[str]) -> pa.Table:
    """The columns as a table, in the order of `names`, then the PLAY_COLUMNS among
    them (what a session says of the play: last, never part of a number)."""
    names = [*names, *(name for name in PLAY_COLUMNS if name in columns)]
    return pa.Table.from_arrays([columns[name] for name in names], names=names)


def score_table(
    results: Results,
    identifiers: dict[str, TakenRows],
    rows: IntArray | slice,
    numbers: dict[str, Any],
    notes: np.ndarray | None,
    nullable: Collection[str],
    columns: Columns | None = None,
) -> pa.Table:
    """The `score` columns of `rows`: their result_arrays, the MATCHPOINT_NUMBERS of
    those rows and their adjustment notes. Masks are made only for `nullable`."""
    n = rows.stop - rows.start if isinstance(rows, slice) else len(rows)
    columns = {
        **result_arrays(results, identifiers, rows, columns),
        **matchpoint_arrays(numbers, nullable),
        "adjustment": adjustment_array(notes, n),
    }
    return table_of(columns, SCORE_COLUMNS)


def unit_arrays(
    round_no: IntArray, score_units: IntArray, seconds_units: IntArray | None, results: Results
) -> dict[str, pa.Array[Any]]:
    """round, score and seconds as `score` writes them (exact decimals; no seconds column
    in the results: seconds missing)."""
    n = len(round_no)
    seconds = (
        decimal_array(np.zeros(n, dtype=np.int64), results.seconds_scale, np.ones(n, dtype=bool))
        if seconds_units is None
        else decimal_array(seconds_units, results.seconds_scale)
    )
    return {
        "round": arrow_array(np.asarray(round_no)),
        "score": decimal_array(score_units, results.score_scale),
        "seconds": seconds,
    }


def matchpoint_arrays(
    numbers: dict[str, Any], nullable: Collection[str] = SCORE_COLUMNS
) -> dict[str, pa.Array[Any]]:
    """n, mp, top, mp_pct, deal_rank and rank_points from the MATCHPOINT_NUMBERS of some
    rows: -1 (left out of the comparison, void) and deal rank 0 are missing values.

    Only the columns in `nullable` are searched for them (a writer that knows no row
    misses a value skips the masks).
    """

    def missing(name: str, mask: Callable[[], npt.NDArray[np.bool_]]) -> Any:
        return mask() if name in nullable else None

    def left_out() -> npt.NDArray[np.bool_]:
        return np.asarray(numbers["n"] < 0)

    def unranked() -> npt.NDArray[np.bool_]:
        return np.asarray(numbers["deal_rank"] == 0)

    mp_scale = int(numbers.get("mp_scale", 0))
    return {
        **{
            name: arrow_array(np.asarray(numbers[name]), mask=missing(name, left_out))
            for name in ("n", "mp", "top")
            if name != "mp" or not mp_scale
        },
        # Fractional matchpoints (Neuberg) as exact decimals in hundredths.
        **(
            {"mp": decimal_array(numbers["mp"], mp_scale, missing("mp", left_out))}
            if mp_scale
            else {}
        ),
        "mp_pct": decimal_array(
            numbers["mp_pct_centi"], 2, missing("mp_pct", lambda: numbers["mp_pct_centi"] < 0)
        ),
        "deal_rank": arrow_array(
            np.asarray(numbers["deal_rank"]), mask=missing("deal_rank", unranked)
        ),
        "rank_points": decimal_array(numbers["points"], 2, missing("rank_points", unranked)),
    }


def adjustment_array(note: np.ndarray | None, n_rows: int) -> pa.Array[Any]:
    """adjustment_notes as an Arrow array (large_string, as pandas holds text)."""
    present = np.zeros(0, dtype=bool) if note is None else note != ""
    if note is None or not present.any():
        return pa.nulls(n_rows, pa.large_string())
    values = note.astype(object)
    values[~present] = None
    return pa.array(values, pa.large_string())


def adjustment_notes(note: np.ndarray | None, n_rows: int) -> pd.arrays.ArrowStringArray:
    """The adjustment texts as Arrow strings, null where there is none (or no `note`).

    An array, not a Series: it lines up with rows by position, whatever their index.
    """
    import pandas as pd

    # (pandas' stubs take string arrays only; it holds text as large_string itself)
    return pd.arrays.ArrowStringArray(adjustment_array(note, n_rows))  # type: ignore[arg-type]


def format_scores(scored: pd.DataFrame, results: Results) -> pa.Table:
    """The `score` table of rows already scored (results columns and ROW_NUMBERS), in
    their order: the Dask engine's rows, as the local engine writes them."""
    rows = slice(0, len(scored))
    numbers = {name: scored[name].to_numpy() for name in MATCHPOINT_NUMBERS}
    notes = scored["adjustment"].to_numpy(dtype=object, na_value="")
    return score_table(
        results, identifier_arrays(scored, results), rows, numbers, notes, SCORE_COLUMNS, scored
    )
