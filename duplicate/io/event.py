"""An event folder: the event's description, rules and players, and each round's
results as they were accepted, with a log that chains every change.

    DIR/event.toml            name, date, venue, game, table size
    DIR/rules.toml            the rules every command uses on DIR (unless --rules)
    DIR/players.csv           the registered players (when given)
    DIR/adjustments.csv       the arbiter's corrections (when given), every command's
    DIR/rounds/round-0001.parquet ...   each round as accepted: never written over
    DIR/replaced/             an upload (or corrections) a corrected one replaced, kept
    DIR/seatings/round-0002.csv ...     published seatings, checked on `add`
    DIR/log.jsonl             one line per change (init, add, replace) and per
                              publication from the folder (seating, report, print),
                              each with the sha256 of its own content and of the
                              line before it: an edit breaks it

Every command that reads RESULTS reads an event folder as its rounds together.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tomllib
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from duplicate.errors import InvalidData, Problem, UsageError
from duplicate.event import EventInfo
from duplicate.games.registry import game
from duplicate.io.read import read_raw, read_results, sha256_of, source_name
from duplicate.io.write import atomic_path, csv_bytes
from duplicate.model.columns import canonical_name, closest_match
from duplicate.model.entry_checks import entry_problems
from duplicate.model.results import Results, parse_results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules, load_rules

EVENT_FILE = "event.toml"
PLAYERS_FILE = "players.csv"
ADJUSTMENTS_FILE = "adjustments.csv"


def is_event(path: str | Path) -> bool:
    return (Path(path) / EVENT_FILE).is_file()


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


def published_seatings(folder: str | Path) -> dict[int, str]:
    """Round -> its published seating file (seatings/round-NNNN.csv)."""
    found = {}
    for path in sorted((Path(folder) / "seatings").glob("round-*.csv")):
        number = path.stem.split("-", 1)[1]
        if number.isascii() and number.isdigit():
            found[int(number)] = str(path)
    return found


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


def init_event(
    folder: str | Path,
    event: EventInfo,
    rules: Rules,
    players: str | Path | None = None,
) -> list[Path]:
    """Make the event folder; refused if `folder` holds anything already."""
    folder = Path(folder)
    event = replace(event, game=game(event.game).name)
    try:
        date.fromisoformat(event.date)
    except ValueError:
        raise UsageError(f"date {event.date!r} is not YYYY-MM-DD", "event.bad-date") from None
    if not 2 <= event.table_size <= 8:
        raise UsageError(f"table size {event.table_size} is not 2 to 8", "event.bad-table-size")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{folder} exists and is not an empty folder", "event.folder-in-use")
    folder.mkdir(parents=True, exist_ok=True)
    made = [folder / EVENT_FILE, folder / "rules.toml"]
    _write(made[0], event_toml(event).encode("utf-8"))
    _write(made[1], rules.to_toml().encode("utf-8"))
    if players is not None:
        made.append(folder / PLAYERS_FILE)
        _write(made[-1], Path(players).read_bytes())
    for sub in ("rounds", "replaced", "seatings"):
        (folder / sub).mkdir()
    _log(folder, "init", name=event.name, files=[_record(folder, p) for p in made])
    return made


@dataclass(frozen=True)
class Added:
    round: int
    path: Path
    rows: int
    replaced: Path | None
    # Likely data-entry mistakes in the upload (validate's checks, with the event's game).
    warnings: list[Problem]


def add_round(
    folder: str | Path,
    upload: str | Path,
    round_number: int | None = None,
    replace: bool = False,
    encoding: str | None = None,
    sheet: str | None = None,
) -> Added:
    """Check an uploaded round against the event and store it as accepted."""
    folder = Path(folder)
    event = load_info(folder)
    rules = event_rules(folder)
    raw, first_row = read_raw(upload, encoding, sheet=sheet)
    name = source_name(upload)
    raw = _canonical(raw, name)
    number = _round_of(raw, name, round_number)
    raw["round"] = str(number)
    results = parse_results(raw.copy(), name, first_row, rules.deal_scope)
    problems = _unknown_players(folder, results) + _seating_problems(folder, results, number)
    if problems:
        raise InvalidData(problems)
    target = rounds_folder(folder) / f"round-{number:04d}.parquet"
    _check_with_the_rest(folder, raw, target, name, rules)
    replaced = None
    if target.exists():
        if not replace:
            raise UsageError(
                f"round {number} is already in the event ({target}); "
                "give {opt:replace} to store a corrected upload",
                "event.round-exists",
            )
        digest = sha256_of(target)[:12]
        replaced = folder / "replaced" / f"round-{number:04d}-{digest}.parquet"
        shutil.copyfile(target, replaced)
    data = _parquet(raw)
    _write(target, data, overwrite=replace)
    _log(
        folder,
        "replace" if replaced else "add",
        round=number,
        upload=name,
        upload_sha256=sha256_of(upload),
        file=_record(folder, target),
        replaced=_record(folder, replaced) if replaced else None,
    )
    return Added(number, target, len(raw), replaced, entry_problems(results, game(event.game)))


@dataclass(frozen=True)
class Stored:
    """A file stored in the event folder, and the earlier one it replaced (kept)."""

    path: Path
    rows: int
    replaced: Path | None


def store_adjustments(
    folder: str | Path,
    upload: str | Path,
    replace: bool = False,
    encoding: str | None = None,
    sheet: str | None = None,
) -> Stored:
    """Check the arbiter's corrections against the event (each names a result of it)
    and store them as the event's: every command on the folder applies them."""
    from duplicate.model.adjustments import parse_adjustments
    from duplicate.model.row_adjustments import match_adjustments

    folder = Path(folder)
    load_info(folder)
    raw, first_row = read_raw(upload, encoding, sheet=sheet)
    name = source_name(upload)
    adjustments = parse_adjustments(raw, name, first_row)
    if stored_rounds(folder):
        results = read_results(folder, deal_scope=event_rules(folder).deal_scope)
        match_adjustments(results, adjustments)
    target = folder / ADJUSTMENTS_FILE
    replaced = None
    if target.exists():
        if not replace:
            raise UsageError(
                f"the event has adjustments already ({target}); give {{opt:replace}} to "
                "store the corrected ones",
                "event.adjustments-exist",
            )
        digest = sha256_of(target)[:12]
        replaced = folder / "replaced" / f"adjustments-{digest}.csv"
        shutil.copyfile(target, replaced)
    text = raw.astype("str").where(raw.notna(), "")
    _write(target, csv_bytes(pa.Table.from_pandas(text, preserve_index=False)), overwrite=replace)
    _log(
        folder,
        "adjustments",
        upload=name,
        upload_sha256=sha256_of(upload),
        file=_record(folder, target),
        replaced=_record(folder, replaced) if replaced else None,
    )
    return Stored(target, len(raw), replaced)


