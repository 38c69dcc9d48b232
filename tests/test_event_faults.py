"""Changes to an event folder under faults: a full disk, a read-only folder, SIGTERM or a
kill at each step of the change, two commands at once, and a folder tampered with at
random. After each, the folder is as it was or as the change made it, never between:
`event status` finds it intact, no upload is lost, and the command can be run again.

`make test` runs each fault at a fixed set of steps; `make fuzz` at every step, with many
more random tamperings (DUPLICATE_FUZZ_EXAMPLES)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import ROOT

# Processes killed and faults injected at every step: seconds each, and the same on
# every version of the libraries (the minimum-versions run leaves them out).
pytestmark = pytest.mark.slow

runner = CliRunner()
EVENT = ROOT / "sample_data" / "big2_event.csv"
EXPLORING = "DUPLICATE_FUZZ_EXAMPLES" in os.environ
ALLOWED_EXITS = {0, 1, 2, 3}
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="signals and flock are POSIX")


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def event_folder(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    """Rounds 1 and 2 in; uploads of round 3, and of round 2 corrected."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    played = pd.read_csv(EVENT)
    files: dict[str, Path] = {}
    for number, rows in played.groupby("round"):
        files[f"round{number}"] = tmp_path / f"round{number}.csv"
        rows.to_csv(files[f"round{number}"], index=False)
    fixed = played[played["round"] == 2].copy()
    fixed.loc[fixed.index[0], "score"] += 1
    fixed.loc[fixed.index[1], "score"] -= 1
    files["fixed2"] = tmp_path / "fixed2.csv"
    fixed.to_csv(files["fixed2"], index=False)
    folder = tmp_path / "spring"
    duplicate.event_init(folder, "Spring", "2026-12-05", "big2", 4)
    for number in (1, 2):
        duplicate.event_add(folder, files[f"round{number}"])
    return folder, files


def snapshot(folder: Path) -> dict[str, Any]:
    """The folder's files and contents (the log by its entries), the lock left out."""
    found: dict[str, Any] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and name not in ("log.jsonl", ".lock"):
            found[name] = path.read_bytes()
    log = (folder / "log.jsonl").read_text().splitlines()
    found["log actions"] = [json.loads(line)["action"] for line in log]
    return found


def intact(folder: Path) -> bool:
    code, out, err = run("event", "status", folder)
    assert code == 0, err
    return bool(json.loads(out)["intact"])


CHANGES = {
    "add": lambda files: ("event", "add", "{folder}", files["round3"]),
    "replace": lambda files: ("event", "add", "{folder}", files["fixed2"], "--replace"),
}
WATCHED = ("open", "write", "fsync", "replace")


