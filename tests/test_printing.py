"""Printed material for the venue: table cards, a seating list, score cards, and blank
score sheets and travellers as PDF, read back by their text and looked at as images.

Chinese must print on a machine with no Chinese font: each PDF is rendered by a pdfium
that is shown no system font at all, and the ink inside the glyphs' boxes is counted.
A page of each kind is kept in test-artifacts/paper/ for a person to look at.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pypinyin import Style, lazy_pinyin
from typer.testing import CliRunner

from duplicate.cli import app
from duplicate.render.name_order import SURNAMES, name_key
from tests.conftest import ROOT, codes, line_of

runner = CliRunner()
EVENT = ROOT / "sample_data" / "big2_event.csv"
ARTIFACTS = ROOT / "test-artifacts" / "paper"
LONG = "Wolfeschlegelsteinhausenbergerdorff " * 4 + "Senior"
NAMES = {
    "P17": "郭涛",
    "P39": "李娜",
    "P47": "王芳",
    "P01": "周杰",
    "P02": "何静",
    "P03": "吴敏",
    "P04": "刘洋",
    "P05": "曾小贤",
    "P06": "张伟😀",
    "P07": "Anna Smith",
    "P08": "émile Zola",
    "P09": "妈妈",
    "P10": "马力",
    "P11": LONG,
}
# The named players as a Chinese reader looks them up: by pinyin (何 he, 刘 liu ...),
# Latin names among them by their letters, 曾 read zeng as a surname, ma1 before ma3.
PINYIN_ORDER = [
    "P07",  # Anna
    "P08",  # emile
    "P17",  # guo
    "P02",  # he
    "P39",  # li
    "P04",  # liu
    "P09",  # ma1 ma1 (the tone of ma before the next syllable)
    "P10",  # ma3 li4
    "P47",  # wang
    "P11",  # wolfeschlegel...
    "P03",  # wu
    "P05",  # zeng
    "P06",  # zhang
    "P01",  # zhou
]


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two rounds played, the third seated and published."""
    tmp_path = tmp_path_factory.mktemp("printing")
    played = pd.read_csv(EVENT)
    players = pd.DataFrame({"player": sorted(played["player"].unique())})
    players["name"] = players["player"].map(NAMES).fillna("")
    players.to_csv(tmp_path / "players.csv", index=False)
    folder = tmp_path / "spring"
    code, _, err = run(
        "event", "init", folder, "--name", "春季杯", "--date", "2026-12-05",
        "--venue", "老年活动中心", "--game", "big2", "--table-size", "4",
        "--players", tmp_path / "players.csv",
    )  # fmt: skip
    assert code == 0, err
    for number in (1, 2):
        upload = tmp_path / f"round{number}.csv"
        played[played["round"] == number].to_csv(upload, index=False)
        assert run("event", "add", folder, upload)[0] == 0
    seating = folder / "seatings" / "round-0003.csv"
    code, _, err = run("seat", folder, "-k", "4", "-o", seating)
    assert code == 0, err
    return folder


def printed(event: Path, tmp_path: Path, what: str, *more: object) -> Path:
    out = tmp_path / f"{what}.pdf"
    code, _, err = run("print", event, "--what", what, "-o", out, *more)
    assert code == 0, err
    return out


def pages(path: Path) -> list[str]:
    document = pdfium.PdfDocument(str(path))
    return [page.get_textpage().get_text_range() for page in document]


def keep(path: Path, name: str, page: int = 0) -> None:
    """A page as an image in test-artifacts/paper/, for a person to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    image = pdfium.PdfDocument(str(path))[page].render(scale=1.5).to_pil()
    image.save(ARTIFACTS / f"{name}.png")


def seating_of(event: Path) -> pd.DataFrame:
    return pd.read_csv(event / "seatings" / "round-0003.csv", dtype=str)


# Renders a page with pdfium shown no system font at all (every font lookup answers
# nothing), and prints the ink (dark pixels) inside the boxes of the characters of
# a text found on it.
NO_SYSTEM_FONT = r"""
import ctypes, json, sys
import pypdfium2 as pdfium
import pypdfium2.raw as c

