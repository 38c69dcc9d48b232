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

Importing the package loads no numpy, pandas or Arrow: `duplicate --help` stays quick,
and each function loads what it uses.
"""

from __future__ import annotations

# The one place the version is written (pyproject.toml reads it from here): asking the
# installed package's metadata instead slows every command's start.
__version__ = "0.1.0"

from duplicate.actions.bridge import import_event, import_session
from duplicate.actions.event import (
    Acceptance,
    EventStatus,
    event_accept,
    event_add,
    event_adjust,
    event_adjustments,
    event_init,
    event_player_add,
    event_player_withdraw,
    event_status,
    event_store_seating,
    event_withdraw,
)
from duplicate.actions.explain import explain
from duplicate.actions.game_score import game_score
from duplicate.actions.leaderboard import leaderboard
from duplicate.actions.manifest import ManifestCheck, check_manifest
from duplicate.actions.printing import Printed, print_event
from duplicate.actions.report import Site, report
from duplicate.actions.score import score
from duplicate.actions.seat import Seated, seat
from duplicate.actions.stages import StageTable, elimination, final
from duplicate.actions.standings import standings
from duplicate.actions.validate import Validation, validate
from duplicate.actions.verify import Verification, verify
from duplicate.errors import (
    DuplicateError,
    InputOutputError,
    InvalidData,
    OutOfRange,
    Problem,
    UsageError,
)
from duplicate.event import Event, EventInfo, Part, Player, Players
from duplicate.io.publisher import publish
from duplicate.load import load_event
from duplicate.output import Table
from duplicate.rules import Rules, load_rules
from duplicate.scoring.explanation import Explanation
from duplicate.stages.stage_rules import StageRules

__all__ = [
    "Acceptance",
    "DuplicateError",
    "Event",
    "EventInfo",
    "EventStatus",
    "Explanation",
    "InputOutputError",
    "InvalidData",
    "ManifestCheck",
    "OutOfRange",
    "Part",
    "Player",
    "Players",
    "Printed",
    "Problem",
    "Rules",
    "Seated",
    "Site",
    "StageRules",
    "StageTable",
    "Table",
    "UsageError",
    "Validation",
    "Verification",
    "__version__",
    "check_manifest",
    "elimination",
    "event_accept",
    "event_add",
    "event_adjust",
    "event_adjustments",
    "event_init",
    "event_player_add",
    "event_player_withdraw",
    "event_status",
    "event_store_seating",
    "event_withdraw",
    "explain",
    "final",
    "game_score",
    "import_event",
    "import_session",
    "leaderboard",
    "load_event",
    "load_rules",
    "print_event",
    "publish",
    "report",
    "score",
    "seat",
    "standings",
    "validate",
    "verify",
]
