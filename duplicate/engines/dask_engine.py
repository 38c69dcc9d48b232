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
import pyarrow as pa

from duplicate.errors import InvalidData, UsageError
from duplicate.model.adjustments import Adjustments, coverage_problems
from duplicate.model.columns import canonical_name
from duplicate.model.results import Results, columns_of, parse_results
from duplicate.rules import Rules
from duplicate.scoring.player_stats import PlayerStats, merge_stats, player_stats
from duplicate.scoring.row_order import canonical_order
from duplicate.scoring.score_table import ScoreBatches, format_scores
from duplicate.scoring.scores import score_rows
from duplicate.scoring.standings import rank_players

ROW = "_row"
PART = "_partition"


def _client(scheduler: str | None) -> Any:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UsageError(
            "the dask engine needs Dask: pip install 'duplicate[dask]'", "dask.not-installed"
        ) from None
    # The shuffle reports its progress as warnings; a scorer needs only errors.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    if scheduler:
        return Client(scheduler)
    # Any free port for the dashboard: the usual 8787 may be taken by another program.
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        silence_logs=logging.ERROR,
        dashboard_address=":0",
    )
    return Client(cluster)


def _score_partition(
    part: pd.DataFrame, source: str, rules: Rules, adjustments: Adjustments | None
) -> dict[str, Any]:
    """Validate and score one partition (whole rounds), as the local engine would.

    Problems are returned, not raised, so that the driver lists those of every partition.
    """
    if part.empty:
        return {}
    rows = part[ROW].to_numpy()
    raw = part.drop(columns=[ROW, PART]).reset_index(drop=True)
    try:
        results = parse_results(raw, source, deal_scope=rules.deal_scope, row_numbers=rows)
        mine = _in_partition(adjustments, results)
        scored = score_rows(results, rules, mine)
    except InvalidData as problems:
        return {"problems": problems.problems}
    matched = mine.frame["row"].to_numpy() if mine is not None else np.zeros(0, dtype=np.int64)
    return {"scored": scored, "results": results, "matched": matched}


def _stats_partition(
    part: pd.DataFrame, source: str, rules: Rules, adjustments: Adjustments | None
) -> dict[str, Any]:
    """A partition's player statistics: all the standings need, far smaller than its rows."""
    done = _score_partition(part, source, rules, adjustments)
    if "scored" in done:
        results: Results = done.pop("results")
        done["stats"] = player_stats(done.pop("scored"), results).without_rank_rows()
        done["results"] = replace(results, columns={})
    return done


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


def _run(
    raw: Any,
    task: Any,
    source: str,
    rules: Rules,
    adjustments: Adjustments | None,
    scheduler: str | None,
    first_row: int,
    partitions: int = 4,
) -> tuple[list[dict[str, Any]], bool]:
    """Run `task` on every (section, round) partition; the parts that have rows.

    Also says whether the input had a section column.
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
        if not rules.scope.spans_rounds:
            key = key + "\u0000" + frame[round_].astype(str)
        frame = frame.assign(**{PART: key}).shuffle(on=PART)
        # Each shuffled partition holds whole rounds: one task per partition.
        run = delayed(task)
        done = [
            d
            for d in compute(*[run(p, source, rules, adjustments) for p in frame.to_delayed()])
            if d
        ]
    finally:
        # A cluster started here stops with the work, before any output is written: a
        # reader that stops early (`| head`) ends this process at once, and workers left
        # running would say so on standard error.
        cluster = client.cluster
        client.close()
        if scheduler is None and cluster is not None:
            cluster.close()
    problems = [problem for d in done for problem in d.get("problems", [])]
    if adjustments is not None and not problems:
        matched = np.concatenate([d["matched"] for d in done] + [np.zeros(0, dtype=np.int64)])
        problems = coverage_problems(adjustments, matched, source)
    if problems:
        raise InvalidData(sorted(problems, key=lambda p: (p.source, p.rows[:1], p.message)))
    return done, had_section


def scored_rows_on_dask(
    raw: pd.DataFrame | Any,
    source: str,
    rules: Rules,
    adjustments: Adjustments | None = None,
    scheduler: str | None = None,
    first_row: int = 1,
) -> tuple[pd.DataFrame, Results]:
    """Every result scored on the cluster, and the Results that describe them.

    `raw` is a pandas or Dask DataFrame as read; `first_row` numbers its first row in
    messages (2 for a CSV file).
    """
    done, had_section = _run(
        raw, _score_partition, source, rules, adjustments, scheduler, first_row
    )
    return _as_results([(d["scored"], d["results"]) for d in done], source, rules, had_section)


def _as_results(
    scored: list[tuple[pd.DataFrame, Results]], source: str, rules: Rules, had_section: bool
) -> tuple[pd.DataFrame, Results]:
    """One Results over all partitions, as the local engine would have typed them.

    Scores go to the finest scale any partition used; an id column that is integer in
    some partitions and text in others becomes text throughout (integer ids are written
    without leading zeros, so their text is unchanged); a file without sections has one
    empty section, held as a category.
    """
    score_scale = max(results.score_scale for _, results in scored)
    seconds_scale = max(results.seconds_scale for _, results in scored)
    rescaled = []
    for rows, results in scored:
        rows["score_units"] *= 10 ** (score_scale - results.score_scale)
        if results.has_seconds:
            rows["seconds_units"] *= 10 ** (seconds_scale - results.seconds_scale)
        rescaled.append(rows)
    # The local engine keeps rows in file order; so do we, by row number.
    parts = pd.concat(rescaled, ignore_index=True)
    parts = parts.sort_values("row", kind="stable", ignore_index=True)
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
        columns=columns_of(parts),
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
) -> ScoreBatches:
    """`score`, computed on a Dask cluster: the same table as the local engine."""
    scored, results = scored_rows_on_dask(raw, source, rules, adjustments, scheduler, first_row)
    order = canonical_order(results)
    table = format_scores(scored if order is None else scored.take(order), results)
    return ScoreBatches.whole(table)


def standings_on_dask(
    raw: Any,
    source: str,
    rules: Rules,
    adjustments: Adjustments | None = None,
    scheduler: str | None = None,
    first_row: int = 1,
) -> ScoreBatches:
    """`standings` on a Dask cluster: per-player statistics reduced, then ranked here.

    The same table as the local engine: only the players' sums cross the network.
    """
    done, _ = _run(raw, _stats_partition, source, rules, adjustments, scheduler, first_row)
    seconds_scale = max(d["results"].seconds_scale for d in done)
    text_ids = any(isinstance(d["stats"].players["player"], pa.Array) for d in done)
    parts = []
    for d in done:
        stats: PlayerStats = d["stats"]
        players, ranks, beaten = dict(stats.players), stats.ranks, stats.beaten
        # Play times at the finest scale any partition used.
        factor = 10 ** (seconds_scale - d["results"].seconds_scale)
        for column in ("seconds_sum", "seconds_min", "seconds_max"):
            players[column] = players[column] * factor
        if text_ids:
            # Integer ids are written without leading zeros: as text they read the same.
            players["player"] = pa.array(players["player"]).cast(pa.large_string())
        parts.append(PlayerStats(players, ranks, beaten))
    summary = replace(done[0]["results"], seconds_scale=seconds_scale)
    return ScoreBatches.whole(rank_players(merge_stats(parts), summary, rules))


__all__ = ["score_on_dask", "scored_rows_on_dask", "standings_on_dask"]
