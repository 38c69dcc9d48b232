"""The scoring rules: the spec's defaults, loaded from TOML, written back as TOML."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from duplicate.errors import UsageError

TieRanking = Literal["competition", "dense"]
DealScope = Literal["round", "event"]

TIE_BREAKS = ("beaten_avg", "rank_counts", "total_seconds", "trimmed_seconds")
DEFAULT_FACTORS = (Decimal("1"), Decimal("0.7"), Decimal("0.5"), Decimal("0.35"))


@dataclass(frozen=True)
class Rules:
    """Every choice the scoring depends on (SCORING.md sections 1-4)."""

    tie_ranking: TieRanking = "competition"
    deal_scope: DealScope = "round"
    rank_base: int = 10000
    # Factors for ranks 1..len(factors); every later rank x earns 1/x.
    rank_factors: tuple[Decimal, ...] = DEFAULT_FACTORS
    tie_breaks: tuple[str, ...] = field(default=TIE_BREAKS)

    def __post_init__(self) -> None:
        if self.tie_ranking not in ("competition", "dense"):
            raise UsageError(
                f"tie_ranking must be 'competition' or 'dense', not {self.tie_ranking!r}"
            )
        if self.deal_scope not in ("round", "event"):
            raise UsageError(f"deal_scope must be 'round' or 'event', not {self.deal_scope!r}")
        if self.rank_base <= 0:
            raise UsageError(f"rank_points.base must be a positive integer, not {self.rank_base}")
        if not self.rank_factors or any(f < 0 for f in self.rank_factors):
            raise UsageError("rank_points.factors must be a non-empty list of numbers >= 0")
        unknown = [t for t in self.tie_breaks if t not in TIE_BREAKS]
        if unknown or len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise UsageError(
                f"tie_breaks must name each of {', '.join(TIE_BREAKS)} at most once; "
                f"got {', '.join(self.tie_breaks) or 'nothing'}"
            )

    def factor_cents(self) -> list[int]:
        """Rank points in cents for ranks 1..len(rank_factors), rounded half up."""
        return [
            int((self.rank_base * 100 * f).quantize(Decimal(1), rounding=ROUND_HALF_UP))
            for f in self.rank_factors
        ]

    def to_toml(self) -> str:
        """The rules as a TOML document that `load_rules` reads back unchanged."""
        factors = ", ".join(_decimal_text(f) for f in self.rank_factors)
        breaks = ", ".join(f'"{t}"' for t in self.tie_breaks)
        return (
            "# Effective scoring rules (SCORING.md sections 1-4).\n"
            "# Deal ranking on ties: competition (1,1,3) or dense (1,1,2).\n"
            f'tie_ranking = "{self.tie_ranking}"\n'
            "# Deal identifiers are unique per round, or across the whole event.\n"
            f'deal_scope = "{self.deal_scope}"\n'
            "# Tie-breaks after the total, in order.\n"
            f"tie_breaks = [{breaks}]\n"
            "\n"
            "[rank_points]\n"
            "# Rank x earns base x factor[x]; ranks past the list earn base / x.\n"
            "# Rounded half up to 2 decimals.\n"
            f"base = {self.rank_base}\n"
            f"factors = [{factors}]\n"
        )


def _decimal_text(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text if "." in text else text + ".0"


def _as_decimal(value: Any, where: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise UsageError(f"{where}: {value!r} is not a number")
    try:
        # str() first: a TOML float 0.7 must mean the decimal 0.7, not its binary neighbour.
        return Decimal(str(value))
    except InvalidOperation:
        raise UsageError(f"{where}: {value!r} is not a number") from None


def rules_from_mapping(data: dict[str, Any], source: str = "rules") -> Rules:
    """Build Rules from a parsed TOML mapping, rejecting unknown keys."""
    known = {"tie_ranking", "deal_scope", "tie_breaks", "rank_points"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise UsageError(
            f"{source}: unknown setting {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    kwargs: dict[str, Any] = {}
    for key in ("tie_ranking", "deal_scope"):
        if key in data:
            kwargs[key] = data[key]
    if "tie_breaks" in data:
        if not isinstance(data["tie_breaks"], list):
            raise UsageError(f"{source}: tie_breaks must be a list of names")
        kwargs["tie_breaks"] = tuple(str(t) for t in data["tie_breaks"])
    points = data.get("rank_points", {})
    if not isinstance(points, dict):
        raise UsageError(f"{source}: [rank_points] must be a table")
    unknown = sorted(set(points) - {"base", "factors"})
    if unknown:
        raise UsageError(f"{source}: unknown rank_points setting {', '.join(unknown)}")
    if "base" in points:
        base = points["base"]
        if isinstance(base, bool) or not isinstance(base, int):
            raise UsageError(f"{source}: rank_points.base must be an integer, not {base!r}")
        kwargs["rank_base"] = base
    if "factors" in points:
        if not isinstance(points["factors"], list):
            raise UsageError(f"{source}: rank_points.factors must be a list of numbers")
        kwargs["rank_factors"] = tuple(
            _as_decimal(f, f"{source}: rank_points.factors") for f in points["factors"]
        )
    return Rules(**kwargs)


def load_rules(path: str | Path) -> Rules:
    """Read a rules TOML file; missing settings keep the spec's defaults."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read rules file {path}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    return rules_from_mapping(data, str(path))


def parse_factors(text: str) -> tuple[Decimal, ...]:
    """Parse a comma-separated factor list such as '1,0.7,0.5,0.35'."""
    return tuple(_as_decimal(part.strip(), "--rank-factors") for part in text.split(","))


def with_overrides(rules: Rules, **changes: Any) -> Rules:
    """Rules with the given settings replaced; None means 'keep'."""
    return replace(rules, **{k: v for k, v in changes.items() if v is not None})
