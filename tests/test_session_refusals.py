"""Bridge session files read whole or refused, never guessed (docs/bridge.md): a value
read with all its text, elements where the format puts them, pair numbers as the
exporting program means them, one encoding a file, and every read bounded."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from duplicate.limits import MAX_IMPORT_BYTES, MAX_LISTED
from tests.conftest import run_main

runner = CliRunner()
TABLE = '[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]'


def run(*args: object, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    assert "Traceback" not in result.stderr
    return result.exit_code, result.stdout, result.stderr


def codes(err: str) -> list[str]:
    return [line.split("]")[0][len("error[") :] for line in err.splitlines() if "error[" in line]


def usebio(score: str = "420", ns: str = "1", doctype: str = "", board: str = "1") -> str:
    """One board, two traveller lines: the first one's NS pair and score as given."""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype}<USEBIO Version="1.2"><EVENT>\n'
        f"<BOARD><BOARD_NUMBER>{board}</BOARD_NUMBER>\n"
        f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER>"
        f"<EW_PAIR_NUMBER>2</EW_PAIR_NUMBER><SCORE>{score}</SCORE></TRAVELLER_LINE>\n"
        "<TRAVELLER_LINE><NS_PAIR_NUMBER>3</NS_PAIR_NUMBER>"
        "<EW_PAIR_NUMBER>4</EW_PAIR_NUMBER><SCORE>100</SCORE></TRAVELLER_LINE>\n"
        "</BOARD></EVENT></USEBIO>\n"
    )


def with_boards_of(text: str, other: str) -> str:
    """`text` with the boards of `other` added to its event."""
    boards = other.split("<EVENT>\n")[1].split("</EVENT>")[0]
    return text.replace("</EVENT>", boards + "</EVENT>")


def ns_scores(path: Path) -> dict[str, int]:
    table = duplicate.import_session(path).frame
    ns = table[table["seat"] == "NS"]
    return dict(zip(ns["player"], ns["score"].astype(int), strict=True))


# -- values read whole ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        usebio("4&z;", doctype='<!DOCTYPE USEBIO [<!ENTITY z "20">]>\n'),
        usebio("4&z;"),  # an undefined entity
        usebio("4&z;", doctype='<!DOCTYPE USEBIO SYSTEM "usebio.dtd">\n'),
    ],
)
def test_an_entity_in_a_value_is_refused_not_read_in_part(tmp_path: Path, text: str) -> None:
    path = tmp_path / "s.xml"
    path.write_text(text)
    code, out, err = run("import", path)
    assert (code, out) == (1, "")
    assert codes(err)[0] in {"session.entity", "session.not-xml"}


@pytest.mark.parametrize(
    "score", ["42<?pi x?>0", "<![CDATA[42]]>0", "<![CDATA[420]]>", "4<!-- a note -->20", " 420 "]
)
def test_a_value_is_read_with_all_its_text(tmp_path: Path, score: str) -> None:
    path = tmp_path / "s.xml"
    path.write_text(usebio(score))
    assert ns_scores(path) == {"1": 420, "3": 100}


def test_an_element_inside_a_value_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.xml"
    path.write_text(usebio("4<B>2</B>0"))
    code, _, err = run("import", path)
    assert code == 1
    assert codes(err) == ["session.misplaced-element"]


# -- elements where the format puts them, once --------------------------------------------


def test_a_board_inside_a_board_is_refused(tmp_path: Path) -> None:
    """Read as it was, the inner board's lines were credited to both boards."""
    text = with_boards_of(usebio(), usebio(board="2")).replace("</BOARD><BOARD>", "<BOARD>")
    text = text.replace("</EVENT>", "</BOARD></EVENT>")
    path = tmp_path / "s.xml"
    path.write_text(text)
    code, _, err = run("import", path)
    assert code == 1
    assert "session.misplaced-element" in codes(err)


def test_a_traveller_line_outside_any_board_is_refused(tmp_path: Path) -> None:
    line = "<TRAVELLER_LINE><NS_PAIR_NUMBER>5</NS_PAIR_NUMBER></TRAVELLER_LINE>"
    path = tmp_path / "s.xml"
    path.write_text(usebio().replace("</EVENT>", line + "</EVENT>"))
    code, _, err = run("import", path)
    assert code == 1
    assert codes(err) == ["session.misplaced-element"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("<SCORE>420</SCORE>", "<SCORE>420</SCORE><SCORE>-50</SCORE>"),
        ("<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>", "<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>" * 2),
        ("<BOARD_NUMBER>1</BOARD_NUMBER>", "<BOARD_NUMBER>1</BOARD_NUMBER>" * 2),
    ],
)
def test_a_usebio_element_given_twice_is_refused(tmp_path: Path, old: str, new: str) -> None:
    path = tmp_path / "s.xml"
    path.write_text(usebio().replace(old, new, 1))
    code, _, err = run("import", path)
    assert code == 1
    assert codes(err) == ["session.repeated-element"]


def test_a_pbn_column_named_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.pbn"
    table = '[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_NS"]'
    path.write_text(f'[Board "1"]\n{table}\n1 2 420 -50\n3 4 100 100\n')
    code, _, err = run("import", path)
    assert code == 1
    assert codes(err) == ["column.repeated"]


@pytest.mark.parametrize("tag", ['[Board "2"]', '[Section "B"]', TABLE])
def test_a_pbn_tag_given_twice_in_a_game_is_refused(tmp_path: Path, tag: str) -> None:
    path = tmp_path / "s.pbn"
    path.write_text(f'[Board "1"]\n[Section "A"]\n{TABLE}\n1 2 420 -\n{tag}\n3 4 100 -\n')
    code, _, err = run("import", path)
    assert code == 1
    assert codes(err) == ["session.repeated-element"]


