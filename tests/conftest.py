from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"
GOLDEN = Path(__file__).resolve().parent / "golden"
BAD = Path(__file__).resolve().parent / "data" / "bad"


@pytest.fixture
def spec_example() -> Path:
    return SAMPLE / "spec_example.csv"


def run_main(args: list[str], monkeypatch: pytest.MonkeyPatch, tuned: bool = False) -> object:
    """The `duplicate` program's entry (`duplicate.cli.main`, what the installed command
    runs) called in this process with `args`; its exit status. Untuned unless `tuned`;
    the environment and the signal handlers it sets are put back afterwards."""
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
    try:
        main()
    except SystemExit as ended:
        return ended.code
    finally:
        os.environ.clear()
        os.environ.update(environment)
        for number, handler in handlers.items():
            signal.signal(number, handler)
    return None


def failing_input(error: BaseException) -> io.TextIOWrapper:
    """Standard input whose reading fails with `error`."""

    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: object) -> int:
            raise error

    return io.TextIOWrapper(io.BufferedReader(Failing()))
