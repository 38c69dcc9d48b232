"""What every command shares: options, rules from options, and error reporting."""

from __future__ import annotations

import functools
import os
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from duplicate.cli import process
from duplicate.errors import DuplicateError, InvalidData, UsageError, listed_problems
from duplicate.limits import MAX_ROWS

if TYPE_CHECKING:
    import pandas as pd
    from rich.console import Console

    from duplicate.model.adjustments import Adjustments
    from duplicate.model.results import Results
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


def read_table(
    path: str | Path, encoding: str | None, sheet: str | None = None
) -> tuple[pd.DataFrame, int]:
    """A side file (players, partners, seating, games) as read_raw reads it, bounded
    (`sheet`: of a workbook, for the command's main input)."""
    from duplicate.io.read import read_raw

    return read_raw(path, encoding, max_rows(), sheet)


class OutputFormat(StrEnum):
    csv = "csv"
    excel = "excel"
    xlsx = "xlsx"
    parquet = "parquet"
    json = "json"
    table = "table"


class Engine(StrEnum):
    local = "local"
    dask = "dask"


class SeatingOrder(StrEnum):
    snake = "snake"
    straight = "straight"


class Fill(StrEnum):
    robot = "robot"
    bye = "bye"


ResultsArg = Annotated[
    str,
    typer.Argument(
        metavar="RESULTS", help="Results file (CSV or Parquet); '-' reads standard input."
    ),
]
OutputOpt = Annotated[
    str | None,
    typer.Option(
        "--output", "-o", help="Write here; '-' is standard output. Format from the suffix."
    ),
]
FormatOpt = Annotated[
    OutputFormat | None,
    typer.Option(
        "--format",
        "-f",
        help="csv, excel (CSV with a BOM and CRLF, as Excel opens it), xlsx, parquet, "
        "json, or table (for a person). Default: from -o.",
    ),
]
ExcelOpt = Annotated[
    bool,
    typer.Option("--excel", help="CSV as Excel opens it: UTF-8 with a BOM, CRLF (--format excel)."),
]


def as_excel(fmt: OutputFormat | None, excel: bool) -> OutputFormat | None:
    """The output format, Excel's CSV when --excel asks for it (CSV output only)."""
    if excel and fmt not in (None, OutputFormat.csv, OutputFormat.excel):
        raise UsageError(f"--excel writes CSV; it does not go with --format {fmt.value}")
    return OutputFormat.excel if excel else fmt


SheetOpt = Annotated[
    str | None,
    typer.Option("--sheet", help="The sheet of an .xlsx input to read. Default: the first."),
]
EncodingOpt = Annotated[
    str | None,
    typer.Option("--encoding", help="Text encoding of a CSV input. Default: UTF-8, else GB18030."),
]
AdjustmentsOpt = Annotated[
    str | None,
    typer.Option(
        "--adjustments",
        help="Corrections: round, deal, player, kind (mp_pct|penalty|void), value, reason.",
    ),
]
EngineOpt = Annotated[
    Engine,
    typer.Option(
        "--engine",
        help="local (this machine), or dask (a cluster; pip install 'duplicate[dask]').",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="With --engine dask: the scheduler's address. Default: a local cluster of 2.",
    ),
]


def whole_number(value: object) -> int:
    """A whole-number option as the number grammar reads it: ASCII digits and a sign,
    so full-width digits and `--seed 1_000` are refused as a score would be."""
    from duplicate.rules import parse_whole

    try:
        return parse_whole(str(value), "")
    except UsageError:
        raise typer.BadParameter(f"{value!r} is not a whole number such as 4") from None


def whole_option(*flags: str, help: str) -> Any:
    """A typer option taking a whole number by the number grammar (whole_number)."""
    return typer.Option(*flags, parser=whole_number, help=help)


def warn_if_nothing_compared(data: Results, rules: Rules) -> None:
    """A warning on standard error (the exit stays 0) when no result has anything to be
    compared with: the usual sign of a movement scored per round."""
    from duplicate.scoring.scores import SINGLE_GROUPS_WARNING, every_group_single

    if every_group_single(data, rules):
        stderr.print(f"warning: {SINGLE_GROUPS_WARNING}")


