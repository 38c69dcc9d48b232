"""Where a table comes from, resolved once: a file (CSV, Parquet or an .xlsx workbook,
told by its first bytes), a folder of Parquet files read as one dataset, or standard
input."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Literal

from duplicate.errors import InputOutputError

PARQUET_MAGIC = b"PAR1"
# An .xlsx workbook is a zip archive.
ZIP_MAGIC = b"PK\x03\x04"
STDIN = "-"

Kind = Literal["csv", "parquet", "xlsx", "dataset"]


@dataclass(frozen=True)
class Source:
    """One input: as the user named it, its kind, and the bytes of standard input."""

    given: str
    kind: Kind
    # Standard input can be read once only: its bytes are kept.
    data: bytes | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        """How messages name it."""
        return "<stdin>" if self.given == STDIN else self.given

    @property
    def is_stdin(self) -> bool:
        return self.given == STDIN

    def read_bytes(self) -> bytes:
        """The whole input (not for a dataset)."""
        if self.data is not None:
            return self.data
        try:
            return Path(self.given).read_bytes()
        except OSError as exc:
            raise unreadable(self.given, exc) from None

    def sha256(self) -> str:
        """The sha256 of the input: its bytes, or for a dataset, its files' listing."""
        import hashlib

        if self.kind == "dataset":
            folder = Path(self.given)
            named = {
                str(f.relative_to(folder)): hashlib.sha256(f.read_bytes()).hexdigest()
                for f in dataset_files(folder)
            }
            return hashlib.sha256(file_listing(named)).hexdigest()
        if self.data is not None:
            return hashlib.sha256(self.data).hexdigest()
        try:
            with open(self.given, "rb") as handle:  # a block at a time, not held whole
                return hashlib.file_digest(handle, "sha256").hexdigest()
        except OSError as exc:
            raise unreadable(self.given, exc) from None


# Standard input, once read, for every later use (say, a manifest), by the stream it
# came from: a process has one, but a program calling commands in turn may give each
# its own.
_stdin: list[tuple[object, Source]] = []


def resolve(given: str | Path | Source, max_rows: int | None = None) -> Source:
    """The source named by `given` ('-' for standard input), its kind found once.

    Standard input is read whole, but as text it is refused as soon as it is known to be
    too long: a line over MAX_LINE_BYTES, or more lines than `max_rows` rows and a
    header take."""
    if isinstance(given, Source):
        return given
    text = str(given)
    if text == STDIN:
        stream = sys.stdin
        if stream is None:
            raise InputOutputError(
                "standard input is closed; give a file instead of '-'", "io.stdin"
            )
        if not _stdin or _stdin[0][0] is not stream:
            try:
                data = _read_bounded(stream.buffer, max_rows)
            except (OSError, ValueError) as exc:
                raise InputOutputError(f"<stdin>: cannot read: {exc}", "io.stdin") from None
            _stdin[:] = [(stream, Source(STDIN, _kind(data), data))]
        return _stdin[0][1]
    path = Path(text)
    if path.is_dir():
        # An event folder (duplicate.io.event) is read as its rounds.
        if (path / "event.toml").is_file() or (path / "log.jsonl").is_file():
            return Source(str(path / "rounds"), "dataset")
        return Source(text, "dataset")
    try:
        with open(path, "rb") as handle:
            start = handle.read(len(ZIP_MAGIC))
    except OSError as exc:
        raise unreadable(text, exc) from None
    return Source(text, _kind(start))


def read_at_most(given: str | Path | Source, limit: int) -> tuple[Source, bytes]:
    """The input and its bytes, read to `limit` + 1 at most: an input longer than
    `limit` is known to be so without reading the rest (a device such as /dev/zero, or
    gigabytes on standard input, are not read to their end)."""
    if isinstance(given, Source):
        if given.data is not None:
            return given, given.data[: limit + 1]
        given = given.given
    text = str(given)
    if text == STDIN:
        stream = sys.stdin
        if _stdin and stream is not None and _stdin[0][0] is stream:
            return _stdin[0][1], _stdin[0][1].data or b""
        if stream is None:
            raise InputOutputError(
                "standard input is closed; give a file instead of '-'", "io.stdin"
            )
        try:
            data = stream.buffer.read(limit + 1)
        except (OSError, ValueError) as exc:
            raise InputOutputError(f"<stdin>: cannot read: {exc}", "io.stdin") from None
        source = Source(STDIN, _kind(data), data)
        if len(data) <= limit:
            # Read whole: kept for every later use, as resolve keeps it.
            _stdin[:] = [(stream, source)]
        return source, data
    try:
        with open(text, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise unreadable(text, exc) from None
    return Source(text, _kind(data)), data


def _read_bounded(stream: BinaryIO, max_rows: int | None) -> bytes:
    """A stream read to its end in blocks; text refused (InvalidData) as soon as a line
    is longer than MAX_LINE_BYTES or the lines are more than `max_rows` and a header."""
    from duplicate.limits import MAX_LINE_BYTES

    blocks: list[bytes] = []
    feeds = returns = line = 0
    text: bool | None = None
    while block := stream.read(1 << 22):
        blocks.append(block)
        if text is None:
            text = _kind(block) == "csv"
        if not text:
            continue
        # Lines end in LF, CRLF or a lone CR (as the CSV reader counts them).
        feeds, returns = feeds + block.count(b"\n"), returns + block.count(b"\r")
        lines = max(feeds, returns)
        end = max(block.rfind(b"\n"), block.rfind(b"\r"))
        line = len(block) - end - 1 if end >= 0 else line + len(block)
        if line > MAX_LINE_BYTES:
            raise _too_long(
                f"holds a line longer than {MAX_LINE_BYTES // (1024 * 1024)} MiB (no line end): "
                "it is not a results table",
                "give results as CSV, one row a line",
                "input.long-line",
            )
        if max_rows is not None and lines > max_rows + 1:
            raise _too_long(
                f"has more than {max_rows:,} rows, more than are read at once (reading "
                "stopped there)",
                "allow more ({opt:max_rows}) if the machine has the memory (about 200 bytes a row)",
                "input.too-many-rows",
            )
    return b"".join(blocks)


def _too_long(message: str, hint: str, code: str) -> Exception:
    from duplicate.errors import InvalidData, Problem

    return InvalidData([Problem("<stdin>", message, hint=hint, code=code)])


def _kind(start: bytes) -> Kind:
    if start.startswith(PARQUET_MAGIC):
        return "parquet"
    return "xlsx" if start.startswith(ZIP_MAGIC) else "csv"


def dataset_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.parquet") if p.is_file())


def file_listing(named_hashes: dict[str, str]) -> bytes:
    """A set of files as one text: each relative path and sha256, in path order.

    Its own sha256 names the set: a Parquet dataset read, or a report's site written.
    """
    return b"".join(f"{name}\0{digest}\n".encode() for name, digest in sorted(named_hashes.items()))


def unreadable(path: str, exc: OSError) -> InputOutputError:
    if isinstance(exc, FileNotFoundError):
        return InputOutputError(f"{path}: no such file", "io.no-such-file")
    if isinstance(exc, IsADirectoryError):
        return InputOutputError(f"{path}: is a directory, not a results file", "io.is-directory")
    return InputOutputError(f"{path}: cannot read: {exc.strerror or exc}", "io.unreadable")


def unwritable(path: object, exc: OSError) -> InputOutputError:
    """The error for a file or folder that could not be written (exit 3)."""
    return InputOutputError(f"{path}: cannot write: {exc.strerror or exc}", "io.unwritable")
