"""Publishing a result table: the file in its format with the rules it was computed
under (Parquet and JSON metadata; a CSV file's `NAME.rules.toml`), written atomically,
and what was written, for a run manifest.

    >>> import duplicate
    >>> table = duplicate.standings("sample_data/spec_example.csv")
    >>> written = duplicate.publish(table, "standings.csv")  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duplicate import __version__
from duplicate.errors import UsageError
from duplicate.io.parquet_write import write_parquet
from duplicate.io.write import (
    TEXT_TABLES,
    atomic_path,
    encode,
    format_for,
    refuse_overwriting,
    writes_straight,
)
from duplicate.rules import Rules
from duplicate.scoring.score_table import ScoreBatches

if TYPE_CHECKING:
    pass

# A table to write: pandas, Arrow, or Arrow in batches.
Table = Any


@dataclass(frozen=True)
class Written:
    """One file (or standard output) written, and the sha256 of its bytes.

    A file on disk is hashed only when its sha256 is asked for (a manifest), by reading
    it back: a plain run need not hash at all. What goes to standard output, a pipe or
    a device is hashed as it is written (`of`).
    """

    path: str
    format: str
    rows: int | None
    known_sha256: str | None = None

    @classmethod
    def of(cls, path: str, format: str, data: bytes, rows: int | None) -> Written:
        import hashlib

        return cls(path, format, rows, hashlib.sha256(data).hexdigest())

    @functools.cached_property
    def sha256(self) -> str:
        if self.known_sha256 is not None:
            return self.known_sha256
        import hashlib

        from duplicate.io.write import staged

        with open(staged(self.path), "rb") as written:
            return hashlib.file_digest(written, "sha256").hexdigest()


def rules_sidecar(output: str | Path) -> Path:
    """Where a CSV output's rules are written: standings.csv -> standings.rules.toml."""
    return Path(output).with_suffix(".rules.toml")


def metadata(rules: Rules, notes: dict[str, str] | None = None) -> dict[str, str]:
    """What travels with a table: the tool's version, the rules, and `notes`."""
    return {"version": __version__, "rules": rules.to_toml(), **(notes or {})}


def table_bytes(
    table: Table,
    fmt: str,
    rules: Rules,
    kind: str,
    notes: dict[str, str] | None = None,
    threads: int = 1,
) -> tuple[bytes, int]:
    """The table in `fmt` (csv, parquet, json) with its metadata, and its row count."""
    whole = table.to_table() if isinstance(table, ScoreBatches) else table
    return encode(whole, fmt, kind, metadata(rules, notes), threads), len(whole)


def write_table(
    table: Table,
    path: str | Path,
    rules: Rules,
    kind: str,
    *,
    fmt: str | None = None,
    notes: dict[str, str] | None = None,
    threads: int = 1,
    inputs: Iterable[str | Path] = (),
) -> list[Written]:
    """Write `table` to `path` (format from `fmt` or the suffix), atomically, with the
    rules beside a CSV file; the files written. A table in batches goes to a Parquet
    file batch by batch, never whole. `notes` (such as a draw's seed) travel with the
    rules. `kind` names the rows in a JSON file ("standings", "scores", ...).

    Neither the file nor its rules may replace one of `inputs` (UsageError)."""
    path = str(path)
    if path == "-":
        raise UsageError("write_table writes files; '-' is for the command line", "output.stdout")
    inputs = list(inputs)
    refuse_overwriting(path, inputs, "{opt:output}")
    chosen = format_for(path, fmt)
    # Into a device, a FIFO or standard output's link, the table goes alone (as to '-').
    straight = writes_straight(path)
    sidecar_too = chosen in TEXT_TABLES and not straight
    if sidecar_too:
        refuse_overwriting(rules_sidecar(path), inputs, f"the rules written beside {path},")
    with contextlib.ExitStack() as together:
        # Both files are written in full before either is put in place, the sidecar
        # first: a failure on either leaves neither.
        temp = together.enter_context(atomic_path(path, output=True))
        written = []
        if sidecar_too:
            comments = "".join(
                f"# {key}: {value}\n" for key, value in sorted((notes or {}).items())
            )
            rules_text = (comments + rules.to_toml()).encode("utf-8")
            sidecar = rules_sidecar(path)
            together.enter_context(atomic_path(sidecar, output=True)).write_bytes(rules_text)
            written.append(Written(str(sidecar), "toml", None))
        if chosen == "parquet" and isinstance(table, ScoreBatches):
            meta = metadata(rules, notes)
            rows = write_parquet(str(temp), table.tables(), table.nullable, meta, threads)
            written.insert(0, Written(path, "parquet", rows))
        else:
            data, rows = table_bytes(table, chosen, rules, kind, notes, threads)
            temp.write_bytes(data)
            done = Written.of(path, chosen, data, rows) if straight else Written(path, chosen, rows)
            written.insert(0, done)
    return written