def working(message: str, console: Console | None = None) -> AbstractContextManager[object]:
    """A spinner with `message` on stderr for a person at a terminal; nothing otherwise."""
    if console is None:
        if sys.stderr is None or not sys.stderr.isatty():
            return nullcontext()
        from rich.console import Console

        console = Console(stderr=True, highlight=False)
    return console.status(message) if console.is_terminal else nullcontext()


def read_inputs(
    results: str,
    adjustments: str | None,
    encoding: str | None,
    deal_scope: str,
    sheet: str | None = None,
) -> tuple[Results, Adjustments | None]:
    """The results file, validated, and the corrections file if one is given."""
    from duplicate.io.read import read_adjustments

    data = read_results_file(results, encoding, deal_scope, sheet)
    note_blank_rows(data)
    return data, read_adjustments(adjustments, encoding, max_rows()) if adjustments else None


def read_results_file(
    results: str, encoding: str | None, deal_scope: str, sheet: str | None = None
) -> Results:
    """The results file read and validated (io.read.read_results) under the row limit,
    its memory arranged by the process edge (process.reading)."""
    from duplicate.io.read import read_results
    from duplicate.io.source import resolve

    source = resolve(results)  # its kind found once, for the tuning and the read
    with process.reading(source.kind):
        return read_results(source, encoding, deal_scope, max_rows=max_rows(), sheet=sheet)


def note_blank_rows(data: Results) -> None:
    """Say on stderr which rows were left out for being blank (a spreadsheet's habit),
    and which columns are not used (a misspelled header reads as no column at all)."""
    from duplicate.model.columns import closest_match, every_alias

    for header in data.unused_columns:
        guess = closest_match(header, every_alias())
        hint = f"did you mean {guess!r}?" if guess else "a note column may be named 备注"
        stderr.print(f"warning: {data.source}: column {header!r} is not used; {hint}")
    if not data.blank_rows:
        return
    plural = "s" if data.blank_rows != 1 else ""
    shown = ", ".join(str(r) for r in data.blank_row_numbers)
    more = ", ..." if data.blank_rows > len(data.blank_row_numbers) else ""
    stderr.print(
        f"note: {data.source}: {data.blank_rows} blank row{plural} left out "
        f"(row{plural} {shown}{more})"
    )


@contextmanager
def reporting() -> Iterator[None]:
    """Turn every error into a message on stderr and its documented exit code."""
    try:
        yield
    except DuplicateError as exc:
        if _state["debug"]:
            traceback.print_exc(file=sys.stderr)
        if isinstance(exc, InvalidData):
            for line in listed_problems(exc.problems):
                stderr.print(f"error: {line}")
            count = sum(p.count for p in exc.problems)
            stderr.print(
                f"{count} problem{'s' if count != 1 else ''} found; nothing was written.",
            )
        else:
            stderr.print(f"error: {exc}")
        raise typer.Exit(exc.exit_code) from None
    except (typer.Exit, typer.Abort):
        raise
    except KeyboardInterrupt:
        stderr.print("interrupted")
        raise typer.Exit(130) from None
    except MemoryError:
        if _state["debug"]:
            traceback.print_exc(file=sys.stderr)
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
    """Decorate a command so that its errors go through `reporting`."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with reporting():
            return command(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def input_files(*names: str | Path | None, rules: Rules | None = None) -> list[str]:
    """The files a command reads (the rules file included): no output may replace one."""
    files = [*names, rules.source if rules is not None else None]
    return [str(name) for name in files if name is not None]


def refuse_overwriting_inputs(
    output: str | None, inputs: list[str], what: str = "--output"
) -> None:
    """Never let an output replace an input file (`what` names the output in messages)."""
    from duplicate.io.write import refuse_overwriting

    if output is not None and output != "-":
        refuse_overwriting(output, inputs, what)
