"""Words a PDF prints in two pieces ("Busines s", "Intangible Asset s", "RESULTS OF OPERATI ONS") are
joined again before they become a heading path, a list item or keyword text.

PDF writers place glyph runs, not words; some filings break a word where a run ends, and the text
layer reads a space there. Whether "X y" is one word is decided from the document's own vocabulary,
never a dictionary: the joined word must occur at least twice elsewhere in the document, the second
piece must not be a word of its own (function words such as "a", "in", "off", "low" are kept), and
the first piece must either never stand alone in the document or be followed by a bare "s" (a
plural: "Comment s"). "as set" (asset), "cash out" and "SCHEDULE D" stay as printed."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from vera_core.text import SHORT_WORDS

__all__ = ["repair_split_words", "split_heads", "vocabulary"]

MAX_TAIL = 4
"""The second piece of a split word has at most this many letters."""
_PAIR = re.compile(rf"\b([A-Za-z]{{2,}}) ([A-Za-z]{{1,{MAX_TAIL}}})\b")
_WORD = re.compile(r"[A-Za-z]+")


def vocabulary(texts: Sequence[str]) -> Counter[str]:
    """Lowercase word counts of a document's text."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(w.lower() for w in _WORD.findall(text))
    return counts


def repair_split_words(text: str, words: Counter[str], splits: Counter[str]) -> str:
    """`text` with each split word joined (see the module docstring). `words` is the document's
    vocabulary, `splits` how often each first piece is followed by a tail (`split_heads`)."""
    def join(m: re.Match[str]) -> str:
        head, tail = m.group(1), m.group(2)
        if tail.lower() in SHORT_WORDS or not (tail.islower() or (tail.isupper() and head.isupper())):
            return m.group(0)
        if words[(head + tail).lower()] < 2:
            return m.group(0)
        alone = words[head.lower()] - splits[head.lower()]
        if alone > 0 and tail.lower() != "s":
            return m.group(0)
        return head + tail
    return _PAIR.sub(join, text)


def split_heads(texts: Sequence[str]) -> Counter[str]:
    """How often each word is followed by a short lowercase piece, per lowercase first piece."""
    heads: Counter[str] = Counter()
    for text in texts:
        heads.update(m.group(1).lower() for m in _PAIR.finditer(text))
    return heads
