"""The rules options, declared once and given to every command that computes standings.

A command decorated with `@rules_options` takes `rules: Rules` as its last parameter;
its command line gets --rules, --tie-ranking, --deal-scope, --rank-factors,
--rank-base and --method, and the command receives the rules they make. Their choices
come from the rules' own types.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar, get_args

import typer

from duplicate.rules import (
    DealScope,
    Factoring,
    Method,
    Rules,
    TieRanking,
    load_rules,
    parse_factors,
    parse_whole,
    with_overrides,
)


def _choices(name: str, kind: Any) -> type[StrEnum]:
    """An enum of a Literal's values: typer lists and checks them."""
    return StrEnum(name, {value.replace("-", "_"): value for value in get_args(kind)})  # type: ignore[return-value]


TieRankingChoice = _choices("TieRankingChoice", TieRanking)
DealScopeChoice = _choices("DealScopeChoice", DealScope)
MethodChoice = _choices("MethodChoice", Method)
FactoringChoice = _choices("FactoringChoice", Factoring)

RulesFileOpt = Annotated[
    Path | None, typer.Option("--rules", help="Rules TOML file (see `duplicate rules`).")
]

# name -> (annotation): each a keyword of the command, None meaning "as the rules file says".
RULES_OPTIONS: dict[str, Any] = {
    "rules_file": RulesFileOpt,
    "tie_ranking": Annotated[
        TieRankingChoice | None,
        typer.Option(
            "--tie-ranking", help="Deal ranks after a tie: competition 1,1,3 or dense 1,1,2."
        ),
    ],
    "deal_scope": Annotated[
        DealScopeChoice | None,
        typer.Option("--deal-scope", help="Deal ids are unique per round, or across the event."),
    ],
    "rank_factors": Annotated[
        str | None,
        typer.Option(
            "--rank-factors",
            help="Rank-point factors for ranks 1, 2, ...; later ranks earn 1/rank. "
            "Default 1,0.7,0.5,0.35.",
        ),
    ],
    "rank_base": Annotated[
        str | None,
        typer.Option("--rank-base", help="Rank points for a factor of 1. Default 10000."),
    ],
    "factoring": Annotated[
        FactoringChoice | None,
        typer.Option(
            "--factoring",
            help="Groups smaller than the deal's normal size: none, or neuberg (bridge).",
        ),
    ],
    "method": Annotated[
        MethodChoice | None,
        typer.Option(
            "--method",
            help="matchpoints (rank points and tie-breaks), standard-points (003 platform) "
            "or percentage (bridge: the mean MP%).",
        ),
    ],
}


def effective_rules(
    rules_file: Path | None = None,
    tie_ranking: StrEnum | None = None,
    deal_scope: StrEnum | None = None,
    rank_factors: str | None = None,
    rank_base: str | None = None,
    method: StrEnum | None = None,
    factoring: StrEnum | None = None,
) -> Rules:
    """The rules file (or the spec's defaults) with the flags applied on top."""
    rules = load_rules(rules_file) if rules_file is not None else Rules()
    return with_overrides(
        rules,
        method=method.value if method else None,
        factoring=factoring.value if factoring else None,
        tie_ranking=tie_ranking.value if tie_ranking else None,
        deal_scope=deal_scope.value if deal_scope else None,
        rank_factors=parse_factors(rank_factors) if rank_factors else None,
        rank_base=parse_whole(rank_base, "--rank-base") if rank_base is not None else None,
    )


F = TypeVar("F", bound=Callable[..., Any])


def _event_rules_file(results: object) -> Path | None:
    """An event folder's rules (duplicate.io.event), for a command given the folder."""
    if isinstance(results, str) and results != "-":
        path = Path(results) / "rules.toml"
        if (Path(results) / "event.toml").is_file() and path.is_file():
            return path
    return None


def rules_options(command: F) -> F:
    """Give `command` the rules options in place of its `rules` parameter."""
    signature = inspect.signature(command, eval_str=True)
    kept = [p for p in signature.parameters.values() if p.name != "rules"]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=kind)
        for name, kind in RULES_OPTIONS.items()
    ]

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        chosen = {name: kwargs.pop(name, None) for name in RULES_OPTIONS}
        if chosen["rules_file"] is None:
            chosen["rules_file"] = _event_rules_file(kwargs.get("results"))
        return command(*args, **kwargs, rules=effective_rules(**chosen))

    # Typer reads the parameters from the signature, annotations evaluated.
    wrapper.__signature__ = signature.replace(parameters=kept + added)  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]
