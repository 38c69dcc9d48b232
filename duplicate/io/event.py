"""An event folder's rounds, players and corrections, checked against the event and
stored as accepted (the folder's layout and log: io/event_folder.py)."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import numpy as np
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
    WITHDRAWN,
    adjustments_file,
    event_rules,
    event_toml,
    load_info,
    log_entries,
    players_file,
    published_seatings,
    rounds_folder,
    seating_path,
    stored_rounds,
    unrecorded_seatings,
)
from duplicate.io.event_write import Change, changing
from duplicate.io.read import read_raw, read_results, read_warnings, sha256_of, source_name
from duplicate.io.source import resolve, unwritable
from duplicate.limits import MAX_LISTED
from duplicate.model.columns import (
    PLAY_COLUMNS,
    canonical_name,
    closest_match,
    compared,
    header_map,
)
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
            raise unwritable(folder, exc) from None
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
    # What `force` accepted (each problem the upload would be refused for).
    accepted: list[Problem] = field(default_factory=list)


def add_round(
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
    """Check an uploaded round against the event and store it as accepted.

    The upload must be the next round, or (`replace`) a round the event holds; its
    results must not be another stored round's; it must be played at the round's
    stored seating. `force` (with a `reason`, logged) accepts an upload refused for
    one of these; `strict` refuses one with likely data-entry mistakes.
    """
    if force and not (reason or "").strip():
        raise UsageError("{opt:force} needs {opt:reason}: the log says why", "event.no-reason")
    folder = Path(folder)
    source = resolve(upload)
    raw, first_row = read_raw(source, encoding, sheet=sheet, formulas=formulas)
    read_warned = read_warnings(raw)
    name = source_name(source)
    # The upload read first; then the folder's lock held while it is checked against
    # the stored rounds and put in place with its log entry.
    with changing(folder) as change:
        event = load_info(folder)
        rules = event_rules(folder)
        raw = _canonical(raw, name)
        number = _round_of(raw, name, round_number)
        raw["round"] = str(number)
        target = rounds_folder(folder) / f"round-{number:04d}.parquet"
        refusable = _out_of_turn(folder, number, target, name)
        _refuse_unrecorded_seatings(folder)
        results = parse_results(raw.copy(), name, first_row, rules.deal_scope)
        problems = _unknown_players(folder, results)
        if problems:
            raise InvalidData(problems)
        refusable += _seating_problems(folder, results, number)
        refusable += _withdrawn_playing(folder, results, number)
        refusable += _check_with_the_rest(folder, raw, target, name, rules)
        if refusable and not force:
            raise InvalidData(refusable)
        warnings = read_warned + entry_problems(results, game(event.game))
        if strict and warnings:
            raise InvalidData(warnings)
        refused = UsageError(
            f"round {number} is already in the event ({target}); "
            "give {opt:replace} to store a corrected upload",
            "event.round-exists",
        )
        replaced = _keep_replaced(change, target, replace, refused)
        record = change.write(target, _parquet(raw), overwrite=replace)
        forced = {"forced": _accepted(refusable, reason)} if refusable else {}
        change.log(
            "replace" if replaced else "add",
            round=number,
            upload=name,
            upload_sha256=source.sha256(),
            file=record,
            replaced=replaced,
            **forced,
        )
    kept = folder / replaced["path"] if replaced else None
    return Added(number, target, len(raw), kept, warnings, refusable)


def _accepted(problems: list[Problem], reason: str | None) -> dict[str, Any]:
    """What the log says `force` accepted: the reason, and each problem's code."""
    return {
        "reason": reason,
        "codes": sorted({p.code for p in problems}),
        "problems": len(problems),
    }


def _out_of_turn(folder: Path, number: int, target: Path, source: str) -> list[Problem]:
    """The upload skips a round: the event holds rounds up to N, and it is not one of
    them nor N + 1 (a withdrawn round's number may be used again)."""
    held = [int(p.stem.split("-")[1]) for p in stored_rounds(folder)]
    following = max(held, default=0) + 1
    if number <= following or target.exists():
        return []
    holds = f"rounds up to {following - 1}" if held else "no round yet"
    return [
        Problem(
            source,
            f"is round {number}, and the event holds {holds}: the next upload is round {following}",
            column="round",
            hint=f"add round {following} first, or correct the round number",
            code="event.round-skipped",
        )
    ]


