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
    """score.csv and standings.csv as write_table writes them for the case."""
    rules_file = case / "rules.toml"
    rules = duplicate.load_rules(rules_file) if rules_file.exists() else duplicate.Rules()
    results = duplicate.read_results(case / "results.csv", deal_scope=rules.deal_scope)
    adjustments_file = case / "adjustments.csv"
    adjustments = (
        duplicate.read_adjustments(adjustments_file) if adjustments_file.exists() else None
    )
    tables = {
        "score.csv": (duplicate.score(results, rules, adjustments), "scores"),
        "standings.csv": (duplicate.standings(results, rules, adjustments), "standings"),
    }
    written = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, (table, kind) in tables.items():
            path = Path(folder) / name
            duplicate.write_table(table, path, rules, kind)
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
