"""Paper for the venue as PDF (A4): table cards, a seating list by name, personal score
cards (several to a page), and blank score sheets and travellers for a round's tables,
each page headed by the event's title, date and venue.

reportlab draws the pages in a Chinese TrueType font embedded as a subset (see
duplicate.render.fonts), so they print the same on a machine without Chinese fonts. A
name too wide for its place is set smaller (to 60% of its size, not below MIN_SIZE),
then on two lines where the place has room for them, then cut with an ellipsis; the
names cut on a page are written in full at its foot.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import pandas as pd
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from duplicate.render.fonts import Font
from duplicate.render.name_order import Key, name_key
from duplicate.seating.check import byes
from duplicate.text import natural

T = TypeVar("T")
WIDTH, HEIGHT = A4
MARGIN = 56.0
LINES_PER_PAGE = 38
# The smallest size a name is set in to fit its place, before it is cut.
MIN_SIZE = 7.0
ELLIPSIS = "\u2026"
# How many names cut on a page are given in full at its foot (more: a page of their own).
FOOT = 3
# Score cards to an A4 page: how the page is cut (columns, rows).
CARD_GRID = {1: (1, 1), 2: (1, 2), 4: (2, 2)}
CARD_FIELDS = ("round", "deal", "table", "seat", "score", "mp_pct", "deal_rank", "rank_points")
# Each column's label (Chinese above English) and its share of the card's width.
CARD_LABELS = (
    ("轮", "Round"),
    ("副", "Deal"),
    ("桌", "Table"),
    ("座", "Seat"),
    ("得分", "Score"),
    ("", "MP%"),
    ("名次", "Rank"),
    ("分", "Points"),
)
CARD_SHARES = (0.8, 0.8, 0.8, 0.8, 1.2, 1.2, 1.0, 1.6)


@dataclass
class Page:
    """One PDF being drawn in the embedded font: text placed, names fitted, and the
    names cut on the current page, for its foot."""

    font: Font
    title: str
    buffer: io.BytesIO = field(default_factory=io.BytesIO)
    cut: dict[str, None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.canvas = Canvas(self.buffer, pagesize=A4, invariant=True)
        self.canvas.setTitle(self.title)

    def text(self, x: float, y: float, text: str, size: float, how: str = "left") -> None:
        shown = self.font.printable(text)
        self.canvas.setFont(self.font.name, size)
        if how == "centre":
            self.canvas.drawCentredString(x, y, shown)
        elif how == "right":
            self.canvas.drawRightString(x, y, shown)
        else:
            self.canvas.drawString(x, y, shown)

    def fitted(
        self, x: float, y: float, text: str, size: float, width: float, lines: int = 1
    ) -> None:
        """`text` at `x` within `width`: smaller if need be (down to 60% of `size`, and
        not below MIN_SIZE), then on `lines` lines (the next ones below `y`), then cut
        with an ellipsis and kept for the page's foot."""
        shown = self.font.printable(text)
        smallest = max(MIN_SIZE, size * 0.6)
        fitting = size
        while fitting > smallest and self.font.width(shown, fitting) > width:
            fitting = max(smallest, fitting - 0.5)
        parts = self._wrapped(shown, fitting, width, lines)
        last = parts[-1]
        if self.font.width(last, fitting) > width:
            while last and self.font.width(last + ELLIPSIS, fitting) > width:
                last = last[:-1]
            parts[-1] = last + ELLIPSIS
            self.cut[text] = None
        self.canvas.setFont(self.font.name, fitting)
        for n, part in enumerate(parts):
            self.canvas.drawString(x, y - n * fitting * 1.15, part)

    def _wrapped(self, text: str, size: float, width: float, lines: int) -> list[str]:
        """`text` broken into at most `lines` lines of `width` (at a space where one
        is, else between characters); the last takes the rest."""
        parts: list[str] = []
        rest = text
        while len(parts) < lines - 1 and self.font.width(rest, size) > width:
            end = len(rest)
            while end > 1 and self.font.width(rest[:end], size) > width:
                end -= 1
            space = rest.rfind(" ", 0, end + 1)
            end = space if space > 0 else end
            parts.append(rest[:end])
            rest = rest[end:].lstrip(" ")
        return [*parts, rest]

    def number(self, x: float, y: float, text: str, size: float) -> None:
        """A number with its decimal point at `x` (a whole number ends there)."""
        self.canvas.setFont(self.font.name, size)
        self.canvas.drawAlignedString(x, y, self.font.printable(text), pivotChar=".")

    def head(self, heading: str, title: str) -> float:
        """The event's line and the page's title; the height below them."""
        self.text(MARGIN, HEIGHT - MARGIN, heading, 11)
        self.fitted(MARGIN, HEIGHT - MARGIN - 34, title, 20, WIDTH - 2 * MARGIN)
        return float(HEIGHT - MARGIN - 70)

    def next_page(self) -> None:
        """Close the page, with the names cut on it written in full: at its foot, or
        on a page of their own when there are more than FOOT of them."""
        cut, self.cut = list(self.cut), {}
        if len(cut) <= FOOT:
            self._in_full(cut, MARGIN / 2 + 20 * (len(cut) - 1))
        else:
            for chunk in _chunks(cut, 30):
                self.canvas.showPage()
                self.text(MARGIN, HEIGHT - MARGIN, "全名 Names in full", 14)
                self._in_full(chunk, HEIGHT - MARGIN - 30)
        self.cut = {}
        self.canvas.showPage()

    def _in_full(self, names: list[str], top: float) -> None:
        """Each name marked `*`, on two lines if need be, from `top` down."""
        y = top
        for name in names:
            self.fitted(MARGIN, y, "* " + name, 8, WIDTH - 2 * MARGIN, lines=2)
            y -= 20 if self.font.width("* " + name, 8) > WIDTH - 2 * MARGIN else 10

    def pdf(self) -> bytes:
        self.canvas.save()
        return self.buffer.getvalue()


