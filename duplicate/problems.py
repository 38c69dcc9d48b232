"""The catalog of problems: every code a message carries, what it means, how to fix it.

A problem found in an input (duplicate.errors.Problem) and an error a command stops
on (UsageError, InputOutputError ...) carry one of these codes: stable across
releases, so that scripts and tests can test the code, not the wording, and a reader
can look it up in docs/problems.md (written from this catalog).
"""

from __future__ import annotations

from dataclasses import dataclass

from duplicate.limits import (
    MAX_IMPORT_BYTES,
    MAX_ROUND,
    MAX_SESSION_PROBLEMS,
    MAX_SESSION_RESULTS,
    MAX_SESSION_TAGS,
)


@dataclass(frozen=True)
class Kind:
    """One kind of problem."""

    code: str
    meaning: str
    fix: str


KINDS: tuple[Kind, ...] = (
    # -- reading a file -------------------------------------------------------------------
    Kind("input.empty", "The file holds no rows.", "Give the file with its rows."),
    Kind(
        "input.blank-rows",
        "Rows with every cell empty were left out (a warning: spreadsheets leave them "
        "after deleted rows).",
        "Nothing to do, unless the rows were meant to hold results.",
    ),
    Kind(
        "input.unused-column",
        "A column that no rule reads (a warning: a misspelled header reads as no column).",
        "Correct the header, or name a note column 备注 or note.",
    ),
    Kind(
        "input.too-many-rows",
        "The input has more rows than are read at once (the limit guards the machine's memory: "
        "about 200 bytes a row).",
        "Allow more rows if the machine has the memory, or run it on a cluster.",
    ),
    Kind(
        "input.not-csv",
        "The file is not well-formed CSV: a row has more fields than the header, or a quote is "
        "left open.",
        "Give every row as many fields as the header.",
    ),
    Kind(
        "input.long-line",
        "Standard input holds a line longer than 16 MiB: not a results table (or no line "
        "end at all); it is refused as it is read.",
        "Give results as CSV, one row a line.",
    ),
    Kind(
        "input.long-header",
        "The first line, read as the header, has a name longer than 128 KiB or is longer "
        "than 16 MiB: it is not a header (data, or not text at all).",
        "Give the file with its header first: short column names.",
    ),
    Kind(
        "input.unknown-encoding",
        "The encoding named is not one Python knows.",
        "Name utf-8 or gb18030 (or big5).",
    ),
    Kind(
        "input.encoding",
        "The file is not text in the encoding it is read in (UTF-8, else GB18030, unless one is "
        "named).",
        "Save it as UTF-8 CSV, or name its encoding.",
    ),
    Kind(
        "input.binary",
        "The file holds NUL bytes: it is not text (or UTF-16 without its byte-order mark).",
        "Save it as UTF-8 CSV, or name its encoding.",
    ),
    Kind(
        "input.big5",
        "The file reads as Big5 (traditional Chinese), not GB18030.",
        "Name its encoding: big5.",
    ),
    Kind(
        "input.not-parquet",
        "The file or folder is not readable Parquet.",
        "Give a Parquet file written whole, or a CSV file.",
    ),
    Kind(
        "input.empty-folder",
        "A folder given as a dataset holds no .parquet files.",
        "Give the folder of the Parquet files, or a file.",
    ),
    Kind(
        "input.not-xlsx",
        "The workbook is not a readable .xlsx file.",
        "Save it again from the spreadsheet program as .xlsx.",
    ),
    Kind(
        "input.no-sheet",
        "The workbook has no sheet of the name given.",
        "Give one of the sheets the message lists.",
    ),
    Kind(
        "input.formula",
        "A cell of the sheet holds a formula: its saved result may be stale (a program "
        "that does not recalculate saves whatever was there before).",
        "Paste the cells as values, or read the saved results with --formulas cached.",
    ),
    Kind(
        "input.formula-cached",
        "Formula cells were read by the results saved with them (a warning, as asked by "
        "--formulas cached); the message names them.",
        "Check the cells it names.",
    ),
    Kind(
        "input.control-character",
        "A cell or header holds a control character (a NUL, say, written _x0000_ inside the "
        "workbook): an id that prints like another, or text no program shows alike.",
        "Retype the cells the message names.",
    ),
    Kind(
        "input.too-large",
        "The workbook unpacks into more than a workbook is read to (a zip archive can hold far "
        "more than its size), its sheet spans more cells than are read, or its shared text "
        "repeats into more characters than are read.",
        "Give the results as CSV or Parquet.",
    ),
    # -- columns --------------------------------------------------------------------------
    Kind(
        "column.missing",
        "A column the file needs is not there (its header may be misspelled).",
        "Add the column, or correct its header; the message lists the columns found.",
    ),
    Kind(
        "column.repeated",
        "Two columns mean the same thing (say, score and 得分).",
        "Keep one of them.",
    ),
    # -- cells ----------------------------------------------------------------------------
    Kind("cell.empty", "A cell that every row needs is empty.", "Fill it in."),
    Kind(
        "cell.not-a-score",
        "A score cell does not hold a score (by the number grammar: digits, a sign, a "
        "point; no exponent, no thousands separator).",
        "Write the score as a number such as 12 or -3.5.",
    ),
    Kind(
        "cell.not-a-whole-number",
        "A cell that counts something does not hold a whole number.",
        "Write a whole number such as 120.",
    ),
    Kind(
        "cell.not-a-minute",
        "A hand's minute is not a number of minutes >= 0.",
        "Give the minute the hand ended, since the stage began.",
    ),
    Kind(
        "cell.not-a-time",
        "A hand's finished_at is not a date and time.",
        "Write it as 2026-05-01T20:15:00+08:00.",
    ),
    Kind(
        "cell.not-a-round",
        "A round is not a whole number from 1.",
        "Write the round as 1, 2, 3 ...",
    ),
    Kind(
        "cell.not-a-play-time",
        "A play time is not a number of seconds >= 0.",
        "Give every row its play time in seconds, or drop the column.",
    ),
    # -- corrections ----------------------------------------------------------------------
    Kind(
        "adjustment.unknown-kind",
        "An adjustment of a kind this program does not know.",
        "Use mp_pct, penalty, void, avg_plus, avg_minus or weighted.",
    ),
    Kind(
        "adjustment.bad-value",
        "An adjustment's value is not one its kind takes (an MP% from 0 to 100, a penalty in "
        "points, a weighted part's score).",
        "Give the value its kind takes.",
    ),
    Kind(
        "adjustment.bad-weight",
        "A weight that is not a whole percent from 0 to 100, or a weight on a kind that takes "
        "none.",
        "Give each part of a weighted score its percent; no weight elsewhere.",
    ),
    Kind(
        "adjustment.weights-not-100",
        "The weights of one weighted score do not add up to 100.",
        "Give every part its percent, adding up to 100.",
    ),
    Kind(
        "adjustment.clash",
        "More than one mp_pct, void, average or weighted adjustment for one result.",
        "Keep one of them.",
    ),
    Kind(
        "adjustment.no-result",
        "An adjustment names no result of the event (often a wrong round, deal or player).",
        "Check the round, deal and player against the results.",
    ),
    Kind(
        "adjustment.several-sections",
        "An adjustment names a player who plays in several sections.",
        "Make player ids unique across sections.",
    ),
    Kind(
        "adjustment.weighted-together",
        "Two weighted scores in one comparison group: each would be compared with parts of the "
        "other.",
        "Weight one of them, and assign the other an mp_pct.",
    ),
    # -- an event folder ------------------------------------------------------------------
    Kind(
        "event.bad-description",
        "The event folder's event.toml cannot be read as an event's description.",
        "Make the folder with `duplicate event init`; do not edit event.toml by hand.",
    ),
    Kind("event.bad-date", "The event's date is not a date.", "Give it as YYYY-MM-DD."),
    Kind(
        "event.bad-table-size",
        "The event's table size is not 2 to 8 players.",
        "Give the players at a table.",
    ),
    Kind(
        "event.folder-in-use",
        "The folder to make an event in holds files already.",
        "Give a new or empty folder.",
    ),
    Kind(
        "event.file-exists",
        "A file the event would make exists already.",
        "Give a new or empty folder.",
    ),
    Kind(
        "event.no-round",
        "An upload has no round column and no round was given.",
        "Give the round (`--round N`), or add the round column.",
    ),
    Kind(
        "event.several-rounds",
        "An upload holds more than one round.",
        "Upload each round on its own.",
    ),
    Kind(
        "event.round-mismatch",
        "The round given differs from the round the upload holds.",
        "Give the upload's own round, or correct its round column.",
    ),
    Kind(
        "event.round-exists",
        "The round is in the event already.",
        "To store a corrected upload, replace it (the earlier one is kept).",
    ),
    Kind(
        "event.columns-differ",
        "An upload has other columns than the event's rounds.",
        "Give every round the same columns.",
    ),
    Kind(
        "event.adjustments-exist",
        "The event holds adjustments already.",
        "To store corrected ones, replace them (the earlier ones are kept).",
    ),
    Kind(
        "event.round-skipped",
        "An upload is not the next round: the event holds rounds up to N, and it is round "
        "N + 2 or later (likely a wrong round number).",
        "Add the rounds in order; correct the round number; or accept it with `--force "
        '--reason "..."` (logged).',
    ),
    Kind(
        "event.round-copy",
        "An upload's results are a stored round's, but for the round number: likely the "
        "wrong file.",
        "Upload the round's own results.",
    ),
    Kind(
        "event.withdrawn-player-played",
        "An upload gives results to a player in a round after they withdrew.",
        "Correct a misspelled id; else accept it with `--force --reason`.",
    ),
    Kind(
        "event.no-such-round",
        "The round to withdraw is not in the event.",
        "Give a round `event status` lists.",
    ),
    Kind(
        "event.no-reason",
        "A change the log must explain was given no reason.",
        'Give `--reason "..."`.',
    ),
    Kind(
        "event.seating-unrecorded",
        "A file in the event's seatings/ that `seat DIR` did not store (a seating saved by "
        "hand): no upload would be checked against it.",
        "Store the round's seating with `duplicate seat DIR`, and remove the file.",
    ),
    Kind(
        "event.seating-exists",
        "The round has a stored seating already, and this one differs.",
        "Give `--replace` to store this one (the earlier is kept); reprint what was printed.",
    ),
    Kind(
        "event.no-players",
        "The event has no players file to register or withdraw a player in.",
        "Make the event with `--players FILE`.",
    ),
    Kind("event.no-player", "No player id was given.", "Give the player's id."),
    Kind(
        "event.bad-text",
        "A player's id, name or club holds a control character (a line end, a tab, NUL).",
        "Give it as it is printed.",
    ),
    Kind(
        "event.player-exists",
        "A late entry's id is registered already.",
        "Give a new id.",
    ),
    Kind(
        "event.player-unknown",
        "The player to withdraw is not registered in the event.",
        "Give a registered player's id.",
    ),
    Kind(
        "event.player-withdrawn",
        "The player has withdrawn already.",
        "Nothing to do.",
    ),
    Kind(
        "event.file-changed",
        "A file of the event folder is not as its log recorded it (its sha256 differs): "
        "a round swapped or edited, the players or rules edited by hand.",
        "Put back the file as logged, or accept the change: `duplicate event accept DIR "
        '--reason "..."` (logged with who and why).',
    ),
    Kind(
        "event.file-missing",
        "A file the event folder's log records is not in the folder (a round deleted).",
        "Put the file back, or accept its loss: `duplicate event accept DIR --reason ...`.",
    ),
    Kind(
        "event.file-unlogged",
        "A file in the event folder (rounds/, seatings/, replaced/, players.csv ...) is not "
        "in its log: it was put there by hand, not by a command.",
        "Remove it, add the round with `duplicate event add`, or accept it: "
        "`duplicate event accept DIR --reason ...`.",
    ),
    Kind(
        "event.file-misnamed",
        "A file in the event folder's rounds/ is not named as a round is "
        "(rounds/round-NNNN.parquet), and not in its log.",
        "Remove it, and add the round with `duplicate event add`.",
    ),
    Kind(
        "event.symlink",
        "A file or folder of the event folder is a link: its files are never written or read "
        "through one (it could lead out of the folder).",
        "Put the files themselves in the folder.",
    ),
    Kind(
        "event.round-unreadable",
        "A round stored in the event folder is not readable Parquet.",
        "Put back the round as stored, or replace it (`duplicate event add --replace`).",
    ),
    Kind(
        "event.log-missing",
        "The event folder has no log (log.jsonl): nothing says what it should hold.",
        "Restore the log, or accept the folder as it is (`duplicate event accept`).",
    ),
    Kind(
        "event.log-broken",
        "A line of the event's log is not a log entry (JSON), or the log was cut short.",
        "Restore the log, or accept the folder as it is (`duplicate event accept`).",
    ),
    Kind(
        "event.log-not-utf8",
        "A line of the event's log is not UTF-8 text: it was edited.",
        "Restore the log, or accept the folder as it is (`duplicate event accept`).",
    ),
    Kind(
        "event.log-edited",
        "A line of the event's log does not match the sha256 it holds: it was edited.",
        "Restore the log, or accept the folder as it is (`duplicate event accept`).",
    ),
    Kind(
        "event.log-chain-broken",
        "A line of the event's log does not follow the line before it: a line was removed, "
        "added or moved.",
        "Restore the log, or accept the folder as it is (`duplicate event accept`).",
    ),
    Kind(
        "event.half-done",
        "A change to the event folder was cut short (a process killed while it wrote), and "
        "the folder could not be put back as it was (it cannot be written now).",
        "Run the command again where the folder can be written: the change is undone first.",
    ),
    Kind(
        "event.busy",
        "Another command is changing the event folder, and did not end within the wait "
        "(DUPLICATE_LOCK_WAIT seconds, 30 by default).",
        "Run the command again when the other one ends.",
    ),
    Kind(
        "event.no-results",
        "The command needs results, and the source holds none (a hand log, or an "
        "event with no round yet).",
        "Give a results file, or add a round to the event first.",
    ),
    Kind(
        "event.no-hands",
        "The command needs a stage's hand log, and the source is not one.",
        "Give a hand log: hand, table, seat, player, score, minute.",
    ),
    # -- players and partners -------------------------------------------------------------
    Kind(
        "players.unknown-status",
        "A players file gives a status other than active or withdrawn.",
        "Use active or withdrawn (在赛, 退赛).",
    ),
    Kind("players.repeated", "A player is listed twice.", "List each player once."),
    Kind(
        "players.unregistered",
        "A player of an upload is not in the event's players file (often a misspelling).",
        "Correct the name (the message suggests the closest), or register the player.",
    ),
    Kind(
        "player.unknown",
        "No player of the event has this id or name.",
        "Give the player's id as the results write it, or their registered name.",
    ),
    Kind(
        "player.ambiguous",
        "Several registered players have this name.",
        "Give the player's id.",
    ),
    Kind(
        "player.several-sections",
        "The player id is used in several sections.",
        "Give the section too.",
    ),
    Kind(
        "partners.own-partner",
        "A partners file pairs a player with themselves.",
        "Give each player their partner.",
    ),
    Kind(
        "partners.several",
        "A player has more than one partner in the partners file.",
        "Give each player one partner.",
    ),
    Kind(
        "partners.missing",
        "A player to seat has no partner in the partners file.",
        "Add the pair to the partners file.",
    ),
    Kind(
        "partners.half-seated",
        "One partner is in the round's field and the other is not.",
        "Seat both partners, or neither.",
    ),
    # -- seating --------------------------------------------------------------------------
    Kind(
        "seating.played-twice",
        "A player appears more than once on a deal.",
        "Keep one row per player per deal.",
    ),
    Kind(
        "seating.moved-table",
        "A player sits at more than one table in a round.",
        "A player keeps one table for a whole round: correct the table.",
    ),
    Kind(
        "seating.moved-seat",
        "A player sits in more than one seat in a round.",
        "A player keeps one seat for a whole round: correct the seat.",
    ),
    Kind(
        "seating.seat-shared",
        "A seat of a table holds two players on a deal.",
        "Each seat holds one player per deal: correct the seat or the table.",
    ),
    Kind(
        "seating.table-uneven",
        "A table has different numbers of players on the deals of a round.",
        "Add the missing rows, or correct the table.",
    ),
    Kind(
        "seating.no-table",
        "The results have no table column to compare with a published seating.",
        "Add the table of every result.",
    ),
    Kind(
        "seating.not-seated",
        "A player played a round the published seating does not seat them in.",
        "Check the player's id, or the published seating.",
    ),
    Kind(
        "seating.no-results",
        "A player seated in the published seating has no result in that round.",
        "Add the missing results, or correct the seating.",
    ),
    Kind(
        "seating.moved-from-published",
        "A player played at another table or seat than the published seating gave.",
        "Correct the table or seat of the results, or the seating.",
    ),
    Kind(
        "seating.robot-seat",
        "The seat given to the players of a table against robots does not exist.",
        "Give a seat from 0 to the table size less 1.",
    ),
    Kind(
        "seat.table-size",
        "A table of fewer than 2 seats, or of more than 8 without forcing it.",
        "Give the seats per table (4 Big Two, 3 Dou Dizhu); force larger tables.",
    ),
    Kind(
        "seat.output-in-folder",
        "`-o` into an event folder's seatings/, which `seat DIR` writes itself.",
        "Leave -o out, or give a file elsewhere.",
    ),
    Kind(
        "seat.several-rounds",
        "A seating to store covers more than one round.",
        "Store each round's seating on its own.",
    ),
    Kind("seat.order", "An unknown seating order.", "Use snake or straight."),
    Kind("seat.fill", "An unknown way to complete the last table.", "Use robot or bye."),
    Kind(
        "seat.window",
        "A rematch window of fewer than 2 ranks, or too wide a search to bound.",
        "Give a window of 2 or more ranks, smaller for large tables.",
    ),
    Kind(
        "seat.keep",
        "A cut that keeps fewer than 1 player, or a cut at round 1.",
        "Keep the first N >= 1 of the standings after a round.",
    ),
    Kind(
        "seat.drawn",
        "Round 1 is drawn from the players, and results were given.",
        "Give the players file and a seed, and no results.",
    ),
    Kind(
        "seat.no-seed",
        "Round 1 is drawn at random and no seed was given.",
        "Give a seed, so that the draw can be repeated.",
    ),
    Kind(
        "seat.no-players",
        "The seating needs the players file (round 1, or registration order).",
        "Give the players file.",
    ),
    Kind(
        "seat.no-results",
        "Nothing to seat from: no results, and no round 1 to draw.",
        "Give the results so far, or draw round 1.",
    ),
    Kind(
        "seat.round",
        "A round was given for a seating after round 1 (later rounds follow the results).",
        "Give a round only to draw round 1.",
    ),
    Kind(
        "seat.sections",
        "A players file was given for results of several sections.",
        "Seat each section's results apart.",
    ),
    Kind(
        "seat.partners-and-robots",
        "A pairs event was asked to play against robots.",
        "Give partners, or play against robots, not both.",
    ),
    Kind(
        "seat.partners-table",
        "Partners sit opposite each other at tables of 4; another table size was given.",
        "Seat pairs at tables of 4.",
    ),
    Kind(
        "seat.bridge",
        "A bridge session was given to seat at tables of more than two pairs (as card "
        "players are seated, robots filling the table).",
        "A Mitchell or Howell moves by its movement; seat a Swiss pairs event two pairs to a "
        "table.",
    ),
    # -- scoring --------------------------------------------------------------------------
    Kind(
        "scoring.nothing-compared",
        "Every comparison group holds one result, so every MP% is 50 (a warning: the "
        "mark of a movement whose deals are played in several rounds).",
        "If a deal is played in several rounds, set the deal scope to event.",
    ),
    Kind(
        "number.out-of-range",
        "A total would pass what is held exactly; it is refused, never wrapped or rounded.",
        "Check the input for values far too large.",
    ),
    Kind(
        "scoring.method-unsupported",
        "The scoring method does not do what was asked (adjustments with standard points or"
        " IMPs; explain, a report or the Dask engine with a method they do not cover).",
        "Use matchpoints, or leave out what the method does not take.",
    ),
    Kind(
        "number.column-too-large",
        "A number column adds up past what totals are held to exactly.",
        "Check the column for values far too large.",
    ),
    Kind(
        "entry.table-not-zero",
        "A table's scores on a deal do not add up to zero in a zero-sum game (a warning: the mark "
        "of a mistyped score).",
        "Correct the score from the score sheet.",
    ),
    Kind(
        "entry.impossible-score",
        "A score the game cannot give on one deal (a warning).",
        "Correct the mistyped score.",
    ),
    Kind(
        "entry.one-deal",
        "A player plays one deal only where others play more (a warning: the mark of a misspelled "
        "name).",
        "Compare the name with the players at the same table.",
    ),
    Kind(
        "entry.short-player",
        "A player plays fewer deals at a table than the table does (a warning: a deal under "
        "another name).",
        "Give each deal its player.",
    ),
    # -- game scores and games ------------------------------------------------------------
    Kind(
        "raw.bad-cell",
        "A raw outcome cell holds a value the game does not allow.",
        "Correct the cell by the game's rules (the message says what it takes).",
    ),
    Kind(
        "raw.table-inconsistent",
        "A table's raw outcomes on a deal do not agree (say, two landlords).",
        "Correct the table's rows by the game's rules.",
    ),
    Kind(
        "raw.unknown-column",
        "A column of a raw outcomes file that neither the results nor the game read (a "
        "misspelled optional column would count as absent).",
        "Correct the header, or name a note column 备注.",
    ),
    Kind(
        "raw.score-differs",
        "A score in the raw file differs from the score its raw outcomes give.",
        "Correct the score, or the raw columns.",
    ),
    Kind("game.unknown", "An unknown game.", "Use big2, doudizhu, paohuzi (or other)."),
    Kind(
        "game.no-scorer",
        "The game's scores are not computed from raw outcomes.",
        "Use big2, doudizhu or paohuzi.",
    ),
    Kind(
        "games.bad-cell",
        "A cell of a points race's games file holds a value the scheme does not know.",
        "Correct the cell (see the scheme's outcomes).",
    ),
    Kind("scheme.unknown", "An unknown points scheme.", "Name a preset, or give a TOML file."),
    Kind("scheme.unreadable", "The scheme file cannot be read.", "Give a readable TOML file."),
    Kind(
        "scheme.bad-points",
        "The scheme file has no [points] table of outcome = whole number.",
        "Write it as [points] then win = 3, draw = 1 ...",
    ),
    # -- stages ---------------------------------------------------------------------------
    Kind(
        "hands.two-tables",
        "A hand is played at more than one table.",
        "Correct the table or the hand.",
    ),
    Kind(
        "hands.two-times",
        "The rows of a hand give different end times.",
        "Give every row of a hand the minute it ended.",
    ),
    Kind(
        "hands.player-twice",
        "A player appears twice in a hand.",
        "Keep one row per player per hand.",
    ),
    Kind("hands.seat-shared", "A seat holds two players in a hand.", "Correct the seat."),
    Kind(
        "hands.not-zero",
        "A hand's scores do not add up to 0.",
        "Correct a score: they are what the players win and lose.",
    ),
    Kind(
        "hands.many-winners-and-losers",
        "A hand has several winners and several losers: it cannot be settled pairwise.",
        "Check the scores; a hand has one winner or one loser.",
    ),
    Kind(
        "hands.mixed-seats",
        "A hand log writes some seats as compass points (N, E, S, W) and others not: the "
        "order of the seats, and so who is paid first, cannot be told.",
        "Write every seat as a compass point, or every seat as a number from 0.",
    ),
    Kind(
        "hands.two-at-once",
        "A player is in two hands ending at the same minute.",
        "Correct the minute or the player.",
    ),
    Kind(
        "stage.played-after-out",
        "An eliminated player plays a later hand.",
        "Correct the player or the hand.",
    ),
    Kind(
        "stage.sitting-too-long",
        "A table plays more hands in a row with the same players than ASS allows.",
        "Check the log, or the hands a table may play.",
    ),
    Kind(
        "final.too-many-hands",
        "A finalist plays more hands than the final has.",
        "Check the log, or give the final's number of hands.",
    ),
    Kind(
        "final.hands-short",
        "Players have played fewer hands than the final has (a warning): they have no place yet.",
        "Give the final's number of hands; a final under way shows its totals so far.",
    ),
    Kind("final.no-hands", "A final of fewer than 1 hand.", "Give the hands every finalist plays."),
    Kind(
        "final.carried-twice",
        "The carried points list a player more than once: which points they carry cannot be told.",
        "Keep one row for each player.",
    ),
    Kind(
        "final.carried-unknown",
        "A player carries points into the final but plays no hand of its log (a "
        "misspelt name, in the log or in the carried points).",
        "Correct the name; a qualifier who does not play the final: leave their carried "
        "cell empty.",
    ),
    # -- bridge sessions ------------------------------------------------------------------
    Kind(
        "session.no-results",
        "The session file holds no results (no travellers, no results table).",
        "Export the session with its travellers.",
    ),
    Kind(
        "session.bad-line",
        "A line of a PBN file cannot be read (not a tag pair, or a results line of the "
        "wrong length).",
        "Export the file again; quote values that hold spaces.",
    ),
    Kind(
        "session.no-board",
        "A PBN result comes before any board.",
        'Give the board first: [Board "1"].',
    ),
    Kind(
        "session.not-xml",
        "A USEBIO file is not well-formed XML.",
        "Export the file again; an edited file keeps every tag closed.",
    ),
    Kind("session.not-usebio", "The XML file is not USEBIO.", "Give a USEBIO results file."),
    Kind(
        "session.missing-element",
        "A USEBIO element lacks a part it needs (a pair number, a score).",
        "Export the file again with every traveller complete.",
    ),
    Kind(
        "session.entity",
        "A USEBIO value holds an entity (&name;), which is never expanded: the value "
        "would be read in part.",
        "Write the value itself; a literal & is written &amp;.",
    ),
    Kind(
        "session.misplaced-element",
        "A USEBIO element where the format has none: a BOARD inside a BOARD, a traveller "
        "line outside any BOARD, an element inside a value.",
        "Export the file again; an edited file keeps each element where the format puts it.",
    ),
    Kind(
        "session.repeated-element",
        "A USEBIO element, or a PBN tag read to score (Board, Section, ScoreTable), given "
        "twice where the format has one: either could be meant.",
        "Keep one.",
    ),
    Kind(
        "session.mixed-encoding",
        "A session file written partly in UTF-8 and partly in ISO-8859-1 (or "
        "windows-1252): read in either, part of it would be wrong.",
        "Save the whole file in one encoding (UTF-8), or export it again.",
    ),
    Kind(
        "session.too-many-problems",
        f"Reading a session file stopped after {MAX_SESSION_PROBLEMS:,} problems; the lines "
        "after were not read.",
        "Correct the problems listed (or give the right file) and import again.",
    ),
    Kind(
        "session.pair-twice",
        "A pair plays a board more than once.",
        "Correct the pair numbers; in a Mitchell numbered 1.. both ways, rank two winners.",
    ),
    Kind(
        "session.too-large",
        "The session file is larger than a session file is read to "
        f"({MAX_IMPORT_BYTES // 2**20} MiB, {MAX_SESSION_TAGS:,} XML tags, "
        f"{MAX_SESSION_RESULTS:,} results); the rest is not read.",
        "Split the event into sessions.",
    ),
    Kind(
        "session.not-pairs",
        "The session file is not a pairs session the toolkit can score: an individual "
        "event, a teams match, a scoring neither matchpoints nor IMPs (aggregate, "
        "board-a-match, rubber), or IMPs where IMP scoring is not available.",
        "Import a pairs session; score the others with the program that wrote them.",
    ),
    Kind(
        "session.artificial-in-table",
        "A session with artificial scores imported as a results table alone: their "
        "adjustments have no place in it, and their lines would be scored as 0 points.",
        "Import the session as an event folder (--event DIR), or score the session file itself.",
    ),
    Kind(
        "session.not-played",
        'A session\'s traveller lines that say a board was not played ("NP", or no score): '
        "no result for either pair; a board played fewer times is factored as the rules say.",
        "Nothing, if the board was not played; else give its score.",
    ),
    Kind(
        "import.round",
        f"A session's round below 1 or above {MAX_ROUND:,}.",
        "Give the round this session is, from 1.",
    ),
    # -- published files, manifests -------------------------------------------------------
    Kind(
        "published.not-json",
        "A published file begins as JSON and is not valid JSON.",
        "Give a file written by `duplicate standings`.",
    ),
    Kind(
        "published.no-standings",
        "A published JSON file has no standings list of rows.",
        "Give a file written by `duplicate standings`.",
    ),
    Kind(
        "published.no-player",
        "The published standings have no player column (nor a pair or pair_id column).",
        "Give a file written by `duplicate standings`.",
    ),
    Kind(
        "manifest.unreadable",
        "The manifest cannot be read as JSON.",
        "Give a manifest written by --manifest.",
    ),
    Kind(
        "manifest.not-a-manifest",
        "The JSON file is not a run manifest of this program.",
        "Give a manifest written by --manifest.",
    ),
    # -- rules and options ----------------------------------------------------------------
    Kind(
        "rules.unreadable",
        "The rules file cannot be read.",
        "Give a readable rules file (see `duplicate rules`).",
    ),
    Kind(
        "rules.not-toml",
        "The rules file is not valid TOML in UTF-8.",
        "Save it as UTF-8 TOML; `duplicate rules` writes one to start from.",
    ),
    Kind(
        "rules.unknown-setting",
        "A rules file names a setting this program does not know (often a misspelling).",
        "Use the settings `duplicate rules` writes.",
    ),
    Kind(
        "rules.bad-value",
        "A rules setting has a value it cannot take.",
        "Give one of the values the message lists.",
    ),
    Kind(
        "rules.conflict",
        "Two rules settings do not go together (say, Neuberg factoring with standard points"
        " or IMPs).",
        "Change one of them.",
    ),
    Kind(
        "rules.too-large",
        "Rank points so large that totals could not be held exactly.",
        "Choose a smaller rank-point base.",
    ),
    Kind(
        "option.unknown",
        "A setting this program does not know (a misspelled keyword).",
        "Use one of the settings the message lists.",
    ),
    Kind(
        "option.bad-choice",
        "A setting's value is not one of its choices.",
        "Give one of the choices the message lists.",
    ),
    Kind(
        "option.bad-number",
        "A number setting is not a number by the number grammar.",
        "Write it plainly: 10000, 0.7.",
    ),
    Kind(
        "option.bad-schedule",
        "A base schedule is not minute:base pairs from minute 0, both growing.",
        "Write it as 0:100,4:200,8:400.",
    ),
    Kind("option.bad-value", "A setting's value cannot be used.", "See the message."),
    Kind(
        "option.missing",
        "A command was given without an argument or option it needs.",
        "Give it; `duplicate COMMAND -h` lists them.",
    ),
    Kind(
        "command.unknown",
        "No command of that name (a misspelling?).",
        "Use one of the commands `duplicate -h` lists.",
    ),
    Kind(
        "option.conflict",
        "Two options do not go together.",
        "Give one of them.",
    ),
    Kind(
        "option.not-used",
        "A setting of one scoring method given for an event scored by another (an IMP "
        "setting for matchpoints): it changes nothing.",
        "Leave it out, or give the method it belongs to (--method).",
    ),
    Kind(
        "dask.not-installed",
        "The Dask engine was asked for and Dask is not installed.",
        "Install it: pip install 'duplicate[dask]'.",
    ),
    Kind(
        "dask.local-only",
        "What was asked runs on the local engine only (factoring, averages, weighted scores).",
        "Run on the local engine.",
    ),
    # -- what an error without a more precise code is -------------------------------------
    Kind("usage", "Options or rules that cannot be used.", "See the message."),
    Kind("io", "A file or stream that cannot be read or written.", "See the message."),
    # -- output ---------------------------------------------------------------------------
    Kind(
        "output.unknown-format",
        "The output's format cannot be told from its suffix, or is unknown.",
        "Use .csv, .xlsx, .parquet or .json, or give the format.",
    ),
    Kind(
        "output.is-input",
        "An output would replace a file the run reads.",
        "Choose another name.",
    ),
    Kind(
        "output.folder",
        "A report cannot be written into that folder (a file, the current folder, or a folder this"
        " program did not write).",
        "Give a new or empty folder, or an earlier report.",
    ),
    Kind(
        "output.too-many-rows",
        "The table has more rows than an Excel sheet holds.",
        "Write CSV or Parquet.",
    ),
    Kind(
        "io.no-such-file",
        "The file is not there.",
        "Check the path.",
    ),
    Kind(
        "io.is-directory",
        "A folder was given where a file is read.",
        "Give the file.",
    ),
    Kind(
        "io.unreadable",
        "The file cannot be read (permissions, a device).",
        "Check the file and its permissions.",
    ),
    Kind(
        "io.unwritable",
        "A file cannot be written (permissions, a full disk, a missing folder).",
        "Check the folder, its permissions and the free space.",
    ),
    Kind(
        "io.stdin",
        "Standard input is closed, or cannot be read.",
        "Give a file instead of '-'.",
    ),
    Kind("output.not-pdf", "Printed cards are written to a .pdf file.", "Give a .pdf file."),
    Kind(
        "output.stdout",
        "A library call asked to write to standard output.",
        "Give a file; '-' is for the command line.",
    ),
    Kind(
        "io.stdout",
        "Standard output is closed, or cannot be written.",
        "Write to a file with -o.",
    ),
    Kind(
        "print.no-event",
        "Printed cards come from an event folder, and the source is not one.",
        "Give the event folder.",
    ),
    Kind(
        "print.no-seating",
        "The event folder holds no published seating of the round asked for.",
        "Seat the round from the folder first (`duplicate seat DIR`).",
    ),
    Kind(
        "print.no-font",
        "No Chinese TrueType font that can be embedded in the PDF was found (or the file "
        "given is not one).",
        "Run `make fonts` (Debian's fonts-wqy-zenhei), or give a .ttf or .ttc font with "
        "Chinese glyphs with `--font FILE`.",
    ),
    Kind(
        "print.unprintable",
        "A name has characters the font has no glyph for (an emoji, say): each is "
        "printed as a white square.",
        "Write the name without them in the players file, or give a font that has them.",
    ),
    Kind(
        "print.bad-cards-per-page",
        "Score cards come 1, 2 or 4 to an A4 page.",
        "Give 1, 2 or 4.",
    ),
    Kind(
        "print.no-deals",
        "Blank score sheets and travellers need the number of deals of the round, and no "
        "round has been played to count them from.",
        "Give the number of deals with `--deals N`.",
    ),
)

