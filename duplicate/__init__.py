"""Score duplicate card-game events: matchpoints, rank points and standings.

The library is what the `duplicate` command calls:

    >>> import duplicate
    >>> results = duplicate.read_results("sample_data/spec_example.csv")
    >>> duplicate.standings(results)[["place", "player", "total"]]  # doctest: +SKIP

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
    from duplicate.io.read import read_adjustments, read_results
    from duplicate.model.adjustments import Adjustments, parse_adjustments
    from duplicate.model.results import Results, parse_results
    from duplicate.rules import Rules, load_rules
    from duplicate.scoring.methods import score, score_batches, standings

_EXPORTS = {
    "Results": "duplicate.model.results",
    "parse_results": "duplicate.model.results",
    "score": "duplicate.scoring.methods",
    "score_batches": "duplicate.scoring.methods",
    "standings": "duplicate.scoring.methods",
    "read_results": "duplicate.io.read",
    "read_adjustments": "duplicate.io.read",
    "Adjustments": "duplicate.model.adjustments",
    "parse_adjustments": "duplicate.model.adjustments",
    "Rules": "duplicate.rules",
    "load_rules": "duplicate.rules",
    "DuplicateError": "duplicate.errors",
    "InvalidData": "duplicate.errors",
    "InputOutputError": "duplicate.errors",
    "Problem": "duplicate.errors",
    "UsageError": "duplicate.errors",
}

__all__ = [
    "Adjustments",
    "DuplicateError",
    "InputOutputError",
    "InvalidData",
    "Problem",
    "Results",
    "Rules",
    "UsageError",
    "__version__",
    "load_rules",
    "parse_adjustments",
    "parse_results",
    "read_adjustments",
    "read_results",
    "score",
    "score_batches",
    "standings",
]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'duplicate' has no attribute {name!r}")
