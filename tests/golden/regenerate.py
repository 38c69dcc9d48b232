"""Rewrite every tests/golden/<case>/{score,standings}.csv from its results and rules.

Run on purpose (`make golden`) after a deliberate change, then review `git diff`:
the expected files are the contract, and test_golden.py compares against them.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import duplicate

HERE = Path(__file__).parent


def expected_outputs(case: Path) -> dict[str, bytes]:
    """score.csv and standings.csv as publish writes them for the case."""
    settings = {}
    if (case / "rules.toml").exists():
        settings["rules_file"] = str(case / "rules.toml")
    if (case / "adjustments.csv").exists():
        settings["adjustments"] = str(case / "adjustments.csv")
    event = duplicate.load_event(case / "results.csv", **settings)
    tables = {
        "score.csv": duplicate.score(event),
        "standings.csv": duplicate.standings(event),
    }
    written = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, table in tables.items():
            path = Path(folder) / name
            duplicate.publish(table, str(path))
            written[name] = path.read_bytes()
    return written


def cases() -> list[Path]:
    return sorted(p for p in HERE.iterdir() if (p / "results.csv").exists())


def main() -> None:
    for case in cases():
        for name, data in expected_outputs(case).items():
            (case / name).write_bytes(data)
        print(f"wrote {case.name}")


if __name__ == "__main__":
    main()