def _withdrawn_playing(folder: Path, results: Results, number: int) -> list[Problem]:
    """Players with results in a round after they withdrew (withdrawn in the players
    file given at init: before round 1)."""
    path = players_file(folder)
    if path is None:
        return []
    from duplicate.seating.players import parse_players

    raw, _ = read_raw(path)
    field = parse_players(raw, str(path))
    withdrawn = set(field.loc[field["withdrawn"], "player"])
    if not withdrawn:
        return []
    after = {
        str(e.get("player")): int(e.get("after_round") or 0)
        for e in log_entries(folder)
        if e.get("action") == "player-withdraw"
    }
    text = results.frame["player"].astype("str")
    problems = []
    for player in sorted(withdrawn & set(text)):
        if number <= after.get(player, 0):
            continue
        rows = tuple(int(r) for r in results.frame.loc[text == player, "row"])
        problems.append(
            Problem(
                results.source,
                f"player {player!r} has results in round {number}, and withdrew before it",
                rows[:MAX_LISTED],
                "player",
                "a misspelled id? correct it; else accept it with {opt:force} {opt:reason}",
                code="event.withdrawn-player-played",
            )
        )
    return problems


def _refuse_unrecorded_seatings(folder: Path) -> None:
    """A file in seatings/ that `seat DIR` did not store would be a seating no upload
    is checked against: refused, not ignored."""
    found = unrecorded_seatings(folder)
    if found:
        raise InvalidData(
            [
                Problem(
                    str(path),
                    "was not stored by `duplicate seat`: no upload is checked against it",
                    hint=f"store the round's seating with `duplicate seat {folder}` "
                    "(it writes seatings/ itself), and remove this file",
                    code="event.seating-unrecorded",
                )
                for path in found
            ]
        )


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
    reason: str | None = None,
    add: bool = False,
    formulas: str | None = None,
) -> Stored:
    """Check the arbiter's corrections against the event (each names a result of it)
    and store them as the event's: every command on the folder applies them.

    `add`: the upload's corrections join the event's (else the event's are refused
    unless `replace`); `replace`: they are the event's whole set. The earlier file is
    kept in replaced/, and the log says why (`reason`)."""
    from duplicate.model.adjustments import parse_adjustments

    folder = Path(folder)
    source = resolve(upload)
    raw, first_row = read_raw(source, encoding, sheet=sheet, formulas=formulas)
    name = source_name(source)
    parse_adjustments(raw, name, first_row)
    with changing(folder) as change:
        load_info(folder)
        target = folder / ADJUSTMENTS_FILE
        text = _adjustment_columns(raw)
        if add and not replace and target.exists():
            earlier, _ = read_raw(target)
            text = _adjustment_columns(pd.concat([_adjustment_columns(earlier), text]))
        if len(text) > len(raw):
            _match_the_event(folder, text, str(target), 2)
        else:
            _match_the_event(folder, text, name, first_row)
        refused = UsageError(
            f"the event has adjustments already ({target}); give {{opt:replace}} to "
            "store the corrected ones",
            "event.adjustments-exist",
        )
        replaced = _keep_replaced(change, target, replace or add, refused)
        record = change.write(target, stored_csv(text), overwrite=replaced is not None)
        change.log(
            "adjust" if add else "adjustments",
            upload=name,
            upload_sha256=source.sha256(),
            reason=reason,
            file=record,
            replaced=replaced,
        )
    return Stored(target, len(text), folder / replaced["path"] if replaced else None)


ADJUSTMENT_COLUMNS = ("round", "deal", "player", "kind", "value", "weight", "reason")


def _adjustment_columns(raw: pd.DataFrame) -> pd.DataFrame:
    """An adjustments table under its columns' own names, as text ('' where empty);
    weight only when given."""
    columns = header_map(raw)
    kept: dict[str, list[str]] = {}
    for column in ADJUSTMENT_COLUMNS:
        if column in columns:
            cells = raw[columns[column]]
            kept[column] = cells.astype("str").where(cells.notna(), "").tolist()
        elif column != "weight":
            kept[column] = [""] * len(raw)
    frame = pd.DataFrame(kept, dtype="str")
    if "weight" in frame.columns:
        frame["weight"] = frame["weight"].fillna("")
    return frame.reset_index(drop=True)


def _match_the_event(folder: Path, text: pd.DataFrame, name: str, first_row: int) -> None:
    """Each correction names a result of the event (once rounds are in)."""
    from duplicate.model.adjustments import parse_adjustments
    from duplicate.model.row_adjustments import match_adjustments

    adjustments = parse_adjustments(text, name, first_row)
    if stored_rounds(folder):
        results = read_results(folder, deal_scope=event_rules(folder).deal_scope)
        match_adjustments(results, adjustments)