def named(player: object, names: dict[str, str]) -> str:
    name = names.get(str(player), "")
    return f"{player} {name}" if name and name != str(player) else str(player)


def table_cards(seating: pd.DataFrame, heading: str, names: dict[str, str], font: Font) -> bytes:
    """One page per table of the round: its number large, then who sits where."""
    page = Page(font, "table cards")
    for (section, rnd, table), group in _tables(seating):
        where = f"{section} · " if str(section) else ""
        page.head(heading, f"{where}第 {rnd} 轮 Round {rnd}")
        page.text(WIDTH / 2, HEIGHT / 2 + 60, f"{table}", 96, "centre")
        page.text(WIDTH / 2, HEIGHT / 2 + 10, f"第 {table} 桌 · Table {table}", 28, "centre")
        y = HEIGHT / 2 - 50
        for seat, player in zip(group["seat"], group["player"], strict=True):
            label = f"座位 Seat {seat}:  "
            page.text(MARGIN + 60, y, label, 18)
            x = MARGIN + 60 + font.width(label, 18)
            page.fitted(x, y, named(player, names), 18, WIDTH - MARGIN - x, lines=2)
            y -= 30
        page.next_page()
    return page.pdf()


def seating_list(seating: pd.DataFrame, heading: str, names: dict[str, str], font: Font) -> bytes:
    """Every player by name in pinyin order (duplicate.render.name_order), then those
    without a name by id, with their table and seat; byes said so."""
    players = [str(p) for p in seating["player"]]
    shown = [named(p, names) for p in players]

    # Players without a name after those with one, by id.
    def key(at: int) -> tuple[int, Key, str]:
        player = players[at]
        name = names.get(player)
        return (0, name_key(name), shown[at]) if name else (1, name_key(player), shown[at])

    order = sorted(range(len(players)), key=key)
    rows = seating.assign(out=_byes(seating), shown=shown).iloc[order]
    rounds = sorted({str(r) for r in seating["round"]})
    title = f"座位表 Seating · 第 {', '.join(rounds)} 轮 Round {', '.join(rounds)}"
    page = Page(font, title)
    listed = list(rows.itertuples(index=False))
    for number, chunk in enumerate(_chunks(listed, LINES_PER_PAGE)):
        y = page.head(heading, title + (f" ({number + 1})" if number else ""))
        for row in chunk:
            page.fitted(MARGIN, y, str(row.shown), 13, 240)
            if row.out:
                page.text(MARGIN + 250, y, "轮空 bye", 13)
            else:
                page.text(MARGIN + 250, y, f"第 {row.table} 桌 Table {row.table}", 13)
                page.text(MARGIN + 400, y, f"座位 Seat {row.seat}", 13)
            y -= 18
        page.next_page()
    return page.pdf()


