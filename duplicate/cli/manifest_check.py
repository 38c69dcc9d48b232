"""`duplicate manifest check`: hash a run's inputs and outputs again, run it again, and
say what differs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from duplicate.cli.common import reports_errors, stderr

manifest_app = typer.Typer(
    name="manifest",
    help="Check a run manifest (--manifest) against the files.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(manifest_app)


@manifest_app.command(name="check")
@reports_errors
def check(
    manifest: Annotated[Path, typer.Argument(metavar="MANIFEST", help="A run manifest.")],
    rerun: Annotated[
        bool,
        typer.Option(
            "--rerun/--no-rerun", help="Also run the recorded command again (default: yes)."
        ),
    ] = True,
) -> None:
    """Hash every input and output of a run again and run its command again (its
    outputs into a temporary folder): one line per comparison on standard output,
    exit 0 when everything agrees, 1 listing what differs. Run it from the folder the
    command was run in: the recorded paths are as they were given.

    Example: duplicate manifest check round3.manifest.json
    """
    import hashlib
    import subprocess
    import sys
    import tempfile

    from duplicate.cli.output import write_stdout
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
    if rerun and not command_line:
        stderr.print(
            "note: no command line recorded (written by a program calling the library): "
            "not run again"
        )
    elif rerun:
        with tempfile.TemporaryDirectory(prefix="duplicate-check-") as folder:
            arguments, moved = rerun_arguments(command_line, Path(folder))
            done = subprocess.run(
                [sys.executable, "-m", "duplicate", *arguments],
                capture_output=True,
                check=False,
            )
            checks.append(
                Check("re-run exit status", " ".join(command_line), "0", str(done.returncode))
            )
            for record in document.get("outputs", []):
                path = str(record.get("path", ""))
                if path == "-":
                    now = hashlib.sha256(done.stdout).hexdigest()
                    checks.append(Check("re-run output", path, record["sha256"], now))
                elif path in moved:
                    now = current_sha256(moved[path])
                    checks.append(Check("re-run output", path, record["sha256"], now))
    lines = [
        f"{'same' if c.agrees else 'DIFFERS'}  {c.item}  {c.path}"
        + ("" if c.agrees else f"  recorded {c.recorded}, now {c.now}")
        for c in checks
    ]
    write_stdout(("\n".join(lines) + "\n").encode("utf-8"))
    differ = sum(not c.agrees for c in checks)
    if differ:
        stderr.print(f"{differ} of {len(checks)} checks differ")
        raise typer.Exit(1)
    stderr.print(f"{manifest}: all {len(checks)} checks agree")
