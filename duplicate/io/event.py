"""An event folder's rounds, players and corrections, checked against the event and
stored as accepted (the folder's layout and log: io/event_folder.py)."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from duplicate.errors import InputOutputError, InvalidData, Problem, UsageError
from duplicate.event import EventInfo
from duplicate.games.registry import game
from duplicate.io.event_folder import (
    ADJUSTMENTS_FILE,
    EVENT_FILE,
    PLAYERS_FILE,
    adjustments_file,
    event_rules,
    event_toml,
    load_info,
    players_file,
    published_seatings,
    rounds_folder,
    stored_rounds,
)
from duplicate.io.event_write import Change, changing
from duplicate.io.read import read_raw, read_results, sha256_of, source_name
from duplicate.io.write import csv_bytes
from duplicate.model.columns import canonical_name, closest_match
from duplicate.model.entry_checks import entry_problems
from duplicate.model.results import Results, parse_results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules


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
    from duplicate.io.source import resolve

    listed = resolve(players).read_bytes() if players is not None else None
    made_folder = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        made = [folder / EVENT_FILE, folder / "rules.toml"]
        with changing(folder, check=False) as change:
            for sub in ("rounds", "replaced", "seatings"):
                (folder / sub).mkdir()
            files = [change.write(made[0], event_toml(event).encode("utf-8"))]
            files.append(change.write(made[1], rules.to_toml().encode("utf-8")))
            if listed is not None:
                made.append(folder / PLAYERS_FILE)
                files.append(change.write(made[-1], listed))
            change.log("init", name=event.name, files=files)
    except BaseException as exc:
        # Nothing is left of an event not made: the command can be run again.
        for name in (folder / sub for sub in ("rounds", "replaced", "seatings", ".lock")):
            with contextlib.suppress(OSError):
                name.rmdir() if name.is_dir() else name.unlink()
        if made_folder:
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(exc, OSError):
            raise InputOutputError(
                f"{folder}: cannot write: {exc.strerror or exc}", "io.unwritable"
            ) from None
        raise
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
    """Check an uploaded round against the event and store it as accepted: the upload
    read first, then the folder's lock held while it is checked against the stored
    rounds and put in place with its log entry."""
    folder = Path(folder)
    raw, first_row = read_raw(upload, encoding, sheet=sheet)
    name = source_name(upload)
    with changing(folder) as change:
        event = load_info(folder)
        rules = event_rules(folder)
        raw = _canonical(raw, name)
        number = _round_of(raw, name, round_number)
        raw["round"] = str(number)
        results = parse_results(raw.copy(), name, first_row, rules.deal_scope)
        problems = _unknown_players(folder, results) + _seating_problems(folder, results, number)
        if problems:
            raise InvalidData(problems)
        target = rounds_folder(folder) / f"round-{number:04d}.parquet"
        _check_with_the_rest(folder, raw, target, name, rules)
        refused = UsageError(
            f"round {number} is already in the event ({target}); "
            "give {opt:replace} to store a corrected upload",
            "event.round-exists",
        )
        replaced = _keep_replaced(change, target, replace, refused)
        record = change.write(target, _parquet(raw), overwrite=replace)
        change.log(
            "replace" if replaced else "add",
            round=number,
            upload=name,
            upload_sha256=sha256_of(upload),
            file=record,
            replaced=replaced,
        )
    kept = folder / replaced["path"] if replaced else None
    return Added(number, target, len(raw), kept, entry_problems(results, game(event.game)))


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
    raw, first_row = read_raw(upload, encoding, sheet=sheet)
    name = source_name(upload)
    adjustments = parse_adjustments(raw, name, first_row)
    with changing(folder) as change:
        load_info(folder)
        if stored_rounds(folder):
            results = read_results(folder, deal_scope=event_rules(folder).deal_scope)
            match_adjustments(results, adjustments)
        target = folder / ADJUSTMENTS_FILE
        refused = UsageError(
            f"the event has adjustments already ({target}); give {{opt:replace}} to "
            "store the corrected ones",
            "event.adjustments-exist",
        )
        replaced = _keep_replaced(change, target, replace, refused)
        text = raw.astype("str").where(raw.notna(), "")
        data = csv_bytes(pa.Table.from_pandas(text, preserve_index=False))
        record = change.write(target, data, overwrite=replace)
        change.log(
            "adjustments",
            upload=name,
            upload_sha256=sha256_of(upload),
            file=record,
            replaced=replaced,
        )
    return Stored(target, len(raw), folder / replaced["path"] if replaced else None)


def event_status(folder: str | Path) -> dict[str, Any]:
    """What the event holds: its description, each round, the seatings, the log's state,
    and every way the folder differs from its log (a change cut short put back first,
    when the folder can be written)."""
    from duplicate.io.event_log import integrity_problems
    from duplicate.io.event_write import locked, must_be_event, recover

    folder = Path(folder)
    must_be_event(folder)
    with locked(folder, required=False) as held:
        if held:
            recover(folder)
        problems, log, _ = integrity_problems(folder)
        try:
            event = load_info(folder)
        except UsageError as exc:
            if not problems:
                raise
            problems.append(Problem(str(folder / EVENT_FILE), str(exc), code=exc.code))
            event = EventInfo("", "", "", 0)
        rounds = []
        for path in stored_rounds(folder):
            number = path.stem.split("-", 1)[1]
            try:
                rows: int | None = pq.read_metadata(path).num_rows
            except (OSError, pa.ArrowException):
                rows = None
                problems.append(_unreadable_round(path))
            rounds.append(
                {
                    "round": int(number) if number.isascii() and number.isdigit() else None,
                    "file": path.name,
                    "rows": rows,
                    "sha256": sha256_of(path),
                }
            )
        replaced = folder / "replaced"
        kept = replaced.iterdir() if replaced.is_dir() and not replaced.is_symlink() else iter(())
        chain = {"event.log-edited", "event.log-chain-broken", "event.log-broken"}
        return {
            "event": event.__dict__,
            "rounds": rounds,
            "seatings": sorted(published_seatings(folder)),
            "adjustments": adjustments_file(folder) is not None,
            "replaced": sorted(p.name for p in kept if p.is_file()),
            "log": {
                "entries": log.lines,
                "chain_intact": log.exists and not any(p.code in chain for p in log.problems),
            },
            "intact": not problems,
            "problems": problems,
        }


def _unreadable_round(path: Path) -> Problem:
    return Problem(
        str(path),
        "is not a readable round (Parquet)",
        hint="put back the round as stored, or replace it (event add, {opt:replace})",
        code="event.round-unreadable",
    )


def _keep_replaced(
    change: Change, target: Path, replace: bool, refused: UsageError
) -> dict[str, str] | None:
    """A stored file about to be replaced, kept in replaced/ under its name and the
    start of its sha256 (`refused` unless `replace`); None when there is none yet."""
    if not target.exists():
        return None
    if not replace:
        raise refused
    return change.keep(target)


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
    others = []
    for path in stored_rounds(folder):
        if path != target:
            try:
                others.append(pq.read_table(path).to_pandas())
            except (OSError, pa.ArrowException):
                raise InvalidData([_unreadable_round(path)]) from None
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
