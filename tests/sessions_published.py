"""What a bridge program published in a session file, compared with what `duplicate`
computes from the file alone.

A session file holds, beside its travellers, the numbers the program that scored it
published: each traveller line's matchpoints for each side, and each pair's
percentage and place (USEBIO `NS_MATCH_POINTS`, `EW_MATCH_POINTS`, `PERCENTAGE`,
`PLACE`; PBN `MP_NS`, `MP_EW`, `Percentage_NS`, `Percentage_EW` in a `[ScoreTable]` and
`Rank`, `PairId`, `TotalPercentage` in a `[TotalScoreTable]`). `published` reads them;
`compare` counts, kind by kind, how many of them the toolkit's `score` and
`standings` tables give exactly (a percentage compared at the decimals the file
publishes, rounded half up), and lists the others.

A difference that a percentage convention explains (a place split by count-back, a
percentage from rounded board MPs) is marked with the convention by the caller:
`Comparison.explained`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pandas as pd

# The kinds of published number, in the order they are counted.
KINDS = ("line_mp", "line_pct", "pair_pct", "place")


@dataclass
class Published:
    """A session's published numbers, keyed as the toolkit's tables are."""

    # (deal, seat, player) -> MPs, and -> the board percentage, as written.
    line_mp: dict[tuple[str, str, str], str] = field(default_factory=dict)
    line_pct: dict[tuple[str, str, str], str] = field(default_factory=dict)
    # player -> percentage, and -> place, as written.
    pair_pct: dict[str, str] = field(default_factory=dict)
    place: dict[str, str] = field(default_factory=dict)

    def count(self) -> int:
        return sum(len(getattr(self, kind)) for kind in KINDS)


@dataclass
class Comparison:
    """How many published numbers of each kind the toolkit gives, and the others."""

    matched: Counter[str] = field(default_factory=Counter)
    total: Counter[str] = field(default_factory=Counter)
    # (kind, key, published, computed) of each number not given exactly.
    differences: list[tuple[str, object, str, str]] = field(default_factory=list)

    @property
    def all_matched(self) -> int:
        return sum(self.matched.values())

    @property
    def all_total(self) -> int:
        return sum(self.total.values())

    def explained(self, kind: str, keys: set[object]) -> list[tuple[str, object, str, str]]:
        """The differences left once those of `kind` at `keys` (a convention explains
        them) are set aside."""
        return [d for d in self.differences if not (d[0] == kind and d[1] in keys)]


def _pair(number: str) -> str:
    """A pair number as the importer writes it (leading zeros dropped)."""
    number = number.strip()
    return number.lstrip("0") or "0" if number.isdigit() else number


def published(path: Path) -> Published:
    """The numbers a USEBIO or PBN session file publishes."""
    if path.suffix.casefold() == ".xml":
        return _usebio(path)
    return _pbn(path)


def _usebio(path: Path) -> Published:
    from lxml import etree

    root = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True))
    found = Published()

    def text(element: etree._Element, name: str) -> str:
        child = element.find(name)
        return (child.text or "").strip() if child is not None else ""

    def section_of(element: etree._Element) -> str:
        section = next(element.iterancestors("SECTION"), None)
        if section is None:
            return ""
        return str(section.get("SECTION_ID") or text(section, "SECTION_ID")).strip()

    # The importer names a pair with its section when there are several (A1).
    many = len({section_of(b) for b in root.iter("BOARD")}) > 1

    def named(element: etree._Element, number: str) -> str:
        return (section_of(element) if many else "") + _pair(number)

    for board in root.iter("BOARD"):
        deal = _pair(text(board, "BOARD_NUMBER"))
        for line in board.iter("TRAVELLER_LINE"):
            ns = named(board, text(line, "NS_PAIR_NUMBER"))
            ew = named(board, text(line, "EW_PAIR_NUMBER"))
            for seat, pair, tag in (("NS", ns, "NS_MATCH_POINTS"), ("EW", ew, "EW_MATCH_POINTS")):
                if text(line, tag):
                    found.line_mp[(deal, seat, pair)] = text(line, tag)
    for pair in root.iter("PAIR"):
        number = named(pair, text(pair, "PAIR_NUMBER"))
        if text(pair, "PERCENTAGE"):
            found.pair_pct[number] = text(pair, "PERCENTAGE")
        if text(pair, "PLACE"):
            found.place[number] = text(pair, "PLACE").rstrip("=")  # 8= is a shared 8th
    return found


_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"(.*)"\s*\]\s*$')
_TOKEN = re.compile(r'"[^"]*"|\S+')


def _pbn(path: Path) -> Published:
    found = Published()
    board, columns, table = "", [], ""
    for raw in path.read_bytes().decode("utf-8", errors="replace").splitlines():
        line = raw.strip()
        tag = _TAG.match(line)
        if tag:
            name, value = tag.groups()
            if name == "Board" and value != "#":
                board = _pair(value)
            columns = [c.split("\\")[0] for c in value.split(";")]
            table = name if name in ("ScoreTable", "TotalScoreTable") else ""
            continue
        if not line or not table or line.startswith(("%", ";", "{")):
            table = table if line else ""
            continue
        row = dict(zip(columns, (t.strip('"') for t in _TOKEN.findall(line)), strict=False))
        section = row.get("Section", "")
        if table == "ScoreTable":
            for seat in ("NS", "EW"):
                pair = section + _pair(row.get(f"PairId_{seat}", ""))
                for kind, column in (("line_mp", "MP_"), ("line_pct", "Percentage_")):
                    value = row.get(column + seat, "-")
                    if value not in ("-", ""):
                        getattr(found, kind)[(board, seat, pair)] = value
        else:
            pair = section + _pair(row.get("PairId", ""))
            if row.get("TotalPercentage"):
                found.pair_pct[pair] = row["TotalPercentage"]
            if row.get("Rank"):
                found.place[pair] = row["Rank"].rstrip("=")
    return found


def _same(published_text: str, computed: object) -> bool:
    """Equal at the decimals the file writes (the computed value rounded half up)."""
    try:
        given = Decimal(published_text)
        value = Decimal(str(computed))
    except ArithmeticError:
        return False
    places = Decimal(1).scaleb(given.as_tuple().exponent)  # type: ignore[arg-type]
    return value.quantize(places, rounding=ROUND_HALF_UP) == given


def _exact_percentage(row: dict[str, object], shown: str) -> str:
    """A pair's percentage unrounded, where the table shows it at 2 decimals: its total
    MP over its total top when that is what it shows (equal tops), so that a file that
    publishes 1 decimal is compared with the exact value, not a rounded one rounded
    again (56.845 is 56.8, though shown 56.85)."""
    try:
        exact = Decimal(str(row["mp"])) * 100 / Decimal(str(row["top"]))
        if exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) == Decimal(shown):
            return str(exact)
    except (KeyError, ArithmeticError):
        pass
    return shown


def compare(found: Published, score: pd.DataFrame, standings: pd.DataFrame) -> Comparison:
    """Count the published numbers that `score` and `standings` (the toolkit's tables,
    read as text) give exactly."""
    result = Comparison()
    by_line = {
        (str(d), str(s), str(p)): row
        for d, s, p, row in zip(
            score["deal"], score["seat"], score["player"], score.to_dict("records"), strict=True
        )
    }
    by_pair = {
        str(p): row
        for p, row in zip(standings["player"], standings.to_dict("records"), strict=True)
    }
    checks = (
        ("line_mp", found.line_mp, by_line, "mp"),
        ("line_pct", found.line_pct, by_line, "mp_pct"),
        ("pair_pct", found.pair_pct, by_pair, "percentage"),
        ("place", found.place, by_pair, "place"),
    )
    for kind, numbers, rows, column in checks:
        for key, value in numbers.items():
            result.total[kind] += 1
            row = rows.get(key)  # type: ignore[call-overload]
            computed = "" if row is None else str(row.get(column, ""))
            if kind == "pair_pct" and row is not None:
                computed = _exact_percentage(row, computed)
            if row is not None and _same(value, computed):
                result.matched[kind] += 1
            else:
                result.differences.append((kind, key, value, computed))
    return result
