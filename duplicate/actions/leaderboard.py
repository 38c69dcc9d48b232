"""`leaderboard`: a points race over many games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from duplicate.output import Table
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.games.leaderboard import Scheme


def leaderboard(
    source: Any,
    scheme: str | Scheme = "xiangqi",
    encoding: str | None = None,
    sheet: str | None = None,
    formulas: str | None = None,
) -> Table:
    """Each player's points over their games (one row per player per game), by
    `scheme` (xiangqi, go, gomoku, guandan, shengji, doudizhu, or a TOML file with
    [points] win = 3 ...); equal totals go to the first to finish.

        >>> import duplicate
        >>> duplicate.leaderboard("games.csv", "guandan").frame  # doctest: +SKIP
    """
    from duplicate.event import Event, Part
    from duplicate.games.leaderboard import leaderboard as ranked
    from duplicate.games.leaderboard import load_scheme
    from duplicate.io.read import read_raw, source_name

    chosen = load_scheme(scheme) if isinstance(scheme, str) else scheme
    if isinstance(source, str) or hasattr(source, "__fspath__"):
        table, _ = read_raw(str(source), encoding, sheet=sheet, formulas=formulas)
        name = source_name(str(source))
        parts: tuple[Part, ...] = (Part("games", str(source), len(table)),)
    else:
        table, name, parts = source, "<games>", ()
    board = ranked(table, chosen, name)
    event = Event(name, Rules(), parts=parts)
    return Table("leaderboard", Rules(), board, {"scheme": chosen.name}, event)
