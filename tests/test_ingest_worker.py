"""The ingestion queue and its worker (vera_core/ingest/worker.py, store/jobs.py): files queued are made
searchable first and complete later; a worker killed with SIGKILL at any point leaves every document
invisible, searchable or complete, and the next worker finishes the work with no user action and no
duplicate vector."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.conftest import ROOT, SAMPLE_PDF, SAMPLES, settings_for
from vera_core.ingest.service import Ingestor
from vera_core.ingest.worker import IngestWorker
from vera_core.ingest.worker_process import worker_running, writer_lock
from vera_core.query import QueryEngine
from vera_core.store.jobs import JobQueue
from vera_core.workspace import Workspace

POLICY = SAMPLES / "expense_policy.md"

pytestmark = pytest.mark.backends

KILLER = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {root!r})
    import vera_core.ingest.worker as worker_module
    from vera_core.config import VeraSettings
    from vera_core.index.bm25 import BM25Index
    from vera_core.store.catalog import Catalog
    from vera_core.store.vectors import VectorIndex
    from vera_core.workspace import Workspace
    from vera_core.store.jobs import JobQueue
    worker_module.EMBED_BATCH = 10  # several batches for the 47 chunks of the sample report
    owner, target, call, after = {owner!r}, {target!r}, {call!r}, {after!r}
    cls = {{"BM25Index": BM25Index, "Catalog": Catalog, "VectorIndex": VectorIndex}}[owner]
    real = getattr(cls, target)
    calls = []
    def die(*args, **kwargs):
        calls.append(1)
        if len(calls) < call:
            return real(*args, **kwargs)
        if after:
            real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)
    setattr(cls, target, die)
    ws = Workspace(VeraSettings(**{settings!r}))
    JobQueue(ws.catalog).enqueue({name!r}, {path!r})
    worker_module.IngestWorker(ws).run(until_idle=True)
""")

KILL_POINTS = {
    # (class, method, which call dies, after the call did its work) -> stage left behind
    "keyword indexing": (("BM25Index", "to_bytes", 1, False), None),
    "before the searchable flip": (("Catalog", "mark_searchable", 1, False), None),
    "before the first vectors": (("VectorIndex", "upsert", 1, False), 0),
    "after the second batch": (("VectorIndex", "upsert", 2, True), 20),
    "after the last batch, before complete": (("Catalog", "mark_complete", 1, False), 47),
}


@pytest.mark.parametrize("point", list(KILL_POINTS))
def test_a_killed_worker_leaves_no_half_stage_and_the_next_one_completes(tmp_path, point):
    (owner, target, call, after), vectors_left = KILL_POINTS[point]
    data_dir = tmp_path / "store"
    ws = Workspace(settings_for(data_dir))
    kept = Ingestor(ws).ingest_file(POLICY)
    script = KILLER.format(root=str(ROOT), owner=owner, target=target, call=call, after=after,
                           name=SAMPLE_PDF.name, path=str(SAMPLE_PDF),
                           settings=ws.settings.model_dump(mode="json", exclude_unset=True))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == -9, proc.stderr[-2000:]

    after_kill = Workspace(settings_for(data_dir))
    docs = {d.name: d for d in after_kill.catalog.documents()}
    if vectors_left is None:  # killed before the flip: invisible, and the half-written rows are there to repair
        assert set(docs) == {POLICY.name}
        assert [d.name for d in after_kill.catalog.pending_documents()] == [SAMPLE_PDF.name]
    else:  # killed while embedding: searchable, every question type answers, no vector twice
        report = docs[SAMPLE_PDF.name]
        assert report.stage == "searchable"
        assert after_kill.vectors.count(report.doc_id) == vectors_left
        answer = QueryEngine(after_kill, llm=None).answer("What does page 4 say about the acquisition of Nordlicht?",
                                                          mode="deterministic")
        assert answer.citations and {c.page for c in answer.citations} == {4}
    assert docs[POLICY.name].stage == "complete"

    # the next worker (the app starts one at launch) finishes with no user action
    IngestWorker(after_kill).run(until_idle=True)
    final = {d.name: d for d in after_kill.catalog.documents()}
    assert {n: d.stage for n, d in final.items()} == {POLICY.name: "complete", SAMPLE_PDF.name: "complete"}
    assert not after_kill.catalog.pending_documents()
    report = final[SAMPLE_PDF.name]
    assert after_kill.vectors.count(report.doc_id) == report.chunk_count == 47
    assert after_kill.vectors.count(kept.doc_id) == kept.chunks
    assert after_kill.vectors.count() == kept.chunks + 47
    job = JobQueue(after_kill.catalog).jobs()[0]
    assert (job.status, job.stage, job.progress, job.doc_id) == ("done", "complete", 1.0, report.doc_id)


