"""Every file in tests/data/bad is rejected by every command that reads results."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import BAD

EXPECTED: dict[str, str] = tomllib.loads((BAD / "EXPECTED.toml").read_text(encoding="utf-8"))
# Every command that reads results, as it would be run on them.
COMMANDS = {
    "score to CSV": ["score", "{bad}", "-o", "{out}.csv"],
    "score to Parquet": ["score", "{bad}", "-o", "{out}.parquet"],
    "standings to CSV": ["standings", "{bad}", "-o", "{out}.csv"],
    "standings to Parquet": ["standings", "{bad}", "-o", "{out}.parquet"],
    "validate": ["validate", "{bad}"],
    "explain": ["explain", "A", "{bad}"],
    "seat": ["seat", "{bad}", "-o", "{out}.csv"],
    "report": ["report", "{bad}", "-o", "{out}"],
    "verify": ["verify", "{bad}", "{published}"],
}


def test_every_bad_file_has_an_expectation() -> None:
    files = {p.name for p in BAD.iterdir() if p.name != "EXPECTED.toml"}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_input_is_rejected_cleanly(command: str, name: str, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    published = tmp_path / "published.csv"
    published.write_text("section,place,player,total\n,1,A,10000.00\n")
    names = {"bad": BAD / name, "out": work / "out", "published": published}
    args = [part.format(**names) for part in COMMANDS[command]]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.stderr
    assert EXPECTED[name] in result.stderr
    assert str(BAD / name) in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert list(work.iterdir()) == []
