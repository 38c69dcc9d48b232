"""An .xlsx workbook looked through before calamine reads it.

calamine (Rust) holds a sheet as a dense grid from its first cell to its last, and
copies a shared string into every cell that names it: one cell at XFD1048576, a
`uniqueCount` of billions, or a long string named by thousands of cells makes it
allocate far past the machine's memory and abort the process, which no exception
handler sees. So the parts it reads are streamed through expat first, each bounded:
the list of sheets (names, hidden or not, where each is stored), the shared strings
(how many, how long), and the chosen sheet's cells (where they are, how many rows,
which hold formulas). Anything outside those bounds is refused before calamine runs.
"""

from __future__ import annotations

import contextlib
import copy
import io
import posixpath
import re
import zipfile
import zlib
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.parsers import expat

from duplicate.errors import InvalidData, Problem
from duplicate.limits import MAX_WORKBOOK_BYTES, MAX_WORKBOOK_CELLS, MAX_WORKBOOK_TEXT

EXCEL_ROWS = 1_048_576
EXCEL_COLUMNS = 16_384
# The workbook's list of sheets and its relationships are read whole, up to this.
SMALL_PART = 16 * 1024 * 1024
CHUNK = 1 << 20
# Formula cells named in a message (the rest counted).
FORMULAS_NAMED = 10

WORKBOOK = "xl/workbook.xml"
WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"
SHARED_STRINGS = "xl/sharedStrings.xml"


@dataclass(frozen=True)
class SheetEntry:
    """A sheet as the workbook lists it."""

    name: str
    state: str  # visible, hidden or veryHidden
    part: str | None  # where its cells are stored in the archive
    worksheet: bool


@dataclass
class SheetCells:
    """What a sheet's cells are, before they are read."""

    rows: int = 0  # rows holding a cell
    top: int = EXCEL_ROWS
    bottom: int = -1
    left: int = EXCEL_COLUMNS
    right: int = -1
    shared: int = 0  # cells naming a shared string
    formulas: list[str] = field(default_factory=list)  # the first few, by reference
    formula_count: int = 0

    @property
    def area(self) -> int:
        if self.bottom < 0:
            return 0
        return (self.bottom - self.top + 1) * (self.right - self.left + 1)


@dataclass(frozen=True)
class Looked:
    """The sheet to read, and what it holds that a reader must know."""

    sheet: str
    formulas: tuple[str, ...]
    formula_count: int


