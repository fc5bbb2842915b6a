"""A word of a question misspelt by one letter ("ebay product developmnet expense"): read as the one word the documents
in scope print that is a letter away, and said so with the answer.

Only a word of seven letters or more, in lower case, that no document in scope prints; only when exactly one printed
word is one edit away (a letter added, dropped, changed, or two neighbours swapped); never an inflection of it ("revenues"
for "revenue": one is the other with an ending), which the readers match by their stems."""

from __future__ import annotations

import re
import string

__all__ = ["MIN_LETTERS", "misspelt", "respelled"]

MIN_LETTERS = 7
"""Shorter words are too often a letter from another word ("margin", "martin")."""
_WORD = re.compile(r"(?<![\w'-])[a-z]{%d,}(?![\w'-])" % MIN_LETTERS)


def _edits(word: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    letters = string.ascii_lowercase
    return ({a + b[1:] for a, b in splits if b}
            | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
            | {a + c + b[1:] for a, b in splits if b for c in letters}
            | {a + c + b for a, b in splits for c in letters})


def misspelt(question: str, printed: frozenset[str]) -> dict[str, str]:
    """{word as asked: the printed word it is a letter from} for each word of `question` no document prints."""
    out: dict[str, str] = {}
    for word in dict.fromkeys(_WORD.findall(question)):
        if word in printed:
            continue
        near = {w for w in _edits(word) & printed if not (w.startswith(word) or word.startswith(w)) and w[0] == word[0]}
        if len(near) == 1:
            out[word] = near.pop()
    return out


def respelled(question: str, fixes: dict[str, str]) -> str:
    """The question with each misspelt word replaced."""
    for wrong, right in fixes.items():
        question = re.sub(rf"(?<![\w'-]){re.escape(wrong)}(?![\w'-])", right, question)
    return question
