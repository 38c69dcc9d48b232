from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"
GOLDEN = Path(__file__).resolve().parent / "golden"
BAD = Path(__file__).resolve().parent / "data" / "bad"

# A line the program prints about a problem or an error: `error[cell.not-a-score]: ...`.
_LABELLED = re.compile(r"^(error|warning)\[([^\]]+)\]: ", re.MULTILINE)


def codes(stderr: str, label: str | None = None) -> list[str]:
    """The codes of the `error[...]` and `warning[...]` lines of `stderr`, in order (of
    the lines of one `label`, error or warning, if given)."""
    found = _LABELLED.finditer(stderr)
    return [m[2] for m in found if label is None or m[1] == label]


def line_of(code: str, stderr: str) -> str:
    """The first line of `stderr` that reports `code` (an AssertionError if none does)."""
    for line in stderr.splitlines():
        match = _LABELLED.match(line)
        if match and match[2] == code:
            return line
    raise AssertionError(f"no line of code {code} in:\n{stderr}")


def problem_codes(error: BaseException) -> list[str]:
    """The codes of a library error: each problem's of an InvalidData, else its own."""
    from duplicate.errors import InvalidData

    if isinstance(error, InvalidData):
        return [problem.code for problem in error.problems]
    return [str(getattr(error, "code", ""))]


@pytest.fixture
def spec_example() -> Path:
    return SAMPLE / "spec_example.csv"


def run_main(args: list[str], monkeypatch: pytest.MonkeyPatch, tuned: bool = False) -> object:
    """The `duplicate` program's entry (`duplicate.cli.main`, what the installed command
    runs) called in this process with `args`; its exit status. Untuned unless `tuned`;
    the environment, the signal handlers and the garbage-collection threshold it sets
    are put back afterwards."""
    import gc
    import signal

    from duplicate.cli import main

    monkeypatch.setattr("sys.argv", ["duplicate", *args])
    environment = dict(os.environ)
    if tuned:
        os.environ.pop("DUPLICATE_NO_TUNING", None)
    else:
        os.environ["DUPLICATE_NO_TUNING"] = "1"
    numbers = [signal.SIGTERM, *([signal.SIGPIPE] if hasattr(signal, "SIGPIPE") else [])]
    handlers = {number: signal.getsignal(number) for number in numbers}
    thresholds = gc.get_threshold()
    try:
        main()
    except SystemExit as ended:
        return ended.code
    finally:
        os.environ.clear()
        os.environ.update(environment)
        for number, handler in handlers.items():
            signal.signal(number, handler)
        gc.set_threshold(*thresholds)
    return None


def failing_input(error: BaseException) -> io.TextIOWrapper:
    """Standard input whose reading fails with `error`."""

    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: object) -> int:
            raise error

    return io.TextIOWrapper(io.BufferedReader(Failing()))
