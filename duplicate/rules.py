"""The scoring rules: the spec's defaults, loaded from TOML, written back as TOML."""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from duplicate.errors import UsageError
from duplicate.limits import MAX_DEAL_CENTS
from duplicate.stages.stage_rules import StageRules, stage_from_mapping

TieRanking = Literal["competition", "dense"]
Method = Literal["matchpoints", "standard-points", "percentage"]
DealScope = Literal["round", "event"]
Factoring = Literal["none", "neuberg"]

TIE_BREAKS = ("beaten_avg", "rank_counts", "total_seconds", "trimmed_seconds")
DEFAULT_FACTORS = (Decimal("1"), Decimal("0.7"), Decimal("0.5"), Decimal("0.35"))
# Numbers in rule flags and files: ASCII digits, an optional sign and point.
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)


@dataclass(frozen=True)
class Rules:
    """Every choice the scoring depends on (SCORING.md sections 1-4)."""

    tie_ranking: TieRanking = "competition"
    deal_scope: DealScope = "round"
    rank_base: int = 10000
    # Factors for ranks 1..len(factors); every later rank x earns 1/x.
    rank_factors: tuple[Decimal, ...] = DEFAULT_FACTORS
    tie_breaks: tuple[str, ...] = field(default=TIE_BREAKS)
    method: Method = "matchpoints"
    # A group smaller than the deal's normal number of results: as it is, or Neuberg's
    # factoring to the normal size (section 9).
    factoring: Factoring = "none"
    # Standard points (SCORING.md section 7): the share of results dropped at each end of
    # a comparison group for its datum, and the deals a player needs to be placed.
    sp_trim: Decimal = Decimal("0.25")
    sp_min_deals: int = 0
    # Paohuzi (001_*.txt appendix 1): the event's minimum huxi to win (起胡胡息数).
    paohuzi_min_huxi: int = 15
    # Stack elimination and fixed hands (section 8).
    stage: StageRules = field(default_factory=StageRules)
    # The file the rules were read from, if any: an input no output may replace.
    source: str | None = field(default=None, compare=False, repr=False)

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
        if self.rank_base * 100 * max(Decimal(1), *self.rank_factors) > MAX_DEAL_CENTS:
            raise UsageError(
                f"rank points of more than {MAX_DEAL_CENTS // 100:,} for one deal "
                "(rank_points.base times the largest factor) cannot be totalled exactly; "
                "choose a smaller base"
            )
        if self.method not in ("matchpoints", "standard-points", "percentage"):
            raise UsageError(
                "method must be 'matchpoints', 'standard-points' or 'percentage', "
                f"not {self.method!r}"
            )
        if self.factoring not in ("none", "neuberg"):
            raise UsageError(f"factoring must be 'none' or 'neuberg', not {self.factoring!r}")
        if self.factoring != "none" and self.method == "standard-points":
            raise UsageError("factoring applies to matchpoints, not to " + self.method)
        if not Decimal(0) <= self.sp_trim < Decimal("0.5"):
            raise UsageError(
                f"standard_points.trim must be at least 0 and below 0.5, not {self.sp_trim}"
            )
        if self.sp_min_deals < 0 or self.paohuzi_min_huxi < 0:
            raise UsageError("standard_points.min_deals and games.paohuzi_min_huxi must be >= 0")
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
            "# How players are ranked: matchpoints (sections 2-4), standard-points (7), or\n"
            "# percentage (9).\n"
            f'method = "{self.method}"\n'
            "# Groups smaller than the deal's normal size: none, or neuberg (section 9).\n"
            f'factoring = "{self.factoring}"\n'
            "\n"
            "[rank_points]\n"
            "# Rank x earns base x factor[x]; ranks past the list earn base / x.\n"
            "# Rounded half up to 2 decimals.\n"
            f"base = {self.rank_base}\n"
            f"factors = [{factors}]\n"
            "\n"
            "[standard_points]\n"
            "# Share of a comparison group's results dropped at each end for its datum.\n"
            f"trim = {_decimal_text(self.sp_trim)}\n"
            "# Deals a player must have played to be placed.\n"
            f"min_deals = {self.sp_min_deals}\n"
            "\n"
            "[games]\n"
            "# Paohuzi: the event's minimum huxi to win.\n"
            f"paohuzi_min_huxi = {self.paohuzi_min_huxi}\n"
            f"{self.stage.to_toml()}"
        )