class Fault:
    """The `at`-th call of the watched system calls fails with `fault`."""

    def __init__(self, at: int, fault: BaseException | None) -> None:
        self.at, self.fault, self.calls = at, fault, 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for name in WATCHED:
            real = getattr(os, name)

            def watched(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
                self.calls += 1
                if self.calls == self.at and self.fault is not None:
                    raise self.fault
                return _real(*args, **kwargs)

            monkeypatch.setattr(os, name, watched)


def faults() -> dict[str, BaseException]:
    return {
        "full-disk": OSError(errno.ENOSPC, "No space left on device"),
        "read-only": OSError(errno.EROFS, "Read-only file system"),
        # What the program's SIGTERM handler raises wherever the signal lands.
        "sigterm": SystemExit(128 + signal.SIGTERM),
    }


def steps_of(change: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    folder, files = event_folder(tmp_path / "count")
    counter = Fault(0, None)
    with monkeypatch.context() as patch:
        counter.install(patch)
        args = [str(a).format(folder=folder) for a in CHANGES[change](files)]
        assert run(*args)[0] == 0
    return counter.calls


FIXED_STEPS = (1, 3, 6, 10, 14, 18, 22)


@pytest.mark.parametrize("fault", sorted(faults()))
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_fault_at_each_step_leaves_the_folder_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str, fault: str
) -> None:
    steps = steps_of(change, tmp_path, monkeypatch)
    assert steps >= 8  # lock, temporary files, journal, renames: each is a step
    done_folder, done_files = event_folder(tmp_path / "done")
    assert run(*[str(a).format(folder=done_folder) for a in CHANGES[change](done_files)])[0] == 0
    done = snapshot(done_folder)
    chosen = range(1, steps + 1) if EXPLORING else [s for s in FIXED_STEPS if s <= steps] + [steps]
    for step in chosen:
        folder, files = event_folder(tmp_path / f"{fault}-{step}")
        args = [str(a).format(folder=folder) for a in CHANGES[change](files)]
        before = snapshot(folder)
        with monkeypatch.context() as patch:
            Fault(step, faults()[fault]).install(patch)
            code, _, err = run(*args)
        assert "Traceback" not in err
        if code == 0:
            assert snapshot(folder) == done, (step, err)
        elif fault == "sigterm":
            # Ended before the log was put in place: undone; after: the change is made.
            assert code == 143
            assert intact(folder), step
            assert snapshot(folder) in (before, done), step
        else:
            assert code == 3, (step, err)
            assert snapshot(folder) == before, (step, err)
        assert intact(folder), step
        if snapshot(folder) == before:
            # Run again: the change goes in.
            code, _, err = run(*args)
            assert code == 0, err
            assert snapshot(folder) == done, step
            assert intact(folder)


KILLED = """
import os, sys
from duplicate.cli import main
calls = 0
real = os.replace
def replace(*args, **kwargs):
    global calls
    calls += 1
    if calls == {step}:
        os._exit(137)
    return real(*args, **kwargs)
os.replace = replace
sys.argv = ["duplicate", *{args!r}]
main()
"""


@POSIX
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_kill_at_each_rename_is_undone_by_the_next_command(tmp_path: Path, change: str) -> None:
    done_folder, done_files = event_folder(tmp_path / "done")
    assert run(*[str(a).format(folder=done_folder) for a in CHANGES[change](done_files)])[0] == 0
    done = snapshot(done_folder)
    renames = 5 if change == "replace" else 3  # the journal, each file, the log
    for step in range(1, renames + 1):
        folder, files = event_folder(tmp_path / f"kill-{step}")
        before = snapshot(folder)
        args = [str(a).format(folder=folder) for a in CHANGES[change](files)]
        script = KILLED.format(step=step, args=args)
        killed = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
        assert killed.returncode == 137, killed.stderr
        # The next command (here status) finds the change cut short and undoes it.
        assert intact(folder), step
        assert snapshot(folder) == before, step
        assert not list(folder.rglob(".*.tmp"))
        assert not (folder / ".pending.json").exists()
        assert run(*args)[0] == 0
        assert snapshot(folder) == done


@POSIX
def test_sigterm_during_a_replace_leaves_it_done_or_not_done(tmp_path: Path) -> None:
    """A real SIGTERM, sent while the command runs: exit 143 and the folder as it was,
    or the round replaced and logged (the signal came after the change was made); sent
    before the program is started, the default action ends it (-15)."""
    for delay in (0.5, 0.9, 1.2, 1.5):
        folder, files = event_folder(tmp_path / f"term-{delay}")
        before = snapshot(folder)
        command = [sys.executable, "-m", "duplicate", "event", "add", str(folder)]
        process = subprocess.Popen(
            [*command, str(files["fixed2"]), "--replace"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        time.sleep(delay)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
        assert process.returncode in (0, 143, -signal.SIGTERM), err
        assert b"Traceback" not in err
        assert intact(folder)
        after = snapshot(folder)
        if process.returncode != 0 and after == before:
            continue
        assert after["log actions"][-1] == "replace"
        assert len(list((folder / "replaced").iterdir())) == 1


ADD = "from duplicate.cli import main; import sys; sys.argv = ['duplicate', *sys.argv[1:]]; main()"


def adds_at_once(folder: Path, uploads: list[Path], *options: str) -> list[tuple[int, bytes]]:
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", ADD, "event", "add", str(folder), str(upload), *options],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for upload in uploads
    ]
    return [(p.wait(timeout=120), p.communicate()[1]) for p in processes]


def test_two_adds_of_different_rounds_at_once_are_both_logged(tmp_path: Path) -> None:
    folder, files = event_folder(tmp_path)
    (folder / "rounds" / "round-0002.parquet").unlink()
    assert run("event", "accept", folder, "--reason", "round 2 to be added again")[0] == 0
    # Either may come first: round 3 before round 2 is accepted as out of turn.
    done = adds_at_once(
        folder, [files["round2"], files["round3"]], "--force", "--reason", "sent at once"
    )
    assert [code for code, _ in done] == [0, 0], done
    assert intact(folder)
    actions = snapshot(folder)["log actions"]
    assert actions.count("add") == 4
    assert sorted(p.name for p in (folder / "rounds").iterdir()) == [
        "round-0001.parquet",
        "round-0002.parquet",
        "round-0003.parquet",
    ]


def test_two_adds_of_one_round_at_once_one_is_refused(tmp_path: Path) -> None:
    folder, files = event_folder(tmp_path)
    done = adds_at_once(folder, [files["round3"], files["round3"]])
    assert sorted(code for code, _ in done) == [0, 2], done
    assert any(b"event.round-exists" in err for _, err in done)
    assert intact(folder)
    assert snapshot(folder)["log actions"].count("add") == 3
    assert list((folder / "replaced").iterdir()) == []


HOLD = """
import fcntl, os, sys, time

fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


@POSIX
def test_a_change_waits_a_bounded_time_for_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, files = event_folder(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(folder / ".lock")], stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == b"held\n"
        monkeypatch.setenv("DUPLICATE_LOCK_WAIT", "0.3")
        before = snapshot(folder)
        code, _, err = run("event", "add", folder, files["round3"])
        assert code == 3
        assert "error[event.busy]" in err
        assert snapshot(folder) == before
    finally:
        holder.kill()
        holder.communicate()
    assert run("event", "add", folder, files["round3"])[0] == 0


# -- a folder tampered with at random ------------------------------------------------------

fuzz = settings(
    max_examples=int(os.environ.get("DUPLICATE_FUZZ_EXAMPLES", "12")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=not EXPLORING,
    database=None,
)
STORED = (
    "log.jsonl",
    "event.toml",
    "rules.toml",
    "rounds/round-0001.parquet",
    "rounds/round-0002.parquet",
)
tamper = st.tuples(
    st.sampled_from(["cut", "flip", "delete", "append", "copy-in"]),
    st.sampled_from(STORED),
    st.integers(min_value=0, max_value=10**6),
    st.binary(max_size=20),
)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    return event_folder(tmp_path_factory.mktemp("pristine"))


@fuzz
@given(st.lists(tamper, min_size=1, max_size=3))
def test_a_folder_tampered_with_at_random(
    pristine: tuple[Path, dict[str, Path]], tmp_path_factory: pytest.TempPathFactory, steps: list
) -> None:
    source, files = pristine
    folder = tmp_path_factory.mktemp("tampered") / "spring"
    shutil.copytree(source, folder)
    for how, name, at, data in steps:
        path = folder / name
        if not path.exists():
            continue
        content = path.read_bytes()
        where = at % (len(content) + 1)
        if how == "cut":
            path.write_bytes(content[:where])
        elif how == "flip" and content:
            where %= len(content)
            path.write_bytes(
                content[:where] + bytes([content[where] ^ 0x5A]) + content[where + 1 :]
            )
        elif how == "delete":
            path.unlink()
        elif how == "append":
            path.write_bytes(content + data)
        elif how == "copy-in":
            shutil.copyfile(path, folder / "rounds" / f"round-{at % 9 + 3:04d}.parquet")
    for args in (
        ("event", "status", folder),
        ("standings", folder),
        ("event", "add", folder, files["round3"]),
        ("event", "accept", folder, "--reason", "fuzz"),
    ):
        code, _, err = run(*args)
        assert code in ALLOWED_EXITS, (args, err)
        assert "Traceback" not in err
    code, _out, err = run("event", "status", folder)
    assert code in ALLOWED_EXITS
    assert "Traceback" not in err
