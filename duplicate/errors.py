"""Exceptions named after the problem; the CLI maps each family to one exit code.

Every problem and error carries a stable code from the catalog (duplicate.problems),
and its text names settings by their keyword (`{opt:deal_scope}`, rendered as
`deal_scope` for a library caller and as `--deal-scope` by the command line).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from duplicate.limits import MAX_LISTED

# A setting named in a message: {opt:name} or {opt:name=value}.
_OPTION = re.compile(r"\{opt:([a-z_]+)(?:=([^}]*))?\}")

# How a message names a setting: its keyword (the library's way), or a flag.
Namer = Callable[[str], str]


def keyword(name: str) -> str:
    return name


def render(text: str, namer: Namer = keyword) -> str:
    """`text` with each setting it names spelt by `namer`: `deal_scope="event"` for a
    library caller, `--deal-scope event` on the command line."""

    def spelt(match: re.Match[str]) -> str:
        name, value = match[1], match[2]
        shown = namer(name)
        if value is None:
            return shown
        if shown.startswith("-"):
            return f"{shown} {value}"
        return f"{shown}={value!r}"

    return _OPTION.sub(spelt, text)


class DuplicateError(Exception):
    """Base class of every error this package raises on purpose."""

    exit_code = 1
    default_code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        self.template = message
        self.code = code or self.default_code
        super().__init__(render(message))

    def text(self, namer: Namer = keyword) -> str:
        """The message, settings named by `namer`."""
        return render(self.template, namer)

    def __reduce__(self) -> tuple[type[DuplicateError], tuple[str, str]]:
        return (type(self), (self.template, self.code))


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where it is, what is wrong, how to fix it.

    `code` names its kind in the catalog (duplicate.problems, docs/problems.md).
    """

    source: str
    message: str
    rows: tuple[int, ...] = ()
    column: str | None = None
    hint: str = ""
    # How many cells it stands for: more than 1 when it sums up the rest of a column.
    count: int = 1
    # What `rows` count: rows of a table, or lines of a text file (PBN, XML).
    position: str = "row"
    code: str = ""

    def where(self) -> str:
        """The file, rows and column it is about."""
        where = [self.source]
        if self.rows:
            shown = ", ".join(str(r) for r in self.rows[:10])
            more = f" (+{len(self.rows) - 10} more)" if len(self.rows) > 10 else ""
            plural = "s" if len(self.rows) > 1 else ""
            where.append(f"{self.position}{plural} {shown}{more}")
        if self.column is not None:
            where.append(f"column '{self.column}'")
        return ", ".join(where)

    def text(self, namer: Namer = keyword) -> str:
        """Where, what and the fix, settings named by `namer`."""
        text = self.where() + ": " + render(self.message, namer)
        return f"{text}; {render(self.hint, namer)}" if self.hint else text

    def __str__(self) -> str:
        return self.text()


class InvalidData(DuplicateError):
    """The input was read but breaks the rules of the data; every problem is listed."""

    exit_code = 1
    default_code = "data.invalid"

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        Exception.__init__(self, "\n".join(str(p) for p in problems))
        self.template = str(self)
        self.code = problems[0].code if problems and problems[0].code else self.default_code

    def __reduce__(self) -> tuple[type[InvalidData], tuple[list[Problem]]]:  # type: ignore[override]
        # Rebuilt from its problems when it crosses processes (a Dask worker's error).
        return (type(self), (self.problems,))


def listed_problems(
    problems: list[Problem],
    limit: int = MAX_LISTED,
    namer: Namer = keyword,
    label: str = "",
) -> list[str]:
    """The lines that report `problems`: the first `limit` in full, then one line per
    kind of the rest (its code, file and column), with how many. Each line starts with
    `label` and the problem's code: `error[cell.not-a-score]: ...`."""

    def line(code: str, text: str) -> str:
        return f"{label}[{code}]: {text}" if code else (f"{label}: {text}" if label else text)

    lines = [line(p.code, p.text(namer)) for p in problems[:limit]]
    rest: dict[tuple[str, str, str | None], tuple[int, str]] = {}
    for problem in problems[limit:]:
        kind = (problem.code, problem.source, problem.column)
        count, hint = rest.get(kind, (0, problem.hint))
        rest[kind] = (count + problem.count, hint)
    for (code, source, column), (count, hint) in rest.items():
        where = f", column '{column}'" if column is not None else ""
        text = f"{source}{where}: {count} more problem{'s' if count != 1 else ''} of this kind"
        text = f"{text}; {render(hint, namer)}" if hint else text
        lines.append(line(code, text))
    return lines


class OutOfRange(DuplicateError):
    """A total would pass what is held exactly: refused, never wrapped or rounded."""

    exit_code = 1
    default_code = "number.out-of-range"


class UsageError(DuplicateError):
    """The command was called with options or a rules file that cannot be used."""

    exit_code = 2
    default_code = "usage"


class InputOutputError(DuplicateError):
    """A file could not be read or written."""

    exit_code = 3
    default_code = "io"
