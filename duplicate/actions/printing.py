"""`print`: paper for the venue (table cards, a seating list, score cards) as PDF."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from duplicate.actions.common import event_of
from duplicate.errors import UsageError
from duplicate.event import Event
from duplicate.rules import Rules

Printable = Literal["table-cards", "seating-list", "score-cards"]


@dataclass(frozen=True)
class Printed:
    """A PDF document, and what it was printed from."""

    what: Printable
    pdf: bytes
    rules: Rules
    event: Event


def print_event(
    source: Any,
    what: Printable,
    round_number: int | None = None,
    rules: Rules | None = None,
    adjustments: Any = None,
    **settings: Any,
) -> Printed:
    """A4 pages, each headed by the event's title, date and venue: table cards and a
    seating list from a published seating of the event folder `source` (the latest, or
    round `round_number`), or every player's score card from its results (with every
    adjustment, as the standings apply them).

        >>> import duplicate
        >>> duplicate.print_event("spring", "score-cards").pdf[:4]  # doctest: +SKIP
        b'%PDF'
    """
    from duplicate.actions.score import score
    from duplicate.actions.standings import standings
    from duplicate.io.event_folder import is_event
    from duplicate.io.read import read_raw
    from duplicate.render import printed

    folder = source.folder if isinstance(source, Event) else source
    if not isinstance(folder, str | Path) or not is_event(folder):
        raise UsageError(
            f"{source} is not an event folder (see `duplicate event init`)", "print.no-event"
        )
    event = event_of(source, rules, adjustments=adjustments, **settings)
    names = _names(event)
    if what == "score-cards":
        pdf = printed.score_cards(
            score(event).frame, standings(event).frame, event.heading(), names
        )
        return Printed(what, pdf, event.rules, event)
    seating, _ = read_raw(_published(event, round_number), settings.get("encoding"))
    draw = printed.table_cards if what == "table-cards" else printed.seating_list
    return Printed(what, draw(seating.fillna(""), event.heading(), names), event.rules, event)


def _names(event: Event) -> dict[str, str]:
    players = event.players
    return {p.id: p.name for p in players} if players is not None else {}


def _published(event: Event, round_number: int | None) -> str:
    seatings = event.seatings
    if round_number is not None:
        seatings = {r: p for r, p in seatings.items() if r == round_number}
    if not seatings:
        which = f"round {round_number}" if round_number else "any round"
        raise UsageError(
            f"{event.source}/seatings holds no seating of {which}: publish one with "
            f"`duplicate seat {event.source}`",
            "print.no-seating",
        )
    return seatings[max(seatings)]
