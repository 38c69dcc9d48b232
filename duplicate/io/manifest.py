"""Run manifests: what a run read and wrote, with hashes, so that an auditor can check
it later. Canonical JSON (sorted keys, fixed layout): two runs on the same inputs give
the same manifest but for `created`.

    >>> import duplicate
    >>> table = duplicate.standings("results.csv")  # doctest: +SKIP
    >>> duplicate.publish(table, "out.csv", manifest="run.json")  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
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
    outputs: list[Written] | list[dict[str, Any]],
    adjustments: list[dict[str, Any]] | None = None,
    notes: dict[str, str] | None = None,
    command_line: list[str] | None = None,
) -> None:
    """Write the manifest atomically as canonical JSON (sorted keys, fixed layout).

    Two runs on the same inputs give the same manifest but for `created`.
    `command_line` (the arguments after `duplicate`) lets `manifest check` run it again.
    """
    from duplicate.io.write import write_atomic

    rules_text = rules.to_toml()
    document = {
        "tool": "duplicate",
        "version": __version__,
        "command": command,
        "command_line": command_line or [],
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "rules": {"toml": rules_text, "sha256": hashlib.sha256(rules_text.encode()).hexdigest()},
        "inputs": inputs,
        "outputs": [output_record(w) for w in outputs],
        "adjustments": adjustments or [],
        "notes": notes or {},
    }
    text = json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    write_atomic(path, text.encode("utf-8"))


def output_record(output: Written | dict[str, Any]) -> dict[str, Any]:
    """An output as a manifest lists it: path, format, sha256, rows (and, from the
    publisher, the option that named it; a sidecar, the file it goes with)."""
    if isinstance(output, dict):
        return output
    return {
        "path": output.path,
        "format": output.format,
        "sha256": output.sha256,
        "rows": output.rows,
    }


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


@dataclass(frozen=True)
class Check:
    """One line of a manifest check: what was compared, and whether it agrees."""

    item: str  # "input results", "output", "re-run"
    path: str
    recorded: str
    now: str

    @property
    def agrees(self) -> bool:
        return self.recorded == self.now


def load_manifest(path: str | Path) -> dict[str, Any]:
    from duplicate.errors import InvalidData, Problem

    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidData(
            [Problem(str(path), f"is not a readable manifest ({exc})", code="manifest.unreadable")]
        ) from None
    if not isinstance(document, dict) or document.get("tool") != "duplicate":
        raise InvalidData(
            [Problem(str(path), "is not a duplicate manifest", code="manifest.not-a-manifest")]
        )
    return document


def current_sha256(path: str) -> str:
    """The sha256 of a file, or of a folder (a report's site: its pages' listing; an
    event or a Parquet dataset: as read), or "(missing)"."""
    from duplicate.io.read import sha256_of
    from duplicate.io.source import file_listing

    target = Path(path)
    if not target.exists():
        return "(missing)"
    if target.is_dir() and (target / "index.html").exists():
        from duplicate.io.write import REPORT_MARKER

        named = {
            str(f.relative_to(target)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(target.rglob("*"))
            if f.is_file() and f.name != REPORT_MARKER
        }
        return hashlib.sha256(file_listing(named)).hexdigest()
    return sha256_of(path)


def file_checks(document: dict[str, Any]) -> list[Check]:
    """Every input and output of a manifest hashed again."""
    checks = []
    for record in document.get("inputs", []):
        path = str(record.get("path", ""))
        if path != "-":
            now = current_sha256(path)
            checks.append(Check(f"input {record.get('role', '')}", path, record["sha256"], now))
    for record in document.get("outputs", []):
        path = str(record.get("path", ""))
        if path != "-":
            checks.append(Check("output", path, record["sha256"], current_sha256(path)))
    return checks


# The options whose value names a file a run writes.
OUTPUT_OPTIONS = ("-o", "--output", "--manifest", "--ledger", "--chips", "--report")


def rerun_arguments(
    command_line: list[str], folder: Path, outputs: list[dict[str, Any]] | None = None
) -> tuple[list[str], dict[str, str]]:
    """The recorded command with its outputs sent into `folder`: the arguments, and
    each recorded output path -> where the new run writes it.

    Each output goes into a folder of its own (so that two outputs of one name, or an
    output and the manifest sharing a stem, never meet), under its own name; a sidecar
    the manifest records beside an output (a CSV file's rules) follows it.
    """
    from duplicate.io.publish import rules_sidecar

    arguments: list[str] = []
    moved: dict[str, str] = {}
    sidecars = {
        str(record.get("of")): str(record.get("path"))
        for record in outputs or []
        if record.get("of")
    }
    words = iter(command_line)
    for word in words:
        option, equals, inline = word.partition("=")
        if option not in OUTPUT_OPTIONS:
            arguments.append(word)
            continue
        original = inline if equals else next(words, "")
        if original == "-":
            arguments += [option, original]
            continue
        place = folder / str(len(moved))
        place.mkdir(parents=True, exist_ok=True)
        fresh = str(place / (Path(original).name or "out"))
        moved[original] = fresh
        if original in sidecars:
            moved[sidecars[original]] = str(rules_sidecar(fresh))
        arguments += [option, fresh]
    return arguments, moved
