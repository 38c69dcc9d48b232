"""Hostile and malformed input: every case ends with a documented exit code and a
message that says what to fix; a wrong number or a damaged file is never the answer."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import SAMPLE

runner = CliRunner()
EVENT = SAMPLE / "big2_event.csv"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def one_round(tmp_path: Path) -> Path:
    path = tmp_path / "round1.csv"
    frame = pd.read_csv(EVENT, dtype=str)
    frame[frame["round"] == "1"].to_csv(path, index=False)
    return path


def test_a_long_list_of_problems_is_cut_after_50_with_a_count(tmp_path: Path) -> None:
    n = 20_000
    path = tmp_path / "bad.csv"
    pd.DataFrame(
        {"deal": np.arange(n) // 4, "seat": np.arange(n) % 4, "player": np.arange(n) % 4}
    ).assign(score="x").to_csv(path, index=False)
    code, _, err = run("validate", path)
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 52
    assert "19950 more problems of this kind" in lines[-2]
    assert lines[-1] == "20000 problems found; nothing was written."


def test_many_seating_conflicts_are_cut_after_50(tmp_path: Path) -> None:
    n = 2_000
    path = tmp_path / "twice.csv"
    pd.DataFrame({"deal": 1, "seat": 0, "player": np.arange(n) // 2, "score": 1}).to_csv(
        path, index=False
    )
    code, _, err = run("validate", path)
    assert code == 1
    assert len(err.splitlines()) == 52
    assert "950 more problems of this kind" in err
    assert "1000 problems found" in err


def test_a_csv_file_with_old_mac_line_ends_reads_like_any_other(tmp_path: Path) -> None:
    plain = one_round(tmp_path)
    mac = tmp_path / "mac.csv"
    mac.write_bytes(plain.read_bytes().replace(b"\n", b"\r"))
    assert run("score", mac, "-f", "csv")[:2] == run("score", plain, "-f", "csv")[:2]


def test_verify_refuses_standings_with_no_rows_or_no_players(tmp_path: Path) -> None:
    results = one_round(tmp_path)
    for document in ('{"standings": []}', '{"standings": [1, 2]}', '{"rows": []}'):
        published = tmp_path / "standings.json"
        published.write_text(document)
        code, _, err = run("verify", results, published)
        assert code == 1, err
        assert str(published) in err
        assert "Traceback" not in err


def test_verify_refuses_deeply_nested_json(tmp_path: Path) -> None:
    published = tmp_path / "nested.json"
    published.write_text('{"standings": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code, _, err = run("verify", one_round(tmp_path), published)
    assert code == 1
    assert "nested too deeply" in err


def test_verify_compares_ids_as_written(tmp_path: Path) -> None:
    """007 and 7 are two players: swapping their rows is a difference."""
    frame = pd.read_csv(one_round(tmp_path), dtype=str)
    players = sorted(frame["player"].unique())
    frame["player"] = frame["player"].replace({players[0]: "007", players[1]: "7"})
    results = tmp_path / "ids.csv"
    frame.to_csv(results, index=False)
    published = tmp_path / "standings.csv"
    assert run("standings", results, "-o", published)[0] == 0
    assert run("verify", results, published)[0] == 0
    text = published.read_text()
    swapped = text.replace(",007,", ",@@,").replace(",7,", ",007,").replace(",@@,", ",7,")
    assert swapped != text
    published.write_text(swapped)
    code, out, _ = run("verify", results, published)
    assert code == 1
    assert {"007", "7"} <= set(pd.read_csv(io.StringIO(out), dtype=str)["player"])


def test_verify_finds_a_repeated_row(tmp_path: Path) -> None:
    results = one_round(tmp_path)
    published = tmp_path / "standings.csv"
    assert run("standings", results, "-o", published)[0] == 0
    lines = published.read_text().splitlines()
    published.write_text("\n".join([*lines, lines[1]]) + "\n")
    code, out, _ = run("verify", results, published)
    assert code == 1
    found = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert found.to_dict("records") == [
        {
            "section": "",
            "player": lines[1].split(",")[2],
            "field": "player",
            "published": "2 rows",
            "recomputed": "1 row",
        }
    ]


def test_verify_shows_published_numbers_as_written(tmp_path: Path) -> None:
    results = one_round(tmp_path)
    published = tmp_path / "standings.json"
    assert run("standings", results, "-o", published)[0] == 0
    document = json.loads(published.read_text())
    document["standings"][0]["total"] = "1.50"
    published.write_text(json.dumps(document))
    code, out, _ = run("verify", results, published)
    assert code == 1
    assert ",total,1.50," in out
