"""BM25 keyword search (rank-bm25) over the chunks of one document, cached per document.

rank-bm25 loops in Python over every chunk for each query term (~17 ms per term per 40k chunks),
so indexes are scoped to one document and a page filter scores only the chunks on those pages.
rank-bm25 and scipy are imported where an index is fitted or read (the app's first page needs neither).
"""

from __future__ import annotations

import io
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vera_core.records import KeywordRow
from vera_core.text import keyword_tokens as tokenize  # NOTE: the `keyword` mode; `tokenize` kept for callers

if TYPE_CHECKING:
    from rank_bm25 import BM25Okapi
    from scipy import sparse


EXPANSION_WEIGHT = 0.35
"""Weight of an expansion term relative to a term of the question: synonyms widen the net without
outvoting the words the analyst used ("debt securities registered on an exchange" is about the
cover page, not about borrowings)."""


@dataclass(frozen=True)
class KeywordHit:
    chunk_id: str
    score: float
    """BM25 score (unbounded, > 0 when any query term matches)."""


class BM25Index:
    """BM25 over a fixed list of chunks (one document).

    rank-bm25 fits the model (idf, lengths, k1, b); its per-term weights are then precomputed into a
    sparse chunk x term matrix, so scoring a query is one column slice and sum (~1 ms) instead of
    rank-bm25's Python loop over every chunk per term (~30 ms per expanded query here)."""

    def __init__(self, chunks: Sequence[KeywordRow], *, fitted: tuple[dict[str, int], sparse.csc_matrix] | None = None
                 ) -> None:
        """Fit BM25 over `chunks`, or take the `fitted` vocabulary and weights (`from_bytes`)."""
        self.rows = list(chunks)
        self.chunk_ids = [c.chunk_id for c in chunks]
        self.pages = [(c.page_start, c.page_end) for c in chunks]
        self._vocab: dict[str, int] = {}
        self._weights = None
        if fitted is not None:
            self._vocab, self._weights = fitted
        elif self.rows:
            from rank_bm25 import BM25Okapi
            corpus = [tokenize(f"{c.caption}\n{c.heading_path.rsplit('/', 1)[-1]}\n{c.text}") for c in chunks]
            self._vocab, self._weights = _weight_matrix(BM25Okapi([doc or ["_"] for doc in corpus]))

    def to_bytes(self) -> bytes:
        """The fitted index (chunk ids, vocabulary, weights) as bytes, written when a document
        becomes searchable so that no process fits it again."""
        from scipy import sparse
        buffer = io.BytesIO()
        weights = self._weights if self._weights is not None else sparse.csc_matrix((len(self.chunk_ids), 0))
        np.savez(buffer, chunk_ids=np.array(self.chunk_ids, dtype=str), terms=np.array(list(self._vocab), dtype=str),
                 data=weights.data, indices=weights.indices, indptr=weights.indptr,
                 shape=np.array(weights.shape, dtype=np.int64))
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, rows: Sequence[KeywordRow]) -> BM25Index:
        """An index read back from `to_bytes`, over the same chunks (`rows`, in the same order)."""
        from scipy import sparse
        with np.load(io.BytesIO(data), allow_pickle=False) as saved:
            if [str(c) for c in saved["chunk_ids"]] != [r.chunk_id for r in rows]:
                raise ValueError("the stored keyword index was built over other chunks")
            vocab = {str(t): j for j, t in enumerate(saved["terms"])}
            weights = sparse.csc_matrix((saved["data"], saved["indices"], saved["indptr"]),
                                        shape=tuple(int(x) for x in saved["shape"]))
        return cls(rows, fitted=(vocab, weights))

    def search(self, query: str, top_k: int, pages: Sequence[int] | None = None,
               only: Sequence[int] | None = None, extra: str = "",
               extra_weight: float = EXPANSION_WEIGHT) -> list[KeywordHit]:
        """Best chunks for `query`, considering only chunks on `pages` (1-based) when given, or
        only the chunks at positions `only`. Terms of `extra` (synonyms, expansions) that the query
        lacks count `extra_weight` times a query term."""
        if self._weights is None:
            return []
        terms = tokenize(query)
        if not terms:
            return []
        all_scores = self._scores(terms)
        added = [t for t in tokenize(extra) if t not in set(terms)]
        if added:
            all_scores = all_scores + extra_weight * self._scores(added)
        if pages or only is not None:
            wanted = set(pages or ())
            subset = list(only) if only is not None else [
                i for i, (a, b) in enumerate(self.pages) if any(a <= p <= b for p in wanted)]
            scored = [(i, float(all_scores[i])) for i in subset]
        else:
            scored = list(enumerate(all_scores.tolist()))
        scored = [(i, s) for i, s in scored if s > 0]
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return [KeywordHit(self.chunk_ids[i], float(s)) for i, s in scored[:top_k]]


    def _scores(self, terms: list[str]) -> np.ndarray:
        """BM25 score of every chunk; equal to rank-bm25's `get_scores(terms)`."""
        counts = Counter(t for t in terms if t in self._vocab)
        if not counts:
            return np.zeros(len(self.chunk_ids))
        columns = [self._vocab[t] for t in counts]
        multiplicity = np.array([counts[t] for t in counts], dtype=np.float64)
        return np.asarray(self._weights[:, columns] @ multiplicity).ravel()


IDF_FLOOR = 0.05
"""The least weight a term of the document has. rank-bm25 gives a term in half of the chunks or more
an idf of zero or below (its floor is a share of the average idf, itself zero or below when the
document has two or three chunks): in a short policy every word would then score nothing, and a
keyword search find nothing."""


def _weight_matrix(bm25: BM25Okapi) -> tuple[dict[str, int], sparse.csc_matrix]:
    from scipy import sparse
    for term, idf in bm25.idf.items():
        if idf < IDF_FLOOR:
            bm25.idf[term] = IDF_FLOOR
    vocab = {term: j for j, term in enumerate(bm25.idf)}
    rows, cols, values = [], [], []
    for i, freqs in enumerate(bm25.doc_freqs):
        norm = bm25.k1 * (1 - bm25.b + bm25.b * bm25.doc_len[i] / bm25.avgdl)
        for term, f in freqs.items():
            rows.append(i)
            cols.append(vocab[term])
            values.append(bm25.idf[term] * f * (bm25.k1 + 1) / (f + norm))
    matrix = sparse.csc_matrix((values, (rows, cols)), shape=(len(bm25.doc_freqs), len(vocab)))
    return vocab, matrix


class BM25Cache:
    """Per-document BM25 indexes built on first use and dropped when a document changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._indexes: dict[str, BM25Index] = {}

    def get(self, doc_id: str, load: callable, stored: callable = lambda: None) -> BM25Index:
        """The index of `doc_id`: read from `stored()` (the bytes written at ingestion) the first time,
        else fitted over `load()` (its chunks: stores written before keyword indexes were kept)."""
        with self._lock:
            index = self._indexes.get(doc_id)
        if index is None:
            rows, data = load(), stored()
            try:
                index = BM25Index.from_bytes(data, rows) if data else BM25Index(rows)
            except (ValueError, KeyError, OSError):  # NOTE: a stale or unreadable index is fitted again
                index = BM25Index(rows)
            with self._lock:
                self._indexes[doc_id] = index
        return index

    def invalidate(self, doc_id: str) -> None:
        with self._lock:
            self._indexes.pop(doc_id, None)
