"""A topic said in words that the speakers say as an acronym, or the other way round: "anti-money-laundering" is the
"AML" a CEO speaks of, "net interest income guidance" the "NII" a CFO expects, "the PCL outlook" the "provision for
credit losses" of a risk officer's remarks. Read from the texts themselves: an acronym the texts print (or the topic
does) and a run of the other side's words whose first letters spell it, so no list of acronyms is kept."""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

from vera_core.text import ACRONYM_JOINING

__all__ = ["as_acronyms", "spelt_out"]

_ACRONYM = re.compile(r"(?<![\w&.-])([A-Z]{2,5})s?(?![\w&-])")
"""An acronym as printed ("AML", "NII", "PCLs"): two to five capitals, a plural's "s" allowed."""
_WORD = re.compile(r"[A-Za-z]+")
MIN_LETTERS = 3
"""A word spelt by its first letter has at least this many ("IT" is no "in terms")."""


def _runs(words: list[str], acronym: str) -> Iterable[tuple[int, int]]:
    """(start, end) of each run of `words` whose first letters spell `acronym`, small joining words skipped between."""
    letters = acronym.lower()
    for start, word in enumerate(words):
        if word.lower() in ACRONYM_JOINING or word[0].lower() != letters[0]:
            continue
        at, k, joined = start, 0, False
        while at < len(words) and k < len(letters):
            w = words[at]
            if k and w.lower() in ACRONYM_JOINING and not joined:  # NOTE: one small word at a time ("in the" joins nothing)
                at, joined = at + 1, True
                continue
            joined = False
            if len(w) < MIN_LETTERS or w[0].lower() != letters[k] or w.isupper() and len(w) > 1:
                break
            k, at = k + 1, at + 1
        if k == len(letters) and (len(letters) > 2 or all(len(w) > MIN_LETTERS for w in words[start:at])):
            yield start, at


def spelt_out(topic: str, texts: Iterable[str]) -> dict[str, str]:
    """{acronym: the words it stands for} for each acronym the texts print whose letters a run of the topic's words
    spells ("AML": "anti money laundering"), and each the topic prints that the texts spell out ("NII": "net interest
    income"); empty when there is none."""
    texts = list(texts)
    asked = {m.group(1) for m in _ACRONYM.finditer(topic)}
    printed = {m.group(1) for text in texts for m in _ACRONYM.finditer(text)} - asked
    words = _WORD.findall(topic)
    out = {}
    for acronym in sorted(printed):
        run = next(_runs(words, acronym), None)
        if run:
            out[acronym] = " ".join(words[run[0]:run[1]])
    for acronym in sorted(a for a in asked if len(a) >= MIN_LETTERS):  # NOTE: "US" asked is the country
        spelt = Counter(" ".join(w.lower() for w in said[start:end]) for text in texts
                        for said in [_WORD.findall(text)] for start, end in _runs(said, acronym))
        if spelt:  # NOTE: the words the texts spell it with most often ("provision for credit losses")
            out[acronym] = spelt.most_common(1)[0][0]
    return out


def as_acronyms(text: str, spelt: dict[str, str]) -> str:
    """The text with each run of words `spelt` holds written as its acronym ("lower net interest income from" -> "lower
    NII from"; "anti-money-laundering" -> "AML"), so that the words and the acronym are one word to a reader that
    weighs words, never three."""
    for acronym, words in spelt.items():
        pattern = r"[\s-]+".join(rf"{re.escape(w)}s?" for w in words.split())
        text = re.sub(rf"(?<![\w-]){pattern}(?![\w-])", acronym, text, flags=re.I)
    return text
