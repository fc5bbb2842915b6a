"""A word of a question typed with two letters swapped ("ebay product developmnet expense"): read as the one word the
documents in scope print that way, and said so with the answer.

Only a word of six letters or more ("chnage"; capitalised at most in its first letter, "Salesfroce"), that no document in
scope prints; only two neighbouring letters swapped, not two vowels, never the first letter. A consonant added or any letter changed is never read as a
typing slip: "divided" is a letter from "dividend", and a filing that prints only the one turned a definition ("net income
divided by revenue") into another question. A vowel dropped between two consonants is ("intel notbook revenue",
"dilutd EPS"), when the word is no form of a word printed ("drives" of "drive" is no slip for "derives"): a vowel beside
another ("rising", "raising"; "action", "auction") is never read as dropped. A vowel typed between two consonants
is a slip on the same terms ("product developement expense"), as is a double letter typed once ("TWLO Comunications
revenue", "intel notebok revenue"). A word of the calendar ("quarter", "fiscal") with any one
letter dropped is read as that word ("the third quater")."""

from __future__ import annotations

import re

__all__ = ["MIN_LETTERS", "misspelt", "respelled"]

MIN_LETTERS = 6
"""Shorter words are too often two swapped letters from another word ("form", "from"; "trial", "trail")."""
_VOWELS = frozenset("aeiou")
_WORD = re.compile(r"(?<![\w'-])[A-Za-z][a-z]{%d,}(?![\w'-])" % (MIN_LETTERS - 1))
"""A word in lower case, or capitalised ("Salesfroce" at the head of a note: read against the printed "salesforce")."""


def _swaps(word: str, vowels_too: bool = True) -> set[str]:
    """The word with two neighbouring letters swapped, each way it can be; not two vowels unless `vowels_too`
    ("compliant" and "complaint" are two words, each spelt right)."""
    return {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1) if word[i] != word[i + 1]
            and (vowels_too or not (word[i] in _VOWELS and word[i + 1] in _VOWELS))}


def _without_vowel(word: str) -> set[str]:
    """The word without a vowel typed between two consonants, each way it can be ("developement": "development")."""
    return {word[:i] + word[i + 1:] for i in range(1, len(word) - 1)
            if word[i] in _VOWELS and word[i - 1] not in _VOWELS and word[i + 1] not in _VOWELS}


LONG_WORD = 9
"""A word this long may have dropped a vowel beside another ("monetizaton"): no two words this long are one vowel apart
as "rising" and "raising" are."""


def _with_vowel(word: str) -> set[str]:
    """The word with a vowel put back between two consonants, each way it can be ("notbook": "notebook", "notbaook" ...);
    in a word of LONG_WORD letters or more, beside a vowel too ("monetizaton": "monetization")."""
    return {word[:i] + v + word[i:] for i in range(1, len(word) + 1) for v in _VOWELS
            if len(word) >= LONG_WORD or word[i - 1] not in _VOWELS and (i == len(word) or word[i] not in _VOWELS)}


def _doubled(word: str) -> set[str]:
    """The word with one of its letters typed twice, each way it can be ("comunications": "communications", "notebok":
    "notebook"): a double letter typed once is a slip."""
    return {word[:i] + word[i] + word[i:] for i in range(1, len(word))}


_SUFFIXES = ("s", "es", "ed", "d", "ing", "ly")


def _a_form_of(word: str, printed: frozenset[str]) -> bool:
    """Whether the word is a plural, tense or adverb of a word printed ("drives": "drive")."""
    return any(word.endswith(s) and word[:-len(s)] in printed for s in _SUFFIXES)


def misspelt(question: str, printed: frozenset[str]) -> dict[str, str]:
    """{word as asked: the printed word it is a letter from} for each word of `question` no document prints."""
    out: dict[str, str] = {}
    for asked in dict.fromkeys(_WORD.findall(question)):
        word = asked.lower()
        if word in printed:
            continue
        near = {w for w in _swaps(word, vowels_too=False) & printed if w[0] == word[0]}
        if not near and not _a_form_of(word, printed):
            near = _with_vowel(word) & printed or _without_vowel(word) & printed or _doubled(word) & printed
        if not near:  # NOTE: "the third quater", "2nd qustion": a word of the calendar or of a call with a letter dropped
            near = {w for w in _CALENDAR_WORDS if w in printed and word in _dropped_letter(w)}
        if len(near) == 1:
            right = near.pop()
            out[asked] = right[:1].upper() + right[1:] if asked[:1].isupper() else right
    return out


_CALENDAR_WORDS = frozenset({"quarter", "quarters", "quarterly", "fiscal", "months", "weeks", "question", "questions"})
"""Words that name a period, or the question asked on a call ("2nd qustion came from morgan stanley"): a question asks
its period or its place in them, and no other word is one letter short of one."""


def _dropped_letter(word: str) -> set[str]:
    """The word with any one letter dropped ("quater" of "quarter")."""
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def respelled(question: str, fixes: dict[str, str]) -> str:
    """The question with each misspelt word replaced."""
    for wrong, right in fixes.items():
        question = re.sub(rf"(?<![\w'-]){re.escape(wrong)}(?![\w'-])", right, question)
    return question
