"""An event folder takes each change through the program, in order, and says why: rounds
in turn and not a copy of another, a round withdrawn, the seating `seat` keeps, the
data-entry checks (--strict), the arbiter's corrections and the players' entries and
withdrawals, each logged and seen by every command."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT

runner = CliRunner()
EVENT = ROOT / "sample_data" / "big2_event.csv"


def run(*args: object, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def uploads(tmp_path: Path) -> dict[int, Path]:
    """The sample event's rounds, each as its own CSV upload."""
    found = {}
    for number, rows in pd.read_csv(EVENT, dtype=str).groupby("round"):
        found[int(number)] = tmp_path / f"round{number}.csv"
        rows.to_csv(found[int(number)], index=False)
    return found


def folder_with(tmp_path: Path, rounds: int, players: bool = True, *rules: str) -> Path:
    """The sample event as a folder, its first `rounds` rounds added."""
    played = uploads(tmp_path)
    ids = sorted(pd.read_csv(EVENT, dtype=str)["player"].unique())
    pd.DataFrame({"player": ids}).to_csv(tmp_path / "players.csv", index=False)
    folder = tmp_path / "spring"
    extra = ["--players", tmp_path / "players.csv"] if players else []
    code, _, err = run(
        "event", "init", folder, "--name", "Spring", "--date", "2026-12-05",
        "--game", "big2", "--table-size", "4", *extra, *rules,
    )  # fmt: skip
    assert code == 0, err
    for number in range(1, rounds + 1):
        code, _, err = run("event", "add", folder, played[number])
        assert code == 0, err
    return folder


def log_of(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / "log.jsonl").read_text().splitlines()]


def status_of(folder: Path) -> dict[str, object]:
    code, out, err = run("event", "status", folder)
    assert code == 0, err
    found: dict[str, object] = json.loads(out)
    return found


def as_round(upload: Path, number: int, path: Path) -> Path:
    rows = pd.read_csv(upload, dtype=str)
    rows["round"] = str(number)
    rows.to_csv(path, index=False)
    return path


# -- rounds in turn ------------------------------------------------------------------------


def test_an_upload_that_skips_a_round_is_refused(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 1)
    skipped = as_round(uploads(tmp_path)[2], 3, tmp_path / "round3-as-next.csv")
    code, _, err = run("event", "add", folder, skipped)
    assert code == 1
    assert "error[event.round-skipped]" in err
    assert not (folder / "rounds" / "round-0003.parquet").exists()
    # --force needs a reason, and the log keeps it.
    assert run("event", "add", folder, skipped, "--force")[0] == 2
    code, _, err = run("event", "add", folder, skipped, "--force", "--reason", "round 2 void")
    assert code == 0, err
    entry = log_of(folder)[-1]
    assert entry["round"] == 3
    assert entry["forced"] == {
        "reason": "round 2 void",
        "codes": ["event.round-skipped"],
        "problems": 1,
    }


def test_the_first_upload_is_round_one(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 0)
    code, _, err = run("event", "add", folder, uploads(tmp_path)[2])
    assert code == 1
    assert "error[event.round-skipped]" in err


def test_a_copy_of_a_stored_round_is_refused(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 2)
    # Round 2's results again, the round number changed, the rows in another order.
    copy = pd.read_csv(uploads(tmp_path)[2], dtype=str)
    copy["round"] = "3"
    copy.iloc[::-1].to_csv(tmp_path / "copy.csv", index=False)
    code, _, err = run("event", "add", folder, tmp_path / "copy.csv")
    assert code == 1
    assert "error[event.round-copy]" in err
    assert not (folder / "rounds" / "round-0003.parquet").exists()
    # Round 3's own results go in.
    assert run("event", "add", folder, uploads(tmp_path)[3])[0] == 0


def test_a_copy_is_named_when_its_deals_clash_with_the_round_it_copies(
    tmp_path: Path,
) -> None:
    # Deals numbered through the event, compared across it: a copy plays round 2's
    # deals a second time, and is named a copy first.
    folder = folder_with(tmp_path, 0, True, "--deal-scope", "event")
    for number, upload in list(uploads(tmp_path).items())[:2]:
        played = pd.read_csv(upload, dtype=str)
        played["deal"] = f"{number}-" + played["deal"]
        played.to_csv(upload, index=False)
        code, _, err = run("event", "add", folder, upload)
        assert code == 0, err
    copy = as_round(tmp_path / "round2.csv", 3, tmp_path / "copy.csv")
    code, _, err = run("event", "add", folder, copy)
    assert code == 1
    assert err.startswith("error[event.round-copy]")


