"""`duplicate manifest check`: hash a run's inputs and outputs again, run it again, and
say what differs."""

from __future__ import annotations

from typing import Annotated

import typer

from duplicate.cli.common import reports_errors, stderr, write_stdout

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
    manifest: Annotated[str, typer.Argument(metavar="MANIFEST", help="A run manifest.")],
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
    import duplicate

    found = duplicate.check_manifest(manifest, rerun)
    if rerun and found.not_rerun:
        stderr.print(f"note: {found.not_rerun}: not run again")
    write_stdout(("\n".join(found.lines()) + "\n").encode("utf-8"))
    differ = sum(not c.agrees for c in found.checks)
    if differ:
        stderr.print(f"{differ} of {len(found.checks)} checks differ")
        raise typer.Exit(1)
    stderr.print(f"{manifest}: all {len(found.checks)} checks agree")