def test_queued_files_become_searchable_before_any_is_embedded(empty_store):
    queue = JobQueue(empty_store.catalog)
    ids = [queue.enqueue(p.name, str(p)) for p in (SAMPLE_PDF, POLICY)]
    events = []
    worker = IngestWorker(empty_store, on_event=lambda job, event: events.append((job.name, event)))
    worker.recover()
    assert worker.step()  # the first claim: the report made searchable
    assert worker.step()  # then the policy, still before any vector
    assert events == [(SAMPLE_PDF.name, "searchable"), (POLICY.name, "searchable")]
    assert {d.name: d.stage for d in empty_store.catalog.documents()} == {SAMPLE_PDF.name: "searchable",
                                                                          POLICY.name: "searchable"}
    assert empty_store.vectors.count() == 0
    answer = QueryEngine(empty_store, llm=None).answer("What could a cyber attack do to the Group?",
                                                       mode="deterministic")
    assert answer.citations  # keyword and structure search answer meanwhile
    assert sorted(answer.retrieval.dense_pending) == sorted([SAMPLE_PDF.name, POLICY.name])
    assert any("Dense retrieval is not yet available for 2 of 2 documents" in n for n in answer.notices)
    worker.run(until_idle=True)
    assert [e for e in events if e[1] == "complete"] == [(SAMPLE_PDF.name, "complete"), (POLICY.name, "complete")]
    assert [queue.get(i).status for i in ids] == ["done", "done"]
    answer = QueryEngine(empty_store, llm=None).answer("What could a cyber attack do to the Group?",
                                                       mode="deterministic")
    assert answer.retrieval.dense_pending == [] and not any("Dense retrieval" in n for n in answer.notices)


def test_a_bad_file_fails_with_its_error_and_the_others_go_on(empty_store, tmp_path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7 this is not really a PDF")
    queue = JobQueue(empty_store.catalog)
    ids = [queue.enqueue(bad.name, str(bad)), queue.enqueue(POLICY.name, str(POLICY)),
           queue.enqueue("copy.md", str(POLICY))]
    IngestWorker(empty_store).run(until_idle=True)
    failed, done, skipped = (queue.get(i) for i in ids)
    assert failed.status == "failed" and "broken.pdf" in failed.error and failed.error_type == "InvalidPDFError"
    assert (done.status, done.stage) == ("done", "complete")
    assert (skipped.status, skipped.doc_id) == ("skipped", done.doc_id)  # the same bytes under another name
    assert [d.name for d in empty_store.catalog.documents()] == [POLICY.name]


def test_one_writer_per_store(tmp_path):
    data_dir = tmp_path / "store"
    assert not worker_running(data_dir)
    with writer_lock(data_dir) as first:
        assert first and worker_running(data_dir)
        with writer_lock(data_dir) as second:
            assert not second
    assert not worker_running(data_dir)


def test_a_delete_job_removes_the_document_from_every_store(empty_store):
    doc_id = Ingestor(empty_store).ingest_file(POLICY).doc_id
    queue = JobQueue(empty_store.catalog)
    job = queue.enqueue(POLICY.name, doc_id, kind="delete", doc_id=doc_id)
    IngestWorker(empty_store).run(until_idle=True)
    assert queue.get(job).stage == "deleted"
    assert empty_store.catalog.documents() == [] and empty_store.vectors.count() == 0


def test_another_process_sees_the_workers_vectors(tmp_path):
    """An embedded Chroma client does not see what another process wrote; the engine reopens the
    vector store when a document was completed meanwhile, so dense search finds the new chunks."""
    data_dir = tmp_path / "store"
    reader = Workspace(settings_for(data_dir))
    engine = QueryEngine(reader, llm=None)
    engine.answer("warm up", mode="deterministic")  # the reader's vector store is open (and empty)
    script = (f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
              "from vera_core.config import VeraSettings\nfrom vera_core.workspace import Workspace\n"
              "from vera_core.ingest.service import Ingestor\n"
              f"settings = VeraSettings(**{reader.settings.model_dump(mode='json', exclude_unset=True)!r})\n"
              f"Ingestor(Workspace(settings)).ingest_file({str(POLICY)!r})")
    subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, timeout=300)
    answer = engine.answer("What are the limits for hotel accommodation?", mode="deterministic", hybrid=False)
    assert answer.citations and answer.citations[0].doc_name == POLICY.name
    assert answer.retrieval.mode == "dense"