fields = dict(c.FPDF_SYSFONTINFO._fields_)
info = c.FPDF_SYSFONTINFO()
info.version = 1
info.Release = fields["Release"](lambda this: None)
info.EnumFonts = fields["EnumFonts"](lambda this, mapper: None)
info.MapFont = fields["MapFont"](lambda this, weight, italic, charset, pitch, face, exact: None)
info.GetFont = fields["GetFont"](lambda this, face: None)
info.GetFontData = fields["GetFontData"](lambda this, font, table, buf, size: 0)
info.GetFaceName = fields["GetFaceName"](lambda this, font, buf, size: 0)
info.GetFontCharset = fields["GetFontCharset"](lambda this, font: 0)
info.DeleteFont = fields["DeleteFont"](lambda this, font: None)
c.FPDF_SetSystemFontInfo(ctypes.byref(info))

path, number, needle = sys.argv[1], int(sys.argv[2]), sys.argv[3]
page = pdfium.PdfDocument(path)[number]
text = page.get_textpage()
at = text.get_text_range().find(needle)
scale = 2
image = page.render(scale=scale).to_pil().convert("L")
height = page.get_size()[1]
ink = []
for i in range(at, at + len(needle)):
    left, bottom, right, top = text.get_charbox(i)
    box = (left * scale, (height - top) * scale, right * scale + 1, (height - bottom) * scale + 1)
    ink.append(sum(image.crop(tuple(int(v) for v in box)).histogram()[:128]))