# -- pair numbers as the program means them ---------------------------------------------


def test_pair_01_and_pair_1_are_one_pair(tmp_path: Path) -> None:
    pbn = tmp_path / "s.pbn"
    pbn.write_text(
        f'[Board "01"]\n{TABLE}\n01 02 420 -\n3 4 400 -\n\n[Board "2"]\n{TABLE}\n1 2 - 50\n'
        "03 004 100 -\n"
    )
    table = duplicate.import_session(pbn).frame
    assert sorted(set(table["player"])) == ["1", "2", "3", "4"]
    assert sorted(set(table["deal"])) == ["1", "2"]
    xml = tmp_path / "s.xml"
    xml.write_text(with_boards_of(usebio(ns="001"), usebio(board="02")))
    table = duplicate.import_session(xml).frame
    assert sorted(set(table["player"])) == ["1", "2", "3", "4"]
    assert sorted(set(table["deal"])) == ["1", "2"]


def test_ids_that_are_not_numbers_are_kept_as_written(tmp_path: Path) -> None:
    path = tmp_path / "s.pbn"
    path.write_text(f'[Board "1"]\n{TABLE}\nA01 B02 420 -\n0 007 100 -\nA1 B2 50 -\n')
    table = duplicate.import_session(path).frame
    assert sorted(set(table["player"])) == ["0", "7", "A01", "A1", "B02", "B2"]


# -- one encoding a file ----------------------------------------------------------------


def test_a_pbn_mixing_utf8_and_latin1_is_refused(tmp_path: Path) -> None:
    """Read as Latin-1 throughout, the UTF-8 'Café' became a second section."""
    games = [f'[Section "{{}}"]\n[Board "{b}"]\n{TABLE}\n1 2 420 -\n' for b in (1, 2)]
    path = tmp_path / "s.pbn"
    path.write_bytes(
        games[0].format("Café").encode("utf-8") + b"\n" + games[1].format("Café").encode("latin-1")
    )
    code, out, err = run("import", path)
    assert (code, out) == (1, "")
    assert codes(err) == ["session.mixed-encoding"]
    # Each encoding alone is read, one section.
    for encoding in ("utf-8", "latin-1"):
        path.write_bytes("\n".join(g.format("Café") for g in games).encode(encoding))
        sections = set(duplicate.import_session(path, winners="one").frame["section"])
        assert sections == {"Café"}


def test_a_usebio_declared_latin1_holding_utf8_is_refused(tmp_path: Path) -> None:
    text = usebio().replace("UTF-8", "ISO-8859-1").replace("<EVENT>", "<EVENT><!-- é -->")
    path = tmp_path / "s.xml"
    path.write_bytes(text.encode("latin-1").replace(b"1.2", "Café".encode()))
    code, _, err = run("import", path)
    assert code == 1
    assert codes(err) == ["session.mixed-encoding"]
    path.write_bytes(text.encode("latin-1"))
    assert run("import", path)[0] == 0


# -- --round ------------------------------------------------------------------------------


@pytest.mark.parametrize("given", ["0", "-1", "1000001", "99999999999999999999"])
def test_a_round_out_of_range_is_a_usage_error(tmp_path: Path, given: str) -> None:
    path = tmp_path / "s.xml"
    path.write_text(usebio())
    code, out, err = run("import", path, "--round", given)
    assert (code, out) == (2, "")
    assert codes(err) == ["import.round"]


def test_a_round_in_range_is_the_results_round(tmp_path: Path) -> None:
    path = tmp_path / "s.xml"
    path.write_text(usebio())
    assert set(duplicate.import_session(path, round_number=1000000).frame["round"]) == {1000000}


# -- bounded before reading ---------------------------------------------------------------


def test_an_endless_file_is_refused_at_the_limit() -> None:
    started = time.monotonic()
    code, _, err = run("import", "/dev/zero")
    assert code == 1
    assert codes(err) == ["session.too-large"]
    assert time.monotonic() - started < 30


class Endless(io.RawIOBase):
    """Standard input that never ends, counting what is read of it."""

    read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = min(len(buffer), 1 << 20)
        buffer[:n] = b"\0" * n
        Endless.read_bytes += n
        return n


def test_endless_standard_input_is_read_to_the_limit_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    Endless.read_bytes = 0
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(Endless())))
    assert run_main(["import", "-"], monkeypatch) == 1
    assert "error[session.too-large]" in capsys.readouterr().err
    assert Endless.read_bytes <= MAX_IMPORT_BYTES + 2 * (1 << 20)


@pytest.mark.slow
def test_a_limit_sized_file_of_bad_lines_stops_at_a_bounded_list(tmp_path: Path) -> None:
    path = tmp_path / "brackets.pbn"
    path.write_bytes(b"[\n" * (MAX_IMPORT_BYTES // 2))
    started = time.monotonic()
    code, out, err = run("import", path)
    assert (code, out) == (1, "")
    assert time.monotonic() - started < 30
    found = codes(err)
    assert found[0] == "session.too-many-problems"
    assert len(err.splitlines()) < MAX_LISTED + 5
    assert "lines after this one were not read" in err


def test_a_usebio_of_too_many_tags_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "tags.xml"
    path.write_bytes(b"<USEBIO>" + b"<a/>" * 2_100_000 + b"</USEBIO>")
    code, _, err = run("import", path)
    assert code == 1
    assert codes(err) == ["session.too-large"]


@pytest.mark.slow
def test_a_session_of_too_many_results_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "results.pbn"
    path.write_bytes(f'[Board "1"]\n{TABLE}\n'.encode() + b"1 2 420 -\n" * 250_001)
    code, _, err = run("import", path)
    assert code == 1
    assert codes(err) == ["session.too-large"]
