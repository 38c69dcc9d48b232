"""The order Chinese readers look a name up in: by the pinyin of its characters
syllable by syllable (李 li before 刘 liu before 王 wang; 马力 ma li before 马明 ma
ming), a syllable's tone after its letters (妈 ma1 before 马 ma3), then the name as
written; a name in Latin letters among them by its letters, as if it were
pinyin (Li Na beside 李娜), case and accents aside; numbers in a name by their value
(P9 before P10).

The readings come from pypinyin; a surname is read as a surname (曾 zeng, not ceng;
单 shan, 解 xie), from the table below, as pypinyin reads every character as a word.

    >>> sorted(["周", "何", "吴", "刘", "Anna"], key=name_key)
    ['Anna', '何', '刘', '吴', '周']
"""

from __future__ import annotations

import re
import unicodedata

from pypinyin import Style, lazy_pinyin

from duplicate.text import natural

# Surnames whose reading as a surname differs from the character's usual one.
SURNAMES = {
    "万俟": ["mo4", "qi2"],
    "尉迟": ["yu4", "chi2"],
    "单于": ["chan2", "yu2"],
    "长孙": ["zhang3", "sun1"],
    "曾": ["zeng1"],
    "单": ["shan4"],
    "解": ["xie4"],
    "仇": ["qiu2"],
    "区": ["ou1"],
    "查": ["zha1"],
    "朴": ["piao2"],
    "乐": ["yue4"],
    "盖": ["ge3"],
    "翟": ["zhai2"],
    "缪": ["miao4"],
    "覃": ["qin2"],
    "华": ["hua4"],
    "种": ["chong2"],
    "重": ["chong2"],
    "秘": ["bi4"],
    "冼": ["xian3"],
    "纪": ["ji3"],
    "燕": ["yan1"],
    "繁": ["po2"],
    "尉": ["yu4"],
    "宿": ["su4"],
    "员": ["yun4"],
}
_SYLLABLE = re.compile(r"([a-zü]+)([1-5])")
# A Chinese character, or a run of anything else.
_CHARACTERS = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[^\u3400-\u9fff\uf900-\ufaff]+")


Key = tuple[tuple[tuple[str, str], ...], str]


def name_key(name: str) -> Key:
    """What a list of names is sorted on: syllable by syllable, its letters (pinyin for
    a Chinese character, a word for Latin letters) then its tone; then the name as
    written."""
    text = unicodedata.normalize("NFC", name.strip())
    surname = _surname(text)
    syllables = surname[1] if surname else []
    # Each character read by itself: a name is no phrase (陆万 is Lu Wan, not the
    # number liu wan); letters and digits kept in runs (P10 stays ten).
    rest = _CHARACTERS.findall(text[len(surname[0]) if surname else 0 :])
    syllables = syllables + lazy_pinyin(
        rest,
        style=Style.TONE3,
        neutral_tone_with_five=True,
        v_to_u=True,
    )
    parts: list[tuple[str, str]] = []
    for part in syllables:
        found = _SYLLABLE.fullmatch(part)
        if found:
            parts.append((found[1], found[2]))
        else:
            parts += [(natural(word), "") for word in _plain(part).split()]
    return tuple(parts), text


def _surname(text: str) -> tuple[str, list[str]] | None:
    for length in (2, 1):
        reading = SURNAMES.get(text[:length])
        if reading is not None and len(text) > length:
            return text[:length], reading
    return None


def _plain(text: str) -> str:
    """Latin letters without case or accents: Émile -> emile."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()