def test_a_corrected_upload_is_not_a_copy_of_itself(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 2)
    code, _, err = run("event", "add", folder, uploads(tmp_path)[2], "--replace")
    assert code == 0, err


def test_a_round_is_withdrawn_kept_and_logged(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 3)
    (tmp_path / "two").mkdir()
    two_rounds = run("standings", folder_with(tmp_path / "two", 2), "-o", "-")[1]
    assert run("event", "withdraw", folder, 3)[0] == 2  # no reason
    assert run("event", "withdraw", folder, 7, "--reason", "x")[0] == 2
    code, _, err = run("event", "withdraw", folder, 3, "--reason", "round 2 sent as 3")
    assert code == 0, err
    assert not (folder / "rounds" / "round-0003.parquet").exists()
    kept = list((folder / "withdrawn").iterdir())
    assert [p.name[:10] for p in kept] == ["round-0003"]
    entry = log_of(folder)[-1]
    assert (entry["action"], entry["round"], entry["reason"]) == (
        "withdraw",
        3,
        "round 2 sent as 3",
    )
    # Every command reads the event without it; it may be added again.
    assert run("standings", folder, "-o", "-")[1] == two_rounds
    assert [r["round"] for r in status_of(folder)["items"]] == [1, 2]  # type: ignore[attr-defined]
    assert run("event", "add", folder, uploads(tmp_path)[3])[0] == 0


# -- the seating the event keeps ----------------------------------------------------------


def test_seat_keeps_its_seating_in_the_folder_and_the_upload_is_checked(
    tmp_path: Path,
) -> None:
    folder = folder_with(tmp_path, 3)
    code, out, err = run("seat", folder, "-o", "-")
    assert code == 0, err
    stored = folder / "seatings" / "round-0004.csv"
    assert stored.is_file()
    assert pd.read_csv(stored, dtype=str)["player"].tolist() == (
        pd.read_csv(io.StringIO(out), dtype=str)["player"].tolist()
    )
    entry = log_of(folder)[-1]
    assert (entry["action"], entry["round"]) == ("seating", 4)
    assert status_of(folder)["seatings"] == [4]
    # Round 4 played at other seats: refused, then accepted with --force and a reason.
    moved = as_round(uploads(tmp_path)[3], 4, tmp_path / "round4.csv")
    played = pd.read_csv(moved, dtype=str)
    played["seconds"] = (played["seconds"].astype(int) + 1).astype(str)  # not a copy
    played.to_csv(moved, index=False)
    code, _, err = run("event", "add", folder, moved)
    assert code == 1
    assert "error[seating.moved-from-published]" in err
    code, _, err = run("event", "add", folder, moved, "--force", "--reason", "arbiter: as played")
    assert code == 0, err
    forced = log_of(folder)[-1]["forced"]
    assert forced["codes"] == ["seating.moved-from-published"]  # type: ignore[index]


def test_a_seating_saved_by_hand_is_refused_not_ignored(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 3)
    code, out, _ = run("seat", tmp_path / "round1.csv", "-o", "-")
    seating = pd.read_csv(io.StringIO(out), dtype=str)
    seating["round"] = "4"
    for name in ("round-4.csv", "round-0004.csv"):
        seating.to_csv(folder / "seatings" / name, index=False)
        moved = as_round(uploads(tmp_path)[3], 4, tmp_path / "round4.csv")
        code, _, err = run("event", "add", folder, moved)
        assert code == 1
        # Not in the log: seen as a file put in by hand.
        assert "error[event.file-unlogged]" in err
        # Accepted into the log, it is still no seating `seat` stored.
        assert run("event", "accept", folder, "--reason", "drawn by hand")[0] == 0
        code, _, err = run("event", "add", folder, moved)
        assert code == 1
        assert "error[event.seating-unrecorded]" in err
        assert not (folder / "rounds" / "round-0004.parquet").exists()
        (folder / "seatings" / name).unlink()
        assert run("event", "accept", folder, "--reason", "removed")[0] == 0


def test_seat_into_the_folder_by_another_name_is_refused(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 3)
    code, _, err = run("seat", folder, "-o", folder / "seatings" / "next.csv")
    assert code == 2
    assert "error[seat.output-in-folder]" in err
    assert not (folder / "seatings" / "next.csv").exists()