def record_outputs(folder: str | Path, action: str, outputs: list[tuple[str, str]]) -> None:
    """Chain into the event's log what was published from it (a seating, a report,
    printed cards): each output's path and sha256 ("-" for standard output)."""
    _log(
        Path(folder),
        action,
        outputs=[{"path": path, "sha256": digest} for path, digest in outputs],
    )


def event_rules(folder: str | Path) -> Rules:
    return load_rules(Path(folder) / "rules.toml")


def event_status(folder: str | Path) -> dict[str, Any]:
    """What the event holds: its description, each round, the seatings, the log's state."""
    folder = Path(folder)
    event = load_info(folder)
    rounds = []
    for path in stored_rounds(folder):
        rounds.append(
            {
                "round": int(path.stem.split("-")[1]),
                "rows": pq.read_metadata(path).num_rows,
                "sha256": sha256_of(path),
            }
        )
    lines = _log_lines(folder)
    return {
        "event": event.__dict__,
        "rounds": rounds,
        "seatings": sorted(published_seatings(folder)),
        "adjustments": adjustments_file(folder) is not None,
        "replaced": sorted(p.name for p in (folder / "replaced").iterdir() if p.is_file()),
        "log": {"entries": len(lines), "chain_intact": _chain_intact(lines)},
    }


def _canonical(raw: pd.DataFrame, source: str) -> pd.DataFrame:
    """The upload's result columns under their spec names, as text (notes left out)."""
    columns: dict[str, pd.Series] = {}
    for label in raw.columns:
        name = canonical_name(str(label))
        if name is not None and name not in columns:
            column = raw[label]
            columns[name] = column.astype("str").where(column.notna(), "")
    return pd.DataFrame(columns)


