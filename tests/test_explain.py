"""`explain` derives every number again; it must agree with `standings` everywhere."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import GOLDEN, SAMPLE, codes, line_of

runner = CliRunner()


def cases() -> list[tuple[Path, duplicate.Rules, Path | None]]:
    out: list[tuple[Path, duplicate.Rules, Path | None]] = [
        (SAMPLE / "big2_event.csv", duplicate.Rules(), None)
    ]
    for case in sorted(p for p in GOLDEN.iterdir() if (p / "results.csv").exists()):
        rules = (
            duplicate.load_rules(case / "rules.toml")
            if (case / "rules.toml").exists()
            else duplicate.Rules()
        )
        if rules.method != "matchpoints":
            continue
        adj = case / "adjustments.csv"
        out.append((case / "results.csv", rules, adj if adj.exists() else None))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "rules", "adjustments"),
    cases(),
    ids=lambda v: getattr(v, "parent", Path("x")).name if isinstance(v, Path) else "",
)
def test_explain_agrees_with_standings_for_every_player(
    path: Path, rules: duplicate.Rules, adjustments: Path | None
) -> None:
    event = duplicate.load_event(path, rules=rules, adjustments=adjustments)
    results = event.results
    assert results is not None
    table = duplicate.standings(event).frame
    for i, row in enumerate(table.itertuples()):
        e = duplicate.explain(event, str(row.player), section=row.section)
        assert e.place == row.place
        assert e.total == row.total
        assert e.penalty == row.penalty
        assert e.playoff == row.playoff
        assert " ".join(f"{k}:{v}" for k, v in e.rank_counts.items()) == row.rank_counts
        if results.has_table:
            assert e.beaten_avg is not None
            assert e.beaten_avg.value == row.beaten_avg
        if results.has_seconds:
            assert e.trimmed_seconds is not None
            assert e.trimmed_seconds.value == row.trimmed_seconds
            assert e.total_seconds == row.total_seconds
        if i > 0 and table["section"].iloc[i - 1] == row.section:
            assert e.above is not None
            assert e.above.criterion == (row.decided_by or "tied")


def test_explain_text_for_the_spec_example() -> None:
    result = runner.invoke(
        app, ["explain", "P1", str(SAMPLE / "spec_example.csv"), "--tie-ranking", "dense"]
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("Player P1: place 2 of 3\n")
    assert "Total 24000.00 = 7000.00 + 10000.00 + 7000.00" in out
    assert (
        "trimmed_seconds  135.00 (without the longest 163 and the shortest 122; exact 135)" in out
    )
    assert (
        "Above: P2, place 1, total 25000.00. "
        "P2 is ahead on total: 25000.00 against 24000.00 (by 1000.00)." in out
    )
    assert (
        "Below: P3, place 3, total 24000.00. P1 is ahead on total_seconds: 420 against 439 (by 19)."
        in out
    )


def test_explain_shows_each_beaten_opponent_and_exact_fractions() -> None:
    out = runner.invoke(app, ["explain", "P07", str(SAMPLE / "big2_event.csv")]).stdout
    assert "beat P33 at table 8 in round 1 (318 > -453); their total 17668.42" in out
    assert "mean of 8 totals = 35152.33 (exact: 14060933/4 cents)" in out
    assert "exact 2533/22" in out


def test_explain_shows_adjustments_with_their_reasons() -> None:
    case = GOLDEN / "adjustments"
    out = runner.invoke(
        app,
        ["explain", "A", str(case / "results.csv"), "--adjustments", str(case / "adjustments.csv")],
    ).stdout
    assert "penalty 500.00: slow play after a warning" in out
    assert "Total 14500.00 = 10000.00 + 5000.00 - 500.00 penalty" in out


def test_explain_json_for_tools() -> None:
    result = runner.invoke(
        app, ["explain", "P2", str(SAMPLE / "spec_example.csv"), "--format", "json"]
    )
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["place"] == 1
    assert document["total"] == 25000.0
    assert [d["mp"] for d in document["items"]] == [0, 3, 4]
    assert document["below"]["player"] == "P1"
    assert document["below"]["criterion"] == "total"
    assert Decimal(str(document["below"]["by"])) == Decimal(1000)


def test_explain_an_unknown_player_is_a_usage_error() -> None:
    result = runner.invoke(app, ["explain", "nobody", str(SAMPLE / "spec_example.csv")])
    assert result.exit_code == 2
    assert codes(result.stderr) == ["player.unknown"]
    assert "'nobody'" in line_of("player.unknown", result.stderr)
    # The fix: what an id looks like in these results, or a name in full.
    assert "give a player's id as the results write it (" in result.stderr
    assert "registered name in full" in result.stderr
