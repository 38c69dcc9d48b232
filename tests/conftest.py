from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"
GOLDEN = Path(__file__).resolve().parent / "golden"
BAD = Path(__file__).resolve().parent / "data" / "bad"


@pytest.fixture
def spec_example() -> Path:
    return SAMPLE / "spec_example.csv"


@pytest.fixture(autouse=True)
def _allocator_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands run here share the test process: they leave its C allocator as it is.

    (`score` tunes glibc for its own process; tests/test_memory.py checks what it asks.)
    """
    from duplicate.io import memory

    monkeypatch.setattr(memory, "_libc", lambda: None)