class _Refused(Exception):
    """Stops a parse: the part is outside its bounds (the problem says how)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def not_xlsx(source: str, why: str) -> InvalidData:
    return InvalidData(
        [
            Problem(
                source,
                f"is not a readable .xlsx workbook: {why}",
                hint="save it again from the spreadsheet program",
                code="input.not-xlsx",
            )
        ]
    )


def look_through(
    data: bytes, source: str, sheet: str | None = None, max_rows: int | None = None
) -> Looked:
    """The sheet to read (`sheet`, else the first visible one) and its formula cells;
    InvalidData when the workbook is damaged or beyond the bounds calamine is safe in,
    or holds more than `max_rows` rows below its header."""
    archive = _open(data, source)
    with archive:
        members = {info.filename: info for info in archive.infolist()}
        unpacked = sum(info.file_size for info in members.values())
        if unpacked > MAX_WORKBOOK_BYTES:
            raise InvalidData(
                [
                    Problem(
                        source,
                        f"unpacks into {unpacked:,} bytes; a workbook is read up to "
                        f"{MAX_WORKBOOK_BYTES:,}",
                        hint="give the results as CSV or Parquet",
                        code="input.too-large",
                    )
                ]
            )
        sheets = _sheets(archive, members, source)
        chosen = _choose(sheets, sheet, source)
        lengths = _shared_string_lengths(archive, members, source)
        for name in ("xl/styles.xml", WORKBOOK_RELS):
            found = _member(members, name, source)
            if found is not None:
                _drain(archive, found, source)  # no longer than it says
        info = _member(members, chosen.part, source) if chosen.part else None
        if info is None:
            raise not_xlsx(source, f"sheet {chosen.name!r} has no cells stored")
        cells = _scan_cells(archive, info, source, max_rows, len(lengths))
        _check_cells(cells, source, chosen.name)
        if lengths and cells.shared * max(lengths) > MAX_WORKBOOK_TEXT:
            # Bounded from above by the longest string; counted exactly only when that
            # bound is too loose (a long string named by many cells).
            text = _shared_text(archive, info, source, lengths)
            if text > MAX_WORKBOOK_TEXT:
                raise InvalidData(
                    [
                        Problem(
                            source,
                            f"sheet {chosen.name!r} repeats its text into {text:,} "
                            f"characters; a sheet is read up to {MAX_WORKBOOK_TEXT:,}",
                            hint="give the results as CSV or Parquet",
                            code="input.too-large",
                        )
                    ]
                )
    return Looked(chosen.name, tuple(cells.formulas), cells.formula_count)


def _open(data: bytes, source: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except UnicodeDecodeError:
        raise not_xlsx(
            source, "a name inside it is marked as UTF-8 but is not (a damaged archive)"
        ) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
        raise not_xlsx(source, f"not a zip archive ({exc})") from None


def _chunks(archive: zipfile.ZipFile, info: zipfile.ZipInfo, source: str) -> Iterator[bytes]:
    """A member's bytes, a block at a time, never more than its declared size (a
    member that unpacks into more than it declares is refused: calamine would read
    it all)."""
    probe = copy.copy(info)
    probe.file_size = info.file_size + 1
    total = 0
    try:
        with archive.open(probe) as stream:
            while chunk := stream.read(CHUNK):
                total += len(chunk)
                if total > info.file_size:
                    raise not_xlsx(source, f"{info.filename} holds more than it declares")
                yield chunk
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
        raise not_xlsx(source, f"{info.filename} cannot be unpacked ({exc})") from None
    except UnicodeDecodeError:
        raise not_xlsx(source, f"{info.filename}: its name is marked UTF-8 but is not") from None


def _drain(archive: zipfile.ZipFile, info: zipfile.ZipInfo, source: str) -> None:
    for _ in _chunks(archive, info, source):
        pass


def _parse(
    chunks: Iterator[bytes],
    source: str,
    part: str,
    start: Callable[[str, dict[str, str]], None],
    end: Callable[[str], None] | None = None,
    text: Callable[[str], None] | None = None,
    parser: Any = None,
) -> None:
    """Stream a part through expat (names as 'namespace}local', or as written when a
    `parser` made without namespaces is given: quicker); no DTD is allowed (an .xlsx
    part never has one, and entities could expand)."""
    parser = parser or expat.ParserCreate(namespace_separator="}")
    parser.StartElementHandler = start
    if end is not None:
        parser.EndElementHandler = end
    if text is not None:
        parser.CharacterDataHandler = text
        parser.buffer_text = True

    def doctype(*_: Any) -> None:
        raise _Refused(
            Problem(source, f"{part} declares a DTD", hint="save it again", code="input.not-xlsx")
        )

    parser.StartDoctypeDeclHandler = doctype
    try:
        for chunk in chunks:
            parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except _Refused as refused:
        raise InvalidData([refused.problem]) from None
    except expat.ExpatError as exc:
        raise not_xlsx(source, f"{part} is not well-formed XML ({exc})") from None


def _member(members: dict[str, zipfile.ZipInfo], name: str, source: str) -> zipfile.ZipInfo | None:
    """The archive's one member whose name is `name` but for case and backslashes
    (as calamine finds a part); two such are refused (which one would be read?)."""
    wanted = name.casefold()
    alike = [i for n, i in members.items() if n.replace("\\", "/").casefold() == wanted]
    if len(alike) > 1:
        raise not_xlsx(source, f"it holds {len(alike)} parts named {name}")
    return alike[0] if alike else None


def _local(name: str) -> str:
    return name.rpartition("}")[2]


def _small_part(
    archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo], name: str, source: str
) -> Iterator[bytes]:
    info = _member(members, name, source)
    if info is None:
        raise not_xlsx(source, f"it has no {name}")
    if info.file_size > SMALL_PART:
        raise not_xlsx(source, f"{name} is {info.file_size:,} bytes (at most {SMALL_PART:,})")
    return _chunks(archive, info, source)


def _sheets(
    archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo], source: str
) -> list[SheetEntry]:
    """The sheets in the workbook's order, each with where it is stored."""
    listed: list[tuple[str, str, str]] = []

    def sheet(name: str, attrs: dict[str, str]) -> None:
        if _local(name) == "sheet":
            rid = next((v for k, v in attrs.items() if _local(k) == "id"), "")
            listed.append((attrs.get("name", ""), attrs.get("state", "visible"), rid))

    _parse(_small_part(archive, members, WORKBOOK, source), source, WORKBOOK, sheet)
    targets: dict[str, tuple[str, str]] = {}

    def relationship(name: str, attrs: dict[str, str]) -> None:
        if _local(name) == "Relationship":
            rid = attrs.get("Id", "")
            if rid in targets:
                raise _Refused(_twice(source, f"relationship {rid[:40]!r}"))
            targets[rid] = (attrs.get("Target", ""), attrs.get("Type", ""))

    if _member(members, WORKBOOK_RELS, source) is not None:
        _parse(
            _small_part(archive, members, WORKBOOK_RELS, source),
            source,
            WORKBOOK_RELS,
            relationship,
        )
    names = [name for name, _, _ in listed]
    if len(set(names)) != len(names):
        raise InvalidData([_twice(source, "a sheet name")])
    found = []
    for name, state, rid in listed:
        target, kind = targets.get(rid, ("", ""))
        part = _part(target) if target else None
        found.append(SheetEntry(name, state, part, kind.endswith("/worksheet")))
    return found


