"""One loader for every source a user has: `load_event`.

A results file (CSV, Parquet, .xlsx, or standard input), a folder of Parquet files, an
event folder (duplicate.io.event), a stage's hand log, or a bridge session (PBN or
USEBIO): each becomes an Event. The source's own rules (an event folder's rules.toml, what
a bridge session implies) come first, then a rules file, then the settings given; the
event is checked once, here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from duplicate.errors import Problem, UsageError
from duplicate.event import Event, Part, Player, Players
from duplicate.limits import MAX_ROWS
from duplicate.options import RULES, DealScopeName, given, settings
from duplicate.rules import Rules, load_rules

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.io.source import Source as Input
    from duplicate.model.adjustments import Adjustments
    from duplicate.model.results import Results

# What a source holds: results, a stage's hand log, raw outcomes (results whose scores
# `game-score` computes), or a bridge session; "auto" tells a session from results.
SourceKind = Literal["auto", "results", "hands", "raw", "session"]

SESSION_SUFFIXES = (".pbn", ".xml")
# How messages name a table given in memory, and an event given no results.
FRAME = "<data>"
NO_SOURCE = "<no results yet>"


def load_event(
    source: Any,
    *,
    kind: SourceKind = "auto",
    rules: Rules | None = None,
    max_rows: int | None = MAX_ROWS,
    **settings: Any,
) -> Event:
    """The event `source` holds, under its rules with `settings` applied over them.

    `source`: a path (a file, a folder of Parquet files, an event folder), "-" for
    standard input, validated Results, a DataFrame with the input columns, an Event, or
    None (an event with no results yet: its players and rules, to draw round 1).
    `settings`: any setting of duplicate.options by keyword (scoring, stage, source):
    `rules_file`, `adjustments` and `players` (a path, a DataFrame with the file's
    columns, or an object already read),
    `encoding`, `sheet`, `formulas`, and each rules setting (`tie_ranking="dense"`, `base="0:100"`).
    `rules`: rules to start from instead of the source's own.
    `max_rows`: refuse an input of more rows (None: no limit).

    Raises InvalidData listing every problem of the event, UsageError for settings that
    cannot be used, InputOutputError for a file that cannot be read.
    """
    objects = {k: settings.pop(k) for k in ("adjustments", "players") if _is_object(settings, k)}
    values = given(settings, *RULES, "source")
    if rules is not None and "rules_file" in values:
        raise UsageError("give rules or {opt:rules_file}, not both", "option.conflict")
    read = _Reader(values.get("encoding"), values.get("sheet"), max_rows, values.get("formulas"))
    given_rules = load_rules(values["rules_file"]) if "rules_file" in values else rules
    # A deal scope the settings or the rules given decide: results are read and checked
    # under it, once (checked first by another scope, problems of this one go unlisted).
    scope = values.get("deal_scope", given_rules.deal_scope if given_rules else None)
    if source is None:
        event = Event(NO_SOURCE, Rules())
    else:
        event = source if isinstance(source, Event) else read.event(source, kind, scope)
    start = given_rules or event.rules
    event = event.with_rules(start.with_settings(**rules_given(values)))
    event = _noting_unused(event, rules_given(values))
    event = _with_side_files(event, read, objects, values)
    return _checked(event)


def _noting_unused(event: Event, given: dict[str, Any]) -> Event:
    """The event, warned of each setting given that its scoring method does not read."""
    from dataclasses import replace

    from duplicate.scoring.methods import unused_settings

    unused = unused_settings(event.rules, given, event.source)
    return replace(event, warnings=(*event.warnings, *unused)) if unused else event


def rules_given(values: dict[str, Any]) -> dict[str, Any]:
    """The rules settings among the settings given."""
    names = {s.name for s in settings(*RULES)}
    return {k: v for k, v in values.items() if k in names}


def _is_object(settings: dict[str, Any], name: str) -> bool:
    value = settings.get(name)
    return value is not None and not isinstance(value, str | Path)


class _Reader:
    """Reads the parts of an event with the source settings given."""

    def __init__(
        self,
        encoding: str | None,
        sheet: str | None,
        max_rows: int | None,
        formulas: str | None = None,
    ) -> None:
        self.encoding, self.sheet, self.max_rows = encoding, sheet, max_rows
        self.formulas = formulas

    def event(
        self, source: Any, kind: SourceKind, deal_scope: DealScopeName | None = None
    ) -> Event:
        """The event `source` holds; a table read under `deal_scope` when given."""
        from duplicate.io.source import Source as Input
        from duplicate.model.results import Results

        if isinstance(source, Results):
            return Event(source.source, Rules(deal_scope=source.deal_scope), results=source)  # type: ignore[arg-type]
        rules = Rules() if deal_scope is None else Rules(deal_scope=deal_scope)
        if not isinstance(source, str | Path | Input):
            return self._frame(source, kind, rules)
        where: str | Input = source if isinstance(source, Input) else str(source)
        given = where.given if isinstance(where, Input) else where
        if given != "-" and Path(given).is_dir():
            from duplicate.io.event_folder import is_event

            if is_event(given):
                return self._folder(Path(given))
        if kind == "auto":
            kind = "session" if looks_like_session(where) else "results"
        if kind == "hands":
            return self._hands(where)
        if kind == "session":
            return self._session(where)
        return self._results(where, score_required=kind != "raw", rules=rules)

    def _frame(self, frame: pd.DataFrame, kind: SourceKind, rules: Rules) -> Event:
        """A table in memory, as `kind` says: results, raw outcomes or a hand log."""
        from duplicate.model.results import parse_results

        if kind == "hands":
            from duplicate.stages.hand_log import parse_hand_log

            return Event(FRAME, Rules(), hands=parse_hand_log(frame, FRAME, 1))
        results = parse_results(
            frame, FRAME, deal_scope=rules.deal_scope, score_required=kind != "raw"
        )
        outcomes = frame if kind == "raw" else None
        return Event(results.source, rules, results=results, outcomes=outcomes)

    def _results(
        self, path: str | Input, score_required: bool = True, rules: Rules | None = None
    ) -> Event:
        from dataclasses import replace

        from duplicate.io.read import read_raw, read_results, read_warnings, source_name
        from duplicate.model.results import parse_results

        rules = rules or Rules()
        name = source_name(path)
        if score_required:
            results = read_results(
                path,
                self.encoding,
                rules.deal_scope,
                max_rows=self.max_rows,
                sheet=self.sheet,
                formulas=self.formulas,
            )
            part = Part("results", _given(path), len(results))
            return Event(name, rules, results=results, parts=(part,))
        # Raw outcomes: the identities checked, the table kept for the game's scorer.
        raw, first_row = read_raw(path, self.encoding, self.max_rows, self.sheet, self.formulas)
        warnings = read_warnings(raw)
        results = parse_results(raw, name, first_row, rules.deal_scope, score_required=False)
        results = replace(results, read_warnings=tuple(warnings)) if warnings else results
        part = Part("raw", _given(path), len(raw))
        return Event(name, rules, results=results, outcomes=raw, parts=(part,))

    def _hands(self, path: str | Input) -> Event:
        from duplicate.io.read import read_hand_log, source_name

        log = read_hand_log(path, self.encoding, self.max_rows)
        part = Part("hands", _given(path), len(log.frame))
        return Event(source_name(path), Rules(), hands=log, parts=(part,))

    def _session(self, path: str | Input) -> Event:
        from duplicate.event import Player, Players
        from duplicate.imports import read_session
        from duplicate.io.read import source_name
        from duplicate.model.adjustments import parse_adjustments
        from duplicate.model.results import parse_results

        session = read_session(path)
        rules = session.rules
        name = source_name(path)
        results = parse_results(session.table.copy(), name, 1, rules.deal_scope)
        part = Part("session", _given(path), len(session.table))
        # The session's artificial scores are its adjustments; its names, its players.
        given = session.adjustments
        adjustments = parse_adjustments(given, name) if given is not None and len(given) else None
        people = session.players()
        players = None
        if (people["name"] != "").any():
            players = Players(
                tuple(
                    Player(p, n, registered=i + 1)
                    for i, (p, n) in enumerate(zip(people["player"], people["name"], strict=True))
                ),
                name,
            )
        # Its title and date head the pages, as those of the event folder it imports as.
        info = session.info.event_info()
        return Event(
            name,
            rules,
            results=results,
            players=players,
            adjustments=adjustments,
            info=info,
            parts=(part,),
            note=session.note,
            warnings=session.warnings,
        )

    def _folder(self, folder: Path) -> Event:
        """An event folder, checked against its log first: a file changed, missing or
        not logged, or the log edited, is an error naming it."""
        from duplicate.io.event_write import reading

        with reading(folder):
            return self._stored(folder)

    def _stored(self, folder: Path) -> Event:
        from dataclasses import replace

        from duplicate.io import event_folder as stored

        rules = stored.event_rules(folder)
        rounds = stored.rounds_folder(folder)
        if not stored.stored_rounds(folder):
            # No round added yet: the event's players, rules and seatings only.
            event = Event(str(folder), rules)
            parts: tuple[Part, ...] = (Part("event", str(folder / stored.EVENT_FILE)),)
        else:
            event = self._results(str(folder), rules=rules)
            parts = (
                Part("event", str(folder / stored.EVENT_FILE)),
                Part("results", str(rounds), event.parts[0].rows),
            )
        return replace(
            event,
            source=str(folder),
            info=stored.load_info(folder),
            folder=str(folder),
            seatings=stored.published_seatings(folder),
            parts=parts,
        )

    def players(self, path: str) -> Players:
        return load_players(path, self.encoding, self.max_rows)

    def adjustments(self, path: str) -> Adjustments:
        from duplicate.io.read import read_adjustments

        return read_adjustments(path, self.encoding, self.max_rows)


def _read_table(name: str, value: Any) -> Any:
    """Players or adjustments given as a table (a DataFrame with the file's columns):
    read as the file would be."""
    import pandas as pd

    if not isinstance(value, pd.DataFrame):
        return value
    if name == "players":
        return players_of(value, "<players>")
    from duplicate.model.adjustments import parse_adjustments

    return parse_adjustments(value, "<adjustments>")


def load_players(
    path: str | Path, encoding: str | None = None, max_rows: int | None = MAX_ROWS
) -> Players:
    """A players file: player (required), name, club, status (active|withdrawn),
    registered (the order of registration; file order without it)."""
    from duplicate.io.read import read_raw, source_name

    raw, _ = read_raw(path, encoding, max_rows)
    return players_of(raw, source_name(path))


def players_of(raw: pd.DataFrame, source: str) -> Players:
    """The players of a players table (player, name, club, status, registered)."""
    from duplicate.seating.players import parse_players, player_details

    field = parse_players(raw, source)
    details = player_details(raw)
    people = tuple(
        Player(str(p), str(name), str(club), int(registered), bool(withdrawn))
        for p, name, club, registered, withdrawn in zip(
            field["player"],
            details["name"],
            details["club"],
            field["registered"],
            field["withdrawn"],
            strict=True,
        )
    )
    return Players(people, source)


def _with_side_files(
    event: Event, read: _Reader, objects: dict[str, Any], values: dict[str, Any]
) -> Event:
    """The event with its players and adjustments: given (a path, a table, or an object
    already read), else the event folder's own."""
    from dataclasses import replace

    from duplicate.io import event_folder as stored

    objects = {name: _read_table(name, value) for name, value in objects.items()}

    parts = list(event.parts)
    players = objects.get("players", event.players)
    path = values.get("players") or (
        stored.players_file(event.folder) if event.folder and "players" not in objects else None
    )
    if path is not None:
        players = read.players(str(path))
        parts.append(Part("players", str(path), len(players)))
    adjustments = objects.get("adjustments", event.adjustments)
    path = values.get("adjustments") or (
        stored.adjustments_file(event.folder)
        if event.folder and "adjustments" not in objects
        else None
    )
    if path is not None:
        adjustments = read.adjustments(str(path))
        parts.append(Part("adjustments", str(path), len(adjustments.frame)))
    return replace(event, players=players, adjustments=adjustments, parts=tuple(parts))


def _checked(event: Event) -> Event:
    """The event with the warnings its results give: blank rows left out, columns not
    used, and every comparison group single (a movement scored by round)."""
    from dataclasses import replace

    results = event.results
    if results is None:
        return event
    warnings = list(event.warnings) + results_warnings(results)
    from duplicate.scoring.scores import SINGLE_GROUPS_WARNING, every_group_single

    if every_group_single(results, event.rules):
        warnings.append(
            Problem(event.source, SINGLE_GROUPS_WARNING, code="scoring.nothing-compared")
        )
    return replace(event, warnings=tuple(warnings))


def results_warnings(results: Results) -> list[Problem]:
    """Rows left out for being blank (a spreadsheet's habit), and columns not used (a
    misspelled header reads as no column at all)."""
    from duplicate.model.columns import closest_match, every_alias

    found = list(results.read_warnings)
    for header in results.unused_columns:
        guess = closest_match(header, every_alias())
        hint = f"did you mean {guess!r}?" if guess else "a note column may be named 备注"
        found.append(
            Problem(
                results.source,
                f"column {header!r} is not used",
                column=header,
                hint=hint,
                code="input.unused-column",
            )
        )
    if results.blank_rows:
        plural = "s" if results.blank_rows != 1 else ""
        more = "" if results.blank_rows <= len(results.blank_row_numbers) else " and more"
        found.append(
            Problem(
                results.source,
                f"{results.blank_rows} blank row{plural} left out{more}",
                results.blank_row_numbers,
                code="input.blank-rows",
            )
        )
    return found


def looks_like_session(where: str | Input) -> bool:
    """A bridge session (PBN or USEBIO) rather than a table: by its suffix, else by
    its first bytes (XML, or a PBN tag or comment)."""
    from duplicate.io.source import Source as Input

    given = where.given if isinstance(where, Input) else where
    if given != "-" and Path(given).suffix.casefold() in SESSION_SUFFIXES:
        return True
    if isinstance(where, Input) and where.kind != "csv":
        return False
    if isinstance(where, Input) and where.data is not None:
        start = where.data[:64]
    elif given == "-" or not Path(given).is_file():
        return False
    else:
        try:
            with open(given, "rb") as handle:
                start = handle.read(64)
        except OSError:
            return False
    start = start.lstrip(b"\xef\xbb\xbf \t\r\n")
    return start.startswith((b"<?xml", b"<EVENT", b"% PBN", b"%PBN", b"[Event "))


def _given(where: str | Input) -> str:
    """A source as the user named it ("-" for standard input)."""
    from duplicate.io.source import Source as Input

    return where.given if isinstance(where, Input) else where


def player_of(event: Event, text: str) -> str:
    """The player id `text` names: an id in the results, or a registered player's
    name (unique). UsageError when it names nobody, or several players."""
    if event.players is not None:
        named = event.players.ids_named(text)
        if len(named) > 1:
            raise UsageError(
                f"{len(named)} players are called {text!r} ({', '.join(named)}); give the id",
                "player.ambiguous",
            )
        if named:
            return named[0]
    return text
