"""Hybrid retrieval: BM25 (rank-bm25, per document) and dense (Chroma) fused with reciprocal rank
fusion, as a llama-index BaseRetriever. Document and page filters apply BEFORE scoring."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from vera_core.index.bm25 import BM25Index
from vera_core.ingest.pdf_tables import markdown_rows, table_cells
from vera_core.records import ChunkRecord
from vera_core.text import terms
from vera_core.workspace import Workspace

RRF_K = 60
TABLE_BOOST = 1.25
"""Fused-score multiplier for table chunks when the question asks for figures."""
ROW_LABEL_MIN_TERMS = 2
"""A row label must have at least this many content terms to count as named by the question."""
STATEMENT_BOOST = 1.6
"""Multiplier for a table whose caption names the financial statement the question names."""


@dataclass(frozen=True)
class Hit:
    """A retrieved chunk with its fused score and the ranks that produced it."""

    chunk: ChunkRecord
    score: float
    """Reciprocal-rank-fusion score (sum of 1/(60 + rank)), boosted for tables on numeric questions."""
    bm25_rank: int | None
    dense_rank: int | None


def rrf(rankings: Iterable[Sequence[str]], k: int = RRF_K) -> dict[str, float]:
    """Reciprocal rank fusion: each list contributes 1/(k + rank) (rank from 1) per id."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return fused


class HybridRetriever(BaseRetriever):
    """Search chunks of ready documents, optionally limited to documents and 1-based pages."""

    def __init__(self, ws: Workspace, *, doc_ids: Sequence[str] = (), pages: Sequence[int] = (),
                 top_k: int = 8, hybrid: bool = True, numeric: bool = False,
                 exclude: Iterable[str] = (), prefer_captions: Sequence[str] = (),
                 keyword_extra: str = "", dense: bool = True) -> None:
        super().__init__()
        self.ws = ws
        self.doc_ids = list(doc_ids) or [d.doc_id for d in ws.catalog.documents()]
        self.pages = list(pages)
        self.top_k = top_k
        self.hybrid = hybrid
        self.numeric = numeric
        self.exclude = set(exclude)
        self.prefer = ["".join(p.lower().split()) for p in prefer_captions]
        self.keyword_extra = keyword_extra
        self.dense = dense or not hybrid

    def search(self, query: str) -> list[Hit]:
        """Best chunks for `query`, fused and ordered, at most `top_k`."""
        if not self.doc_ids or not query.strip():
            return []
        depth = max(self.top_k * 4, 20) + len(self.exclude)
        if self.prefer:
            depth *= 2
        dense: list[str] = []
        # NOTE: a searchable document's vectors are still being written: dense search reads complete ones
        pending = self.ws.no_vectors(self.doc_ids)
        with_vectors = [d for d in self.doc_ids if d not in pending] if self.dense else []
        if with_vectors:
            dense = [h.chunk_id for h in self.ws.vectors.query(
                self.ws.embedder.get_query_embedding(query), depth, doc_ids=with_vectors,
                pages=self.pages or None)]
            dense = [c for c in dense if c not in self.exclude]
        lists = [dense]
        keyword: list[str] = []
        keyword_docs = self.doc_ids if self.hybrid else [d for d in self.doc_ids if d in pending]
        if keyword_docs:
            scored, statements, labelled = [], [], []
            for doc_id in keyword_docs:
                index = self.ws.keyword_index(doc_id)
                for hit in index.search(query, depth, pages=self.pages or None, extra=self.keyword_extra):
                    scored.append((hit.score, hit.chunk_id))
                if self.prefer:  # the statements the question names are candidates in their own right
                    named = [i for i, row in enumerate(index.rows) if row.kind == "table" and self._names_statement(row)]
                    scores = {h.chunk_id: h.score for h in index.search(query, len(named), only=named,
                                                                        extra=self.keyword_extra)}
                    # NOTE: a statement the question names is a candidate even when it shares no word
                    # with the question ("gross margin" and a bank's income statement); primary first
                    ranked = sorted(named, key=lambda i: (not _is_primary_statement(index.rows[i]),
                                                          -scores.get(index.rows[i].chunk_id, 0.0), i))
                    statements += [(float(-rank), index.rows[i].chunk_id) for rank, i in enumerate(ranked[:5])]
                labelled += table_rows_named(index, query, self.pages)
            scored.sort(key=lambda pair: (-pair[0], pair[1]))
            keyword = [c for _, c in scored if c not in self.exclude]
            lists.append(keyword)
            for extra_list in (statements, labelled):  # each a ranked list of its own in the fusion
                if extra_list:
                    extra_list.sort(key=lambda pair: (-pair[0], pair[1]))
                    lists.append([c for _, c in extra_list if c not in self.exclude])
        fused = rrf(lists)
        chunks = self.ws.catalog.chunks_by_id(list(fused))
        if self.pages:  # NOTE: the dense filter is by page range; keep only chunks touching the pages
            wanted = set(self.pages)
            chunks = {cid: c for cid, c in chunks.items() if wanted & set(c.pages)}
        hits = []
        for chunk_id, score in fused.items():
            chunk = chunks.get(chunk_id)
            if chunk is None:
                continue
            if self.numeric and chunk.kind == "table":
                score *= TABLE_BOOST
            if self.prefer and chunk.kind == "table" and self._names_statement(chunk):
                score *= STATEMENT_BOOST
            hits.append(Hit(chunk, score, _rank(keyword, chunk_id), _rank(dense, chunk_id)))
        hits.sort(key=lambda h: (-h.score, h.chunk.doc_id, h.chunk.position))
        return hits[:self.top_k]

    def _names_statement(self, chunk) -> bool:
        # NOTE: compared without spaces: filings' PDFs split words ("Balance Shee t", "Cash Flow s")
        caption = "".join(f"{chunk.caption} {chunk.heading_path}".lower().split())
        return any(p in caption for p in self.prefer)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [NodeWithScore(node=TextNode(id_=h.chunk.chunk_id, text=h.chunk.text,
                                            metadata={"doc_id": h.chunk.doc_id, "page_start": h.chunk.page_start,
                                                      "heading_path": h.chunk.heading_path, "kind": h.chunk.kind}),
                              score=h.score)
                for h in self.search(query_bundle.query_str)]


