"""Reading and writing result files: the only layer that touches the file system."""

import os

# Threads that read or encode the row groups of one Parquet file at once: one per core,
# at most 4, as each holds a row group (up to 2**20 rows) in memory.
PARQUET_THREADS = max(1, min(4, os.cpu_count() or 1))