print(json.dumps({"found": at >= 0, "ink": ink}))
"""


def ink_without_fonts(path: Path, page: int, needle: str) -> list[int]:
    """The ink of each character of `needle` on the page, rendered with no system font."""
    done = subprocess.run(
        [sys.executable, "-c", NO_SYSTEM_FONT, str(path), str(page), needle],
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout)
    assert found["found"], f"{needle!r} is not on page {page} of {path.name}"
    return list(found["ink"])


def fonts_embedded(path: Path) -> list[bool]:
    """For every piece of text in the document: is its font embedded in the file?"""
    embedded = []
    for page in pdfium.PdfDocument(str(path)):
        for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT]):
            font = pdfium_c.FPDFTextObj_GetFont(obj.raw)
            embedded.append(bool(pdfium_c.FPDFFont_GetIsEmbedded(font)))
    return embedded


WHAT = ("table-cards", "seating-list", "score-cards", "score-sheets", "travellers")


@pytest.mark.slow
@pytest.mark.parametrize("what", WHAT)
def test_chinese_prints_on_a_machine_without_chinese_fonts(
    event: Path, tmp_path: Path, what: str
) -> None:
    out = printed(event, tmp_path, what)
    embedded = fonts_embedded(out)
    assert embedded
    assert all(embedded)
    # Every Chinese character of the heading is drawn, from the embedded font alone.
    ink = ink_without_fonts(out, 0, "春季杯")
    assert all(dots > 30 for dots in ink), ink
    # The same test fails for a PDF that names a Chinese font without embedding it
    # (Adobe's STSong-Light, which a reader must supply).
    assert _ink_of_a_named_font(tmp_path) == [0, 0, 0]


def _ink_of_a_named_font(tmp_path: Path) -> list[int]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    path = tmp_path / "named.pdf"
    canvas = Canvas(str(path), invariant=True)
    canvas.setFont("STSong-Light", 20)
    canvas.drawString(56, 700, "春季杯")
    canvas.save()
    return ink_without_fonts(path, 0, "春季杯")


def test_table_cards_one_page_per_table(event: Path, tmp_path: Path) -> None:
    out = printed(event, tmp_path, "table-cards")
    text = pages(out)
    assert len(text) == 12  # 48 players at tables of 4
    seating = seating_of(event)
    numbers = [int(page.split("Table ")[1].split("\r\n")[0]) for page in text]
    assert numbers == list(range(1, 13))
    for table, group in seating.groupby("table"):
        page = next(p for p in text if f"Table {table}\r\n" in p)
        for player in group["player"]:
            assert player in page
    assert all("春季杯 · 2026-12-05 · 老年活动中心" in page for page in text)
    assert "郭涛" in "".join(text)
    # One page as an image: dark glyphs on white, in the page's upper half.
    image = pdfium.PdfDocument(str(out))[0].render(scale=1).to_pil().convert("L")
    width, height = image.size
    histogram = image.crop((0, 0, width, height // 2)).histogram()
    assert sum(histogram[:128]) > 500
    keep(out, "table-card")
    long_page = next(n for n, p in enumerate(text) if "P11" in p)
    keep(out, "table-card-long-name", long_page)


def test_the_seating_list_in_pinyin_order(event: Path, tmp_path: Path) -> None:
    out = printed(event, tmp_path, "seating-list")
    lines = "".join(pages(out)).split("\r\n")
    players = [line.split(" ")[0] for line in lines if line[:1] == "P" and line[1:3].isdigit()]
    # The named ones in pinyin order, then the rest by id.
    assert players[: len(PINYIN_ORDER)] == PINYIN_ORDER
    rest = players[len(PINYIN_ORDER) :]
    assert rest == sorted(rest)
    assert len(players) == 48
    seating = seating_of(event)
    row = seating[seating["player"] == "P17"].iloc[0]
    line = f"P17 郭涛 第 {row['table']} 桌 Table {row['table']} 座位 Seat {row['seat']}"
    assert line in lines
    keep(out, "seating-list")


def test_names_are_ordered_by_pinyin_then_tone() -> None:
    assert sorted(["周", "何", "吴", "刘"], key=name_key) == ["何", "刘", "吴", "周"]
    # A surname's reading: 曾 zeng (not ceng) between 蔡 cai and 张 zhang ... and after
    # 查 zha (a surname read zha, not cha).
    assert sorted(["张伟", "曾小贤", "蔡明", "查良镛"], key=name_key) == [
        "蔡明",
        "曾小贤",
        "查良镛",
        "张伟",
    ]
    assert sorted(["马丽", "妈妈", "麻雀"], key=name_key) == ["妈妈", "麻雀", "马丽"]
    # Latin letters among them, case and accents aside; numbers by value.
    assert sorted(["Émile", "何静", "anna", "Bob"], key=name_key) == [
        "anna",
        "Bob",
        "Émile",
        "何静",
    ]
    assert sorted(["P10", "P9", "P100"], key=name_key) == ["P9", "P10", "P100"]
    assert [letters for letters, _ in name_key("李娜")[0]] == ["li", "na"]
    assert [letters for letters, _ in name_key("Li Na")[0]] == ["li", "na"]
    # Syllable by syllable, each syllable's tone before the next: 妈 ma1 first, then
    # 马力 ma3 li before 马明 ma3 ming.
    assert sorted(["妈妈", "马明", "马力"], key=name_key) == ["妈妈", "马力", "马明"]


# Characters with no other reading as a surname.
HAN = "".join(
    char
    for char in (
        "李王张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭萧田董潘袁蔡蒋余于"
        "杜叶程苏魏吕丁沈任姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙"
        "史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
    )
    if char not in SURNAMES
)
NAMES_DRAWN = st.text(alphabet=HAN + "abcXYZ é", min_size=1, max_size=4)


def _reference(name: str) -> list[tuple[str, str]]:
    """A name as pinyin syllables, a character at a time (the plain reading)."""
    syllables = []
    for char in name:
        if char in HAN:
            reading = lazy_pinyin(char, style=Style.TONE3, neutral_tone_with_five=True)[0]
            syllables.append((reading[:-1].replace("v", "ü"), reading[-1]))
    return syllables


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=HAN, min_size=1, max_size=3), min_size=2, max_size=12))
@example(["陆", "陆万"])  # read as a phrase, 陆万 is the number liu wan
def test_chinese_names_sort_as_their_syllables_read_one_by_one(names: list[str]) -> None:
    ordered = sorted(names, key=name_key)
    # Each name's syllables (letters, then tone) never come before the previous one's.
    syllables = [_reference(name) for name in ordered]
    assert all(a <= b for a, b in itertools.pairwise(syllables))


@settings(max_examples=100, deadline=None)
@given(NAMES_DRAWN)
def test_latin_letters_sort_without_case(name: str) -> None:
    assert name_key(name.upper())[0] == name_key(name.lower())[0]


def test_a_long_name_is_fitted_and_kept_whole(event: Path, tmp_path: Path) -> None:
    out = printed(event, tmp_path, "seating-list")
    document = pdfium.PdfDocument(str(out))
    page = document[0]
    textpage = page.get_textpage()
    text = textpage.get_text_range()
    # Cut with an ellipsis on its line, written whole at the page's foot.
    assert f"P11 {LONG[:20]}" in text
    assert "\u2026" in text
    assert f"*P11{LONG}".replace(" ", "") in text.replace("\r\n", "").replace(" ", "")
    # Nothing of it reaches the Table column (it starts 250 points in from the margin).
    start = text.index("P11 ")
    end = text.index("\u2026", start)
    rights = [textpage.get_charbox(i)[2] for i in range(start, end + 1)]
    assert max(rights) < 56 + 250
    # On a table card it takes two lines, in the card's width.
    cards = printed(event, tmp_path, "table-cards")
    card = next(
        p for p in pdfium.PdfDocument(str(cards)) if "P11" in p.get_textpage().get_text_range()
    )
    card_text = card.get_textpage().get_text_range()
    assert "Wolfeschlegelsteinhausenbergerdorff" in card_text
    boxes = card.get_textpage()
    begin = card_text.index("P11")
    rights = [boxes.get_charbox(i)[2] for i in range(begin, len(card_text)) if card_text[i] != "\r"]
    assert max(rights) <= card.get_size()[0] - 56 + 1


def test_an_emoji_prints_as_a_box_and_is_named(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "list.pdf"
    code, _, err = run("print", event, "--what", "seating-list", "-o", out)
    assert code == 0
    assert codes(err) == ["print.unprintable"]
    assert "P06" in line_of("print.unprintable", err)
    assert "张伟😀" in line_of("print.unprintable", err)
    text = "".join(pages(out))
    assert "P06 张伟\u25a1" in text
    ink = ink_without_fonts(out, 0, "张伟\u25a1")
    assert all(dots > 20 for dots in ink), ink


def _dot_columns(path: Path, page: int) -> Counter[float]:
    """How many decimal points there are at each distance from the page's left edge."""
    textpage = pdfium.PdfDocument(str(path))[page].get_textpage()
    text = textpage.get_text_range()
    found: Counter[float] = Counter()
    for i, char in enumerate(text):
        if char == ".":
            left, _, right, _ = textpage.get_charbox(i)
            found[round((left + right) / 2, 1)] += 1
    return found


