"""A file's first line, read as what it should be: a CSV header of short names, or the
start of a published table. What is not is refused with a code, never a defect."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT

runner = CliRunner()
EVENT = ROOT / "sample_data" / "spec_example.csv"


def run(*args: object, stdin: bytes | None = None) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stderr


@pytest.mark.parametrize("length", [200 * 1024, 17 * 1024 * 1024])
def test_a_header_name_past_what_is_read_is_refused(tmp_path: Path, length: int) -> None:
    """A name over the 128 KiB the csv module reads; a first line over a look (16 MiB)."""
    data = b"x" * length + b",deal,seat,player,score\n1,1,1,P1,1\n"
    upload = tmp_path / "upload.csv"
    upload.write_bytes(data)
    for source, given in ((upload, None), ("-", data)):
        code, err = run("validate", source, stdin=given)
        assert code == 1, err
        assert "error[input.long-header]" in err


@pytest.mark.parametrize(
    "text", ["[]", '[{"standings": []}]', '\ufeff [\n  {"place": 1, "player": "P1"}\n]\n']
)
def test_verify_refuses_a_json_list(tmp_path: Path, text: str) -> None:
    published = tmp_path / "standings.json"
    published.write_text(text, encoding="utf-8")
    code, err = run("verify", EVENT, published)
    assert code == 1, err
    assert "error[published.no-standings]" in err
