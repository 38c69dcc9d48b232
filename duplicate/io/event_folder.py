"""An event folder: the event's description, rules and players, and each round's
results as they were accepted, with a log that chains every change.

    DIR/event.toml            name, date, venue, game, table size
    DIR/rules.toml            the rules every command uses on DIR (unless --rules)
    DIR/players.csv           the registered players (when given)
    DIR/adjustments.csv       the arbiter's corrections (when given), every command's
    DIR/rounds/round-0001.parquet ...   each round as accepted: never written over
    DIR/replaced/             an upload (corrections, players) a corrected one replaced, kept
    DIR/withdrawn/            a round withdrawn from the event, kept
    DIR/seatings/round-0002.csv ...     seatings `seat DIR` stored, checked on `add`
    DIR/log.jsonl             one line per change (init, add, replace, withdraw, seating,
                              adjust, player-add, player-withdraw) and per
                              publication from the folder (seating, report, print),
                              each with the sha256 of its own content and of the
                              line before it: an edit breaks it

Every command that reads RESULTS reads an event folder as its rounds together. This
module is the folder's layout and its log (light: no table library); io/event.py adds
the rounds, the players and the corrections as they are checked and stored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from duplicate.errors import UsageError
from duplicate.event import EventInfo
from duplicate.rules import Rules, load_rules

EVENT_FILE = "event.toml"
PLAYERS_FILE = "players.csv"
ADJUSTMENTS_FILE = "adjustments.csv"
SEATINGS = "seatings"
REPLACED = "replaced"
WITHDRAWN = "withdrawn"
LOG_FILE = "log.jsonl"


def is_event(path: str | Path) -> bool:
    """An event folder: its description, or its log (the description may be missing)."""
    folder = Path(path)
    return (folder / EVENT_FILE).is_file() or (folder / LOG_FILE).is_file()


def players_file(folder: str | Path) -> Path | None:
    """The event's registered players, when the folder is an event that has them."""
    path = Path(folder) / PLAYERS_FILE
    return path if is_event(folder) and path.is_file() else None


def adjustments_file(folder: str | Path) -> Path | None:
    """The event's corrections, when the folder is an event that has them."""
    path = Path(folder) / ADJUSTMENTS_FILE
    return path if is_event(folder) and path.is_file() else None


def rounds_folder(folder: str | Path) -> Path:
    return Path(folder) / "rounds"


def stored_rounds(folder: str | Path) -> list[Path]:
    """The rounds the event holds, as accepted, in order."""
    return sorted(rounds_folder(folder).glob("round-*.parquet"))


def seating_path(folder: str | Path, number: int) -> Path:
    return Path(folder) / SEATINGS / f"round-{number:04d}.csv"


def published_seatings(folder: str | Path) -> dict[int, str]:
    """Round -> its seating, as `seat DIR` stored it (the log's record): a file put in
    seatings/ another way is not one (unrecorded_seatings names it)."""
    found: dict[int, str] = {}
    for entry in log_entries(Path(folder)):
        if entry.get("action") == "seating" and isinstance(entry.get("round"), int):
            found[entry["round"]] = str(seating_path(folder, entry["round"]))
    return dict(sorted(found.items()))


def unrecorded_seatings(folder: str | Path) -> list[Path]:
    """Files in seatings/ that `seat DIR` did not store: a seating saved by hand (under
    any name) would otherwise go unchecked."""
    recorded = {Path(p).name for p in published_seatings(folder).values()}
    where = Path(folder) / SEATINGS
    if not where.is_dir():
        return []
    return sorted(p for p in where.iterdir() if p.name not in recorded)


def event_toml(info: EventInfo) -> str:
    return (
        "[event]\n"
        f"name = {json.dumps(info.name, ensure_ascii=False)}\n"
        f"date = {json.dumps(info.date)}\n"
        f"venue = {json.dumps(info.venue, ensure_ascii=False)}\n"
        f"game = {json.dumps(info.game)}\n"
        f"table_size = {info.table_size}\n"
    )


def load_info(folder: str | Path) -> EventInfo:
    """What the folder's event.toml says of the event."""
    import tomllib

    path = Path(folder) / EVENT_FILE
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))["event"]
        return EventInfo(
            name=str(table["name"]),
            date=str(table["date"]),
            game=str(table["game"]),
            table_size=int(table["table_size"]),
            venue=str(table.get("venue", "")),
        )
    except (OSError, KeyError, ValueError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(
            f"{path}: not an event description ({exc})", "event.bad-description"
        ) from None


def record_outputs(folder: str | Path, action: str, outputs: list[tuple[str, str]]) -> None:
    """Chain into the event's log what was published from it (a seating, a report,
    printed cards): each output's path and sha256 ("-" for standard output), and its
    place in the folder when it was written there (the folder is checked against it)."""
    from duplicate.io.event_log import stored_path

    folder = Path(folder)
    records = []
    for path, digest in outputs:
        record = {"path": path, "sha256": digest}
        stored = stored_path(folder, path) if path != "-" else None
        if stored is not None:
            record["stored"] = stored
        records.append(record)
    log(folder, action, outputs=records)


def event_rules(folder: str | Path) -> Rules:
    return load_rules(Path(folder) / "rules.toml")


def write_file(path: Path, data: bytes, overwrite: bool = False) -> None:
    """A file of the event written whole (never a part of one), and not over another
    unless `overwrite`: with the change open on its folder (io/event_write.changing),
    put in place together with the change's log entry."""
    from duplicate.io.event_write import open_change
    from duplicate.io.write import atomic_path

    change = open_change(_folder_of(path))
    if change is not None:
        change.write(path, data, overwrite)
        return
    if path.exists() and not overwrite:
        raise UsageError(f"{path} exists", "event.file-exists")
    with atomic_path(path) as temp:
        temp.write_bytes(data)


def _folder_of(path: Path) -> Path:
    """The event folder a stored file is in (its own folder, or the one above)."""
    parent = path.parent
    return parent if is_event(parent) or not is_event(parent.parent) else parent.parent


def file_record(folder: Path, path: Path) -> dict[str, str]:
    """A stored file as the log records it: its path in the folder and its sha256."""
    from duplicate.io.source import resolve

    return {"path": path.relative_to(folder).as_posix(), "sha256": resolve(path).sha256()}


def log_lines(folder: Path) -> list[str]:
    path = folder / "log.jsonl"
    data = path.read_bytes() if path.exists() else b""
    return data.decode("utf-8", errors="replace").splitlines()


def log_entries(folder: Path) -> list[dict[str, Any]]:
    """The log's entries as read (a line that is not JSON is left out: chain_intact
    says the log was edited)."""
    entries = []
    for line in log_lines(folder):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            entries.append(entry)
    return entries


def chain_intact(lines: list[str]) -> bool:
    """Each entry holds the sha256 of its own content and of the entry before it."""
    from duplicate.io.event_log import entry_hash

    previous = ""
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            return False
        own = entry.pop("sha256", None)
        if entry.get("previous") != previous or own != entry_hash(entry):
            return False
        previous = own
    return True


def log(folder: Path, action: str, **details: Any) -> None:
    """An entry chained into the folder's log: with the change open on the folder, put
    in place with its files; else on its own, the folder's lock held."""
    from duplicate.io.event_write import changing

    with changing(Path(folder), check=False) as change:
        change.log(action, **details)
