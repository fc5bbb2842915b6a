"""BM25 keyword search (rank-bm25) over the chunks of one document, cached per document.

rank-bm25 loops in Python over every chunk for each query term (~17 ms per term per 40k chunks),
so indexes are scoped to one document and a page filter scores only the chunks on those pages.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from rank_bm25 import BM25Okapi

from vera_core.store.catalog import KeywordRow

_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
STOPWORDS = frozenset(
    "a an and are as at be by for from has have in is it its of on or that the this to was were will with "
    "what which who whom how does did do in into than then there these those their our we you your".split())


def tokenize(text: str) -> list[str]:
    """Lowercase word and number tokens; thousands separators dropped so 1,577 == 1577."""
    out = []
    for token in _TOKEN.findall(text.lower()):
        if token[0].isdigit():
            token = token.replace(",", "")
        if token not in STOPWORDS:
            out.append(token)
    return out


@dataclass(frozen=True)
class KeywordHit:
    chunk_id: str
    score: float
    """BM25 score (unbounded, > 0 when any query term matches)."""


class BM25Index:
    """BM25 over a fixed list of chunks (one document)."""

    def __init__(self, chunks: Sequence[KeywordRow]) -> None:
        self.rows = list(chunks)
        self.chunk_ids = [c.chunk_id for c in chunks]
        self.pages = [(c.page_start, c.page_end) for c in chunks]
        corpus = [tokenize(f"{c.caption}\n{c.heading_path.rsplit('/', 1)[-1]}\n{c.text}") for c in chunks]
        self._bm25 = BM25Okapi([doc or ["_"] for doc in corpus]) if corpus else None

    def search(self, query: str, top_k: int, pages: Sequence[int] | None = None,
               only: Sequence[int] | None = None) -> list[KeywordHit]:
        """Best chunks for `query`, considering only chunks on `pages` (1-based) when given, or
        only the chunks at positions `only`."""
        if self._bm25 is None:
            return []
        terms = tokenize(query)
        if not terms:
            return []
        if pages or only is not None:
            wanted = set(pages or ())
            subset = list(only) if only is not None else [
                i for i, (a, b) in enumerate(self.pages) if any(a <= p <= b for p in wanted)]
            scores = self._bm25.get_batch_scores(terms, subset) if subset else []
            scored = list(zip(subset, scores))
        else:
            scored = list(enumerate(self._bm25.get_scores(terms)))
        scored = [(i, s) for i, s in scored if s > 0]
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return [KeywordHit(self.chunk_ids[i], float(s)) for i, s in scored[:top_k]]


class BM25Cache:
    """Per-document BM25 indexes built on first use and dropped when a document changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._indexes: dict[str, BM25Index] = {}

    def get(self, doc_id: str, load: callable) -> BM25Index:
        """The index of `doc_id`, built from `load()` (its chunks) the first time."""
        with self._lock:
            index = self._indexes.get(doc_id)
        if index is None:
            index = BM25Index(load())
            with self._lock:
                self._indexes[doc_id] = index
        return index

    def invalidate(self, doc_id: str) -> None:
        with self._lock:
            self._indexes.pop(doc_id, None)
