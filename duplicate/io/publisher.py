"""The one publisher: a run's outputs (tables with their rules, a report's site, a
PDF), its manifest, and the event folder's log, written together.

    >>> import duplicate
    >>> table = duplicate.standings("sample_data/spec_example.csv")
    >>> duplicate.publish(table, "standings.csv", manifest="run.json")  # doctest: +SKIP

Every file is written to a temporary name beside its target and all are put in place
at the end (io.write.together): a run that fails, or is interrupted, leaves none of
them. No output may replace a file the event was read from.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duplicate.errors import UsageError
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.actions.printing import Printed
    from duplicate.actions.report import Site
    from duplicate.event import Event
    from duplicate.io.publish import Written
    from duplicate.output import Table

STDOUT = "-"


@dataclass(eq=False)
class Publication:
    """The outputs of one run, as they are written (see `publishing`)."""

    command: str
    rules: Rules
    event: Event | None = None
    threads: int = 1
    # Every output: (the option that named it, what was written, the main file of a
    # sidecar).
    outputs: list[dict[str, Any]] = field(default_factory=list)
    # Bytes for standard output, delivered by the caller.
    stdout: bytes | None = None
    notes: dict[str, str] = field(default_factory=dict)

    def inputs(self) -> list[str]:
        """The files no output may replace."""
        files = self.event.input_files() if self.event is not None else []
        if self.rules.source is not None:
            files.append(self.rules.source)
        return files

    def table(
        self, table: Table, path: str, fmt: str | None = None, option: str = "--output"
    ) -> list[Written]:
        """A table to a file (format from `fmt` or the suffix), its rules beside a CSV
        file; or to standard output (`path` "-": the bytes are kept for the caller)."""
        from duplicate.io.publish import Written, table_bytes, write_table
        from duplicate.io.write import format_for

        self.notes.update(table.notes)
        if path == STDOUT:
            chosen = format_for(None, fmt)
            data, rows = table_bytes(
                _writable(table), chosen, table.rules, table.kind, dict(table.notes), self.threads
            )
            self.stdout = data
            written = [Written.of(STDOUT, chosen, data, rows)]
        else:
            written = write_table(
                _writable(table),
                path,
                table.rules,
                table.kind,
                fmt=fmt,
                notes=dict(table.notes),
                threads=self.threads,
                inputs=self.inputs(),
            )
        self._record(written, option)
        return written

    def text(self, data: bytes, fmt: str, rows: int | None = None) -> Written:
        """Text for standard output (an explanation, a report of checks), recorded."""
        from duplicate.io.publish import Written

        self.stdout = data
        written = Written.of(STDOUT, fmt, data, rows)
        self._record([written], "--output")
        return written

    def site(self, site: Site, folder: str, option: str = "--output") -> Written:
        """A report's pages into `folder` (new, empty, or an earlier report)."""
        import hashlib

        from duplicate.io.publish import Written
        from duplicate.io.source import file_listing
        from duplicate.io.write import refuse_overwriting, write_directory

        refuse_overwriting(folder, self.inputs(), "{opt:output}")
        files = site.files()
        write_directory(folder, files)
        listing = file_listing({p: hashlib.sha256(data).hexdigest() for p, data in files.items()})
        written = Written.of(folder, "site", listing, len(files))
        self._record([written], option)
        return written

    def document(self, printed: Printed, path: str, option: str = "--output") -> Written:
        """A PDF to `path`."""
        from duplicate.io.publish import Written
        from duplicate.io.write import refuse_overwriting, write_atomic

        if Path(path).suffix.casefold() != ".pdf":
            raise UsageError(f"{path}: give a .pdf file", "output.not-pdf")
        refuse_overwriting(path, self.inputs(), "{opt:output}")
        write_atomic(path, printed.pdf)
        written = Written.of(path, "pdf", printed.pdf, None)
        self._record([written], option)
        return written

    def _record(self, written: Sequence[Written], option: str) -> None:
        main = written[0].path
        for at, w in enumerate(written):
            record: dict[str, Any] = {
                "path": w.path,
                "format": w.format,
                "rows": w.rows,
                "option": option,
                "written": w,
            }
            if at:
                record["of"] = main
            self.outputs.append(record)

    def written(self) -> list[Written]:
        return [record["written"] for record in self.outputs]


@contextmanager
def publishing(
    command: str,
    rules: Rules,
    event: Event | None = None,
    manifest: str | None = None,
    command_line: Sequence[str] = (),
    threads: int = 1,
    notes: dict[str, str] | None = None,
) -> Iterator[Publication]:
    """A run's outputs written in the block, with its manifest (when asked), put in
    place together when the block ends; none of them if it fails."""
    from duplicate.io.write import refuse_overwriting, together

    publication = Publication(command, rules, event, threads, notes=dict(notes or {}))
    if manifest is not None:
        refuse_overwriting(manifest, publication.inputs(), "{opt:manifest}")
    with together():
        yield publication
        if manifest is not None:
            write_run_manifest(publication, manifest, command_line)


def write_run_manifest(
    publication: Publication, path: str, command_line: Sequence[str] = ()
) -> None:
    """The manifest of a run: what it read (each part of the event, with its sha256),
    the rules, what it wrote (each output with its sha256), and the corrections."""
    from duplicate.io.manifest import adjustment_records, write_manifest

    event = publication.event
    outputs = [
        {
            **{k: v for k, v in record.items() if k != "written"},
            "sha256": record["written"].sha256,
        }
        for record in publication.outputs
    ]
    write_manifest(
        path,
        command=publication.command,
        rules=publication.rules,
        inputs=event.records() if event is not None else [],
        outputs=outputs,
        adjustments=adjustment_records(event.adjustments if event is not None else None),
        notes=publication.notes,
        command_line=list(command_line),
    )


def publish(
    result: Table | Site | Printed,
    output: str,
    fmt: str | None = None,
    manifest: str | None = None,
    threads: int = 1,
) -> list[Written]:
    """Write a command's result where `output` says (a file; a folder for a report's
    site; "-" is for the command line), with its rules, and its manifest when asked:
    all together, or nothing. What was written, for a caller's own records.

        >>> import duplicate
        >>> table = duplicate.standings("sample_data/spec_example.csv")
        >>> duplicate.publish(table, "standings.csv")  # doctest: +SKIP
    """
    from duplicate.actions.printing import Printed
    from duplicate.actions.report import Site

    if output == STDOUT:
        raise UsageError("publish writes files; '-' is for the command line", "output.stdout")
    kind = "report" if isinstance(result, Site) else getattr(result, "kind", "print")
    with publishing(kind, result.rules, result.event, manifest, threads=threads) as out:
        if isinstance(result, Site):
            out.site(result, output)
        elif isinstance(result, Printed):
            out.document(result, output)
        else:
            out.table(result, output, fmt)
    return out.written()


def _writable(table: Table) -> Any:
    """What the writers take: a table still in batches as its batches (streamed once),
    else the table itself."""
    streamed = table.streamed()
    return streamed if streamed is not None else table.data
