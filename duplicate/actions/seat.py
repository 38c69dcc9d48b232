"""`seat`: the next round's seating (Swiss, pairs, against robots, with cuts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from duplicate.actions.common import event_of
from duplicate.errors import UsageError
from duplicate.event import Event, Part
from duplicate.limits import MAX_TABLE_SIZE
from duplicate.output import Table, with_names
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.seating.swiss import SeatingReport


@dataclass
class Seated(Table):
    """A round's seating (one row per seat: section, round, table, seat, player, bye),
    what the seating did in each section, and who a cut left out."""

    reports: list[SeatingReport] = field(default_factory=list)
    # Players cut by `keep`, in standings order: out of the event.
    cut: list[str] = field(default_factory=list)


def seat(
    source: Any = None,
    rules: Rules | None = None,
    *,
    table_size: int = 4,
    order: Literal["snake", "straight"] = "snake",
    fill: Literal["robot", "bye"] = "robot",
    round_number: int | None = None,
    seed: int | None = None,
    avoid_repeats: bool = True,
    window: int | None = None,
    partners: Any = None,
    versus_robots: bool = False,
    tie_rule: Literal["standings", "registration"] = "standings",
    keep: int | None = None,
    force: bool = False,
    **settings: Any,
) -> Seated:
    """The seating of the round after the last one in `source` (results so far, or an
    event folder), by the standings; round 1 (`round_number=1`) is drawn at random from
    the players file with `seed`.

    `players` (a setting): the registered players (withdrawn players are left out, late
    entries join below everyone); an event folder's own by default. `partners`: a file
    of player, partner (pairs sit opposite). `keep`: Swiss with cuts.

        >>> import duplicate
        >>> duplicate.seat("sample_data/big2_event.csv").frame.head()  # doctest: +SKIP
    """
    from duplicate.seating.next_round import seat_next_round

    _refuse_bad_options(keep, round_number, window, table_size, force)
    drawn = round_number == 1
    if drawn and source is not None and not _is_event_folder(source):
        raise UsageError(
            "{opt:round_number=1} draws from the players file; give no results", "seat.drawn"
        )
    if drawn and seed is None:
        raise UsageError(
            "{opt:round_number=1} needs {opt:seed}, so that the draw can be repeated",
            "seat.no-seed",
        )
    if source is None and not drawn:
        raise UsageError(
            "give the results so far, or {opt:round_number=1} with {opt:players} and {opt:seed}",
            "seat.no-results",
        )
    if round_number is not None and not drawn:
        raise UsageError(
            "{opt:round_number} is only for drawing round 1; later rounds follow the results",
            "seat.round",
        )
    event = _event(source, rules, drawn, settings)
    _refuse_bridge(event, drawn, table_size)
    pairs, pair_part = _partners(partners, settings.get("encoding"))
    players = event.players
    seating = seat_next_round(
        None if drawn else event.needs_results("seat"),
        event.rules,
        players=players.frame() if players is not None else None,
        table_size=table_size,
        order=order,
        fill=fill,
        seed=seed,
        avoid_repeats=avoid_repeats,
        window=window,
        partners=pairs,
        versus_robots=versus_robots,
        adjustments=event.adjustments,
        keep=keep,
        tie_rule=tie_rule,
    )
    notes = {"seed": str(seed)} if drawn else {}
    if keep is not None:
        notes["cut"] = ",".join(seating.cut)
    if pair_part is not None:
        event = _with_part(event, pair_part)
    return Seated(
        "seating",
        event.rules,
        with_names(seating.frame, players),
        notes,
        event,
        reports=seating.reports,
        cut=seating.cut,
    )


def _refuse_bridge(event: Event, drawn: bool, table_size: int) -> None:
    """A bridge table seats two pairs: a bridge session seated as card players are (four
    to a table, robots filling it) is refused."""
    from duplicate.games.words import BRIDGE, words_of

    if not drawn and table_size != 2 and words_of(event) is BRIDGE:
        raise UsageError(
            f"{event.source} is a bridge session: a table seats two pairs, not "
            f"{table_size}; a Mitchell or Howell moves by its movement, a Swiss pairs "
            "event is seated with {opt:table_size=2}",
            "seat.bridge",
        )


def _is_event_folder(source: Any) -> bool:
    from duplicate.io.event_folder import is_event

    return isinstance(source, str) and source != "-" and is_event(source)


def _event(source: Any, rules: Rules | None, drawn: bool, settings: dict[str, Any]) -> Event:
    """The event seated from; for a drawn round 1, its players and rules (an event
    folder's, or as given)."""
    event = event_of(source, rules, **settings)
    if drawn and event.players is None:
        raise UsageError("round 1 is drawn at random: give {opt:players}", "seat.no-players")
    return event


def _partners(partners: Any, encoding: str | None) -> tuple[dict[str, str] | None, Part | None]:
    if partners is None or isinstance(partners, dict):
        return partners, None
    from duplicate.io.read import read_raw, source_name
    from duplicate.seating.formats import parse_partners

    raw, _ = read_raw(str(partners), encoding)
    return parse_partners(raw, source_name(str(partners))), Part(
        "partners", str(partners), len(raw)
    )


def _with_part(event: Event, part: Part) -> Event:
    from dataclasses import replace

    return replace(event, parts=(*event.parts, part))


def _refuse_bad_options(
    keep: int | None, round_number: int | None, window: int | None, table_size: int, force: bool
) -> None:
    if keep is not None and (keep < 1 or round_number == 1):
        raise UsageError(
            "{opt:keep} N seats the first N >= 1 of the standings after a round", "seat.keep"
        )
    if window is not None and window < 2:
        raise UsageError(f"{{opt:window}} {window}: a window holds at least 2 ranks", "seat.window")
    if table_size < 2 or (table_size > MAX_TABLE_SIZE and not force):
        raise UsageError(
            f"{{opt:table_size}} {table_size}: a table seats 2 to {MAX_TABLE_SIZE} players "
            "({opt:force} for larger tables)",
            "seat.table-size",
        )
