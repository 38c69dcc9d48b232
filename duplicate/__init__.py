"""Score duplicate card-game events: matchpoints, rank points and standings.

The library is what the `duplicate` command calls; each command has its function here:

    >>> import duplicate
    >>> results = duplicate.read_results("sample_data/spec_example.csv")
    >>> duplicate.standings(results)[["place", "player", "total"]]  # doctest: +SKIP

| command     | function |
|-------------|----------|
| score       | `score(results, rules, adjustments)` (`score_batches` for big events) |
| standings   | `standings(results, rules, adjustments)` |
| explain     | `explain(results, player, rules, adjustments)` |
| verify      | `verify(results, read_published(path), rules, adjustments)` |
| seat        | `seat_next_round(results, rules, players=..., table_size=...)` |
| validate    | `read_results(path)` (raises InvalidData), `seating_problems(...)` |
| game-score  | `scored_raw(parse_results(raw, score_required=False), raw, game, rules)` |
| leaderboard | `leaderboard(read_table(path)[0], load_scheme("guandan"))` |
| elimination | `eliminate(read_hand_log(path), rules.stage)` (`.standings`, `.ledger`) |
| final       | `final_standings(read_hand_log(path), hands, carried, base, registered)` |
| rules       | `Rules`, `load_rules(path)`, `Rules.to_toml()`, `StageRules` |
| import      | `read_session(path, winners="auto")` (PBN or USEBIO: table and a note) |
| -o, --manifest | `write_table(table, path, rules, kind)`, `write_manifest(...)` |

Names are loaded on first use, so `duplicate --help` does not pay for pandas.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The one place the version is written (pyproject.toml reads it from here): asking the
# installed package's metadata instead slows every command's start.
__version__ = "0.1.0"

if TYPE_CHECKING:
    from duplicate.errors import (
        DuplicateError,
        InputOutputError,
        InvalidData,
        Problem,
        UsageError,
    )
    from duplicate.games.leaderboard import leaderboard, load_scheme
    from duplicate.games.scores import scored_raw
    from duplicate.imports import read_session
    from duplicate.io.manifest import input_record, write_manifest
    from duplicate.io.publish import Written, write_table
    from duplicate.io.read import (
        read_adjustments,
        read_hand_log,
        read_published,
        read_results,
    )
    from duplicate.io.read import (
        read_raw as read_table,
    )
    from duplicate.model.adjustments import Adjustments, parse_adjustments
    from duplicate.model.results import Results, parse_results
    from duplicate.rules import Rules, load_rules
    from duplicate.scoring.explain import explain
    from duplicate.scoring.methods import score, score_batches, standings
    from duplicate.scoring.score_table import ScoreBatches
    from duplicate.scoring.verify import verify
    from duplicate.seating.check import seating_problems
    from duplicate.seating.next_round import Seating, seat_next_round
    from duplicate.seating.players import parse_players
    from duplicate.stages.elimination import Stage, eliminate
    from duplicate.stages.final import final_standings
    from duplicate.stages.stage_rules import StageRules

# name -> (module, name there)
_EXPORTS = {
    "Results": ("duplicate.model.results", "Results"),
    "parse_results": ("duplicate.model.results", "parse_results"),
    "Adjustments": ("duplicate.model.adjustments", "Adjustments"),
    "parse_adjustments": ("duplicate.model.adjustments", "parse_adjustments"),
    "score": ("duplicate.scoring.methods", "score"),
    "score_batches": ("duplicate.scoring.methods", "score_batches"),
    "standings": ("duplicate.scoring.methods", "standings"),
    "ScoreBatches": ("duplicate.scoring.score_table", "ScoreBatches"),
    "explain": ("duplicate.scoring.explain", "explain"),
    "verify": ("duplicate.scoring.verify", "verify"),
    "seat_next_round": ("duplicate.seating.next_round", "seat_next_round"),
    "Seating": ("duplicate.seating.next_round", "Seating"),
    "seating_problems": ("duplicate.seating.check", "seating_problems"),
    "parse_players": ("duplicate.seating.players", "parse_players"),
    "scored_raw": ("duplicate.games.scores", "scored_raw"),
    "leaderboard": ("duplicate.games.leaderboard", "leaderboard"),
    "load_scheme": ("duplicate.games.leaderboard", "load_scheme"),
    "read_results": ("duplicate.io.read", "read_results"),
    "read_hand_log": ("duplicate.io.read", "read_hand_log"),
    "read_session": ("duplicate.imports", "read_session"),
    "eliminate": ("duplicate.stages.elimination", "eliminate"),
    "Stage": ("duplicate.stages.elimination", "Stage"),
    "final_standings": ("duplicate.stages.final", "final_standings"),
    "StageRules": ("duplicate.stages.stage_rules", "StageRules"),
    "read_adjustments": ("duplicate.io.read", "read_adjustments"),
    "read_published": ("duplicate.io.read", "read_published"),
    "read_table": ("duplicate.io.read", "read_raw"),
    "write_table": ("duplicate.io.publish", "write_table"),
    "Written": ("duplicate.io.publish", "Written"),
    "write_manifest": ("duplicate.io.manifest", "write_manifest"),
    "input_record": ("duplicate.io.manifest", "input_record"),
    "Rules": ("duplicate.rules", "Rules"),
    "load_rules": ("duplicate.rules", "load_rules"),
    "DuplicateError": ("duplicate.errors", "DuplicateError"),
    "InvalidData": ("duplicate.errors", "InvalidData"),
    "InputOutputError": ("duplicate.errors", "InputOutputError"),
    "Problem": ("duplicate.errors", "Problem"),
    "UsageError": ("duplicate.errors", "UsageError"),
}

__all__ = [
    "Adjustments",
    "DuplicateError",
    "InputOutputError",
    "InvalidData",
    "Problem",
    "Results",
    "Rules",
    "ScoreBatches",
    "Seating",
    "Stage",
    "StageRules",
    "UsageError",
    "Written",
    "__version__",
    "eliminate",
    "explain",
    "final_standings",
    "input_record",
    "leaderboard",
    "load_rules",
    "load_scheme",
    "parse_adjustments",
    "parse_players",
    "parse_results",
    "read_adjustments",
    "read_hand_log",
    "read_published",
    "read_results",
    "read_session",
    "read_table",
    "score",
    "score_batches",
    "scored_raw",
    "seat_next_round",
    "seating_problems",
    "standings",
    "verify",
    "write_manifest",
    "write_table",
]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        module, attribute = _EXPORTS[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'duplicate' has no attribute {name!r}")
