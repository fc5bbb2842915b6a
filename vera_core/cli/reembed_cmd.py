"""`vera reembed`: re-embed every document with the embedding model this process loads (for example
after changing `VERA_EMBED_MODEL_PATH`), through the ingestion queue. The store's old vectors keep
serving the processes that load the old model until every document has new ones; then the new vectors
become the store's in one step and the old ones are deleted. `--status` says which model made the
store's vectors and how far a re-embedding is."""

from __future__ import annotations

import time

from vera_core.cli.ingest_cmd import work_and_follow
from vera_core.config import VeraSettings
from vera_core.ingest.worker_process import start_worker_process
from vera_core.store.jobs import JobQueue
from vera_core.store.spaces import VectorSpaces
from vera_core.workspace import Workspace


def status_lines(ws: Workspace) -> list[str]:
    spaces = VectorSpaces(ws.catalog)
    active, building = spaces.active() or spaces.adopt(ws.settings.collection, ws.model), spaces.building()
    lines = [f"store's vectors: {active.model} (collection {active.collection})"]
    if building is not None:
        done = len(spaces.embedded(building.collection))
        lines.append(f"re-embedding with {building.model}: {done} of {len(ws.catalog.versions())} documents done")
    lines.append(f"this process loads {ws.model}" + ("" if active.model.same_vectors(ws.model) else
                                                         f": {ws.dense.reason or 'dense search reads the new vectors'}"))
    return lines


def start_reembed(ws: Workspace) -> list[int]:
    """Open (or resume) the space of `ws`'s model and queue a re-embedding job for every document not in
    it yet; returns the re-embedding jobs not finished."""
    spaces = VectorSpaces(ws.catalog)
    building = spaces.start_building(ws.settings.collection, ws.model)
    ws.refresh_dense()
    queue = JobQueue(ws.catalog)
    running = {j.doc_id: j.job_id for j in queue.jobs(active_only=True, limit=100_000) if j.kind == "reembed"}
    names = {d.doc_id: d.name for d in ws.catalog.documents()}
    return [running.get(d) or queue.enqueue(names[d], building.collection, kind="reembed", doc_id=d)
            for d in spaces.missing(building.collection)]


def run(args, settings: VeraSettings) -> int:
    ws = Workspace(settings, batch=True)
    if args.status:
        print("\n".join(status_lines(ws)))
        return 0
    view = ws.dense
    if view.collection is not None and not view.building:
        print(f"The store's vectors are already {ws.model}'s: nothing to re-embed.")
        return 0
    jobs = start_reembed(ws)
    print(f"re-embedding {len(jobs)} document(s) with {ws.model}; the old vectors serve until every one is done")
    if args.background:
        process = start_worker_process(settings)
        print(f"queued for {'a new worker' if process is not None else 'the worker already running'} "
              "(a worker that loads another model leaves these jobs to one that loads this one); "
              "`vera reembed --status` shows how far it is")
        ws.close_embedder()
        return 0
    started = time.perf_counter()
    try:
        work_and_follow(ws, jobs, report=print)
    finally:
        ws.close_embedder()
    ws.refresh_dense()
    print(f"done in {time.perf_counter() - started:.1f} s")
    print("\n".join(status_lines(ws)))
    return 0
