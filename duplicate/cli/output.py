"""Render a result table: a rich table for a person, CSV/Parquet/JSON for everything else."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TypeGuard, cast

from duplicate.cli.common import OutputFormat, stderr
from duplicate.cli.process import encoding_threads
from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd
    from rich.console import Console

    from duplicate.io.publish import Written
    from duplicate.scoring.score_table import ScoreBatches

RIGHT_ALIGNED = ("int", "decimal", "double", "float", "bool")


def stdout_is_terminal() -> bool:
    """Whether a person is reading standard output (then a table, else CSV)."""
    return sys.stdout is not None and sys.stdout.isatty()


def emit(
    table: pd.DataFrame | ScoreBatches,
    *,
    output: str | None,
    fmt: OutputFormat | None,
    rules: Rules,
    kind: str,
    inputs: list[str],
    notes: dict[str, str] | None = None,
) -> list[Written]:
    """Write `table` where the options say, in the format they ask for; say what was written.

    A file (io.publish.write_table, which refuses to replace any of `inputs`) carries
    the rules; standard output gets the bytes alone; a person at a terminal gets a table.
    """
    from duplicate.io.publish import Written, table_bytes, write_table
    from duplicate.io.write import format_for

    to_terminal = fmt is OutputFormat.table or (
        fmt is None and output is None and stdout_is_terminal()
    )
    if to_terminal:
        from rich.console import Console

        frame = table.to_frame() if _in_batches(table) else cast("pd.DataFrame", table)
        render_table(frame, Console(highlight=False))
        return []
    if output is None or output == "-":
        chosen = format_for(output, fmt.value if fmt else None)
        data, rows = table_bytes(table, chosen, rules, kind, notes, encoding_threads())
        write_stdout(data)
        return [Written.of("-", chosen, data, rows)]
    written = write_table(
        table,
        output,
        rules,
        kind,
        fmt=fmt.value if fmt else None,
        notes=notes,
        threads=encoding_threads(),
        inputs=inputs,
    )
    names = " and rules to ".join(w.path for w in written)
    stderr.print(f"wrote {written[0].rows} rows to {names}")
    return written


def _in_batches(table: pd.DataFrame | ScoreBatches) -> TypeGuard[ScoreBatches]:
    from duplicate.scoring.score_table import ScoreBatches

    return isinstance(table, ScoreBatches)


def write_stdout(data: bytes) -> None:
    """Deliver `data` on standard output, or raise InputOutputError (exit 3)."""
    from duplicate.errors import InputOutputError

    if sys.stdout is None:
        raise InputOutputError("standard output is closed; give -o FILE")
    try:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except OSError as exc:
        raise InputOutputError(f"standard output: cannot write: {exc.strerror or exc}") from None


def render_table(frame: pd.DataFrame, console: Console) -> None:
    """A rich table of `frame`, numbers right-aligned, missing values blank."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table

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
