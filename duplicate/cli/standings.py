"""`duplicate standings`: the final order with every tie-break."""

from __future__ import annotations

import typer

from duplicate.cli.result_table import result_table_command

standings = result_table_command(
    "duplicate.scoring.methods:standings_batches",
    "standings",
    """Rank the players: total rank points, then beaten_avg, rank_counts, play times.

    decided_by names the criterion that put each player below the one above;
    playoff marks players still tied after every tie-break.

    Example: duplicate standings results.csv -o standings.csv
    """,
    on_dask="duplicate.engines.dask_engine:standings_on_dask",
)


def register(app: typer.Typer) -> None:
    app.command(name="standings")(standings)
