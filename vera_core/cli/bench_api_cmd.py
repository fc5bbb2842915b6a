"""`vera bench api`: P50/P95 of `POST /query` over the dev filings' questions through `vera api` (a
process of its own, on the same store), against the same questions asked in process, interleaved; and
the HTTP overhead per request (the client's wall time minus the answer's own time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from vera_core.cli.bench_cmd import DEV_CORPUS
from vera_core.cli.bench_query_cmd import _prepared
from vera_core.cli.eval_cmd import percentile
from vera_core.config import VeraSettings
from vera_core.query import QueryEngine

TARGET_MS = 20.0


def run(args, settings: VeraSettings) -> int:
    import httpx

    from vera_core.serve.ports import APP_DIR as ROOT
    from vera_core.serve.ports import free_port
    ws = _prepared(settings)
    names = {d.stem: d.doc_id for d in ws.catalog.documents()} | {d.name: d.doc_id for d in ws.catalog.documents()}
    questions = []
    for line in (DEV_CORPUS / "questions.jsonl").read_text().splitlines() if DEV_CORPUS.is_dir() else []:
        if line.strip():
            q = json.loads(line)
            questions.append((q["question"], names.get(q["doc_name"])))
    questions = questions * max(1, args.runs)
    port = free_port()
    env = {**os.environ, "VERA_DATA_DIR": str(ws.data_dir), "HF_HUB_OFFLINE": "1"}
    server = subprocess.Popen([sys.executable, "-m", "vera_core.cli.main", "api", "--port", str(port)], cwd=ROOT,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{url}/openapi.json", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("vera api did not start") from None
                time.sleep(0.2)
        engine = QueryEngine(ws)
        engine.warm_up()
        with httpx.Client(base_url=url, timeout=120) as client:
            for question, doc in questions[:3]:  # warm-up on both sides, not counted
                body = {"question": question, "mode": "deterministic", "filters": {"doc_ids": [doc] if doc else []}}
                client.post("/query", json=body)
                engine.answer(question, docs=[doc] if doc else [], mode="deterministic")
            over_http, in_process, overhead = [], [], []
            for question, doc in questions:
                body = {"question": question, "mode": "deterministic", "filters": {"doc_ids": [doc] if doc else []}}
                started = time.perf_counter()
                response = client.post("/query", json=body)
                wall = (time.perf_counter() - started) * 1000
                response.raise_for_status()
                over_http.append(wall)
                overhead.append(wall - response.json()["vera"]["timings_ms"]["total"])
                in_process.append(engine.answer(question, docs=[doc] if doc else [], mode="deterministic").timings_ms.total)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"{len(questions)} questions over the dev filings ({len(ws.catalog.documents())} documents in the store):")
    print(f"  POST /query through vera api:  P50 {percentile(over_http, 50):.1f} ms  P95 {percentile(over_http, 95):.1f} ms")
    print(f"  the same in process:           P50 {percentile(in_process, 50):.1f} ms  P95 {percentile(in_process, 95):.1f} ms")
    print(f"  added at P95: {percentile(over_http, 95) - percentile(in_process, 95):.1f} ms (target <= {TARGET_MS:g} ms); "
          f"HTTP overhead per request (wall minus the answer's own time): P50 {percentile(overhead, 50):.1f} ms, "
          f"P95 {percentile(overhead, 95):.1f} ms")
    return 0
