"""Excel workbooks (.xlsx) in and out.

In: python-calamine (Rust) reads a sheet, the first visible one unless named; every
cell becomes text as a CSV export would write it (a whole number without ".0", other
numbers by their shortest decimal), so a workbook is validated like the CSV file it
stands for. The workbook is looked through first (io/xlsx_scan.py), so that no file can
make calamine allocate beyond its bounds; a formula, a repeated header or a control
character is refused rather than guessed at.

Out: xlsxwriter writes typed cells (numbers as numbers, decimals shown with their
places, text as text: never run as a formula), a bold frozen header, column widths from
the contents, and the rules on a second sheet. Excel holds at most 1,048,576 rows.
"""

from __future__ import annotations

import datetime
import io
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from duplicate.errors import InvalidData, Problem, UsageError

if TYPE_CHECKING:
    import pandas as pd

EXCEL_ROWS = 1_048_576


# Characters no cell of results holds: C0 controls but tab, line feed and carriage
# return, and DEL (an `_x0000_` escape puts a NUL in a cell).
_CONTROL = r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]"
# Where read_xlsx leaves the warnings of a read (DataFrame.attrs).
WARNINGS = "duplicate.warnings"


def read_xlsx(
    data: bytes,
    source: str,
    sheet: str | None = None,
    formulas: str | None = None,
    max_rows: int | None = None,
) -> tuple[pd.DataFrame, int]:
    """A sheet of a workbook as a table of text, its first row the header, and the row
    number its first row below the header has in the sheet.

    The sheet named (a hidden one only so), else the first visible one. The workbook is
    looked through first (duplicate.io.xlsx_scan): its size, the sheet's extent and rows
    (more than `max_rows` below the header refused), its formulas. A formula cell is
    refused unless `formulas` is "cached": its saved result is then read, with a warning
    (in the table's attrs[WARNINGS]) naming the cells.
    """
    import pandas as pd
    from python_calamine import CalamineWorkbook

    from duplicate.io.xlsx_scan import look_through, not_xlsx

    looked = look_through(data, source, sheet, max_rows)
    warnings = _formula_problems(looked, source, formulas)
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        chosen = workbook.get_sheet_by_name(looked.sheet)
        start = chosen.start
        rows = chosen.to_python()
    except (KeyboardInterrupt, SystemExit, MemoryError):
        raise
    except BaseException as exc:  # calamine's errors, and a Rust panic (not an Exception)
        raise not_xlsx(source, str(exc)) from None
    if not rows or not any(str(cell).strip() for cell in rows[0]):
        raise InvalidData(
            [
                Problem(
                    source, "is empty", hint="give a header row and result rows", code="input.empty"
                )
            ]
        )
    # Row numbers as the sheet shows them: blank rows above the header count.
    header_row = (start[0] if start else 0) + 1
    header = [_cell_text(cell) for cell in rows[0]]
    _refuse_repeated(header, source, header_row)
    width = len(header)
    body = pd.DataFrame([row[:width] for row in rows[1:]], columns=range(width), dtype=object)
    del rows
    frame = pd.DataFrame(
        {name: body[i].map(_cell_text).astype("str") for i, name in enumerate(header)}
    )
    _refuse_controls(frame, header, source, header_row)
    frame.attrs[WARNINGS] = warnings
    return frame, header_row + 1


def _formula_problems(looked: Any, source: str, formulas: str | None) -> list[Problem]:
    """A formula cell refused, or with `formulas` "cached", a warning naming them."""
    if not looked.formula_count:
        return []
    named = ", ".join(looked.formulas)
    more = looked.formula_count - len(looked.formulas)
    cells = named + (f" and {more:,} more" if more > 0 else "")
    plural = "s" if looked.formula_count > 1 else ""
    if formulas == "cached":
        return [
            Problem(
                source,
                f"read the saved result of {looked.formula_count:,} formula cell{plural} "
                f"of sheet {looked.sheet!r}: {cells}",
                hint="a result saved by a program that did not recalculate may be stale; "
                "check them",
                code="input.formula-cached",
            )
        ]
    raise InvalidData(
        [
            Problem(
                source,
                f"sheet {looked.sheet!r} holds {looked.formula_count:,} formula "
                f"cell{plural}: {cells}",
                hint="paste them as values, or read their saved results ({opt:formulas=cached})",
                code="input.formula",
            )
        ]
    )


def _refuse_repeated(header: list[str], source: str, header_row: int) -> None:
    """A name heading two columns (a table built from a dict would keep the later)."""
    from duplicate.io.xlsx_scan import column_letters

    seen: dict[str, int] = {}
    problems = []
    for at, name in enumerate(header):
        if not name.strip():
            continue
        if name in seen:
            problems.append(
                Problem(
                    source,
                    f"columns {column_letters(seen[name])} and {column_letters(at)} are "
                    f"both headed {name!r}",
                    (header_row,),
                    hint="keep one of them",
                    code="column.repeated",
                )
            )
        else:
            seen[name] = at
    if problems:
        raise InvalidData(problems)


def _refuse_controls(frame: pd.DataFrame, header: list[str], source: str, header_row: int) -> None:
    """Cells holding a control character (an `_x0000_` escape gives a NUL): an id that
    looks like another, or text no program shows alike."""
    import re

    problems = []
    bad_names = [name for name in header if re.search(_CONTROL, name)]
    if bad_names:
        problems.append(
            Problem(
                source,
                f"a header holds a control character: {bad_names[0]!r}",
                (header_row,),
                hint="retype it",
                code="input.control-character",
            )
        )
    for name in frame.columns:
        found = frame[name].str.contains(_CONTROL, regex=True).to_numpy(dtype=bool)
        if found.any():
            rows = tuple(int(i) + header_row + 1 for i in found.nonzero()[0][:10])
            problems.append(
                Problem(
                    source,
                    f"{int(found.sum()):,} cell(s) hold a control character (such as NUL, "
                    "written _x0000_ in the file)",
                    rows,
                    column=str(name),
                    hint="retype them",
                    code="input.control-character",
                )
            )
    if problems:
        raise InvalidData(problems)


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
