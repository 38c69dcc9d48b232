"""Every setting a user can give, declared once.

A setting's keyword (what `load_event` and the library's functions take), its flag
(what the command line takes), its key in a rules file, its help and its choices all
come from its declaration here; every command that uses a setting gets it from here.

    >>> from duplicate.options import setting
    >>> setting("tie_ranking").flag, setting("tie_ranking").toml
    ('--tie-ranking', 'tie_ranking')

Groups: `scoring`, `game` (a game's own rules) and `stage` settings make the rules
(duplicate.rules.Rules) and are written in every rules file; `source` settings say how
an event is read; `output` settings say where and how a result is written.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, NamedTuple, get_args

from duplicate.errors import UsageError

Group = Literal["scoring", "game", "stage", "source", "output"]
Kind = Literal["text", "choice", "whole", "decimal", "factors", "names", "schedule", "path", "flag"]

TieRanking = Literal["competition", "dense"]
Method = Literal["matchpoints", "standard-points", "percentage", "cross-imps", "butler"]
DealScopeName = Literal["round", "event"]
Factoring = Literal["none", "neuberg"]
# Sections that played the same boards: matchpointed apart, or as one field.
Sections = Literal["apart", "one-field"]
CrossImps = Literal["average", "sum"]
ImpTotals = Literal["sum", "scaled"]
HalfRounding = Literal["away", "even"]
Carry = Literal["ratio", "sqrt", "none"]
PercentageOf = Literal["mean", "total"]
BoardMp = Literal["exact", "0", "1", "2", "3"]
PercentageRounding = Literal["half-up", "half-down", "half-even"]
SharedPlaces = Literal["plain", "equals"]
PlaceTies = Literal["shared", "count-back"]
OutputFormat = Literal["csv", "excel", "xlsx", "parquet", "json", "table"]
TIE_BREAKS = ("beaten_avg", "rank_counts", "total_seconds", "trimmed_seconds")

# The base in force from each minute: ((from minute, base), ...), minutes rising from 0.
Schedule = tuple[tuple[Decimal, int], ...]

# Numbers in settings: ASCII digits, an optional sign and point (no exponent, no nan,
# no hex, no underscore, no full-width digit).
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_STEP = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*:\s*([0-9]+)\s*", re.ASCII)
# A stage's chips and bases stay far inside int64 whatever is multiplied.
MAX_CHIPS = 10**12


class Setting(NamedTuple):
    """One setting: its keyword, flag, rules-file key, help and choices."""

    name: str
    group: Group
    kind: Kind
    help: str
    flag: str = ""
    short: str = ""
    # Where a rules file holds it ("rank_points.base"); scoring and stage settings only.
    toml: str = ""
    # The comment written above it in a rules file (settings without one follow the one
    # above them).
    comment: str = ""
    choices: tuple[str, ...] = ()
    metavar: str = ""
    # Given before the command (`duplicate --max-rows N score ...`): for every command.
    everywhere: bool = False

    @property
    def option(self) -> str:
        """The flag: --tie-ranking for tie_ranking, unless declared otherwise."""
        return self.flag or "--" + self.name.replace("_", "-")

    def parse(self, text: str) -> Any:
        """The value of the setting as a command line or a keyword gives it as text."""
        where = "{opt:" + self.name + "}"
        if self.kind == "choice":
            value = text.strip()
            if value not in self.choices:
                raise UsageError(
                    f"{where}: {text!r} is not one of {', '.join(self.choices)}",
                    "option.bad-choice",
                )
            return value
        if self.kind == "whole":
            return parse_whole(text, where)
        if self.kind == "decimal":
            return parse_decimal(text, where)
        if self.kind == "factors":
            return tuple(parse_decimal(part.strip(), where) for part in text.split(","))
        if self.kind == "names":
            return tuple(part.strip() for part in text.split(",") if part.strip())
        if self.kind == "schedule":
            return parse_schedule(text, where)
        if self.kind == "flag":
            raise UsageError(f"{where} takes no value", "option.bad-value")
        return text

    def coerce(self, value: Any) -> Any:
        """A value given as a keyword (text is parsed; a typed value is checked)."""
        if isinstance(value, str) and self.kind not in ("text", "path"):
            return self.parse(value)
        where = "{opt:" + self.name + "}"
        if self.kind == "whole" and (isinstance(value, bool) or not isinstance(value, int)):
            raise UsageError(f"{where} must be a whole number, not {value!r}", "option.bad-value")
        if self.kind == "decimal":
            return as_decimal(value, where)
        if self.kind == "factors":
            return tuple(as_decimal(v, where) for v in _sequence(value, where))
        if self.kind == "names":
            return tuple(str(v) for v in _sequence(value, where))
        if self.kind == "schedule":
            steps = tuple((as_decimal(m, where), int(b)) for m, b in _sequence(value, where))
            check_schedule(steps, where)
            return steps
        if self.kind == "flag":
            return bool(value)
        if self.kind in ("text", "path"):
            return str(value)
        return value


def _sequence(value: Any, where: str) -> list[Any]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise UsageError(f"{where}: {value!r} is not a list", "option.bad-value")
    return list(value)


def _choices(kind: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in get_args(kind))


SETTINGS: tuple[Setting, ...] = (
    # -- scoring -------------------------------------------------------------------------
    Setting(
        "tie_ranking",
        "scoring",
        "choice",
        "Deal ranks after a tie: competition 1,1,3 or dense 1,1,2.",
        toml="tie_ranking",
        comment="Deal ranking on ties: competition (1,1,3) or dense (1,1,2).",
        choices=_choices(TieRanking),
    ),
    Setting(
        "deal_scope",
        "scoring",
        "choice",
        "Deal ids (board numbers, in bridge) are unique per round, or across the event (a "
        "board played in several rounds, as in a bridge movement).",
        toml="deal_scope",
        comment="Deal identifiers are unique per round, or across the whole event.",
        choices=_choices(DealScopeName),
    ),
    Setting(
        "tie_breaks",
        "scoring",
        "names",
        "Tie-breaks after the total, in order: "
        + ", ".join(TIE_BREAKS)
        + " (any of them, each at most once).",
        toml="tie_breaks",
        comment="Tie-breaks after the total, in order.",
        metavar="NAMES",
    ),
    Setting(
        "method",
        "scoring",
        "choice",
        "matchpoints (rank points and tie-breaks), standard-points (the platform's Swiss "
        "scoring), percentage (bridge: the mean MP%), cross-imps or butler (bridge: IMPs "
        "against every other result, or against a datum).",
        toml="method",
        comment="How players are ranked: matchpoints, standard-points, percentage,\n"
        "cross-imps or butler.",
        choices=_choices(Method),
    ),
    Setting(
        "factoring",
        "scoring",
        "choice",
        "Groups smaller than the deal's normal size: none, or neuberg (bridge).",
        toml="factoring",
        comment="Groups smaller than the deal's normal size: none, or neuberg.",
        choices=_choices(Factoring),
    ),
    Setting(
        "rank_base",
        "scoring",
        "whole",
        "Rank points for a factor of 1. Default 10000.",
        toml="rank_points.base",
        comment="Rank x earns base x factor[x]; ranks past the list earn base / x.\n"
        "Rounded half up to 2 decimals.",
        metavar="POINTS",
    ),
    Setting(
        "rank_factors",
        "scoring",
        "factors",
        "Rank-point factors for ranks 1, 2, ...; later ranks earn 1/rank. Default 1,0.7,0.5,0.35.",
        toml="rank_points.factors",
        metavar="LIST",
    ),
    Setting(
        "sp_trim",
        "scoring",
        "decimal",
        "Standard points: the share of a group's results dropped at each end for its "
        "datum. Default 0.25.",
        toml="standard_points.trim",
        comment="Share of a comparison group's results dropped at each end for its datum.",
        metavar="SHARE",
    ),
    Setting(
        "sp_min_deals",
        "scoring",
        "whole",
        "Standard points: the deals a player must have played to be placed. Default 0.",
        toml="standard_points.min_deals",
        comment="Deals a player must have played to be placed.",
        metavar="DEALS",
    ),
    Setting(
        "sections",
        "scoring",
        "choice",
        "Sections that played the same boards: matchpointed apart, or as one field "
        "across them (bridge: each board compared over the whole field, Neuberg over it).",
        toml="sections",
        comment="Sections that played the same boards: matchpointed apart or as one field.",
        choices=_choices(Sections),
    ),
    Setting(
        "percentage_of",
        "scoring",
        "choice",
        "Percentage standings: a pair's percentage is the mean of its board percentages "
        "(mean), or its total MP over its total top (total).",
        toml="percentage.of",
        comment="Percentage standings (docs/bridge.md, Percentage conventions): a pair's\n"
        "percentage is the mean of its board percentages, or its total MP over its total\n"
        "top; from exact board MPs or from board MPs rounded to 0-3 decimals as published;\n"
        "rounded half-up, half-down or half-even to 2 decimals; shared places written 8\n"
        "or 8=; equal percentages share the place, or are split by count-back.",
        choices=_choices(PercentageOf),
    ),
    Setting(
        "board_mp",
        "scoring",
        "choice",
        "Percentage standings: from exact board MPs (exact), or from board MPs rounded to "
        "0-3 decimals as published (0, 1, 2, 3).",
        toml="percentage.board_mp",
        choices=_choices(BoardMp),
    ),
    Setting(
        "percentage_rounding",
        "scoring",
        "choice",
        "Percentage standings: how the published percentage (2 decimals) and rounded "
        "board MPs round an exact half: half-up, half-down or half-even.",
        toml="percentage.rounding",
        choices=_choices(PercentageRounding),
    ),
    Setting(
        "shared_places",
        "scoring",
        "choice",
        "Percentage standings: a shared place written 8 (plain) or 8= (equals).",
        toml="percentage.shared_places",
        choices=_choices(SharedPlaces),
    ),
    Setting(
        "place_ties",
        "scoring",
        "choice",
        "Percentage standings: equal percentages share the place (shared), or are split "
        "by point-a-board count-back (count-back).",
        toml="percentage.ties",
        choices=_choices(PlaceTies),
    ),
    Setting(
        "cross_imps",
        "scoring",
        "choice",
        "Cross-IMPs: a result's IMPs on a deal are the sum of its comparisons with every "
        "other result, or their average. Default average.",
        toml="imps.cross",
        comment="Cross-IMPs (docs/bridge.md): a result's IMPs on a deal, the sum of its\n"
        "comparisons or their average.",
        choices=_choices(CrossImps),
    ),
    Setting(
        "butler_drop",
        "scoring",
        "whole",
        "Butler: the results dropped at each end of a deal's group for its datum (at "
        "least one is kept). Default 1.",
        toml="imps.butler_drop",
        comment="Butler: results dropped at each end of a group for its datum (one is kept).",
        metavar="RESULTS",
    ),
    Setting(
        "butler_trim",
        "scoring",
        "decimal",
        "Butler: the share of a group's results dropped at each end for its datum "
        "(floor(n x share); ACBLscore 0.05), when it drops more than butler_drop. Default 0.",
        toml="imps.butler_trim",
        comment="Butler: or this share of the group's results at each end, if that is more.",
        metavar="SHARE",
    ),
    Setting(
        "butler_round",
        "scoring",
        "whole",
        "Butler: the datum is rounded to a multiple of this many points (0: exact). Default 10.",
        toml="imps.butler_round",
        comment="Butler: the datum rounded to a multiple of this many points (0: exact),\n"
        "halves away from zero or to the even multiple.",
        metavar="POINTS",
    ),
    Setting(
        "butler_half",
        "scoring",
        "choice",
        "Butler: a datum halfway between two multiples goes away from zero or to the even "
        "one. Default away.",
        toml="imps.butler_half",
        choices=_choices(HalfRounding),
    ),
    Setting(
        "imp_average",
        "scoring",
        "whole",
        "IMPs: what an average plus (or an assigned 60%) scores; average minus (40%) "
        "scores its negation, an assigned 50% nothing. Default 3.",
        toml="imps.average",
        comment="IMPs of an average plus (average minus: its negation; an assigned 50%: 0).",
        metavar="IMPS",
    ),
    Setting(
        "imp_totals",
        "scoring",
        "choice",
        "IMP standings: a player's total IMPs as summed, or scaled to the most deals a "
        "player of the section played (ranks by the average per deal). Default sum.",
        toml="imps.totals",
        comment="IMP standings: each player's total as summed, or scaled to the most deals\n"
        "a player of the section played (total x most / played).",
        choices=_choices(ImpTotals),
    ),
    Setting(
        "paohuzi_min_huxi",
        "game",
        "whole",
        "Paohuzi: the event's minimum huxi to win. Default 15.",
        flag="--min-huxi",
        toml="games.paohuzi_min_huxi",
        comment="Paohuzi: the event's minimum huxi to win.",
        metavar="HUXI",
    ),
    # -- stage ---------------------------------------------------------------------------
    Setting(
        "start",
        "stage",
        "whole",
        "Stage: chips at the start. Default 1000.",
        toml="stage.start",
        comment="Stack elimination and fixed hands: chips at the start, and the base in\n"
        "force from each minute (minute:base, ...).",
        metavar="CHIPS",
    ),
    Setting(
        "base",
        "stage",
        "schedule",
        "Stage: the base from each minute, such as 0:100,4:200,8:400. Default: 0:100 for "
        "stack elimination, 1 a point for a final.",
        toml="stage.base",
        metavar="SCHEDULE",
    ),
    Setting(
        "eliminate_below",
        "stage",
        "decimal",
        "Stage: out below this share of the base. Default 0.25.",
        toml="stage.eliminate_below",
        comment="Out after a hand with chips below this share of the base.",
        metavar="SHARE",
    ),
    Setting(
        "eliminate_below_chips",
        "stage",
        "whole",
        "Stage: out below this many chips (instead of a share of the base).",
        toml="stage.eliminate_below_chips",
        metavar="CHIPS",
    ),
    Setting(
        "advance",
        "stage",
        "whole",
        "Stage: places that qualify. Default 0.",
        toml="stage.advance",
        comment="Places that qualify; what they carry: ratio (chips x r), sqrt, or none.",
        metavar="PLACES",
    ),
    Setting(
        "carry",
        "stage",
        "choice",
        "Stage: what qualifiers carry: ratio, sqrt or none.",
        toml="stage.carry",
        choices=_choices(Carry),
    ),
    Setting(
        "carry_ratio",
        "stage",
        "decimal",
        "Stage: chips (or their root) times this. Default 1.",
        toml="stage.carry_ratio",
        metavar="RATIO",
    ),
    Setting(
        "ass_hands",
        "stage",
        "whole",
        "Stage: check that no table sits more than N hands with the same players.",
        flag="--ass",
        toml="stage.ass_hands",
        comment="Hands a table may play with the same players (0: not checked).",
        metavar="N",
    ),
    # -- source --------------------------------------------------------------------------
    Setting(
        "rules_file",
        "source",
        "path",
        "A rules file (TOML; see `duplicate rules`); its settings are taken before "
        "the options given here.",
        flag="--rules",
        metavar="FILE",
    ),
    Setting(
        "adjustments",
        "source",
        "path",
        "Corrections: round, deal, player, kind, value, reason (kinds: mp_pct, penalty, "
        "void, avg_plus, avg_minus, weighted with a weight column).",
        metavar="FILE",
    ),
    Setting(
        "players",
        "source",
        "path",
        "Players file: player, name, club, status (active|withdrawn), registered.",
        metavar="FILE",
    ),
    Setting(
        "encoding",
        "source",
        "text",
        "Text encoding of a CSV input. Default: UTF-8, else GB18030.",
        metavar="NAME",
    ),
    Setting(
        "sheet",
        "source",
        "text",
        "The sheet of an .xlsx input to read (a hidden sheet only when named). "
        "Default: the first visible one.",
        metavar="NAME",
    ),
    Setting(
        "formulas",
        "source",
        "choice",
        "Formula cells of an .xlsx input: refuse (the default), or read the result "
        "saved with each (cached), with a warning naming them.",
        choices=("refuse", "cached"),
    ),
    Setting(
        "max_rows",
        "source",
        "whole",
        "Refuse an input of more rows (about 200 bytes of memory each); 0: no limit.",
        metavar="ROWS",
        everywhere=True,
    ),
    # -- output --------------------------------------------------------------------------
    Setting(
        "output",
        "output",
        "path",
        "Write here; '-' is standard output. Format from the suffix.",
        short="-o",
        metavar="FILE",
    ),
    Setting(
        "format",
        "output",
        "choice",
        "csv, excel (CSV with a BOM and CRLF, as Excel opens it), xlsx, parquet, json "
        "(version, kind, rules and the rows as items), or table (for a person, as wide as "
        "the terminal). Default: from the output file's suffix; at a terminal, a table; "
        "else CSV (explain and manifest check: their text; validate: the problems on "
        "standard error; event status: JSON).",
        short="-f",
        choices=_choices(OutputFormat),
    ),
    Setting(
        "excel",
        "output",
        "flag",
        "CSV as Excel opens it: UTF-8 with a BOM, CRLF (--format excel).",
    ),
    Setting(
        "manifest",
        "output",
        "path",
        "Also write a JSON record of this run: version, rules, inputs and outputs with "
        "their sha256 and row counts (check it with `duplicate manifest check`).",
        metavar="FILE",
    ),
)

# The groups whose settings make the rules (duplicate.rules.Rules).
RULES: tuple[Group, ...] = ("scoring", "game", "stage")

_BY_NAME = {s.name: s for s in SETTINGS}
_BY_TOML = {s.toml: s for s in SETTINGS if s.toml}


def setting(name: str) -> Setting:
    return _BY_NAME[name]


def settings(*groups: Group) -> tuple[Setting, ...]:
    return tuple(s for s in SETTINGS if s.group in groups)


def flag_of(name: str) -> str:
    """How the command line names a setting (messages name settings by keyword)."""
    found = _BY_NAME.get(name)
    return found.option if found is not None else "--" + name.replace("_", "-")


def given(values: Mapping[str, Any], *groups: Group) -> dict[str, Any]:
    """The settings of `groups` in `values` that are given (not None), as typed values.

    Unknown keywords are refused, naming the known ones.
    """
    known = {s.name for s in settings(*groups)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise UsageError(
            f"unknown setting {', '.join(unknown)}; known: {', '.join(sorted(known))}",
            "option.unknown",
        )
    return {
        name: _BY_NAME[name].coerce(value) for name, value in values.items() if value is not None
    }


# -- numbers as settings write them ------------------------------------------------------


def shown(value: Any) -> str:
    """A value as a message shows it: as written (a rules file's 0.5 is a Decimal)."""
    return str(value) if isinstance(value, Decimal) else repr(value)


def as_decimal(value: Any, where: str) -> Decimal:
    """A number as written, by the strict grammar: no exponent, nan, hex or underscore."""
    if isinstance(value, Decimal) and value.is_finite():
        return value
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise UsageError(f"{where}: {shown(value)} is not a number", "option.bad-number")
    text = str(value).strip()
    if isinstance(value, float) and math.isfinite(value):
        # Its shortest text: a TOML float 0.7 means the decimal 0.7, not its binary
        # neighbour; 1e-07 is written out.
        text = format(Decimal(repr(value)), "f")
    if not _NUMBER.fullmatch(text):
        raise UsageError(f"{where}: {value!r} is not a number such as 0.7", "option.bad-number")
    try:
        return Decimal(text)
    except InvalidOperation:
        raise UsageError(f"{where}: {value!r} is not a number", "option.bad-number") from None


def parse_decimal(text: str, where: str) -> Decimal:
    """A decimal as written in a setting, by the strict grammar."""
    return as_decimal(text, where)


def parse_whole(text: str, where: str) -> int:
    """A whole number as written in a setting: ASCII digits and a sign only."""
    if not _WHOLE.fullmatch(text.strip()):
        raise UsageError(
            f"{where}: {text!r} is not a whole number such as 10000", "option.bad-number"
        )
    return int(text)


def parse_schedule(text: str, where: str = "{opt:base}") -> Schedule:
    """'0:100,4:200,8:400' -> the schedule; it starts at minute 0 and grows."""
    steps = []
    for part in text.split(","):
        match = _STEP.fullmatch(part)
        if match is None:
            raise UsageError(
                f"{where}: {part.strip()!r} is not minute:base, such as 4:200",
                "option.bad-schedule",
            )
        steps.append((Decimal(match[1]), int(match[2])))
    check_schedule(tuple(steps), where)
    return tuple(steps)


def check_schedule(steps: Schedule, where: str) -> None:
    if not steps or steps[0][0] != 0:
        raise UsageError(
            f"{where}: the base schedule starts at minute 0, such as 0:100,4:200",
            "option.bad-schedule",
        )
    for (m0, b0), (m1, b1) in itertools.pairwise(steps):
        if m1 <= m0 or b1 <= b0:
            raise UsageError(
                f"{where}: {m1}:{b1} after {m0}:{b0}; minutes and bases both grow",
                "option.bad-schedule",
            )
    if any(base <= 0 or base > MAX_CHIPS for _, base in steps):
        raise UsageError(
            f"{where}: a base is a whole number from 1 to {MAX_CHIPS:,}", "option.bad-schedule"
        )


def schedule_text(steps: Schedule) -> str:
    return ",".join(f"{plain_number(minute)}:{base}" for minute, base in steps)


def plain_number(value: Decimal) -> str:
    """A decimal as plain text, no exponent: 0.25, 1, 1000."""
    return format(value.normalize(), "f")


def float_text(value: Decimal) -> str:
    """A decimal as a TOML float: 0.7, 1.0."""
    text = plain_number(value)
    return text if "." in text else text + ".0"


# -- rules files -----------------------------------------------------------------------

# The tables of a rules file, in the order they are written: None is the top level.
RULES_TABLES: tuple[str | None, ...] = (
    None,
    "rank_points",
    "standard_points",
    "percentage",
    "imps",
    "games",
    "stage",
)


def toml_value(item: Setting, value: Any) -> str:
    """A rules setting's value as TOML."""
    if item.kind in ("choice", "text"):
        return f'"{value}"'
    if item.kind == "names":
        return "[" + ", ".join(f'"{v}"' for v in value) + "]"
    if item.kind == "factors":
        return "[" + ", ".join(float_text(v) for v in value) + "]"
    if item.kind == "schedule":
        return f'"{schedule_text(value)}"'
    if item.kind == "decimal":
        return float_text(value) if item.group != "stage" else plain_number(value)
    return str(value)


def from_toml(item: Setting, value: Any, source: str) -> Any:
    """A rules setting's value as a rules file gives it (strict: a whole number is
    an integer, a list is a list, a schedule is text)."""
    where = f"{source}: {item.toml}"
    if item.kind == "whole":
        if isinstance(value, bool) or not isinstance(value, int):
            raise UsageError(
                f"{where} must be a whole number, not {shown(value)}", "rules.bad-value"
            )
        return value
    if item.kind == "schedule":
        if not isinstance(value, str):
            raise UsageError(f'{where} is text such as "0:100,4:200"', "rules.bad-value")
        return parse_schedule(value, where)
    if item.kind in ("names", "factors"):
        if not isinstance(value, list):
            raise UsageError(f"{where} must be a list", "rules.bad-value")
        if item.kind == "names":
            return tuple(str(v) for v in value)
        return tuple(as_decimal(v, where) for v in value)
    if item.kind == "decimal":
        return as_decimal(value, where)
    if item.kind == "choice":
        return str(value)
    return value


def rules_values(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """Setting name -> value of a parsed rules file; unknown keys refused."""
    tables = {t for t in RULES_TABLES if t is not None}
    top = {s.toml for s in SETTINGS if s.toml and "." not in s.toml}
    unknown = sorted(set(data) - top - tables)
    if unknown:
        known = sorted(top | tables)
        raise UsageError(
            f"{source}: unknown setting {', '.join(unknown)}; known: {', '.join(known)}",
            "rules.unknown-setting",
        )
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key in tables:
            if not isinstance(value, dict):
                raise UsageError(f"{source}: [{key}] must be a table", "rules.bad-value")
            names = {s.toml.split(".", 1)[1] for s in SETTINGS if s.toml.startswith(key + ".")}
            wrong = sorted(set(value) - names)
            if wrong:
                raise UsageError(
                    f"{source}: unknown {key} setting {', '.join(wrong)}; known: "
                    f"{', '.join(sorted(names))}",
                    "rules.unknown-setting",
                )
            for inner, held in value.items():
                item = _BY_TOML[f"{key}.{inner}"]
                values[item.name] = from_toml(item, held, source)
        else:
            item = _BY_TOML[key]
            values[item.name] = from_toml(item, value, source)
    return values


def rules_toml(values: Mapping[str, Any], unset: Mapping[str, str]) -> str:
    """The rules as a TOML document: every rules setting under its table, with its
    comment; a setting whose value is None is written as a comment (`unset` says what
    then applies)."""
    lines = ["# Effective rules: every setting the numbers were computed with (docs/scoring.md)."]
    for table in RULES_TABLES:
        if table is not None:
            lines += ["", f"[{table}]"]
        for item in SETTINGS:
            held_in = item.toml.split(".", 1)[0] if "." in item.toml else None
            if not item.toml or held_in != table:
                continue
            if item.comment:
                lines += [f"# {line}" for line in item.comment.split("\n")]
            key = item.toml.split(".", 1)[-1]
            value = values[item.name]
            if value is None:
                lines.append(f"# {key}: not set; {unset[item.name]}")
            else:
                lines.append(f"{key} = {toml_value(item, value)}")
    return "\n".join(lines) + "\n"
