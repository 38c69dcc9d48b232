"""Hostile bridge sessions (PBN, USEBIO) and stage hand logs against every command that
reads them.

Whatever the bytes, a command ends with exit 0, 1, 2 or 3, shows no traceback, writes
no output unless it succeeds, and ends in bounded time. A fixed set of hostile files
runs every time; `make fuzz` runs many more mutations (DUPLICATE_FUZZ_EXAMPLES), as
tests/test_fuzz.py does for results files.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from duplicate.cli import app
from tests.test_bridge_import import pbn_text, usebio_text
from tests.test_fuzz import NASTY_CELLS, check_clean, fuzz

runner = CliRunner()
# Far above what any of these small files takes: a run past it is unbounded work.
SECONDS = 30

TRAVELLERS = [
    ("1", "1", "5", 420),
    ("1", "2", "6", -50),
    ("1", "3", "4", 450),
    ("2", "1", "6", 110),
    ("2", "2", "4", 140),
    ("2", "3", "5", -100),
]
HANDS = (
    "hand,minute,table,seat,player,score\n"
    "1,1,1,0,A,2\n1,1,1,1,B,-1\n1,1,1,2,C,-1\n"
    "2,2,1,0,A,-2\n2,2,1,1,B,4\n2,2,1,2,C,-2\n"
    "3,3,2,N,D,3\n3,3,2,E,E,-1\n3,3,2,S,F,-1\n3,3,2,W,G,-1\n"
)
CARRIED = "player,carried\nA,100\nB,50\nC,\n"

# Lines a careless edit or a hostile hand puts into a PBN file.
PBN_LINES = [
    "[",
    "]",
    '[Board "#"]',
    '[Board ""]',
    '[Board "01"]',
    '[Section "A"]',
    '[ScoreTable "#"]',
    '[ScoreTable "PairId_NS;PairId_NS;Score_NS"]',
    '[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW;Score_EW"]',
    '[ScoreTable ""]',
    "{",
    "}",
    "{ a comment }",
    "; a note",
    "%",
    "1 2 420",
    "1 2 420 -",
    "01 002 - 50",
    '"1" "2" "420" "-"',
    "1 2 9999999 -",
    "1 2 - -",
    "1 2 A60 -",
    "\x00",
    "\u2028",
    "\r",
]
# Fragments a careless edit or a hostile hand puts into USEBIO.
XML_FRAGMENTS = [
    "&z;",
    "&amp;",
    "&#0;",
    "&#x41;",
    "<?pi x?>",
    "<!-- c -->",
    "<![CDATA[7]]>",
    "<BOARD>",
    "</BOARD>",
    "<BOARD><BOARD_NUMBER>9</BOARD_NUMBER></BOARD>",
    "<TRAVELLER_LINE/>",
    "<SCORE>1</SCORE>",
    "<SECTION SECTION_ID='A'>",
    "</SECTION>",
    "<NS_PAIR_NUMBER>01</NS_PAIR_NUMBER>",
    '<!DOCTYPE USEBIO [<!ENTITY z "9">]>',
    "<?xml version='1.0' encoding='ISO-8859-1'?>",
    "é",
    "\udcff",
]
HAND_CELLS = [
    *NASTY_CELLS,
    "N",
    "north",
    "E",
    "W",
    "X",
    "0001-01-01T00:00:00Z",
    "2300-01-01T00:00:00Z",
    "1677-09-21T00:12:43.145224191Z",
    "2262-04-11T23:47:16.854775808Z",
    "2026-01-01T00:00:00.1234567891Z",
    "9999-12-31T23:59:59.999999999+14:00",
    "0000-01-01",
]

SESSION_COMMANDS = [
    ["import", "{file}", "-o", "{out}"],
    ["import", "{file}", "--winners", "one", "--round", "3", "-o", "{out}"],
    ["import", "{file}", "--from", "pbn", "-o", "{out}"],
    ["import", "{file}", "--from", "usebio", "-o", "{out}"],
    ["standings", "{file}", "-o", "{out}"],
]
HAND_COMMANDS = [
    ["elimination", "{file}", "-o", "{out}"],
    ["elimination", "{file}", "--advance", "2", "--carry", "sqrt", "-o", "{out}"],
    ["final", "{file}", "--hands", "2", "-o", "{out}"],
    ["final", "{file}", "--hands", "2", "--carried", "{carried}", "-o", "{out}"],
    ["final", "{file}", "--hands", "1", "--explain", "A"],
]


def run_on(tmp: Path, data: bytes, name: str, command: list[str], carried: bytes = b"") -> None:
    """Run `command` on `data` written to `name`; the contract every run keeps."""
    path = tmp / name
    path.write_bytes(data)
    inputs = {name}
    if carried:
        (tmp / "carried.csv").write_bytes(carried)
        inputs.add("carried.csv")
    names = {"file": path, "out": tmp / "out.csv", "carried": tmp / "carried.csv"}
    started = time.monotonic()
    result = runner.invoke(app, [part.format(**names) for part in command])
    assert time.monotonic() - started < SECONDS
    check_clean(result, tmp, inputs)


@st.composite
def pbn_files(draw: st.DrawFn) -> bytes:
    """A real session as PBN, then broken: lines, tokens, bytes and encoding."""
    lines = pbn_text(TRAVELLERS).split("\n")
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(lines)))
        line = draw(st.sampled_from(PBN_LINES) | st.text(max_size=12))
        if draw(st.booleans()):
            lines.insert(at, line)
        elif lines:
            lines[min(at, len(lines) - 1)] = line
    if draw(st.booleans()):
        row = draw(st.integers(0, len(lines) - 1))
        tokens = lines[row].split(" ")
        tokens[draw(st.integers(0, len(tokens) - 1))] = draw(st.sampled_from(NASTY_CELLS))
        lines[row] = " ".join(tokens)
    text = draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)
    data = text.encode(draw(st.sampled_from(["utf-8", "latin-1", "utf-16"])), "replace")
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.binary(max_size=6)) + data[cut:]
    return data


@st.composite
def usebio_files(draw: st.DrawFn) -> bytes:
    """A real session as USEBIO, then broken: fragments put into it, bytes."""
    text = usebio_text(TRAVELLERS)
    for _ in range(draw(st.integers(0, 5))):
        at = draw(st.integers(0, len(text)))
        fragment = draw(st.sampled_from(XML_FRAGMENTS) | st.text(max_size=6))
        text = text[:at] + fragment + text[at:]
    if draw(st.booleans()):
        data = text.encode("utf-8", "surrogateescape")  # "\udcff" is the byte 0xff
    else:
        data = text.encode("latin-1", "replace")
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.binary(max_size=6)) + data[cut:]
    return data


@st.composite
def hand_logs(draw: st.DrawFn) -> bytes:
    """A real hand log, its cells and header broken."""
    rows = [line.split(",") for line in HANDS.strip().split("\n")]
    if draw(st.booleans()):
        rows[0][1] = "finished_at"
        for row in rows[1:]:
            row[1] = f"2026-01-01T00:0{row[1]}:00Z"
    for _ in range(draw(st.integers(0, 5))):
        row = draw(st.integers(0, len(rows) - 1))
        column = draw(st.integers(0, len(rows[0]) - 1))
        rows[row][column] = draw(st.sampled_from(HAND_CELLS) | st.text(max_size=6))
    text = "\n".join(",".join(row) for row in rows) + "\n"
    return text.encode(draw(st.sampled_from(["utf-8", "gb18030", "latin-1"])), "replace")


carried_files = st.sampled_from(
    [
        CARRIED,
        CARRIED + "A,7\n",
        CARRIED + "Z,9\n",
        "player,carried\nA,--5\nB,1e20\n",
        "player,carried\nA,9223372036854775808\n",
        "player,Player,carried\nA,A,1\n",
        "player,carried\n,5\n",
        "carried\n5\n",
    ]
).map(str.encode) | st.binary(max_size=60)


@fuzz
@given(
    st.one_of(
        pbn_files().map(lambda d: (d, "s.pbn")),
        usebio_files().map(lambda d: (d, "s.xml")),
        st.binary(max_size=200).map(lambda d: (d, "s.pbn")),
    ),
    st.sampled_from(SESSION_COMMANDS),
)
def test_any_session_file_ends_cleanly(
    tmp_path_factory: Any, file: tuple[bytes, str], command: list[str]
) -> None:
    data, name = file
    run_on(tmp_path_factory.mktemp("fuzz"), data, name, command)


@fuzz
@given(hand_logs(), st.sampled_from(HAND_COMMANDS), carried_files)
def test_any_hand_log_ends_cleanly(
    tmp_path_factory: Any, data: bytes, command: list[str], carried: bytes
) -> None:
    run_on(tmp_path_factory.mktemp("fuzz"), data, "hands.csv", command, carried)


# The fixed hostile set: each file once against every command that reads it.
HOSTILE_SESSIONS = {
    "brackets.pbn": b"[\n" * 200_000,
    "comment.pbn": b"{\n" + b"1 2 420 -\n" * 1000,
    "mixed.pbn": pbn_text(TRAVELLERS).encode()
    + '[Section "Café"]\n'.encode("latin-1")
    + '[Section "Café"]\n'.encode(),
    "repeated.pbn": pbn_text(TRAVELLERS).replace("Score_EW", "Score_NS").encode(),
    "nested.xml": usebio_text(TRAVELLERS).replace("</BOARD>\n<BOARD>", "<BOARD>").encode(),
    "entity.xml": usebio_text(TRAVELLERS).replace("<SCORE>420", "<SCORE>4&z;").encode(),
    "laughs.xml": (
        '<!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa">'
        + "".join(
            f'<!ENTITY {c} "{f"&{p};" * 10}">' for p, c in zip("abcdefg", "bcdefgh", strict=True)
        )
        + "]><USEBIO><BOARD><BOARD_NUMBER>&h;</BOARD_NUMBER></BOARD></USEBIO>"
    ).encode(),
    "deep.xml": b"<USEBIO>" + b"<a>" * 5000 + b"</a>" * 5000 + b"</USEBIO>",
    "pi.xml": usebio_text(TRAVELLERS).replace("<SCORE>420", "<SCORE>42<?x?>0").encode(),
    "utf16.xml": usebio_text(TRAVELLERS).replace("UTF-8", "UTF-16").encode("utf-16"),
    "nul.pbn": b"\x00" * 1000,
    "columns.pbn": b'[Board "1"]\n[ScoreTable "' + b"PairId_NS;" * 200_000 + b'x"]\n1 2\n',
}


@pytest.mark.parametrize("name", sorted(HOSTILE_SESSIONS))
@pytest.mark.parametrize("command", SESSION_COMMANDS, ids=lambda c: "-".join(c[:2]))
def test_each_hostile_session_ends_cleanly(tmp_path: Path, name: str, command: list[str]) -> None:
    run_on(tmp_path, HOSTILE_SESSIONS[name], name, command)


HOSTILE_HANDS = {
    "far_times.csv": "hand,finished_at,table,seat,player,score\n"
    "1,0001-01-01T00:00Z,1,0,A,1\n1,0001-01-01T00:00Z,1,1,B,-1\n"
    "2,2300-01-01T00:00Z,1,0,A,1\n2,2300-01-01T00:00Z,1,1,B,-1\n",
    "nanoseconds_far.csv": "hand,finished_at,table,seat,player,score\n"
    "1,2300-01-01T00:00:00.000000001Z,1,0,A,1\n1,2300-01-01T00:00:00.000000001Z,1,1,B,-1\n"
    "2,2026-01-01T00:00Z,1,0,A,1\n2,2026-01-01T00:00Z,1,1,B,-1\n",
    "compass_mixed.csv": "hand,minute,table,seat,player,score\n1,1,1,N,A,2\n1,1,1,0,B,-1\n"
    "1,1,1,S,C,-1\n",
    "compass_twice.csv": "hand,minute,table,seat,player,score\n1,1,1,N,A,2\n1,1,1,north,B,-1\n"
    "1,1,1,S,C,-1\n",
    "huge_minute.csv": "hand,minute,table,seat,player,score\n1,99999999999999999999,1,0,A,1\n"
    "1,99999999999999999999,1,1,B,-1\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_HANDS))
@pytest.mark.parametrize("command", HAND_COMMANDS, ids=lambda c: "-".join(c[:3]))
def test_each_hostile_hand_log_ends_cleanly(tmp_path: Path, name: str, command: list[str]) -> None:
    run_on(tmp_path, HOSTILE_HANDS[name].encode(), name, command, CARRIED.encode())
