"""The command line: exit codes, both streams, formats, and agreement with the library."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import GOLDEN, SAMPLE, codes, failing_input, line_of, run_main

runner = CliRunner()


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str, bytes]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr, result.stdout_bytes


def test_version() -> None:
    code, out, err, _ = run("--version")
    assert (code, out, err) == (0, f"duplicate {duplicate.__version__}\n", "")


@pytest.mark.parametrize("command", ["score", "standings", "validate", "rules"])
def test_every_command_has_help_with_an_example(command: str) -> None:
    code, out, _, _ = run(command, "--help")
    assert code == 0
    assert f"Example: duplicate {command}" in out


def test_no_command_shows_usage() -> None:
    result = runner.invoke(app, [])
    assert result.exit_code == 2
    assert "Usage" in result.output


def test_standings_to_a_pipe_is_csv_matching_the_library(spec_example: Path) -> None:
    code, out, err, _ = run("standings", str(spec_example))
    assert (code, err) == (0, "")
    expected = duplicate.standings(spec_example).frame
    got = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert list(got.columns) == list(expected.columns)
    assert list(got["player"]) == list(expected["player"])
    assert list(got["total"]) == ["25000.00", "24000.00", "22000.00"]


def test_score_columns(spec_example: Path) -> None:
    code, out, _, _ = run("score", str(spec_example), "-o", "-")
    assert code == 0
    header = out.splitlines()[0].split(",")
    for column in (
        "round",
        "deal",
        "table",
        "seat",
        "player",
        "score",
        "n",
        "mp",
        "top",
        "mp_pct",
        "deal_rank",
        "rank_points",
    ):
        assert column in header
    assert len(out.splitlines()) == 10


def test_output_file_formats_agree(spec_example: Path, tmp_path: Path) -> None:
    for suffix in ("csv", "parquet", "json"):
        code, out, err, _ = run("standings", str(spec_example), "-o", str(tmp_path / f"s.{suffix}"))
        assert code == 0, err
        assert out == ""
        assert f"wrote 3 rows to {tmp_path / f's.{suffix}'}" in err
    from_csv = pd.read_csv(tmp_path / "s.csv", dtype=str, keep_default_na=False)
    table = pq.read_table(tmp_path / "s.parquet")
    document = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert list(table.column("player").to_pylist()) == list(from_csv["player"])
    assert table.column("total").to_pylist() == [
        Decimal("25000.00"),
        Decimal("24000.00"),
        Decimal("22000.00"),
    ]
    assert [r["total"] for r in document["items"]] == [25000.0, 24000.0, 22000.0]
    assert document["rules"]["tie_ranking"] == "competition"
    rules_in_parquet = table.schema.metadata[b"duplicate.rules"].decode()
    assert tomllib.loads(rules_in_parquet) == document["rules"]
    assert (
        tomllib.loads((tmp_path / "s.rules.toml").read_text(encoding="utf-8")) == document["rules"]
    )


def test_same_input_gives_the_same_bytes(tmp_path: Path) -> None:
    source = SAMPLE / "big2_event.csv"
    for name in ("a", "b"):
        assert run("standings", str(source), "-o", str(tmp_path / f"{name}.parquet"))[0] == 0
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()


def test_csv_and_parquet_inputs_agree() -> None:
    from_csv = run("standings", str(SAMPLE / "big2_event.csv"))[3]
    from_parquet = run("standings", str(SAMPLE / "big2_event.parquet"))[3]
    assert from_csv == from_parquet
    assert from_csv.count(b"\n") == 49


def test_stdin_is_read_with_a_dash(spec_example: Path) -> None:
    code, out, _, _ = run("standings", "-", stdin=spec_example.read_bytes())
    assert code == 0
    assert out == run("standings", str(spec_example))[1]


def test_a_parquet_file_on_stdin_reads_as_the_file() -> None:
    parquet = SAMPLE / "big2_event.parquet"
    code, out, _, _ = run("standings", "-", stdin=parquet.read_bytes())
    assert code == 0
    assert out == run("standings", str(parquet))[1]


def test_table_format_for_people(spec_example: Path) -> None:
    code, out, _, _ = run("standings", str(spec_example), "--format", "table")
    assert code == 0
    assert "┃" in out
    assert "P2" in out
    assert "25000.00" in out


def test_flags_change_the_rules(spec_example: Path) -> None:
    code, out, _, _ = run("standings", str(spec_example), "--tie-ranking", "dense")
    assert code == 0
    assert out.splitlines()[3].endswith(",total_seconds,false")
    code, out, _, _ = run(
        "score", str(spec_example), "--rank-factors", "1,0.8", "--rank-base", "100"
    )
    assert code == 0
    assert ",3,5000.00" not in out
    assert ",2,80.00" in out
    assert ",3,33.33" in out


def test_rules_prints_toml_that_reads_back(tmp_path: Path) -> None:
    code, out, err, _ = run("rules", "--tie-ranking", "dense", "--deal-scope", "event")
    assert (code, err) == (0, "")
    path = tmp_path / "r.toml"
    path.write_text(out, encoding="utf-8")
    assert duplicate.load_rules(path) == duplicate.Rules(tie_ranking="dense", deal_scope="event")
    assert run("rules", "--rules", str(path))[1] == out


def test_validate_clean_file(spec_example: Path) -> None:
    code, out, err, _ = run("validate", str(spec_example))
    assert code == 0
    assert out == ""
    assert "9 results, 3 players, 3 deals: no problems" in err


@pytest.mark.parametrize(
    ("args", "problem", "named"),
    [
        (["standings", "{spec}", "-o", "{tmp}/out.ods"], "output.unknown-format", "out.ods"),
        (["standings", "{spec}", "--tie-ranking", "fancy"], "option.bad-choice", "fancy"),
        (["standings", "{spec}", "--no-such-flag"], "option.unknown", "--no-such-flag"),
        (["seat", "{spec}", "-k", "abc"], "option.bad-number", "'abc'"),
        (["no-such-command"], "command.unknown", "no-such-command"),
        (["explain"], "option.missing", "PLAYER"),
        (["standings", "{spec}", "--rules", "{tmp}/nope.toml"], "rules.unreadable", "nope.toml"),
        (["standings", "{spec}", "--rank-factors", "1,x"], "option.bad-number", "'x'"),
        (["standings", "{spec}", "-o", "{spec}"], "output.is-input", "spec_example.csv"),
        (["score", "{tmp}/copy.csv", "-o", "{tmp}/copy.csv"], "output.is-input", "copy.csv"),
    ],
)
def test_usage_errors_exit_2(
    args: list[str], problem: str, named: str, spec_example: Path, tmp_path: Path
) -> None:
    (tmp_path / "copy.csv").write_bytes(spec_example.read_bytes())
    before = spec_example.read_bytes()
    argv = [a.format(spec=spec_example, tmp=tmp_path) for a in args]
    code, out, err, _ = run(*argv)
    assert code == 2
    # Options the command-line parser refuses carry their code too.
    assert codes(err) == [problem]
    assert named in line_of(problem, err)
    assert out == ""
    assert "Traceback" not in err
    assert spec_example.read_bytes() == before
    assert (tmp_path / "copy.csv").read_bytes() == before


def test_bad_rules_file_exits_2(spec_example: Path, tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('tie_ranking = "dense"\nbogus = 1\n', encoding="utf-8")
    code, _, err, _ = run("standings", str(spec_example), "--rules", str(rules))
    assert code == 2
    assert codes(err) == ["rules.unknown-setting"]
    assert "bogus" in line_of("rules.unknown-setting", err)


def test_io_errors_exit_3(tmp_path: Path, spec_example: Path) -> None:
    code, out, err, _ = run("standings", str(tmp_path / "missing.csv"))
    assert (code, out) == (3, "")
    assert codes(err) == ["io.no-such-file"]
    assert "missing.csv" in line_of("io.no-such-file", err)
    code, _, err, _ = run(
        "standings", str(spec_example), "-o", str(tmp_path / "no" / "dir" / "s.csv")
    )
    assert code == 3
    assert codes(err) == ["io.unwritable"]
    assert "s.csv" in line_of("io.unwritable", err)


def test_internal_errors_exit_70_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An error nothing foresaw (here, standard input failing oddly): exit 70 and a
    plea to report it, with no traceback unless --debug asks for one."""
    monkeypatch.setattr(sys, "stdin", failing_input(RuntimeError("boom")))
    assert run_main(["standings", "-"], monkeypatch) == 70
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: boom" in err
    assert "Traceback" not in err
    monkeypatch.setattr(sys, "stdin", failing_input(RuntimeError("boom")))
    with pytest.raises(RuntimeError, match="boom"):
        run_main(["--debug", "standings", "-"], monkeypatch)


def test_debug_shows_traceback_for_data_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("deal,seat,player\n1,0,A\n", encoding="utf-8")
    result = runner.invoke(app, ["--debug", "validate", str(bad)])
    assert result.exit_code == 1
    assert "Traceback" in result.stderr
    assert codes(result.stderr) == ["column.missing"]
    assert "score" in line_of("column.missing", result.stderr)


def on_a_terminal(*args: str, columns: int = 120) -> tuple[bytes, bytes]:
    """What `duplicate ARGS` shows when its standard output and standard error are
    each a terminal of their own, `columns` wide (a few KiB: what a terminal holds
    until it is read)."""
    import fcntl
    import pty
    import struct
    import termios

    terminals = [pty.openpty() for _ in range(2)]
    for _, end in terminals:
        fcntl.ioctl(end, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    done = subprocess.run(
        [sys.executable, "-m", "duplicate", *args],
        stdout=terminals[0][1],
        stderr=terminals[1][1],
        stdin=subprocess.DEVNULL,
        env={**env, "TERM": "xterm"},
        check=False,
        timeout=120,
    )
    shown = []
    for reader, end in terminals:
        os.close(end)
        chunks = []
        while True:
            try:
                chunk = os.read(reader, 65536)
            except OSError:  # every byte read: the terminal is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(reader)
        shown.append(b"".join(chunks))
    assert done.returncode == 0, shown[1]
    return shown[0], shown[1]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminals")
def test_a_terminal_gets_a_table_and_a_pipe_gets_csv(spec_example: Path) -> None:
    piped = run("standings", str(spec_example))[1]
    assert piped.startswith("section,place,player")
    table, _ = on_a_terminal("standings", str(spec_example))
    assert "┃".encode() in table
    assert b"section,place" not in table


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminals")
def test_progress_shows_a_file_name_as_it_is(spec_example: Path, tmp_path: Path) -> None:
    """A path holding what rich reads as markup ('[/bold]', closing nothing) is shown
    as written in the progress a person at a terminal sees."""
    folder = tmp_path / "["
    folder.mkdir()
    source = folder / "bold]x.csv"
    source.write_bytes(spec_example.read_bytes())
    _, shown = on_a_terminal("report", str(source), "-o", str(tmp_path / "site"))
    assert f"reading {source}".encode() in shown
    assert b"wrote 9 pages" in shown


def test_python_dash_m_runs_the_cli(spec_example: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "duplicate", "standings", str(spec_example)],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout == run("standings", str(spec_example))[3]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminals")
def test_progress_only_for_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A person at a terminal sees what the command is doing while it works; a pipe or
    a file gets the messages alone."""
    import os
    import pty

    event = str(SAMPLE / "big2_event.csv")
    reader, writer = pty.openpty()
    with os.fdopen(writer, "w", encoding="utf-8") as terminal:
        monkeypatch.setattr(sys, "stderr", terminal)
        status = run_main(["standings", event, "-o", str(tmp_path / "a.csv")], monkeypatch)
        monkeypatch.undo()
    shown = b""
    while True:
        try:
            chunk = os.read(reader, 65536)
        except OSError:  # every byte read: the terminal is closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(reader)
    assert status == 0
    assert b"reading" in shown
    assert b"wrote 48 rows" in shown
    code, _, quiet, _ = run("standings", event, "-o", str(tmp_path / "b.csv"))
    assert code == 0
    assert (
        quiet == f"wrote 48 rows to {tmp_path / 'b.csv'} and rules to {tmp_path / 'b.rules.toml'}\n"
    )


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(tmp_path: Path) -> None:
    path = tmp_path / "evil.csv"
    path.write_text(
        'deal,seat,player,score\n1,0,"=HYPERLINK(""x"")",1\n1,0,-5,2\n1,0,-cmd,3\n1,0,@SUM(A1),0\n',
        encoding="utf-8",
    )
    out = run("standings", str(path))[1]
    players = [line.split(",")[2] for line in out.splitlines()[1:]]
    # Quoted only where a value needs it (the quotes of the formula).
    assert players == ["'-cmd", "-5", '"\'=HYPERLINK(""x"")"', "'@SUM(A1)"]
    document = json.loads(run("standings", str(path), "--format", "json")[1])
    assert [r["player"] for r in document["items"]][2] == '=HYPERLINK("x")'


def test_a_process_on_bad_input_exits_1_with_the_message(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.conftest import BAD

    out = tmp_path / "scores.parquet"
    bad = BAD / "player_twice_on_deal.csv"
    done = subprocess.run(
        [sys.executable, "-m", "duplicate", "score", str(bad), "-o", str(out)],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1
    err = done.stderr.decode()
    assert codes(err) == ["seating.played-twice", "seating.moved-seat"]
    assert str(bad) in line_of("seating.played-twice", err)
    assert not out.exists()


def test_messages_are_plain_lines_on_standard_error(spec_example: Path, tmp_path: Path) -> None:
    """A file name that looks like markup or an emoji code is said as it is."""
    out = tmp_path / "[bold]a:smile:[i].csv"
    code, _, err, _ = run("standings", str(spec_example), "-o", str(out))
    assert code == 0
    rules = tmp_path / "[bold]a:smile:[i].rules.toml"
    assert err == f"wrote 3 rows to {out} and rules to {rules}\n"


def test_starting_the_command_line_loads_no_rich_and_no_pandas() -> None:
    """`duplicate --version` starts without rich or the heavy libraries, and `--help`
    without the heavy libraries (typer's early releases draw help with rich)."""
    import subprocess

    for option, unwanted in [
        ("--version", {"rich", "pandas", "pyarrow", "numpy"}),
        ("--help", {"pandas", "pyarrow", "numpy"}),
    ]:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "duplicate", option],
            capture_output=True,
            check=True,
        )
        imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.decode().splitlines()}
        assert not unwanted & imported, option


RULES_FLAGS = ["--rules", "--tie-ranking", "--deal-scope", "--rank-factors", "--rank-base"]


@pytest.mark.parametrize(
    "command", ["score", "standings", "explain", "verify", "report", "seat", "validate", "rules"]
)
def test_every_command_computing_standings_takes_every_rules_option(command: str) -> None:
    shown = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
    for flag in [*RULES_FLAGS, "--method"]:
        assert flag in shown, f"{command} lacks {flag}"


def test_seating_follows_the_same_rules_as_the_standings(tmp_path: Path) -> None:
    """seat orders the field by the standings computed under the options it is given."""
    source = str(SAMPLE / "big2_event.csv")
    flags = ["--rank-factors", "1,0.2", "--rank-base", "100"]
    standings = pd.read_csv(io.StringIO(run("standings", source, *flags)[1]))
    fixed = ["--order", "straight", "--no-avoid-repeats"]
    seated = pd.read_csv(io.StringIO(run("seat", source, *flags, *fixed)[1]))
    # Straight order: the standings, four by four.
    assert seated["player"].tolist() == standings["player"].tolist()
    default = pd.read_csv(io.StringIO(run("seat", source, *fixed)[1]))
    assert default["player"].tolist() != seated["player"].tolist()


def test_every_command_writing_a_table_offers_an_output_file() -> None:
    for command in ("score", "standings", "verify", "seat", "elimination", "final", "import"):
        shown = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
        assert "-o, --output" in shown, command


