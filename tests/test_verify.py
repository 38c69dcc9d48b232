"""`verify`: published standings against recomputed ones."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import SAMPLE

runner = CliRunner()
RESULTS = str(SAMPLE / "big2_event.csv")


def publish(tmp_path: Path, suffix: str) -> Path:
    path = tmp_path / f"standings.{suffix}"
    assert runner.invoke(app, ["standings", RESULTS, "-o", str(path)]).exit_code == 0
    return path


def differences(published: Path) -> tuple[int, pd.DataFrame]:
    result = runner.invoke(app, ["verify", RESULTS, str(published)])
    found = (
        pd.read_csv(io.StringIO(result.stdout), dtype=str, keep_default_na=False)
        if result.stdout
        else pd.DataFrame()
    )
    return result.exit_code, found


@pytest.mark.parametrize("suffix", ["csv", "parquet", "json"])
def test_untouched_output_agrees(tmp_path: Path, suffix: str) -> None:
    result = runner.invoke(app, ["verify", RESULTS, str(publish(tmp_path, suffix))])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "agrees" in result.stderr


def test_a_single_changed_total(tmp_path: Path) -> None:
    path = publish(tmp_path, "csv")
    path.write_text(path.read_text().replace(",P39,67835.09,", ",P39,67835.10,"))
    code, found = differences(path)
    assert code == 1
    assert found.to_dict("records") == [
        {
            "section": "",
            "player": "P39",
            "field": "total",
            "published": "67835.10",
            "recomputed": "67835.09",
        }
    ]


def test_a_swapped_pair_of_places(tmp_path: Path) -> None:
    path = publish(tmp_path, "csv")
    text = path.read_text()
    text = re.sub(r"^,1,P39,", ",X,P39,", text, flags=re.M)
    text = re.sub(r"^,2,P47,", ",1,P47,", text, flags=re.M)
    text = re.sub(r"^,X,P39,", ",2,P39,", text, flags=re.M)
    path.write_text(text)
    code, found = differences(path)
    assert code == 1
    assert sorted(
        zip(found["player"], found["field"], found["published"], found["recomputed"], strict=True)
    ) == [
        ("P39", "place", "2", "1"),
        ("P47", "place", "1", "2"),
    ]


def test_a_missing_player(tmp_path: Path) -> None:
    path = publish(tmp_path, "json")
    document = json.loads(path.read_text())
    document["items"] = [r for r in document["items"] if r["player"] != "P07"]
    path.write_text(json.dumps(document))
    code, found = differences(path)
    assert code == 1
    assert found.to_dict("records") == [
        {
            "section": "",
            "player": "P07",
            "field": "player",
            "published": "(missing)",
            "recomputed": "P07",
        }
    ]


def test_json_numbers_print_exactly(tmp_path: Path) -> None:
    text = publish(tmp_path, "json").read_text()
    numbers = re.findall(r'"(?:total|beaten_avg|trimmed_seconds)": ([0-9.]+)', text)
    assert numbers
    assert all(len(n.split(".")[1]) <= 2 for n in numbers if "." in n)


def test_an_extra_player_and_a_column_not_shown(tmp_path: Path) -> None:
    path = publish(tmp_path, "csv")
    lines = path.read_text().splitlines()
    lines.append(",49,GHOST,0.00,0.00,1,0.00,,1,1.00,total,false")
    path.write_text("\n".join(lines) + "\n")
    code, found = differences(path)
    assert code == 1
    assert found.to_dict("records") == [
        {
            "section": "",
            "player": "GHOST",
            "field": "player",
            "published": "GHOST",
            "recomputed": "(not in the results)",
        }
    ]
    frame = pd.read_csv(publish(tmp_path, "csv"), dtype=str, keep_default_na=False).drop(
        columns="deals"
    )
    frame.to_csv(path, index=False)
    result = runner.invoke(app, ["verify", RESULTS, str(path)])
    # A column the published file does not show is not compared, and said so.
    assert (result.exit_code, result.stdout) == (0, "")
    assert f"not compared (not in {path}): deals\n" in result.stderr


def test_a_published_file_of_place_player_and_total_is_checked_on_those(
    tmp_path: Path,
) -> None:
    full = pd.read_csv(publish(tmp_path, "csv"), dtype=str, keep_default_na=False)
    path = tmp_path / "published.csv"
    full[["place", "player", "total"]].to_csv(path, index=False)
    found = duplicate.verify(RESULTS, path)
    assert found.agrees
    assert "place" not in found.not_compared
    assert {"penalty", "deals", "decided_by"} <= set(found.not_compared)
    # A wrong total among the columns it has is still a difference.
    changed = full[["place", "player", "total"]].copy()
    changed.loc[0, "total"] = "1.00"
    changed.to_csv(path, index=False)
    code, rows = differences(path)
    assert code == 1
    assert rows[["player", "field", "published"]].to_dict("records") == [
        {"player": full.loc[0, "player"], "field": "total", "published": "1.00"}
    ]


def test_an_id_with_a_nul_is_a_difference_not_a_defect(tmp_path: Path) -> None:
    published = tmp_path / "standings.json"
    published.write_text(
        json.dumps({"standings": [{"section": "\x00", "player": 0, "total": 0, "place": 0}]})
    )
    result = runner.invoke(app, ["verify", RESULTS, str(published)])
    assert result.exit_code == 1, result.stderr
    assert "\\x00,0,player,0,(not in the results)" in result.stdout
