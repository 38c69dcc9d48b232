"""Hostile .xlsx workbooks: the spec's example as a workbook, its parts mutated (the
sheet's extent and numbering, shared strings and their declared counts, formulas,
hidden sheets, escapes, the archive's flags, names and sizes, stray bytes).

Whatever the bytes, a run ends with exit 0, 1, 2 or 3, shows no traceback and no
panic, within its time and with its memory capped (each run is a process of its own:
a reader that allocated without bound would abort it, which no handler sees).

`make test` runs a fixed set of examples, the same every run; `make fuzz` many more,
new ones each time (DUPLICATE_FUZZ_EXAMPLES).
"""

from __future__ import annotations

import io
import os
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_xlsx_hostile import bounded
from tests.xlsx_parts import Book, spec_grid

ALLOWED_EXITS = {0, 1, 2, 3}
EXPLORING = "DUPLICATE_FUZZ_EXAMPLES" in os.environ
fuzz = settings(
    # Each example is a process of its own (about a second): fewer than the CSV suite.
    max_examples=int(os.environ.get("DUPLICATE_FUZZ_EXAMPLES", "8")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=not EXPLORING,
    database=None,
)
SHEET = "xl/worksheets/sheet1.xml"
STRINGS = "xl/sharedStrings.xml"
Parts = dict[str, str]

references = st.builds(
    lambda letters, digits: letters + digits,
    st.text("ABCXYZ", min_size=0, max_size=4),
    st.sampled_from(["0", "1", "2", "99", "1048576", "1048577", "9999999", "99999999999", "-1"]),
)


def on_sheet(change: Callable[[str], str]) -> Callable[[Parts], None]:
    def apply(parts: Parts) -> None:
        parts[SHEET] = change(parts[SHEET])

    return apply


@st.composite
def part_mutations(draw: Any) -> Callable[[Parts], None]:
    kind = draw(
        st.sampled_from(
            [
                "dimension",
                "far-cell",
                "row-number",
                "no-references",
                "declared-count",
                "long-string",
                "string-index",
                "formula",
                "escape",
                "doctype",
                "byte",
                "prefix-cell",
                "twin-part",
            ]
        )
    )
    if kind == "dimension":
        ref = draw(references)
        return on_sheet(
            lambda x: x.replace("<sheetData>", f'<dimension ref="A1:{ref}"/><sheetData>')
        )
    if kind == "far-cell":
        ref = draw(references)
        return on_sheet(
            lambda x: x.replace(
                "</row></sheetData>", f'<c r="{ref}"><v>1</v></c></row></sheetData>'
            )
        )
    if kind == "row-number":
        number = draw(st.sampled_from(["0", "1", "3", "1048576", "1048577", "99999999", "x", ""]))
        return on_sheet(lambda x: x.replace('<row r="3">', f'<row r="{number}">', 1))
    if kind == "no-references":
        return on_sheet(lambda x: x.replace(' r="', ' q="'))
    if kind == "declared-count":
        count = draw(st.sampled_from(["0", "4", "100000", "4000000000", "-1", "x", "1e9"]))

        def declared(parts: Parts) -> None:
            parts[STRINGS] = parts[STRINGS].replace(
                'uniqueCount="', f'uniqueCount="{count}" old="', 1
            )

        return declared
    if kind == "long-string":
        length = draw(st.sampled_from([10, 100_000, 1_000_000]))
        cells = draw(st.integers(1, 600))

        def long(parts: Parts) -> None:
            parts[STRINGS] = parts[STRINGS].replace(
                "<si>", f"<si><t>{'y' * length}</t></si><si>", 1
            )
            parts[STRINGS] = parts[STRINGS].replace("<t>", "<t>", 1)
            row = "".join(f'<c r="G{n}" t="s"><v>0</v></c>' for n in range(20, 20 + cells))
            parts[SHEET] = parts[SHEET].replace(
                "</sheetData>", f'<row r="20">{row}</row></sheetData>'
            )

        return long
    if kind == "string-index":
        index = draw(st.sampled_from(["-1", "999999", "99999999999999999999", "x", ""]))
        return on_sheet(lambda x: x.replace('t="s"><v>0</v>', f't="s"><v>{index}</v>', 1))
    if kind == "formula":
        text = draw(st.sampled_from(["1+1", "", "SUM(A1:XFD1048576)", "<", "&amp;"]))
        return on_sheet(lambda x: x.replace('<c r="D2"><v>', f'<c r="D2"><f>{text}</f><v>', 1))
    if kind == "escape":
        code = draw(
            st.sampled_from(
                ["0000", "0001", "0009", "000A", "001F", "007F", "FFFF", "D800", "zzzz"]
            )
        )

        def escape(parts: Parts) -> None:
            parts[STRINGS] = parts[STRINGS].replace("<t>P1</t>", f"<t>P_x{code}_1</t>", 1)

        return escape
    if kind == "doctype":
        entity = '<!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        target = draw(st.sampled_from([STRINGS, SHEET, "xl/workbook.xml"]))

        def doctype(parts: Parts) -> None:
            head, _, rest = parts[target].partition("\n")
            parts[target] = head + "\n" + entity + rest.replace("</t>", "&b;</t>", 1)

        return doctype
    if kind == "byte":
        target = draw(
            st.sampled_from([STRINGS, SHEET, "xl/workbook.xml", "xl/_rels/workbook.xml.rels"])
        )
        at = draw(st.integers(0, 10_000))
        char = draw(st.sampled_from(["<", ">", '"', "&", "\x00", "\udc80", "é", " ", "/"]))

        def byte(parts: Parts) -> None:
            text = parts[target]
            where = at % max(1, len(text))
            parts[target] = text[:where] + char + text[where + 1 :]

        return byte
    if kind == "twin-part":
        name = draw(st.sampled_from([STRINGS, SHEET, "xl/workbook.xml"]))
        twin = draw(st.sampled_from([name.upper(), name.replace("/", "\\")]))

        def twice(parts: Parts) -> None:
            parts[twin] = parts[name].replace('uniqueCount="', 'uniqueCount="4000000000" x="')

        return twice
    prefix = draw(st.sampled_from(["x:", "q:"]))
    return on_sheet(lambda x: x.replace("<c ", f"<{prefix}c ", 1))


def archive_of(parts: Parts) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text.encode("utf-8", "surrogateescape"))
    return buffer.getvalue()


