"""The pages of docs/ that the program writes itself are as it writes them (`make docs`)."""

from __future__ import annotations

import pytest

from tests.write_docs import DOCS, pages


@pytest.mark.parametrize("name", sorted(pages()))
def test_the_page_is_the_program_s_own(name: str) -> None:
    assert (DOCS / name).read_text(encoding="utf-8") == pages()[name], f"make docs: {name}"
