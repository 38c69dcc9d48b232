"""Every file in tests/data/bad is rejected by every command that reads results."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import BAD

EXPECTED: dict[str, str] = tomllib.loads((BAD / "EXPECTED.toml").read_text(encoding="utf-8"))
COMMANDS = ["score", "standings", "validate"]


def test_every_bad_file_has_an_expectation() -> None:
    files = {p.name for p in BAD.iterdir() if p.name != "EXPECTED.toml"}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_bad_input_is_rejected_cleanly(
    command: str, name: str, suffix: str, tmp_path: Path
) -> None:
    # A Parquet score file is streamed while the seating checks run: still nothing written.
    out = tmp_path / f"out{suffix}"
    args = [command, str(BAD / name)] + (["-o", str(out)] if command != "validate" else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.stderr
    assert EXPECTED[name] in result.stderr
    assert str(BAD / name) in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []
