"""Reading results: encodings, header names, Parquet, and atomic writes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import duplicate
from duplicate import InputOutputError, InvalidData
from duplicate.io.read import read_raw
from duplicate.model.results import parse_results
from tests.conftest import SAMPLE, run_main

CHINESE = "轮次,牌副,桌号,方位,牌手,得分,出牌用时\n1,1,1,0,张三,10,60\n1,1,1,1,李四,-10,70\n"


def test_chinese_headers_in_utf8_with_bom_and_in_gb18030(tmp_path: Path) -> None:
    utf8 = tmp_path / "utf8.csv"
    utf8.write_bytes(b"\xef\xbb\xbf" + CHINESE.encode("utf-8"))
    gb = tmp_path / "gb.csv"
    gb.write_bytes(CHINESE.encode("gb18030"))
    a = duplicate.standings(utf8).frame
    b = duplicate.standings(gb).frame
    c = duplicate.standings(gb, encoding="gb18030").frame
    assert list(a["player"]) == ["张三", "李四"]
    assert a.equals(b)
    assert a.equals(c)
    # Alone in their seats, both score MP% 50 and rank 1st; 张三 beat 李四 (S 10000).
    assert list(a["beaten_avg"].astype(str)) == ["10000.00", "0.00"]


def test_headers_are_case_insensitive_and_extra_columns_ignored(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text(" Deal ,SEAT,Player,Score,comment\n1,0,A,1,x\n1,0,B,2,y\n", encoding="utf-8")
    assert list(duplicate.standings(path).frame["player"]) == ["B", "A"]


def test_identifiers_keep_their_spelling(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("deal,seat,player,score\n1,0,007,1\n1,0,10,2\n", encoding="utf-8")
    assert list(duplicate.score(path).frame["player"]) == ["007", "10"]


@pytest.mark.parametrize("last", ["100", "P100"])
def test_identifiers_are_numbers_only_if_every_one_is(tmp_path: Path, last: str) -> None:
    """Padded with spaces (so not read as integers at once), a hundred player numbers
    sort as numbers; one name among them, however late, keeps them all as text."""
    path = tmp_path / "r.csv"
    players = [f" {p} " for p in range(1, 100)] + [last]
    lines = ["deal,seat,player,score"] + [f"1,{s},{p},{s}" for s, p in enumerate(players)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    player = duplicate.score(path).frame["player"]
    if last == "100":
        assert list(player) == list(range(1, 101))
    else:
        assert list(player)[:3] == ["1", "2", "3"]
        assert player.dtype != "int64"


def test_numeric_identifiers_sort_as_numbers(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    lines = ["deal,seat,player,score"] + [f"{d},0,{p},{p}" for d in (10, 9) for p in (1, 2)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert list(duplicate.score(path).frame["deal"]) == [9, 9, 10, 10]


def test_decimal_scores_are_exact(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    # 0.1 + 0.2 is not 0.3 in floats; here the two rounds must tie exactly.
    path.write_text(
        "round,deal,table,seat,player,score\n"
        "1,1,1,0,A,0.1\n1,1,1,1,B,0.3\n1,2,1,0,A,0.2\n1,2,1,1,B,0\n",
        encoding="utf-8",
    )
    table = duplicate.standings(path).frame
    assert list(table["beaten_avg"].astype(str)) == ["0.00", "0.00"]
    scores = duplicate.score(path).frame
    assert list(scores["score"].astype(str)) == ["0.1", "0.3", "0.2", "0.0"]


def test_parquet_with_typed_columns_equals_csv() -> None:
    frame = pd.read_parquet(SAMPLE / "big2_event.parquet")
    assert frame["score"].dtype.kind == "i"
    assert duplicate.standings(frame).frame.equals(
        duplicate.standings(SAMPLE / "big2_event.csv").frame
    )


# One event as Parquet files are written: by pandas with or without its index, by
# Arrow alone, with a category, with more columns than one read takes, with many.
LAYOUTS: dict[str, Callable[[pd.DataFrame], pa.Table]] = {
    "pandas, range index": pa.Table.from_pandas,
    "pandas, index stored": lambda f: pa.Table.from_pandas(f.sample(frac=1, random_state=1)),
    "Arrow alone": lambda f: pa.table(dict(f.items())),
    "a category": lambda f: pa.Table.from_pandas(f.astype({"player": "category"})),
    "extra columns": lambda f: pa.Table.from_pandas(f.assign(note="x", club=None, rating=1.5)),
    # More columns than two at a time in eight reads.
    "forty more columns": lambda f: pa.Table.from_pandas(
        f.assign(**{f"x{i}": i for i in range(40)})
    ),
}


def values(frame: pd.DataFrame) -> dict[str, list[object]]:
    """Each column's values as Python objects, None for a missing one."""
    return {
        str(name): [None if pd.isna(v) else v for v in column.astype(object)]
        for name, column in frame.items()
    }


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_parquet_file_reads_as_its_whole_table(layout: str, tmp_path: Path) -> None:
    frame = pd.read_parquet(SAMPLE / "big2_event.parquet")
    path = tmp_path / "results.parquet"
    pq.write_table(LAYOUTS[layout](frame), path, row_group_size=50)
    raw, first_row = read_raw(path)
    assert first_row == 1
    # The values of the whole table read at once (its index goes: rows match by position).
    whole = pq.read_table(path).to_pandas().reset_index(drop=True)
    assert list(raw.columns) == list(whole.columns)
    assert values(raw) == values(whole)
    # Rows in any order give the same standings.
    expected = duplicate.standings(SAMPLE / "big2_event.parquet").frame
    assert duplicate.standings(path).frame.equals(expected)


