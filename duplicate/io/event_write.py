"""Changing an event folder so that nothing is lost: one change at a time, its files and
its log entry put in place together, or none of them.

A change holds the folder's lock (DIR/.lock, locked by the system: released when the
process ends, however it ends; another command waits for it, DUPLICATE_LOCK_WAIT
seconds at most). Its files are written beside their places under temporary names and
synced; a journal (DIR/.pending.json) then lists each step; the files are put in place
(a file replaced is set aside first), and the new log is put in place last: that rename
is the change. A failure before it (a full disk, a read-only folder, SIGTERM) puts the
folder back as it was; a process killed outright leaves the journal, and the next
command on the folder puts it back before anything else.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from duplicate.errors import InputOutputError, InvalidData, UsageError
from duplicate.io.event_log import (
    JOURNAL_FILE,
    LOCK_FILE,
    LOG_FILE,
    TEMPORARY,
    entry_hash,
    file_sha256,
    found_files,
    in_layout,
    integrity_problems,
    read_log,
)
from duplicate.io.source import unwritable

# How long a command waits for another one's change to the folder (seconds).
LOCK_WAIT_VARIABLE = "DUPLICATE_LOCK_WAIT"
LOCK_WAIT = 30.0
_O_BINARY = getattr(os, "O_BINARY", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _key(folder: Path) -> str:
    return str(folder.absolute().resolve())


# The folders this process holds the lock of (a change reads the folder too).
_HELD: dict[str, int] = {}


@contextmanager
def locked(folder: Path, required: bool = True) -> Iterator[bool]:
    """The folder's lock held through the block (True); when not `required` and the
    folder cannot be written (read-only), the block runs without it (False)."""
    key = _key(folder)
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield True
        finally:
            _HELD[key] -= 1
        return
    try:
        fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT | _O_BINARY | _O_NOFOLLOW, 0o666)
    except OSError as exc:
        if not required and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            yield False
            return
        raise unwritable(folder, exc) from None
    try:
        _acquire(fd, folder)
        _HELD[key] = 1
        try:
            yield True
        finally:
            del _HELD[key]
    finally:
        os.close(fd)  # closing the file releases the lock


def _acquire(fd: int, folder: Path) -> None:
    try:
        wait = float(os.environ.get(LOCK_WAIT_VARIABLE, LOCK_WAIT))
    except ValueError:
        wait = LOCK_WAIT
    deadline = time.monotonic() + max(wait, 0.0)
    while True:
        try:
            _try_lock(fd)
            return
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK):
                raise unwritable(folder, exc) from None
        if time.monotonic() >= deadline:
            raise InputOutputError(
                f"{folder} is being changed by another command (it holds {folder / LOCK_FILE}); "
                "run this one again when that one ends",
                "event.busy",
            )
        time.sleep(0.05)


if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


@contextmanager
def reading(folder: Path) -> Iterator[None]:
    """The folder as its log says, for the block to read: the lock held while it can
    be (a change cut short put back first); else InvalidData naming every difference."""
    must_be_event(folder)
    with locked(folder, required=False) as held:
        if held:
            recover(folder)
        problems, _, _ = integrity_problems(folder)
        if problems:
            raise InvalidData(problems)
        yield


def must_be_event(folder: Path) -> None:
    """UsageError unless `folder` is an event folder (its description or its log)."""
    from duplicate.io.event_folder import is_event

    if not folder.is_dir() or not is_event(folder):
        raise UsageError(
            f"{folder} is not an event folder (see `duplicate event init`)",
            "event.bad-description",
        )


def recover(folder: Path) -> None:
    """Put back as it was a change cut short (its journal left), and remove the
    temporary files one left (the lock held)."""
    journal = folder / JOURNAL_FILE
    if journal.exists():
        try:
            steps = json.loads(journal.read_bytes())
            _undo(folder, steps)
        except (ValueError, KeyError, TypeError, AttributeError):
            raise InvalidData(
                [
                    integrity_half_done(folder, f"{journal} cannot be read"),
                ]
            ) from None
        except OSError as exc:
            raise unwritable(folder, exc) from None
    for path in found_files(folder).leftovers:
        with contextlib.suppress(OSError):
            path.unlink()


def integrity_half_done(folder: Path, said: str) -> Any:
    from duplicate.errors import Problem

    return Problem(
        str(folder),
        f"holds a change cut short: {said}",
        hint="compare the folder with its log (duplicate event status), then accept it as "
        "it is (duplicate event accept)",
        code="event.half-done",
    )


@dataclass
class _Staged:
    path: str  # in the folder
    temp: str | None  # None: the file is taken away
    sha256: str
    backup: str | None  # where the file it replaces is set aside


class Change:
    """Files and log entries to put in place together (see `changing`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.staged: list[_Staged] = []
        self.entries: list[dict[str, Any]] = []
        # The log the entries follow, when not the log as it is (an accept ends a log
        # cut short with a line end).
        self.log_prefix: bytes | None = None

    def write(self, path: Path, data: bytes, overwrite: bool = False) -> dict[str, str]:
        """Stage `data` as the file `path` (never over another unless `overwrite`);
        its record for the log (its path in the folder and sha256)."""
        relative = path.absolute().relative_to(self.folder.absolute()).as_posix()
        if any(s.path == relative for s in self.staged):
            raise UsageError(f"{path} is written twice in one change", "event.file-exists")
        if path.exists() and not overwrite:
            raise UsageError(f"{path} exists", "event.file-exists")
        temp = _temporary(path, "tmp")
        try:
            _write_synced(temp, data)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                temp.unlink()
            if isinstance(exc, OSError):
                raise unwritable(self.folder, exc) from None
            raise
        backup = _temporary(path, "old").name if path.exists() else None
        digest = hashlib.sha256(data).hexdigest()
        self.staged.append(_Staged(relative, temp.name, digest, backup))
        return {"path": relative, "sha256": digest}

    def remove(self, path: Path) -> dict[str, str]:
        """Take the stored file `path` away with the change; its record (for the log's
        `removed`)."""
        relative = path.absolute().relative_to(self.folder.absolute()).as_posix()
        digest = file_sha256(path)
        self.staged.append(_Staged(relative, None, digest, _temporary(path, "old").name))
        return {"path": relative, "sha256": digest}

    def keep(self, path: Path) -> dict[str, str]:
        """A copy of the stored file `path` in replaced/, under its name and the start
        of its sha256 (not written again when it is there already); its record."""
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        kept = self.folder / "replaced" / f"{path.stem}-{digest[:12]}{path.suffix}"
        if kept.exists() and file_sha256(kept) == digest:
            return {"path": kept.relative_to(self.folder).as_posix(), "sha256": digest}
        return self.write(kept, data, overwrite=True)

    def log(self, action: str, **details: Any) -> None:
        self.entries.append(
            {"action": action, "at": datetime.now(UTC).isoformat(timespec="seconds"), **details}
        )

    def abort(self) -> None:
        for staged in self.staged:
            if staged.temp is not None:
                with contextlib.suppress(OSError):
                    (self.folder / Path(staged.path).parent / staged.temp).unlink()
        self.staged = []

    def commit(self) -> None:
        """Put the staged files and the log in place, or leave the folder as it was."""
        if not self.staged and not self.entries:
            return
        folder = self.folder
        log_path = folder / LOG_FILE
        if self.log_prefix is not None:
            old = self.log_prefix
        else:
            old = log_path.read_bytes() if log_path.exists() else b""
        previous = read_log(folder).last_sha256
        lines = []
        for entry in self.entries:
            entry = {**entry, "previous": previous}
            entry["sha256"] = previous = entry_hash(entry)
            lines.append(json.dumps(entry, ensure_ascii=False, sort_keys=True).encode("utf-8"))
        new = old + b"".join(line + b"\n" for line in lines)
        log_temp = _temporary(log_path, "tmp")
        steps = {
            "log": hashlib.sha256(new).hexdigest(),
            "log_temp": log_temp.name,
            "files": [s.__dict__ for s in self.staged],
        }
        journal_written = False
        try:
            _write_synced(log_temp, new)
            _put_journal(folder, steps)
            journal_written = True
            for staged in self.staged:
                target = folder / staged.path
                if staged.backup is not None:
                    os.replace(target, target.parent / staged.backup)
                if staged.temp is not None:
                    os.replace(target.parent / staged.temp, target)
            os.replace(log_temp, log_path)
        except BaseException as exc:
            with _signals_held():
                try:
                    _undo(folder, steps)
                    if not journal_written:
                        recover(folder)
                except OSError:
                    raise InputOutputError(
                        f"{folder}: cannot write ({_reason(exc)}), and the change could not "
                        "be undone yet: the next command on the folder puts it back",
                        "event.half-done",
                    ) from None
            if isinstance(exc, OSError):
                raise unwritable(folder, exc) from None
            raise
        # The change is made: made durable, and what was set aside goes (a signal
        # delivered after it).
        with _signals_held():
            with contextlib.suppress(OSError):
                _sync_folders(folder, self.staged)
            for staged in self.staged:
                if staged.backup is not None:
                    with contextlib.suppress(OSError):
                        (folder / Path(staged.path).parent / staged.backup).unlink()
            with contextlib.suppress(OSError):
                (folder / JOURNAL_FILE).unlink()


def _undo(folder: Path, steps: dict[str, Any]) -> None:
    """Put the folder back as it was before the change `steps` lists, unless its log was
    put in place (then the change is made: only what was set aside goes)."""
    log_path = folder / LOG_FILE
    _check_steps(steps)
    made = log_path.exists() and file_sha256(log_path) == steps["log"]
    for staged in reversed(steps["files"]):
        target = folder / staged["path"]
        temp = target.parent / staged["temp"] if staged["temp"] else None
        backup = target.parent / staged["backup"] if staged["backup"] else None
        if made:
            if backup is not None and backup.exists():
                backup.unlink()
            continue
        if backup is not None and backup.exists():
            os.replace(backup, target)
        elif backup is None and target.exists() and file_sha256(target) == staged["sha256"]:
            target.unlink()
        if temp is not None and temp.exists():
            temp.unlink()
    log_temp = folder / steps["log_temp"]
    if log_temp.exists():
        log_temp.unlink()
    journal = folder / JOURNAL_FILE
    if journal.exists():
        journal.unlink()


def _check_steps(steps: dict[str, Any]) -> None:
    """ValueError unless every step names a file of the folder's layout and temporary
    names beside it (a journal is never followed out of the folder)."""
    names = [steps["log_temp"]]
    for staged in steps["files"]:
        if not in_layout(staged["path"]):
            raise ValueError(staged["path"])
        names += [staged[k] or ".x.0000000000000000.old" for k in ("temp", "backup")]
    if not all(isinstance(n, str) and TEMPORARY.fullmatch(n) and "/" not in n for n in names):
        raise ValueError(names)


def _put_journal(folder: Path, steps: dict[str, Any]) -> None:
    temp = _temporary(folder / JOURNAL_FILE, "tmp")
    _write_synced(temp, json.dumps(steps).encode("utf-8"))
    os.replace(temp, folder / JOURNAL_FILE)
    _sync_folder(folder)


# The changes open in this process, by folder: a file written or an entry logged while
# one is open joins it.
_OPEN: dict[str, Change] = {}


def open_change(folder: Path) -> Change | None:
    return _OPEN.get(_key(folder))


@contextmanager
def changing(folder: Path, check: bool = True) -> Iterator[Change]:
    """A change to the folder: its lock held, a change cut short put back, the folder
    checked against its log (when `check`); what the block stages is put in place when
    it ends, all of it, or none if it fails."""
    key = _key(folder)
    if key in _OPEN:
        yield _OPEN[key]
        return
    if check:
        must_be_event(folder)
    with locked(folder):
        recover(folder)
        problems, _, diffs = integrity_problems(folder)
        if not check:  # links are refused all the same: nothing is written through one
            links = {str(folder / d.path) for d in diffs if d.code == "event.symlink"}
            problems = [p for p in problems if p.source in links]
        if problems:
            raise InvalidData(problems)
        change = Change(folder)
        _OPEN[key] = change
        try:
            yield change
            change.commit()
        except BaseException:
            change.abort()
            raise
        finally:
            del _OPEN[key]


def _temporary(path: Path, kind: str) -> Path:
    return path.parent / f".{path.name}.{secrets.token_hex(8)}.{kind}"


def _write_synced(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_BINARY | _O_NOFOLLOW, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folders(folder: Path, staged: list[_Staged]) -> None:
    for where in {folder} | {(folder / s.path).parent for s in staged}:
        _sync_folder(where)


def _sync_folder(folder: Path) -> None:
    """The folder's entries on the disk (a rename is durable); not on Windows."""
    if sys.platform == "win32":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGTERM held back while the folder is put back, then delivered."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
        if received:
            signal.raise_signal(received[0])


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return type(exc).__name__


@dataclass(frozen=True)
class Accepted:
    """What `accept` logged: each difference, and the log's own problems (line, code)."""

    differences: tuple[dict[str, Any], ...]
    log_problems: tuple[dict[str, Any], ...]


def accept(folder: Path, reason: str, by: str) -> Accepted:
    """Log the folder as it is now as the event's, with who accepted it and why: each
    file that differs from the log (its path, the sha256 logged and found), and the log
    before this entry sealed by its sha256 (an edit of it after is seen again).

    Refused: links, misnamed or unreadable rounds (they would be read as results)."""
    from duplicate.io.event_log import Difference, difference_problem

    if not reason.strip():
        raise UsageError("say why the folder is accepted: give {opt:reason}", "event.no-reason")
    must_be_event(folder)
    with locked(folder):
        try:
            recover(folder)
        except InvalidData:  # a journal that cannot be read: the user accepts what is there
            for path in found_files(folder).leftovers:
                path.unlink()
        problems, log, diffs = integrity_problems(folder)
        if not problems:
            return Accepted((), ())
        refused = [d for d in diffs if d.code in ("event.symlink", "event.file-misnamed")]
        refused += [
            Difference("event.round-unreadable", d.path, d.logged, d.found)
            for d in diffs
            if d.found and d.path.startswith("rounds/") and not _readable(folder / d.path)
        ]
        if refused:
            raise InvalidData([_refusal(folder, d, log, difference_problem) for d in refused])
        found = found_files(folder)
        state = [{"path": p, "sha256": file_sha256(f)} for p, f in sorted(found.files.items())]
        data = log.data if log.data.endswith(b"\n") or not log.data else log.data + b"\n"
        accepted = Accepted(
            tuple(d.record() for d in diffs),
            tuple({"code": p.code, "line": p.rows[0] if p.rows else None} for p in log.problems),
        )
        with changing(folder, check=False) as change:
            change.log_prefix = data
            change.log(
                "accept",
                by=by,
                reason=reason,
                accepted=list(accepted.differences),
                log_problems=list(accepted.log_problems),
                sealed={"lines": log.lines, "sha256": hashlib.sha256(data).hexdigest()},
                state=state,
            )
        return accepted


def _readable(path: Path) -> bool:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pq.read_metadata(path)
    except (OSError, pa.ArrowException):
        return False
    return True


def _refusal(folder: Path, difference: Any, log: Any, problem: Any) -> Any:
    from duplicate.errors import Problem

    if difference.code == "event.round-unreadable":
        return Problem(
            str(folder / difference.path),
            "is not a readable round (Parquet): it cannot be accepted",
            hint="put back the round as stored, or remove it",
            code=difference.code,
        )
    found: Problem = problem(folder, difference, log)
    return Problem(
        found.source,
        found.message + ": it cannot be accepted",
        hint="put the file itself in the folder under a round's name, or remove it",
        code=found.code,
    )