@st.composite
def archive_mutations(draw: Any) -> Callable[[bytes], bytes]:
    kind = draw(st.sampled_from(["none", "utf8-flag", "truncate", "sizes", "flip"]))
    if kind == "utf8-flag":

        def flagged(data: bytes) -> bytes:
            out = bytearray(data.replace(b"sheet1.xml", b"sheet\xff.xml"))
            for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
                at = out.find(signature)
                while at >= 0:
                    flags = struct.unpack_from("<H", out, at + flags_at)[0]
                    struct.pack_into("<H", out, at + flags_at, flags | 0x800)
                    at = out.find(signature, at + 4)
            return bytes(out)

        return flagged
    if kind == "truncate":
        keep = draw(st.floats(0.1, 0.99))
        return lambda data: data[: int(len(data) * keep)]
    if kind == "sizes":
        size = draw(st.sampled_from([0, 1, 100, 2**31, 2**32 - 1]))

        def sizes(data: bytes) -> bytes:
            # The central directory's declared unpacked size of every member.
            out = bytearray(data)
            at = out.find(b"PK\x01\x02")
            while at >= 0:
                struct.pack_into("<I", out, at + 24, size)
                at = out.find(b"PK\x01\x02", at + 4)
            return bytes(out)

        return sizes
    if kind == "flip":
        at = draw(st.integers(0, 100_000))
        value = draw(st.integers(0, 255))

        def flip(data: bytes) -> bytes:
            out = bytearray(data)
            out[at % len(out)] = value
            return bytes(out)

        return flip
    return lambda data: data


@fuzz
@given(
    st.lists(part_mutations(), min_size=1, max_size=3),
    archive_mutations(),
    st.sampled_from(["visible", "hidden", "veryHidden", "other"]),
    st.sampled_from([None, "results", "old", "nope"]),
    st.sampled_from([None, "cached", "refuse"]),
)
def test_a_hostile_workbook_ends_cleanly(
    tmp_path_factory: Any,
    changes: list[Callable[[Parts], None]],
    archive_change: Callable[[bytes], bytes],
    state: str,
    sheet: str | None,
    formulas: str | None,
) -> None:
    book = Book()
    book.add("old", book.grid_xml(spec_grid()), state=state)
    book.add("results", book.grid_xml(spec_grid()))
    parts = book.parts()
    # The sheet mutated is the first; a second, visible one stands beside it.
    for change in changes:
        change(parts)
    data = archive_change(archive_of(parts))
    path = Path(tmp_path_factory.mktemp("xlsx")) / "upload.xlsx"
    path.write_bytes(data)
    options = [
        *(["--sheet", sheet] if sheet else []),
        *(["--formulas", formulas] if formulas else []),
    ]
    result = bounded("standings", path, "-f", "csv", "-o", "-", *options, timeout=90)
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode in ALLOWED_EXITS, (result.returncode, err[-3000:])
    assert "Traceback" not in err
    assert "panicked" not in err
    assert "defect" not in err
