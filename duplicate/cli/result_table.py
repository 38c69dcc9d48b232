"""The shape shared by `score` and `standings`: the event, a table, published."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any, Literal

import typer

from duplicate.cli.common import SourceArg, emit, load, reports_errors, working
from duplicate.cli.settings import of_groups, settings_options


class Engine(StrEnum):
    local = "local"
    dask = "dask"


EngineOpt = Annotated[
    Engine,
    typer.Option(
        "--engine",
        help="local (this machine), or dask (a cluster; pip install 'duplicate[dask]').",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="With --engine dask: the scheduler's address. Default: a local cluster of 2.",
        metavar="ADDRESS",
    ),
]


def result_table_command(kind: Literal["score", "standings"], doc: str) -> Callable[..., None]:
    """The `score` or `standings` command (`kind` names the library function)."""

    @reports_errors
    @settings_options("scoring", "source", "output")
    def command(
        source: SourceArg,
        engine: EngineOpt = Engine.local,
        scheduler: SchedulerOpt = None,
        *,
        settings: dict[str, Any],
    ) -> None:
        import duplicate

        if engine is Engine.dask:
            from duplicate.actions.distributed import on_dask
            from duplicate.cli.common import max_rows, say_warnings

            with working(f"computing {kind} on Dask"):
                read = of_groups(settings, "scoring", "source")
                table = on_dask(kind, source, scheduler, max_rows=max_rows(), **read)
            if table.event is not None:
                say_warnings(table.event.warnings)
        else:
            event = load(source, settings)
            with working(f"computing {kind}"):
                table = getattr(duplicate, kind)(event)
        emit(table, "scores" if kind == "score" else kind, settings)

    command.__doc__ = doc
    return command
