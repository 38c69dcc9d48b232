"""The allocator settings: what they ask of glibc, and which commands ask."""

from __future__ import annotations

import ctypes
from typing import Any

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from duplicate.io import memory
from tests.conftest import SAMPLE

# The real lookup (conftest replaces it, so that commands leave this process alone).
real_libc = memory._libc


class FakeLibc:
    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[int, ...]]] = []

    def mallopt(self, *args: int) -> int:
        self.calls.append(("mallopt", args))
        return 1

    def malloc_trim(self, *args: int) -> int:
        self.calls.append(("malloc_trim", args))
        return 1


def arrow_pools(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The Arrow memory pools set from now on, by backend (this process's is kept)."""
    chosen: list[str] = []
    monkeypatch.setattr(pa, "set_memory_pool", lambda pool: chosen.append(pool.backend_name))
    return chosen


def test_keeping_freed_memory_asks_for_one_untrimmed_heap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    libc = FakeLibc()
    monkeypatch.setattr(memory, "_libc", real_libc)
    monkeypatch.setattr(ctypes, "CDLL", lambda name: libc)
    pools = arrow_pools(monkeypatch)
    memory.keep_freed_memory()
    memory.release_freed_memory()
    assert libc.calls == [
        ("mallopt", (memory.M_MMAP_MAX, 0)),
        ("mallopt", (memory.M_TRIM_THRESHOLD, 2**31 - 1)),
        ("mallopt", (memory.M_ARENA_MAX, 1)),
        ("malloc_trim", (0,)),
    ]
    # Arrow's buffers come from that same heap.
    assert pools == ["system"]


def test_without_glibc_nothing_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> object:
        raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(memory, "_libc", real_libc)
    monkeypatch.setattr(ctypes, "CDLL", missing)
    pools = arrow_pools(monkeypatch)
    memory.keep_freed_memory()
    memory.release_freed_memory()
    assert pools == []


@pytest.mark.parametrize(
    ("command", "suffix", "steps"),
    [
        ("score", "csv", ["keep", "read"]),
        ("score", "parquet", ["keep", "read"]),
        # standings holds many arrays at once: a CSV file's text is given back first.
        ("standings", "csv", ["read", "keep"]),
        ("standings", "parquet", ["keep", "read"]),
    ],
)
def test_when_commands_keep_freed_memory(
    monkeypatch: pytest.MonkeyPatch, command: str, suffix: str, steps: list[str]
) -> None:
    from duplicate.cli import result_table

    taken: list[str] = []
    read_inputs = result_table.read_inputs

    def reading(*args: Any, **kwargs: Any) -> Any:
        taken.append("read")
        return read_inputs(*args, **kwargs)

    monkeypatch.setattr(memory, "keep_freed_memory", lambda: taken.append("keep"))
    monkeypatch.setattr(result_table, "read_inputs", reading)
    result = CliRunner().invoke(app, [command, str(SAMPLE / f"big2_event.{suffix}")])
    assert result.exit_code == 0, result.stderr
    assert taken == steps
