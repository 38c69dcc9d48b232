"""A setting of one scoring method, given for an event scored by another, changes
nothing and says so (option.not-used); given for its own method it is used."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from duplicate.scoring.methods import METHODS
from tests.conftest import SAMPLE, codes

BIG2 = SAMPLE / "big2_event.csv"
BRIDGE = SAMPLE / "bridge_session.pbn"

# Each method, an event it scores, and the settings it starts from.
EVENTS: dict[str, tuple[Path, dict[str, str]]] = {
    "matchpoints": (BIG2, {}),
    "percentage": (BRIDGE, {}),
    "standard-points": (BIG2, {"method": "standard-points"}),
    "cross-imps": (BRIDGE, {"method": "cross-imps", "factoring": "none"}),
    "butler": (BRIDGE, {"method": "butler", "factoring": "none"}),
}

# A value other than the default for each setting some method reads.
OTHER_VALUE = {
    "tie_ranking": "dense",
    "rank_base": "100",
    "rank_factors": "1,0.5",
    "factoring": "neuberg",
    "tie_breaks": "rank_counts",
    "sp_trim": "0.1",
    "sp_min_deals": "2",
    "percentage_of": "total",
    "board_mp": "1",
    "percentage_rounding": "half-down",
    "shared_places": "equals",
    "place_ties": "count-back",
    "cross_imps": "sum",
    "imp_average": "2",
    "imp_totals": "scaled",
    "butler_drop": "0",
    "butler_trim": "0.1",
    "butler_round": "0",
    "butler_half": "even",
}

READ_BY_SOME = sorted(set().union(*(m.reads for m in METHODS.values())))
UNUSED = [
    (method, name)
    for method, (_, base) in EVENTS.items()
    for name in READ_BY_SOME
    if name not in METHODS[method].reads and name not in base and name != "factoring"
]
USED = [(method, name) for method in EVENTS for name in sorted(METHODS[method].reads)]


def test_every_setting_a_method_reads_has_a_value_to_try() -> None:
    assert set(READ_BY_SOME) == set(OTHER_VALUE)


@pytest.mark.parametrize(("method", "name"), UNUSED)
def test_a_setting_another_method_reads_changes_nothing_and_says_so(method: str, name: str) -> None:
    source, base = EVENTS[method]
    plain = duplicate.standings(source, **base)
    given = duplicate.standings(source, **base, **{name: OTHER_VALUE[name]})
    assert given.frame.equals(plain.frame)
    assert duplicate.score(source, **base, **{name: OTHER_VALUE[name]}).frame.equals(
        duplicate.score(source, **base).frame
    )
    assert given.event is not None
    unused = [w for w in given.event.warnings if w.code == "option.not-used"]
    assert len(unused) == 1
    assert name in unused[0].message


@pytest.mark.parametrize("method", ["standard-points", "cross-imps", "butler"])
def test_factoring_is_refused_for_the_methods_that_do_not_factor(method: str) -> None:
    source, base = EVENTS[method]
    with pytest.raises(duplicate.UsageError, match="factoring"):
        duplicate.standings(source, **{**base, "factoring": "neuberg"})


@pytest.mark.parametrize(("method", "name"), USED)
def test_a_setting_of_the_method_is_used_without_a_word(method: str, name: str) -> None:
    source, base = EVENTS[method]
    table = duplicate.standings(source, **{**base, name: OTHER_VALUE[name]})
    assert table.event is not None
    assert "option.not-used" not in [w.code for w in table.event.warnings]


def test_the_command_line_names_the_flag_and_writes_the_same_table() -> None:
    runner = CliRunner()
    plain = runner.invoke(app, ["standings", str(BIG2)])
    given = runner.invoke(app, ["standings", str(BIG2), "--percentage-of", "total"])
    assert given.exit_code == plain.exit_code == 0
    assert given.stdout == plain.stdout
    assert codes(given.stderr) == ["option.not-used"]
    said = " ".join(given.stderr.split())
    assert "--percentage-of is a setting of percentage scoring, not of matchpoints" in said
    # At its default it would change nothing anywhere: nothing to say.
    quiet = runner.invoke(app, ["standings", str(BIG2), "--percentage-of", "mean"])
    assert quiet.stderr == plain.stderr
