"""`manifest check`: hash a run's inputs and outputs again, run it again, compare."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from duplicate.io.manifest import Check

# Set for a run made again by a manifest check: it publishes into a temporary folder and
# records nothing in an event folder's log.
RERUN = "DUPLICATE_RERUN"


@dataclass(frozen=True)
class ManifestCheck:
    """Every comparison a check made: each input and output hashed again, and the run
    made again (its exit status and each output)."""

    manifest: str
    checks: tuple[Check, ...]
    # Why the run was not made again, when it was not.
    not_rerun: str = ""

    @property
    def agrees(self) -> bool:
        return all(c.agrees for c in self.checks)

    def lines(self) -> list[str]:
        return [
            f"{'same' if c.agrees else 'DIFFERS'}  {c.item}  {c.path}"
            + ("" if c.agrees else f"  recorded {c.recorded}, now {c.now}")
            for c in self.checks
        ]


def check_manifest(manifest: str | Path, rerun: bool = True) -> ManifestCheck:
    """Hash every input and output of a run again and run its command again (its
    outputs into a temporary folder). Run from the folder the command was run in: the
    recorded paths are as they were given.

        >>> import duplicate
        >>> duplicate.check_manifest("round3.manifest.json").agrees  # doctest: +SKIP
        True
    """
    import hashlib
    import os
    import subprocess
    import sys
    import tempfile

    from duplicate.io.manifest import (
        Check,
        current_sha256,
        file_checks,
        load_manifest,
        rerun_arguments,
    )

    document = load_manifest(manifest)
    checks = file_checks(document)
    command_line = [str(word) for word in document.get("command_line", [])]
    if not rerun:
        return ManifestCheck(str(manifest), tuple(checks), "not asked to")
    if not command_line:
        return ManifestCheck(
            str(manifest),
            tuple(checks),
            "no command line recorded (written by a program calling the library)",
        )
    outputs = list(document.get("outputs", []))
    with tempfile.TemporaryDirectory(prefix="duplicate-check-") as folder:
        arguments, moved = rerun_arguments(command_line, Path(folder), outputs)
        done = subprocess.run(
            [sys.executable, "-m", "duplicate", *arguments],
            capture_output=True,
            check=False,
            env={**os.environ, RERUN: "1"},
        )
        checks.append(
            Check("re-run exit status", " ".join(command_line), "0", str(done.returncode))
        )
        for record in outputs:
            path = str(record.get("path", ""))
            if path == "-":
                now = hashlib.sha256(done.stdout).hexdigest()
                checks.append(Check("re-run output", path, record["sha256"], now))
            elif path in moved:
                now = current_sha256(moved[path])
                checks.append(Check("re-run output", path, record["sha256"], now))
    return ManifestCheck(str(manifest), tuple(checks))