@pytest.mark.parametrize(("per_page", "count", "columns"), [(1, 48, 2), (2, 24, 2), (4, 12, 4)])
def test_score_cards_several_to_a_page_numbers_aligned(
    event: Path, tmp_path: Path, per_page: int, count: int, columns: int
) -> None:
    out = printed(event, tmp_path, "score-cards", "--cards-per-page", per_page)
    text = pages(out)
    assert len(text) == count
    standings = pd.read_csv(
        io.StringIO(run("standings", event)[1]), dtype=str, keep_default_na=False
    )
    first = standings.iloc[0]
    assert f"{first['player']}" in text[0]
    assert f"总分 Total {first['total']}" in text[0]
    assert sum(page.count(" · 第 ") for page in text) == 48
    card = next(page for page in text if "P39 李娜" in page)
    mine = card[card.index("P39 李娜") :]
    mine = mine[: mine.index("春季杯")] if "春季杯" in mine else mine
    assert mine.count("\r\n1 ") + mine.count("\r\n2 ") == 16  # 16 deals played
    # The decimal points of the MP% and Points columns line up: 16 deals on each of the
    # page's cards, all on `columns` lines down the page.
    dots = _dot_columns(out, 0)
    lined_up = sum(n for _, n in dots.most_common(columns))
    assert lined_up >= 16 * 2 * per_page
    keep(out, f"score-cards-{per_page}-per-page")


