"""A Parquet file read row group by row group is the table Arrow's to_pandas gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duplicate.io import read

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
        patch.setattr(read, "READING_THREADS", threads)
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
