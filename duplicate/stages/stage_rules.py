"""The settings of a stage (SCORING.md section 8): chips, the base schedule, the limit,
who advances and what they carry. Read from the rules file's [stage] table."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

from duplicate.errors import UsageError

Carry = Literal["ratio", "sqrt", "none"]
CARRIES = ("ratio", "sqrt", "none")
# The base in force from each minute: ((from minute, base), ...), minutes rising from 0.
Schedule = tuple[tuple[Decimal, int], ...]
_STEP = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*:\s*([0-9]+)\s*", re.ASCII)
# A stage's chips and bases stay far inside int64 whatever is multiplied.
MAX_CHIPS = 10**12


def parse_schedule(text: str, where: str = "--base") -> Schedule:
    """'0:100,4:200,8:400' -> the schedule; it starts at minute 0 and grows."""
    steps = []
    for part in text.split(","):
        match = _STEP.fullmatch(part)
        if match is None:
            raise UsageError(f"{where}: {part.strip()!r} is not minute:base, such as 4:200")
        steps.append((Decimal(match[1]), int(match[2])))
    check_schedule(tuple(steps), where)
    return tuple(steps)


def check_schedule(steps: Schedule, where: str) -> None:
    if not steps or steps[0][0] != 0:
        raise UsageError(f"{where}: the base schedule starts at minute 0, such as 0:100,4:200")
    for (m0, b0), (m1, b1) in itertools.pairwise(steps):
        if m1 <= m0 or b1 <= b0:
            raise UsageError(f"{where}: {m1}:{b1} after {m0}:{b0}; minutes and bases both grow")
    if any(base <= 0 or base > MAX_CHIPS for _, base in steps):
        raise UsageError(f"{where}: a base is a whole number from 1 to {MAX_CHIPS:,}")


def base_at(steps: Schedule, minute: Fraction) -> int:
    """The base in force for a hand that ended at `minute`."""
    return next(base for start, base in reversed(steps) if Fraction(start) <= minute)


def schedule_text(steps: Schedule) -> str:
    return ",".join(f"{_plain(minute)}:{base}" for minute, base in steps)


@dataclass(frozen=True)
class StageRules:
    """Every choice a stage's standings depend on (SCORING.md section 8)."""

    start: int = 1000
    base: Schedule = ((Decimal(0), 100),)
    # Out below this share of the base in force, or below a fixed number of chips.
    eliminate_below: Decimal = Decimal("0.25")
    eliminate_below_chips: int | None = None
    advance: int = 0
    carry: Carry = "ratio"
    carry_ratio: Decimal = Decimal(1)
    # Hands a table may play with the same players (0: not checked).
    ass_hands: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.start <= MAX_CHIPS:
            raise UsageError(f"stage.start must be 1 to {MAX_CHIPS:,} chips, not {self.start}")
        check_schedule(self.base, "stage.base")
        if not Decimal(0) <= self.eliminate_below <= Decimal(100):
            raise UsageError("stage.eliminate_below is a share of the base from 0 to 100")
        if self.eliminate_below_chips is not None and not (
            0 <= self.eliminate_below_chips <= MAX_CHIPS
        ):
            raise UsageError(f"stage.eliminate_below_chips must be 0 to {MAX_CHIPS:,}")
        if self.advance < 0 or self.ass_hands < 0:
            raise UsageError("stage.advance and stage.ass_hands must be >= 0")
        if self.carry not in CARRIES:
            raise UsageError(f"stage.carry must be one of {', '.join(CARRIES)}, not {self.carry!r}")
        if not Decimal(0) <= self.carry_ratio <= Decimal(1000):
            raise UsageError("stage.carry_ratio must be from 0 to 1000")

    def base_at(self, minute: Fraction) -> int:
        """The base in force for a hand that ended at `minute`."""
        return base_at(self.base, minute)

    def to_toml(self) -> str:
        fixed = (
            f"eliminate_below_chips = {self.eliminate_below_chips}\n"
            if self.eliminate_below_chips is not None
            else "# eliminate_below_chips = 0 (a fixed limit in chips instead)\n"
        )
        return (
            "\n"
            "[stage]\n"
            "# Stack elimination and fixed hands (section 8): chips at the start, and the\n"
            "# base in force from each minute (minute:base, ...).\n"
            f"start = {self.start}\n"
            f'base = "{schedule_text(self.base)}"\n'
            "# Out after a hand with chips below this share of the base.\n"
            f"eliminate_below = {_plain(self.eliminate_below)}\n"
            f"{fixed}"
            "# Places that qualify; what they carry: ratio (chips x r), sqrt, or none.\n"
            f"advance = {self.advance}\n"
            f'carry = "{self.carry}"\n'
            f"carry_ratio = {_plain(self.carry_ratio)}\n"
            "# Hands a table may play with the same players (0: not checked).\n"
            f"ass_hands = {self.ass_hands}\n"
        )


def stage_from_mapping(table: Any, source: str, number: Any) -> StageRules:
    """The [stage] table of a rules file (`number` reads a decimal strictly)."""
    if not isinstance(table, dict):
        raise UsageError(f"{source}: [stage] must be a table")
    known = set(StageRules.__dataclass_fields__)
    unknown = sorted(set(table) - known)
    if unknown:
        raise UsageError(f"{source}: unknown stage setting {', '.join(unknown)}")
    kwargs: dict[str, Any] = {}
    for key, value in table.items():
        where = f"{source}: stage.{key}"
        if key == "base":
            if not isinstance(value, str):
                raise UsageError(f'{where} is text such as "0:100,4:200"')
            kwargs[key] = parse_schedule(value, where)
        elif key == "carry":
            kwargs[key] = str(value)
        elif key in ("eliminate_below", "carry_ratio"):
            kwargs[key] = number(value, where)
        elif isinstance(value, bool) or not isinstance(value, int):
            raise UsageError(f"{where} must be a whole number, not {value!r}")
        else:
            kwargs[key] = value
    return StageRules(**kwargs)


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text
