"""`duplicate leaderboard`: a points race over many games (004_*.txt)."""

from __future__ import annotations

from typing import Annotated

import typer

from duplicate.cli.common import (
    EncodingOpt,
    ExcelOpt,
    FormatOpt,
    OutputOpt,
    SheetOpt,
    as_excel,
    read_table,
    refuse_overwriting_inputs,
    reports_errors,
)
from duplicate.cli.manifest import ManifestOpt, input_record, write_manifest
from duplicate.cli.output import emit


def register(app: typer.Typer) -> None:
    app.command(name="leaderboard")(leaderboard)


@reports_errors
def leaderboard(
    games: Annotated[
        str,
        typer.Argument(metavar="GAMES", help="One row per player per game (CSV or Parquet)."),
    ],
    scheme: Annotated[
        str,
        typer.Option(
            "--scheme",
            help="xiangqi, go, gomoku, guandan, shengji, doudizhu, or a TOML file with "
            "[points] win = 3 ...",
        ),
    ] = "xiangqi",
    output: OutputOpt = None,
    fmt: FormatOpt = None,
    excel: ExcelOpt = False,
    encoding: EncodingOpt = None,
    sheet: SheetOpt = None,
    manifest: ManifestOpt = None,
) -> None:
    """Total each player's points over their games; equal totals go to the first to finish.

    Columns: player, game_id, finished_at, and outcome (win/draw/loss) or the game's own
    fields (guandan: outcome and finish 1-2|1-3|1-4; shengji: role dealer|defender and
    defender_points; doudizhu: role, bid, bombs, rocket, spring, won).

    Example: duplicate leaderboard games.csv --scheme guandan
    """
    from duplicate.games.leaderboard import leaderboard as rank
    from duplicate.games.leaderboard import load_scheme
    from duplicate.io.read import source_name
    from duplicate.rules import Rules

    table, _ = read_table(games, encoding, sheet)
    refuse_overwriting_inputs(manifest, [games], "--manifest")
    written = emit(
        rank(table, load_scheme(scheme), source_name(games)),
        output=output,
        fmt=as_excel(fmt, excel),
        rules=Rules(),
        kind="leaderboard",
        inputs=[games],
    )
    if manifest is not None:
        write_manifest(
            manifest,
            command=f"leaderboard {scheme}",
            rules=Rules(),
            inputs=[input_record("games", games, len(table))],
            outputs=written,
        )
