"""`duplicate score`: per-deal matchpoints, MP%, deal ranks and rank points."""

from __future__ import annotations

import typer

from duplicate.cli.result_table import result_table_command

score = result_table_command(
    "duplicate.scoring.methods:score_batches",
    "scores",
    """Score every result: group size n, matchpoints, top, MP%, deal rank, rank points.

    Example: duplicate score results.csv -o scores.parquet
    """,
    on_dask="duplicate.engines.dask_engine:score_on_dask",
)


def register(app: typer.Typer) -> None:
    app.command(name="score")(score)
