"""JSON whose numbers read as the rules define them: a decimal keeps its places
(rank points 29335.70, not 29335.7; a penalty 0.00, not 0.0) and a whole number has
none (play time 1309, not 1309.0). Python's json writes Decimals not at all and
floats by their shortest text, so decimals pass through it as marked strings that are
then put back as the number's own text."""

from __future__ import annotations

import json
import os
import re
from decimal import Decimal
from typing import Any


def dumps(document: Any, indent: int | None = 1) -> str:
    """`document` as JSON text (UTF-8 characters as they are), Decimals as written."""
    # A mark no input can hold: it is chosen afresh for each document.
    mark = f"\x00{os.urandom(8).hex()}:"

    def marked(value: Any) -> Any:
        if isinstance(value, Decimal):
            if not value.is_finite():
                raise ValueError(f"{value} has no JSON number")
            return mark + format(value, "f")
        if isinstance(value, dict):
            return {key: marked(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [marked(item) for item in value]
        return value

    text = json.dumps(marked(document), ensure_ascii=False, indent=indent)
    escaped = re.escape(json.dumps(mark)[1:-1])
    return re.sub(f'"{escaped}(-?[0-9]+(?:\\.[0-9]+)?)"', r"\1", text)
