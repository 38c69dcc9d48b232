"""`event init|add|adjustments|status`: an event folder that grows round by round."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duplicate.event import EventInfo
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.io.event import Added, Stored


def event_init(
    folder: str | Path,
    name: str,
    date: str,
    game: str,
    table_size: int,
    venue: str = "",
    players: str | Path | None = None,
    rules: Rules | None = None,
    **settings: Any,
) -> list[Path]:
    """Make an event folder: its description, rules (`rules`, a `rules_file`, and any
    rules setting by keyword) and players; the files made."""
    from duplicate.io.event import init_event
    from duplicate.rules import load_rules

    rules_file = settings.pop("rules_file", None)
    start = load_rules(rules_file) if rules_file is not None else rules or Rules()
    info = EventInfo(name, date, game, table_size, venue)
    return init_event(folder, info, start.with_settings(**settings), players)


def event_add(
    folder: str | Path,
    upload: str | Path,
    round_number: int | None = None,
    replace: bool = False,
    encoding: str | None = None,
    sheet: str | None = None,
    formulas: str | None = None,
) -> Added:
    """Check a round's upload against the event (known players, the round's published
    seating, the rounds before) and store it as accepted; `replace` stores a corrected
    upload of a round already in (the earlier one is kept)."""
    from duplicate.io.event import add_round

    return add_round(folder, upload, round_number, replace, encoding, sheet, formulas)


def event_adjustments(
    folder: str | Path,
    adjustments: str | Path,
    replace: bool = False,
    encoding: str | None = None,
    sheet: str | None = None,
    formulas: str | None = None,
) -> Stored:
    """Store the arbiter's corrections in the event (each checked to name a result of
    it): every command on the folder then applies them, printed cards included."""
    from duplicate.io.event import store_adjustments

    return store_adjustments(folder, adjustments, replace, encoding, sheet, formulas)


@dataclass(frozen=True)
class StoredRound:
    round: int
    rows: int
    sha256: str


@dataclass(frozen=True)
class EventStatus:
    """What an event folder holds, and whether its log's chain is intact."""

    folder: str
    info: EventInfo
    rounds: tuple[StoredRound, ...]
    seatings: tuple[int, ...]
    replaced: tuple[str, ...]
    log_entries: int
    chain_intact: bool
    adjustments: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "event": asdict(self.info),
            "rounds": [asdict(r) for r in self.rounds],
            "seatings": list(self.seatings),
            "adjustments": self.adjustments,
            "replaced": list(self.replaced),
            "log": {"entries": self.log_entries, "chain_intact": self.chain_intact},
        }


def event_status(folder: str | Path) -> EventStatus:
    """Each round as stored, the published seatings, the files replaced, the log."""
    from duplicate.io.event import event_status as found

    status = found(folder)
    return EventStatus(
        str(folder),
        EventInfo(**status["event"]),
        tuple(StoredRound(**r) for r in status["rounds"]),
        tuple(status["seatings"]),
        tuple(status["replaced"]),
        status["log"]["entries"],
        status["log"]["chain_intact"],
        status["adjustments"],
    )
