"""Every command loads the event the same way, computes from the rules it publishes,
and is a library call: the defects found where each command had its own path."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest
import xlsxwriter
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import GOLDEN, SAMPLE

runner = CliRunner()
EVENT = SAMPLE / "big2_event.csv"
STAGE = SAMPLE / "stage_example.csv"
CASE = GOLDEN / "adjustments"


def run(*args: object, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def final_hands(tmp_path: Path) -> Path:
    hands = tmp_path / "final.csv"
    hands.write_text(
        "hand,minute,table,seat,player,score\n"
        "1,1,1,0,F,2\n1,1,1,1,B,-1\n1,1,1,2,A,-1\n"
        "2,2,1,0,F,-2\n2,2,1,1,B,4\n2,2,1,2,A,-2\n"
    )
    return hands


# -- the rules published are the rules used -----------------------------------------------


def test_a_final_publishes_the_base_it_counted_by(tmp_path: Path) -> None:
    hands = final_hands(tmp_path)
    out = tmp_path / "final.csv.out.csv"
    code, _, err = run("final", hands, "--hands", "2", "--base", "0:7", "-o", out)
    assert code == 0, err
    totals = pd.read_csv(out)
    # F: +2 -2, B: -1 +4, A: -1 -2, each point worth 7.
    assert dict(zip(totals["player"], totals["total"], strict=True)) == {"B": 21, "F": 0, "A": -21}
    rules = tomllib.loads((tmp_path / "final.csv.out.rules.toml").read_text())
    assert rules["stage"]["base"] == "0:7"


def test_a_final_counts_by_the_base_of_its_rules_file(tmp_path: Path) -> None:
    hands = final_hands(tmp_path)
    rules_file = tmp_path / "stage.toml"
    rules_file.write_text('[stage]\nbase = "0:100"\n')
    code, out, err = run("final", hands, "--hands", "2", "--rules", rules_file, "-o", "-")
    assert code == 0, err
    totals = pd.read_csv(io.StringIO(out))
    assert dict(zip(totals["player"], totals["total"], strict=True)) == {
        "B": 300,
        "F": 0,
        "A": -300,
    }
    library = duplicate.final(hands, 2, rules_file=rules_file)
    assert library.rules.stage.base is not None
    assert library.rules.stage.base[0][1] == 100
    assert library.frame["total"].tolist() == totals["total"].tolist()


def test_a_final_without_a_base_counts_and_publishes_one_a_point(tmp_path: Path) -> None:
    hands = final_hands(tmp_path)
    table = duplicate.final(hands, 2)
    assert dict(zip(table.frame["player"], table.frame["total"], strict=True)) == {
        "B": 3,
        "F": 0,
        "A": -3,
    }
    assert tomllib.loads(table.rules.to_toml())["stage"]["base"] == "0:1"


def test_an_elimination_publishes_the_base_it_played(tmp_path: Path) -> None:
    out = tmp_path / "stage.csv"
    assert run("elimination", STAGE, "-o", out)[0] == 0
    rules = tomllib.loads((tmp_path / "stage.rules.toml").read_text())
    assert rules["stage"]["base"] == "0:100"


# -- manifests -----------------------------------------------------------------------------


def program(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The program as a shell runs it (manifests record its command line)."""
    return subprocess.run(
        [sys.executable, "-m", "duplicate", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_a_manifest_sharing_its_output_s_stem_checks_clean(tmp_path: Path) -> None:
    (tmp_path / "x.csv").write_bytes(EVENT.read_bytes())
    done = program("standings", "x.csv", "-o", "a.csv", "--manifest", "a.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = program("manifest", "check", "a.json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "DIFFERS" not in done.stdout
    # The input, the output and its rules, the run's status, and its output and rules.
    assert done.stdout.count("same") == 6


# -- options reach every command -----------------------------------------------------------


def workbook(path: Path, sheets: dict[str, pd.DataFrame]) -> None:
    with xlsxwriter.Workbook(str(path)) as book:
        for name, frame in sheets.items():
            sheet = book.add_worksheet(name)
            sheet.write_row(0, 0, list(frame.columns))
            for row, values in enumerate(frame.itertuples(index=False), start=1):
                sheet.write_row(row, 0, list(values))


def test_a_sheet_that_is_not_there_is_refused(tmp_path: Path) -> None:
    book = tmp_path / "s.xlsx"
    workbook(book, {"results": pd.read_csv(SAMPLE / "spec_example.csv")})
    # Before the command there is no --sheet (it was taken and ignored).
    assert run("--sheet", "NOPE", "score", book)[0] == 2
    code, _, err = run("score", book, "--sheet", "NOPE")
    assert code == 1
    assert "NOPE" in err


def test_validate_takes_every_scoring_setting_and_the_adjustments(tmp_path: Path) -> None:
    results, adjustments = CASE / "results.csv", CASE / "adjustments.csv"
    assert run("validate", results, "--adjustments", adjustments)[0] == 0
    code, _, err = run(
        "validate", results, "--adjustments", adjustments, "--method", "standard-points"
    )
    assert code == 2
    assert "error[" in err
    assert run("validate", results, "--rank-factors", "1,x")[0] == 2
    wrong = tmp_path / "adjustments.csv"
    wrong.write_text("round,deal,player,kind,value,reason\n1,9,P1,mp_pct,60,no such deal\n")
    code, _, err = run("validate", results, "--adjustments", wrong)
    assert code == 1
    assert "no result for player 'P1'" in err


@pytest.mark.parametrize(
    "command",
    [
        ("score",),
        ("standings",),
        ("validate",),
        ("explain", "A"),
        ("seat",),
    ],
)
def test_every_command_warns_when_nothing_is_compared(command: tuple[str, ...]) -> None:
    """A movement read by round compares nothing: every command on it says so."""
    # Every deal played once in each seat (as a movement read by round gives).
    data = b"round,deal,seat,player,score\n1,1,0,A,10\n1,1,1,B,-10\n2,2,0,B,5\n2,2,1,A,-5\n"
    code, _, err = run(*command, "-", stdin=data)
    assert code == 0, err
    assert "warning[scoring.nothing-compared]" in err


# -- corrections reach every output --------------------------------------------------------


def event_folder(tmp_path: Path, players: Path | None = None) -> Path:
    """The sample event as an event folder, its three rounds added."""
    folder = tmp_path / "spring"
    extra = ["--players", players] if players is not None else []
    code, _, err = run(
        "event", "init", folder, "--name", "Spring", "--date", "2026-12-05",
        "--game", "big2", "--table-size", "4", *extra,
    )  # fmt: skip
    assert code == 0, err
    played = pd.read_csv(EVENT)
    for number, rows in played.groupby("round"):
        upload = tmp_path / f"round{number}.csv"
        rows.to_csv(upload, index=False)
        code, _, err = run("event", "add", folder, upload)
        assert code == 0, err
    return folder


def test_an_event_folder_holds_its_adjustments_and_every_command_applies_them(
    tmp_path: Path,
) -> None:
    folder = event_folder(tmp_path)
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text(
        "round,deal,player,kind,value,reason\n"
        "1,1,P39,penalty,500,slow play after a warning\n"
        "2,3,P12,mp_pct,60,table disconnected\n"
    )
    code, _, err = run("event", "adjustments", folder, adjustments)
    assert code == 0, err
    adjusted = run("standings", EVENT, "--adjustments", adjustments)[1]
    assert run("standings", folder)[1] == adjusted
    assert run("score", folder)[1] == run("score", EVENT, "--adjustments", adjustments)[1]
    # The printed score cards give the adjusted totals.
    from pypdfium2 import PdfDocument

    cards = tmp_path / "cards.pdf"
    assert run("print", folder, "--what", "score-cards", "-o", cards)[0] == 0
    text = "".join(page.get_textpage().get_text_range() for page in PdfDocument(cards))
    table = pd.read_csv(io.StringIO(adjusted), dtype=str)
    p39 = table.loc[table["player"] == "P39", "total"].iloc[0]
    assert f"Total {p39}" in text
    # Stored again only with --replace; the earlier file is kept.
    assert run("event", "adjustments", folder, adjustments)[0] == 2
    assert run("event", "adjustments", folder, adjustments, "--replace")[0] == 0
    status = json.loads(run("event", "status", folder)[1])
    assert status["adjustments"] is True
    assert any(name.startswith("adjustments-") for name in status["replaced"])


def test_print_takes_adjustments_as_standings_does(tmp_path: Path) -> None:
    folder = event_folder(tmp_path)
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text("round,deal,player,kind,value,reason\n1,1,P39,penalty,500,late\n")
    cards = tmp_path / "cards.pdf"
    code, _, err = run(
        "print", folder, "--what", "score-cards", "-o", cards, "--adjustments", adjustments
    )
    assert code == 0, err
    from pypdfium2 import PdfDocument

    text = "".join(page.get_textpage().get_text_range() for page in PdfDocument(cards))
    adjusted = pd.read_csv(
        io.StringIO(run("standings", EVENT, "--adjustments", adjustments)[1]), dtype=str
    )
    total = adjusted.loc[adjusted["player"] == "P39", "total"].iloc[0]
    assert f"Total {total}" in text


# -- names ---------------------------------------------------------------------------------


def named_players(tmp_path: Path) -> Path:
    ids = sorted(pd.read_csv(EVENT)["player"].unique(), key=lambda p: int(p[1:]))
    names = {p: f"选手{int(p[1:]):02d}" for p in ids}
    names["P39"] = "朱琳"
    players = tmp_path / "players.csv"
    pd.DataFrame({"player": ids, "name": [names[p] for p in ids]}).to_csv(players, index=False)
    return players


def test_names_stand_beside_ids_in_every_output(tmp_path: Path) -> None:
    players = named_players(tmp_path)
    code, out, err = run("standings", EVENT, "--players", players)
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert list(table.columns[:4]) == ["section", "place", "player", "name"]
    assert table.loc[table["player"] == "P39", "name"].iloc[0] == "朱琳"
    scores = pd.read_csv(io.StringIO(run("score", EVENT, "--players", players)[1]))
    assert list(scores.columns).index("name") == list(scores.columns).index("player") + 1
    assert set(scores.loc[scores["player"] == "P39", "name"]) == {"朱琳"}
    seating = pd.read_csv(io.StringIO(run("seat", EVENT, "--players", players)[1]))
    assert "name" in seating.columns
    # Without a players file, outputs are as they were: no name column.
    assert "name" not in run("standings", EVENT)[1].splitlines()[0].split(",")


def test_explain_and_verify_take_a_name(tmp_path: Path) -> None:
    players = named_players(tmp_path)
    folder = event_folder(tmp_path, players)
    code, out, err = run("explain", "朱琳", folder)
    assert code == 0, err
    assert out.startswith("Player P39 (朱琳): place ")
    assert run("explain", "P39", folder)[1] == out
    published = tmp_path / "published.csv"
    table = pd.read_csv(io.StringIO(run("standings", folder)[1]), dtype=str)
    # A published list that names players by name alone.
    table.assign(player=table["name"]).drop(columns="name").to_csv(published, index=False)
    code, _, err = run("verify", folder, published)
    assert code == 0, err


def test_a_name_shared_by_two_players_is_refused(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    ids = sorted(pd.read_csv(EVENT)["player"].unique())
    names = ["王芳" if p in ("P01", "P02") else p for p in ids]
    pd.DataFrame({"player": ids, "name": names}).to_csv(players, index=False)
    code, _, err = run("explain", "王芳", EVENT, "--players", players)
    assert code == 2
    assert "error[player.ambiguous]" in err


def test_the_report_shows_names_on_its_deal_pages(tmp_path: Path) -> None:
    players = named_players(tmp_path)
    site = tmp_path / "site"
    assert run("report", EVENT, "--players", players, "-o", site)[0] == 0
    deal = (site / "deals" / "1.html").read_text(encoding="utf-8")
    assert "朱琳" in deal or "选手" in deal


# -- the library ---------------------------------------------------------------------------


def test_every_command_has_its_library_function() -> None:
    for name in (
        "score",
        "standings",
        "explain",
        "verify",
        "validate",
        "seat",
        "report",
        "print_event",
        "elimination",
        "final",
        "game_score",
        "leaderboard",
        "import_session",
        "event_init",
        "event_add",
        "event_adjustments",
        "event_status",
        "check_manifest",
        "publish",
        "load_event",
    ):
        assert callable(getattr(duplicate, name)), name


def test_explain_gives_typed_values() -> None:
    found = duplicate.explain(SAMPLE / "spec_example.csv", "P1", tie_ranking="dense")
    assert isinstance(found, duplicate.Explanation)
    assert found.place == 2
    assert str(found.total) == "24000.00"
    assert found.above is not None
    assert found.above.criterion == "total"


def test_a_bridge_session_is_read_as_a_session() -> None:
    from duplicate.imports import Session, read_session

    session = read_session(SAMPLE / "bridge_session.pbn")
    assert isinstance(session, Session)
    assert len(session.table) > 0
    assert session.rules.method == "percentage"


# -- outputs, their rules and the manifest go in together ---------------------------------


def test_a_run_whose_manifest_cannot_be_written_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "standings.csv"
    manifest = tmp_path / "no such folder" / "run.json"
    code, _, err = run("standings", EVENT, "-o", out, "--manifest", manifest)
    assert code == 3, err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_run_whose_second_output_cannot_be_written_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "stage.csv"
    ledger = tmp_path / "no such folder" / "ledger.csv"
    code, _, err = run("elimination", STAGE, "-o", out, "--ledger", ledger, "--manifest",
                       tmp_path / "run.json")  # fmt: skip
    assert code == 3, err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_registration_numbers_order_as_numbers(tmp_path: Path) -> None:
    """Registered 9 comes before registered 10 (as text, "10" < "9")."""
    players = tmp_path / "players.csv"
    # F and A end level on 0, each losing 2 in the last hand: registration decides.
    players.write_text("player,registered\nF,10\nB,1\nA,9\n")
    level = tmp_path / "level.csv"
    level.write_text(
        "hand,minute,table,seat,player,score\n"
        "1,1,1,0,F,2\n1,1,1,1,B,-4\n1,1,1,2,A,2\n"
        "2,2,1,0,F,-2\n2,2,1,1,B,4\n2,2,1,2,A,-2\n"
    )
    table = duplicate.final(level, 2, players=players).frame
    assert list(table["player"]) == ["B", "A", "F"]
    assert table["decided_by"].iloc[2] == "registration"


def test_players_and_adjustments_may_be_given_as_tables() -> None:
    players = pd.DataFrame({"player": ["P39"], "name": ["朱琳"]})
    adjustments = pd.DataFrame(
        {"round": ["1"], "deal": ["1"], "player": ["P39"], "kind": ["penalty"],
         "value": ["500"], "reason": ["late"]}
    )  # fmt: skip
    table = duplicate.standings(EVENT, players=players, adjustments=adjustments).frame
    mine = table[table["player"] == "P39"].iloc[0]
    assert mine["name"] == "朱琳"
    assert str(mine["penalty"]) == "500.00"


def test_rules_are_given_one_way() -> None:
    with pytest.raises(duplicate.UsageError) as refused:
        duplicate.load_event(EVENT, rules=duplicate.Rules(), rules_file="rules.toml")
    assert refused.value.code == "option.conflict"
