"""The rules: the spec's defaults, read from a rules file (TOML), written back as TOML.

Each setting is declared once in duplicate.options (its keyword, flag and rules-file key).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from duplicate.deal_scope import DealScope, deal_scope
from duplicate.errors import UsageError
from duplicate.limits import MAX_DEAL_CENTS
from duplicate.options import (
    RULES,
    TIE_BREAKS,
    BoardMp,
    CrossImps,
    DealScopeName,
    Factoring,
    HalfRounding,
    ImpTotals,
    Method,
    PercentageOf,
    PercentageRounding,
    PlaceTies,
    Sections,
    SharedPlaces,
    TieRanking,
    as_decimal,
    given,
    parse_decimal,
    parse_whole,
    rules_toml,
    rules_values,
    settings,
)
from duplicate.stages.stage_rules import StageRules

__all__ = [
    "TIE_BREAKS",
    "DealScopeName",
    "Factoring",
    "Method",
    "Rules",
    "Sections",
    "TieRanking",
    "as_decimal",
    "load_rules",
    "parse_decimal",
    "parse_whole",
    "rules_from_mapping",
]

# Butler's datum rounding step, in points: far past any real step (10, 50, 100).
MAX_BUTLER_ROUND = 10**6
DEFAULT_FACTORS = (Decimal("1"), Decimal("0.7"), Decimal("0.5"), Decimal("0.35"))


@dataclass(frozen=True)
class Rules:
    """Every choice the numbers depend on: scoring (docs/scoring.md sections 1-4, 7, 9),
    game scores (section 6) and stages (section 8)."""

    tie_ranking: TieRanking = "competition"
    deal_scope: DealScopeName = "round"
    rank_base: int = 10000
    # Factors for ranks 1..len(factors); every later rank x earns 1/x.
    rank_factors: tuple[Decimal, ...] = DEFAULT_FACTORS
    tie_breaks: tuple[str, ...] = field(default=TIE_BREAKS)
    method: Method = "matchpoints"
    # A group smaller than the deal's normal number of results: as it is, or Neuberg's
    # factoring to the normal size.
    factoring: Factoring = "none"
    # Standard points: the share of results dropped at each end of a comparison group
    # for its datum, and the deals a player needs to be placed.
    sp_trim: Decimal = Decimal("0.25")
    sp_min_deals: int = 0
    # Percentage standings, as a bridge scoring program publishes them (docs/bridge.md,
    # Percentage conventions): the mean of board percentages or total MP over total
    # top; from exact board MPs or from board MPs rounded to so many decimals; how an
    # exact half rounds; a shared place written 8 or 8=; ties shared or split by
    # count-back.
    percentage_of: PercentageOf = "mean"
    board_mp: BoardMp = "exact"
    percentage_rounding: PercentageRounding = "half-up"
    shared_places: SharedPlaces = "plain"
    place_ties: PlaceTies = "shared"
    # IMPs (docs/bridge.md): cross-IMPs summed or averaged over the comparisons;
    # Butler's datum without butler_drop results at each end, rounded to a multiple of
    # butler_round points (0: exact), halves away from zero or to even.
    cross_imps: CrossImps = "average"
    butler_drop: int = 1
    butler_trim: Decimal = Decimal(0)
    butler_round: int = 10
    butler_half: HalfRounding = "away"
    # IMPs of an average plus (average minus: its negation).
    imp_average: int = 3
    # IMP standings: totals as summed, or scaled to the most deals played.
    imp_totals: ImpTotals = "sum"
    # Paohuzi (001_*.txt appendix 1): the event's minimum huxi to win (起胡胡息数).
    paohuzi_min_huxi: int = 15
    # Sections that played the same boards: matchpointed apart, or as one field.
    sections: Sections = "apart"
    # Stack elimination and fixed hands.
    stage: StageRules = field(default_factory=StageRules)
    # The file the rules were read from, if any: an input no output may replace.
    source: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Every choice among its declared choices (duplicate.options).
        for item in settings("scoring"):
            value = getattr(self, item.name)
            if item.kind == "choice" and value not in item.choices:
                raise UsageError(
                    f"{{opt:{item.name}}} must be one of {', '.join(item.choices)}, not {value!r}",
                    "rules.bad-value",
                )
        if self.rank_base <= 0:
            raise UsageError(
                f"{{opt:rank_base}} must be a positive integer, not {self.rank_base}",
                "rules.bad-value",
            )
        if not self.rank_factors or any(f < 0 for f in self.rank_factors):
            raise UsageError(
                "{opt:rank_factors} must be a non-empty list of numbers >= 0", "rules.bad-value"
            )
        if self.rank_base * 100 * max(Decimal(1), *self.rank_factors) > MAX_DEAL_CENTS:
            raise UsageError(
                f"rank points of more than {MAX_DEAL_CENTS // 100:,} for one deal "
                "({opt:rank_base} times the largest factor) cannot be totalled exactly; "
                "choose a smaller base",
                "rules.too-large",
            )
        if self.factoring != "none" and self.method not in ("matchpoints", "percentage"):
            raise UsageError(
                "{opt:factoring} applies to matchpoints, not to " + self.method,
                "rules.conflict",
            )
        if not Decimal(0) <= self.sp_trim < Decimal("0.5"):
            raise UsageError(
                f"{{opt:sp_trim}} must be at least 0 and below 0.5, not {self.sp_trim}",
                "rules.bad-value",
            )
        if not 0 <= self.butler_round <= MAX_BUTLER_ROUND or self.butler_drop < 0:
            raise UsageError(
                f"{{opt:butler_round}} must be from 0 to {MAX_BUTLER_ROUND:,} and "
                "{opt:butler_drop} at least 0",
                "rules.bad-value",
            )
        if not Decimal(0) <= self.butler_trim < Decimal("0.5"):
            raise UsageError(
                f"{{opt:butler_trim}} must be at least 0 and below 0.5, not {self.butler_trim}",
                "rules.bad-value",
            )
        # The scale is numpy's: loaded here, not when the command line starts.
        from duplicate.scoring.imp_scale import MAX_IMPS

        if not 0 <= self.imp_average <= MAX_IMPS:
            raise UsageError(
                f"{{opt:imp_average}} must be from 0 to {MAX_IMPS}, not {self.imp_average}",
                "rules.bad-value",
            )
        if self.sp_min_deals < 0 or self.paohuzi_min_huxi < 0:
            raise UsageError(
                "{opt:sp_min_deals} and {opt:paohuzi_min_huxi} must be >= 0", "rules.bad-value"
            )
        unknown = [t for t in self.tie_breaks if t not in TIE_BREAKS]
        if unknown or len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise UsageError(
                f"{{opt:tie_breaks}} must name each of {', '.join(TIE_BREAKS)} at most once; "
                f"got {', '.join(self.tie_breaks) or 'nothing'}",
                "rules.bad-value",
            )

    @property
    def scope(self) -> DealScope:
        """The deal scope as the policy object the scoring asks (duplicate.deal_scope),
        across sections when they are one field."""
        scope = deal_scope(self.deal_scope)
        return scope.one_field() if self.sections == "one-field" else scope

    def factor_cents(self) -> list[int]:
        """Rank points in cents for ranks 1..len(rank_factors), rounded half up."""
        return [
            int((self.rank_base * 100 * f).quantize(Decimal(1), rounding=ROUND_HALF_UP))
            for f in self.rank_factors
        ]

    def values(self) -> dict[str, Any]:
        """Every rules setting by its keyword (duplicate.options), stage settings too."""
        mine = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "stage"}
        theirs = {f.name: getattr(self.stage, f.name) for f in fields(self.stage)}
        return {s.name: {**mine, **theirs}[s.name] for s in settings(*RULES)}

    def with_settings(self, **changes: Any) -> Rules:
        """These rules with the given settings (by keyword, typed or as text; None keeps a
        setting)."""
        changes = given(changes, *RULES)
        if not changes:
            return self
        stage_names = {s.name for s in settings("stage")}
        stage = {k: v for k, v in changes.items() if k in stage_names}
        scoring = {k: v for k, v in changes.items() if k not in stage_names}
        return replace(self, **scoring, stage=replace(self.stage, **stage) if stage else self.stage)

    def percentage_convention(self, changed_only: bool = False) -> str:
        """The percentage convention as its rules-file keys say it ("of = total,
        board_mp = 1, ..."); only the settings changed from the default if asked."""
        default = Rules()
        return ", ".join(
            f"{item.toml.split('.', 1)[1]} = {getattr(self, item.name)}"
            for item in settings("scoring")
            if item.toml.startswith("percentage.")
            and not (changed_only and getattr(self, item.name) == getattr(default, item.name))
        )

    def to_toml(self) -> str:
        """The rules as a TOML document that `load_rules` reads back unchanged."""
        return rules_toml(self.values(), StageRules.UNSET)

    def settings_listed(self) -> list[dict[str, Any]]:
        """Each setting as the rules file writes it, in the file's order: {"setting":
        its key (rank_points.base), "value": its value as TOML reads it}."""
        import tomllib

        def flat(table: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
            rows = []
            for key, value in table.items():
                if isinstance(value, dict):
                    rows += flat(value, f"{prefix}{key}.")
                else:
                    rows.append({"setting": prefix + key, "value": value})
            return rows

        # Decimals as written (0.35, not the float nearest it).
        return flat(tomllib.loads(self.to_toml(), parse_float=Decimal), "")


def rules_from_mapping(data: dict[str, Any], source: str = "rules") -> Rules:
    """Rules from a parsed rules file; unknown keys are refused."""
    return Rules().with_settings(**rules_values(data, source))


def load_rules(path: str | Path) -> Rules:
    """Read a rules TOML file; missing settings keep the spec's defaults."""
    import tomllib

    try:
        text = _rules_text(Path(path).read_bytes(), str(path))
    except OSError as exc:
        raise UsageError(
            f"cannot read rules file {path}: {exc.strerror or exc}", "rules.unreadable"
        ) from None
    try:
        # Decimals as written: a factor of 0.12345678901234567890 is not rounded to a float.
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}", "rules.not-toml") from None
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
            "(see `duplicate rules`)",
            "rules.not-toml",
        ) from None
