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
