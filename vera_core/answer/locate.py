"""Where a quote is printed: the page and line rects of a cited passage inside its chunk, found
with PyMuPDF's text search on the stored original, limited to the chunk's own region."""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path

import pymupdf

from vera_core.records import ChunkRecord, Rect

HEAD_WORDS = 7
TAIL_WORDS = 5
HEAD_SKIPS = 2
"""Words of a quote's head that may be skipped to place it."""


class QuoteLocator:
    """Finds quotes in stored PDFs; keeps a few documents open (PyMuPDF objects are not thread-safe,
    so every search holds the lock)."""

    def __init__(self, path_of: callable, keep_open: int = 8) -> None:
        self._path_of = path_of
        self._open: OrderedDict[str, pymupdf.Document] = OrderedDict()
        self._keep = keep_open
        self._lock = threading.Lock()

    def _document(self, doc_id: str) -> pymupdf.Document | None:
        if doc_id in self._open:
            self._open.move_to_end(doc_id)
            return self._open[doc_id]
        path: Path | None = self._path_of(doc_id)
        if path is None or not path.exists() or path.suffix.lower() != ".pdf":
            return None
        doc = pymupdf.open(path)
        self._open[doc_id] = doc
        if len(self._open) > self._keep:
            self._open.popitem(last=False)[1].close()
        return doc

    def locate(self, chunk: ChunkRecord, quote: str) -> tuple[int, tuple[Rect, ...]] | None:
        """(page, line rects) of `quote` within `chunk`, or None when it cannot be placed
        (Markdown, tables: callers then cite the whole chunk)."""
        if chunk.kind != "text" or not chunk.page_start:
            return None
        words = [w for w in quote.replace("•", " ").split() if w]
        if len(words) < 3:
            return None
        tail = " ".join(words[-TAIL_WORDS:])
        with self._lock:
            doc = self._document(chunk.doc_id)
            if doc is None:
                return None
            # NOTE: a chunk's text may join what the page spaces ("Headcount– Headcount" printed "Headcount –
            # Headcount"): the head is looked for a word or two later too
            start = next((found for skip in range(min(HEAD_SKIPS, len(words) - 3) + 1)
                          if (found := self._find(doc, chunk, " ".join(words[skip:skip + HEAD_WORDS]), first=True))),
                         None)
            if start is None:
                return None
            end = self._find(doc, chunk, tail, first=False, after=start) or start
        return start.page, _lines_between(chunk, start, end)

    @staticmethod
    def _find(doc, chunk: ChunkRecord, text: str, *, first: bool, after: Rect | None = None) -> Rect | None:
        for page in chunk.pages:
            if after is not None and page < after.page:
                continue
            regions = [r for r in chunk.polygons if r.page == page]
            if not regions:
                continue
            clip = regions[0]
            for r in regions[1:]:
                clip = clip.union(r)
            hits = doc[page - 1].search_for(text, clip=pymupdf.Rect(clip.x0 - 1, clip.y0 - 1, clip.x1 + 1, clip.y1 + 1))
            hits = [Rect(page, h.x0, h.y0, h.x1, h.y1) for h in hits
                    if after is None or page > after.page or h.y0 >= after.y0 - 1]
            if hits:
                return hits[0] if first else hits[-1] if after is None else hits[0]
        return None


def _lines_between(chunk: ChunkRecord, start: Rect, end: Rect) -> tuple[Rect, ...]:
    """The chunk's line rects from the line holding `start` to the line holding `end`."""
    def key(r: Rect) -> tuple[int, float]:
        return (r.page, (r.y0 + r.y1) / 2)
    lo, hi = (start.page, (start.y0 + start.y1) / 2 - 2), (end.page, (end.y0 + end.y1) / 2 + 2)
    lines = tuple(r for r in chunk.polygons if lo <= key(r) <= hi)
    return lines or (start,)
