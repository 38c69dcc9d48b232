"""docs/commands.md, written from the program: every command, its arguments and every
option, as each is declared (a setting's from duplicate.options, a command's own from
its signature). `make docs` writes it; a test keeps it the program's own."""

from __future__ import annotations

import inspect
from enum import Enum
from typing import Any, Literal, get_args, get_origin

import typer

from duplicate.options import SETTINGS


def commands_markdown(app: typer.Typer) -> str:
    """Every command of `app` (the program's: duplicate.cli.commands) with its
    arguments and options, as Markdown."""
    from duplicate.cli.commands import COMMANDS, declared

    lines = [
        "# Commands",
        "",
        "Every command, its arguments and every option, as the program declares them",
        "(this page is written from the program by `make docs`). `duplicate COMMAND -h`",
        "shows the same, with an example. The rules settings are explained in",
        "[rules.md](rules.md), the sources in [input.md](input.md), the outputs in",
        "[output.md](output.md).",
        "",
        "## Before the command",
        "",
        "| option | what it does |",
        "|---|---|",
    ]
    root = app.registered_callback
    if root is not None and root.callback is not None:
        lines += [_row(p) for p in _parameters(root.callback) if p.kind == "option"]
    lines += ["", *_settings()]
    for module in dict.fromkeys(COMMANDS.values()):
        for name, callback in _commands(declared(module)):
            lines += ["", *_command(name, callback)]
    return "\n".join(lines) + "\n"


GROUPS = {
    "scoring": "Scoring rules",
    "game": "A game's own rules",
    "stage": "Stage rules",
    "source": "Reading the event",
    "output": "Writing the result",
}


def _settings() -> list[str]:
    """Every setting a command may take, once: its option, what it takes, its help."""
    lines = [
        "## Settings",
        "",
        "Each command takes the settings its section lists; a rules setting given as an",
        "option is taken over the rules file's (`--rules`) and the event folder's.",
    ]
    for group, title in GROUPS.items():
        lines += ["", f"### {title}", "", "| option | what it does |", "|---|---|"]
        for item in SETTINGS:
            if item.group != group or item.everywhere:
                continue
            flags = ", ".join(f"`{f}`" for f in (item.short, item.option) if f)
            takes = (
                ""
                if item.kind == "flag"
                else " \\| ".join(f"`{c}`" for c in item.choices)
                if item.choices
                else f"`{item.metavar or item.name.upper()}`"
            )
            lines.append(f"| {flags}{' ' + takes if takes else ''} | {_cell(item.help)} |")
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _commands(app: typer.Typer, prefix: str = "") -> list[tuple[str, Any]]:
    found = [
        (f"{prefix}{info.name}", info.callback)
        for info in app.registered_commands
        if info.callback is not None
    ]
    for group in app.registered_groups:
        sub = group.typer_instance
        if sub is not None:
            found += _commands(sub, f"{prefix}{sub.info.name} ")
    return found


class _Parameter:
    """One argument or option of a command, as its annotation declares it."""

    def __init__(self, name: str, annotation: Any, default: Any) -> None:
        self.name = name
        base, *meta = get_args(annotation) if hasattr(annotation, "__metadata__") else (annotation,)
        info = next((m for m in meta if isinstance(m, typer.models.ParameterInfo)), None)
        self.kind = "argument" if isinstance(info, typer.models.ArgumentInfo) else "option"
        decls = [getattr(info, "default", None), *(getattr(info, "param_decls", None) or ())]
        self.flags = [d for d in decls if isinstance(d, str) and d.startswith("-")]
        self.help = str(getattr(info, "help", "") or "")
        self.metavar = str(getattr(info, "metavar", "") or "")
        self.choices = _choices(base)
        self.is_flag = base is bool
        self.default = default

    def takes(self) -> str:
        if self.is_flag:
            return ""
        if self.choices:
            return " \\| ".join(f"`{c}`" for c in self.choices)
        return f"`{self.metavar or self.name.upper()}`"


def _choices(annotation: Any) -> list[str]:
    for kind in (annotation, *get_args(annotation)):
        if isinstance(kind, type) and issubclass(kind, Enum):
            return [str(member.value) for member in kind]
        if get_origin(kind) is Literal:
            return [str(value) for value in get_args(kind)]
    return []


def _parameters(callback: Any) -> list[_Parameter]:
    signature = inspect.signature(callback, eval_str=True)
    return [
        _Parameter(p.name, p.annotation, p.default)
        for p in signature.parameters.values()
        if p.name != "settings"
    ]


def _row(p: _Parameter) -> str:
    flags = ", ".join(f"`{f}`" for f in sorted(p.flags, key=len))
    takes = p.takes()
    return f"| {flags}{' ' + takes if takes else ''} | {_cell(p.help)} |"


def _command(name: str, callback: Any) -> list[str]:
    parameters = _parameters(callback)
    taken = set(getattr(callback, "settings_taken", ()))
    arguments = [p for p in parameters if p.kind == "argument"]
    usage = " ".join([f"duplicate {name}", *(p.metavar or p.name.upper() for p in arguments)])
    doc = inspect.cleandoc(callback.__doc__ or "")
    lines = [f"## `{usage}`", "", doc, ""]
    if arguments:
        lines += ["| argument | what it is |", "|---|---|"]
        lines += [f"| `{p.metavar or p.name.upper()}` | {p.help} |" for p in arguments]
        lines.append("")
    own = [p for p in parameters if p.kind == "option" and p.name not in taken]
    if own:
        lines += ["| option | what it does |", "|---|---|"]
        lines += [_row(p) for p in own]
        lines.append("")
    if taken:
        flags = [s.option for s in SETTINGS if s.name in taken]
        lines.append("Settings: " + ", ".join(f"`{f}`" for f in flags) + ".")
    return lines
