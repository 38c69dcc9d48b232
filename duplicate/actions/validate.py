"""`validate`: check an event without scoring it; every problem listed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from duplicate.actions.common import event_of
from duplicate.errors import InvalidData, Namer, Problem, keyword, render
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.event import Event
    from duplicate.games.registry import Game


@dataclass(frozen=True)
class Validation:
    """What validation found: errors (the event cannot be scored as it is), warnings
    (likely data-entry mistakes, and what reading noticed), and what the event holds."""

    source: str
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    results: int = 0
    players: int = 0
    deals: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self, namer: Namer = keyword) -> dict[str, Any]:
        """The validation as JSON data: every problem with its code, rows and column
        (settings named by `namer`)."""
        return {
            "source": self.source,
            "ok": self.ok,
            "results": self.results,
            "players": self.players,
            "deals": self.deals,
            "errors": [problem_json(p, namer) for p in self.errors],
            "warnings": [problem_json(p, namer) for p in self.warnings],
        }


def problem_json(problem: Problem, namer: Namer = keyword) -> dict[str, Any]:
    """A problem as JSON data (its catalog code, where it is, what and the fix)."""
    return {
        "code": problem.code,
        "source": problem.source,
        "rows": list(problem.rows),
        "position": problem.position,
        "column": problem.column,
        "message": render(problem.message, namer),
        "hint": render(problem.hint, namer),
        "count": problem.count,
    }


def validate(
    source: Any,
    seating: Any = None,
    game: str | Game | None = None,
    strict: bool = False,
    rules: Rules | None = None,
    adjustments: Any = None,
    **settings: Any,
) -> Validation:
    """Check `source` as every command would read it: its results (who sat where, who
    played what), its adjustments (each names a result), its published seating
    (`seating`, or an event folder's own), and the likely data-entry mistakes (a player
    on one deal only, with `game` a table not summing to zero or a score the game
    cannot give): warnings, or errors with `strict`.

        >>> import duplicate
        >>> duplicate.validate("sample_data/big2_event.csv").ok  # doctest: +SKIP
        True
    """
    from duplicate.games.registry import game as game_named
    from duplicate.io.read import source_name

    name = source_name(source) if isinstance(source, str) else getattr(source, "source", "")
    try:
        event = event_of(source, rules, adjustments=adjustments, **settings)
    except InvalidData as exc:
        return Validation(name, tuple(exc.problems), ())
    results = event.needs_results("validate")
    errors = _seating_problems(event, seating, settings.get("encoding"))
    errors += _adjustment_problems(event)
    chosen = game or (event.info.game if event.info is not None else None)
    mistakes = _entry_problems(event, game_named(chosen) if chosen else None)
    warnings = list(event.warnings)
    if strict:
        errors += mistakes
    else:
        warnings += mistakes
    return Validation(
        event.source,
        tuple(errors),
        tuple(warnings),
        len(results),
        results.dense_key("section", "player")[1],
        results.dense_key(*_deal_keys(event))[1],
    )


def _deal_keys(event: Event) -> tuple[str, ...]:
    """What tells one deal from another, as they are counted: a bridge board is one
    board whichever sections played it (a Mitchell's North-South and East-West pairs
    are sections of their own, and play the same boards)."""
    from duplicate.games.words import BRIDGE, words_of

    keys = event.rules.scope.deal_keys
    return tuple(k for k in keys if k != "section") if words_of(event) is BRIDGE else keys


def _seating_problems(event: Event, seating: Any, encoding: str | None) -> list[Problem]:
    """How the results differ from the published seatings: the one given, or each of
    an event folder's."""
    from duplicate.io.read import read_raw, source_name
    from duplicate.seating.check import seating_problems

    results = event.needs_results("validate")
    files = [str(seating)] if seating is not None else list(event.seatings.values())
    problems: list[Problem] = []
    for path in files:
        raw, _ = read_raw(path, encoding)
        problems += seating_problems(results, raw, source_name(path))
    return problems


def _adjustment_problems(event: Event) -> list[Problem]:
    """Adjustments that name no result, clash, or cannot apply to the method."""
    from duplicate.model.row_adjustments import match_adjustments
    from duplicate.scoring.methods import method_of

    if event.adjustments is None:
        return []
    method = method_of(event.rules)
    if not method.takes_adjustments:
        raise method.unsupported("adjustments")
    try:
        match_adjustments(event.needs_results("validate"), event.adjustments)
    except InvalidData as exc:
        return list(exc.problems)
    return []


def _entry_problems(event: Event, game: Game | None) -> list[Problem]:
    from duplicate.model.entry_checks import entry_problems

    return entry_problems(event.needs_results("validate"), game)
