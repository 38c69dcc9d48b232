"""Hostile files against every command that reads them.

Whatever the bytes, a command ends with exit 0, 1, 2 or 3, shows no traceback, writes
no output file unless it succeeds, and when it succeeds on scores it was given as
text, agrees exactly with the literal reference (tests/reference.py).

`make test` runs a fixed number of examples, the same ones every run (derandomized:
a clean checkout's result does not depend on luck); `make fuzz` runs many more, new
ones each time (DUPLICATE_FUZZ_EXAMPLES).
"""

from __future__ import annotations

import io
import json
import os
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from duplicate.cli import app
from tests import reference
from tests.test_properties import events

runner = CliRunner()
ALLOWED_EXITS = {0, 1, 2, 3}

EXPLORING = "DUPLICATE_FUZZ_EXAMPLES" in os.environ
fuzz = settings(
    max_examples=int(os.environ.get("DUPLICATE_FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=not EXPLORING,
    database=None if not EXPLORING else settings.default.database,
)

# Cells a hostile or careless file holds where a number or an id belongs.
NASTY_CELLS = [
    "",
    " ",
    "-0",
    "+.5",
    "7.",
    ".",
    "-",
    "0x10",
    "1_000",
    "１２",
    "1e3",
    "1e308",
    "NaN",
    "inf",
    "-inf",
    "9" * 30,
    "9007199254740993",
    "-9223372036854775809",
    "18446744073709551616",
    "0.0000001",
    "8705559159.401450",
    "8705559159.401449",
    "3.3000000000000003",
    "=HYPERLINK(1)",
    '"',
    "a,b",
    "\x00",
    "\u202e",
    "😀",
    "郭涛",
    "x" * 300,
]
ENCODINGS = ["utf-8", "utf-8-sig", "gb18030", "utf-16", "big5", "latin-1", "cp1252"]
LINE_ENDS = ["\n", "\r\n", "\r"]
TYPES = [
    pa.int8(),
    pa.int64(),
    pa.uint64(),
    pa.float32(),
    pa.float64(),
    pa.string(),
    pa.large_string(),
    pa.bool_(),
    pa.decimal128(20, 4),
    pa.null(),
]
EXTREMES = [
    2**63 - 1,
    -(2**63),
    2**64 - 1,
    2**53 + 1,
    0.1,
    1e300,
    5e-324,
    float("nan"),
    float("inf"),
    -0.0,
]


def run(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def check_clean(result: Any, folder: Path, inputs: set[str]) -> None:
    """The contract every run keeps, whatever it was given."""
    assert result.exit_code in ALLOWED_EXITS, (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    assert "defect" not in result.stderr
    if result.exit_code != 0:
        left = {p.name for p in folder.iterdir()} - inputs
        assert left == set(), left


@st.composite
def csv_files(draw: st.DrawFn) -> bytes:
    """A real event's CSV, then broken: cells, header, encoding, line ends."""
    frame = draw(events()).astype("str")
    for _ in range(draw(st.integers(0, 6))):
        row = draw(st.integers(0, len(frame) - 1))
        column = draw(st.sampled_from(list(frame.columns)))
        frame.loc[row, column] = draw(st.sampled_from(NASTY_CELLS) | st.text(max_size=8))
    if draw(st.booleans()):
        frame = frame.drop(columns=draw(st.sampled_from(list(frame.columns))))
    if draw(st.booleans()):
        frame = frame.rename(
            columns={frame.columns[0]: draw(st.sampled_from(["得分", "Score", ""]))}
        )
    text = frame.to_csv(index=False, lineterminator=draw(st.sampled_from(LINE_ENDS)))
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.text(max_size=5)) + text[cut:]
    return text.encode(draw(st.sampled_from(ENCODINGS)), errors="replace")


@st.composite
def parquet_files(draw: st.DrawFn) -> bytes:
    """A real event as Parquet with columns of any type and extreme values."""
    frame = draw(events())
    columns = {}
    for name in frame.columns:
        kind = draw(st.sampled_from([None, *TYPES]))
        values = frame[name].tolist()
        if draw(st.integers(0, 3)) == 0:
            values[draw(st.integers(0, len(values) - 1))] = draw(st.sampled_from(EXTREMES))
        try:
            columns[name] = pa.array(values, type=kind, from_pandas=True)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            columns[name] = pa.array([str(v) for v in values])
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table(columns), sink)
    return bytes(sink.getvalue().to_pybytes())


any_results = st.one_of(
    csv_files().map(lambda data: (data, ".csv")),
    parquet_files().map(lambda data: (data, ".parquet")),
    st.binary(max_size=200).map(lambda data: (data, ".csv")),
    st.binary(max_size=200).map(lambda data: (b"PAR1" + data, ".parquet")),
)


@fuzz
@given(any_results, st.sampled_from(["score", "standings", "validate", "seat", "report"]))
def test_any_results_file_ends_cleanly(
    tmp_path_factory: Any, file: tuple[bytes, str], command: str
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    data, suffix = file
    results = folder / f"results{suffix}"
    results.write_bytes(data)
    out = folder / ("site" if command == "report" else "out.csv")
    args = [command, results] if command == "validate" else [command, results, "-o", out]
    check_clean(run(*args), folder, {results.name})


@fuzz
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
        max_leaves=12,
    )
    | st.fixed_dictionaries(
        {
            "standings": st.lists(
                st.dictionaries(
                    st.sampled_from(["player", "total", "place", "section"]),
                    st.integers() | st.text(max_size=4),
                ),
                max_size=4,
            )
        }
    ),
)
def test_any_published_json_is_verified_cleanly(tmp_path_factory: Any, document: object) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    results = folder / "results.csv"
    pd.DataFrame({"deal": [1, 1], "seat": [0, 0], "player": ["A", "B"], "score": [1, 2]}).to_csv(
        results, index=False
    )
    published = folder / "published.json"
    published.write_text(json.dumps(document, allow_nan=True))
    check_clean(run("verify", results, published), folder, {results.name, published.name})


@fuzz
@given(
    st.text(max_size=120)
    | st.binary(max_size=120).map(lambda b: b.decode("latin-1"))
    | st.sampled_from(
        [
            "[rank_points]\nbase = 1e400\n",
            "[rank_points]\nfactors = [nan, inf]\n",
            "[rank_points]\nbase = 0x10\n",
            "[rank_points]\nbase = 9223372036854775807\n",
            "[standard_points]\ntrim = -inf\n",
            "tie_breaks = 'beaten_avg'\n",
            "method = 7\n",
            "[games]\npaohuzi_min_huxi = -1\n",
        ]
    )
)
def test_any_rules_file_ends_cleanly(tmp_path_factory: Any, text: str) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    rules = folder / "event.rules.toml"
    rules.write_text(text, encoding="utf-8", errors="surrogatepass")
    for command in ("rules", "standings"):
        args = [command, "--rules", rules]
        if command == "standings":
            results = folder / "results.csv"
            pd.DataFrame(
                {"deal": [1, 1], "seat": [0, 0], "player": ["A", "B"], "score": [1, 2]}
            ).to_csv(results, index=False)
            args += [results, "-o", folder / "out.csv"]
        check_clean(run(*args), folder, {rules.name, "results.csv"})


decimals = st.decimals(
    min_value=Decimal("-1e12"), max_value=Decimal("1e12"), places=6, allow_nan=False
)
score_text = st.one_of(
    decimals.map(str),
    decimals.map(lambda d: format(d, "f")),
    st.sampled_from(["+.5", "7.", "-0", "0.000001", "8705559159.401450", "8705559159.401449"]),
)


@fuzz
@given(events(with_table=True), st.data())
def test_scores_written_as_any_decimal_agree_with_the_reference(
    event: pd.DataFrame, data: st.DataObject
) -> None:
    texts = [data.draw(score_text) for _ in range(len(event))]
    frame = event.assign(score=texts)
    source = io.StringIO()
    frame.to_csv(source, index=False)
    result = runner.invoke(app, ["score", "-", "-f", "csv"], input=source.getvalue())
    assert result.exit_code in ALLOWED_EXITS, result.stderr
    assert "Traceback" not in result.stderr
    if result.exit_code != 0:
        assert "exactly" in result.stderr, result.stderr
        return
    rows = [
        reference.Row(
            section=r["section"],
            round=int(r["round"]),
            deal=r["deal"],
            table=r["table"],
            seat=r["seat"],
            player=r["player"],
            score=Fraction(Decimal(r["score"])),
        )
        for r in frame.to_dict("records")
    ]
    reference.score_rows(rows)
    want = {
        (str(r.section), str(r.round), str(r.deal), str(r.player)): (
            str(r.mp),
            str(r.top),
            str(r.rank),
            str((Decimal(r.points_cents) / 100).quantize(Decimal("0.01"))),
        )
        for r in rows
    }
    got = pd.read_csv(io.StringIO(result.stdout), dtype=str, keep_default_na=False)
    have = {
        (r.section, r.round, r.deal, r.player): (r.mp, r.top, r.deal_rank, r.rank_points)
        for r in got.itertuples()
    }
    assert have == want
    # The scores come back as written, with the column's decimals.
    keys = got["section"] + "/" + got["round"] + "/" + got["deal"] + "/" + got["player"]
    shown = dict(zip(keys, got["score"], strict=True))
    for r in frame.to_dict("records"):
        key = f"{r['section']}/{r['round']}/{r['deal']}/{r['player']}"
        assert Decimal(shown[key]) == Decimal(r["score"])


def test_the_extremes_are_not_all_alike() -> None:
    """The fuzzing's own inputs: the extremes reach Parquet as typed values."""
    assert pa.array([2**64 - 1], type=pa.uint64())[0].as_py() == 2**64 - 1
    assert np.isnan(pa.array([float("nan")])[0].as_py())


def small_event(folder: Path) -> Path:
    results = folder / "results.csv"
    pd.DataFrame(
        {
            "deal": [1, 1, 2, 2],
            "table": [1, 1, 1, 1],
            "seat": [0, 1, 0, 1],
            "player": ["A", "B", "A", "B"],
            "score": [1, 2, 3, 1],
        }
    ).to_csv(results, index=False)
    return results


side_file = st.one_of(
    st.binary(max_size=200),
    st.lists(
        st.lists(st.sampled_from(NASTY_CELLS) | st.text(max_size=5), min_size=1, max_size=7),
        min_size=1,
        max_size=6,
    ).map(lambda rows: "\n".join(",".join(row) for row in rows).encode("utf-8", "replace")),
    st.sampled_from(
        [
            b"round,deal,player,kind,value,reason\n1,1,A,penalty,1e400,x\n",
            b"round,deal,player,kind,value,reason\n1,1,A,mp_pct,-1,x\n",
            b"round,deal,player,kind,value,reason\n99999999999999999999,1,A,void,,x\n",
            b"player,partner\nA,A\n",
            b"player,partner\nA,B\nB,C\n",
            b"player,name,status,registered\nA,,withdrawn,not-a-date\n",
            b"player,game_id,finished_at,outcome\nA,1,2026-13-45T99:00,win\n",
            b"player,game_id,finished_at,outcome\nA,1,2026-01-01T00:00:00+99:00,win\n",
            b"round,deal,table,seat,player,cards_left\n1,1,1,0,A,-5\n1,1,1,1,B,99\n",
            b"round,deal,table,seat,section,player,bye\n1,1,1,0,,A,maybe\n",
            b"hand,minute,table,seat,player,score\n1,1e9,1,0,A,999999999\n1,1e9,1,1,B,-999999999\n",
            b"hand,minute,table,seat,player,score\n1,0,1,0,A,5\n1,0,1,1,B,-5\n2,0,1,0,A,1\n",
            b"hand,finished_at,table,seat,player,score\n1,2026-01-01T00:00Z,1,0,A,1\n"
            b"1,2026-01-01T00:00Z,1,1,B,-1\n2,1970-01-01,1,0,B,1\n2,1970-01-01,1,1,A,-1\n",
        ]
    ),
)

# Each command that reads a side file, as (arguments, where the file goes).
SIDE_COMMANDS = [
    ["standings", "{results}", "--adjustments", "{side}", "-o", "{out}"],
    ["explain", "A", "{results}", "--adjustments", "{side}"],
    ["seat", "{results}", "--players", "{side}", "-o", "{out}"],
    ["seat", "--round", "1", "--seed", "7", "--players", "{side}", "-o", "{out}"],
    ["seat", "{results}", "--partners", "{side}", "-o", "{out}"],
    ["validate", "{results}", "--seating", "{side}"],
    ["leaderboard", "{side}", "-o", "{out}"],
    ["leaderboard", "{side}", "--scheme", "guandan", "-o", "{out}"],
    ["game-score", "--game", "big2", "{side}", "-o", "{out}"],
    ["game-score", "--game", "doudizhu", "{side}", "-o", "{out}"],
    ["game-score", "--game", "paohuzi", "{side}", "-o", "{out}"],
    ["explain", "{side}", "{results}"],
    ["elimination", "{side}", "--ledger", "{out}.ledger.csv", "-o", "{out}"],
    ["elimination", "{side}", "--ass", "1", "--advance", "2", "--carry", "sqrt", "-o", "{out}"],
    ["final", "{side}", "--hands", "2", "-o", "{out}"],
    ["final", "{results}", "--hands", "2", "--carried", "{side}", "-o", "{out}"],
]


@fuzz
@given(side_file, st.sampled_from(SIDE_COMMANDS))
def test_any_side_file_ends_cleanly(tmp_path_factory: Any, data: bytes, command: list[str]) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    results = small_event(folder)
    side = folder / "side.csv"
    side.write_bytes(data)
    names = {"results": results, "side": side, "out": folder / "out.csv"}
    args = [part.format(**names) for part in command]
    if command[0] == "explain" and command[1] == "{side}":
        args[1] = data.decode("utf-8", "replace")[:20] or "A"
    check_clean(run(*args), folder, {results.name, side.name})
