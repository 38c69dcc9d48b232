"""Run manifests: what a command read and wrote, with hashes, so a run can be audited."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from duplicate import __version__
from duplicate.cli.output import Written
from duplicate.rules import Rules

ManifestOpt = Annotated[
    str | None,
    typer.Option(
        "--manifest",
        help="Also write a JSON record of this run: version, rules, inputs and outputs "
        "with their sha256 and row counts.",
    ),
]


def input_record(role: str, path: str, rows: int | None) -> dict[str, Any]:
    """An input: its role, path, sha256 and row count (None where it was not counted)."""
    from duplicate.io.read import sha256_of

    return {"role": role, "path": path, "sha256": sha256_of(path), "rows": rows}


def results_records(
    results: str, rows: int | None, adjustments: str | None, corrections: Any
) -> list[dict[str, Any]]:
    """The records of a results file and of its corrections file, if any."""
    records = [input_record("results", results, rows)]
    if adjustments and corrections is not None:
        records.append(input_record("adjustments", adjustments, len(corrections.frame)))
    return records


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
    frame = adjustments.frame
    return [
        {
            "round": int(r["round"]),
            "deal": r["deal"],
            "player": r["player"],
            "kind": r["kind"],
            "value": f"{r['cents'] / 100:.2f}" if r["kind"] != "void" else "",
            "reason": r["reason"],
        }
        for r in frame.to_dict("records")
    ]
