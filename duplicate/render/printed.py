"""Paper for the venue as PDF (A4): table cards, a seating list by name, and personal
score cards, each page headed by the event's title, date and venue.

reportlab draws the pages; Chinese text uses Adobe's standard Song font (STSong-Light),
which PDF readers supply themselves, so no font file travels with the project.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import TypeVar

import numpy as np
import pandas as pd
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen.canvas import Canvas

from duplicate.seating.check import byes

T = TypeVar("T")
FONT = "STSong-Light"
WIDTH, HEIGHT = A4
MARGIN = 56.0
LINES_PER_PAGE = 38


def _canvas(buffer: io.BytesIO, title: str) -> Canvas:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(FONT))
    canvas = Canvas(buffer, pagesize=A4, invariant=True)
    canvas.setTitle(title)
    return canvas


def _head(canvas: Canvas, heading: str, title: str) -> float:
    """The event's line and the page's title; the height below them."""
    canvas.setFont(FONT, 11)
    canvas.drawString(MARGIN, HEIGHT - MARGIN, heading)
    canvas.setFont(FONT, 20)
    canvas.drawString(MARGIN, HEIGHT - MARGIN - 34, title)
    return float(HEIGHT - MARGIN - 70)


def _named(player: object, names: dict[str, str]) -> str:
    name = names.get(str(player), "")
    return f"{player} {name}" if name and name != str(player) else str(player)


def table_cards(seating: pd.DataFrame, heading: str, names: dict[str, str]) -> bytes:
    """One page per table of the round: its number large, then who sits where."""
    buffer = io.BytesIO()
    canvas = _canvas(buffer, "table cards")
    seated = seating[~_byes(seating)]
    for (section, rnd, table), group in seated.groupby(["section", "round", "table"], sort=True):
        where = f"{section} · " if str(section) else ""
        _head(canvas, heading, f"{where}第 {rnd} 轮 Round {rnd}")
        canvas.setFont(FONT, 96)
        canvas.drawCentredString(WIDTH / 2, HEIGHT / 2 + 60, f"{table}")
        canvas.setFont(FONT, 28)
        canvas.drawCentredString(WIDTH / 2, HEIGHT / 2 + 10, f"第 {table} 桌 · Table {table}")
        y = HEIGHT / 2 - 50
        canvas.setFont(FONT, 18)
        for seat, player in zip(group["seat"], group["player"], strict=True):
            canvas.drawString(MARGIN + 60, y, f"座位 Seat {seat}:  {_named(player, names)}")
            y -= 30
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def seating_list(seating: pd.DataFrame, heading: str, names: dict[str, str]) -> bytes:
    """Every player, by name (or id), with their table and seat; byes said so."""
    rows = seating.assign(
        out=_byes(seating),
        shown=[_named(p, names) for p in seating["player"]],
        key=[names.get(str(p), str(p)) for p in seating["player"]],
    ).sort_values(["key", "shown"], kind="stable")
    rounds = sorted({str(r) for r in seating["round"]})
    title = f"座位表 Seating · 第 {', '.join(rounds)} 轮 Round {', '.join(rounds)}"
    lines: list[tuple[str, ...]] = [
        (
            str(row.shown),
            "轮空 bye" if row.out else f"第 {row.table} 桌 Table {row.table}",
            "" if row.out else f"座位 Seat {row.seat}",
        )
        for row in rows.itertuples(index=False)
    ]
    return _listing(heading, title, lines, (MARGIN, MARGIN + 250, MARGIN + 400))


def score_cards(
    scores: pd.DataFrame, standings: pd.DataFrame, heading: str, names: dict[str, str]
) -> bytes:
    """One card per player in standings order: place, total, then every deal."""
    buffer = io.BytesIO()
    canvas = _canvas(buffer, "score cards")
    fields = ("round", "deal", "table", "seat", "score", "mp_pct", "deal_rank", "rank_points")
    labels = (
        "轮 Rd",
        "副 Deal",
        "桌 Tbl",
        "座 Seat",
        "得分 Score",
        "MP%",
        "名次 Rank",
        "分 Points",
    )
    xs = [MARGIN + i * 60 for i in range(len(fields))]
    # Each player's deals, found once for all the cards.
    keys = [scores["section"].astype(str), scores["player"].astype(str)]
    deals_of = {key: rows.to_dict("records") for key, rows in scores.groupby(keys, sort=False)}
    for record in standings.to_dict("records"):
        mine = deals_of.get((str(record["section"]), str(record["player"])), [])
        total = record.get("total", record.get("percentage", ""))
        title = f"{_named(record['player'], names)} · 第 {record['place']} 名 Place"
        for page, chunk in enumerate(_chunks(mine, LINES_PER_PAGE - 4)):
            y = _head(canvas, heading, title + (f" ({page + 1})" if page else ""))
            canvas.setFont(FONT, 13)
            canvas.drawString(MARGIN, y, f"总分 Total {total}")
            y -= 28
            canvas.setFont(FONT, 10)
            for x, label in zip(xs, labels, strict=True):
                canvas.drawString(x, y, label)
            y -= 18
            for deal in chunk:
                for x, field in zip(xs, fields, strict=True):
                    value = deal.get(field)
                    canvas.drawString(x, y, "" if value is None or value is pd.NA else str(value))
                y -= 16
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _listing(
    heading: str, title: str, lines: list[tuple[str, ...]], xs: tuple[float, ...]
) -> bytes:
    buffer = io.BytesIO()
    canvas = _canvas(buffer, title)
    for page, chunk in enumerate(_chunks(lines, LINES_PER_PAGE)):
        y = _head(canvas, heading, title + (f" ({page + 1})" if page else ""))
        canvas.setFont(FONT, 13)
        for line in chunk:
            for x, text in zip(xs, line, strict=True):
                canvas.drawString(x, y, text)
            y -= 18
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _chunks(items: list[T], size: int) -> Iterator[list[T]]:
    for start in range(0, max(len(items), 1), size):
        yield items[start : start + size]


def _byes(seating: pd.DataFrame) -> np.ndarray:
    if "bye" not in seating.columns:
        return np.zeros(len(seating), dtype=bool)
    return byes(seating["bye"])
