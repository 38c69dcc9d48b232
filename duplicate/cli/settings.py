"""The settings of duplicate.options as command-line options.

A command decorated with `@settings_options(groups...)` gets an option for every setting
of those groups, its flag, help and choices from the setting's declaration, and
receives the settings given as `settings: dict[str, Any]` (a setting not given is not
in it; choices and text as text, flags as booleans). The library parses them
(duplicate.load.load_event), so that a value is read the same way on both sides.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar, cast

import typer

from duplicate.options import SETTINGS, Group, Setting, settings

F = TypeVar("F", bound=Callable[..., Any])

# Flags a command's messages name settings by: filled by each command as it runs.
_flags: dict[str, str] = {}


def one_of(choices: tuple[str, ...]) -> Any:
    """The type of an option taking one of `choices` (typer lists and checks them); its
    value is the text chosen."""
    return cast(Any, Literal)[choices]


def option_of(item: Setting) -> Any:
    """The typer annotation of a setting's option."""
    decls = [item.option, *([item.short] if item.short else [])]
    kwargs: dict[str, Any] = {"help": item.help}
    if item.metavar:
        kwargs["metavar"] = item.metavar
    if item.kind == "flag":
        return Annotated[bool, typer.Option(*decls, **kwargs)]
    if item.kind == "choice":
        return Annotated[one_of(item.choices) | None, typer.Option(*decls, **kwargs)]
    return Annotated[str | None, typer.Option(*decls, **kwargs)]


def settings_options(
    *groups: Group, skip: tuple[str, ...] = (), also: tuple[str, ...] = ()
) -> Callable[[F], F]:
    """Give a command the options of every setting of `groups` (but `skip`), and of the
    settings named in `also`; it takes them as `settings`, the given ones only."""
    chosen = [
        s
        for s in SETTINGS
        if ((s.group in groups and s.name not in skip) or s.name in also) and not s.everywhere
    ]

    def decorate(command: F) -> F:
        signature = inspect.signature(command, eval_str=True)
        kept = [p for p in signature.parameters.values() if p.name != "settings"]
        added = [
            inspect.Parameter(
                s.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=False if s.kind == "flag" else None,
                annotation=option_of(s),
            )
            for s in chosen
        ]

        @functools.wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            given: dict[str, Any] = {}
            for item in chosen:
                value = kwargs.pop(item.name)
                if item.kind == "flag":
                    if value:
                        given[item.name] = True
                elif value is not None:
                    given[item.name] = value
            return command(*args, **kwargs, settings=given)

        # Typer reads the parameters from the signature, annotations evaluated.
        wrapper.__signature__ = signature.replace(parameters=kept + added)  # type: ignore[attr-defined]
        # The settings it takes, for the command reference (cli/reference.py).
        wrapper.settings_taken = tuple(s.name for s in chosen)  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def own_flags(signature: inspect.Signature) -> dict[str, str]:
    """Parameter name -> its long flag, for a command's own options."""
    flags = {}
    for parameter in signature.parameters.values():
        for meta in getattr(parameter.annotation, "__metadata__", ()):
            decls = [getattr(meta, "default", None), *(getattr(meta, "param_decls", None) or ())]
            long = [d for d in decls if isinstance(d, str) and d.startswith("--")]
            if long:
                flags[parameter.name] = long[0].split("/")[0]
    return flags


def flag_named(name: str) -> str:
    """How this command's messages name a setting: its flag."""
    from duplicate.options import flag_of

    return _flags.get(name) or flag_of(name)


def of_groups(given: dict[str, Any], *groups: Group) -> dict[str, Any]:
    """The settings given that belong to `groups`."""
    names = {s.name for s in settings(*groups)}
    return {k: v for k, v in given.items() if k in names}