def _is_primary_statement(row) -> bool:
    """A consolidated financial statement itself, not a segment's "selected income statement data"
    or the parent company's condensed statements."""
    caption = " ".join(f"{row.caption} {row.text[:200]}".lower().split())
    return "consolidated" in caption and not any(w in caption for w in ("condensed", "parent company", "selected"))


def table_rows_named(index: BM25Index, question: str, pages: Sequence[int] = ()) -> list[tuple[float, str]]:
    """Tables with a row label that the question states in full ("effective tax rate", "net
    property, plant and equipment"), scored by the length of the longest such label in terms.

    A figure question names its line item; the table that prints that line is evidence even when
    the words around it are few (summary tables lose to prose in BM25 and in dense search)."""
    wanted = terms(question)
    found = []
    for i, labels in _row_labels(index):
        row = index.rows[i]
        if pages and not any(row.page_start <= p <= row.page_end for p in pages):
            continue
        best = max((len(label) for label in labels if label <= wanted), default=0)
        if best:
            found.append((float(best), row.chunk_id))
    return found


_LABELS: WeakKeyDictionary = WeakKeyDictionary()


def _row_labels(index: BM25Index) -> list[tuple[int, list[frozenset[str]]]]:
    """Per table chunk of an index, the term sets of its row labels (computed once per index)."""
    cached = _LABELS.get(index)
    if cached is None:
        cached = []
        for i, row in enumerate(index.rows):
            if row.kind != "table":
                continue
            labels = []
            for line in markdown_rows(row.text):
                cells = table_cells(line)
                label = frozenset(terms(cells[0])) if cells else frozenset()
                if len(label) >= ROW_LABEL_MIN_TERMS:
                    labels.append(label)
            if labels:
                cached.append((i, labels))
        _LABELS[index] = cached
    return cached


def _rank(ranking: list[str], item: str) -> int | None:
    try:
        return ranking.index(item) + 1
    except ValueError:
        return None
