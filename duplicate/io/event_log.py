"""An event folder's log, read and checked, and the folder checked against it.

The log (log.jsonl) holds one JSON line per change, each with the sha256 of its own
content and of the line before it. Replayed, it says which files the folder holds and
the sha256 of each: every command reading the folder compares the two first, and a file
changed, missing or not logged, or a log edited, is an error naming what differs, until
a user accepts the folder as it is (`duplicate event accept`: an entry naming who, what
and why, with the sha256 of the log before it, so that the log stays checkable).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplicate.errors import Problem

LOG_FILE = "log.jsonl"
EVENT_FILE = "event.toml"
# The files of the folder's top the log records (the log itself checks by its chain).
TOP_FILES = (EVENT_FILE, "rules.toml", "players.csv", "adjustments.csv")
SUBFOLDERS = ("rounds", "seatings", "replaced", "withdrawn")
# Kept beside the files, never logged: the folder's lock and a change being made.
LOCK_FILE = ".lock"
JOURNAL_FILE = ".pending.json"
ROUND_NAME = re.compile(r"rounds/round-[0-9]{4,6}\.parquet")
# A file being written, or a file set aside while another takes its place.
TEMPORARY = re.compile(r"\..+\.[0-9a-f]{16}\.(?:tmp|old)")


def entry_hash(entry: dict[str, Any]) -> str:
    text = json.dumps(entry, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


@dataclass
class Log:
    """The log as read: its bytes, its entries (line number, content), and what is
    wrong with it (lines not UTF-8 or not JSON, an entry edited, the chain broken)."""

    exists: bool
    data: bytes = b""
    entries: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    lines: int = 0

    @property
    def last_sha256(self) -> str:
        return str(self.entries[-1][1].get("sha256", "")) if self.entries else ""


def read_log(folder: Path) -> Log:
    """The folder's log, every line checked: an accept entry whose seal matches the log
    before it accepts what was wrong there."""
    path = folder / LOG_FILE
    where = str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Log(False, problems=[_log_missing(where)])
    except OSError as exc:
        return Log(
            True, problems=[_problem(where, f"cannot be read ({exc.strerror})", "event.log-broken")]
        )
    found = Log(True, data)
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    elif data:
        found.problems.append(
            _problem(
                where,
                "does not end with a line end: it was cut short",
                "event.log-broken",
                len(lines),
            )
        )
    found.lines = len(lines)
    previous = ""
    read = hashlib.sha256()  # the log before the line
    for number, line in enumerate(lines, start=1):
        before = read.hexdigest()
        read.update(line + b"\n")
        try:
            entry = json.loads(line.decode("utf-8"))
        except UnicodeDecodeError:
            found.problems.append(
                _problem(where, "is not UTF-8 text", "event.log-not-utf8", number)
            )
            previous = "\0"
            continue
        except ValueError:
            entry = None
        if not isinstance(entry, dict):
            found.problems.append(
                _problem(where, "is not a log entry (JSON)", "event.log-broken", number)
            )
            previous = "\0"
            continue
        own = entry.pop("sha256", None)
        intact = own == entry_hash(entry)
        seal = entry.get("sealed")
        if (
            intact
            and entry.get("action") == "accept"
            and isinstance(seal, dict)
            and seal.get("sha256") == before
        ):
            found.problems.clear()  # what was wrong before it is accepted
        elif not intact:
            found.problems.append(
                _problem(
                    where,
                    "was edited: its content does not match its sha256",
                    "event.log-edited",
                    number,
                )
            )
        elif entry.get("previous") != previous:
            found.problems.append(
                _problem(
                    where,
                    "does not follow the line before it: a line was removed, added or moved",
                    "event.log-chain-broken",
                    number,
                )
            )
        entry["sha256"] = own
        found.entries.append((number, entry))
        previous = str(own)
    return found


@dataclass(frozen=True)
class Logged:
    """A file as the log last recorded it."""

    sha256: str
    line: int
    action: str


def logged_files(folder: Path, log: Log) -> dict[str, Logged]:
    """Each file the log says the folder holds (its path in the folder): replayed."""
    expected: dict[str, Logged] = {}
    for line, entry in log.entries:
        action = str(entry.get("action", ""))
        if isinstance(entry.get("state"), list):
            expected = {}
        records: list[Any] = []
        for key in ("files", "state"):
            if isinstance(entry.get(key), list):
                records.extend(entry[key])
        records.extend(entry.get(key) for key in ("file", "replaced", "kept"))
        for output in entry.get("outputs") or []:
            records.append(_output_record(folder, output))
        for record in records:
            if (
                isinstance(record, dict)
                and isinstance(record.get("path"), str)
                and isinstance(record.get("sha256"), str)
                and in_layout(record["path"])
            ):
                expected[record["path"]] = Logged(record["sha256"], line, action)
        # Files a change took away (a round withdrawn): a record, or a list of them or
        # of paths.
        removed = entry.get("removed")
        for gone in removed if isinstance(removed, list) else [removed]:
            path = gone.get("path") if isinstance(gone, dict) else gone
            if isinstance(path, str):
                expected.pop(path, None)
    return expected


def _output_record(folder: Path, output: Any) -> Any:
    """An output published into the folder, by its path there (`stored`); an older
    log's output, by its path as given, when it lies in the folder."""
    if not isinstance(output, dict):
        return None
    stored = output.get("stored")
    given = output.get("path")
    if stored is None and isinstance(given, str) and given != "-":
        stored = stored_path(folder, given)
    # Only a seating is published into the folder: an output written over a round or
    # the players is a change the log does not vouch for.
    if not isinstance(stored, str) or not stored.startswith("seatings/"):
        return None
    return {"path": stored, "sha256": output.get("sha256")}


