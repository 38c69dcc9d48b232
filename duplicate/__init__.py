"""Score duplicate card-game events: matchpoints, rank points and standings.

Every command of the `duplicate` program is a function here, and gives what the
command writes; each takes any source `load_event` takes (a results file, an event
folder, a hand log, a bridge session, or an Event already loaded) and settings by
keyword (the command line's options: `tie_ranking="dense"`, `adjustments="adj.csv"`):

    >>> import duplicate
    >>> table = duplicate.standings("sample_data/spec_example.csv", tie_ranking="dense")
    >>> table.frame[["place", "player", "total"]]  # doctest: +SKIP
    >>> duplicate.publish(table, "standings.csv", manifest="run.json")  # doctest: +SKIP

| command         | function |
|-----------------|----------|
| score           | `score(source, **settings)` -> Table (`.frame`, `.arrow()`) |
| standings       | `standings(source, **settings)` -> Table |
| explain         | `explain(source, player, **settings)` -> Explanation |
| verify          | `verify(source, published, **settings)` -> Verification |
| validate        | `validate(source, seating=..., game=..., strict=...)` -> Validation |
| seat            | `seat(source, table_size=..., **settings)` -> Seated |
| report          | `report(source, lang=...)` -> Site |
| print           | `print_event(folder, what)` -> Printed |
| elimination     | `elimination(hands, **stage settings)` -> StageTable |
| final           | `final(hands, hands=N, carried=...)` -> Table |
| game-score      | `game_score(raw, game)` -> Table |
| leaderboard     | `leaderboard(games, scheme)` -> Table |
| import          | `import_session(session)` -> Table; `import_event(session, folder)` |
| event ...       | `event_init`, `event_add`, `event_withdraw`, `event_adjust`, `event_status` |
| event accept    | `event_accept(folder, reason)` -> Acceptance |
| event player    | `event_player_add`, `event_player_withdraw` |
| manifest check  | `check_manifest(path)` -> ManifestCheck |
| -o, --manifest  | `publish(result, path, manifest=...)` |
| rules           | `Rules`, `load_rules(path)`, `Rules.to_toml()` |

Importing the package loads no numpy, pandas or Arrow, and each name is imported when
first used: `duplicate --help` stays quick, and each function loads what it uses.
"""

from __future__ import annotations

# The one place the version is written (pyproject.toml reads it from here): asking the
# installed package's metadata instead slows every command's start.
__version__ = "0.1.0"

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from duplicate.actions.bridge import import_event as import_event
    from duplicate.actions.bridge import import_session as import_session
    from duplicate.actions.event import Acceptance as Acceptance
    from duplicate.actions.event import EventStatus as EventStatus
    from duplicate.actions.event import event_accept as event_accept
    from duplicate.actions.event import event_add as event_add
    from duplicate.actions.event import event_adjust as event_adjust
    from duplicate.actions.event import event_adjustments as event_adjustments
    from duplicate.actions.event import event_init as event_init
    from duplicate.actions.event import event_player_add as event_player_add
    from duplicate.actions.event import event_player_withdraw as event_player_withdraw
    from duplicate.actions.event import event_status as event_status
    from duplicate.actions.event import event_store_seating as event_store_seating
    from duplicate.actions.event import event_withdraw as event_withdraw
    from duplicate.actions.explain import explain as explain
    from duplicate.actions.game_score import game_score as game_score
    from duplicate.actions.leaderboard import leaderboard as leaderboard
    from duplicate.actions.manifest import ManifestCheck as ManifestCheck
    from duplicate.actions.manifest import check_manifest as check_manifest
    from duplicate.actions.printing import Printed as Printed
    from duplicate.actions.printing import print_event as print_event
    from duplicate.actions.report import Site as Site
    from duplicate.actions.report import report as report
    from duplicate.actions.score import score as score
    from duplicate.actions.seat import Seated as Seated
    from duplicate.actions.seat import seat as seat
    from duplicate.actions.stages import StageTable as StageTable
    from duplicate.actions.stages import elimination as elimination
    from duplicate.actions.stages import final as final
    from duplicate.actions.standings import standings as standings
    from duplicate.actions.validate import Validation as Validation
    from duplicate.actions.validate import validate as validate
    from duplicate.actions.verify import Verification as Verification
    from duplicate.actions.verify import verify as verify
    from duplicate.errors import DuplicateError as DuplicateError
    from duplicate.errors import InputOutputError as InputOutputError
    from duplicate.errors import InvalidData as InvalidData
    from duplicate.errors import OutOfRange as OutOfRange
    from duplicate.errors import Problem as Problem
    from duplicate.errors import UsageError as UsageError
    from duplicate.event import Event as Event
    from duplicate.event import EventInfo as EventInfo
    from duplicate.event import Part as Part
    from duplicate.event import Player as Player
    from duplicate.event import Players as Players
    from duplicate.io.publisher import publish as publish
    from duplicate.load import load_event as load_event
    from duplicate.output import Table as Table
    from duplicate.rules import Rules as Rules
    from duplicate.rules import load_rules as load_rules
    from duplicate.scoring.explanation import Explanation as Explanation
    from duplicate.stages.stage_rules import StageRules as StageRules

