"""`elimination` and `final`: the platform's stage formats, from a hand log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from duplicate.actions.common import event_of
from duplicate.output import Table, with_names
from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.errors import Problem
    from duplicate.event import Event


@dataclass(kw_only=True)
class StageTable(Table):
    """A stage's standings, with every payment (the ledger) and every player's chips
    after each of their hands (the history)."""

    ledger: pd.DataFrame
    history: pd.DataFrame


def elimination(source: Any, rules: Rules | None = None, **settings: Any) -> StageTable:
    """Stage standings of stack elimination (打立出局) from a hand log: payments
    minimized, players below the limit out, the first `advance` places qualifying with
    what they carry. `settings`: the stage settings (`start`, `base`, `advance`, ...) and
    `players` (registration settles equal results).

        >>> import duplicate
        >>> stage = duplicate.elimination("sample_data/stage_example.csv", advance=3)
        >>> stage.frame[["place", "player", "chips"]]  # doctest: +SKIP
    """
    from duplicate.stages.elimination import eliminate

    event = event_of(source, rules, kind="hands", **settings)
    # The rules published are the rules played: the base in force, as used.
    used = event.rules.with_settings(base=event.rules.stage.elimination_base())
    stage = eliminate(event.needs_hands("elimination"), used.stage, _registration(event))
    return StageTable(
        "standings",
        used,
        with_names(stage.standings, event.players),
        event=event,
        ledger=stage.ledger,
        history=stage.history,
    )


def final(
    source: Any,
    hands: int,
    carried: Any = None,
    rules: Rules | None = None,
    **settings: Any,
) -> Table:
    """Standings of a fixed-hand final (定局积分制): carried points plus each hand's
    score times the base (1 a point unless the rules set a base). Players short of
    `hands` hands get no place; equal totals go by the last hand, then registration.
    `carried`: player -> points, or a file with player and carried columns (the
    elimination output as it is).

        >>> import duplicate
        >>> duplicate.final("final.csv", hands=6, carried="stage.csv").frame  # doctest: +SKIP
    """
    from duplicate.io.read import source_name
    from duplicate.stages.final import CARRIED, check_hands, final_standings

    check_hands(hands)
    event = event_of(source, rules, kind="hands", **settings)
    used = event.rules.with_settings(base=event.rules.stage.final_base())
    points, part = _carried(carried, settings.get("encoding"))
    table = final_standings(
        event.needs_hands("final"),
        hands,
        points,
        used.stage.final_base(),
        _registration(event),
        CARRIED if part is None else source_name(part.path),
    )
    from dataclasses import replace

    if part is not None:
        event = replace(event, parts=(*event.parts, part))
    short = _hands_short(table, hands, event.source)
    if short is not None:
        event = replace(event, warnings=(*event.warnings, short))
    notes = {"hands": str(hands)}
    return Table("standings", used, with_names(table, event.players), notes, event)


def _hands_short(table: pd.DataFrame, hands: int, source: str) -> Problem | None:
    """A warning when players have played fewer than the final's hands: they have no
    place yet (a final under way, or a wrong number of hands)."""
    played = table["hands"].dropna()
    short = int((played < hands).sum())
    if not short:
        return None
    from duplicate.errors import Problem

    most = int(played.max()) if len(played) else 0
    return Problem(
        source,
        f"the final is of {hands} hands, and {short} of {len(table)} players have played "
        f"fewer (at most {most}): they have no place until they have played all {hands}",
        hint="give the number of hands of the final ({opt:hands}); a final under way "
        "shows its totals so far",
        code="final.hands-short",
    )


def stage_payments(stage: StageTable, player: str) -> pd.DataFrame:
    """The payments a player made or received, each with its cap and the chips after."""
    from duplicate.stages.elimination import player_payments

    return player_payments(stage.ledger, player)


def final_hands(source: Any, player: str, rules: Rules | None = None, **settings: Any) -> Table:
    """Every hand behind a finalist's total: hand, table, score, base and points."""
    from duplicate.stages.final import final_hands as hands_of

    event = event_of(source, rules, kind="hands", **settings)
    used = event.rules.with_settings(base=event.rules.stage.final_base())
    table = hands_of(event.needs_hands("final"), player, used.stage.final_base())
    return Table("hands", used, table, event=event)


def _registration(event: Event) -> dict[str, int] | None:
    return event.players.registration() if event.players is not None else None


def _carried(carried: Any, encoding: str | None) -> tuple[dict[str, int] | None, Any]:
    """Carried points: as given, or read from a file (and the file as a part)."""
    if carried is None or isinstance(carried, dict):
        return carried, None
    from duplicate.event import Part
    from duplicate.io.read import read_raw, source_name
    from duplicate.stages.final import carried_points

    table, _ = read_raw(str(carried), encoding)
    return carried_points(table, source_name(str(carried))), Part(
        "carried", str(carried), len(table)
    )
