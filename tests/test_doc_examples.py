"""Every example in README.md and docs/*.md is what the program prints.

A ```console block is a shell in the repository's folder: `$ COMMAND` lines (a line
ending in a backslash goes on), each followed by what it prints, standard output and
standard error in either interleaving. The blocks of one page run in order in one
temporary folder that holds a copy of the inputs the examples read, so that a later
block reads what an earlier one wrote; `echo $?` gives the exit status of the command
before it. A page that goes on from another's examples says so in a comment,
`<!-- examples: after OTHER.md -->`, and its blocks run after that page's, the two
checked in one run (the other page is not run again on its own). A command
whose output cannot be the same twice (a timestamp) ends in `# output not compared`:
it is run, and its output left unread. On a line that names a Parquet file, a sha256
(its first 12 digits) stands for any: the file carries the version of Arrow that wrote
it, and so its bytes change with that version.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# What the examples read, copied (at the same paths) into each page's folder.
INPUTS = [
    "sample_data",
    "docs/examples",
    "tests/data",
    "tests/golden",
    "tests/golden_games",
    "tests/golden_stages",
]
NOT_COMPARED = "# output not compared"
AFTER = re.compile(r"<!-- examples: after (\S+) -->")
BLOCK = re.compile(r"^```console\n(.*?)^```$", re.DOTALL | re.MULTILINE)
SHA256 = re.compile(r"(?<![0-9a-f])[0-9a-f]{12}(?![0-9a-f])")


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    command: str
    expected: list[str]


def examples(page: Path) -> list[Example]:
    """The page's commands, with what each shows, in order."""
    text = page.read_text(encoding="utf-8")
    name = page.relative_to(ROOT).as_posix()
    found: list[Example] = []
    for block in BLOCK.finditer(text):
        first = text.count("\n", 0, block.start(1)) + 1
        lines = block.group(1).splitlines()
        assert lines, f"{name}:{first}: an empty block"
        assert lines[0].startswith("$ "), f"{name}:{first}: a block starts with '$ '"
        index = 0
        while index < len(lines):
            line_number = first + index
            command = lines[index][2:]
            index += 1
            while command.endswith("\\"):
                command = command[:-1] + "\n" + lines[index]
                index += 1
            shown: list[str] = []
            while index < len(lines) and not lines[index].startswith("$ "):
                shown.append(lines[index])
                index += 1
            found.append(Example(name, line_number, command, _trimmed(shown)))
    return found


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return [SHA256.sub("<sha256>", line) if ".parquet" in line else line for line in lines]


def _pages_before(page: Path) -> list[Path]:
    match = AFTER.search(page.read_text(encoding="utf-8"))
    if match is None:
        return []
    before = (page.parent / match.group(1)).resolve()
    return [*_pages_before(before), before]


def _interleaved(shown: list[str], out: list[str], err: list[str]) -> bool:
    """Whether `shown` is `out` and `err` merged, each in its own order."""
    if len(shown) != len(out) + len(err):
        return False
    # reachable[j]: shown[: i + j] can be out[:i] and err[:j] merged.
    reachable = [True] * (len(err) + 1)
    for j in range(1, len(err) + 1):
        reachable[j] = reachable[j - 1] and shown[j - 1] == err[j - 1]
    for i in range(1, len(out) + 1):
        reachable[0] = reachable[0] and shown[i - 1] == out[i - 1]
        for j in range(1, len(err) + 1):
            from_out = reachable[j] and shown[i + j - 1] == out[i - 1]
            from_err = reachable[j - 1] and shown[i + j - 1] == err[j - 1]
            reachable[j] = from_out or from_err
    return reachable[len(err)]


def _environment() -> dict[str, str]:
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "duplicate").exists(), f"no duplicate in {bin_dir}: make run"
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith("DUPLICATE_")
    }
    environment.update(
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        LC_ALL="C.UTF-8",
        LANG="C.UTF-8",
        NO_COLOR="1",
        TZ="UTC",
    )
    return environment


def _run(
    example: Example, folder: Path, environment: dict[str, str], status: int
) -> tuple[int, str | None]:
    """The command's exit status, and how its output differs from the page's (if it does)."""
    # `( exit N )` first, so that `echo $?` says how the command before it ended.
    done = subprocess.run(
        ["bash", "-c", f"( exit {status} ); {example.command}"],
        cwd=folder,
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=300,
        check=False,
    )
    out = _trimmed(done.stdout.decode("utf-8", "replace").splitlines())
    err = _trimmed(done.stderr.decode("utf-8", "replace").splitlines())
    if example.command.rstrip().endswith(NOT_COMPARED) or _interleaved(example.expected, out, err):
        return done.returncode, None
    return done.returncode, "\n".join(
        [
            f"{example.page}:{example.line}: $ {example.command}",
            "--- the page shows:",
            *example.expected,
            f"--- the program printed (exit {done.returncode}), standard output:",
            *out,
            "--- standard error:",
            *err,
        ]
    )


def _continued() -> set[Path]:
    """The pages another page goes on from: each is checked as the start of that page's
    run, not run twice."""
    return {before for page in PAGES for before in _pages_before(page)}


@pytest.mark.parametrize(
    "page",
    [page for page in PAGES if examples(page) and page.resolve() not in _continued()],
    ids=lambda page: page.name,
)
def test_the_page_s_examples_are_what_the_program_prints(page: Path, tmp_path: Path) -> None:
    for inputs in INPUTS:
        shutil.copytree(ROOT / inputs, tmp_path / inputs)
    environment = _environment()
    status = 0
    differences: list[str] = []
    chain = [*_pages_before(page), page]
    for example in [example for each in chain for example in examples(each)]:
        if "jq " in example.command and shutil.which("jq") is None:
            pytest.skip("jq is not installed")
        status, difference = _run(example, tmp_path, environment, status)
        if difference is not None:
            differences.append(difference)
    if differences:
        pytest.fail("\n\n".join(differences), pytrace=False)
