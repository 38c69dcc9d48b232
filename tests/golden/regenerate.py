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
    rules_file = case / "rules.toml"
    rules = duplicate.load_rules(rules_file) if rules_file.exists() else duplicate.Rules()
    results = duplicate.read_results(case / "results.csv", deal_scope=rules.deal_scope)
    adjustments_file = case / "adjustments.csv"
    adjustments = (
        duplicate.read_adjustments(adjustments_file) if adjustments_file.exists() else None
    )
    meta = {"version": "golden", "rules": rules.to_toml()}
    return {
        "score.csv": encode(duplicate.score(results, rules, adjustments), "csv", "scores", meta),
        "standings.csv": encode(
            duplicate.standings(results, rules, adjustments), "csv", "standings", meta
        ),
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