CATALOG: dict[str, Kind] = {kind.code: kind for kind in KINDS}


def kind_of(code: str) -> Kind | None:
    """The catalog's entry for `code`."""
    return CATALOG.get(code)


FAMILIES = {
    "input": "Reading a file",
    "column": "Columns",
    "cell": "Cells",
    "event": "An event folder",
    "players": "Players and partners",
    "player": "Players and partners",
    "partners": "Players and partners",
    "seating": "Seating",
    "seat": "Seating",
    "scoring": "Scoring",
    "number": "Scoring",
    "raw": "Game scores and points races",
    "game": "Game scores and points races",
    "games": "Game scores and points races",
    "scheme": "Game scores and points races",
    "hands": "Stage formats",
    "stage": "Stage formats",
    "final": "Stage formats",
    "session": "Bridge sessions",
    "import": "Bridge sessions",
    "published": "Audits",
    "adjustment": "Corrections",
    "entry": "Likely data-entry mistakes (warnings)",
    "manifest": "Audits",
    "rules": "Rules and options",
    "option": "Rules and options",
    "command": "Rules and options",
    "dask": "Rules and options",
    "usage": "Rules and options",
    "output": "Output",
    "io": "Output",
    "print": "Output",
}


def catalog_markdown() -> str:
    """docs/problems.md: every code, what it means and how to fix it, by family."""
    lines = [
        "# Problems",
        "",
        "Every problem a command reports carries a code: `error[cell.not-a-score]: ...`,",
        "`warning[input.blank-rows]: ...`, and `validate --format json` lists each with its",
        "code, rows and column. Codes are stable: scripts may test them. This page is",
        "written from the catalog in the code (`duplicate/problems.py`, `make docs`).",
        "",
    ]
    sections: dict[str, list[Kind]] = {}
    for kind in KINDS:
        family = FAMILIES[kind.code.split(".", 1)[0]]
        sections.setdefault(family, []).append(kind)
    for family, kinds in sections.items():
        lines += [f"## {family}", "", "| code | what it means | what to do |", "|---|---|---|"]
        lines += [f"| `{k.code}` | {k.meaning} | {k.fix} |" for k in kinds]
        lines.append("")
    return "\n".join(lines)
