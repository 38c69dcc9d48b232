"""The words a game's players use, for what people read (a table at a terminal, the text
of `explain`): a deal is a "board" in bridge and its seats are compass points; card
games keep "deal" and seat numbers. The columns of files and pipes keep their names
whatever the game (docs/output.md), so that what reads them goes on working.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from duplicate.event import Event


@dataclass(frozen=True)
class Words:
    """What a game calls a deal, and its seats (by seat number, when it names them)."""

    deal: str = "deal"
    seats: tuple[str, ...] = ()

    def heading(self, column: str) -> str:
        """A column's heading in these words: deal, deals and deal_rank become board,
        boards and board_rank in bridge."""
        if column == "deal" or column.startswith(("deal_", "deals")):
            return self.deal + column[len("deal") :]
        return column

    def seat(self, text: str) -> str:
        """A seat as the game's players say it: 0 is N in bridge; as it is otherwise."""
        if self.seats and text.isdigit() and int(text) < len(self.seats):
            return self.seats[int(text)]
        return text


CARD_GAMES = Words()
BRIDGE = Words("board", ("N", "E", "S", "W"))


def words_of(event: Event | None) -> Words:
    """Bridge's words for an event read from a bridge session (PBN, USEBIO), an event
    folder of bridge, or results seated by direction (every seat NS or EW, as `import`
    writes a session); the card games' otherwise."""
    if event is None:
        return CARD_GAMES
    bridge = any(part.role == "session" for part in event.parts) or (
        event.info is not None and event.info.game == "bridge"
    )
    return BRIDGE if bridge or _seated_by_direction(event) else CARD_GAMES


def _seated_by_direction(event: Event) -> bool:
    seat = None if event.results is None else event.results.columns.get("seat")
    if seat is None or not hasattr(seat, "type"):
        return False  # seat numbers (an integer array): a card game's
    import pyarrow.compute as pc

    return by_direction(pc.unique(seat).to_pylist())


def by_direction(seats: Iterable[object]) -> bool:
    """Whether results are seated by direction, as a bridge pairs session is: every
    seat NS or EW."""
    found = {str(seat) for seat in seats}
    return bool(found) and found <= DIRECTIONS


# The seats of a bridge pair: a session's North-South and East-West.
DIRECTIONS = frozenset({"NS", "EW"})
