"""Topic synonyms read from `vera_core/data/synonyms.md` (the one source the code and the documentation
share), and a question's topic as concepts: each a set of phrases any of which a passage may use.

"Which policies address encryption of data at rest?" has two concepts: {encryption, encrypt,
BitLocker, ...} and {data at rest, persistent data, full disk, ...}; a passage that holds a phrase of
each addresses the whole topic. Words of the topic that no group lists are concepts of their own."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from vera_core.data import DATA_DIR
from vera_core.text import TOPIC_STOPWORDS, phrase_tokens

__all__ = ["Concept", "SYNONYMS_FILE", "SynonymGroup", "groups", "read_concepts", "holds"]

SYNONYMS_FILE = DATA_DIR / "synonyms.md"

Phrase = tuple[str, ...]
"""A phrase as `phrase` tokens."""


@dataclass(frozen=True)
class SynonymGroup:
    """One `### key` section of the synonyms file."""

    key: str
    phrases: tuple[str, ...]
    """As written in the file."""
    tokens: tuple[Phrase, ...]
    """The same phrases as `phrase` tokens."""


@dataclass(frozen=True)
class Concept:
    """One part of a topic: the words the question used and every phrase that says the same."""

    name: str
    """The question's own words for it ('data at rest')."""
    phrases: tuple[Phrase, ...]
    group: str = ""
    """The synonym group it came from; '' for a word no group lists."""


@lru_cache(maxsize=1)
def groups(path: Path = SYNONYMS_FILE) -> tuple[SynonymGroup, ...]:
    """Every group of the synonyms file, in file order."""
    out = []
    for block in re.split(r"^### ", path.read_text(encoding="utf-8"), flags=re.M)[1:]:
        key, _, body = block.partition("\n")
        found = re.search(r"^- phrases:\s*(.+?)\s*$", body, flags=re.M)
        if not found:
            raise ValueError(f"{path}: synonym group {key.strip()!r} has no '- phrases:' line")
        phrases = tuple(p.strip() for p in found.group(1).split(",") if p.strip())
        out.append(SynonymGroup(key.strip(), phrases, tuple(tuple(phrase_tokens(p)) for p in phrases)))
    return tuple(out)


def _index() -> dict[Phrase, SynonymGroup]:
    table: dict[Phrase, SynonymGroup] = {}
    for group in groups():
        for tokens in group.tokens:
            table.setdefault(tokens, group)
    return table


def read_concepts(topic: str) -> tuple[Concept, ...]:
    """The concepts of a topic, in the order the topic names them: the longest synonym phrase at each
    word first; other words (not stopwords, not generic question words) each a concept of its own."""
    words = phrase_tokens(topic)
    raw = re.findall(r"[a-z0-9]+", topic.lower())
    table = _index()
    longest = max((len(p) for p in table), default=1)
    spans: list[tuple[int, int, Concept]] = []
    seen: set[str] = set()
    i = 0
    while i < len(words):
        for size in range(min(longest, len(words) - i), 0, -1):
            group = table.get(tuple(words[i:i + size]))
            if group is not None and not (size == 1 and words[i] in TOPIC_STOPWORDS):
                if group.key not in seen:
                    seen.add(group.key)
                    spans.append((i, i + size, Concept(" ".join(raw[i:i + size]), group.tokens, group.key)))
                i += size
                break
        else:
            gapped = _gapped(words, i, table, longest)
            if gapped is not None:  # "two-step login verification": "two-step verification" with a word between
                size, group = gapped
                if group.key not in seen:
                    seen.add(group.key)
                    spans.append((i, i + size, Concept(" ".join(raw[i:i + size]), group.tokens, group.key)))
                i += size
                continue
            word, shown = words[i], raw[i] if i < len(raw) else words[i]
            if shown not in TOPIC_STOPWORDS and word not in TOPIC_STOPWORDS and len(word) > 1 and not word.isdigit() and word not in seen:
                seen.add(word)
                spans.append((i, i + 1, Concept(shown, ((word,),))))
            i += 1
    return tuple(concept for _, _, concept in _absorb_modifiers(spans))


def _absorb_modifiers(spans: list[tuple[int, int, Concept]]) -> list[tuple[int, int, Concept]]:
    """Words right beside a group's concept that the group's own phrases use with it are part of that
    concept, not concepts of their own: in "software security fixes" the group that lists "security
    patches" and "software patches" already says what "software" and "security" add, so a passage on
    "patches and updates" addresses the topic; likewise "antivirus software" ("malicious software")."""
    out = list(spans)
    changed = True
    while changed:
        changed = False
        for k, (start, end, concept) in enumerate(out):
            if not concept.group:
                continue
            inside = {token for phrase in concept.phrases if len(phrase) > 1 for token in phrase}
            for j in (k - 1, k + 1):
                if 0 <= j < len(out):
                    s, e, word = out[j]
                    if not word.group and (e == start or s == end) and word.phrases[0][0] in inside:
                        out[k] = (min(start, s), max(end, e), concept)
                        del out[j]
                        changed = True
                        break
            if changed:
                break
    return out


def _gapped(words: list[str], i: int, table: dict[Phrase, SynonymGroup], longest: int
            ) -> tuple[int, SynonymGroup] | None:
    """A synonym phrase of two or more words that the topic says from word `i` with one word of its own
    between two of the phrase's ("two-step login verification" for "two-step verification"): the
    words it spans and its group; None when there is none."""
    for size in range(min(longest + 1, len(words) - i), 2, -1):
        span = words[i:i + size]
        for gap in range(1, size - 1):
            group = table.get(tuple(span[:gap] + span[gap + 1:]))
            if group is not None:
                return size, group
    return None


def holds(words: list[str], concept: Concept) -> bool:
    """Whether `phrase` tokens hold one of the concept's phrases, as whole words in order."""
    present = set(words)
    for phrase in concept.phrases:
        if len(phrase) == 1:
            if phrase[0] in present:
                return True
        elif phrase[0] in present and any(tuple(words[i:i + len(phrase)]) == phrase
                                          for i in range(len(words) - len(phrase) + 1)):
            return True
    return False
