"""The same scoring on a Dask cluster (optional: `pip install duplicate[dask]`).

Results are partitioned by (section, round): every deal, and every check the
validation makes, lies within one partition. Each worker validates and scores its
partitions with the very kernel the local engine uses; the scored rows come back and
are formatted and ordered as locally, so both engines write the same bytes.
With deal_scope "event" the partitions are whole sections.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from duplicate.core.adjustments import Adjustments, match_adjustments
from duplicate.core.columns import canonical_name
from duplicate.core.results import Results, parse_results
from duplicate.core.scoring import canonical_order, format_scores, score_rows
from duplicate.errors import InvalidData, UsageError
from duplicate.rules import Rules

ROW = "_row"
PROBLEMS = "_problems"
PART = "_partition"


def _client(scheduler: str | None) -> Any:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("the dask engine needs Dask: pip install 'duplicate[dask]'") from None
    # The shuffle reports its progress as warnings; a scorer needs only errors.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    if scheduler:
        return Client(scheduler)
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, silence_logs=logging.ERROR
    )
    return Client(cluster)


def _score_partition(
    part: pd.DataFrame, source: str, rules: Rules, adjustments: Adjustments | None
) -> pd.DataFrame:
    """Validate and score one partition (whole rounds), as the local engine would."""
    if part.empty:
        return pd.DataFrame()
    rows = part[ROW].to_numpy()
    raw = part.drop(columns=[ROW, PART]).reset_index(drop=True)
    try:
        results = parse_results(raw, source, deal_scope=rules.deal_scope, row_numbers=rows)
        scored = score_rows(results, rules, _in_partition(adjustments, results))
    except InvalidData as problems:
        # Returned, not raised: the driver lists the problems of every partition.
        return pd.DataFrame({PROBLEMS: [problems.problems]})
    scored["_score_scale"] = results.score_scale
    scored["_seconds_scale"] = results.seconds_scale
    return scored


def _in_partition(adjustments: Adjustments | None, results: Results) -> Adjustments | None:
    """The adjustments that name a result of this partition (the driver checks the rest)."""
    if adjustments is None:
        return None
    frame = results.frame
    here = pd.DataFrame(
        {
            "round": frame["round"].to_numpy(dtype=np.int64),
            "deal": frame["deal"].astype("str").to_numpy(),
            "player": frame["player"].astype("str").to_numpy(),
        }
    ).drop_duplicates()
    mine = adjustments.frame.merge(here, on=["round", "deal", "player"])
    return replace(adjustments, frame=mine) if len(mine) else None


def scored_rows_on_dask(
    raw: pd.DataFrame | Any,
    source: str,
    rules: Rules,
    adjustments: Adjustments | None = None,
    scheduler: str | None = None,
    first_row: int = 1,
    partitions: int = 4,
) -> tuple[pd.DataFrame, Results]:
    """Every result scored on the cluster, and the Results that describe them.

    `raw` is a pandas or Dask DataFrame as read; `first_row` numbers its first row in
    messages (2 for a CSV file).
    """
    import dask.dataframe as dd
    from dask.base import compute
    from dask.delayed import delayed

    client = _client(scheduler)
    try:
        frame = (
            raw if isinstance(raw, dd.DataFrame) else dd.from_pandas(raw, npartitions=partitions)
        )
        names = {canonical_name(str(c)): str(c) for c in frame.columns}
        had_section = "section" in names
        section = names.get("section", "section")
        round_ = names.get("round", "round")
        if not had_section:
            frame = frame.assign(section="")
        if "round" not in names:
            frame = frame.assign(round="1")
        frame = frame.assign(**{ROW: 1})
        frame = frame.assign(**{ROW: frame[ROW].cumsum() + (first_row - 1)})
        key = frame[section].astype(str)
        if rules.deal_scope == "round":
            key = key + "\u0000" + frame[round_].astype(str)
        frame = frame.assign(**{PART: key}).shuffle(on=PART)
        # Each shuffled partition holds whole rounds: one scoring task per partition.
        score_part = delayed(_score_partition)
        tasks = [score_part(part, source, rules, adjustments) for part in frame.to_delayed()]
        done = [p for p in compute(*tasks) if len(p)]
    finally:
        client.close()
    problems = [problem for p in done if PROBLEMS in p for problem in p[PROBLEMS].iloc[0]]
    if problems:
        raise InvalidData(sorted(problems, key=lambda p: (p.rows[:1], p.message)))
    scored = [p for p in done if PROBLEMS not in p]
    parts, results = _as_results(pd.concat(scored, ignore_index=True), source, rules, had_section)
    if adjustments is not None:
        # Every adjustment must name a result somewhere: the same check, over all parts.
        match_adjustments(results, adjustments)
    return parts, results


def _as_results(
    parts: pd.DataFrame, source: str, rules: Rules, had_section: bool
) -> tuple[pd.DataFrame, Results]:
    """One Results over all partitions, as the local engine would have typed them.

    Scores go to the finest scale any partition used; an id column that is integer in
    some partitions and text in others becomes text throughout (integer ids are written
    without leading zeros, so their text is unchanged); a file without sections has one
    empty section, held as a category.
    """
    # The local engine keeps rows in file order; so do we, by row number.
    parts = parts.sort_values("row", kind="stable", ignore_index=True)
    score_scale = int(parts["_score_scale"].max())
    seconds_scale = int(parts["_seconds_scale"].max())
    parts["score_units"] = parts["score_units"] * 10 ** (score_scale - parts["_score_scale"])
    if "seconds_units" in parts:
        parts["seconds_units"] = parts["seconds_units"] * 10 ** (
            seconds_scale - parts["_seconds_scale"]
        )
    parts = parts.drop(columns=["_score_scale", "_seconds_scale"])
    for name in ("deal", "table", "seat", "player"):
        if name in parts and not pd.api.types.is_integer_dtype(parts[name].dtype):
            parts[name] = parts[name].astype("str")
    if had_section:
        parts["section"] = parts["section"].astype("str")
    else:
        parts["section"] = pd.Categorical.from_codes(
            np.zeros(len(parts), dtype=np.int8), dtype=pd.CategoricalDtype([""])
        )
    results = Results(
        frame=parts,
        source=source,
        has_table="table" in parts,
        has_seconds="seconds_units" in parts,
        score_scale=score_scale,
        seconds_scale=seconds_scale,
        deal_scope=rules.deal_scope,
    )
    return parts, results


def score_on_dask(
    raw: Any,
    source: str,
    rules: Rules,
    adjustments: Adjustments | None = None,
    scheduler: str | None = None,
    first_row: int = 1,
) -> pd.DataFrame:
    """`score`, computed on a Dask cluster: the same table as the local engine."""
    scored, results = scored_rows_on_dask(raw, source, rules, adjustments, scheduler, first_row)
    order = canonical_order(results)
    return format_scores(scored if order is None else scored.take(order), results)


def standings_on_dask(
    raw: Any,
    source: str,
    rules: Rules,
    adjustments: Adjustments | None = None,
    scheduler: str | None = None,
    first_row: int = 1,
) -> pd.DataFrame:
    """`standings` from rows scored on a Dask cluster: the same table as the local engine."""
    from duplicate.core.standings import rank_scored_rows

    scored, results = scored_rows_on_dask(raw, source, rules, adjustments, scheduler, first_row)
    return rank_scored_rows(scored, results, rules)


__all__ = ["score_on_dask", "scored_rows_on_dask", "standings_on_dask"]
