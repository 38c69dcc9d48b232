"""`duplicate leaderboard`: a points race over many games (004_*.txt)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.cli.common import emit, input_help, reports_errors
from duplicate.cli.settings import settings_options


def register(app: typer.Typer) -> None:
    app.command(name="leaderboard")(leaderboard)


@reports_errors
@settings_options("source", "output", skip=("adjustments", "players", "rules_file"))
def leaderboard(
    games: Annotated[
        str,
        typer.Argument(
            metavar="GAMES",
            help=input_help("One row per player per game"),
        ),
    ],
    scheme: Annotated[
        str,
        typer.Option(
            "--scheme",
            help="xiangqi, go, gomoku, guandan, shengji, doudizhu, or a TOML file with "
            "[points] win = 3 ...",
        ),
    ] = "xiangqi",
    *,
    settings: dict[str, Any],
) -> None:
    """Total each player's points over their games; equal totals go to the first to finish.

    Columns: player, game_id, finished_at, and outcome (win/draw/loss) or the game's own
    fields (guandan: outcome and finish 1-2|1-3|1-4; shengji: role dealer|defender and
    defender_points; doudizhu: role, bid, bombs, rocket, spring, won).

    Example: duplicate leaderboard games.csv --scheme guandan
    """
    import duplicate

    table = duplicate.leaderboard(
        games,
        scheme,
        encoding=settings.get("encoding"),
        sheet=settings.get("sheet"),
        formulas=settings.get("formulas"),
    )
    emit(table, f"leaderboard {scheme}", settings)
