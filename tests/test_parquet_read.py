"""A Parquet file read row group by row group is the table Arrow's to_pandas gives."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duplicate.io import parquet_columns, read

NUMBER_TYPES = [pa.int64(), pa.int32(), pa.uint8(), pa.float64(), pa.float32()]


@st.composite
def tables(draw: st.DrawFn) -> pa.Table:
    """Number columns of several types, some with missing values, beside text."""
    n = draw(st.integers(1, 40))
    columns: dict[str, pa.Array] = {}
    for i, kind in enumerate(draw(st.lists(st.sampled_from(NUMBER_TYPES), min_size=1, max_size=4))):
        values = draw(st.lists(st.integers(0, 200), min_size=n, max_size=n))
        missing = (
            draw(st.lists(st.booleans(), min_size=n, max_size=n)) if draw(st.booleans()) else None
        )
        mask = None if missing is None else np.array(missing)
        columns[f"c{i}"] = pa.array(np.array(values), mask=mask).cast(kind)
    if draw(st.booleans()):
        columns["text"] = pa.array([f"p{v}" for v in range(n)], pa.string())
    if draw(st.booleans()):
        columns["area"] = pa.array(["A", "B"] * (n // 2) + ["A"] * (n % 2)).dictionary_encode()
    return pa.table(columns)


def usual(path: Path) -> pd.DataFrame:
    return pq.read_table(path).to_pandas(self_destruct=True, split_blocks=True)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(table=tables(), group_rows=st.integers(1, 15), threads=st.integers(1, 3))
def test_row_groups_read_in_parallel_give_the_usual_frame(
    tmp_path: Path, table: pa.Table, group_rows: int, threads: int
) -> None:
    path = tmp_path / "t.parquet"
    pq.write_table(table, path, row_group_size=group_rows)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parquet_columns, "READING_THREADS", threads)
        frame = read._read_parquet(str(path), str(path))
    expected = usual(path)
    pd.testing.assert_frame_equal(frame, expected, check_exact=True)
    assert list(frame.dtypes) == list(expected.dtypes)


def test_files_the_fast_read_leaves_to_arrow(tmp_path: Path) -> None:
    frame = pd.DataFrame({"player": ["a", "b", "c"], "score": [1, 2, 3]})
    indexed = tmp_path / "indexed.parquet"
    frame.set_index("player").to_parquet(indexed, row_group_size=1)
    # pandas stored `player` as an index: only to_pandas restores it.
    assert read._read_parquet_file(str(indexed)) is None
    assert read._read_parquet(str(indexed), "x").index.tolist() == ["a", "b", "c"]
    single = tmp_path / "single.parquet"
    frame.to_parquet(single)
    assert read._read_parquet_file(str(single)) is None
    several = tmp_path / "several.parquet"
    frame.to_parquet(several, row_group_size=2)
    fast = read._read_parquet_file(str(several))
    assert fast is not None
    pd.testing.assert_frame_equal(fast, usual(several))


def several_groups(path: Path, scores: list[int]) -> Path:
    frame = pd.DataFrame({"player": [f"p{i}" for i in range(len(scores))], "score": scores})
    frame.to_parquet(path, row_group_size=2)
    return path


def test_a_file_read_ahead_is_the_file_read(tmp_path: Path) -> None:
    path = str(several_groups(tmp_path / "ahead.parquet", [5, 6, 7]))
    threads: list[str] = []
    read_file = parquet_columns._read

    def reading(at: str) -> parquet_columns.NumberColumns | None:
        threads.append(threading.current_thread().name)
        return read_file(at)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parquet_columns, "_read", reading)
        with parquet_columns.prefetching(path):
            frame = read._read_parquet(path, path)
        # After the block, a read reads afresh.
        again = read._read_parquet(path, path)
    assert threads == ["prefetch", "MainThread"]
    pd.testing.assert_frame_equal(frame, usual(Path(path)))
    pd.testing.assert_frame_equal(again, frame)
    assert parquet_columns._started == {}


def test_a_file_changed_after_it_was_read_ahead_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "changed.parquet"
    several_groups(path, [1, 2, 3])
    with parquet_columns.prefetching(str(path)):
        parquet_columns._started[str(path)][1].result()
        several_groups(path, [4, 5, 6, 7])
        numbers = parquet_columns.read_number_columns(str(path))
    assert numbers is not None
    assert numbers.numbers["score"].tolist() == [4, 5, 6, 7]


def test_what_reading_ahead_raises_is_raised_by_the_read(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.parquet"
    path.write_bytes(b"PAR1 not really Parquet PAR1")
    with parquet_columns.prefetching(str(path)), pytest.raises(pa.ArrowInvalid) as ahead:
        parquet_columns.read_number_columns(str(path))
    with pytest.raises(pa.ArrowInvalid) as afresh:
        parquet_columns.read_number_columns(str(path))
    assert str(ahead.value) == str(afresh.value)


def test_only_a_local_parquet_file_is_read_ahead(tmp_path: Path) -> None:
    text = tmp_path / "results.csv"
    text.write_text("player,score\na,1\n", encoding="utf-8")
    folder = tmp_path / "dataset"
    folder.mkdir()
    several_groups(folder / "part.parquet", [1, 2, 3])
    for path in ("-", str(text), str(folder), str(tmp_path / "missing.parquet")):
        with parquet_columns.prefetching(path):
            assert parquet_columns._started == {}
