"""Excel workbooks (.xlsx) in and out.

In: python-calamine (Rust) reads a sheet, the first unless named; every cell becomes
text as a CSV export would write it (a whole number without ".0", other numbers by
their shortest decimal), so a workbook is validated like the CSV file it stands for.
The archive's declared sizes are checked first: a small file cannot unpack into
gigabytes.

Out: xlsxwriter writes typed cells (numbers as numbers, decimals shown with their
places, text as text: never run as a formula), a bold frozen header, column widths from
the contents, and the rules on a second sheet. Excel holds at most 1,048,576 rows.
"""

from __future__ import annotations

import datetime
import io
import zipfile
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from duplicate.errors import InvalidData, Problem, UsageError
from duplicate.limits import MAX_WORKBOOK_BYTES

if TYPE_CHECKING:
    import pandas as pd

EXCEL_ROWS = 1_048_576


def read_xlsx(data: bytes, source: str, sheet: str | None = None) -> pd.DataFrame:
    """A sheet of a workbook as a table of text, its first row the header."""
    import pandas as pd
    from python_calamine import CalamineError, CalamineWorkbook, WorksheetNotFound

    _check_unpacked_size(data, source)
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(workbook.sheet_names)
        chosen = workbook.get_sheet_by_name(sheet) if sheet else workbook.get_sheet_by_index(0)
        rows = chosen.to_python()
    except WorksheetNotFound:
        raise InvalidData(
            [
                Problem(
                    source,
                    f"has no sheet named {sheet!r}",
                    hint=f"its sheets: {', '.join(names)}; give one ({{opt:sheet}})",
                    code="input.no-sheet",
                )
            ]
        ) from None
    except (CalamineError, IndexError, ValueError) as exc:
        raise InvalidData(
            [
                Problem(
                    source,
                    f"is not a readable .xlsx workbook: {exc}",
                    hint="save it again",
                    code="input.not-xlsx",
                )
            ]
        ) from None
    if not rows or not any(str(cell).strip() for cell in rows[0]):
        raise InvalidData(
            [
                Problem(
                    source, "is empty", hint="give a header row and result rows", code="input.empty"
                )
            ]
        )
    header = [_cell_text(cell) for cell in rows[0]]
    width = len(header)
    body = pd.DataFrame([row[:width] for row in rows[1:]], columns=range(width), dtype=object)
    return pd.DataFrame(
        {name: body[i].map(_cell_text).astype("str") for i, name in enumerate(header)}
    )


def _cell_text(cell: object) -> str:
    """A cell as a CSV export writes it."""
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, float):
        if cell.is_integer() and abs(cell) < 2**53:
            return str(int(cell))
        return repr(cell)
    if hasattr(cell, "isoformat"):
        return str(cell.isoformat())
    return str(cell)


def _check_unpacked_size(data: bytes, source: str) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise InvalidData(
            [
                Problem(
                    source,
                    "is not a readable .xlsx workbook",
                    hint="save it again",
                    code="input.not-xlsx",
                )
            ]
        ) from None
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


WORKBOOK_CREATED = datetime.datetime(2000, 1, 1)


def xlsx_bytes(table: pa.Table, kind: str, meta: dict[str, str]) -> bytes:
    """The table as a workbook: typed cells, a frozen bold header, fitted widths, and
    the rules on a sheet of their own."""
    import xlsxwriter

    if table.num_rows >= EXCEL_ROWS:
        raise UsageError(
            f"{table.num_rows:,} rows do not fit in an Excel sheet "
            f"({EXCEL_ROWS - 1:,} at most); write CSV or Parquet",
            "output.too-many-rows",
        )
    buffer = io.BytesIO()
    options = {
        "in_memory": True,
        "strings_to_numbers": False,
        "strings_to_formulas": False,
        "strings_to_urls": False,
    }
    with xlsxwriter.Workbook(buffer, options) as workbook:
        # A fixed creation time (it is also the time of every part of the archive): the
        # same table gives the same bytes on every run.
        workbook.set_properties({"created": WORKBOOK_CREATED})
        sheet = workbook.add_worksheet(kind[:31] or "table")
        bold = workbook.add_format({"bold": True})
        sheet.write_row(0, 0, table.column_names, bold)
        sheet.freeze_panes(1, 0)
        for index, column in enumerate(table.columns):
            _write_column(workbook, sheet, index, column)
            sheet.set_column(index, index, _width(table.column_names[index], column))
        rules = workbook.add_worksheet("rules")
        lines = [f"{key}: {value}" for key, value in sorted(meta.items()) if key != "rules"]
        lines += meta.get("rules", "").splitlines()
        for row, line in enumerate(lines):
            rules.write_string(row, 0, line)
    return buffer.getvalue()


def _write_column(workbook: Any, sheet: Any, index: int, column: pa.ChunkedArray) -> None:  # type: ignore[type-arg]
    kind = column.type
    if pa.types.is_dictionary(kind):
        column, kind = column.cast(kind.value_type), kind.value_type
    # How each cell is written, and its value as written (a decimal through Python's
    # float, which rounds correctly).
    write: Any = sheet.write_string
    cell: Any = str
    formats: tuple[Any, ...] = ()
    if pa.types.is_decimal(kind):
        places = "0." + "0" * kind.scale if kind.scale else "0"
        write, cell = sheet.write_number, float
        formats = (workbook.add_format({"num_format": places}),)
    elif pa.types.is_integer(kind) or pa.types.is_floating(kind):
        write, cell = sheet.write_number, None
    elif pa.types.is_boolean(kind):
        write, cell = sheet.write_boolean, None
    for row, value in enumerate(column.to_pylist(), start=1):
        if value is not None and value != "":
            write(row, index, value if cell is None else cell(value), *formats)


def _width(name: str, column: pa.ChunkedArray) -> int:  # type: ignore[type-arg]
    """Characters to show the widest value (a Chinese character counts two)."""
    text: Any = pc.cast(column, pa.large_string())
    chars: Any = pc.utf8_length(text)
    wide: Any = pc.subtract(pc.binary_length(text), chars)
    longest = pc.max(pc.add(chars, pc.divide(wide, 2))).as_py() or 0
    return int(min(60, max(len(name), longest) + 2))
