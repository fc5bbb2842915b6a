"""Ingest files in two atomic stages: validate -> parse -> chunk -> catalog + keyword index ->
visible as `searchable`; then embed -> vectors -> `complete`.

A document is registered as `ingesting` (invisible) first; it becomes visible only when its chunks,
geometry, table grids, facts and keyword index are all written (one flip to `searchable`), so a crash
before that leaves a row the next ingestion removes from every store (`Workspace.repair`). Every
question type works on a searchable document; semantic search reads its vectors once it is
`complete`. Embedding resumes where it stopped: vectors are written by chunk id.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from vera_core import chunk_metadata as M
from vera_core.chunking.node_parser import StructuredDocument, StructureNodeParser, embedding_text
from vera_core.config import VeraSettings
from vera_core.documents.identity import parsed_identity
from vera_core.documents.kinds import KindReading, parsed_kind
from vera_core.transcripts.turns import as_turns
from vera_core.errors import EmbeddingModelError, VeraError
from vera_core.facts.extract import extract_facts, to_record
from vera_core.index.bm25 import BM25Index
from vera_core.index.embedding import text_key
from vera_core.ingest.markdown import PARSER_VERSION as MD_VERSION
from vera_core.ingest.pdf import PARSER_VERSION as PDF_VERSION
from vera_core.ingest.budget import parse_source
from vera_core.ingest.step_budget import StepBudget
from vera_core.ingest.source import SourceFile, load_source
from vera_core.records import ChunkRecord, KeywordRow, ParsedDocument, Rect
from vera_core.tables import document_grids
from vera_core.workspace import Workspace

STAGES = ("parsing", "tables", "indexing", "embedding")
"""Progress stages reported to `on_stage` callbacks, in order."""


@dataclass
class IngestResult:
    """Outcome of ingesting one file."""

    name: str
    status: str
    """`ingested`, `skipped` (same bytes already present) or `failed`."""
    doc_id: str = ""
    pages: int = 0
    chunks: int = 0
    tables: int = 0
    reused: int = 0
    """Chunks whose embedding text was already stored and whose vector was reused, not recomputed."""
    seconds: dict[str, float] = field(default_factory=dict)
    """Wall time per stage: parse, tables, embed, index."""
    error: str = ""
    """The VeraError message when `failed`."""
    error_type: str = ""
    warnings: list[str] = field(default_factory=list)
    """Warnings about the file that did not stop it (a damaged PDF PyMuPDF had to repair)."""


@dataclass(frozen=True)
class EmbedProgress:
    """Where the embedding of one document stands after a call of `Ingestor.complete`."""

    embedded: int
    """Chunks with a vector."""
    total: int
    reused: int = 0
    """Chunks of this call that took a stored vector of the same text instead of being embedded."""

    @property
    def done(self) -> bool:
        return self.embedded >= self.total


def read_and_parse(path: Path | str, settings: VeraSettings, data: bytes | None = None,
                   name: str | None = None) -> tuple[SourceFile, ParsedDocument]:
    """Validate and parse one file (no store access: safe to run in a worker process)."""
    source = load_source(path, max_file_mb=settings.max_file_mb, data=data, name=name)
    return source, parse_source(source)


class Ingestor:
    """Writes parsed documents into a workspace, one at a time (the store's single writer)."""

    def __init__(self, workspace: Workspace) -> None:
        self.ws = workspace
        settings = workspace.settings
        model_dir = None if settings.embed_model_path is None else str(settings.embed_model_path)
        self.parser = StructureNodeParser(chunk_tokens=settings.chunk_tokens,
                                          max_tokens=settings.embed_max_tokens, model_dir=model_dir)

    def is_present(self, doc_id: str) -> bool:
        return self.present(self.ws, doc_id)

    @staticmethod
    def present(ws: Workspace, doc_id: str) -> bool:
        """Whether a document with these bytes is visible in the store (searchable or complete)."""
        return ws.catalog.document(doc_id) is not None

    def ingest_file(self, path: Path | str, *, force: bool = False, data: bytes | None = None,
                    name: str | None = None, on_stage: Callable[[str], None] | None = None,
                    kind: str = "") -> IngestResult:
        """Validate, parse and store one file; a VeraError becomes a `failed` result. `kind`: the
        document kind the user chose ('' : read it from the document)."""
        label = name or Path(path).name
        try:
            self.ws.catalog.check_contract()
            self.ws.repair()
            if on_stage:
                on_stage("parsing")
            source = load_source(path, max_file_mb=self.ws.settings.max_file_mb, data=data, name=name)
            doc = self.ws.catalog.document(source.doc_id)
            if not force and doc is not None:
                if not doc.complete:  # an interrupted ingestion: finish its vectors
                    self.complete(doc.doc_id)
                if kind and doc.kind != kind:
                    self.ws.catalog.set_kind(doc.doc_id, kind)
                return IngestResult(label, "skipped", doc_id=source.doc_id)
            return self.store(source, parse_source(source), force=force, on_stage=on_stage, kind=kind)
        except VeraError as exc:
            return IngestResult(label, "failed", error=str(exc), error_type=type(exc).__name__)

    def store(self, source: SourceFile, parsed: ParsedDocument, *, force: bool = False,
              on_stage: Callable[[str], None] | None = None, kind: str = "") -> IngestResult:
        """Write a parsed document to every store, searchable first, then complete (blocking)."""
        result = self.make_searchable(source, parsed, force=force, on_stage=on_stage, kind=kind)
        if result.status == "ingested":
            if on_stage:
                on_stage("embedding")
            started = time.perf_counter()
            result.reused = self.complete(result.doc_id).reused
            result.seconds["embed"] = time.perf_counter() - started
        return result

    def make_searchable(self, source: SourceFile, parsed: ParsedDocument, *, force: bool = False,
                        on_stage: Callable[[str], None] | None = None, kind: str = "") -> IngestResult:
        """Stage one: chunks with geometry, table grids, facts and the keyword index are written, then
        the document becomes visible as `searchable` in one flip (a kill before it leaves the
        document invisible and repaired on the next ingestion). Dense vectors come with `complete`.
        `kind`: the document kind the user chose ('' : read it from the document; a kind the user set
        earlier on the same document survives a forced re-ingestion)."""
        ws = self.ws
        ws.catalog.check_contract()
        ws.repair()
        if not force and self.is_present(parsed.doc_id):
            return IngestResult(parsed.name, "skipped", doc_id=parsed.doc_id)
        if on_stage:
            on_stage("tables")
        earlier = ws.catalog.document(parsed.doc_id)
        if not kind and earlier is not None and earlier.kind_source == "user":
            kind = earlier.kind
        reading = KindReading(kind, "user") if kind else parsed_kind(parsed)  # type: ignore[arg-type]
        identity = parsed_identity(parsed, reading, earlier.identity if earlier is not None else None)
        if identity.doc_type == "transcript":
            parsed = as_turns(parsed, identity.company)  # NOTE: each speaker's turn a section: no chunk mixes two
        ws.delete(parsed.doc_id)
        ws.catalog.begin_document(
            doc_id=parsed.doc_id, name=parsed.name, format=parsed.format, sha256=parsed.sha256,
            pages=parsed.pages, size_bytes=len(source.data), metadata=parsed.metadata,
            parser_version=PDF_VERSION if parsed.format == "pdf" else MD_VERSION,
            kind=reading.kind, kind_source=reading.basis, identity=identity.to_dict())
        # NOTE: chunking, grids, facts and the keyword index run here, under the reading budget, checked between steps
        budget = StepBudget(parsed.name, ws.settings.parse_timeout_s, ws.settings.parse_memory_mb)
        try:
            started = time.perf_counter()
            nodes = self.parser.checked(budget.check).get_nodes_from_documents([StructuredDocument.from_parsed(parsed)])
            chunked = time.perf_counter()
            budget.check()
            grids = document_grids(parsed.blocks, [n.metadata[M.CHUNK_ID] for n in nodes
                                                   if n.metadata[M.KIND] == M.KIND_TABLE])
            gridded = time.perf_counter()
            if on_stage:
                on_stage("indexing")
            budget.check()
            self._keep_original(parsed, source)
            records = [_chunk_record(n) for n in nodes]
            del nodes
            ws.catalog.write_chunks(parsed.doc_id, records, parsed.headings, grids)
            budget.check()
            if ws.settings.facts_enabled:
                self._store_facts(parsed.doc_id, records)
            budget.check()
            keyword = BM25Index([KeywordRow(c.chunk_id, c.page_start, c.page_end, c.caption, c.heading_path, c.text,
                                            c.kind) for c in records])
            budget.check()
            ws.catalog.mark_searchable(parsed.doc_id, keyword.to_bytes())
        except Exception:
            ws.delete(parsed.doc_id)  # NOTE: nothing of a file refused half way stays behind
            raise
        finally:
            self.parser.checked(None)
        ws.invalidate(parsed.doc_id)
        done = time.perf_counter()
        seconds = {"parse": parsed.timings.get("parse", 0.0) + (chunked - started),
                   "tables": parsed.timings.get("tables", 0.0) + (gridded - chunked),
                   "embed": 0.0, "index": done - gridded}
        return IngestResult(parsed.name, "ingested", doc_id=parsed.doc_id, pages=parsed.pages,
                            chunks=len(records), tables=sum(1 for c in records if c.kind == M.KIND_TABLE),
                            seconds=seconds, warnings=[w["message"] for w in parsed.metadata.get("warnings", [])])

    def complete(self, doc_id: str, *, limit: int | None = None) -> EmbedProgress:
        """Stage two: embed the chunks of a searchable document that have no vector yet (at most
        `limit` of them), write the vectors by chunk id, and mark the document `complete` once every
        chunk has one. Resumable: a kill at any point loses at most the batch being embedded, and
        writing by id never duplicates a vector. Each distinct text is embedded once; a text already
        embedded for another stored chunk takes that chunk's vector."""
        ws = self.ws
        view = ws.dense
        if view.collection is None:  # NOTE: never another model's vectors beside the store's
            raise EmbeddingModelError(view.reason)
        chunks = ws.catalog.chunks(doc_id)
        present = ws.vectors.ids(doc_id)
        todo = [c for c in chunks if c.chunk_id not in present]
        batch = todo[:limit] if limit else todo
        keys = [c.embed_key or text_key(c.embed_text) for c in batch]
        texts = {key: c.embed_text for key, c in zip(keys, batch)}
        vectors = self._known_vectors(list(texts))
        missing = [k for k in texts if k not in vectors]
        vectors.update(zip(missing, ws.embedder.encode([texts[k] for k in missing])))
        ws.vectors.upsert([c.chunk_id for c in batch], [vectors[k] for k in keys], [_vector_metadata(c) for c in batch])
        left = len(todo) - len(batch)
        if left == 0 and ws.catalog.document(doc_id) is not None:
            if view.building:  # re-embedded: the document joins the new space (the switch completes it)
                from vera_core.store.spaces import VectorSpaces
                VectorSpaces(ws.catalog).mark(view.collection, doc_id)
                ws.refresh_dense()
            else:
                ws.catalog.mark_complete(doc_id)
        return EmbedProgress(embedded=len(chunks) - left, total=len(chunks), reused=len(batch) - len(missing))

    def _known_vectors(self, keys) -> dict[str, list[float]]:
        """Vectors of chunks already stored with the same embedding text, by text key."""
        chunk_ids = self.ws.catalog.chunk_ids_by_embed_key(keys)
        stored = self.ws.vectors.vectors(list(chunk_ids.values()))
        return {key: stored[cid] for key, cid in chunk_ids.items() if cid in stored}

    def _store_facts(self, doc_id: str, records: list[ChunkRecord]) -> None:
        """Document facts with lineage, written before the document becomes visible."""
        doc = next(d for d in self.ws.catalog.pending_documents() if d.doc_id == doc_id)
        for result in extract_facts(records):
            self.ws.catalog.upsert_fact(to_record(result, doc))

    def _keep_original(self, parsed: ParsedDocument, source: SourceFile) -> None:
        target = self.ws.files_dir / f"{parsed.doc_id}{Path(parsed.name).suffix.lower()}"
        tmp = target.with_suffix(target.suffix + ".tmp")
        tmp.write_bytes(source.data)
        os.replace(tmp, target)


def _chunk_record(node) -> ChunkRecord:
    meta = node.metadata
    return ChunkRecord(
        chunk_id=meta[M.CHUNK_ID], doc_id=meta[M.DOC_ID], position=meta[M.POSITION], kind=meta[M.KIND],
        text=node.get_content(), embed_text=embedding_text(node), heading_path=meta[M.HEADING_PATH],
        heading_titles=tuple(meta[M.HEADING_PATH].split(M.HEADING_SEPARATOR)[1:]),
        section_id=meta[M.SECTION_ID], page_start=meta[M.PAGE_START], page_end=meta[M.PAGE_END],
        polygons=tuple(Rect.from_dict(p) for p in json.loads(meta[M.POLYGONS])),
        caption=meta.get(M.CAPTION, ""), footnotes=meta.get("footnotes", ""), tokens=meta[M.TOKENS],
        embed_key=text_key(embedding_text(node)))


def _vector_metadata(chunk: ChunkRecord) -> dict:
    """The flat metadata stored with a chunk's vector (what dense search filters on)."""
    return {M.DOC_ID: chunk.doc_id, M.CHUNK_ID: chunk.chunk_id, M.POSITION: chunk.position, M.KIND: chunk.kind,
            M.PAGE_START: chunk.page_start, M.PAGE_END: chunk.page_end, M.SECTION_ID: chunk.section_id}