def _decimal_text(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text if "." in text else text + ".0"


def _as_decimal(value: Any, where: str) -> Decimal:
    """A number as written, by the strict grammar: no exponent, nan, hex or underscore."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise UsageError(f"{where}: {value!r} is not a number")
    text = str(value).strip()
    if isinstance(value, float) and math.isfinite(value):
        # Its shortest text: a TOML float 0.7 means the decimal 0.7, not its binary
        # neighbour; 1e-07 is written out.
        text = format(Decimal(repr(value)), "f")
    if not _NUMBER.fullmatch(text):
        raise UsageError(f"{where}: {value!r} is not a number such as 0.7")
    try:
        return Decimal(text)
    except InvalidOperation:
        raise UsageError(f"{where}: {value!r} is not a number") from None


def parse_decimal(text: str, where: str) -> Decimal:
    """A decimal as written on a command line, by the strict grammar."""
    return _as_decimal(text, where)


def parse_whole(text: str, where: str) -> int:
    """A whole number as written on a command line: ASCII digits and a sign only."""
    if not _WHOLE.fullmatch(text.strip()):
        raise UsageError(f"{where}: {text!r} is not a whole number such as 10000")
    return int(text)


def rules_from_mapping(data: dict[str, Any], source: str = "rules") -> Rules:
    """Build Rules from a parsed TOML mapping, rejecting unknown keys."""
    known = {
        "tie_ranking",
        "deal_scope",
        "tie_breaks",
        "rank_points",
        "method",
        "factoring",
        "standard_points",
        "games",
        "stage",
    }
    unknown = sorted(set(data) - known)
    if unknown:
        raise UsageError(
            f"{source}: unknown setting {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    kwargs: dict[str, Any] = {}
    for key in ("tie_ranking", "deal_scope", "method", "factoring"):
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
    kwargs.update(
        _table(data, "standard_points", {"trim": "sp_trim", "min_deals": "sp_min_deals"}, source)
    )
    kwargs.update(_table(data, "games", {"paohuzi_min_huxi": "paohuzi_min_huxi"}, source))
    if "stage" in data:
        kwargs["stage"] = stage_from_mapping(data["stage"], source, _as_decimal)
    return Rules(**kwargs)


def _table(data: dict[str, Any], name: str, keys: dict[str, str], source: str) -> dict[str, Any]:
    """Settings of a TOML table: trim is a number, the others whole numbers."""
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise UsageError(f"{source}: [{name}] must be a table")
    unknown = sorted(set(table) - set(keys))
    if unknown:
        raise UsageError(f"{source}: unknown {name} setting {', '.join(unknown)}")
    out: dict[str, Any] = {}
    for key, attribute in keys.items():
        if key not in table:
            continue
        value = table[key]
        if key == "trim":
            out[attribute] = _as_decimal(value, f"{source}: {name}.{key}")
        elif isinstance(value, bool) or not isinstance(value, int):
            raise UsageError(f"{source}: {name}.{key} must be a whole number, not {value!r}")
        else:
            out[attribute] = value
    return out


def load_rules(path: str | Path) -> Rules:
    """Read a rules TOML file; missing settings keep the spec's defaults."""
    try:
        text = _rules_text(Path(path).read_bytes(), str(path))
    except OSError as exc:
        raise UsageError(f"cannot read rules file {path}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    return replace(rules_from_mapping(data, str(path)), source=str(path))


def _rules_text(data: bytes, path: str) -> str:
    """A rules file's text: UTF-8 (a BOM allowed), or UTF-16 with its BOM."""
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(
            f"{path}: not a text file in UTF-8; save the rules as UTF-8 TOML "
            "(see `duplicate rules`)"
        ) from None


def parse_factors(text: str) -> tuple[Decimal, ...]:
    """Parse a comma-separated factor list such as '1,0.7,0.5,0.35'."""
    return tuple(_as_decimal(part.strip(), "--rank-factors") for part in text.split(","))


def with_overrides(rules: Rules, **changes: Any) -> Rules:
    """Rules with the given settings replaced; None means 'keep'."""
    return replace(rules, **{k: v for k, v in changes.items() if v is not None})