def score_cards(
    scores: pd.DataFrame,
    standings: pd.DataFrame,
    heading: str,
    names: dict[str, str],
    font: Font,
    per_page: int = 2,
) -> bytes:
    """A card per player in standings order (place, total, then every deal, numbers
    aligned on their decimal point), `per_page` cards to an A4 page (1, 2 or 4); a card
    whose deals do not fit goes on in the next place."""
    columns, rows = CARD_GRID[per_page]
    layout = CardLayout(WIDTH / columns, HEIGHT / rows, per_page)
    page = Page(font, "score cards")
    # Each player's deals, found once for all the cards.
    keys = [scores["section"].astype(str), scores["player"].astype(str)]
    deals_of: dict[Any, pd.DataFrame] = dict(list(scores.groupby(keys, sort=False)))
    cards: list[tuple[str, str, pd.DataFrame]] = []
    for record in standings.to_dict("records"):
        mine = deals_of.get((str(record["section"]), str(record["player"])), scores.iloc[:0])
        total = f"总分 Total {_text(record.get('total', record.get('percentage', '')))}"
        title = f"{named(record['player'], names)} · 第 {record['place']} 名 Place"
        for part, start in enumerate(range(0, max(len(mine), 1), layout.lines)):
            shown = title + (f" ({part + 1})" if part else "")
            cards.append((shown, total, mine.iloc[start : start + layout.lines]))
    for sheet in _chunks(cards, columns * rows):
        for at, card in enumerate(sheet):
            left = (at % columns) * layout.width
            top = HEIGHT - (at // columns) * layout.height
            _card(page, layout, heading, *card, left, top)
        _cut_marks(page, columns, rows)
        page.next_page()
    return page.pdf()


@dataclass(frozen=True)
class CardLayout:
    """Where a score card's parts go, for the place it has on the page."""

    width: float
    height: float
    per_page: int

    @property
    def margin(self) -> float:
        return MARGIN if self.per_page == 1 else 28.0

    @property
    def size(self) -> float:
        return 7.5 if self.per_page == 4 else 10.0

    @property
    def line(self) -> float:
        return self.size * 1.45

    @property
    def first_line(self) -> float:
        """How far below the card's top the first deal is."""
        return self.margin + 9.0 * self.size

    @property
    def lines(self) -> int:
        """How many deals a card holds."""
        room = self.height - self.first_line - self.margin / 2
        return max(int(room // self.line), 1)


def _card(
    page: Page,
    layout: CardLayout,
    heading: str,
    title: str,
    total: str,
    deals: pd.DataFrame,
    left: float,
    top: float,
) -> None:
    size, x = layout.size, left + layout.margin
    inner = layout.width - 2 * layout.margin
    page.fitted(x, top - layout.margin, heading, size * 1.1, inner)
    page.fitted(x, top - layout.margin - 2.4 * size, title, size * 1.7, inner)
    page.text(x, top - layout.margin - 4.4 * size, total, size * 1.3)
    shares = np.cumsum(CARD_SHARES) / sum(CARD_SHARES) * inner
    rights = [x + float(share) - 2 for share in shares]
    y = top - layout.margin - 7.4 * size
    for right, (chinese, english) in zip(rights, CARD_LABELS, strict=True):
        page.text(right, y + size * 0.9, chinese, size * 0.85, "right")
        page.text(right, y, english, size * 0.85, "right")
    y = top - layout.first_line
    columns = [
        [_text(v) for v in deals[f]] if f in deals else [""] * len(deals) for f in CARD_FIELDS
    ]
    # Each column's decimal points in a line; a whole number ends where they are.
    pivots = [
        right - max((_fraction(page.font, v, size) for v in column if "." in v), default=0.0)
        for right, column in zip(rights, columns, strict=True)
    ]
    # Line by line, so that the text reads (and copies) a deal at a time.
    for n, line in enumerate(zip(*columns, strict=True)):
        for pivot, value in zip(pivots, line, strict=True):
            page.number(pivot, y - n * layout.line, value, size)


def _fraction(font: Font, number: str, size: float) -> float:
    """How far the end of `number` is from the middle of its decimal point."""
    return font.width(number[number.index(".") :], size) - font.width(".", size) / 2


def _cut_marks(page: Page, columns: int, rows: int) -> None:
    """Dashed lines where the cards are cut apart."""
    canvas = page.canvas
    canvas.saveState()
    canvas.setDash(3, 3)
    canvas.setStrokeGray(0.6)
    for c in range(1, columns):
        canvas.line(c * WIDTH / columns, 0, c * WIDTH / columns, HEIGHT)
    for r in range(1, rows):
        canvas.line(0, r * HEIGHT / rows, WIDTH, r * HEIGHT / rows)
    canvas.restoreState()


def score_sheets(
    seating: pd.DataFrame,
    heading: str,
    names: dict[str, str],
    font: Font,
    deals: Sequence[int],
) -> bytes:
    """A blank score sheet per table of the round: who sits where, then a line per deal
    with a box per seat for its score, and a line for each player to sign."""
    page = Page(font, "score sheets")
    for (section, rnd, table), group in _tables(seating):
        where = f"{section} · " if str(section) else ""
        y = page.head(heading, f"{where}第 {rnd} 轮 第 {table} 桌 · Round {rnd} Table {table}")
        seats = [str(s) for s in group["seat"]]
        players = [str(p) for p in group["player"]]
        for seat, player in zip(seats, players, strict=True):
            page.text(MARGIN, y, f"座位 Seat {seat}", 12)
            page.fitted(MARGIN + 90, y, named(player, names), 12, WIDTH - 2 * MARGIN - 90)
            y -= 18
        y -= 10
        first = 70.0
        step, xs = _seat_columns(first, len(seats))
        page.text(MARGIN, y, "副 Deal", 10)
        for i, (seat, player) in enumerate(zip(seats, players, strict=True)):
            x = MARGIN + first + i * step
            page.text(x + 4, y + 6, f"座 Seat {seat}", 9)
            page.fitted(x + 4, y - 5, player, 9, step - 8)
        y -= 12
        row = min(28.0, (y - MARGIN - 70) / (len(deals) + 1))
        # A line per deal, and one for the totals.
        _grid(page, y, row, len(deals) + 1, xs)
        for n, deal in enumerate(deals):
            page.text(MARGIN + first - 10, y - (n + 1) * row + row * 0.3, str(deal), 11, "right")
        page.text(MARGIN + 6, y - (len(deals) + 1) * row + row * 0.3, "合计 Total", 10)
        y -= row * (len(deals) + 1) + 30
        page.text(MARGIN, y, "签名 Signatures", 10)
        for i, seat in enumerate(seats):
            x = MARGIN + first + i * step
            page.canvas.line(x + 4, y - 4, x + step - 8, y - 4)
            page.text(x + 4, y - 14, f"座 Seat {seat}", 7)
        page.next_page()
    return page.pdf()


def travellers(
    seating: pd.DataFrame,
    heading: str,
    names: dict[str, str],
    font: Font,
    deals: Sequence[int],
) -> bytes:
    """A blank traveller per deal of the round: the slip that follows the deal from
    table to table, a line per table with its players by seat and a box for each
    seat's score."""
    page = Page(font, "travellers")
    seated = seating[~_byes(seating)]
    for (section, rnd), tables in _numbered(seated.groupby(["section", "round"], sort=False)):
        groups = _numbered(tables.groupby("table", sort=False))
        seats = sorted({str(s) for s in tables["seat"]}, key=natural)
        for deal in deals:
            where = f"{section} · " if str(section) else ""
            for part, chunk in enumerate(_chunks(groups, 24)):
                title = f"{where}第 {rnd} 轮 第 {deal} 副 · Round {rnd} Deal {deal}"
                y = page.head(heading, title + (f" ({part + 1})" if part else ""))
                first = 44.0
                step, xs = _seat_columns(first, len(seats))
                page.text(MARGIN, y, "桌 Table", 10)
                for i, seat in enumerate(seats):
                    page.text(MARGIN + first + i * step + 4, y, f"座 Seat {seat}", 10)
                y -= 8
                row = 26.0
                _grid(page, y, row, len(chunk), xs)
                for n, (table, group) in enumerate(chunk):
                    line = y - (n + 1) * row
                    page.text(MARGIN + first - 8, line + row * 0.35, str(table), 12, "right")
                    at = dict(zip((str(s) for s in group["seat"]), group["player"], strict=True))
                    for i, seat in enumerate(seats):
                        if seat in at:
                            x = MARGIN + first + i * step + 3
                            page.fitted(x, line + row - 9, str(at[seat]), 7, step * 0.6)
                page.next_page()
    return page.pdf()


def _seat_columns(first: float, seats: int) -> tuple[float, list[float]]:
    """A sheet's columns across the page: a first column `first` wide (the deal, the
    table), then one of equal width per seat. Their width, and the lines between them."""
    step = (WIDTH - 2 * MARGIN - first) / max(seats, 1)
    return step, [MARGIN, MARGIN + first] + [MARGIN + first + (i + 1) * step for i in range(seats)]


def _grid(page: Page, top: float, row: float, count: int, xs: Sequence[float]) -> None:
    """Boxes: `count` rows of height `row` below `top`, cut at each of `xs`."""
    canvas = page.canvas
    canvas.saveState()
    canvas.setLineWidth(0.6)
    bottom = top - row * count
    for n in range(count + 1):
        canvas.line(xs[0], top - n * row, xs[-1], top - n * row)
    for x in xs:
        canvas.line(x, top, x, bottom)
    canvas.restoreState()


def _tables(seating: pd.DataFrame) -> list[tuple[tuple[Any, ...], pd.DataFrame]]:
    """The seated tables of each section and round, in the order of their numbers."""
    seated = seating[~_byes(seating)]
    return _numbered(seated.groupby(["section", "round", "table"], sort=False))


def _numbered(groups: Any) -> list[tuple[Any, pd.DataFrame]]:
    """Groups in the order of their keys, numbers by value (table 2 before table 10)."""

    def key(item: tuple[Any, pd.DataFrame]) -> tuple[str, ...]:
        parts = item[0] if isinstance(item[0], tuple) else (item[0],)
        return tuple(natural(str(part)) for part in parts)

    return sorted(groups, key=key)


def _text(value: Any) -> str:
    return "" if value is None or value is pd.NA or value != value else str(value)


def _chunks(items: list[T], size: int) -> Iterator[list[T]]:
    for start in range(0, max(len(items), 1), size):
        yield items[start : start + size]


def _byes(seating: pd.DataFrame) -> np.ndarray:
    if "bye" not in seating.columns:
        return np.zeros(len(seating), dtype=bool)
    return byes(seating["bye"])


# A bridge board's dealer and vulnerability by its number, as duplicate boards are made
# (the 16-board cycle).
DEALERS = ("N", "E", "S", "W")
# fmt: off
VULNERABLE = (
    "None", "NS", "EW", "Both", "NS", "EW", "Both", "None",
    "EW", "Both", "None", "NS", "Both", "None", "NS", "EW",
)
# fmt: on
BRIDGE_COLUMNS = (
    ("北南 NS", 0.8),
    ("东西 EW", 0.8),
    ("定约 Contract", 1.3),
    ("庄 By", 0.7),
    ("首攻 Lead", 0.9),
    ("墩 Tricks", 0.9),
    ("北南 NS +", 1.0),
    ("东西 EW +", 1.0),
    ("北南 MP", 0.9),
    ("东西 MP", 0.9),
)
# The column of the table a board is played at, first when the session names tables.
BRIDGE_TABLE_COLUMN = ("桌 Table", 0.9)
TRAVELLERS_PER_PAGE = 2


def bridge_travellers(
    meetings: Sequence[tuple[str, str, str, str, str]], heading: str, font: Font
) -> bytes:
    """A blank traveller per board of a bridge session, two to a page: the board's
    dealer and vulnerability, and a line per table that plays it with its table (when
    the session names tables), North-South and East-West pairs, the rest (contract,
    declarer, lead, tricks, each side's score and matchpoints) to fill in. `meetings`:
    (section, board, table or "", NS pair, EW pair)."""
    page = Page(font, "travellers")
    boards: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for section, board, table, ns, ew in meetings:
        boards.setdefault((section, board), []).append((table, ns, ew))
    tables = any(table for _, _, table, _, _ in meetings)
    columns = (BRIDGE_TABLE_COLUMN, *BRIDGE_COLUMNS) if tables else BRIDGE_COLUMNS
    height = HEIGHT / TRAVELLERS_PER_PAGE
    row = 24.0
    capacity = int((height - MARGIN - 60) // row)
    slips: list[tuple[str, list[tuple[str, str, str]]]] = []
    for (section, board), pairs in sorted(
        boards.items(), key=lambda item: (natural(item[0][0]), natural(item[0][1]))
    ):
        pairs = sorted(pairs, key=lambda p: (natural(p[0]), natural(p[1]), natural(p[2])))
        title = f"{section} · " if section else ""
        title += f"第 {board} 副 Board {board}"
        if board.isdigit():
            number = int(board) - 1
            title += f" · 发牌 Dealer {DEALERS[number % 4]} · 局况 Vul {VULNERABLE[number % 16]}"
        for part, start in enumerate(range(0, len(pairs), capacity)):
            shown = title + (f" ({part + 1})" if part else "")
            slips.append((shown, pairs[start : start + capacity]))
    shares = np.cumsum([share for _, share in columns])
    xs = [MARGIN] + [float(MARGIN + x / shares[-1] * (WIDTH - 2 * MARGIN)) for x in shares]
    for sheet in _chunks(slips, TRAVELLERS_PER_PAGE):
        for at, (title, pairs) in enumerate(sheet):
            top = HEIGHT - at * height - MARGIN * 0.7
            page.text(MARGIN, top, heading, 9)
            page.fitted(MARGIN, top - 22, title, 15, WIDTH - 2 * MARGIN)
            y = top - 44
            for (label, _), x in zip(columns, xs, strict=False):
                page.fitted(x + 3, y, label, 8, 60)
            y -= 6
            _grid(page, y, row, len(pairs), xs)
            for n, (table, ns, ew) in enumerate(pairs):
                line = y - (n + 1) * row + row * 0.32
                cells = (table, ns, ew) if tables else (ns, ew)
                for at_column, value in enumerate(cells, 1):
                    page.text(xs[at_column] - 6, line, value, 11, "right")
        _cut_marks(page, 1, TRAVELLERS_PER_PAGE)
        page.next_page()
    return page.pdf()
