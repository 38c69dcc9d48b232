"""The font the printed pages are set in: a TrueType font with Chinese glyphs, embedded
in each PDF as a subset (only the glyphs the pages use), so that a page prints the same
on a machine with no Chinese font.

The font is found on the machine: the one the project's set-up installs (`make fonts`:
Debian's fonts-wqy-zenhei, WenQuanYi Zen Hei), else a usual Chinese TrueType font of
Linux, macOS or Windows, or the file the caller names. reportlab embeds TrueType
outlines (`glyf`) only: an OpenType font of PostScript outlines (CFF, as Noto Sans CJK
is shipped) is passed over.

A character the font has no glyph for (an emoji, say) is printed as a white square
(U+25A1) and named in a warning, rather than left blank or refused: a player's name
with a decoration still prints, and the scorer hears which names were changed. No
font embeddable by reportlab carries colour emoji (they are bitmaps or colour layers,
not TrueType outlines).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from duplicate.errors import UsageError

# Where a Chinese TrueType font usually is, most wanted first. The first is the one
# `make fonts` installs.
KNOWN = (
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc",
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    # macOS
    "/System/Library/Fonts/STHeiti Light.ttc",
    "/System/Library/Fonts/Hiragino Sans GB.ttc",
    "/Library/Fonts/Arial Unicode.ttf",
    # Windows (under %WINDIR%)
    "Fonts/msyh.ttc",
    "Fonts/simhei.ttf",
    "Fonts/simsun.ttc",
)
# A character the font lacks is printed as this.
MISSING = "\u25a1"
# Characters a name may hold that print as nothing: joiners and variation selectors.
_INVISIBLE = frozenset(
    ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"] + [chr(c) for c in range(0xFE00, 0xFE10)]
)


@dataclass(frozen=True)
class Font:
    """A registered font: the name pages set text in, and the file it came from."""

    name: str
    path: str
    glyphs: frozenset[int]

    def printable(self, text: str) -> str:
        """`text` with every character the font lacks as a white square (joiners and
        variation selectors, which print as nothing, left out)."""
        if all(ord(c) in self.glyphs or c in " \n" for c in text):
            return text
        return "".join(
            "" if c in _INVISIBLE else c if ord(c) in self.glyphs else MISSING for c in text
        )

    def lacks(self, text: str) -> str:
        """The characters of `text` the font has no glyph for, once each, in order."""
        seen = dict.fromkeys(
            c for c in text if ord(c) not in self.glyphs and c not in _INVISIBLE and c != "\n"
        )
        return "".join(seen)

    def width(self, text: str, size: float) -> float:
        return float(pdfmetrics.stringWidth(text, self.name, size))


def _candidates(given: str | None) -> list[str]:
    if given is not None:
        return [given]
    windows = os.environ.get("WINDIR", "C:/Windows")
    return [str(Path(windows) / p) if p.startswith("Fonts/") else p for p in KNOWN]


@cache
def cjk_font(given: str | None = None) -> Font:
    """The Chinese TrueType font, registered with reportlab: the file `given`, else the
    first of the known places that holds one reportlab can embed."""
    refused: list[str] = []
    for path in _candidates(given):
        if not Path(path).is_file():
            if given is not None:
                refused.append(f"{path}: no such file")
            continue
        name = f"DuplicateCJK-{len(_registered)}"
        try:
            # A collection (.ttc): its first font.
            font = TTFont(name, path, subfontIndex=0)
        except (TTFError, OSError, ValueError, KeyError, AssertionError) as exc:
            refused.append(f"{path}: {exc}")
            continue
        pdfmetrics.registerFont(font)
        _registered.append(name)
        return Font(name, path, frozenset(font.face.charToGlyph))
    why = f" ({'; '.join(refused)})" if refused else ""
    if given is not None:
        raise UsageError(
            f"{given} is not a TrueType font that can be embedded{why}: give a .ttf or "
            ".ttc font with Chinese glyphs and TrueType outlines",
            "print.no-font",
        )
    raise UsageError(
        "no Chinese TrueType font found to embed in the PDF"
        f"{why}: install the one the project's set-up installs (`make fonts`, Debian's "
        "fonts-wqy-zenhei), or name a .ttf or .ttc font file with {opt:font}",
        "print.no-font",
    )


_registered: list[str] = []