def withdraw_round(folder: str | Path, number: int, reason: str) -> Path:
    """Take a round out of what every command reads: its file kept in withdrawn/,
    the log saying why. The path it is kept at."""
    folder = Path(folder)
    if not reason.strip():
        raise UsageError("give {opt:reason}: the log says why", "event.no-reason")
    with changing(folder) as change:
        load_info(folder)
        target = rounds_folder(folder) / f"round-{number:04d}.parquet"
        if not target.is_file():
            held = ", ".join(p.stem.split("-")[1].lstrip("0") for p in stored_rounds(folder))
            raise UsageError(
                f"round {number} is not in the event (it holds {held or 'no round'})",
                "event.no-such-round",
            )
        kept_in = folder / WITHDRAWN
        kept_in.mkdir(exist_ok=True)
        data = target.read_bytes()
        removed = change.remove(target)
        kept = kept_in / f"{target.stem}-{removed['sha256'][:12]}{target.suffix}"
        record = change.write(kept, data, overwrite=True)
        change.log("withdraw", round=number, reason=reason, removed=removed, kept=record)
    return kept


def store_seating(folder: str | Path, seating: pd.DataFrame, replace: bool = False) -> Stored:
    """A round's seating stored in the folder (seatings/round-NNNN.csv, logged):
    the seating its upload is checked against. The same seating again is stored once;
    another one of the round needs `replace` (the earlier kept in replaced/)."""
    folder = Path(folder)
    with changing(folder) as change:
        _refuse_unrecorded_seatings(folder)
        rounds = sorted(set(seating["round"].astype("str")))
        if len(rounds) != 1:
            raise UsageError(
                f"a seating of rounds {', '.join(rounds)}: one round at a time",
                "seat.several-rounds",
            )
        number = int(rounds[0])
        target = seating_path(folder, number)
        data = stored_csv(seating.astype("str"))
        recorded = number in published_seatings(folder)
        if recorded and target.is_file() and target.read_bytes() == data:
            return Stored(target, len(seating), None)
        refused = UsageError(
            f"round {number} has a stored seating already ({target}); give {{opt:replace}} "
            "to store this one instead (reprint what was printed from it)",
            "event.seating-exists",
        )
        replaced = _keep_replaced(change, target, replace, refused)
        target.parent.mkdir(exist_ok=True)
        record = change.write(target, data, overwrite=replaced is not None)
        change.log("seating", round=number, file=record, replaced=replaced)
    return Stored(target, len(seating), folder / replaced["path"] if replaced else None)


def add_player(
    folder: str | Path, player: str, name: str = "", club: str = "", reason: str | None = None
) -> Stored:
    """A late entry registered in the event's players file (logged): `seat` seats them
    from the next round, below the players with results."""
    from duplicate.seating.players import parse_players

    for what, value in (("player", player), ("name", name), ("club", club)):
        _refuse_control(what, value)
    folder, raw, path = _players(folder)
    player = player.strip()
    columns = _player_columns(raw)
    if player in set(parse_players(raw, str(path))["player"]):
        raise UsageError(f"player {player!r} is registered already ({path})", "event.player-exists")
    if not player:
        raise UsageError("give the player's id", "event.no-player")
    row = {columns.get("player", "player"): player}
    for column, value in (("name", name), ("club", club), ("status", "active")):
        label = columns.get(column)
        if label is None and value and column != "status":
            label = column
            raw[label] = ""
        if label is not None:
            row[label] = value
    if "registered" in columns:
        row[columns["registered"]] = _late_registration(raw[columns["registered"]])
    grown = pd.concat([raw, pd.DataFrame([row], dtype="str")], ignore_index=True)
    return _store_players(folder, path, grown, "player-add", player, reason)


def withdraw_player(folder: str | Path, player: str, reason: str) -> Stored:
    """A player withdrawn from the event (logged, with why): no longer seated; their
    results so far stay."""
    from duplicate.seating.players import parse_players

    if not reason.strip():
        raise UsageError("give {opt:reason}: the log says why", "event.no-reason")
    folder, raw, path = _players(folder)
    player = player.strip()
    field = parse_players(raw, str(path))
    at = np.flatnonzero((field["player"] == player).to_numpy())
    if not len(at):
        raise UsageError(f"player {player!r} is not registered in {path}", "event.player-unknown")
    if bool(field["withdrawn"].iloc[at[0]]):
        raise UsageError(f"player {player!r} has withdrawn already", "event.player-withdrawn")
    label = _player_columns(raw).get("status")
    if label is None:
        label = "status"
        raw[label] = ""
    raw[label] = raw[label].astype("str").where(raw[label].notna(), "")
    raw.loc[raw.index[at[0]], label] = "withdrawn"
    held = [int(p.stem.split("-")[1]) for p in stored_rounds(folder)]
    return _store_players(
        folder, path, raw, "player-withdraw", player, reason, after_round=max(held, default=0)
    )


def _players(folder: str | Path) -> tuple[Path, pd.DataFrame, Path]:
    folder = Path(folder)
    load_info(folder)
    path = players_file(folder)
    if path is None:
        raise UsageError(
            f"{folder} has no players file: every player would be a late entry",
            "event.no-players",
        )
    raw, _ = read_raw(path)
    return folder, raw.reset_index(drop=True), path


