"""Exceptions named after the problem; the CLI maps each family to one exit code."""

from __future__ import annotations

from dataclasses import dataclass

from duplicate.limits import MAX_LISTED


class DuplicateError(Exception):
    """Base class of every error this package raises on purpose."""

    exit_code = 1


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where it is, what is wrong, how to fix it."""

    source: str
    message: str
    rows: tuple[int, ...] = ()
    column: str | None = None
    hint: str = ""
    # How many cells it stands for: more than 1 when it sums up the rest of a column.
    count: int = 1
    # What `rows` count: rows of a table, or lines of a text file (PBN, XML).
    position: str = "row"

    def __str__(self) -> str:
        where = [self.source]
        if self.rows:
            shown = ", ".join(str(r) for r in self.rows[:10])
            more = f" (+{len(self.rows) - 10} more)" if len(self.rows) > 10 else ""
            plural = "s" if len(self.rows) > 1 else ""
            where.append(f"{self.position}{plural} {shown}{more}")
        if self.column is not None:
            where.append(f"column '{self.column}'")
        text = ", ".join(where) + ": " + self.message
        return f"{text}; {self.hint}" if self.hint else text


class InvalidData(DuplicateError):
    """The input was read but breaks the rules of the data; every problem is listed."""

    exit_code = 1

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def __reduce__(self) -> tuple[type[InvalidData], tuple[list[Problem]]]:
        # Rebuilt from its problems when it crosses processes (a Dask worker's error).
        return (type(self), (self.problems,))


def listed_problems(problems: list[Problem], limit: int = MAX_LISTED) -> list[str]:
    """The lines that report `problems`: the first `limit` in full, then one line per
    kind of the rest (its column and what to do), with how many there are."""
    lines = [str(p) for p in problems[:limit]]
    rest: dict[tuple[str, str | None, str], int] = {}
    for problem in problems[limit:]:
        kind = (problem.source, problem.column, problem.hint)
        rest[kind] = rest.get(kind, 0) + problem.count
    for (source, column, hint), count in rest.items():
        where = f", column '{column}'" if column is not None else ""
        text = f"{source}{where}: {count} more problem{'s' if count != 1 else ''} of this kind"
        lines.append(f"{text}; {hint}" if hint else text)
    return lines


class OutOfRange(DuplicateError):
    """A total would pass what is held exactly: refused, never wrapped or rounded."""

    exit_code = 1


class UsageError(DuplicateError):
    """The command was called with options or a rules file that cannot be used."""

    exit_code = 2


class InputOutputError(DuplicateError):
    """A file could not be read or written."""

    exit_code = 3