def test_a_parquet_column_named_twice_is_reported_as_such(tmp_path: Path) -> None:
    path = tmp_path / "twice.parquet"
    columns = [pa.array([1, 2]), pa.array([1, 1]), pa.array([0, 1]), pa.array(["a", "b"])]
    table = pa.Table.from_arrays(
        [*columns, pa.array([3, -3]), pa.array([4, -4])],
        names=["round", "deal", "seat", "player", "score", "score"],
    )
    pq.write_table(table, path)
    with pytest.raises(InvalidData, match="columns 'score' and 'score' both mean 'score'"):
        duplicate.load_event(path)


def test_a_failed_write_leaves_no_file(tmp_path: Path) -> None:
    table = duplicate.standings(SAMPLE / "spec_example.csv")
    target = tmp_path / "missing-dir" / "out.csv"
    with pytest.raises(InputOutputError):
        duplicate.publish(table, str(target))
    assert list(tmp_path.iterdir()) == []
    duplicate.publish(table, str(tmp_path / "out.csv"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv", "out.rules.toml"]


def test_an_interrupt_just_after_the_temporary_file_is_made_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C landing right after the output's file is created, before the writer can
    guard it: the program still ends with nothing left beside the output."""
    import os

    real_open = os.open

    def made_then_interrupted(path: str, flags: int, mode: int = 0o777) -> int:
        if not str(path).startswith(str(tmp_path)):
            return real_open(path, flags, mode)
        os.close(real_open(path, flags, mode))
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "open", made_then_interrupted)
    out = tmp_path / "standings.csv"
    status = run_main(["standings", str(SAMPLE / "spec_example.csv"), "-o", str(out)], monkeypatch)
    assert status == 130
    assert list(tmp_path.iterdir()) == []


def test_deal_scope_event_compares_a_deal_replayed_in_another_round(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text(
        "round,deal,seat,player,score\n1,7,0,A,5\n2,7,0,B,3\n",
        encoding="utf-8",
    )
    per_round = duplicate.score(path).frame
    assert list(per_round["n"]) == [1, 1]
    event = duplicate.score(path, deal_scope="event").frame
    assert list(event["n"]) == [2, 2]
    assert list(event["mp"]) == [2, 0]
    assert list(event["deal_rank"]) == [1, 2]


def test_deal_scope_event_rejects_a_player_replaying_a_deal(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("round,deal,seat,player,score\n1,7,0,A,5\n2,7,0,A,3\n", encoding="utf-8")
    assert len(duplicate.score(path).frame) == 2
    with pytest.raises(duplicate.InvalidData, match="player 'A' appears 2 times on deal 7"):
        duplicate.score(path, deal_scope="event")


@pytest.mark.parametrize("given", ["setting", "rules file"])
def test_deal_scope_event_lists_every_problem_of_its_own_reading(
    tmp_path: Path, given: str
) -> None:
    """A file read under deal scope "event" is refused with every problem that scope
    finds: a player changing seat in a round, and deal 7 replayed at the same seats."""
    path = tmp_path / "r.csv"
    path.write_text(
        "round,deal,table,seat,player,score\n1,7,1,0,A,5\n1,7,1,1,B,3\n"
        "2,7,1,0,C,5\n2,7,1,1,D,3\n2,8,1,1,C,1\n2,8,1,0,D,2\n",
        encoding="utf-8",
    )
    settings: dict[str, str] = {"deal_scope": "event"}
    if given == "rules file":
        (tmp_path / "rules.toml").write_text('deal_scope = "event"\n', encoding="utf-8")
        settings = {"rules_file": str(tmp_path / "rules.toml")}
    with pytest.raises(duplicate.InvalidData) as refused:
        duplicate.score(path, **settings)
    assert [p.text().split(": ", 1)[1] for p in refused.value.problems] == [
        "player 'C' sits at seats 0, 1 in round 2; a player keeps one seat for a whole round; "
        "correct the seat",
        "player 'D' sits at seats 0, 1 in round 2; a player keeps one seat for a whole round; "
        "correct the seat",
        "table 1 seat 0 on deal 7 has players 'A', 'C'; each seat of a table holds one "
        "player per deal",
        "table 1 seat 1 on deal 7 has players 'B', 'D'; each seat of a table holds one "
        "player per deal",
    ]


def test_a_directory_of_parquet_files_is_one_dataset(tmp_path: Path) -> None:
    frame = pd.read_parquet(SAMPLE / "big2_event.parquet")
    dataset = tmp_path / "event"
    for round_no, part in frame.groupby("round"):
        folder = dataset / f"part={round_no}"
        folder.mkdir(parents=True)
        part.to_parquet(folder / "results.parquet", index=False)
    from_directory = duplicate.standings(dataset).frame
    assert from_directory.equals(duplicate.standings(SAMPLE / "big2_event.csv").frame)
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputOutputError, match=r"no \.parquet files"):
        duplicate.load_event(tmp_path / "empty")


def test_csv_of_columns_chunked_differently(tmp_path: Path) -> None:
    table = pa.table(
        {
            "a": pa.chunked_array(
                [pa.array([], pa.large_string()), pa.array(["x"], pa.large_string())]
            ),
            "b": pa.chunked_array([pa.array(["y"], pa.large_string())]),
        }
    )
    duplicate.publish(
        duplicate.Table("standings", duplicate.Rules(), table), str(tmp_path / "t.csv")
    )
    assert (tmp_path / "t.csv").read_bytes() == b"a,b\nx,y\n"


def test_excel_csv_ends_rows_with_crlf_and_keeps_a_value_s_own_line_end(tmp_path: Path) -> None:
    def excel(table: pa.Table) -> bytes:
        path = tmp_path / "t.csv"
        duplicate.publish(
            duplicate.Table("standings", duplicate.Rules(), table), str(path), "excel"
        )
        return path.read_bytes()

    table = pa.table({"player": ["A", "B"], "note": ["two\nlines", "one"]})
    assert excel(table) == b'\xef\xbb\xbfplayer,note\r\nA,"two\nlines"\r\nB,one\r\n'
    plain = pa.table({"player": ["A", "B"], "note": ["x", "y"]})
    assert excel(plain) == b"\xef\xbb\xbfplayer,note\r\nA,x\r\nB,y\r\n"


@pytest.mark.parametrize(
    "path",
    [SAMPLE / "big2_event.csv", *sorted((Path(__file__).parent / "data" / "bad").glob("*.csv"))],
    ids=lambda p: p.name,
)
def test_a_table_consumed_column_by_column_reads_the_same(path: Path) -> None:
    """Deleting each column once read changes neither the scores nor the problems."""

    def parsed(consume: bool) -> object:
        try:
            raw, first_row = read_raw(path)
        except InvalidData as exc:
            return [str(p) for p in exc.problems]
        try:
            results = parse_results(raw, str(path), first_row, consume=consume)
        except InvalidData as exc:
            return [str(p) for p in exc.problems]
        return duplicate.score(results).frame

    kept, consumed = parsed(False), parsed(True)
    if isinstance(kept, pd.DataFrame):
        assert isinstance(consumed, pd.DataFrame)
        pd.testing.assert_frame_equal(consumed, kept)
    else:
        assert consumed == kept
