"""Run manifests: what a run read and wrote, with hashes, so that an auditor can check
it later. Canonical JSON (sorted keys, fixed layout): two runs on the same inputs give
the same manifest but for `created`.

    >>> import duplicate
    >>> rules = duplicate.Rules()
    >>> table = duplicate.standings(duplicate.read_results("results.csv"))  # doctest: +SKIP
    >>> written = duplicate.write_table(table, "out.csv", rules, "standings")  # doctest: +SKIP
    >>> duplicate.write_manifest(
    ...     "run.json",
    ...     command="standings",
    ...     rules=rules,
    ...     inputs=[duplicate.input_record("results", "results.csv", 1152)],
    ...     outputs=written,
    ... )  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from duplicate import __version__
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.io.publish import Written

# Light to import: the command line imports it at its start; pandas and Arrow load when
# a manifest is written.


def input_record(role: str, path: str, rows: int | None) -> dict[str, Any]:
    """An input: its role, path, sha256 and row count (None where it was not counted)."""
    from duplicate.io.read import sha256_of  # (loads pandas: see the module's note)

    return {"role": role, "path": path, "sha256": sha256_of(path), "rows": rows}


def write_manifest(
    path: str,
    *,
    command: str,
    rules: Rules,
    inputs: list[dict[str, Any]],
    outputs: list[Written],
    adjustments: list[dict[str, Any]] | None = None,
    notes: dict[str, str] | None = None,
) -> None:
    """Write the manifest atomically as canonical JSON (sorted keys, fixed layout).

    Two runs on the same inputs give the same manifest but for `created`.
    """
    from duplicate.io.write import write_atomic

    rules_text = rules.to_toml()
    document = {
        "tool": "duplicate",
        "version": __version__,
        "command": command,
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "rules": {"toml": rules_text, "sha256": hashlib.sha256(rules_text.encode()).hexdigest()},
        "inputs": inputs,
        "outputs": [
            {
                "path": w.path,
                "format": w.format,
                "sha256": w.sha256,
                "rows": w.rows,
            }
            for w in outputs
        ],
        "adjustments": adjustments or [],
        "notes": notes or {},
    }
    text = json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    write_atomic(path, text.encode("utf-8"))


def adjustment_records(adjustments: Any) -> list[dict[str, Any]]:
    """Each adjustment as round, deal, player, kind, value, reason."""
    if adjustments is None:
        return []
    frame = adjustments.frame.assign(value=adjustments.value_text())
    return [
        {
            "round": int(r["round"]),
            "deal": r["deal"],
            "player": r["player"],
            "kind": r["kind"],
            "value": r["value"],
            "reason": r["reason"],
        }
        for r in frame.to_dict("records")
    ]
