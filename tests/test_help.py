"""Help says what users give: every kind of source, every choice, every adjustment kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from duplicate.cli.commands import COMMANDS, command
from duplicate.model.adjustments import KINDS
from duplicate.options import setting

# What every input argument's help names (a hand log, raw outcomes and games too).
FILE_KINDS = ("CSV", "Parquet", ".xlsx")
# What an event's source may be besides.
EVENT_KINDS = ("event folder", "PBN", "USEBIO", "'-' reads standard input")


def commands() -> Iterator[tuple[str, Any]]:
    def walk(found: Any, path: str) -> Iterator[tuple[str, Any]]:
        if hasattr(found, "commands"):  # a group (typer's click may be its own copy)
            for name, inner in found.commands.items():
                yield from walk(inner, f"{path} {name}")
        else:
            yield path, found

    for name in COMMANDS:
        yield from walk(command(name), name)


def test_every_choice_is_listed_in_its_options_help() -> None:
    checked = 0
    for path, found in commands():
        context = found.context_class(found, info_name=path)
        for param in found.params:
            if param.param_type_name == "option" and hasattr(param.type, "choices"):
                shown = " ".join(param.get_help_record(context) or ())
                missing = [c for c in param.type.choices if str(c) not in shown]
                assert not missing, (path, param.name, missing)
                checked += 1
    assert checked > 20


def test_every_input_names_every_kind_of_file_it_takes() -> None:
    inputs = {"SOURCE", "HANDS", "RAW", "GAMES", "UPLOAD", "PUBLISHED"}
    seen = set()
    for path, found in commands():
        for param in found.params:
            if param.param_type_name == "argument" and param.metavar in inputs:
                seen.add(param.metavar)
                text = getattr(param, "help", "") or ""
                assert all(kind in text for kind in FILE_KINDS), (path, text)
                if param.metavar == "SOURCE":
                    assert all(kind in text for kind in EVENT_KINDS), (path, text)
    assert seen == inputs


def test_the_adjustments_help_lists_every_kind() -> None:
    assert all(kind in setting("adjustments").help for kind in KINDS)