def test_score_cards_come_1_2_or_4_to_a_page(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "cards.pdf"
    code, _, err = run("print", event, "--what", "score-cards", "--cards-per-page", 3, "-o", out)
    assert code == 2
    assert "print.bad-cards-per-page" in codes(err)
    assert not out.exists()


def test_blank_score_sheets_one_per_table(event: Path, tmp_path: Path) -> None:
    out = printed(event, tmp_path, "score-sheets")
    text = pages(out)
    assert len(text) == 12
    seating = seating_of(event)
    for (table, group), page in zip(
        seating.groupby(seating["table"].astype(int)), text, strict=True
    ):
        assert f"Round 3 Table {table}" in page
        for seat, player in zip(group["seat"], group["player"], strict=True):
            assert f"座位 Seat {seat} {player}" in page
        # A line per deal of a round (8, as the rounds played), then the totals.
        assert "\r\n1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n合计 Total" in page
        assert "签名 Signatures" in page
    keep(out, "score-sheet")
    fewer = tmp_path / "six.pdf"
    assert run("print", event, "--what", "score-sheets", "--deals", 6, "-o", fewer)[0] == 0
    page = pages(fewer)[0]
    assert "\r\n5\r\n6\r\n合计 Total" in page


def test_blank_travellers_one_per_deal(event: Path, tmp_path: Path) -> None:
    out = printed(event, tmp_path, "travellers")
    text = pages(out)
    assert len(text) == 8
    seating = seating_of(event)
    for deal, page in enumerate(text, start=1):
        assert f"Round 3 Deal {deal}" in page
        # A line per table, in the order of the tables' numbers, its players by seat.
        tables = [int(t) for t in re.findall(r"\n([0-9]+)(?:\r\n| )P[0-9]", page)]
        assert tables == list(range(1, 13))
        for player in seating["player"]:
            assert player in page
    keep(out, "traveller")


def test_blank_sheets_need_the_number_of_deals(tmp_path: Path) -> None:
    players = pd.DataFrame({"player": [f"P{n}" for n in range(1, 9)]})
    players.to_csv(tmp_path / "players.csv", index=False)
    folder = tmp_path / "new"
    code, _, err = run(
        "event", "init", folder, "--name", "Club", "--date", "2026-12-05",
        "--game", "big2", "--table-size", "4", "--players", tmp_path / "players.csv",
    )  # fmt: skip
    assert code == 0, err
    seating = folder / "seatings" / "round-0001.csv"
    code, _, err = run("seat", folder, "--round", 1, "--seed", 7, "-o", seating)
    assert code == 0, err
    out = tmp_path / "sheets.pdf"
    code, _, err = run("print", folder, "--what", "score-sheets", "-o", out)
    assert code == 2
    assert "print.no-deals" in codes(err)
    assert "--deals" in err
    assert run("print", folder, "--what", "score-sheets", "--deals", 4, "-o", out)[0] == 0
    assert len(pages(out)) == 2


def test_a_font_that_cannot_be_embedded_is_refused(event: Path, tmp_path: Path) -> None:
    not_a_font = tmp_path / "font.ttf"
    not_a_font.write_text("no font here")
    out = tmp_path / "x.pdf"
    code, _, err = run("print", event, "--what", "table-cards", "--font", not_a_font, "-o", out)
    assert code == 2
    assert "print.no-font" in codes(err)
    assert str(not_a_font) in err
    assert not out.exists()


def test_printing_needs_an_event_and_a_published_seating(tmp_path: Path) -> None:
    code, _, err = run("print", tmp_path, "--what", "table-cards", "-o", tmp_path / "x.pdf")
    assert code == 2
    assert "is not an event folder" in err


def test_the_event_log_chains_every_publication(tmp_path: Path) -> None:
    played = pd.read_csv(EVENT)
    folder = tmp_path / "autumn"
    code, _, err = run(
        "event", "init", folder, "--name", "秋季杯", "--date", "2026-12-05",
        "--game", "big2", "--table-size", "4",
    )  # fmt: skip
    assert code == 0, err
    for number in (1, 2):
        upload = tmp_path / f"round{number}.csv"
        played[played["round"] == number].to_csv(upload, index=False)
        assert run("event", "add", folder, upload)[0] == 0
    assert run("seat", folder, "-k", "4", "-o", folder / "seatings" / "round-0003.csv")[0] == 0
    out = tmp_path / "tables.pdf"
    assert run("print", folder, "--what", "table-cards", "-o", out)[0] == 0
    assert run("report", folder, "-o", tmp_path / "site")[0] == 0
    entries = [json.loads(line) for line in (folder / "log.jsonl").read_text().splitlines()]
    assert [e["action"] for e in entries] == [
        "init",
        "add",
        "add",
        "seating",
        "print table-cards",
        "report",
    ]
    assert entries[4]["outputs"] == [
        {"path": str(out), "sha256": hashlib.sha256(out.read_bytes()).hexdigest()}
    ]
    status = json.loads(run("event", "status", folder)[1])
    assert status["log"] == {"entries": 6, "chain_intact": True}


def test_the_same_event_prints_the_same_bytes(event: Path, tmp_path: Path) -> None:
    first = printed(event, tmp_path, "score-cards", "--cards-per-page", 4).read_bytes()
    again = tmp_path / "again.pdf"
    assert run("print", event, "--what", "score-cards", "--cards-per-page", 4, "-o", again)[0] == 0
    assert again.read_bytes() == first


def test_blank_bridge_travellers_one_per_board(tmp_path: Path) -> None:
    session = ROOT / "sample_data" / "bridge_session.pbn"
    out = tmp_path / "travellers.pdf"
    code, _, err = run("print", session, "--what", "travellers", "-o", out)
    assert code == 0, err
    text = pages(out)
    # Two boards to a page; each with its dealer and vulnerability by its number, and a
    # line per table with the pairs that meet on it (as the session has them), by table.
    boards = sorted(
        {
            line.split("Board ")[1].split(" ")[0]
            for line in "".join(text).split("\r\n")
            if "Board " in line
        },
        key=int,
    )
    assert len(text) == (len(boards) + 1) // 2
    first = text[0]
    assert "第 1 副 Board 1 · 发牌 Dealer N · 局况 Vul None" in first
    assert "第 2 副 Board 2 · 发牌 Dealer E · 局况 Vul NS" in first
    for heading in ("桌 Table", "定约 Contract", "庄 By", "首攻 Lead", "墩 Tricks", "北南 MP"):
        assert heading in first
    board_1 = first[: first.index("Board 2")]
    assert re.findall(r"\r\n([0-9]+) ([0-9]+) ([0-9]+)", board_1) == [
        ("1", "1", "6"),
        ("2", "2", "8"),
        ("4", "4", "7"),
        ("5", "5", "9"),
    ]
    assert fonts_embedded(out)
    assert all(fonts_embedded(out))
    keep(out, "bridge-traveller")
    # A session prints travellers only.
    code, _, err = run("print", session, "--what", "table-cards", "-o", tmp_path / "x.pdf")
    assert code == 2
    assert "travellers only" in err


def test_no_chinese_font_on_the_machine_says_how_to_get_one(
    event: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from duplicate.render import fonts

    monkeypatch.setattr(fonts, "KNOWN", (str(tmp_path / "no-such-font.ttc"),))
    fonts.cjk_font.cache_clear()
    try:
        out = tmp_path / "x.pdf"
        code, _, err = run("print", event, "--what", "table-cards", "-o", out)
    finally:
        fonts.cjk_font.cache_clear()
    assert code == 2
    assert codes(err) == ["print.no-font"]
    assert "make fonts" in err
    assert "--font" in err
    assert not out.exists()


def test_many_names_cut_on_a_page_are_given_in_full_on_a_page_of_their_own(
    tmp_path: Path,
) -> None:
    from duplicate.render import printed
    from duplicate.render.fonts import cjk_font

    seating = pd.DataFrame(
        {"section": "", "round": 1, "table": [1] * 4 + [2], "seat": [0, 1, 2, 3, 0]}
    ).assign(player=[f"P{n}" for n in range(1, 6)])
    names = {f"P{n}": f"{LONG} {n}" for n in range(1, 6)}
    out = tmp_path / "list.pdf"
    out.write_bytes(printed.seating_list(seating, "Club", names, cjk_font()))
    text = pages(out)
    assert len(text) == 2
    assert text[0].count("\u2026") == 5
    assert text[1].startswith("全名 Names in full")
    joined = text[1].replace("\r\n", "").replace(" ", "")
    for player, name in names.items():
        assert f"*{player}{name}".replace(" ", "") in joined
    keep(out, "names-in-full", 1)


def test_a_bridge_event_folder_without_seatings_says_where_its_travellers_come_from(
    tmp_path: Path,
) -> None:
    """`duplicate seat` does not seat a bridge movement: the fix names the session file."""
    session = ROOT / "sample_data" / "bridge_session.pbn"
    folder = tmp_path / "club"
    made = runner.invoke(app, ["import", str(session), "--event", str(folder)])
    assert made.exit_code == 0, made.stderr
    refused = runner.invoke(
        app, ["print", str(folder), "--what", "travellers", "-o", str(tmp_path / "t.pdf")]
    )
    assert refused.exit_code == 2
    assert "error[print.no-seating]" in refused.stderr
    assert "duplicate print SESSION --what travellers" in refused.stderr
    assert "duplicate seat" not in refused.stderr


def test_bridge_travellers_are_headed_by_the_session_s_title_and_date(tmp_path: Path) -> None:
    """As the session's report and the event folder it imports as are: not by its file
    name."""
    out = tmp_path / "travellers.pdf"
    code, _, err = run(
        "print", ROOT / "sample_data" / "bridge_session.pbn", "--what", "travellers", "-o", out
    )
    assert code == 0, err
    assert all(page.startswith("Tuesday pairs · 2026-11-24") for page in pages(out))
