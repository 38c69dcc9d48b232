"""Pure computation: DataFrames in, DataFrames out; no files, no printing, no exit."""
