"""Documents are atomic and idempotent: re-ingest is a no-op, a kill leaves nothing visible,
the next ingest repairs, and delete removes a document from every store."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.conftest import ROOT, SAMPLE_PDF, SAMPLES, settings_for
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace

POLICY = SAMPLES / "expense_policy.md"


def snapshot(ws: Workspace) -> tuple:
    docs = ws.catalog.documents(include_pending=True)
    return (tuple((d.doc_id, d.status, d.chunk_count) for d in docs), ws.vectors.count(),
            tuple(sorted(p.name for p in ws.files_dir.iterdir())))


def test_reingest_same_bytes_is_a_no_op_and_force_rebuilds(empty_store, tmp_path):
    ingestor = Ingestor(empty_store)
    first = ingestor.ingest_file(POLICY)
    assert first.status == "ingested" and first.chunks > 0
    before = snapshot(empty_store)
    copy = tmp_path / "renamed_copy.md"
    copy.write_bytes(POLICY.read_bytes())
    assert ingestor.ingest_file(POLICY).status == "skipped"
    assert ingestor.ingest_file(copy).status == "skipped"  # identity is the bytes, not the name
    assert snapshot(empty_store) == before
    rebuilt = ingestor.ingest_file(POLICY, force=True)
    assert rebuilt.status == "ingested" and snapshot(empty_store) == before


def test_delete_removes_the_document_from_every_store(empty_store):
    ingestor = Ingestor(empty_store)
    keep = ingestor.ingest_file(POLICY)
    gone = ingestor.ingest_file(SAMPLE_PDF)
    assert empty_store.vectors.count(gone.doc_id) == gone.chunks
    empty_store.keyword_index(gone.doc_id)
    empty_store.delete(gone.doc_id)
    assert [d.doc_id for d in empty_store.catalog.documents()] == [keep.doc_id]
    assert empty_store.catalog.chunks(gone.doc_id) == []
    assert empty_store.vectors.count(gone.doc_id) == 0
    assert empty_store.vectors.count() == keep.chunks
    assert not list(empty_store.files_dir.glob(f"{gone.doc_id}.*"))
    assert empty_store.keyword_index(gone.doc_id).search("revenue", 5) == []


KILLER = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {root!r})
    from vera_core.config import VeraSettings
    from vera_core.store.catalog import Catalog
    from vera_core.store.vectors import VectorIndex
    from vera_core.workspace import Workspace
    from vera_core.ingest.service import Ingestor
    target = {target!r}
    owner = Catalog if hasattr(Catalog, target) else VectorIndex
    real = getattr(owner, target)
    def die(*args, **kwargs):
        if target == "upsert":
            real(*args, **kwargs)  # vectors written, then the process dies
        os.kill(os.getpid(), signal.SIGKILL)
    setattr(owner, target, die)
    ws = Workspace(VeraSettings(data_dir={data_dir!r}, embed_workers=1))
    Ingestor(ws).ingest_file({path!r})
""")


@pytest.mark.parametrize("target, visible", [("write_chunks", False), ("mark_searchable", False), ("upsert", True),
                                             ("mark_complete", True)])
def test_kill_mid_ingest_leaves_no_half_stage_and_next_ingest_finishes(tmp_path, target, visible):
    """A kill before the searchable flip leaves the document invisible (repaired next time); after it,
    searchable, and the next ingestion of the same file writes the missing vectors, once each."""
    data_dir = tmp_path / "store"
    ws = Workspace(settings_for(data_dir))
    kept = Ingestor(ws).ingest_file(POLICY)
    before_vectors = ws.vectors.count()
    script = KILLER.format(root=str(ROOT), target=target, data_dir=str(data_dir), path=str(SAMPLE_PDF))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == -9, proc.stderr[-2000:]

    after = Workspace(settings_for(data_dir))
    shown = {d.name: d.stage for d in after.catalog.documents()}
    if visible:
        assert shown == {POLICY.name: "complete", SAMPLE_PDF.name: "searchable"}
    else:
        assert shown == {POLICY.name: "complete"}, "a half-written document became visible"
        assert [d.name for d in after.catalog.pending_documents()] == [SAMPLE_PDF.name]

    result = Ingestor(after).ingest_file(SAMPLE_PDF)
    assert result.status == ("skipped" if visible else "ingested")
    assert not after.catalog.pending_documents()
    assert {d.name: d.stage for d in after.catalog.documents()} == {POLICY.name: "complete",
                                                                    SAMPLE_PDF.name: "complete"}
    doc = next(d for d in after.catalog.documents() if d.name == SAMPLE_PDF.name)
    chunks = len(after.catalog.chunks(doc.doc_id))
    assert after.vectors.count(doc.doc_id) == chunks == doc.chunk_count
    assert after.vectors.count() == before_vectors + chunks
    assert after.vectors.count(kept.doc_id) == kept.chunks


def test_text_already_embedded_is_reused_and_survives_deleting_its_first_document(empty_store, tmp_path):
    ingestor = Ingestor(empty_store)
    first = ingestor.ingest_file(POLICY)
    revised = tmp_path / "expense_policy_2025.md"  # next year's policy: same text plus a new section
    revised.write_text(POLICY.read_text() + "\n\n## Travel by rail\n\nFirst class rail travel needs approval.\n")
    second = ingestor.ingest_file(revised)
    assert second.status == "ingested"
    assert second.reused == first.chunks and second.chunks == first.chunks + 1
    old = {c.embed_key: c.chunk_id for c in empty_store.catalog.chunks(first.doc_id)}
    new = {c.embed_key: c.chunk_id for c in empty_store.catalog.chunks(second.doc_id)}
    shared = [k for k in new if k in old]
    assert len(shared) == first.chunks
    before = empty_store.vectors.vectors([new[k] for k in shared])
    originals = empty_store.vectors.vectors([old[k] for k in shared])
    # NOTE: Chroma may re-normalise a vector it is given (cosine space), so a copied vector can differ in
    # its last float32 bits; that it was copied, not recomputed, is what `second.reused` counts
    assert all(max(abs(a - b) for a, b in zip(before[new[k]], originals[old[k]])) < 1e-6 for k in shared)
    empty_store.delete(first.doc_id)
    assert empty_store.vectors.vectors([new[k] for k in shared]) == before
