"""No file can stall the ingestion queue (issue 19): YAML front matter is read without expanding
aliases, every parse runs in a reading process under a time and memory budget, a file over its budget
or interrupted twice fails its own job with a clear error, and the files queued after it become
searchable."""

from __future__ import annotations

import time

import pytest

from tests.conftest import SAMPLES, settings_for
from vera_core.errors import ParseBudgetError
from vera_core.ingest.budget import ParseBudget
from vera_core.ingest.source import load_source
from vera_core.ingest.worker import IngestWorker
from vera_core.store.jobs import MAX_ATTEMPTS, JobQueue
from vera_core.workspace import Workspace

POLICY = SAMPLES / "expense_policy.md"

pytestmark = pytest.mark.backends  # the queue on the embedded catalog and on PostgreSQL

BILLION_LAUGHS = """---
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
---
# Laughs

Nine levels of nested aliases: 387,420,489 strings when expanded.
"""


def _until_searchable(worker: IngestWorker, queue: JobQueue, ids: list[int], limit_s: float) -> float:
    """Step the worker until no job of `ids` waits to be read; the seconds it took."""
    started = time.monotonic()
    while any(queue.get(i).stage in ("queued", "parsing") for i in ids):
        assert time.monotonic() - started < limit_s, [queue.get(i) for i in ids]
        worker.step()
    return time.monotonic() - started


def _big_markdown(path, sections: int = 25000):
    path.write_text("# Big\n\n" + "".join(f"## Section {i}\n\n- item {i} with some words\n- item {i} again\n"
                                          for i in range(sections)), encoding="utf-8")
    return path


def test_a_yaml_billion_laughs_is_read_with_its_aliases_unexpanded_and_the_next_file_goes_on(tmp_path):
    bomb = tmp_path / "laughs.md"
    bomb.write_text(BILLION_LAUGHS, encoding="utf-8")
    assert bomb.stat().st_size < 600
    ws = Workspace(settings_for(tmp_path / "store"))
    queue = JobQueue(ws.catalog)
    ids = [queue.enqueue(bomb.name, str(bomb)), queue.enqueue(POLICY.name, str(POLICY))]
    worker = IngestWorker(ws)
    worker.recover()
    seconds = _until_searchable(worker, queue, ids, limit_s=30)
    assert seconds < 15
    assert [queue.get(i).stage for i in ids] == ["searchable", "searchable"]
    doc = ws.catalog.document(queue.get(ids[0]).doc_id)
    assert doc.metadata["front_matter"]["i"] == ["*h"] * 9  # the alias names, never their expansion
    assert any("387,420,489" in c.text for c in ws.doc_chunks(doc.doc_id))


def test_a_file_over_its_time_budget_fails_its_own_job_and_the_file_after_it_becomes_searchable(tmp_path):
    slow = _big_markdown(tmp_path / "slow.md")  # ~4 s to read here
    ws = Workspace(settings_for(tmp_path / "store", parse_timeout_s=1.0))
    queue = JobQueue(ws.catalog)
    ids = [queue.enqueue(slow.name, str(slow)), queue.enqueue(POLICY.name, str(POLICY))]
    order = []
    worker = IngestWorker(ws, on_event=lambda job, event: order.append((job.name, event)))
    worker.recover()
    _until_searchable(worker, queue, ids, limit_s=60)
    failed, done = queue.get(ids[0]), queue.get(ids[1])
    assert (failed.status, failed.error_type, failed.attempts) == ("failed", "ParseBudgetError", MAX_ATTEMPTS)
    assert "'slow.md' took longer than 1 s to read" in failed.error and "VERA_PARSE_TIMEOUT_S" in failed.error
    assert done.stage == "searchable"
    # the retry waits behind the file queued after it
    assert order.index((POLICY.name, "searchable")) < order.index((slow.name, "failed"))
    assert [d.name for d in ws.catalog.documents()] == [POLICY.name]


@pytest.mark.parametrize("memory_mb", [32, 64, 96, 160])
def test_a_parse_over_its_memory_budget_is_refused_with_a_clear_error(tmp_path, memory_mb):
    # Each budget runs out at another point of the parse; none may leave the reading process stuck
    # on its way out (its MemoryError reply used to need memory too), which the time budget would show.
    big = load_source(_big_markdown(tmp_path / "big.md"), max_file_mb=100)
    budget = ParseBudget(timeout_s=60, memory_mb=memory_mb)
    try:
        with pytest.raises(ParseBudgetError, match=rf"'big.md' needed more than the {memory_mb} MiB allowed"):
            budget.parse(big)
        small = budget.parse(load_source(POLICY, max_file_mb=100))  # a new reading process takes over
        assert small.blocks
    finally:
        budget.close()


def test_a_job_interrupted_twice_is_failed_and_not_read_a_third_time(tmp_path):
    ws = Workspace(settings_for(tmp_path / "store"))
    queue = JobQueue(ws.catalog)
    job_id = queue.enqueue(POLICY.name, str(POLICY))
    for _ in range(MAX_ATTEMPTS):  # a worker claims it, then dies while reading
        assert [j.job_id for j in queue.claim()] == [job_id]
        IngestWorker(ws).recover()
    job = queue.get(job_id)
    assert (job.status, job.stage, job.error_type) == ("failed", "failed", "ParseBudgetError")
    assert f"interrupted {MAX_ATTEMPTS} times" in job.error and POLICY.name in job.error
    assert queue.claim() == []
