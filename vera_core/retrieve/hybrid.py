"""Hybrid retrieval: BM25 (rank-bm25, per document) and dense (Chroma) fused with reciprocal rank
fusion, as a llama-index BaseRetriever. Document and page filters apply BEFORE scoring."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from vera_core.store.catalog import ChunkRecord
from vera_core.workspace import Workspace

RRF_K = 60
TABLE_BOOST = 1.25
"""Fused-score multiplier for table chunks when the question asks for figures."""
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
        if self.dense:
            dense = [h.chunk_id for h in self.ws.vectors.query(
                self.ws.embedder.get_query_embedding(query), depth, doc_ids=self.doc_ids,
                pages=self.pages or None)]
            dense = [c for c in dense if c not in self.exclude]
        lists = [dense]
        keyword: list[str] = []
        if self.hybrid:
            keyword_query = f"{query} {self.keyword_extra}".strip()
            scored, statements = [], []
            for doc_id in self.doc_ids:
                index = self.ws.keyword_index(doc_id)
                for hit in index.search(keyword_query, depth, pages=self.pages or None):
                    scored.append((hit.score, hit.chunk_id))
                if self.prefer:  # the statements the question names are candidates in their own right
                    named = [i for i, row in enumerate(index.rows) if row.kind == "table" and self._names_statement(row)]
                    statements += [(h.score, h.chunk_id) for h in index.search(keyword_query, 5, only=named)]
            scored.sort(key=lambda pair: (-pair[0], pair[1]))
            keyword = [c for _, c in scored if c not in self.exclude]
            lists.append(keyword)
            if statements:
                statements.sort(key=lambda pair: (-pair[0], pair[1]))
                lists.append([c for _, c in statements if c not in self.exclude])
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


def _rank(ranking: list[str], item: str) -> int | None:
    try:
        return ranking.index(item) + 1
    except ValueError:
        return None