def _twice(source: str, what: str) -> Problem:
    return Problem(
        source,
        f"is not a readable .xlsx workbook: it lists {what} twice",
        hint="save it again from the spreadsheet program",
        code="input.not-xlsx",
    )


def _part(target: str) -> str:
    """A relationship's target as a member of the archive (relative to xl/)."""
    path = target[1:] if target.startswith("/") else "xl/" + target
    return posixpath.normpath(path)


def _choose(sheets: list[SheetEntry], sheet: str | None, source: str) -> SheetEntry:
    """The sheet named (hidden ones only by their exact name), else the first visible
    worksheet."""
    shown = [s for s in sheets if s.state == "visible"]
    if sheet is not None:
        for entry in sheets:
            if entry.name == sheet:
                return entry
        names = ", ".join(s.name for s in shown) or "none visible"
        raise InvalidData(
            [
                Problem(
                    source,
                    f"has no sheet named {sheet!r}",
                    hint=f"its sheets: {names}; give one ({{opt:sheet}})",
                    code="input.no-sheet",
                )
            ]
        )
    for entry in shown:
        if entry.worksheet:
            return entry
    hidden = len(sheets) - len(shown)
    raise InvalidData(
        [
            Problem(
                source,
                f"has no visible sheet of cells ({hidden} hidden)",
                hint="name the sheet to read ({opt:sheet}), or show it in the spreadsheet",
                code="input.no-sheet",
            )
        ]
    )


