"""`event init|add|withdraw|adjust|player|status`: an event folder that grows round by
round."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duplicate.errors import Problem
from duplicate.event import EventInfo
from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.io.event import Added, Stored
    from duplicate.output import Table


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
    strict: bool = False,
    force: bool = False,
    reason: str | None = None,
    formulas: str | None = None,
) -> Added:
    """Check a round's upload against the event (known players, the round's stored
    seating, the rounds before: the next round, not a copy of another) and store it as
    accepted; `replace` stores a corrected upload of a round already in (the earlier
    one is kept). `strict`: likely data-entry mistakes refuse it. `force` with a
    `reason` (logged): accept an upload off its seating, out of turn, a copy,
    or playing a withdrawn player."""
    from duplicate.io.event import add_round

    return add_round(
        folder, upload, round_number, replace, encoding, sheet, strict, force, reason, formulas
    )


def event_withdraw(folder: str | Path, round_number: int, reason: str) -> Path:
    """Take a round out of the event (kept in withdrawn/, logged with `reason`): no
    command reads it; the path it is kept at."""
    from duplicate.io.event import withdraw_round

    return withdraw_round(folder, round_number, reason)


def event_adjust(
    folder: str | Path,
    adjustments: str | Path,
    reason: str,
    replace: bool = False,
    encoding: str | None = None,
    sheet: str | None = None,
) -> Stored:
    """Add the arbiter's corrections to the event's (each checked to name a result of
    it; `replace`: they are the whole set), logged with `reason`: every command on the
    folder then applies them, printed cards included."""
    from duplicate.io.event import store_adjustments

    if not reason.strip():
        from duplicate.errors import UsageError

        raise UsageError("give {opt:reason}: the log says why", "event.no-reason")
    return store_adjustments(folder, adjustments, replace, encoding, sheet, reason, add=True)


def event_player_add(
    folder: str | Path,
    player: str,
    name: str = "",
    club: str = "",
    reason: str | None = None,
) -> Stored:
    """Register a late entry (logged): seated from the next round, shown everywhere."""
    from duplicate.io.event import add_player

    return add_player(folder, player, name, club, reason)


def event_player_withdraw(folder: str | Path, player: str, reason: str) -> Stored:
    """Withdraw a player (logged with `reason`): no longer seated; results stay."""
    from duplicate.io.event import withdraw_player

    return withdraw_player(folder, player, reason)


def event_store_seating(
    folder: str | Path, seated: Table | pd.DataFrame, replace: bool = False
) -> Stored:
    """Store a round's seating (`seat`'s, or a table of round, table, seat, player) in
    the event folder, logged: its upload is checked against it."""
    from duplicate.io.event import store_seating
    from duplicate.output import Table

    return store_seating(folder, seated.frame if isinstance(seated, Table) else seated, replace)


def event_adjustments(
    folder: str | Path,
    adjustments: str | Path,
    replace: bool = False,
    encoding: str | None = None,
    sheet: str | None = None,
    formulas: str | None = None,
) -> Stored:
    """Store the arbiter's corrections in the event (each checked to name a result of
    it): every command on the folder then applies them, printed cards included. (The
    earlier name of event_adjust: refused when the event has some, unless `replace`.)"""
    from duplicate.io.event import store_adjustments

    return store_adjustments(folder, adjustments, replace, encoding, sheet, formulas=formulas)


@dataclass(frozen=True)
class StoredRound:
    round: int | None
    rows: int | None
    sha256: str
    file: str = ""


@dataclass(frozen=True)
class EventStatus:
    """What an event folder holds, whether its log's chain is intact, and every way the
    folder differs from its log (`problems`: none when `intact`)."""

    folder: str
    info: EventInfo
    rounds: tuple[StoredRound, ...]
    seatings: tuple[int, ...]
    replaced: tuple[str, ...]
    log_entries: int
    chain_intact: bool
    adjustments: bool = False
    problems: tuple[Problem, ...] = ()

    @property
    def intact(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "event": asdict(self.info),
            "rounds": [asdict(r) for r in self.rounds],
            "seatings": list(self.seatings),
            "adjustments": self.adjustments,
            "replaced": list(self.replaced),
            "log": {"entries": self.log_entries, "chain_intact": self.chain_intact},
            "intact": self.intact,
            "problems": [
                {
                    "code": p.code,
                    "file": p.source,
                    "line": p.rows[0] if p.rows else None,
                    "message": p.text(),
                }
                for p in self.problems
            ],
        }


def event_status(folder: str | Path) -> EventStatus:
    """Each round as stored, the published seatings, the files replaced, the log, and
    every difference between the folder and its log (a file changed, missing or not
    logged, a line of the log edited)."""
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
        tuple(status["problems"]),
    )


@dataclass(frozen=True)
class Acceptance:
    """What `event_accept` logged: each file that differed (code, path, the sha256
    logged and found) and each problem of the log (code, line); none: nothing to accept."""

    folder: str
    by: str
    differences: tuple[dict[str, Any], ...]
    log_problems: tuple[dict[str, Any], ...]

    @property
    def accepted(self) -> bool:
        return bool(self.differences or self.log_problems)


def event_accept(folder: str | Path, reason: str, by: str | None = None) -> Acceptance:
    """Accept the event folder as it is now: each stored file that differs from the log
    and each line of the log edited, logged with who accepted them (`by`, else the user
    name from the environment) and why; every command then reads the folder again.

    Links, and files in rounds/ not named or readable as rounds, are refused."""
    from duplicate.io.event_write import accept

    who = by if by is not None else user_name()
    done = accept(Path(folder), reason, who)
    return Acceptance(str(folder), who, done.differences, done.log_problems)


def user_name() -> str:
    """The user's name as the environment gives it."""
    import getpass

    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return "unknown"
