"""Rewrite tests/golden_games/<game>_<example>/expected.csv (run by `make golden`)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from duplicate.cli import app

HERE = Path(__file__).parent


def cases() -> list[Path]:
    return sorted(p for p in HERE.iterdir() if (p / "raw.csv").exists())


def game_of(case: Path) -> str:
    return case.name.split("_")[0]


def computed(case: Path) -> bytes:
    result = CliRunner().invoke(
        app, ["game-score", "--game", game_of(case), str(case / "raw.csv"), "-o", "-"]
    )
    if result.exit_code != 0:
        raise SystemExit(result.stderr)
    return result.stdout_bytes


def main() -> None:
    for case in cases():
        (case / "expected.csv").write_bytes(computed(case))
        print(f"wrote {case.name}")


if __name__ == "__main__":
    main()
