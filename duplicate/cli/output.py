"""A result table for a person at a terminal: a rich table (files and pipes get CSV,
Parquet or JSON from the publisher)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

RIGHT_ALIGNED = ("int", "decimal", "double", "float", "bool")


def render_table(frame: pd.DataFrame) -> None:
    """A rich table of `frame` on standard output, numbers right-aligned, missing values
    blank."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    table = Table(show_edge=False, header_style="bold", pad_edge=False)
    rows = [
        ["" if _missing(v) else _text(v) for v in row]
        for row in frame.astype("object").itertuples(index=False)
    ]
    widths = []
    for i, (name, dtype) in enumerate(frame.dtypes.items()):
        right = any(word in str(dtype).lower() for word in RIGHT_ALIGNED)
        width = max([cell_len(str(name))] + [cell_len(row[i]) for row in rows])
        widths.append(width)
        table.add_column(str(name), justify="right" if right else "left", min_width=width)
    for row in rows:
        table.add_row(*row)
    # Never squeeze numbers into ellipses: a table wider than the terminal wraps instead.
    needed = sum(widths) + 3 * (len(widths) - 1)
    if needed > console.width:
        console = Console(highlight=False, width=needed, force_terminal=console.is_terminal)
    console.print(table)


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and value != value) or str(value) == "<NA>"


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else ""
    return str(value)
