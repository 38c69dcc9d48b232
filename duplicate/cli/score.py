"""`duplicate score`: per-deal matchpoints, MP%, deal ranks and rank points."""

from __future__ import annotations

import typer

from duplicate.cli.result_table import result_table_command

score = result_table_command(
    "score",
    """Score every result: group size n, matchpoints, top, MP%, deal rank, rank points.

    Example: duplicate score results.csv -o scores.parquet
    """,
)


def register(app: typer.Typer) -> None:
    app.command(name="score")(score)
