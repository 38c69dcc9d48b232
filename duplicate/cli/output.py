"""Render a result table: a rich table for a person, CSV/Parquet/JSON for everything else."""

from __future__ import annotations

import functools
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard, cast

from duplicate import __version__
from duplicate.cli.common import OutputFormat, refuse_overwriting_inputs, stderr
from duplicate.cli.process import encoding_threads
from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa
    from rich.console import Console

    from duplicate.scoring.score_table import ScoreBatches

RIGHT_ALIGNED = ("int", "decimal", "double", "float", "bool")


@dataclass(frozen=True)
class Written:
    """One file (or standard output) that a command wrote, and the sha256 of its bytes.

    A file streamed to disk is hashed only when its sha256 is asked for (a manifest):
    reading a big file back is work that a plain run need not do.
    """

    path: str
    format: str
    rows: int | None
    known_sha256: str | None = None

    @classmethod
    def of(cls, path: str, format: str, data: bytes, rows: int | None) -> Written:
        return cls(path, format, rows, hashlib.sha256(data).hexdigest())

    @functools.cached_property
    def sha256(self) -> str:
        if self.known_sha256 is not None:
            return self.known_sha256
        with open(self.path, "rb") as written:
            return hashlib.file_digest(written, "sha256").hexdigest()


def rules_sidecar(output: str) -> Path:
    """Where a CSV output's rules are written: standings.csv -> standings.rules.toml."""
    return Path(output).with_suffix(".rules.toml")


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

    `notes` (such as a draw's seed) travel with the rules: as metadata in Parquet and
    JSON, as comments in a CSV file's rules file. A table in batches is streamed to a
    Parquet file batch by batch; for any other format it is put together first.
    """
    from duplicate.io.write import encode, format_for, write_atomic

    refuse_overwriting_inputs(output, inputs)
    to_terminal = fmt is OutputFormat.table or (
        fmt is None and output is None and stdout_is_terminal()
    )
    chosen = "table" if to_terminal else format_for(output, fmt.value if fmt else None)
    streamed = chosen == "parquet" and output not in (None, "-") and _in_batches(table)
    if to_terminal:
        from rich.console import Console

        frame = table.to_frame() if _in_batches(table) else cast("pd.DataFrame", table)
        render_table(frame, Console(highlight=False))
        return []
    notes = notes or {}
    meta = {"version": __version__, "rules": rules.to_toml(), **notes}
    if streamed and output is not None:
        written = [_stream_parquet(cast("ScoreBatches", table), output, meta)]
    else:
        whole = _whole(table)
        data = encode(whole, chosen, kind, meta, encoding_threads())
        if output is None or output == "-":
            write_stdout(data)
            return [Written.of("-", chosen, data, len(whole))]
        write_atomic(output, data)
        written = [Written.of(output, chosen, data, len(whole))]
    if chosen == "csv":
        sidecar = rules_sidecar(output)
        refuse_overwriting_inputs(str(sidecar), inputs)
        comments = "".join(f"# {key}: {value}\n" for key, value in sorted(notes.items()))
        rules_text = (comments + rules.to_toml()).encode("utf-8")
        write_atomic(sidecar, rules_text)
        written.append(Written.of(str(sidecar), "toml", rules_text, None))
    names = " and rules to ".join(w.path for w in written)
    stderr.print(f"wrote {written[0].rows} rows to {names}")
    return written


def _in_batches(table: pd.DataFrame | ScoreBatches) -> TypeGuard[ScoreBatches]:
    from duplicate.scoring.score_table import ScoreBatches

    return isinstance(table, ScoreBatches)


def _whole(table: pd.DataFrame | ScoreBatches) -> pd.DataFrame | pa.Table:
    if _in_batches(table):
        return table.to_table()
    return cast("pd.DataFrame", table)


def _stream_parquet(batches: ScoreBatches, output: str, meta: dict[str, str]) -> Written:
    """Write the batches to a Parquet file as they come: never the whole table at once."""
    from duplicate.io.write import atomic_path, write_parquet

    with atomic_path(output) as temp:
        rows = write_parquet(
            str(temp), batches.tables(), batches.nullable, meta, encoding_threads()
        )
    return Written(output, "parquet", rows)


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
