"""The settings of a stage (docs/scoring.md section 8): chips, the base schedule, the limit,
who advances and what they carry. Read from the rules file's [stage] table; each setting
is declared in duplicate.options."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar

from duplicate.errors import UsageError
from duplicate.options import MAX_CHIPS, Carry, Schedule, check_schedule

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["MAX_CHIPS", "Carry", "Schedule", "StageRules", "base_at"]

# The base of stack elimination when the rules set none: 100 from minute 0.
ELIMINATION_BASE: Schedule = ((Decimal(0), 100),)
# The base of a fixed-hand final when the rules set none: each point counts once.
FINAL_BASE: Schedule = ((Decimal(0), 1),)


def base_at(steps: Schedule, minute: Fraction) -> int:
    """The base in force for a hand that ended at `minute`."""
    from fractions import Fraction

    return next(base for start, base in reversed(steps) if Fraction(start) <= minute)


@dataclass(frozen=True)
class StageRules:
    """Every choice a stage's standings depend on (docs/scoring.md section 8)."""

    start: int = 1000
    # The base in force from each minute; None when the rules set none (stack elimination
    # then takes ELIMINATION_BASE, a final FINAL_BASE).
    base: Schedule | None = None
    # Out below this share of the base in force, or below a fixed number of chips.
    eliminate_below: Decimal = Decimal("0.25")
    eliminate_below_chips: int | None = None
    advance: int = 0
    carry: Carry = "ratio"
    carry_ratio: Decimal = Decimal(1)
    # Hands a table may play with the same players (0: not checked).
    ass_hands: int = 0

    # What a rules file says of a setting left unset.
    UNSET: ClassVar[dict[str, str]] = {
        "base": 'stack elimination takes "0:100", a fixed-hand final 1 a point',
        "eliminate_below_chips": "players go out below eliminate_below x the base",
    }

    def __post_init__(self) -> None:
        if not 0 < self.start <= MAX_CHIPS:
            raise UsageError(
                f"{{opt:start}} must be 1 to {MAX_CHIPS:,} chips, not {self.start}",
                "rules.bad-value",
            )
        if self.base is not None:
            check_schedule(self.base, "{opt:base}")
        if not Decimal(0) <= self.eliminate_below <= Decimal(100):
            raise UsageError(
                "{opt:eliminate_below} is a share of the base from 0 to 100", "rules.bad-value"
            )
        if self.eliminate_below_chips is not None and not (
            0 <= self.eliminate_below_chips <= MAX_CHIPS
        ):
            raise UsageError(
                f"{{opt:eliminate_below_chips}} must be 0 to {MAX_CHIPS:,}", "rules.bad-value"
            )
        if self.advance < 0 or self.ass_hands < 0:
            raise UsageError("{opt:advance} and {opt:ass_hands} must be >= 0", "rules.bad-value")
        if self.carry not in ("ratio", "sqrt", "none"):
            raise UsageError(
                f"{{opt:carry}} must be one of ratio, sqrt, none, not {self.carry!r}",
                "rules.bad-value",
            )
        if not Decimal(0) <= self.carry_ratio <= Decimal(1000):
            raise UsageError("{opt:carry_ratio} must be from 0 to 1000", "rules.bad-value")

    def elimination_base(self) -> Schedule:
        """The schedule stack elimination plays by."""
        return self.base if self.base is not None else ELIMINATION_BASE

    def final_base(self) -> Schedule:
        """The schedule a fixed-hand final counts by."""
        return self.base if self.base is not None else FINAL_BASE
