"""The scoring a session file declares (duplicate/imports/scoring.py): IMP events come
in as IMP events, matchpoint sessions as percentages."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from duplicate.imports import read_session
from duplicate.imports.scoring import scoring_method
from tests.conftest import ROOT


@pytest.mark.parametrize(
    ("declared", "method"),
    [
        # PBN's Scoring tag
        ("IMP;Cross", "cross-imps"),
        ("Cross", "cross-imps"),
        ("Butler", "butler"),
        ("IMP;Butler", "butler"),
        ("MP", "percentage"),
        ("MatchPoints", "percentage"),
        ("MP2", "percentage"),
        ("IMP", None),  # teams, or an IMP pairs event that does not say how
        ("BAM", None),
        ("Rubber", None),
        # USEBIO 1.2 BOARD_SCORING_METHOD
        ("CROSS_IMPS", "cross-imps"),
        ("BUTLER_IMPS", "butler"),
        ("BUTLER", "butler"),
        ("MATCH_POINTS", "percentage"),
        ("IMPS", None),
        ("AGGREGATE", None),
        # USEBIO 1.0 EVENT_TYPE
        ("CROSS_IMP", "cross-imps"),
        ("BUTLER_PAIRS", "butler"),
        ("SWISS_PAIRS_CROSS_IMPS", "cross-imps"),
        ("SWISS_PAIRS_BUTLER_IMPS", "butler"),
        ("MP_PAIRS", "percentage"),
        ("TEAMS_OF_FOUR", None),
        ("INDIVIDUAL", None),
        ("", None),
    ],
)
def test_declared_scorings_map_to_methods(declared: str, method: str | None) -> None:
    assert scoring_method(declared) == method
    assert scoring_method(declared.lower()) == method


def test_where_files_declare_their_scoring() -> None:
    salliere = ROOT / "tests" / "data" / "sessions" / "salliere" / "imp.xml"
    assert read_session(salliere).rules.method == "cross-imps"  # EVENT_TYPE CROSS_IMP
    pbn = ROOT / "sample_data" / "bridge_session.pbn"  # [Scoring "MP"]
    assert read_session(pbn).rules.method == "percentage"


def test_an_imp_session_that_does_not_say_how_is_cross_imps_and_says_so(
    tmp_path: Path,
) -> None:
    """`[Scoring "IMP"]` alone: scored as cross-IMPs (never matchpoints), and the note
    says so."""
    text = (ROOT / "sample_data" / "bridge_session.pbn").read_text(encoding="utf-8")
    path = tmp_path / "imps.pbn"
    path.write_text(text.replace('[Scoring "MP"]', '[Scoring "IMP"]'), encoding="utf-8")
    session = read_session(path)
    assert session.rules.method == "cross-imps"
    assert "the file says 'IMP', not cross-IMPs or Butler" in session.note


def test_an_imp_pbn_session_is_scored_by_imps(tmp_path: Path) -> None:
    text = (ROOT / "sample_data" / "bridge_session.pbn").read_text()
    path = tmp_path / "ximp.pbn"
    path.write_text(text.replace('[Scoring "MP"]', '[Scoring "IMP;Cross"]'))
    assert read_session(path).rules.method == "cross-imps"
    result = CliRunner().invoke(app, ["standings", str(path), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].split(",")[:5] == [
        "section",
        "place",
        "player",
        "deals",
        "imps",
    ]
    path.write_text(text.replace('[Scoring "MP"]', '[Scoring "Butler"]'))
    assert read_session(path).rules.method == "butler"
    assert read_session(ROOT / "sample_data" / "bridge_session.pbn").rules.method == "percentage"


@pytest.mark.parametrize(
    ("event", "method"),
    [
        ('<EVENT EVENT_TYPE="CROSS_IMP">', "cross-imps"),
        ('<EVENT EVENT_TYPE="BUTLER_PAIRS">', "butler"),
        (
            '<EVENT EVENT_TYPE="PAIRS">\n<BOARD_SCORING_METHOD>CROSS_IMPS</BOARD_SCORING_METHOD>',
            "cross-imps",
        ),
        ('<EVENT EVENT_TYPE="MP_PAIRS">', "percentage"),
    ],
)
def test_an_imp_usebio_session_is_scored_by_imps(event: str, method: str, tmp_path: Path) -> None:
    """Once imported silently as matchpoints; now as the IMP event it declares."""
    from tests.test_bridge_import import TRAVELLERS, usebio_text

    path = tmp_path / "session.xml"
    path.write_text(usebio_text(TRAVELLERS).replace('<EVENT EVENT_TYPE="MP_PAIRS">', event))
    assert read_session(path).rules.method == method
    result = CliRunner().invoke(app, ["standings", str(path), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert ("imps" in result.stdout.splitlines()[0].split(",")) == (method != "percentage")
