"""The event: everything a command computes from, loaded once (duplicate.load.load_event).

An Event holds the results (or a stage's hand log), the players (ids, names, clubs,
registration order, who has withdrawn), the published seatings, the adjustments, the
rules (scoring and stage), what the event folder says of itself, and where each part
came from (path, sha256). Every command takes an Event; every output names the parts it
was computed from.

    >>> import duplicate
    >>> event = duplicate.load_event("sample_data/spec_example.csv", tie_ranking="dense")
    >>> event.rules.tie_ranking, len(event.results)  # doctest: +SKIP
    ('dense', 9)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duplicate.errors import Problem, UsageError
from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.model.adjustments import Adjustments
    from duplicate.model.results import Results
    from duplicate.stages.hand_log import HandLog


@dataclass(frozen=True)
class Part:
    """One file (or standard input) an event was read from."""

    role: str  # results, hands, session, rules, players, adjustments, seating, event
    path: str  # as given; "-" for standard input
    rows: int | None = None

    @functools.cached_property
    def sha256(self) -> str:
        """The sha256 of the part as read (a folder: its files' listing)."""
        from duplicate.io.read import sha256_of

        return sha256_of(self.path)

    def record(self) -> dict[str, Any]:
        """The part as a run manifest lists an input."""
        return {"role": self.role, "path": self.path, "sha256": self.sha256, "rows": self.rows}


@dataclass(frozen=True)
class Player:
    """A registered player."""

    id: str
    name: str = ""
    club: str = ""
    # Position in the registration order (1 first).
    registered: int = 0
    withdrawn: bool = False


@dataclass(frozen=True)
class Players:
    """The registered players, in the players file's order."""

    people: tuple[Player, ...]
    source: str = "<players>"

    def __iter__(self) -> Iterator[Player]:
        return iter(self.people)

    def __len__(self) -> int:
        return len(self.people)

    @functools.cached_property
    def by_id(self) -> dict[str, Player]:
        return {p.id: p for p in self.people}

    @property
    def has_names(self) -> bool:
        """Whether the file gives any player a name (then outputs show a name column)."""
        return any(p.name for p in self.people)

    def name_of(self, player: object) -> str:
        """A player's name, or "" when the file gives none."""
        found = self.by_id.get(str(player))
        return found.name if found is not None else ""

    def ids_named(self, text: str) -> list[str]:
        """The ids of the players called `text` (their id, or their name)."""
        if text in self.by_id:
            return [text]
        wanted = text.strip().casefold()
        return [p.id for p in self.people if p.name and p.name.strip().casefold() == wanted]

    def registration(self) -> dict[str, int]:
        """Player id -> position in the registration order (equal results, 8.5)."""
        return {p.id: p.registered for p in self.people}

    def frame(self) -> pd.DataFrame:
        """player, name, club, withdrawn, registered: as the seating reads a field."""
        import pandas as pd

        return pd.DataFrame(
            {
                "player": pd.Series([p.id for p in self.people], dtype="str"),
                "name": pd.Series([p.name for p in self.people], dtype="str"),
                "club": pd.Series([p.club for p in self.people], dtype="str"),
                "withdrawn": [p.withdrawn for p in self.people],
                "registered": [p.registered for p in self.people],
            }
        )


@dataclass(frozen=True)
class EventInfo:
    """What an event folder says of itself (event.toml)."""

    name: str
    date: str
    game: str
    table_size: int
    venue: str = ""

    def heading(self) -> str:
        """The line that heads every page: title, date and venue."""
        return " · ".join(part for part in (self.name, self.date, self.venue) if part)


@dataclass(frozen=True)
class Event:
    """An event as every command computes from it."""

    # How messages name the event (the results file, the folder, <stdin>).
    source: str
    rules: Rules
    results: Results | None = None
    hands: HandLog | None = None
    # Raw outcomes as read (cards left, bids, huxi ...), whose scores a game computes.
    outcomes: pd.DataFrame | None = None
    players: Players | None = None
    adjustments: Adjustments | None = None
    # An event folder's published seatings: round -> the seating file.
    seatings: dict[int, str] = field(default_factory=dict)
    info: EventInfo | None = None
    # The event folder it was loaded from, if any.
    folder: str | None = None
    parts: tuple[Part, ...] = ()
    # What loading it noticed and the user should hear (blank rows left out, a column
    # not used, every comparison group single): warnings, never errors.
    warnings: tuple[Problem, ...] = ()
    # How a bridge session was read (say, which winners), for a note.
    note: str = ""

    def needs_results(self, what: str) -> Results:
        """The results, or a UsageError saying that `what` needs them."""
        if self.results is None:
            raise UsageError(
                f"{what} needs results (a results file, an event folder or a bridge "
                f"session); {self.source} holds none",
                "event.no-results",
            )
        return self.results

    def needs_hands(self, what: str) -> HandLog:
        """The hand log, or a UsageError saying that `what` needs one."""
        if self.hands is None:
            raise UsageError(
                f"{what} needs a stage's hand log (hand, table, seat, player, score, "
                f"minute); {self.source} is not one",
                "event.no-hands",
            )
        return self.hands

    def with_rules(self, rules: Rules) -> Event:
        """The same event under other rules (results checked again if the deal scope
        changes what a deal is)."""
        if rules == self.rules:
            return self
        results = self.results
        if results is not None and rules.deal_scope != results.deal_scope:
            from duplicate.scoring.scores import as_results

            results = as_results(results, rules)
        return replace(self, rules=rules, results=results)

    def input_files(self) -> list[str]:
        """Every file the event was read from: no output may replace one."""
        files = [p.path for p in self.parts if p.path != "-"]
        if self.rules.source is not None:
            files.append(self.rules.source)
        if self.folder is not None:
            # Every file an event folder stores (its published seatings may be published
            # again).
            from duplicate.io.event_log import found_files

            stored = found_files(Path(self.folder)).files
            files += [str(p) for name, p in stored.items() if not name.startswith("seatings/")]
        return files

    def records(self, roles: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The parts as a run manifest lists its inputs."""
        return [p.record() for p in self.parts if roles is None or p.role in roles]

    def heading(self) -> str:
        """The event's title, date and venue (an event folder's), or ""."""
        return self.info.heading() if self.info is not None else ""
