"""Rewrite every tests/golden/<case>/{score,standings}.csv from its results and rules.

Run on purpose (`make golden`) after a deliberate change, then review `git diff`:
the expected files are the contract, and test_golden.py compares against them.
"""

from __future__ import annotations

from pathlib import Path

import duplicate
from duplicate.io.write import encode

HERE = Path(__file__).parent


def expected_outputs(case: Path) -> dict[str, bytes]:
    settings = {}
    if (case / "rules.toml").exists():
        settings["rules_file"] = str(case / "rules.toml")
    if (case / "adjustments.csv").exists():
        settings["adjustments"] = str(case / "adjustments.csv")
    event = duplicate.load_event(case / "results.csv", **settings)
    meta = {"version": "golden", "rules": event.rules.to_toml()}
    return {
        "score.csv": encode(duplicate.score(event).arrow(), "csv", "scores", meta),
        "standings.csv": encode(duplicate.standings(event).arrow(), "csv", "standings", meta),
    }


def cases() -> list[Path]:
    return sorted(p for p in HERE.iterdir() if (p / "results.csv").exists())


def main() -> None:
    for case in cases():
        for name, data in expected_outputs(case).items():
            (case / name).write_bytes(data)
        print(f"wrote {case.name}")


if __name__ == "__main__":
    main()