def _shared_string_lengths(
    archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo], source: str
) -> array[int]:
    """The length (characters) of every shared string, in order."""
    lengths: array[int] = array("q")
    info = _member(members, SHARED_STRINGS, source)
    if info is None:
        return lengths
    state = {"depth": 0, "declared": 0}

    def start(name: str, attrs: dict[str, str]) -> None:
        local = _local(name)
        if local == "si":
            lengths.append(0)
        elif local == "sst":
            declared = attrs.get("uniqueCount", "0").strip()
            state["declared"] = int(declared) if declared.isdigit() else -1
        elif local == "t" and lengths:
            state["depth"] += 1

    def end(name: str) -> None:
        if _local(name) == "t" and state["depth"]:
            state["depth"] -= 1

    tail = [""]  # the end of the text before, for an escape split between two

    def text(data: str) -> None:
        if state["depth"] and lengths:
            lengths[-1] += len(data)
            if "_" in data and _CONTROL_ESCAPE.search(tail[0] + data):
                raise _Refused(
                    Problem(
                        source,
                        f"shared string {len(lengths)} holds a control character "
                        "(an escape such as _x0000_, a NUL)",
                        hint="retype the cells that hold it",
                        code="input.control-character",
                    )
                )
            tail[0] = data[-6:]

    _parse(_chunks(archive, info, source), source, SHARED_STRINGS, start, end, text)
    # calamine sets aside room for as many strings as the file declares.
    if state["declared"] < 0 or state["declared"] > len(lengths):
        raise not_xlsx(
            source,
            f"{SHARED_STRINGS} declares more strings than it holds ({len(lengths):,})",
        )
    return lengths


# An escape in a workbook's text for a control character (NUL to US but tab, line feed
# and carriage return; DEL): calamine decodes some versions, keeps it as text in others.
_CONTROL_ESCAPE = re.compile(r"_x00(?:0[0-8BbCcEeFf]|1[0-9A-Fa-f]|7[Ff])_")


def _column(letters: str, bad: Callable[[str], Exception]) -> int:
    """'B' as 1, counted from 0."""
    if not (
        0 < len(letters) <= 3 and letters.isascii() and letters.isalpha() and letters.isupper()
    ):
        raise bad(f"a cell's reference names column {letters[:20]!r}, not one")
    column = 0
    for letter in letters:
        column = column * 26 + ord(letter) - 64
    return column - 1


def _scan_cells(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    source: str,
    max_rows: int | None,
    strings: int,
) -> SheetCells:
    """Where a sheet's cells are, as calamine places them (a cell without a reference
    follows the one before it; a row without a number follows the row before it), and
    that each cell naming a shared string names one of the `strings` (calamine reads a
    name that is not a number as the first string).

    Called for every element of the sheet: kept to a few steps a cell."""
    cells = SheetCells()
    # The row being read, the column of the last cell in it, the last row with a cell.
    row = column = last = -1
    top, bottom, left, right = EXCEL_ROWS, -1, EXCEL_COLUMNS, -1
    rows = shared = 0
    kind: str | None = None  # the type of the cell being read
    # Rows below the header: the header is a row, and the limit is on the others.
    most = EXCEL_ROWS if max_rows is None else min(max_rows + 1, EXCEL_ROWS)
    columns: dict[str, int] = {}  # each column's letters, as read so far

    def bad(what: str) -> _Refused:
        return _Refused(
            Problem(
                source,
                f"is not a readable .xlsx workbook: {what}",
                hint="save it again from the spreadsheet program",
                code="input.not-xlsx",
            )
        )

    # The text of the value being read of a cell naming a shared string.
    naming: list[str] | None = None

    parser = expat.ParserCreate()
    parser.buffer_text = True

    def named() -> None:
        nonlocal naming
        index = "".join(naming or ())
        naming = None
        parser.CharacterDataHandler = None
        if not (index.isdigit() and index.isascii() and int(index) < strings):
            raise bad(f"cell {_name(last, column)} names shared string {index[:20]!r}, not one")

    def text(data: str) -> None:
        if naming is not None:
            naming.append(data)

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal row, column, last, top, bottom, left, right, rows, shared, naming, kind
        if naming is not None:
            named()
        local = name if ":" not in name else name.rpartition(":")[2]
        if local == "v":
            if kind == "s":
                # Its text is read (the handler is set for it alone: quicker).
                naming = []
                parser.CharacterDataHandler = text
        elif local == "c":
            ref = attrs.get("r")
            if ref is None:
                at, column = row, column + 1
            else:
                split = len(ref.rstrip("0123456789"))
                found = columns.get(ref[:split])
                if found is None:
                    found = columns[ref[:split]] = _column(ref[:split], bad)
                digits = ref[split:]
                if not 0 < len(digits) <= 7:
                    raise bad(f"a cell's reference {ref[:20]!r} is not one")
                at, column = int(digits) - 1, found
            if not (0 <= at < EXCEL_ROWS and 0 <= column < EXCEL_COLUMNS):
                raise bad(f"a cell lies outside a sheet ({ref or 'after the last'})")
            if at != last:
                last = at
                rows += 1
                if rows > most:
                    if max_rows is not None and rows > max_rows + 1:
                        raise _Refused(_too_many_rows(source, max_rows))
                    raise bad("it has more rows than a sheet holds")
                if at < top:
                    top = at
                if at > bottom:
                    bottom = at
            if column < left:
                left = column
            if column > right:
                right = column
            kind = attrs.get("t")
            if kind == "s":
                shared += 1
        elif local == "row":
            number = attrs.get("r")
            if number is None:
                row += 1
            elif number.isdigit() and number.isascii() and len(number) <= 7:
                row = int(number) - 1
            else:
                raise bad(f"a row's number {number[:20]!r} is not one")
            column = -1
        elif local == "f":
            cells.formula_count += 1
            if len(cells.formulas) < FORMULAS_NAMED:
                cells.formulas.append(_name(last, column))

    _parse(_chunks(archive, info, source), source, info.filename, start, parser=parser)
    if naming is not None:
        try:
            named()
        except _Refused as refused:
            raise InvalidData([refused.problem]) from None
    cells.rows, cells.shared = rows, shared
    cells.top, cells.bottom, cells.left, cells.right = top, bottom, left, right
    return cells


