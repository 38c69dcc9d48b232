"""Print pip constraints that pin every runtime dependency at its declared minimum
(`make minimum` installs them, so that the minimums in pyproject.toml are tested)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def minimums() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = []
    for requirement in project["dependencies"]:
        found = re.match(r"^([A-Za-z0-9_.-]+)(?:\[[^]]*\])?\s*>=\s*([0-9][^,;\s]*)", requirement)
        if found is None:
            raise SystemExit(f"no minimum declared in {requirement!r}")
        pins.append(f"{found.group(1)}=={found.group(2)}")
    return pins


if __name__ == "__main__":
    print("\n".join(minimums()))
