"""The `duplicate` program as a process: its exit status and messages when standard
output cannot take the data, when a reader closes the pipe, and with tuning off."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SAMPLE, failing_input, run_main

EVENT = str(SAMPLE / "big2_event.csv")


def duplicate(*args: str, **options: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "duplicate", *args], capture_output=True, check=False, **options
    )  # type: ignore[call-overload, no-any-return]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_on_standard_output_exits_3() -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "duplicate", "score", EVENT],
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    assert done.returncode == 3
    assert b"error[io.stdout]: standard output: cannot write" in done.stderr
    assert b"Traceback" not in done.stderr


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="closing a descriptor by the shell")
def test_a_closed_standard_output_exits_3_and_a_file_is_still_written(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "duplicate", "standings", EVENT]
    done = subprocess.run([*command], stdout=subprocess.DEVNULL, check=False)
    assert done.returncode == 0
    closed = subprocess.run(
        ["sh", "-c", '"$@" >&-', "sh", *command], capture_output=True, check=False
    )
    assert closed.returncode == 3
    assert b"standard output" in closed.stderr
    assert b"Traceback" not in closed.stderr
    out = tmp_path / "standings.csv"
    to_file = subprocess.run(
        ["sh", "-c", '"$@" >&-', "sh", *command, "-o", str(out)], capture_output=True, check=False
    )
    assert to_file.returncode == 0, to_file.stderr
    assert out.read_bytes().startswith(b"section,place,player")


@pytest.mark.skipif(sys.platform == "win32", reason="no SIGPIPE")
def test_a_reader_that_stops_early_ends_the_command_quietly() -> None:
    command = [sys.executable, "-m", "duplicate", "score", EVENT]
    done = subprocess.run(
        ["sh", "-c", '"$@" | head -c 10', "sh", *command], capture_output=True, check=False
    )
    assert done.returncode == 0
    assert done.stdout == b"section,ro"
    assert done.stderr == b""


@pytest.mark.slow
@pytest.mark.parametrize("upload", ["big2_event.parquet", "big2_event.csv"])
@pytest.mark.parametrize("command", ["score", "standings"])
def test_tuning_off_gives_the_same_bytes(tmp_path: Path, upload: str, command: str) -> None:
    outputs = []
    for tuning in ("", "1"):
        out = tmp_path / f"{command}{tuning}.parquet"
        env = {**os.environ, "DUPLICATE_NO_TUNING": tuning}
        done = duplicate(command, str(SAMPLE / upload), "-o", str(out), env=env)
        assert done.returncode == 0, done.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("entry", ["app", "main"])
def test_a_command_leaves_arrow_s_memory_pool_as_it_was(
    entry: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A program running commands in its own process gets Arrow's memory pool back as
    it was: through typer's app (the process left untuned), and through the program's
    entry, which tunes the process it runs in (and so reads a CSV file in a pool of its
    own while it reads it). Twice, as a program calling commands in turn would."""
    import pyarrow as pa
    from typer.testing import CliRunner

    from duplicate.cli import app

    before = pa.default_memory_pool().backend_name
    for turn in range(2):
        args = ["score", EVENT, "-o", str(tmp_path / f"scores{turn}.csv")]
        if entry == "app":
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 0, result.stderr
        else:
            assert run_main(args, monkeypatch, tuned=True) == 0
        assert pa.default_memory_pool().backend_name == before


@pytest.mark.skipif(sys.platform == "win32", reason="closing a descriptor by the shell")
def test_a_closed_standard_error_loses_only_the_messages(tmp_path: Path) -> None:
    out = tmp_path / "standings.csv"
    command = [sys.executable, "-m", "duplicate", "standings", EVENT, "-o", str(out)]
    done = subprocess.run(["sh", "-c", '"$@" 2>&-', "sh", *command], check=False)
    assert done.returncode == 0
    assert out.read_bytes().startswith(b"section,place,player")
    bad = tmp_path / "bad.csv"
    bad.write_text("deal,seat,player,score\n1,0,A,x\n")
    command = [sys.executable, "-m", "duplicate", "validate", str(bad)]
    assert subprocess.run(["sh", "-c", '"$@" 2>&-', "sh", *command], check=False).returncode == 1


@pytest.mark.skipif(sys.platform == "win32", reason="closing a descriptor by the shell")
def test_a_closed_standard_input_exits_3() -> None:
    command = [sys.executable, "-m", "duplicate", "score", "-"]
    done = subprocess.run(["sh", "-c", '"$@" <&-', "sh", *command], capture_output=True)
    assert done.returncode == 3
    assert b"standard input is closed" in done.stderr


def test_running_out_of_memory_exits_3_with_advice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Memory running out while the results are read (here, standard input too big to
    hold): exit 3 and what to do about it, no traceback."""
    monkeypatch.setattr(sys, "stdin", failing_input(MemoryError()))
    assert run_main(["standings", "-"], monkeypatch) == 3
    err = capsys.readouterr().err
    assert "out of memory" in err
    assert "--engine dask" in err
    assert "Traceback" not in err


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="peak memory in KiB (Linux)")
def test_an_upload_over_the_row_limit_is_refused_without_being_held(tmp_path: Path) -> None:
    upload = tmp_path / "huge.csv"
    line = b"1,1,1,0,P0000001,10\n"
    with open(upload, "wb") as out:
        out.write(b"round,deal,table,seat,player,score\n")
        for _ in range(256):  # 256 MiB
            out.write(line * (2**20 // len(line) + 1))
    command = [sys.executable, "-m", "duplicate", "--max-rows", "1000", "validate", str(upload)]
    done = subprocess.run([sys.executable, "-c", PEAK_OF, *command], capture_output=True)
    code, peak_kib = map(int, done.stdout.split())
    assert code == 1
    assert b"more than the 1,000 rows read at once" in done.stderr
    # The command's own size (Python, pandas, Arrow) and a block of the file at a time.
    assert peak_kib < 256 * 1024, f"peak {peak_kib // 1024} MiB"


# Runs a command and prints its exit code and peak memory. A process's peak counts what
# it was before exec, the image forked from its parent: this small parent keeps the
# command's own figure clean of the test runner's size.
PEAK_OF = """
import os, subprocess, sys
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(process.pid, 0)
process.returncode = os.waitstatus_to_exitcode(status)
print(process.returncode, usage.ru_maxrss)
"""


def _fed(args: list[str], feed: str) -> subprocess.CompletedProcess[bytes]:
    """The program reading standard input from a shell pipeline that never ends by itself
    (the reader must stop it), within a memory cap where the system has one."""
    command = f"{feed} | {sys.executable} -m duplicate {' '.join(args)}"
    return subprocess.run(
        ["bash", "-c", f"ulimit -v 3000000 2>/dev/null; {command}"],
        capture_output=True,
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell pipeline")
def test_standard_input_with_no_line_end_is_refused_as_it_is_read() -> None:
    done = _fed(["standings", "-"], "cat /dev/zero")
    assert done.returncode == 1, done.stderr
    assert b"error[input.long-line]: <stdin>" in done.stderr
    assert b"Traceback" not in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell pipeline")
def test_standard_input_past_the_row_limit_is_refused_as_it_is_read() -> None:
    done = _fed(["--max-rows", "1000", "score", "-"], "yes 1,1,0,P1,5")
    assert done.returncode == 1, done.stderr
    assert b"error[input.too-many-rows]: <stdin>" in done.stderr
    assert b"Traceback" not in done.stderr
