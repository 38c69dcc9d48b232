"""What any `score` made of these libraries and this Parquet writer takes at least.

`python floor.py RESULTS OUT.parquet` starts Python, imports what `duplicate` imports,
reads RESULTS with Arrow's own reader (CSV types inferred, as DuckDB does), and writes
a table as wide as `score`'s (the 7 columns read, a section, six numbers per row taken
from a small table, an empty adjustment) with `duplicate`'s Parquet writer, in the
input's order. Nothing is parsed exactly, checked, ordered or scored.

`make bench` times it beside `score` and DuckDB, on the large shapes and on the small
event: floor / DuckDB is how close to DuckDB's time `score` could come if everything it
does besides reading and writing were free (on a small event, mostly the imports).
"""

from __future__ import annotations

import sys

from duplicate.cli import process

# As `duplicate`'s entry point does, before numpy and Arrow load.
process.tune()

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.csv as pacsv  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from duplicate.io.parquet_write import ROW_GROUP_ROWS, write_parquet  # noqa: E402

NUMBERS = ("n", "mp", "top", "mp_pct", "deal_rank", "rank_points")
# Cells of the small table the numbers come from (a score's comparison groups).
CELLS = 6_000


def main(source: str, target: str) -> None:
    read = pacsv.read_csv(source) if source.endswith(".csv") else pq.read_table(source)
    n = len(read)
    cell = np.random.default_rng(0).integers(0, CELLS, n)
    table = pa.table(
        {
            "section": pa.DictionaryArray.from_arrays(
                pa.array(np.zeros(n, dtype=np.int8)), pa.array([""], pa.large_string())
            ),
            **{name: read.column(name) for name in read.column_names},
            **{
                name: pa.array((np.arange(CELLS, dtype=np.int64) * (i + 2))[cell])
                for i, name in enumerate(NUMBERS)
            },
            "adjustment": pa.nulls(n, pa.large_string()),
        }
    )
    batches = (table.slice(start, ROW_GROUP_ROWS) for start in range(0, n, ROW_GROUP_ROWS))
    write_parquet(target, batches, {"adjustment"}, {}, process.encoding_threads())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
