"""`game-score`: each row's score from what happened at the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from duplicate.actions.common import event_of
from duplicate.output import Table
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.games.registry import Game


def game_score(source: Any, game: str | Game, rules: Rules | None = None, **settings: Any) -> Table:
    """The raw outcomes with their `score` column, computed by `game`'s rules (big2,
    doudizhu, paohuzi), or checked where the file already has one: every difference
    is an error. The table is ready for `score` and `standings`.

        >>> import duplicate
        >>> duplicate.game_score("raw.csv", "big2").frame  # doctest: +SKIP
    """
    from duplicate.games.registry import game as game_named
    from duplicate.games.scores import scored_raw

    chosen = game_named(game)
    event = event_of(source, rules, kind="raw", **settings)
    results = event.needs_results("game-score")
    assert event.outcomes is not None
    table = scored_raw(results, event.outcomes, chosen, event.rules)
    return Table("results", event.rules, table, {"game": chosen.name}, event)
