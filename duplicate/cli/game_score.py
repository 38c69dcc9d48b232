"""`duplicate game-score`: scores from what happened at the table."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.cli.common import emit, input_help, load, reports_errors
from duplicate.cli.settings import one_of, settings_options
from duplicate.games.registry import names as game_names

GameChoice = one_of(game_names(scored_only=True))


def register(app: typer.Typer) -> None:
    app.command(name="game-score")(game_score)


@reports_errors
@settings_options("game", "source", "output", skip=("adjustments", "players"), also=("deal_scope",))
def game_score(
    raw: Annotated[
        str,
        typer.Argument(
            metavar="RAW",
            help=input_help("Raw outcomes (cards left, bids, huxi ...)"),
        ),
    ],
    game: Annotated[
        GameChoice,  # type: ignore[valid-type]
        typer.Option("--game", "-g", help="The game whose rules give the scores."),
    ],
    *,
    settings: dict[str, Any],
) -> None:
    """Add the score column computed from raw outcomes, ready for score and standings.

    big2: cards_left, open, doubled.  doudizhu: role, bid, bombs, rocket, spring, won.
    paohuzi: winner, huxi, fan.  With round, deal, table, seat, player on every row.
    A score column already in RAW is checked instead: every difference is listed.

    Example: duplicate game-score --game big2 raw.csv -o results.csv
    """
    import duplicate

    event = load(raw, settings, kind="raw")
    table = duplicate.game_score(event, game)
    emit(table, f"game-score {game}", settings)
