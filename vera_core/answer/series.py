"""Lists written inline in a sentence: "3M manages its operations in five business segments:
Industrial; Safety and Graphics; Health Care; Electronics and Energy; and Consumer." A list question
about segments gets those five names, each cited to the sentence, not fragments of the paragraphs
around them. A sentence that states how many there are ("five business segments") and lists that
many is preferred."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vera_core.answer.units import Unit
from vera_core.text import content_stem

__all__ = ["MAX_ITEM_WORDS", "Series", "inline_series"]

MAX_ITEM_WORDS = 6
"""An inline item is a name ("Safety and Graphics"), not a clause."""
_COUNTS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_INTRO = r"\s*(?:[,:]\s*)?(?:(?:are|were|include[sd]?|including|consist(?:s|ed)?\s+of|comprise[sd]?|namely)\b\s*:?|:)\s*"


@dataclass(frozen=True)
class Series:
    """The items of one inline list and the sentence that states them."""

    items: tuple[str, ...]
    unit: Unit
    counted: bool
    """The sentence states how many there are, and lists that many."""


def inline_series(units: Sequence[Unit], head: str) -> Series | None:
    """The best inline list of `head` things ("segment") in `units` (best first): one whose sentence
    states their number and lists that many, else the first found; None when no sentence lists them."""
    stem = content_stem(head.lower())
    if len(stem) < 3:
        return None
    pattern = re.compile(rf"(?:\b(?P<count>{'|'.join(_COUNTS)}|\d{{1,2}})\s+(?:[\w-]+\s+){{0,3}}?)?"
                         rf"\b{re.escape(stem)}\w*\b(?P<mid>[^.;:]{{0,60}}?){_INTRO}(?P<series>[^.]+)", re.I)
    found: list[Series] = []
    for unit in units:
        text = " ".join(unit.text.split())
        for m in pattern.finditer(text):
            items = _split(m.group("series"))
            if len(items) < 2:
                continue
            stated = _count(" ".join(unit.chunk.text.split()), stem)
            found.append(Series(tuple(items), unit, stated == len(items)))
    return next((s for s in found if s.counted), found[0] if found else None)


def _split(series: str) -> list[str]:
    parts = series.split(";") if ";" in series else series.split(",")
    items = [re.sub(r"^\s*(?:and|or)\s+", "", p.strip(), flags=re.I).strip(" .") for p in parts]
    if any(not i or len(i.split()) > MAX_ITEM_WORDS or not i[:1].isupper() for i in items):
        return []
    return items


def _count(text: str, stem: str) -> int | None:
    m = re.search(rf"\b({'|'.join(_COUNTS)}|\d{{1,2}})\s+(?:[\w-]+\s+){{0,3}}?{re.escape(stem)}", text, re.I)
    if not m:
        return None
    word = m.group(1).lower()
    return int(word) if word.isdigit() else _COUNTS[word]