def test_seat_refuses_to_keep_a_seating_beside_one_saved_by_hand(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 3)
    (folder / "seatings" / "round-0004.csv").write_text("round,table,seat,player\n")
    code, _, err = run("seat", folder, "-o", "-")
    assert code == 1
    assert "error[event.file-unlogged]" in err
    assert run("event", "accept", folder, "--reason", "drawn by hand")[0] == 0
    code, _, err = run("seat", folder, "-o", "-")
    assert code == 1
    assert "error[event.seating-unrecorded]" in err
    assert (folder / "seatings" / "round-0004.csv").read_text() == "round,table,seat,player\n"


def test_a_different_seating_of_a_seated_round_needs_replace(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 3)
    assert run("seat", folder, "-o", "-")[0] == 0
    assert run("seat", folder, "-o", "-")[0] == 0  # the same seating: kept once
    assert [e["action"] for e in log_of(folder)].count("seating") == 1
    code, _, err = run("seat", folder, "--order", "straight", "-o", "-")
    assert code == 2
    assert "error[event.seating-exists]" in err
    code, _, err = run("seat", folder, "--order", "straight", "--replace", "-o", "-")
    assert code == 0, err
    assert any(p.name.startswith("round-0004-") for p in (folder / "replaced").iterdir())


# -- data entry ------------------------------------------------------------------------------


def test_strict_refuses_a_table_off_zero_and_names_the_likely_cell(tmp_path: Path) -> None:
    """A Big Two table summing to 510: 56 typed 566."""
    folder = folder_with(tmp_path, 0)
    played = pd.read_csv(uploads(tmp_path)[1], dtype=str)
    at = played.index[(played["player"] == "P05") & (played["deal"] == "2")][0]
    assert played.loc[at, "score"] == "56"
    played.loc[at, "score"] = "566"
    typed = tmp_path / "typed.csv"
    played.to_csv(typed, index=False)
    code, _, err = run("event", "add", folder, typed, "--strict")
    assert code == 1
    assert "error[entry.table-not-zero]" in err
    assert f"row {at + 2}, column 'score'" in err
    assert "scores add up to 510, not 0; 566, perhaps 56" in err
    assert not (folder / "rounds" / "round-0001.parquet").exists()
    # Without --strict: stored, with the same warning.
    code, _, err = run("event", "add", folder, typed)
    assert code == 0
    assert "warning[entry.table-not-zero]" in err
    assert "566, perhaps 56" in err


# -- corrections and players ------------------------------------------------------------------


ADJUSTMENTS = (
    "round,deal,player,kind,value,reason\n"
    "1,1,P39,penalty,500,slow play after a warning\n"
    "2,3,P12,mp_pct,60,table disconnected\n"
)


def test_event_adjust_is_logged_and_every_command_applies_it(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 3)
    players = tmp_path / "players.csv"
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text(ADJUSTMENTS)
    assert run("event", "adjust", folder, adjustments)[0] == 2  # no reason
    code, _, err = run("event", "adjust", folder, adjustments, "--reason", "arbiter, round 2")
    assert code == 0, err
    entry = log_of(folder)[-1]
    assert (entry["action"], entry["reason"]) == ("adjust", "arbiter, round 2")
    given = ("--adjustments", adjustments, "--players", players)
    for command, *out in (("standings", "-o", "-"), ("score", "-o", "-"), ("seat", "-o", "-")):
        shown = run(command, folder, *out)
        assert shown[0] == 0, shown[2]
        assert shown[1] == run(command, EVENT, *given, *out)[1], command
        assert shown[1] != run(command, EVENT, "--players", players, *out)[1], command
    explained = run("explain", "P39", folder, "--format", "json")[1]
    assert explained == run("explain", "P39", EVENT, *given, "--format", "json")[1]
    assert "slow play after a warning" in explained
    # verify: the adjusted standings match the folder, the unadjusted do not.
    adjusted, plain = tmp_path / "adjusted.csv", tmp_path / "plain.csv"
    adjusted.write_text(run("standings", EVENT, *given, "-o", "-")[1])
    plain.write_text(run("standings", EVENT, "-o", "-")[1])
    assert run("verify", folder, adjusted)[0] == 0
    assert run("verify", folder, plain)[0] == 1
    # The report shows the corrections; the printed score cards the adjusted totals.
    assert run("report", folder, "-o", tmp_path / "site")[0] == 0
    pages = "".join(p.read_text() for p in (tmp_path / "site").rglob("*.html"))
    assert "slow play after a warning" in pages
    from pypdfium2 import PdfDocument

    cards = tmp_path / "cards.pdf"
    assert run("print", folder, "--what", "score-cards", "-o", cards)[0] == 0
    text = "".join(page.get_textpage().get_text_range() for page in PdfDocument(cards))
    table = pd.read_csv(adjusted, dtype=str)
    assert f"Total {table.loc[table['player'] == 'P39', 'total'].iloc[0]}" in text