# Each name the package exports, and the module it comes from (the imports above are
# for type checkers; tests/test_library.py keeps the two alike).
_EXPORTS = {
    "Acceptance": "duplicate.actions.event",
    "DuplicateError": "duplicate.errors",
    "Event": "duplicate.event",
    "EventInfo": "duplicate.event",
    "EventStatus": "duplicate.actions.event",
    "Explanation": "duplicate.scoring.explanation",
    "InputOutputError": "duplicate.errors",
    "InvalidData": "duplicate.errors",
    "ManifestCheck": "duplicate.actions.manifest",
    "OutOfRange": "duplicate.errors",
    "Part": "duplicate.event",
    "Player": "duplicate.event",
    "Players": "duplicate.event",
    "Printed": "duplicate.actions.printing",
    "Problem": "duplicate.errors",
    "Rules": "duplicate.rules",
    "Seated": "duplicate.actions.seat",
    "Site": "duplicate.actions.report",
    "StageRules": "duplicate.stages.stage_rules",
    "StageTable": "duplicate.actions.stages",
    "Table": "duplicate.output",
    "UsageError": "duplicate.errors",
    "Validation": "duplicate.actions.validate",
    "Verification": "duplicate.actions.verify",
    "check_manifest": "duplicate.actions.manifest",
    "elimination": "duplicate.actions.stages",
    "event_accept": "duplicate.actions.event",
    "event_add": "duplicate.actions.event",
    "event_adjust": "duplicate.actions.event",
    "event_adjustments": "duplicate.actions.event",
    "event_init": "duplicate.actions.event",
    "event_player_add": "duplicate.actions.event",
    "event_player_withdraw": "duplicate.actions.event",
    "event_status": "duplicate.actions.event",
    "event_store_seating": "duplicate.actions.event",
    "event_withdraw": "duplicate.actions.event",
    "explain": "duplicate.actions.explain",
    "final": "duplicate.actions.stages",
    "game_score": "duplicate.actions.game_score",
    "import_event": "duplicate.actions.bridge",
    "import_session": "duplicate.actions.bridge",
    "leaderboard": "duplicate.actions.leaderboard",
    "load_event": "duplicate.load",
    "load_rules": "duplicate.rules",
    "print_event": "duplicate.actions.printing",
    "publish": "duplicate.io.publisher",
    "report": "duplicate.actions.report",
    "score": "duplicate.actions.score",
    "seat": "duplicate.actions.seat",
    "standings": "duplicate.actions.standings",
    "validate": "duplicate.actions.validate",
    "verify": "duplicate.actions.verify",
}

__all__ = ["__version__", *_EXPORTS]


if not TYPE_CHECKING:  # type checkers see the imports above, and nothing else

    def __getattr__(name: str) -> Any:
        if name in _EXPORTS:
            value = getattr(importlib.import_module(_EXPORTS[name]), name)
        else:
            # A module of the package (duplicate.errors), as an import of it would give.
            try:
                value = importlib.import_module(f"{__name__}.{name}")
            except ModuleNotFoundError:
                raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(__all__)
