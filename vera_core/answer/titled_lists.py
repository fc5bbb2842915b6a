"""The list that is a section's whole body, among the best hits, when the section's title carries the
question's words beyond the others': "What has to be done before their first day?" over a section
"Before day one" whose body is a checklist; "what's the leaver checklist?" over "Planned leavers". A
question asking for several things whose evidence is such a section is answered with its items, not
with the prose sentences that happen to share more of its words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from vera_core.answer.compose import Piece
from vera_core.answer.list_shape import HITS_READ, LISTY, MIN_ITEMS, ListAnswer, _piece, asks_one_fact
from vera_core.answer.outlines import read_outline
from vera_core.answer.units import split_units
from vera_core.records import ChunkRecord
from vera_core.retrieve.coverage import heading_scored
from vera_core.text import terms

__all__ = ["titled_section_list", "titled_section_sentences"]

SECTIONS_READ = HITS_READ + 2
"""The sections of this many best hits are candidates (a list's section often ranks just below prose)."""
PROSE_LINES = 1
"""A section whose body is a list holds at most this many lines of prose beside it (a lead-in)."""
_LIST_LINE = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)]|[a-z][.)]|\([a-z0-9]{1,4}\))\s")
_ASKS_WHAT_TO_DO = re.compile(r"\bwhat\s+(?:has|have|needs?|is\s+needed)\s+to\s+(?:be\s+done|happen)\b", re.I)
"""'What has to be done before ...', 'what needs to happen when ...': several things asked, without 'list'."""


def asks_several(question: str) -> bool:
    return LISTY.search(question) is not None or _ASKS_WHAT_TO_DO.search(question) is not None


def _asked(question: str) -> set[str]:
    """The words of the sentence that asks (a persona's sentence before it sets the scene, and names none
    of the sections: "I've got a new warehouse operative starting at Daventry in two weeks.")."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", question.strip()) if s.strip()]
    asking = [s for s in sentences if s.rstrip().endswith("?")] or sentences
    return terms(" ".join(asking))


def _list_body(scope: Sequence[ChunkRecord], title: str) -> bool:
    """The section's text is its list (and at most a lead-in): no paragraph of prose beside it."""
    prose = 0
    for chunk in scope:
        for line in chunk.text.split("\n"):
            text = line.strip()
            if not text or text == title.strip() or text.startswith("#") or _LIST_LINE.match(line) \
                    or line.startswith(("  ", "\t")):
                continue
            prose += 1
    return prose <= PROSE_LINES


def titled_section_list(question: str, hits: Sequence[ChunkRecord], doc_chunks) -> ListAnswer | None:
    """The top-level items of the best-titled section, among the best hits' own sections, whose body is a
    list; None when no such section's title shares a word of the asking sentence, or two share as many."""
    if asks_one_fact(question) or not asks_several(question):
        return None
    wanted = _asked(question)
    ranked: list[tuple[int, int, ChunkRecord]] = []
    seen: set[str] = set()
    for rank, chunk in enumerate(hits[:SECTIONS_READ]):
        if chunk.kind != "text" or not chunk.heading_titles or chunk.heading_path in seen:
            continue
        seen.add(chunk.heading_path)
        shared = len(terms(chunk.heading_titles[-1]) & wanted)
        if shared:
            ranked.append((shared, rank, chunk))
    ranked.sort(key=lambda x: (-x[0], x[1]))
    for shared, _, chunk in ranked:
        if shared < ranked[0][0]:
            break  # NOTE: a section titled with fewer of the words asked is not what the question names
        own = _own_chunks(chunk, doc_chunks)
        title = chunk.heading_titles[-1]
        if not _list_body(own, title):
            continue
        outline = read_outline(own)
        top = [o for o in outline if o.level == min((x.level for x in outline), default=0)]
        if len(top) >= MIN_ITEMS:
            return ListAnswer(title, tuple(_piece(o) for o in top), chunk.heading_path)
    return None


def _own_chunks(anchor: ChunkRecord, doc_chunks) -> list[ChunkRecord]:
    """The chunks of the anchor's own section, in order (its subsections not included)."""
    return [c for c in doc_chunks(anchor.doc_id) if c.heading_path == anchor.heading_path]


MAX_RULES = 12
"""A section of more sentences than this is prose to quote, not a set of rules to list."""
_TITLE_SHARE = 0.6
"""The section's title must be mostly made of the question's words (`heading_scored`)."""


def titled_section_sentences(question: str, query: str, hits: Sequence[ChunkRecord], doc_chunks) -> ListAnswer | None:
    """The sentences of a section titled as asked, when its body is short paragraphs of one rule each and no
    list: "What are the password strength rules?" over "#### Password strength" and its six one-line
    paragraphs. Each sentence is an item, cited; None when no such section is among the best hits' documents."""
    if asks_one_fact(question) or not asks_several(question):
        return None
    for doc_id in list(dict.fromkeys(c.doc_id for c in hits[:HITS_READ]))[:2]:
        chunks = doc_chunks(doc_id)
        found = heading_scored(query, [c for c in chunks if c.kind == "text" and len(c.heading_titles) > 1])
        if found is None or found[0] < _TITLE_SHARE:
            continue
        anchor = found[1]
        own = [c for c in _own_chunks(anchor, doc_chunks) if c.kind == "text"]
        title = anchor.heading_titles[-1]
        if any(_LIST_LINE.match(line) for c in own for line in c.text.split("\n")) or read_outline(own):
            return None  # NOTE: a section holding a list is answered by the list readers
        pieces = [Piece(u.text, u.chunk, u.text) for c in own for u in split_units(c)]
        if MIN_ITEMS <= len(pieces) <= MAX_RULES:
            return ListAnswer(title, tuple(pieces), anchor.heading_path)
        return None
    return None