def column_letters(column: int) -> str:
    """Column 1 (from 0) as 'B'."""
    letters = ""
    column += 1
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _name(row: int, column: int) -> str:
    """(11, 1) as 'B12'."""
    return f"{column_letters(column)}{row + 1}"


def _too_many_rows(source: str, max_rows: int) -> Problem:
    return Problem(
        source,
        f"has more than {max_rows:,} rows below its header, more than are read at once",
        hint="allow more ({opt:max_rows}) if the machine has the memory (about 200 bytes "
        "a row), or run it on a cluster ({opt:engine=dask})",
        code="input.too-many-rows",
    )


def _check_cells(cells: SheetCells, source: str, sheet: str) -> None:
    if cells.area > MAX_WORKBOOK_CELLS:
        first, last = _name(cells.top, cells.left), _name(cells.bottom, cells.right)
        raise InvalidData(
            [
                Problem(
                    source,
                    f"sheet {sheet!r} spans {first}:{last}, {cells.area:,} cells; a sheet "
                    f"is read up to {MAX_WORKBOOK_CELLS:,}",
                    hint="delete the stray cells far from the table, or give the results as CSV",
                    code="input.too-large",
                )
            ]
        )


def _shared_text(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, source: str, lengths: array[int]
) -> int:
    """The characters the sheet's cells copy from the shared strings, counted cell by
    cell (stopping once past the limit)."""
    state = {"shared": False, "value": False, "total": 0}
    value: list[str] = []

    def start(name: str, attrs: dict[str, str]) -> None:
        local = _local(name)
        if local == "c":
            state["shared"] = attrs.get("t") == "s"
        elif local == "v" and state["shared"]:
            state["value"] = True
            value.clear()

    def end(name: str) -> None:
        if _local(name) == "v" and state["value"]:
            state["value"] = False
            index = "".join(value).strip()
            if index.isdigit() and index.isascii() and int(index) < len(lengths):
                state["total"] += lengths[int(index)]
                if state["total"] > MAX_WORKBOOK_TEXT:
                    raise _Stop

    def text(data: str) -> None:
        if state["value"]:
            value.append(data)

    with contextlib.suppress(_Stop):
        _parse(_chunks(archive, info, source), source, info.filename, start, end, text)
    return int(state["total"])


class _Stop(Exception):
    """Enough has been counted."""
