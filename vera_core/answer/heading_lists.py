"""A list whose items are headings: a section that introduces its items and gives each its own heading
("## Access Control Principles" over "### Role-based access", "### Least privilege", ...), as handbooks
and standards often print them. Asked for that list ("access control principles we have to show before
go-live - what are they?", "What patient rights are listed ...?"), the answer is the child headings, each
cited to its own section.

The section is the one the best evidence opens (its title or introduction names what is asked), or the
parent of the section a hit lies in; never when the question names one of the children more closely
than the parent (that question asks about that item, not for the list), and never the document's own
title (its children are the document's sections, not a list).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from vera_core.answer.compose import Piece
from vera_core.answer.list_shape import HITS_READ, MIN_ITEMS, OWN_SHARE, ListAnswer, asks_one_fact, list_object
from vera_core.records import ChunkRecord
from vera_core.text import terms

__all__ = ["child_headings", "heading_list"]

MAX_ITEMS = 30
"""More child headings than this are a document's outline, not a list."""
_WHERE = re.compile(r"\bwhich\s+(?:section|part|clause|chapter|heading|policy|document)s?\b|\bwhere\b", re.I)
"""A question asking where something is wants the section, not its items."""


def heading_list(question: str, query: str, hits: Sequence[ChunkRecord], doc_chunks) -> ListAnswer | None:
    """The child headings of the section the best hits open, when it names what is asked; else None.
    `hits`: the retrieved chunks, best first; `doc_chunks(doc_id)`: a document's chunks in order."""
    if asks_one_fact(question) or _WHERE.search(question):
        return None
    wanted = terms(query)
    if not wanted:
        return None
    asked = terms(list_object(question)) - {"they", "them", "these", "those"}
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for chunk in hits[:HITS_READ]:
        if chunk.kind != "text":
            continue
        chunks = doc_chunks(chunk.doc_id)
        for path in (tuple(chunk.heading_titles), tuple(chunk.heading_titles[:-1])):
            if len(path) < 2 or (chunk.doc_id, path) in seen:
                continue
            seen.add((chunk.doc_id, path))
            kids = child_headings(chunks, path)
            if not MIN_ITEMS <= len(kids) <= MAX_ITEMS:
                continue
            intro = " ".join(c.text for c in chunks if tuple(c.heading_titles) == path)
            said = terms(f"{path[-1]} {intro}")
            # NOTE: the section names what is asked in words of its own, not the document's title words
            # ("Incident Response Phases" in the incident response plan does not name its roles)
            own = (said & wanted) - terms(path[0])
            closest_child = max(len(terms(title) & wanted) for title, _ in kids)
            named_child = any(terms(title) and terms(title) <= wanted for title, _ in kids)
            # NOTE: the words naming the document ("the Business Continuity Plan") are not the topic's share either
            if len(own) < max(1, OWN_SHARE * len(wanted - terms(path[0]))) or closest_child > len(terms(path[-1]) & wanted) \
                    or named_child or (asked and not asked & said):
                continue  # NOTE: a question naming one item ("what does least privilege require?") asks about it
            return ListAnswer(path[-1], tuple(_piece(title, first) for title, first in kids), "/".join(path))
    return None


def child_headings(chunks: Sequence[ChunkRecord], path: tuple[str, ...]) -> list[tuple[str, ChunkRecord]]:
    """The headings one level under `path`, in document order, each with its first chunk."""
    kids: dict[str, ChunkRecord] = {}
    depth = len(path)
    for c in chunks:
        titles = tuple(c.heading_titles)
        if len(titles) > depth and titles[:depth] == path and titles[depth].strip():
            kids.setdefault(titles[depth], c)
    return list(kids.items())


def _piece(title: str, chunk: ChunkRecord) -> Piece:
    """The heading as the item, cited to its section's first chunk (the heading line is printed there,
    so the citation highlights it). The text under it stays in the citation: written into the item, it
    would run the item together with its neighbours' words."""
    return Piece(title, chunk, title)
