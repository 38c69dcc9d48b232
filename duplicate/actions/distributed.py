"""`score` and `standings` on a Dask cluster (`--engine dask`): the same tables."""

from __future__ import annotations

from typing import Any, Literal

from duplicate.errors import UsageError
from duplicate.output import Table
from duplicate.rules import Rules


def on_dask(
    kind: Literal["score", "standings"],
    source: Any,
    scheduler: str | None = None,
    rules: Rules | None = None,
    max_rows: int | None = None,
    **settings: Any,
) -> Table:
    """`score` or `standings` of `source` (a results file or a folder of Parquet files)
    computed on a Dask cluster (`scheduler`: its address; a local cluster of 2 workers
    otherwise). A Parquet input is read by the workers, never whole here.

        >>> import duplicate.actions.distributed as d
        >>> d.on_dask("standings", "results.parquet").frame  # doctest: +SKIP
    """
    from duplicate.event import Event, Part
    from duplicate.io.read import read_adjustments, read_raw
    from duplicate.io.source import resolve
    from duplicate.load import rules_given
    from duplicate.options import RULES, given
    from duplicate.rules import load_rules
    from duplicate.scoring.methods import method_of, unused_settings

    values = given(settings, *RULES, "source")
    start = rules or (load_rules(values["rules_file"]) if "rules_file" in values else Rules())
    chosen = start.with_settings(**rules_given(values))
    method = method_of(chosen)
    if not method.distributed:
        raise method.unsupported("the dask engine")
    if chosen.factoring != "none":
        raise UsageError("{opt:factoring} runs on the local engine only", "dask.local-only")
    if chosen.sections == "one-field":
        # A partition holds a section: a field across sections needs them together.
        raise UsageError(
            "sections matchpointed as one field need the whole event at once: "
            "they run on the local engine, not on {opt:engine=dask}",
            "rules.conflict",
        )
    try:
        import dask  # noqa: F401  (the engine imports it where it runs)

        from duplicate.engines import dask_engine
    except ImportError:
        raise UsageError(
            "the dask engine needs Dask: pip install 'duplicate[dask]'", "dask.not-installed"
        ) from None
    encoding = values.get("encoding")
    corrections = (
        read_adjustments(values["adjustments"], encoding, max_rows)
        if "adjustments" in values
        else None
    )
    if corrections is not None and corrections.whole_event_kinds():
        kinds = ", ".join(corrections.whole_event_kinds())
        raise UsageError(
            f"adjustments of kind {kinds} run on the local engine only", "dask.local-only"
        )
    where = resolve(source)
    run = dask_engine.score_on_dask if kind == "score" else dask_engine.standings_on_dask
    if where.kind != "csv" and not where.is_stdin:
        import dask.dataframe as dd

        # Parquet is read by the workers, never whole on this machine.
        table = run(dd.read_parquet(str(source)), where.name, chosen, corrections, scheduler)
        rows = None
    else:
        raw, first_row = read_raw(where, encoding, max_rows)
        table = run(raw, where.name, chosen, corrections, scheduler, first_row)
        rows = len(raw)
    parts = [Part("results", str(source), rows)]
    if corrections is not None:
        parts.append(Part("adjustments", str(values["adjustments"]), len(corrections.frame)))
    unused = unused_settings(chosen, rules_given(values), where.name)
    event = Event(
        where.name, chosen, adjustments=corrections, parts=tuple(parts), warnings=tuple(unused)
    )
    return Table("scores" if kind == "score" else "standings", chosen, table, event=event)
