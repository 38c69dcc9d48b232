"""`duplicate manifest check`: hash a run's inputs and outputs again, run it again, and
say what differs."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.cli.common import emit_items, reports_errors, stderr
from duplicate.cli.settings import settings_options

manifest_app = typer.Typer(
    name="manifest",
    help="Check a run manifest (--manifest) against the files.",
    no_args_is_help=True,
)


# A comparison's row, as json and csv give it.
CHECK_COLUMNS = ("item", "path", "recorded", "now", "agrees")


def register(app: typer.Typer) -> None:
    app.add_typer(manifest_app)


@manifest_app.command(name="check")
@reports_errors
@settings_options("output", skip=("output", "manifest"))
def check(
    manifest: Annotated[str, typer.Argument(metavar="MANIFEST", help="A run manifest.")],
    rerun: Annotated[
        bool,
        typer.Option(
            "--rerun/--no-rerun", help="Also run the recorded command again (default: yes)."
        ),
    ] = True,
    *,
    settings: dict[str, Any],
) -> None:
    """Hash every input and output of a run again and run its command again (its
    outputs into a temporary folder): one line per comparison on standard output,
    exit 0 when everything agrees, 1 listing what differs. Run it from the folder the
    command was run in: the recorded paths are as they were given. --format json or
    csv: each comparison as a row (item, path, recorded, now, agrees).

    Example: duplicate manifest check round3.manifest.json
    """
    import duplicate
    from duplicate.rules import Rules

    found = duplicate.check_manifest(manifest, rerun)
    if rerun and found.not_rerun:
        stderr.print(f"note: {found.not_rerun}: not run again")
    checks = [{name: getattr(c, name) for name in CHECK_COLUMNS} for c in found.checks]
    emit_items(
        "manifest check",
        "checks",
        Rules(),
        None,
        checks,
        {"manifest": manifest, "agrees": found.agrees},
        settings,
        lambda: ("\n".join(found.lines()) + "\n").encode("utf-8"),
        "table",
        CHECK_COLUMNS,
    )
    differ = sum(not c.agrees for c in found.checks)
    if differ:
        stderr.print(f"{differ} of {len(found.checks)} checks differ")
        raise typer.Exit(1)
    stderr.print(f"{manifest}: all {len(found.checks)} checks agree")
