"""Workbooks built part by part with zipfile, for the hostile .xlsx tests: each part's
XML as a test wants it (hidden sheets, far cells, formulas, escapes, declared counts).
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from tests.conftest import ROOT

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE = "http://schemas.openxmlformats.org/package/2006/relationships"
WORKSHEET = RELS + "/worksheet"


def spec_grid() -> list[list[str]]:
    """sample_data/spec_example.csv as rows of cells (its header first)."""
    with open(ROOT / "sample_data" / "spec_example.csv", newline="") as handle:
        return list(csv.reader(handle))


def column_letters(index: int) -> str:
    letters = ""
    index += 1
    while index > 0:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@dataclass
class Book:
    """A workbook's parts: sheets (name, state, the XML of its cells) and shared
    strings, written into a zip archive by `data`."""

    shared: list[str] = field(default_factory=list)
    sheets: list[tuple[str, str, str]] = field(default_factory=list)
    sst_attributes: str = ""

    def string(self, text: str) -> int:
        if text not in self.shared:
            self.shared.append(text)
        return self.shared.index(text)

    def grid_xml(
        self, grid: list[list[str]], first_row: int = 1, extra: str = "", formulas: str = ""
    ) -> str:
        """A sheet's cells: numbers as numbers, text as shared strings, the header at
        `first_row`; `extra` (raw cells or rows) after the last row; `formulas` a cell
        reference whose value gets the formula 1+1."""
        rows = []
        for at, values in enumerate(grid):
            number = first_row + at
            cells = []
            for column, value in enumerate(values):
                ref = f"{column_letters(column)}{number}"
                formula = "<f>1+1</f>" if ref == formulas else ""
                if value.lstrip("-").isdigit():
                    cells.append(f'<c r="{ref}">{formula}<v>{value}</v></c>')
                else:
                    cells.append(f'<c r="{ref}" t="s">{formula}<v>{self.string(value)}</v></c>')
            rows.append(f'<row r="{number}">{"".join(cells)}</row>')
        return "".join(rows) + extra

    def add(self, name: str, cells: str, state: str = "visible") -> Book:
        self.sheets.append((name, state, cells))
        return self

    def data(self, sheet_prefix: str = "") -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, text in self.parts(sheet_prefix).items():
                archive.writestr(name, text)
        return buffer.getvalue()

    def parts(self, prefix: str = "") -> dict[str, str]:
        """Every part's text (`prefix` such as 'x:' names the sheet's elements so)."""
        head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        types = (
            head + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            + "".join(
                f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                for i in range(1, len(self.sheets) + 1)
            )
            + "</Types>"
        )
        root_rels = (
            head + f'<Relationships xmlns="{PACKAGE}"><Relationship Id="rId1" '
            f'Type="{RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        )
        listed = "".join(
            f'<sheet name="{escape(name, {chr(34): "&quot;"})}" sheetId="{i}"'
            + (f' state="{state}"' if state != "visible" else "")
            + f' r:id="rId{i}"/>'
            for i, (name, state, _) in enumerate(self.sheets, start=1)
        )
        workbook = (
            head + f'<workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets>{listed}</sheets></workbook>'
        )
        relationships = "".join(
            f'<Relationship Id="rId{i}" Type="{WORKSHEET}" Target="worksheets/sheet{i}.xml"/>'
            for i in range(1, len(self.sheets) + 1)
        )
        n = len(self.sheets)
        relationships += (
            f'<Relationship Id="rId{n + 1}" Type="{RELS}/sharedStrings" '
            'Target="sharedStrings.xml"/>'
        )
        parts = {
            "[Content_Types].xml": types,
            "_rels/.rels": root_rels,
            "xl/workbook.xml": workbook,
            "xl/_rels/workbook.xml.rels": head
            + f'<Relationships xmlns="{PACKAGE}">{relationships}</Relationships>',
        }
        p = prefix
        for i, (_, _, cells) in enumerate(self.sheets, start=1):
            if p:
                cells = cells.replace("<row", f"<{p}row").replace("</row", f"</{p}row")
                cells = cells.replace("<c ", f"<{p}c ").replace("</c>", f"</{p}c>")
                cells = cells.replace("<v>", f"<{p}v>").replace("</v>", f"</{p}v>")
                cells = cells.replace("<f>", f"<{p}f>").replace("</f>", f"</{p}f>")
            declare = f'xmlns:{p[:-1]}="{MAIN}"' if p else f'xmlns="{MAIN}"'
            parts[f"xl/worksheets/sheet{i}.xml"] = (
                head + f"<{p}worksheet {declare}><{p}sheetData>{cells}</{p}sheetData>"
                f"</{p}worksheet>"
            )
        strings = "".join(f"<si><t>{escape(text)}</t></si>" for text in self.shared)
        count = len(self.shared)
        attributes = self.sst_attributes or f'count="{count}" uniqueCount="{count}"'
        parts["xl/sharedStrings.xml"] = head + f'<sst xmlns="{MAIN}" {attributes}>{strings}</sst>'
        return parts


def spec_book(**grid_options: object) -> Book:
    """A workbook of one visible sheet 'results' holding the spec's example."""
    book = Book()
    return book.add("results", book.grid_xml(spec_grid(), **grid_options))  # type: ignore[arg-type]


def zip_of(parts: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return buffer.getvalue()
