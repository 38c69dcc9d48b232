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
from tests.conftest import SAMPLE, codes, line_of

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


SESSION = str(SAMPLE / "bridge_session.pbn")


def published_session(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    """The sample session's percentage standings as `standings` writes them, edited."""
    path = tmp_path / "session.csv"
    assert runner.invoke(app, ["standings", SESSION, "-o", str(path)]).exit_code == 0
    text = path.read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text)
    return path


ONE_DECIMAL = ((",78.89,", ",78.9,"), (",52.22,", ",52.2,"), (",35.56,", ",35.6,"))


def test_percentages_published_at_one_decimal_agree(tmp_path: Path) -> None:
    path = published_session(tmp_path, *ONE_DECIMAL)
    result = runner.invoke(app, ["verify", SESSION, str(path)])
    assert (result.exit_code, result.stdout) == (0, ""), result.stderr
    assert "percentage compared at 1 decimal, as published\n" in result.stderr
    assert "agrees" in result.stderr


def test_a_wrong_percentage_at_one_decimal_is_named(tmp_path: Path) -> None:
    path = published_session(tmp_path, *ONE_DECIMAL[:1], (",52.22,", ",52.3,"))
    result = runner.invoke(app, ["verify", SESSION, str(path), "--format", "csv"])
    assert result.exit_code == 1
    assert result.stdout == (
        "section,player,field,published,recomputed\nEW,7,percentage,52.3,52.22\n"
    )
    assert "in 1 field" in result.stderr


def test_more_decimals_than_ours_must_match_exactly(tmp_path: Path) -> None:
    # 78.888... is 78.89 to 2 decimals; 78.889 is more than the standings show.
    path = published_session(tmp_path, (",78.89,", ",78.889,"))
    result = runner.invoke(app, ["verify", SESSION, str(path), "--format", "csv"])
    assert result.exit_code == 1
    assert "EW,9,percentage,78.889,78.89\n" in result.stdout
    assert "compared at" not in result.stderr


def test_an_exact_half_rounds_as_the_rules_say(tmp_path: Path) -> None:
    # Pair 5 has exactly 37.5%: 38 rounding half-up, 37 half-down.
    up = published_session(tmp_path, (",37.50,", ",38,"))
    result = runner.invoke(app, ["verify", SESSION, str(up)])
    assert (result.exit_code, result.stdout) == (0, ""), result.stderr
    assert "percentage compared at 0 decimals, as published\n" in result.stderr
    down = ["--percentage-rounding", "half-down", "--format", "csv"]
    result = runner.invoke(app, ["verify", SESSION, str(up), *down])
    assert result.exit_code == 1
    assert "NS,5,percentage,38,37.50\n" in result.stdout
    up.write_text(up.read_text().replace(",38,", ",37,"))
    assert runner.invoke(app, ["verify", SESSION, str(up), *down]).exit_code == 0


def test_the_exact_value_is_rounded_not_the_written_one() -> None:
    from fractions import Fraction

    from duplicate.scoring.verify import compare

    def found(*given: object) -> pd.DataFrame:
        return compare(*given).differences  # type: ignore[arg-type]

    published = pd.DataFrame({"player": ["1"], "percentage": ["66.6"]})
    recomputed = pd.DataFrame({"section": [""], "player": ["1"], "percentage": ["66.65"]})
    # 66.649 is 66.65 to 2 decimals but 66.6 to 1: never rounded twice.
    exact = {"percentage": {("", "1"): Fraction(66649, 1000)}}
    assert found(published, recomputed, exact).empty
    assert found(published, recomputed)["recomputed"].tolist() == ["66.65"]


@pytest.mark.parametrize("header", ["pair", "Pair", "pair_id"])
def test_a_pair_column_is_the_player_column(tmp_path: Path, header: str) -> None:
    path = published_session(tmp_path, ("section,place,player,", f"section,place,{header},"))
    result = runner.invoke(app, ["verify", SESSION, str(path)])
    assert (result.exit_code, result.stdout) == (0, ""), result.stderr
    # Still compared: a wrong percentage of a pair is a difference.
    path.write_text(path.read_text().replace(",52.22,", ",52.23,"))
    result = runner.invoke(app, ["verify", SESSION, str(path), "--format", "csv"])
    assert result.exit_code == 1
    assert "EW,7,percentage,52.23,52.22\n" in result.stdout


def test_a_file_without_player_nor_pair_is_refused(tmp_path: Path) -> None:
    path = published_session(tmp_path, ("section,place,player,", "section,place,team,"))
    result = runner.invoke(app, ["verify", SESSION, str(path)])
    assert result.exit_code != 0
    assert codes(result.stderr) == ["published.no-player"]
    assert "(nor pair)" in line_of("published.no-player", result.stderr)
