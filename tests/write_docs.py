"""Write the pages of docs/ that the program writes itself (`make docs`): the problem
catalog and the command reference. tests/test_docs.py keeps them as written."""

from __future__ import annotations

from pathlib import Path

from duplicate.cli.commands import app
from duplicate.cli.reference import commands_markdown
from duplicate.problems import catalog_markdown

DOCS = Path(__file__).resolve().parents[1] / "docs"


def pages() -> dict[str, str]:
    return {"problems.md": catalog_markdown(), "commands.md": commands_markdown(app)}


if __name__ == "__main__":
    for name, text in pages().items():
        (DOCS / name).write_text(text, encoding="utf-8")
        print(f"wrote docs/{name}")
