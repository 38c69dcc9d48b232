"""Hostile and malformed input: every case ends with a documented exit code and a
message that says what to fix; a wrong number or a damaged file is never the answer."""

from __future__ import annotations

import io
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import SAMPLE, codes, line_of, run_main

runner = CliRunner()
EVENT = SAMPLE / "big2_event.csv"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def one_round(tmp_path: Path) -> Path:
    path = tmp_path / "round1.csv"
    frame = pd.read_csv(EVENT, dtype=str)
    frame[frame["round"] == "1"].to_csv(path, index=False)
    return path


def test_a_long_list_of_problems_is_cut_after_50_with_a_count(tmp_path: Path) -> None:
    n = 20_000
    path = tmp_path / "bad.csv"
    pd.DataFrame(
        {"deal": np.arange(n) // 4, "seat": np.arange(n) % 4, "player": np.arange(n) % 4}
    ).assign(score="x").to_csv(path, index=False)
    code, _, err = run("validate", path)
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 52
    assert codes(err) == ["cell.not-a-score"] * 51
    assert "19950 more problems of this kind" in lines[-2]
    assert lines[-1] == "20000 problems found; nothing was written."


def test_many_seating_conflicts_are_cut_after_50(tmp_path: Path) -> None:
    n = 2_000
    path = tmp_path / "twice.csv"
    pd.DataFrame({"deal": 1, "seat": 0, "player": np.arange(n) // 2, "score": 1}).to_csv(
        path, index=False
    )
    code, _, err = run("validate", path)
    assert code == 1
    assert len(err.splitlines()) == 52
    assert codes(err) == ["seating.played-twice"] * 51
    assert "950 more problems of this kind" in err
    assert "1000 problems found" in err


def test_a_csv_file_with_old_mac_line_ends_reads_like_any_other(tmp_path: Path) -> None:
    plain = one_round(tmp_path)
    mac = tmp_path / "mac.csv"
    mac.write_bytes(plain.read_bytes().replace(b"\n", b"\r"))
    assert run("score", mac, "-f", "csv")[:2] == run("score", plain, "-f", "csv")[:2]


def test_verify_refuses_standings_with_no_rows_or_no_players(tmp_path: Path) -> None:
    results = one_round(tmp_path)
    for document, problem in (
        ('{"standings": []}', "published.no-player"),
        ('{"standings": [1, 2]}', "published.no-standings"),
        ('{"rows": []}', "published.no-standings"),
    ):
        published = tmp_path / "standings.json"
        published.write_text(document)
        code, _, err = run("verify", results, published)
        assert code == 1, err
        assert codes(err) == [problem]
        assert str(published) in line_of(problem, err)
        assert "Traceback" not in err


def test_verify_refuses_deeply_nested_json(tmp_path: Path) -> None:
    published = tmp_path / "nested.json"
    published.write_text('{"standings": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code, _, err = run("verify", one_round(tmp_path), published)
    assert code == 1
    assert codes(err) == ["published.not-json"]


def test_verify_compares_ids_as_written(tmp_path: Path) -> None:
    """007 and 7 are two players: swapping their rows is a difference."""
    frame = pd.read_csv(one_round(tmp_path), dtype=str)
    players = sorted(frame["player"].unique())
    frame["player"] = frame["player"].replace({players[0]: "007", players[1]: "7"})
    results = tmp_path / "ids.csv"
    frame.to_csv(results, index=False)
    published = tmp_path / "standings.csv"
    assert run("standings", results, "-o", published)[0] == 0
    assert run("verify", results, published)[0] == 0
    text = published.read_text()
    swapped = text.replace(",007,", ",@@,").replace(",7,", ",007,").replace(",@@,", ",7,")
    assert swapped != text
    published.write_text(swapped)
    code, out, _ = run("verify", results, published)
    assert code == 1
    assert {"007", "7"} <= set(pd.read_csv(io.StringIO(out), dtype=str)["player"])


def test_verify_finds_a_repeated_row(tmp_path: Path) -> None:
    results = one_round(tmp_path)
    published = tmp_path / "standings.csv"
    assert run("standings", results, "-o", published)[0] == 0
    lines = published.read_text().splitlines()
    published.write_text("\n".join([*lines, lines[1]]) + "\n")
    code, out, _ = run("verify", results, published)
    assert code == 1
    found = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert found.to_dict("records") == [
        {
            "section": "",
            "player": lines[1].split(",")[2],
            "field": "player",
            "published": "2 rows",
            "recomputed": "1 row",
        }
    ]


def test_verify_shows_published_numbers_as_written(tmp_path: Path) -> None:
    results = one_round(tmp_path)
    published = tmp_path / "standings.json"
    assert run("standings", results, "-o", published)[0] == 0
    document = json.loads(published.read_text())
    document["items"][0]["total"] = "1.50"
    published.write_text(json.dumps(document))
    code, out, _ = run("verify", results, published)
    assert code == 1
    assert ",total,1.50," in out


def test_seat_bounds_the_repeat_avoiding_search(tmp_path: Path) -> None:
    out = tmp_path / "seats.csv"
    code, _, err = run("seat", EVENT, "-k", "7", "-o", out)
    assert code == 0
    assert "tables of 7 are too large for the repeat-avoiding search: the snake kept" in err
    code, _, err = run("seat", EVENT, "-k", "6", "--window", "12", "-o", out)
    assert code == 2
    assert codes(err) == ["seat.window"]
    code, _, err = run("seat", EVENT, "-k", "9", "--force", "-o", out)
    assert code == 0, err


def with_scores(tmp_path: Path, values: dict[int, object], name: str = "scores.csv") -> Path:
    frame = pd.read_csv(one_round(tmp_path), dtype=str)
    for row, value in values.items():
        frame.loc[row, "score"] = value
    path = tmp_path / name
    if name.endswith(".parquet"):
        frame.to_parquet(path, index=False)
    else:
        frame.to_csv(path, index=False)
    return path


def test_penalties_too_large_to_total_are_refused(tmp_path: Path) -> None:
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text(
        "round,deal,player,kind,value,reason\n"
        "1,1,P17,penalty,50000000000000000,late\n1,2,P17,penalty,50000000000000000,late\n"
    )
    code, _, err = run("standings", one_round(tmp_path), "--adjustments", adjustments)
    assert code == 1
    assert codes(err) == ["adjustment.bad-value"] * 2
    assert "'50000000000000000'" in line_of("adjustment.bad-value", err)


def test_penalties_are_taken_exactly(tmp_path: Path) -> None:
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text("round,deal,player,kind,value,reason\n1,1,P17,penalty,999999999.99,x\n")
    code, out, err = run("standings", one_round(tmp_path), "--adjustments", adjustments)
    assert code == 0, err
    row = pd.read_csv(io.StringIO(out), dtype=str).set_index("player").loc["P17"]
    assert row["penalty"] == "999999999.99"


def test_a_header_only_adjustments_file_changes_nothing(tmp_path: Path) -> None:
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text("round,deal,player,kind,value,reason\n")
    results = one_round(tmp_path)
    assert run("standings", results, "--adjustments", adjustments)[:2] == (
        0,
        run("standings", results)[1],
    )


@pytest.mark.parametrize(
    ("flag", "value", "problem"),
    [
        ("--rank-base", "4e16", "option.bad-number"),
        ("--rank-base", "1_000", "option.bad-number"),
        ("--rank-base", "１０", "option.bad-number"),
        ("--rank-base", "40000000000000000", "rules.too-large"),
        ("--rank-factors", "nan", "option.bad-number"),
        ("--rank-factors", "1,0x1", "option.bad-number"),
        ("--rank-factors", "1e3", "option.bad-number"),
        ("--rank-factors", "1,inf", "option.bad-number"),
    ],
)
def test_rule_flags_take_plain_numbers_only(
    tmp_path: Path, flag: str, value: str, problem: str
) -> None:
    code, _, err = run("standings", one_round(tmp_path), flag, value)
    assert code == 2
    assert codes(err) == [problem]


@pytest.mark.parametrize(
    ("data", "accepted"),
    [
        (b"\xef\xbb\xbftie_ranking = 'dense'\n", True),
        ("tie_ranking = 'dense'\n".encode("utf-16"), True),
        (bytes(range(256)) * 3, False),
        ("tie_ranking = 'dense'\n".encode("utf-16-le"), False),
        (b"[rank_points]\nfactors = [1.0, nan]\n", False),
    ],
)
def test_rules_files_in_any_encoding_are_read_or_refused(
    tmp_path: Path, data: bytes, accepted: bool
) -> None:
    rules = tmp_path / "event.rules.toml"
    rules.write_bytes(data)
    code, _, err = run("standings", one_round(tmp_path), "--rules", rules)
    assert code == (0 if accepted else 2), err
    assert "Traceback" not in err
    assert "defect" not in err


@pytest.mark.parametrize(
    "value", ["8705559159.4014501", "99999999999999999", "0x10", "1_0", "１０"]
)
def test_scores_are_held_exactly_or_refused_naming_the_value(tmp_path: Path, value: str) -> None:
    code, _, err = run("score", with_scores(tmp_path, {0: value}))
    assert code == 1
    assert codes(err) == ["cell.not-a-score"]
    assert f"'{value}'" in line_of("cell.not-a-score", err)


def test_close_decimals_do_not_tie(tmp_path: Path) -> None:
    path = with_scores(tmp_path, {0: "8705559159.401450", 4: "8705559159.401449"})
    code, out, _ = run("score", path)
    assert code == 0
    scored = pd.read_csv(io.StringIO(out), dtype=str)
    assert set(scored["score"]) >= {"8705559159.401450", "8705559159.401449"}
    mp = scored.set_index("score")["mp"].astype(int)
    assert mp["8705559159.401450"] == mp["8705559159.401449"] + 2


def test_parquet_floats_and_large_integers(tmp_path: Path) -> None:
    frame = pd.read_csv(one_round(tmp_path))
    frame["score"] = frame["score"].astype(float)
    frame.loc[0, "score"] = 0.00005
    path = tmp_path / "floats.parquet"
    frame.to_parquet(path, index=False)
    assert run("score", path)[0] == 0
    frame.loc[0, "score"] = 3.3000000000000003
    frame.to_parquet(path, index=False)
    code, _, err = run("score", path)
    assert code == 1
    assert codes(err) == ["cell.not-a-score"]
    assert "3.3000000000000003" in line_of("cell.not-a-score", err)
    table = pa.Table.from_pandas(frame.drop(columns="score"), preserve_index=False)
    table = table.append_column("score", pa.array([2**63 + 5] * len(frame), pa.uint64()))
    pq.write_table(table, path)
    code, _, err = run("score", path)
    assert code == 1
    assert set(codes(err)) == {"cell.not-a-score"}
    assert "9223372036854775813" in line_of("cell.not-a-score", err)


def test_a_column_whose_total_could_overflow_is_refused(tmp_path: Path) -> None:
    frame = pd.read_csv(one_round(tmp_path))
    frame["seconds"] = 2**52
    path = tmp_path / "times.parquet"
    pd.concat([frame] * 2).assign(round=np.repeat([1, 2], len(frame))).to_parquet(path, index=False)
    code, _, err = run("standings", path)
    assert code == 1
    assert codes(err) == ["number.column-too-large"]
    assert "column 'seconds'" in line_of("number.column-too-large", err)


def test_no_output_replaces_the_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "event.rules.toml"
    rules.write_text("# the event's own notes\ntie_ranking = 'dense'\n")
    before = rules.read_bytes()
    for args in (
        ["score", one_round(tmp_path), "-o", tmp_path / "event.csv"],
        ["standings", one_round(tmp_path), "-o", rules],
        ["standings", one_round(tmp_path), "--manifest", rules, "-o", tmp_path / "s.json"],
        ["seat", one_round(tmp_path), "-o", tmp_path / "event.csv"],
    ):
        code, _, err = run(*args, "--rules", rules)
        assert code == 2, err
        assert codes(err) == ["output.is-input"]
        assert rules.read_bytes() == before
        assert not (tmp_path / "event.csv").exists()


def test_an_output_and_its_sidecar_arrive_together_or_not_at_all(tmp_path: Path) -> None:
    (tmp_path / "out.rules.toml").mkdir()
    code, _, err = run("score", one_round(tmp_path), "-o", tmp_path / "out.csv")
    assert code == 3
    assert codes(err) == ["io.unwritable"]
    assert "out.rules.toml" in line_of("io.unwritable", err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.rules.toml", "round1.csv"]


def test_outputs_follow_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        assert run("score", one_round(tmp_path), "-o", tmp_path / "out.csv")[0] == 0
        assert run("report", one_round(tmp_path), "-o", tmp_path / "site")[0] == 0
    finally:
        os.umask(previous)
    if os.name == "posix":
        for name, mode in [("out.csv", 0o644), ("out.rules.toml", 0o644), ("site", 0o755)]:
            assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


def test_a_report_into_the_current_folder_is_refused_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = one_round(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.chdir(site)
    code, _, err = run("report", results, "-o", ".")
    assert code == 2
    assert codes(err) == ["output.folder"]
    assert list(site.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["round1.csv", "site"]


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="SIGTERM is a POSIX signal")
@pytest.mark.parametrize(("stop", "status"), [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_stop_while_writing_leaves_no_file_behind(tmp_path: Path, stop: str, status: int) -> None:
    n = 2_000_000
    rng = np.random.default_rng(1)
    results = tmp_path / "big.parquet"
    pd.DataFrame(
        {
            "deal": np.arange(n) // 1000 % 20,
            "table": np.arange(n) // 4 % 250,
            "seat": np.arange(n) % 4,
            "round": np.arange(n) // 20_000 + 1,
            "player": (np.arange(n) % 1000),
            "score": rng.integers(-50, 50, n),
        }
    ).to_parquet(results)
    out = tmp_path / "out.csv"
    interrupted = 0
    for _ in range(3):
        process = subprocess.Popen(
            [sys.executable, "-m", "duplicate", "score", str(results), "-o", str(out)],
            stderr=subprocess.PIPE,
            # A job started in the background inherits SIGINT ignored; a user's is not.
            preexec_fn=_default_signals,
        )
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob(".out.csv.*.tmp")) and process.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.005)
        process.send_signal(getattr(signal, stop))
        process.communicate(timeout=60)
        left = sorted(p.name for p in tmp_path.iterdir())
        if process.returncode == 0:
            # The signal came after the file was in place: whole, and no temporary left.
            assert left == ["big.parquet", "out.csv", "out.rules.toml"]
            assert len(out.read_text().splitlines()) == n + 1
            out.unlink()
            (tmp_path / "out.rules.toml").unlink()
            continue
        assert process.returncode == status
        assert left == ["big.parquet"]
        interrupted += 1
        break
    assert interrupted, "no run was stopped while writing"


def _default_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def chinese_round(tmp_path: Path) -> pd.DataFrame:
    frame = pd.read_csv(one_round(tmp_path), dtype=str)
    first = sorted(frame["player"].unique())[:4]
    names = dict(zip(first, ["張三豐", "王小明", "李四", "陳大文"], strict=True))
    frame["player"] = frame["player"].replace(names)
    return frame


def test_big5_is_never_read_as_gb18030(tmp_path: Path) -> None:
    frame = chinese_round(tmp_path)
    path = tmp_path / "big5.csv"
    frame.to_csv(path, index=False, encoding="big5")
    code, _, err = run("score", path)
    assert code == 1
    assert codes(err) == ["input.big5"]
    assert "--encoding big5" in line_of("input.big5", err)
    code, out, _ = run("standings", path, "--encoding", "big5")
    assert code == 0
    assert "張三豐" in out


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "gb18030"])
def test_chinese_text_in_the_usual_encodings_is_read(tmp_path: Path, encoding: str) -> None:
    frame = chinese_round(tmp_path).replace({"張三豐": "郭涛", "陳大文": "锄大地"})
    path = tmp_path / "names.csv"
    frame.to_csv(path, index=False, encoding=encoding)
    code, out, err = run("standings", path)
    assert code == 0, err
    assert "郭涛" in out
    assert "锄大地" in out


def test_utf16_without_its_bom_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "utf16.csv"
    path.write_bytes(one_round(tmp_path).read_text().encode("utf-16-le"))
    code, _, err = run("validate", path)
    assert code == 1
    assert codes(err) == ["input.binary"]


@pytest.mark.parametrize("name", ["big2_event.csv", "big2_event.parquet"])
def test_inputs_past_the_row_limit_are_refused_before_parsing(name: str) -> None:
    code, _, err = run("--max-rows", "1000", "standings", SAMPLE / name)
    assert code == 1
    assert codes(err) == ["input.too-many-rows"]
    assert "1,000" in line_of("input.too-many-rows", err)
    assert "--max-rows" in line_of("input.too-many-rows", err)
    assert run("--max-rows", "1152", "standings", SAMPLE / name)[0] == 0
    assert run("--max-rows", "0", "standings", SAMPLE / name)[0] == 0


def test_a_parquet_footer_claiming_many_rows_is_refused_from_the_footer(tmp_path: Path) -> None:
    """A few KB that declare 2 million rows: refused before any row is read."""
    path = tmp_path / "claims.parquet"
    n = 2_000_000
    table = pa.table(
        {c: pa.array(np.zeros(n, dtype=np.int8)) for c in ("deal", "seat", "player", "score")}
    )
    pq.write_table(table, path, compression="zstd")
    assert path.stat().st_size < 100_000
    code, _, err = run("--max-rows", "1000000", "validate", path)
    assert code == 1
    assert codes(err) == ["input.too-many-rows"]
    assert "2,000,000" in line_of("input.too-many-rows", err)


def test_identifiers_beyond_int64_keep_their_digits(tmp_path: Path) -> None:
    path = tmp_path / "ids.parquet"
    pq.write_table(
        pa.table(
            {
                "deal": [1, 1],
                "seat": pa.array([0.0, float("inf")]),
                "player": pa.array([2**64 - 1, 5], pa.uint64()),
                "score": [0, 1],
            }
        ),
        path,
    )
    code, out, err = run("standings", path)
    assert code == 0, err
    assert ",18446744073709551615," in out
    pq.write_table(
        pa.table({"round": [2**63 - 1], "deal": [1], "seat": [0], "player": [1], "score": [0]}),
        path,
    )
    code, _, err = run("seat", path)
    assert code == 1
    assert codes(err) == ["cell.not-a-round"]
    assert "9223372036854775807" in line_of("cell.not-a-round", err)


def test_standard_points_refuse_what_they_cannot_hold(tmp_path: Path) -> None:
    n = 3000
    path = tmp_path / "huge.parquet"
    pd.DataFrame(
        {"deal": 1, "seat": 0, "player": range(n), "score": [2**50] + [0] * (n - 1)}
    ).to_parquet(path)
    code, _, err = run("standings", path, "--method", "standard-points")
    assert code == 1
    assert codes(err) == ["number.out-of-range"]


@pytest.mark.parametrize(
    "args",
    [
        ["seat", "{event}", "-k", "１０"],
        ["seat", "{event}", "-k", "1_0"],
        ["seat", "{event}", "--window", "1"],
        ["seat", "--round", "1", "--seed", "0x10", "--players", "{event}"],
        ["--max-rows", "1_000", "validate", "{event}"],
        ["--max-rows", "-1", "validate", "{event}"],
        ["game-score", "--game", "paohuzi", "--min-huxi", "1e1", "{event}"],
    ],
)
def test_whole_number_flags_take_plain_digits_only(args: list[str]) -> None:
    code, out, err = run(*[a.format(event=EVENT) for a in args])
    assert code == 2, err
    assert out == ""


def test_an_adjustment_round_beyond_int64_is_refused(tmp_path: Path) -> None:
    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text(
        "round,deal,player,kind,value,reason\n9919999999999999999,1,P17,void,,x\n"
    )
    code, _, err = run("standings", one_round(tmp_path), "--adjustments", adjustments)
    assert code == 1
    assert codes(err) == ["cell.not-a-round"]
    assert "'9919999999999999999'" in line_of("cell.not-a-round", err)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_infinity_in_a_parquet_float_are_refused(tmp_path: Path, value: float) -> None:
    frame = pd.read_csv(one_round(tmp_path))
    frame["score"] = frame["score"].astype(float)
    frame.loc[3, "score"] = value
    path = tmp_path / "floats.parquet"
    frame.to_parquet(path, index=False)
    code, _, err = run("standings", path)
    assert code == 1
    assert codes(err) == ["cell.not-a-score"]
    assert "row 4, column 'score'" in line_of("cell.not-a-score", err)


def test_an_interrupted_report_leaves_the_earlier_one_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C just as the new site is about to take the earlier one's place: the earlier
    site is back where it was, and nothing else is left."""
    import os

    site = tmp_path / "site"
    results = one_round(tmp_path)
    assert run("report", results, "-o", site)[0] == 0
    before = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    real_replace = os.replace
    interrupts = [KeyboardInterrupt()]

    def interrupted(source: object, target: object) -> None:
        if Path(str(target)) == site and interrupts:
            raise interrupts.pop()  # once: the key is pressed once
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", interrupted)
    # Chinese labels: a different site, were it put in place.
    status = run_main(["report", str(results), "-o", str(site), "--lang", "zh"], monkeypatch)
    monkeypatch.undo()
    assert status == 130
    after = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["round1.csv", "site"]