def stored_path(folder: Path, path: str | Path) -> str | None:
    """`path`'s place in the folder's layout (say, seatings/round-0002.csv), or None."""
    try:
        relative = Path(path).absolute().resolve().relative_to(folder.absolute().resolve())
    except (OSError, ValueError):
        return None
    text = relative.as_posix()
    return text if in_layout(text) else None


def in_layout(path: str) -> bool:
    parts = path.split("/")
    if any(p in ("", ".", "..") for p in parts) or "\\" in path:
        return False
    return path in TOP_FILES or (len(parts) > 1 and parts[0] in SUBFOLDERS)


@dataclass
class Found:
    """The folder's files as they are: each by its path in the folder; links, and what
    a change cut short left behind."""

    files: dict[str, Path] = field(default_factory=dict)
    links: list[str] = field(default_factory=list)
    leftovers: list[Path] = field(default_factory=list)


def found_files(folder: Path) -> Found:
    found = Found()
    for name in (*TOP_FILES, LOG_FILE):
        path = folder / name
        if path.is_symlink():
            found.links.append(name)
        elif path.exists() and name != LOG_FILE:
            found.files[name] = path
    with os.scandir(folder) as entries:
        for item in entries:
            if TEMPORARY.fullmatch(item.name) and not item.is_symlink():
                found.leftovers.append(Path(item.path))
    if (folder / JOURNAL_FILE).exists():
        found.leftovers.append(folder / JOURNAL_FILE)
    for sub in SUBFOLDERS:
        top = folder / sub
        if top.is_symlink():
            found.links.append(sub)
            continue
        for root, dirs, files in os.walk(top):
            for name in dirs + files:
                path = Path(root) / name
                relative = path.relative_to(folder).as_posix()
                if path.is_symlink():
                    found.links.append(relative)
                elif name in files and TEMPORARY.fullmatch(name):
                    found.leftovers.append(path)
                elif name in files:
                    found.files[relative] = path
            dirs[:] = [d for d in dirs if not (Path(root) / d).is_symlink()]
    return found


@dataclass(frozen=True)
class Difference:
    """One way the folder differs from its log."""

    code: str
    path: str  # in the folder
    logged: str | None  # the sha256 the log recorded
    found: str | None  # the sha256 of the file as it is

    def record(self) -> dict[str, Any]:
        return {"code": self.code, "path": self.path, "logged": self.logged, "found": self.found}


def differences(folder: Path, log: Log, found: Found) -> list[Difference]:
    """Each stored file changed, missing, or not in the log; links; misnamed rounds."""
    out = [Difference("event.symlink", p, None, None) for p in found.links]
    if not log.exists:  # every file is unlogged: the log's absence says it
        return out
    expected = logged_files(folder, log)
    for path in sorted(set(expected) | set(found.files)):
        if any(path == link or path.startswith(link + "/") for link in found.links):
            continue
        logged = expected[path].sha256 if path in expected else None
        if path not in found.files:
            out.append(Difference("event.file-missing", path, logged, None))
            continue
        now = file_sha256(found.files[path])
        if logged is None:
            misnamed = path.startswith("rounds/") and not ROUND_NAME.fullmatch(path)
            code = "event.file-misnamed" if misnamed else "event.file-unlogged"
            out.append(Difference(code, path, None, now))
        elif now != logged:
            out.append(Difference("event.file-changed", path, logged, now))
    return out


def integrity_problems(folder: Path) -> tuple[list[Problem], Log, list[Difference]]:
    """Everything that differs between the folder and its log, as problems."""
    log = read_log(folder)
    found = found_files(folder)
    diffs = differences(folder, log, found)
    problems = list(log.problems)
    problems += [difference_problem(folder, d, log) for d in diffs]
    if found.leftovers:
        problems.append(
            Problem(
                str(folder),
                "holds a change cut short (" + ", ".join(p.name for p in found.leftovers[:5]) + ")",
                hint="run the command again where the folder can be written: it is put back "
                "as it was",
                code="event.half-done",
            )
        )
    return problems, log, diffs


_SAID = {
    "event.file-changed": "changed since the log recorded it",
    "event.file-missing": "is in the log but not in the folder",
    "event.file-unlogged": "is not in the log: it was put in the folder by hand",
    "event.file-misnamed": "is not in the log, and not named as a round is "
    "(rounds/round-NNNN.parquet)",
    "event.symlink": "is a link: an event folder's files are never written or read through one",
}


def difference_problem(folder: Path, difference: Difference, log: Log) -> Problem:
    said = _SAID[difference.code]
    if difference.logged and difference.found:
        said += f" (sha256 {difference.found[:12]}, logged {difference.logged[:12]})"
    if difference.code == "event.symlink":
        hint = "put the files themselves in the folder"
    elif difference.code == "event.file-misnamed":
        hint = "remove it; a round goes in with duplicate event add"
    else:
        hint = (
            "put back the file as logged, or accept the folder as it is: "
            f"duplicate event accept {folder} --reason '...'"
        )
    return Problem(str(folder / difference.path), said, hint=hint, code=difference.code)


def _problem(where: str, said: str, code: str, line: int | None = None) -> Problem:
    rows = (line,) if line is not None else ()
    return Problem(
        where,
        said,
        rows,
        hint="restore the log, or accept the folder as it is (duplicate event accept)",
        position="line",
        code=code,
    )


def _log_missing(where: str) -> Problem:
    return Problem(
        where,
        "is missing: nothing says what the folder should hold",
        hint="restore the log, or accept the folder as it is (duplicate event accept)",
        code="event.log-missing",
    )
