"""Index hygiene (issue 20): the store records which embedding model made its vectors; a process that
loads another model never mixes its vectors with the store's (dense search is off and says why), and
`vera reembed` re-embeds every document through the queue, the old vectors serving the old model's
processes until every document has new ones, then the new ones become the store's."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES, settings_for
from vera_core.cli import reembed_cmd
from vera_core.ingest.desk import IngestDesk
from vera_core.ingest.service import Ingestor
from vera_core.ingest.worker import IngestWorker
from vera_core.query import QueryEngine
from vera_core.store.jobs import JobQueue
from vera_core.store.spaces import VectorSpaces
from vera_core.workspace import Workspace

POLICIES = ["acceptable_use_policy.md", "data_retention_policy.md", "expense_policy.md", "mobile_device_policy.md"]
QUESTION = "How long are customer records kept after the contract ends?"


@pytest.fixture(scope="module")
def other_model(tmp_path_factory) -> Path:
    """A second model: the bundled MiniLM with its weights slightly moved (other vectors, same size)."""
    import torch
    from safetensors.torch import load_file, save_file

    from vera_core.index.model_path import resolve_model_path
    bundled = resolve_model_path(None)
    folder = tmp_path_factory.mktemp("models") / "minilm-variant"
    shutil.copytree(bundled, folder, ignore=shutil.ignore_patterns("model.safetensors"))
    weights = load_file(str(bundled / "model.safetensors"))
    generator = torch.Generator().manual_seed(7)
    moved = {k: (v + 0.1 * v.std() * torch.randn(v.shape, generator=generator) if v.is_floating_point() and v.numel() > 1
                 else v).contiguous() for k, v in weights.items()}
    save_file(moved, str(folder / "model.safetensors"), metadata={"format": "pt"})
    return folder


def _store(tmp_path: Path) -> Workspace:
    ws = Workspace(settings_for(tmp_path / "store"))
    ingestor = Ingestor(ws)
    for name in POLICIES:
        assert ingestor.ingest_file(SAMPLES / name).status == "ingested"
    return ws


@pytest.mark.backends
def test_the_store_records_the_model_that_made_its_vectors(tmp_path, store_backend, capsys):
    ws = _store(tmp_path)
    active = VectorSpaces(ws.catalog).active()
    assert (active.model.name, active.model.dimension, len(active.model.version)) == ("all-MiniLM-L6-v2", 384, 16)
    assert active.collection == ws.settings.collection and active.model == ws.model
    assert ws.vectors.count() == sum(d.chunk_count for d in ws.catalog.documents())
    print("\n".join(reembed_cmd.status_lines(ws)))
    out = capsys.readouterr().out
    assert f"store's vectors: all-MiniLM-L6-v2 (weights {active.model.version[:8]}, 384-d)" in out


@pytest.mark.backends
def test_another_model_never_mixes_vectors_and_reembed_switches_once_every_document_is_done(
        tmp_path, store_backend, other_model):
    old = _store(tmp_path)
    docs = {d.doc_id for d in old.catalog.documents()}
    new = Workspace(old.settings.model_copy(update={"embed_model_path": other_model}))
    assert not new.model.same_vectors(old.model) and new.model.name == "minilm-variant"

    # a process with the other model: dense search off, with why; keywords still answer, cited
    answer = QueryEngine(new, llm=None).answer(QUESTION, mode="deterministic")
    assert "Dense search is off" in answer.retrieval.dense_unavailable and "vera reembed" in answer.retrieval.dense_unavailable
    assert answer.retrieval.dense_unavailable in answer.notices and answer.citations
    assert new.no_vectors() == docs
    # ... and its worker makes a new file searchable but writes no vector of its model beside the store's
    job = IngestDesk(new).submit_path(SAMPLES / "expense_policy.md", force=True, start_worker=False).job_id
    IngestWorker(new).run(until_idle=True)
    finished = JobQueue(new.catalog).get(job)
    assert (finished.status, finished.stage, finished.error_type) == ("done", "searchable", "EmbeddingModelError")
    assert "not embedded" in finished.error
    assert old.vectors.count() == sum(d.chunk_count for d in old.catalog.documents() if d.complete)
    IngestWorker(old).run(until_idle=True)  # the store's own model completes it
    assert all(d.complete for d in old.catalog.documents())
    old_vectors = old.vectors.vectors([c.chunk_id for c in old.catalog.chunks(sorted(docs)[0])])

    # re-embedding: one document done, the others not yet
    jobs = reembed_cmd.start_reembed(new)
    assert len(jobs) == len(docs)
    building = VectorSpaces(new.catalog).building()
    worker = IngestWorker(new)
    while not VectorSpaces(new.catalog).embedded(building.collection):
        assert worker.step()
    done = VectorSpaces(new.catalog).embedded(building.collection)
    assert 0 < len(done) < len(docs)
    old.sync()
    assert old.no_vectors() == set() and old.dense.reason == ""  # the old vectors serve the old model
    here = QueryEngine(old, llm=None).answer(QUESTION, mode="deterministic")
    assert here.retrieval.dense_unavailable == "" and here.citations
    new.sync()
    assert new.no_vectors() == docs - done
    partial = QueryEngine(new, llm=None).answer(QUESTION, mode="deterministic")
    assert partial.retrieval.dense_unavailable.startswith(f"The store is being re-embedded with {new.model}: "
                                                          f"{len(done)} of {len(docs)} documents are done")

    # every document done: the new vectors are the store's, the old ones deleted
    worker.run(until_idle=True)
    assert all(JobQueue(new.catalog).get(j).status == "done" for j in jobs)
    spaces = VectorSpaces(new.catalog)
    assert spaces.building() is None and spaces.active().model == new.model
    assert spaces.active().collection == building.collection
    new.sync()
    assert new.no_vectors() == set() and new.dense.reason == ""
    assert new.vectors.count() == sum(d.chunk_count for d in new.catalog.documents())
    now = new.vectors.vectors(list(old_vectors))
    cosines = [float(np.dot(old_vectors[k], now[k])) for k in old_vectors]
    assert max(cosines) < 0.999 and min(cosines) > 0.5, cosines  # re-embedded, by a close model
    names = [c.name for c in new.vector_index(building.collection).client.list_collections()]
    assert old.settings.collection not in names
    after = QueryEngine(new, llm=None).answer(QUESTION, mode="deterministic")
    assert after.retrieval.dense_unavailable == "" and after.citations
    old.sync()
    assert old.no_vectors() == docs and "Dense search is off" in old.dense.reason


def test_vera_reembed_works_the_queue_and_reports_the_new_model(tmp_path, other_model, monkeypatch, capsys):
    from vera_core.cli.main import main
    ws = Workspace(settings_for(tmp_path / "store"))
    for name in POLICIES[:2]:
        assert Ingestor(ws).ingest_file(SAMPLES / name).status == "ingested"
    monkeypatch.setenv("VERA_EMBED_MODEL_PATH", str(other_model))
    monkeypatch.setenv("VERA_EMBED_WORKERS", "1")
    assert main(["--data-dir", str(tmp_path / "store"), "reembed"]) == 0
    out = capsys.readouterr().out
    assert "re-embedding 2 document(s) with minilm-variant" in out and out.count("complete   after") == 2
    assert "store's vectors: minilm-variant (weights" in out
    assert main(["--data-dir", str(tmp_path / "store"), "reembed"]) == 0
    assert "nothing to re-embed" in capsys.readouterr().out
