"""`-o` onto what is not a regular file: a FIFO, a device, a link to a descriptor (what
/dev/stdout is) are written into, never replaced by a regular file; a link to a file
has the file replaced, the link kept. (The system's own /dev/null and /dev/stdout are
not used: a run that replaced them would break the machine; copies stand in.)"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT

runner = CliRunner()
EVENT = ROOT / "sample_data" / "spec_example.csv"


def expected() -> bytes:
    result = runner.invoke(app, ["standings", str(EVENT), "-f", "csv", "-o", "-"])
    assert result.exit_code == 0, result.stderr
    return result.stdout_bytes


def standings_to(target: Path, *, stdout: int | None = None) -> subprocess.CompletedProcess[bytes]:
    """`standings -o target` in a process of its own (standard output as given)."""
    command = ["standings", str(EVENT), "-f", "csv", "-o", str(target)]
    return subprocess.run(
        [sys.executable, "-m", "duplicate", *command],
        stdout=stdout if stdout is not None else subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_written_into(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = standings_to(fifo)
    reader.join(timeout=60)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert received == [expected()]
    # Nothing beside it: the table goes alone, as to standard output.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_link_to_standard_output_is_written_into(tmp_path: Path) -> None:
    """/dev/stdout is a link to /proc/self/fd/1: a copy of it in the test's folder."""
    if not Path("/proc/self/fd/1").exists():
        pytest.skip("no /proc/self/fd here")
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    result = standings_to(link)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink()
    assert os.readlink(link) == "/proc/self/fd/1"
    assert result.stdout == expected()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stdout"]


def test_a_link_to_standard_output_takes_csv_without_a_format(tmp_path: Path) -> None:
    if not Path("/proc/self/fd/1").exists():
        pytest.skip("no /proc/self/fd here")
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    result = subprocess.run(
        [sys.executable, "-m", "duplicate", "standings", str(EVENT), "-o", str(link)],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected()


def test_standard_output_sent_to_a_file_keeps_what_it_holds(tmp_path: Path) -> None:
    """`>> log` then `-o /dev/stdout`: the table is added to the file, not put in its
    place."""
    if not Path("/proc/self/fd/1").exists():
        pytest.skip("no /proc/self/fd here")
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    log = tmp_path / "log.txt"
    log.write_bytes(b"earlier\n")
    with open(log, "ab") as sink:
        result = standings_to(link, stdout=sink.fileno())
    assert result.returncode == 0, result.stderr
    assert log.read_bytes() == b"earlier\n" + expected()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="makes a device: root only")
def test_a_device_is_written_into(tmp_path: Path) -> None:
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    result = standings_to(null)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(null.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def test_a_link_to_a_file_is_kept_and_the_file_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real.csv"
    real.write_bytes(b"old\n")
    link = tmp_path / "standings.csv"
    link.symlink_to(real.name)
    result = standings_to(link)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink()
    assert real.read_bytes() == expected()