def test_event_adjust_adds_to_the_event_corrections(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 3)
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    lines = ADJUSTMENTS.splitlines()
    first.write_text("\n".join(lines[:2]) + "\n")
    second.write_text("\n".join([lines[0], lines[2]]) + "\n")
    assert run("event", "adjust", folder, first, "--reason", "one")[0] == 0
    assert run("event", "adjust", folder, second, "--reason", "two")[0] == 0
    both = tmp_path / "both.csv"
    both.write_text(ADJUSTMENTS)
    assert run("standings", folder)[1] == run("standings", EVENT, "--adjustments", both)[1]
    # One naming no result is refused, and the event's stay as they were.
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("round,deal,player,kind,value,reason\n1,99,P1,void,,wrong board\n")
    code, _, err = run("event", "adjust", folder, wrong, "--reason", "three")
    assert code == 1
    assert "error[adjustment.no-result]" in err
    assert run("standings", folder)[1] == run("standings", EVENT, "--adjustments", both)[1]
    # --replace: the file given is the whole set.
    code, _, err = run("event", "adjust", folder, first, "--reason", "four", "--replace")
    assert code == 0, err
    assert run("standings", folder)[1] == run("standings", EVENT, "--adjustments", first)[1]
    # The earlier name still stores a file.
    assert run("event", "adjustments", folder, both, "--replace")[0] == 0


def test_a_late_entry_and_a_withdrawal_are_seen_by_seat_and_the_outputs(
    tmp_path: Path,
) -> None:
    folder = folder_with(tmp_path, 3)
    code, _, err = run("event", "player", "add", folder, "P49", "--name", "新手", "--club", "C")
    assert code == 0, err
    assert run("event", "player", "add", folder, "P49")[0] == 2  # registered already
    assert run("event", "player", "withdraw", folder, "P12")[0] == 2  # no reason
    assert run("event", "player", "withdraw", folder, "P99", "--reason", "x")[0] == 2
    code, _, err = run("event", "player", "withdraw", folder, "P12", "--reason", "unwell")
    assert code == 0, err
    assert run("event", "player", "withdraw", folder, "P12", "--reason", "again")[0] == 2
    actions = [(e["action"], e.get("player"), e.get("reason")) for e in log_of(folder)[-2:]]
    assert actions == [("player-add", "P49", None), ("player-withdraw", "P12", "unwell")]
    assert len(list((folder / "replaced").glob("players-*.csv"))) == 2
    code, out, err = run("seat", folder, "-o", "-")
    assert code == 0, err
    seated = pd.read_csv(io.StringIO(out), dtype=str)
    assert "P49" in set(seated["player"])
    assert "P12" not in set(seated["player"])
    assert "新手" in set(seated["name"])
    # The withdrawn player's results stay in the standings.
    standings = pd.read_csv(io.StringIO(run("standings", folder, "-o", "-")[1]), dtype=str)
    assert "P12" in set(standings["player"])


def test_a_withdrawn_player_with_results_after_withdrawing_is_refused(
    tmp_path: Path,
) -> None:
    folder = folder_with(tmp_path, 2)
    assert run("event", "player", "withdraw", folder, "P12", "--reason", "unwell")[0] == 0
    round3 = uploads(tmp_path)[3]
    code, _, err = run("event", "add", folder, round3)
    assert code == 1
    assert "error[event.withdrawn-player-played]" in err
    # A correction of a round they played goes in; so does round 3 with --force.
    assert run("event", "add", folder, uploads(tmp_path)[2], "--replace")[0] == 0
    code, _, err = run("event", "add", folder, round3, "--force", "--reason", "back in")
    assert code == 0, err


def test_players_cannot_change_without_a_players_file(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, 1, players=False)
    code, _, err = run("event", "player", "add", folder, "P49")
    assert code == 2
    assert "error[event.no-players]" in err
