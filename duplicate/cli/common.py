"""What every command shares: messages, error reporting, loading the event and
publishing the result."""

from __future__ import annotations

import functools
import inspect
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from duplicate.cli import process
from duplicate.cli.settings import _flags, flag_named, own_flags
from duplicate.errors import DuplicateError, InvalidData, Problem, listed_problems
from duplicate.limits import MAX_ROWS

if TYPE_CHECKING:
    from rich.console import Console

    from duplicate.event import Event
    from duplicate.io.publisher import Publication
    from duplicate.load import SourceKind
    from duplicate.output import Table
    from duplicate.rules import Rules

# Exit code for a defect in this program, as opposed to a problem with the input
# (BSD sysexits EX_SOFTWARE).
EXIT_INTERNAL = 70
# Exit code when a file or a stream cannot be read or written, or memory runs out.
EXIT_IO = 3


class Messages:
    """What a command says on standard error (as sys.stderr is when it says it): plain
    lines, which is all a message is. rich is loaded only for a spinner at a terminal
    (see working) or a table."""

    def print(self, text: str) -> None:
        # A closed or failing standard error loses the message, never the data: the
        # command goes on and its exit status says how the data went.
        if sys.stderr is None:
            return
        try:
            sys.stderr.write(f"{text}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


stderr = Messages()
# What the options before the command (`duplicate --debug --max-rows N ...`) set.
_state: dict[str, Any] = {"debug": False, "max_rows": MAX_ROWS}


def set_debug(debug: bool) -> None:
    _state["debug"] = debug or bool(os.environ.get("DUPLICATE_DEBUG"))


def set_max_rows(max_rows: int | None) -> None:
    """`duplicate --max-rows N`: the rows any input may have (0: no limit)."""
    _state["max_rows"] = None if max_rows == 0 else max_rows


def max_rows() -> int | None:
    """The rows an input may have: as `--max-rows` said, else the library's default."""
    limit: int | None = _state["max_rows"]
    return limit


def command_line() -> list[str]:
    """This run's arguments after `duplicate`, as the program was started with them
    (`main` keeps them); empty when a command is called inside another program."""
    words: list[str] = _state.get("command_line", [])
    return list(words)


class BadNumber(typer.BadParameter):
    """A number option the number grammar refuses (said with its code)."""

    code = "option.bad-number"


def whole_number(value: object) -> int:
    """A whole-number option as the number grammar reads it: ASCII digits and a sign,
    so full-width digits and `--seed 1_000` are refused as a score would be."""
    from duplicate.errors import UsageError
    from duplicate.options import parse_whole

    try:
        return parse_whole(str(value), "")
    except UsageError:
        raise BadNumber(f"{value!r} is not a whole number such as 4") from None


def whole_option(*flags: str, help: str, metavar: str = "N") -> Any:
    """A typer option taking a whole number by the number grammar (whole_number)."""
    return typer.Option(*flags, parser=whole_number, help=help, metavar=metavar)


# The kinds of table file every input is read from, and standard input: said once for
# every argument's help.
FILES = "CSV, Parquet or .xlsx"
STDIN = "'-' reads standard input"
# Every kind of source a command reads its event from.
SOURCES = (
    f"a results file ({FILES}), a folder of Parquet files, an event folder, or a bridge "
    f"session (PBN or USEBIO); {STDIN}"
)


def input_help(what: str) -> str:
    """An input argument's help: what it holds, the files it may be, standard input."""
    return f"{what} ({FILES}); {STDIN}."


SourceArg = Annotated[str, typer.Argument(metavar="SOURCE", help=f"The event: {SOURCES}.")]
PlayerArg = Annotated[str, typer.Argument(metavar="PLAYER", help="The player's id, or their name.")]


def load(
    source: str,
    settings: dict[str, Any],
    kind: SourceKind = "auto",
    say: bool = True,
    **extra: Any,
) -> Event:
    """The event `source` holds under the settings given (duplicate.load_event), read
    once, with the memory arranged by the process edge (process.reading); what reading
    noticed is said on stderr (unless not `say`)."""
    from duplicate.io.event_folder import is_event
    from duplicate.io.source import resolve
    from duplicate.load import load_event
    from duplicate.options import RULES
    from duplicate.options import settings as declared

    read = {s.name for s in declared(*RULES, "source")}
    given = {k: v for k, v in settings.items() if k in read}
    if source != "-" and is_event(source):
        found: Any = source
        reading: AbstractContextManager[None] = nullcontext()
    else:
        # Its kind found once, for the tuning and the read.
        found = resolve(source, max_rows=max_rows())
        reading = process.reading(found.kind)
    with reading, working(f"reading {source}"):
        event = load_event(found, kind=kind, max_rows=max_rows(), **given, **extra)
    if say:
        say_warnings(event.warnings)
    return event


def say_warnings(problems: Sequence[Problem]) -> None:
    """Warnings on standard error, each with its code (the exit status is not changed)."""
    for line in listed_problems(list(problems), namer=flag_named, label="warning"):
        stderr.print(line)


def working(message: str, console: Console | None = None) -> AbstractContextManager[object]:
    """A spinner with `message` on stderr for a person at a terminal; nothing otherwise.
    The message is shown as it is: a file name may hold what rich reads as markup."""
    if console is None:
        if sys.stderr is None or not sys.stderr.isatty():
            return nullcontext()
        from rich.console import Console

        console = Console(stderr=True, highlight=False)
    if not console.is_terminal:
        return nullcontext()
    from rich.text import Text

    return console.status(Text(message))


def stdout_is_terminal() -> bool:
    """Whether a person is reading standard output (then a table, else CSV)."""
    return sys.stdout is not None and sys.stdout.isatty()


def output_format(settings: dict[str, Any]) -> str | None:
    """The output format the options ask for: --format, Excel's CSV with --excel."""
    from duplicate.errors import UsageError

    fmt: str | None = settings.get("format")
    if settings.get("excel"):
        if fmt not in (None, "csv", "excel"):
            raise UsageError(
                f"{{opt:excel}} writes CSV; it does not go with {{opt:format={fmt}}}",
                "option.conflict",
            )
        return "excel"
    return fmt


def to_terminal(settings: dict[str, Any]) -> bool:
    """Whether the result goes to a person as a table: asked for, or no -o and standard
    output a terminal."""
    fmt = output_format(settings)
    return fmt == "table" or (
        fmt is None and settings.get("output") is None and stdout_is_terminal()
    )


@contextmanager
def publishing(
    command: str, rules: Rules, event: Event | None, settings: dict[str, Any]
) -> Iterator[Publication]:
    """The run's outputs, written together with its manifest (--manifest); what goes to
    standard output is delivered before any file is put in place. Outputs published from
    an event folder are chained into its log."""
    from pathlib import Path

    from duplicate.io import publisher

    # Published from an event folder: its lock held while a seating may be written into
    # it and logged.
    folder = event.folder if event is not None else None
    lock: AbstractContextManager[object] = nullcontext()
    if folder is not None:
        from duplicate.io.event_write import locked

        lock = locked(Path(folder), required=False)
    with lock:
        with publisher.publishing(
            command,
            rules,
            event,
            settings.get("manifest"),
            command_line(),
            process.encoding_threads(),
        ) as out:
            yield out
            if out.stdout is not None:
                write_stdout(out.stdout)
        files = [r for r in out.outputs if r["path"] != "-" and "of" not in r]
        for record in files:
            stderr.print(wrote(record, out.outputs))
        if folder is not None and files and not rerun():
            from duplicate.io.event_folder import record_outputs

            # Every file written, a table's rules beside it too: one written into the
            # folder is then one its log knows.
            written = [(r["path"], r["written"].sha256) for r in out.outputs if r["path"] != "-"]
            record_outputs(folder, command, written)


def wrote(record: dict[str, Any], outputs: list[dict[str, Any]]) -> str:
    """What a run says it wrote: rows and rules for a table, pages for a site."""
    path, written = record["path"], record["written"]
    if written.format == "site":
        return f"wrote {written.rows} pages to {path}/ (open {path}/index.html)"
    if written.rows is None:
        return f"wrote {path}"
    beside = [r["path"] for r in outputs if r.get("of") == path]
    rules = f" and rules to {beside[0]}" if beside else ""
    return f"wrote {written.rows} rows to {path}{rules}"


def rerun() -> bool:
    """Whether this run is a manifest check's run again (it records nothing)."""
    from duplicate.actions.manifest import RERUN

    return bool(os.environ.get(RERUN))


def emit(table: Table, command: str, settings: dict[str, Any]) -> None:
    """A table where the options say: a table for a person at a terminal, else the
    file or standard output in the format asked for, with its rules and manifest."""
    if to_terminal(settings):
        from duplicate.cli.output import render_table
        from duplicate.games.words import words_of

        render_table(table.frame, words_of(table.event))
        if settings.get("manifest") is not None:
            with publishing(command, table.rules, table.event, settings):
                pass
        return
    output = settings.get("output") or "-"
    with publishing(command, table.rules, table.event, settings) as out:
        out.table(table, output, output_format(settings))


def emit_items(
    command: str,
    kind: str,
    rules: Rules,
    event: Event | None,
    items: list[dict[str, Any]],
    summary: dict[str, Any],
    settings: dict[str, Any],
    shown: Callable[[], bytes | None],
    default: str,
    columns: Sequence[str] = (),
) -> None:
    """A result that is more than a table (an explanation, a validation, an event's
    status) where the options say: `--format json`, the envelope of every command
    (`items` and the `summary` beside them); csv, excel, xlsx or parquet, the items as a
    table of `columns` and any other the items have (values as text; a list in a value
    joined); `table`, what `shown` gives a person (text for standard output, or None
    when it showed it itself). Without --format: `default`."""
    fmt = output_format(settings) or default
    if fmt == "table":
        text = shown()
        with publishing(command, rules, event, settings) as out:
            if text is not None:
                out.text(text, "text")
        return
    with publishing(command, rules, event, settings) as out:
        if fmt == "json":
            from duplicate.io.publish import metadata
            from duplicate.io.write import json_document

            data = json_document(kind, metadata(rules), items, summary)
            out.text(data, "json", len(items))
            return
        from duplicate.output import Table

        out.table(Table(kind, rules, text_frame(items, columns)), "-", fmt)


def text_frame(items: list[dict[str, Any]], first: Sequence[str] = ()) -> Any:
    """Rows of JSON values as a table of text: the `first` columns, then every other
    column a row has, in the order first seen; missing and null values blank, a list
    joined by '; '."""
    import pandas as pd

    columns: dict[str, None] = dict.fromkeys(first)
    for item in items:
        columns.update(dict.fromkeys(item))

    def text(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, list | tuple):
            return "; ".join(text(v) for v in value)
        if isinstance(value, dict):
            return " ".join(f"{k}={text(v)}" for k, v in value.items())
        return str(value)

    return pd.DataFrame(
        {c: pd.Series([text(i.get(c)) for i in items], dtype="str") for c in columns},
        columns=list(columns),
    )


def write_stdout(data: bytes) -> None:
    """Deliver `data` on standard output, or raise InputOutputError (exit 3)."""
    from duplicate.errors import InputOutputError

    if sys.stdout is None:
        raise InputOutputError("standard output is closed; give -o FILE", "io.stdout")
    try:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except OSError as exc:
        raise InputOutputError(
            f"standard output: cannot write: {exc.strerror or exc}", "io.stdout"
        ) from None


def _print_traceback() -> None:
    import traceback

    traceback.print_exc(file=sys.stderr)


@contextmanager
def reporting() -> Iterator[None]:
    """Turn every error into a message on stderr and its documented exit code."""
    try:
        yield
    except DuplicateError as exc:
        if _state["debug"]:
            _print_traceback()
        if isinstance(exc, InvalidData):
            for line in listed_problems(exc.problems, namer=flag_named, label="error"):
                stderr.print(line)
            count = sum(p.count for p in exc.problems)
            stderr.print(
                f"{count} problem{'s' if count != 1 else ''} found; nothing was written.",
            )
        else:
            stderr.print(f"error[{exc.code}]: {exc.text(flag_named)}")
        raise typer.Exit(exc.exit_code) from None
    except (typer.Exit, typer.Abort):
        raise
    except KeyboardInterrupt:
        stderr.print("interrupted")
        raise typer.Exit(130) from None
    except MemoryError:
        if _state["debug"]:
            _print_traceback()
        stderr.print(
            "error: out of memory; give the machine more memory, or run on a cluster "
            "with --engine dask"
        )
        raise typer.Exit(EXIT_IO) from None
    except Exception as exc:
        if _state["debug"]:
            raise
        stderr.print(
            f"internal error: {type(exc).__name__}: {exc}\n"
            "This is a defect in duplicate, not in your data. "
            "Run again with --debug and report the traceback.",
        )
        raise typer.Exit(EXIT_INTERNAL) from None


F = TypeVar("F", bound=Callable[..., Any])


def reports_errors(command: F) -> F:
    """Decorate a command so that its errors go through `reporting`, naming its
    settings by their flags."""
    flags = own_flags(inspect.signature(command, eval_str=True))

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _flags.clear()
        _flags.update(flags)
        with reporting():
            return command(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
