"""The expected outputs in tests/golden, produced by both the library and the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.golden.regenerate import cases, expected_outputs

CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_library_reproduces_golden_files(case: Path) -> None:
    for name, data in expected_outputs(case).items():
        assert data == (case / name).read_bytes(), f"{case.name}/{name} changed"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("command", ["score", "standings"])
def test_cli_reproduces_golden_files(case: Path, command: str) -> None:
    rules = case / "rules.toml"
    args = [command, str(case / "results.csv"), "-o", "-"]
    if rules.exists():
        args += ["--rules", str(rules)]
    if (case / "adjustments.csv").exists():
        args += ["--adjustments", str(case / "adjustments.csv")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes == (case / f"{command}.csv").read_bytes()


def test_every_tie_break_decides_some_golden_case() -> None:
    decided = set()
    for case in CASES:
        lines = (case / "standings.csv").read_text(encoding="utf-8").splitlines()
        decided |= {line.split(",")[-2] for line in lines[1:]}
    assert decided >= {
        "total",
        "beaten_avg",
        "rank_counts",
        "total_seconds",
        "trimmed_seconds",
        "tied",
    }