@pytest.mark.parametrize(
    "args",
    [
        ["standings", "big2_event.parquet", "-f", "table"],
        ["score", "big2_event.csv", "-f", "json"],
        ["standings", "golden/adjustments", "-f", "table"],
    ],
    ids=["table", "json", "corrections"],
)
def test_the_program_gives_what_it_gives_untuned(args: list[str]) -> None:
    """A command run as the program, tuned or not (DUPLICATE_NO_TUNING=1), prints the
    same: whether pandas is loaded (a table for a person, corrections) or not."""
    command, name, *rest = args
    if name.startswith("golden/"):
        case = GOLDEN / name.removeprefix("golden/")
        files = [str(case / "results.csv"), "--adjustments", str(case / "adjustments.csv")]
    else:
        files = [str(SAMPLE / name)]
    printed = []
    for tuning in ("", "1"):
        env = {**os.environ, "DUPLICATE_NO_TUNING": tuning, "COLUMNS": "250"}
        done = subprocess.run(
            [sys.executable, "-m", "duplicate", command, *files, *rest],
            capture_output=True,
            env=env,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        printed.append(done.stdout)
    assert printed[0] == printed[1]
    assert printed[0]


def test_the_dask_engine_without_dask_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where Dask is not installed, `--engine dask` is a usage error that says how to
    install it, never an internal error."""
    monkeypatch.setitem(sys.modules, "dask", None)  # `import dask` raises ImportError
    code, _, err, _ = run("score", str(SAMPLE / "spec_example.csv"), "--engine", "dask", "-o", "-")
    assert code == 2, err
    assert codes(err) == ["dask.not-installed"]
    assert "pip install 'duplicate[dask]'" in err
