"""Where the scoring runs: here (the default), or on a Dask cluster."""