def _round_of(raw: pd.DataFrame, source: str, given: int | None) -> int:
    if "round" not in raw.columns:
        if given is None:
            raise UsageError(
                f"{source} has no round column: give {{opt:round_number}}", "event.no-round"
            )
        return given
    values = sorted(set(raw["round"].str.strip()) - {""})
    if len(values) != 1 or not re.fullmatch(r"[1-9][0-9]{0,5}", values[0]):
        raise InvalidData(
            [
                Problem(
                    source,
                    f"holds rounds {', '.join(values[:5]) or '(none)'}; an upload is one round",
                    column="round",
                    hint="upload each round on its own",
                    code="event.several-rounds",
                )
            ]
        )
    if given is not None and int(values[0]) != given:
        raise UsageError(
            f"{source} holds round {values[0]}, not round {given}", "event.round-mismatch"
        )
    return int(values[0])


def _unknown_players(folder: Path, results: Results) -> list[Problem]:
    path = players_file(folder)
    if path is None:
        return []
    from duplicate.seating.players import parse_players

    raw, _ = read_raw(path)
    known = set(parse_players(raw, str(path))["player"].astype("str"))
    frame = results.frame
    text = frame["player"].astype("str")
    unknown = ~text.isin(known) & ~is_robot(frame["player"])
    problems = []
    registered = sorted(known)
    for player in sorted(set(text[unknown]))[:50]:
        guess = closest_match(player, registered)
        rows = tuple(int(r) for r in frame.loc[unknown & (text == player), "row"])
        hint = f"did you mean {guess!r}?" if guess else f"register the player in {path}"
        problems.append(
            Problem(
                results.source,
                f"player {player!r} is not registered",
                rows,
                "player",
                hint,
                code="players.unregistered",
            )
        )
    return problems


def _seating_problems(folder: Path, results: Results, number: int) -> list[Problem]:
    path = folder / "seatings" / f"round-{number:04d}.csv"
    if not path.exists():
        return []
    from duplicate.seating.check import seating_problems

    raw, _ = read_raw(path)
    return seating_problems(results, raw, str(path))


def _check_with_the_rest(
    folder: Path, raw: pd.DataFrame, target: Path, source: str, rules: Rules
) -> None:
    """The stored rounds and this one, together, make valid results of one event."""
    others = [pq.read_table(p).to_pandas() for p in stored_rounds(folder) if p != target]
    for other in others:
        if sorted(other.columns) != sorted(raw.columns):
            raise InvalidData(
                [
                    Problem(
                        source,
                        f"has columns {', '.join(sorted(raw.columns))}; the event's rounds "
                        f"have {', '.join(sorted(other.columns))}",
                        hint="give every round the same columns",
                        code="event.columns-differ",
                    )
                ]
            )
    if others:
        together = pd.concat([*others, raw[others[0].columns]], ignore_index=True)
        parse_results(together, f"{folder} with {source}", 1, rules.deal_scope)


def _parquet(raw: pd.DataFrame) -> bytes:
    table = pa.Table.from_pandas(raw.astype("str"), preserve_index=False)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return bytes(sink.getvalue().to_pybytes())


def _write(path: Path, data: bytes, overwrite: bool = False) -> None:
    if path.exists() and not overwrite:
        raise UsageError(f"{path} exists", "event.file-exists")
    with atomic_path(path) as temp:
        temp.write_bytes(data)


def _record(folder: Path, path: Path) -> dict[str, str]:
    return {"path": str(path.relative_to(folder)), "sha256": sha256_of(path)}


def _log_lines(folder: Path) -> list[str]:
    path = folder / "log.jsonl"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def _chain_intact(lines: list[str]) -> bool:
    """Each entry holds the sha256 of its own content and of the entry before it."""
    previous = ""
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            return False
        own = entry.pop("sha256", None)
        if entry.get("previous") != previous or own != _entry_hash(entry):
            return False
        previous = own
    return True


def _entry_hash(entry: dict[str, Any]) -> str:
    text = json.dumps(entry, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _log(folder: Path, action: str, **details: Any) -> None:
    lines = _log_lines(folder)
    previous = json.loads(lines[-1]).get("sha256", "") if lines else ""
    entry = {
        "action": action,
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        **details,
        "previous": previous,
    }
    entry["sha256"] = _entry_hash(entry)
    text = "\n".join([*lines, json.dumps(entry, ensure_ascii=False, sort_keys=True)]) + "\n"
    _write(folder / "log.jsonl", text.encode("utf-8"), overwrite=True)