def stored_csv(frame: pd.DataFrame) -> bytes:
    """A table the event keeps, as CSV holding each value exactly (an output's CSV
    neutralises what a spreadsheet would run as a formula: here that would change an
    id or a reason)."""
    text: str = frame.to_csv(index=False, lineterminator="\n")
    return text.encode("utf-8")


def _refuse_control(what: str, value: str) -> None:
    """A players file holds text: no line end, tab or other control character (it
    would not read back as the same cell)."""
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise UsageError(
            f"{what} {value!r} holds a control character (a line end, a tab, NUL)",
            "event.bad-text",
        )


def _player_columns(raw: pd.DataFrame) -> dict[str, Any]:
    """A players file's columns by what they hold, as parse_players and player_details
    read them (player, name, club, status, registered)."""
    columns = header_map(raw)
    aliases = {
        "牌手": "player", "选手": "player", "状态": "status", "报名": "registered",
        "姓名": "name", "俱乐部": "club", "单位": "club",
    }  # fmt: skip
    for alias, column in aliases.items():
        if alias in columns and column not in columns:
            columns[column] = columns[alias]
    return columns


def _late_registration(registered: pd.Series) -> str:
    """A late entry's place in the registration order: after everyone's."""
    text = registered.astype("str").str.strip()
    if len(text) and bool(text.str.fullmatch(r"[0-9]{1,18}").all()):
        return str(int(text.astype("int64").max()) + 1)
    return datetime.now(UTC).isoformat(timespec="seconds")


def _store_players(
    folder: Path,
    path: Path,
    raw: pd.DataFrame,
    action: str,
    player: str,
    reason: str | None,
    **details: Any,
) -> Stored:
    from duplicate.seating.players import parse_players

    text = raw.astype("str").where(raw.notna(), "")
    parse_players(text, str(path))
    with changing(folder) as change:
        replaced = _keep_replaced(change, path, True, UsageError("", "event.file-exists"))
        record = change.write(path, stored_csv(text), overwrite=True)
        change.log(
            action,
            player=player,
            reason=reason,
            **details,
            file=record,
            replaced=replaced,
        )
    return Stored(path, len(text), folder / replaced["path"] if replaced else None)


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
    """The upload's result columns under their spec names, and what a bridge session
    says of the play (PLAY_COLUMNS), as text (notes left out)."""
    columns: dict[str, pd.Series] = {}
    for label in raw.columns:
        play = compared(label) if compared(label) in PLAY_COLUMNS else None
        name = canonical_name(str(label)) or play
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
    """How the upload differs from its round's seating, as `seat DIR` stored it."""
    stored = published_seatings(folder).get(number)
    if stored is None:
        return []
    path = Path(stored)
    from duplicate.seating.check import seating_problems

    raw, _ = read_raw(path)
    return seating_problems(results, raw, str(path))


def _check_with_the_rest(
    folder: Path, raw: pd.DataFrame, target: Path, source: str, rules: Rules
) -> list[Problem]:
    """The stored rounds and this one, together, make valid results of one event
    (raised); a stored round whose results are the upload's, round aside (returned:
    likely the wrong file)."""
    others = {}
    for path in stored_rounds(folder):
        if path != target:
            try:
                others[path] = pq.read_table(path).to_pandas()
            except (OSError, pa.ArrowException):
                raise InvalidData([_unreadable_round(path)]) from None
    for other in others.values():
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
    if not others:
        return []
    copies = [
        Problem(
            source,
            f"holds the results of round {other['round'].iloc[0]} ({path.name}) under "
            f"another round number: likely the wrong file",
            hint="upload the round's own results",
            code="event.round-copy",
        )
        for path, other in others.items()
        if _same_rows(other, raw)
    ]
    first = next(iter(others.values()))
    together = pd.concat([*others.values(), raw[first.columns]], ignore_index=True)
    try:
        parse_results(together, f"{folder} with {source}", 1, rules.deal_scope)
    except InvalidData as exc:
        # A copy of a round clashes with it: the copy is what to say first.
        raise InvalidData(copies + exc.problems) from None
    return copies


def _same_rows(stored: pd.DataFrame, upload: pd.DataFrame) -> bool:
    """The same rows, in any order, but for the round number."""
    if len(stored) != len(upload):
        return False
    columns = sorted(c for c in upload.columns if c != "round")

    def rows(frame: pd.DataFrame) -> pd.DataFrame:
        text = pd.DataFrame({c: frame[c].astype("str").str.strip() for c in columns})
        return text.sort_values(columns, kind="stable").reset_index(drop=True)

    return bool(rows(stored).equals(rows(upload)))


def _parquet(raw: pd.DataFrame) -> bytes:
    table = pa.Table.from_pandas(raw.astype("str"), preserve_index=False)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return bytes(sink.getvalue().to_pybytes())
