"""Bridge sessions as events: real published sessions scored from the file alone, Howell
movements, sections, artificial scores, what the file says of itself, and what cannot
be scored refused by name."""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT, codes, line_of
from tests.sessions_published import compare, published

runner = CliRunner()
SESSIONS = ROOT / "tests" / "data" / "sessions"
SALLIERE = SESSIONS / "salliere" / "mp.xml"


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def table(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


def scored(source: object) -> tuple[pd.DataFrame, pd.DataFrame]:
    """`score` and `standings` of `source`, with no other option."""
    code, score, err = run("score", source, "-o", "-")
    assert code == 0, err
    code, standings, err = run("standings", source, "-o", "-")
    assert code == 0, err
    return table(score), table(standings)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# -- real sessions, as their programs published them -----------------------------------


def test_salliere_one_winner_session_reproduces_what_it_published(tmp_path: Path) -> None:
    """salliere's club session: 16 pairs, 24 boards in 8 rounds; pairs change direction
    between rounds (one winner), scores written 430.0. Imported as an event folder and
    scored with no other option, every traveller line's matchpoints (384) and every
    pair's percentage (16) are what salliere published; of the 16 places, pairs 3 and 5
    (both 51.2%) are 7 and 8 there, in the order salliere lists them, and a shared 7th
    here: count-back leaves them level too (tests/test_percentage_conventions.py)."""
    folder = tmp_path / "club"
    code, _, err = run("import", SALLIERE, "--event", folder)
    assert code == 0, err
    assert "one winner: every pair ranked together (as the file says); 8 rounds" in err
    score, standings = scored(folder)
    found = published(SALLIERE)
    assert found.count() == 416
    result = compare(found, score, standings)
    assert dict(result.matched) == {"line_mp": 384, "pair_pct": 16, "place": 15}
    listing_order = {"5"}  # 8th in salliere's listing of a tie, 7th= here
    assert result.explained("place", listing_order) == []
    assert [d[:3] for d in result.differences] == [("place", "5", "8")]


def test_the_session_file_itself_is_a_source_for_every_command(tmp_path: Path) -> None:
    """The USEBIO file gives the same numbers read directly as through its folder."""
    folder = tmp_path / "club"
    assert run("import", SALLIERE, "--event", folder)[0] == 0
    assert scored(SALLIERE)[1].equals(scored(folder)[1])
    assert run("standings", SALLIERE, "-o", tmp_path / "published.csv")[0] == 0
    for args in (
        ("validate", SALLIERE),
        ("explain", "17", SALLIERE),
        ("verify", SALLIERE, tmp_path / "published.csv"),
    ):
        code, _, err = run(*args)
        assert code == 0, f"{args[0]}: {err}"
    code, _, err = run("report", SALLIERE, "-o", tmp_path / "site")
    assert code == 0, err


def test_the_event_folder_holds_the_title_date_names_and_rules(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    assert run("import", SALLIERE, "--event", folder)[0] == 0
    event = tomllib.loads((folder / "event.toml").read_text(encoding="utf-8"))["event"]
    assert (event["name"], event["date"]) == ("07-10-2010", "2010-10-07")
    players = pd.read_csv(folder / "players.csv", dtype=str, keep_default_na=False)
    assert dict(zip(players["player"], players["name"], strict=True))["8"] == (
        "Henry Lockwood & Andre Kueh & Flora"
    )
    rules = tomllib.loads((folder / "rules.toml").read_text(encoding="utf-8"))
    assert (rules["method"], rules["deal_scope"]) == ("percentage", "event")
    assert sorted(p.name for p in (folder / "rounds").iterdir())[-1] == "round-0008.parquet"


# -- movements -----------------------------------------------------------------------

# Four pairs, two tables, a board a round: pair 1 sits NS, then EW, then NS.
HOWELL_PBN = """[Event "Howell"]
[Date "2024.01.09"]
[Board "1"]
[ScoreTable "Round;PairId_NS;PairId_EW;Score_NS;Score_EW"]
1 1 2 420 -
1 3 4 450 -

[Board "2"]
[ScoreTable "Round;PairId_NS;PairId_EW;Score_NS;Score_EW"]
2 4 1 110 -
2 2 3 - 100

[Board "3"]
[ScoreTable "Round;PairId_NS;PairId_EW;Score_NS;Score_EW"]
3 1 3 140 -
3 4 2 - 50
"""


def test_a_howell_with_the_files_rounds_scores_each_pair_in_both_directions(
    tmp_path: Path,
) -> None:
    """Pair 1 sits North-South in round 1 and East-West in round 2: once refused ("a
    player keeps one seat for a whole round"), now each round keeps its direction."""
    path = write(tmp_path / "howell.pbn", HOWELL_PBN)
    code, out, err = run("import", path, "-o", "-")
    assert code == 0, err
    results = table(out)
    seats = results[results["player"] == "1"].sort_values("round")["seat"]
    assert list(seats) == ["NS", "EW", "NS"]
    _, standings = scored(path)
    # One winner, top 2 a board: 1 has 0 + 0 + 2, 2 has 2 + 0 + 2, 3 has 2 + 2 + 0.
    assert dict(zip(standings["player"], standings["percentage"], strict=True)) == {
        "1": "33.33",
        "2": "66.67",
        "3": "66.67",
        "4": "33.33",
    }


def test_a_howell_without_rounds_is_put_in_rounds_by_its_meetings(tmp_path: Path) -> None:
    code, out, err = run("import", ROOT / "docs" / "examples" / "howell.xml", "-o", "-")
    assert code == 0, err
    assert "2 rounds" in err
    results = table(out)
    seats = results.groupby(["round", "player"])["seat"].nunique()
    assert (seats == 1).all()


def test_the_files_winner_type_is_used(tmp_path: Path) -> None:
    """WINNER_TYPE 2: two winners even where a pair number sits both ways."""
    text = SALLIERE.read_text(encoding="utf-8").replace(
        "<WINNER_TYPE>1</WINNER_TYPE>", "<WINNER_TYPE>2</WINNER_TYPE>"
    )
    path = write(tmp_path / "two.xml", text)
    code, _, err = run("import", path, "-o", tmp_path / "two.csv")
    assert code == 0, err
    assert "two winners: North-South and East-West pairs ranked apart (as the file says)" in err


# -- sections ------------------------------------------------------------------------

SECTIONS_PBN = """[Event "Two sections"]
[Date "2024.03.05"]
[Board "1"]
[ScoreTable "Section;PairId_NS;PairId_EW;Score_NS;Score_EW"]
A 1 2 420 -
A 3 4 450 -
B 1 2 400 -
B 3 4 - 50
"""


def test_a_section_column_never_makes_one_field_silently(tmp_path: Path) -> None:
    """Pair 1 of section A is not pair 1 of section B; each section is matchpointed
    apart unless the rules say the sections are one field."""
    path = write(tmp_path / "sections.pbn", SECTIONS_PBN)
    score, _ = scored(path)
    assert sorted(set(score["player"])) == ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]
    assert set(score["top"]) == {"2"}
    code, out, err = run("score", path, "--sections", "one-field", "-o", "-")
    assert code == 0, err
    field = table(out)
    assert set(field["top"]) == {"6"}
    mp = dict(zip(field["player"], field["mp"], strict=True))
    # NS over the whole field: 450 > 420 > 400 > -50.
    assert (mp["A3"], mp["A1"], mp["B1"], mp["B3"]) == ("6.00", "4.00", "2.00", "0.00")


# -- artificial scores ---------------------------------------------------------------

ARTIFICIAL_PBN = """[Event "Artificial"]
[Date "2024.03.05"]
[Board "1"]
[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]
1 2 420 -
3 4 A5050 -
5 6 450 -
7 8 A6040 -

[Board "2"]
[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]
1 2 "430.0" -
3 4 A+ A-
5 6 - 50
7 8 40% -
"""


def test_artificial_scores_are_the_events_adjustments(tmp_path: Path) -> None:
    path = write(tmp_path / "artificial.pbn", ARTIFICIAL_PBN)
    score, _ = scored(path)
    given = {
        (d, p): (pct, adj.split(":")[0])
        for d, p, pct, adj in zip(
            score["deal"], score["player"], score["mp_pct"], score["adjustment"], strict=True
        )
        if adj
    }
    assert given == {
        ("1", "3"): ("50.00", "mp_pct 50.00"),
        ("1", "4"): ("50.00", "mp_pct 50.00"),
        ("1", "7"): ("60.00", "mp_pct 60.00"),
        ("1", "8"): ("40.00", "mp_pct 40.00"),
        # Average plus: 60, or the pair's own percentage if higher (NS 3 had 50).
        ("2", "3"): ("60.00", "avg_plus"),
        ("2", "4"): ("40.00", "avg_minus"),
        ("2", "7"): ("40.00", "mp_pct 40.00"),
        ("2", "8"): ("60.00", "mp_pct 60.00"),
    }
    folder = tmp_path / "event"
    code, _, err = run("import", path, "--event", folder)
    assert code == 0, err
    assert "the artificial scores are 8 adjustments" in err
    assert scored(folder)[0].equals(score)


def test_artificial_scores_are_never_written_as_results_of_0_points(tmp_path: Path) -> None:
    """A results table has no place for the adjustments: imported alone, the artificial
    lines would be scored as 0 points (wrong places, exit 0). Refused, with the fix."""
    path = write(tmp_path / "artificial.pbn", ARTIFICIAL_PBN)
    output = tmp_path / "results.csv"
    code, out, err = run("import", path, "-o", output)
    assert code == 1, out
    assert codes(err) == ["session.artificial-in-table"]
    assert "lines 6, 8, 13, 15: has 4 artificial scores" in err
    assert "--event" in err
    assert not output.exists()
    assert not output.with_suffix(".rules.toml").exists()


def test_flat_averages_where_the_program_gives_them(tmp_path: Path) -> None:
    """Magic Contest (and Ruter) give average plus a flat 60%, not the pair's own."""
    text = '[Application "Magic Contest"]\n' + ARTIFICIAL_PBN
    score, _ = scored(write(tmp_path / "flat.pbn", text))
    row = score[(score["deal"] == "2") & (score["player"] == "3")].iloc[0]
    assert (row["mp_pct"], row["adjustment"].split(":")[0]) == ("60.00", "mp_pct 60.00")


@pytest.mark.parametrize(
    ("score", "fragment"),
    [
        ("42.5", "score '42.5/-' has a fraction: a bridge score is a whole number of points"),
        ("A120", "score 'A120/-' is not a score"),
    ],
)
def test_a_score_that_is_neither_points_nor_artificial_is_refused(
    tmp_path: Path, score: str, fragment: str
) -> None:
    text = f'[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n1 2 {score} -\n'
    code, _, err = run("import", write(tmp_path / "bad.pbn", text))
    assert code == 1
    assert fragment in err
    assert codes(err) == ["cell.not-a-score"]


def test_a_zero_fraction_reads_exactly(tmp_path: Path) -> None:
    text = (
        '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n'
        '1 2 430.0 -\n3 4 - "-50.00"\n'
    )
    code, out, err = run("import", write(tmp_path / "zero.pbn", text), "-o", "-")
    assert code == 0, err
    assert sorted(table(out)["score"], key=int) == ["-430", "-50", "50", "430"]


# -- what cannot be scored -----------------------------------------------------------

USEBIO = """<?xml version="1.0"?>
<USEBIO Version="1.0">
<EVENT EVENT_TYPE="{kind}">
<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER><SCORE>420</SCORE></TRAVELLER_LINE>
</BOARD>
</EVENT>
</USEBIO>
"""


@pytest.mark.parametrize(
    ("kind", "said"),
    [("INDIVIDUAL", "an individual event"), ("TEAMS_OF_FOUR", "a teams match")],
)
def test_what_is_not_a_pairs_session_is_refused_by_name(
    tmp_path: Path, kind: str, said: str
) -> None:
    path = write(tmp_path / "event.xml", USEBIO.format(kind=kind))
    for command in ("import", "standings"):
        code, _, err = run(command, path)
        assert code == 1
        assert said in err
        assert codes(err) == ["session.not-pairs"]
    pbn = write(
        tmp_path / "event.pbn",
        f'[Competition "{"Individuals" if kind == "INDIVIDUAL" else "Teams"}"]\n'
        '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 420\n',
    )
    code, _, err = run("import", pbn)
    assert code == 1
    assert said in err


@pytest.mark.parametrize(
    ("declared", "said"),
    [
        ("BAM", "board-a-match"),
        ("Board-a-match", "board-a-match"),
        ("TotalPoints", "aggregate"),
        ("Rubber", "rubber"),
    ],
)
def test_a_scoring_neither_matchpoints_nor_imps_is_refused_by_name(
    tmp_path: Path, declared: str, said: str
) -> None:
    pbn = write(
        tmp_path / "event.pbn",
        f'[Scoring "{declared}"]\n[Board "1"]\n'
        '[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 420\n3 4 450\n',
    )
    usebio = write(
        tmp_path / "event.xml",
        USEBIO.format(kind="MP_PAIRS").replace(
            "<BOARD>",
            f"<BOARD_SCORING_METHOD>{declared}</BOARD_SCORING_METHOD>\n<BOARD>",
            1,
        ),
    )
    for path in (pbn, usebio):
        for command in ("import", "standings"):
            code, out, err = run(command, path)
            assert code == 1, out
            assert said in err
            assert codes(err) == ["session.not-pairs"]


@pytest.mark.parametrize(
    ("text", "method"),
    [
        (USEBIO.format(kind="CROSS_IMP"), "cross-imps"),
        (USEBIO.format(kind="BUTLER_PAIRS"), "butler"),
        (
            '[Scoring "IMP;Cross"]\n[Board "1"]\n'
            '[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 420\n',
            "cross-imps",
        ),
    ],
)
def test_an_imp_event_is_never_matchpointed(tmp_path: Path, text: str, method: str) -> None:
    path = write(tmp_path / ("imps.pbn" if text.startswith("[") else "imps.xml"), text)
    code, _, err = run("import", path, "-o", tmp_path / "imps.csv")
    assert code == 0, err
    rules = tomllib.loads((tmp_path / "imps.rules.toml").read_text(encoding="utf-8"))
    assert rules["method"] == method


def test_teams_participants_say_a_teams_match_without_an_event_type(tmp_path: Path) -> None:
    text = USEBIO.replace(' EVENT_TYPE="{kind}"', "").replace(
        "<BOARD>", "<PARTICIPANTS><TEAM TEAM_ID='1'/></PARTICIPANTS>\n<BOARD>", 1
    )
    code, _, err = run("import", write(tmp_path / "teams.xml", text))
    assert code == 1
    assert "is a teams match" in err


def test_a_session_without_a_date_needs_one_given(tmp_path: Path) -> None:
    text = '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 420\n3 4 450\n'
    path = write(tmp_path / "nodate.pbn", text)
    folder = tmp_path / "event"
    code, _, err = run("import", path, "--event", folder)
    assert code == 2
    assert codes(err) == ["event.bad-date"]
    assert not folder.exists()
    code, _, err = run("import", path, "--event", folder, "--date", "2024-05-01")
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event", "nodate.pbn"]
    event = tomllib.loads((folder / "event.toml").read_text(encoding="utf-8"))["event"]
    assert (event["name"], event["date"]) == ("nodate", "2024-05-01")


def test_an_event_folder_keeps_the_sections_and_convention_its_program_used(
    tmp_path: Path,
) -> None:
    """What the file does not say (one field across sections, count-back) is given at
    import, and `score DIR` then needs no other option."""
    path = write(tmp_path / "sections.pbn", SECTIONS_PBN)
    folder = tmp_path / "event"
    code, _, err = run(
        "import", path, "--event", folder, "--sections", "one-field", "--place-ties", "count-back"
    )
    assert code == 0, err
    rules = tomllib.loads((folder / "rules.toml").read_text(encoding="utf-8"))
    assert (rules["sections"], rules["percentage"]["ties"]) == ("one-field", "count-back")
    assert set(scored(folder)[0]["top"]) == {"6"}
    code, _, err = run("import", path, "-o", tmp_path / "r.csv", "--sections", "one-field")
    assert code == 0, err
    rules = tomllib.loads((tmp_path / "r.rules.toml").read_text(encoding="utf-8"))
    assert rules["sections"] == "one-field"


def test_one_field_is_factored_over_the_whole_field(tmp_path: Path) -> None:
    """Board 2 was played three times in the field of four tables: Neuberg factors it
    to the field's four (a top of 6), its results compared across both sections."""
    text = SECTIONS_PBN + (
        '\n[Board "2"]\n[ScoreTable "Section;PairId_NS;PairId_EW;Score_NS;Score_EW"]\n'
        "A 1 2 100 -\nA 3 4 110 -\nB 1 2 - 100\n"
    )
    code, out, err = run(
        "score", write(tmp_path / "field.pbn", text), "--sections", "one-field", "-o", "-"
    )
    assert code == 0, err
    board = table(out)
    board = board[(board["deal"] == "2") & (board["seat"] == "NS")]
    # Neuberg, 2 a result beaten: (mp + 1) x 4 / 3 - 1, over 3 played and 4 normal.
    assert dict(zip(board["player"], board["mp"], strict=True)) == {
        "A1": "3.00",
        "A3": "5.67",
        "B1": "0.33",
    }
    assert set(board["top"]) == {"6"}


def test_one_field_needs_the_local_engine(tmp_path: Path) -> None:
    path = write(tmp_path / "sections.pbn", SECTIONS_PBN)
    code, _, err = run("score", path, "--sections", "one-field", "--engine", "dask", "-o", "-")
    assert code == 2
    assert codes(err) == ["rules.conflict"]


def test_a_pair_sitting_out_is_no_result(tmp_path: Path) -> None:
    """Ruter writes a sit-out as a line of its own: no North-South pair, scores "Bye"."""
    text = (
        '[Application "Ruter"]\n[Board "1"]\n'
        '[ScoreTable "Table\\\\1R;Round\\\\1R;PairId_NS\\\\2R;PairId_EW\\\\2R;Score_NS\\\\6R;'
        'Score_EW\\\\6R"]\n'
        '4 2 6 5 "800" -\n2 5 7 3 "450" -\n1 1 8 1 "450" -\n3 3 - 2 "Bye" "Bye"\n'
    )
    code, out, err = run("import", write(tmp_path / "bye.pbn", text), "-o", "-")
    assert code == 0, err
    assert "2" not in set(table(out)["player"])
    assert len(table(out)) == 6


def test_validate_counts_a_bridge_session_s_boards() -> None:
    code, _, err = run("validate", ROOT / "sample_data" / "bridge_session.pbn")
    assert code == 0, err
    assert "38 results, 9 players, 5 boards: no problems" in err


def test_a_section_column_s_dash_is_no_section_named_dash(tmp_path: Path) -> None:
    """ "-" is PBN's empty value: the line's section is the game's [Section], or none."""
    text = (
        '[Board "1"]\n[Section "A"]\n[ScoreTable "Section;PairId_NS;PairId_EW;Score_NS"]\n'
        "- 1 3 420\nA 2 4 450\n\n"
        '[Board "2"]\n[ScoreTable "Section;PairId_NS;PairId_EW;Score_NS"]\n'
        "- 1 3 110\n- 2 4 140\n"
    )
    code, out, err = run("import", write(tmp_path / "dash.pbn", text), "-o", "-")
    assert code == 0, err
    rows = table(out)
    assert set(rows[rows["deal"] == "1"]["section"]) == {"A NS", "A EW"}
    assert not rows["section"].str.contains("-").any()
    assert not rows["player"].str.contains("-").any()


NOT_PLAYED_PBN = (
    '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n'
    "1 2 420 -\n3 4 450 -\n5 6 400 -\n\n"
    '[Board "2"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n'
    "1 2 100 -\n3 4 NP NP\n5 6 - 110\n"
)


def test_a_board_not_played_is_no_result_and_a_warning_naming_its_line(tmp_path: Path) -> None:
    """Pairs 3 and 4 did not play board 2 ("NP"): no result for either, a warning that
    names the line, and board 2 factored (Neuberg) from its two results to three."""
    path = write(tmp_path / "np.pbn", NOT_PLAYED_PBN)
    code, out, err = run("import", path, "-o", "-")
    assert code == 0, err
    assert codes(err) == ["session.not-played"]
    said = " ".join(line_of("session.not-played", err).split())
    assert "np.pbn, line 10: 1 line says a board was not played (board 2)" in said
    rows = table(out)
    assert len(rows) == 10
    assert set(rows[rows["deal"] == "2"]["player"]) == {"1", "2", "5", "6"}
    code, out, err = run("score", path, "-o", "-")
    assert code == 0, err
    assert codes(err) == ["session.not-played"]
    board = table(out)
    board = board[(board["deal"] == "2") & (board["seat"] == "NS")]
    # Neuberg: (mp + 1) x 3 / 2 - 1, over 2 played and 3 normal.
    assert dict(zip(board["player"], board["mp"], strict=True)) == {"1": "3.50", "5": "0.50"}


def test_a_usebio_board_not_played_is_no_result(tmp_path: Path) -> None:
    """A USEBIO traveller line scored "NP" or "-" is no result either."""
    lines = "".join(
        f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{ew}"
        f"</EW_PAIR_NUMBER><SCORE>{score}</SCORE></TRAVELLER_LINE>\n"
        for ns, ew, score in ((1, 2, "420"), (3, 4, "NP"), (5, 6, "-"), (7, 8, "450"))
    )
    text = (
        '<?xml version="1.0"?>\n<USEBIO Version="1.0">\n<EVENT EVENT_TYPE="MP_PAIRS">\n'
        f"<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n{lines}</BOARD>\n</EVENT>\n</USEBIO>\n"
    )
    code, out, err = run("import", write(tmp_path / "np.xml", text), "-o", "-")
    assert code == 0, err
    assert codes(err) == ["session.not-played"]
    said = " ".join(line_of("session.not-played", err).split())
    assert "np.xml, lines 6, 7: 2 lines say a board was not played (board 1)" in said
    assert set(table(out)["player"]) == {"1", "2", "7", "8"}


def test_a_score_neither_played_nor_a_score_is_still_refused(tmp_path: Path) -> None:
    text = NOT_PLAYED_PBN.replace("3 4 NP NP", "3 4 XP -")
    code, out, err = run("import", write(tmp_path / "xp.pbn", text), "-o", "-")
    assert code == 1
    assert codes(err) == ["cell.not-a-score"]
    assert out == ""
