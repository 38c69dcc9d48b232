"""`make bench`'s floor (tests/bench/floor.py) writes a table as wide as `score`'s, in
the same column order, from either kind of input: otherwise floor / DuckDB would
measure less writing than `score` does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from duplicate.scoring.score_table import SCORE_COLUMNS
from tests.conftest import ROOT, SAMPLE

FLOOR = ROOT / "tests" / "bench" / "floor.py"


@pytest.mark.parametrize("source", ["big2_event.csv", "big2_event.parquet"])
def test_floor_writes_as_many_columns_as_score(source: str, tmp_path: Path) -> None:
    target = tmp_path / "floor.parquet"
    subprocess.run([sys.executable, str(FLOOR), str(SAMPLE / source), str(target)], check=True)
    written = pq.ParquetFile(target)
    results = pq.ParquetFile(SAMPLE / "big2_event.parquet")
    assert written.schema_arrow.names == list(SCORE_COLUMNS)
    assert written.metadata.num_rows == results.metadata.num_rows
