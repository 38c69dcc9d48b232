"""An event folder's rounds, players and corrections, checked against the event and
stored as accepted (the folder's layout and log: io/event_folder.py)."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from duplicate.errors import InvalidData, Problem, UsageError
from duplicate.event import EventInfo
from duplicate.games.registry import game
from duplicate.io.event_folder import (
    ADJUSTMENTS_FILE,
    EVENT_FILE,
    PLAYERS_FILE,
    adjustments_file,
    chain_intact,
    event_rules,
    event_toml,
    file_record,
    load_info,
    log,
    log_lines,
    players_file,
    published_seatings,
    rounds_folder,
    stored_rounds,
    write_file,
)
from duplicate.io.read import read_raw, read_results, read_warnings, sha256_of, source_name
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
    folder.mkdir(parents=True, exist_ok=True)
    made = [folder / EVENT_FILE, folder / "rules.toml"]
    write_file(made[0], event_toml(event).encode("utf-8"))
    write_file(made[1], rules.to_toml().encode("utf-8"))
    if players is not None:
        made.append(folder / PLAYERS_FILE)
        write_file(made[-1], Path(players).read_bytes())
    for sub in ("rounds", "replaced", "seatings"):
        (folder / sub).mkdir()
    log(folder, "init", name=event.name, files=[file_record(folder, p) for p in made])
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
    formulas: str | None = None,
) -> Added:
    """Check an uploaded round against the event and store it as accepted."""
    folder = Path(folder)
    event = load_info(folder)
    rules = event_rules(folder)
    raw, first_row = read_raw(upload, encoding, sheet=sheet, formulas=formulas)
    read_warned = read_warnings(raw)
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
    refused = UsageError(
        f"round {number} is already in the event ({target}); "
        "give {opt:replace} to store a corrected upload",
        "event.round-exists",
    )
    replaced = _keep_replaced(folder, target, replace, refused)
    data = _parquet(raw)
    write_file(target, data, overwrite=replace)
    log(
        folder,
        "replace" if replaced else "add",
        round=number,
        upload=name,
        upload_sha256=sha256_of(upload),
        file=file_record(folder, target),
        replaced=file_record(folder, replaced) if replaced else None,
    )
    warnings = read_warned + entry_problems(results, game(event.game))
    return Added(number, target, len(raw), replaced, warnings)


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
    formulas: str | None = None,
) -> Stored:
    """Check the arbiter's corrections against the event (each names a result of it)
    and store them as the event's: every command on the folder applies them."""
    from duplicate.model.adjustments import parse_adjustments
    from duplicate.model.row_adjustments import match_adjustments

    folder = Path(folder)
    load_info(folder)
    raw, first_row = read_raw(upload, encoding, sheet=sheet, formulas=formulas)
    name = source_name(upload)
    adjustments = parse_adjustments(raw, name, first_row)
    if stored_rounds(folder):
        results = read_results(folder, deal_scope=event_rules(folder).deal_scope)
        match_adjustments(results, adjustments)
    target = folder / ADJUSTMENTS_FILE
    refused = UsageError(
        f"the event has adjustments already ({target}); give {{opt:replace}} to "
        "store the corrected ones",
        "event.adjustments-exist",
    )
    replaced = _keep_replaced(folder, target, replace, refused)
    text = raw.astype("str").where(raw.notna(), "")
    write_file(
        target, csv_bytes(pa.Table.from_pandas(text, preserve_index=False)), overwrite=replace
    )
    log(
        folder,
        "adjustments",
        upload=name,
        upload_sha256=sha256_of(upload),
        file=file_record(folder, target),
        replaced=file_record(folder, replaced) if replaced else None,
    )
    return Stored(target, len(raw), replaced)


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
    lines = log_lines(folder)
    return {
        "event": event.__dict__,
        "rounds": rounds,
        "seatings": sorted(published_seatings(folder)),
        "adjustments": adjustments_file(folder) is not None,
        "replaced": sorted(p.name for p in (folder / "replaced").iterdir() if p.is_file()),
        "log": {"entries": len(lines), "chain_intact": chain_intact(lines)},
    }


def _keep_replaced(folder: Path, target: Path, replace: bool, refused: UsageError) -> Path | None:
    """A stored file about to be replaced, kept in replaced/ under its name and the
    start of its sha256 (`refused` unless `replace`); None when there is none yet."""
    if not target.exists():
        return None
    if not replace:
        raise refused
    kept = folder / "replaced" / f"{target.stem}-{sha256_of(target)[:12]}{target.suffix}"
    shutil.copyfile(target, kept)
    return kept


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
