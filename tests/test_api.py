"""The HTTP API through a real HTTP client against `vera api` (issue 21): the full cycle (upload, poll
the job, query, render the cited page, export, delete) and every bad request, each answered with a
4xx and a JSON error naming the field."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from PIL import Image

from tests.conftest import ROOT, SAMPLE_PDF, SAMPLES, settings_for
from tests.made_pdfs import KESTREL_NAME, kestrel_review_pdf
from tests.pixels import yellowness
from vera_core.store.access import AccessStore
from vera_bench.app_server import free_port
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace

POLICY = "acceptable_use_policy.md"
OTHER_POLICY = "expense_policy.md"


class Api:
    """A running `vera api` and the tokens of its users."""

    def __init__(self, url: str, ws: Workspace, tokens: dict[str, str], process: subprocess.Popen) -> None:
        self.url, self.ws, self.tokens, self.process = url, ws, tokens, process

    def client(self, user: str | None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.tokens[user]}"} if user else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=120)

    def doc(self, name: str) -> str:
        return next(d.doc_id for d in self.ws.catalog.documents() if d.name == name)


def start_api(ws: Workspace, log: Path, **env: str) -> tuple[str, subprocess.Popen]:
    port = free_port()
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", **env}
    environment.update({f"VERA_{k.upper()}": str(v) for k, v in ws.settings.model_dump(mode="json", exclude_unset=True).items()})
    out = open(log, "wb")
    process = subprocess.Popen([sys.executable, "-m", "vera_core.cli.main", "api", "--port", str(port)], cwd=ROOT,
                               env=environment, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{url}/openapi.json", timeout=2).status_code == 200:
                return url, process
        except httpx.HTTPError:
            pass
        assert process.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    """A store with the sample report (collection finance), a policy (collection policies) and a policy
    in no collection; alice reads finance, bob reads policies."""
    root = tmp_path_factory.mktemp("api")
    ws = Workspace(settings_for(root / "store", max_file_mb=1))
    ingestor = Ingestor(ws)
    for path in (SAMPLE_PDF, SAMPLES / POLICY, SAMPLES / OTHER_POLICY):
        assert ingestor.ingest_file(path).status == "ingested"
    access = AccessStore(ws.catalog)
    names = {d.name: d.doc_id for d in ws.catalog.documents()}
    for name, docs in (("finance", [SAMPLE_PDF.name]), ("policies", [POLICY])):
        access.create_collection(name)
        access.add_documents(name, [names[d] for d in docs])
    tokens = {}
    for user, collection in (("alice", "finance"), ("bob", "policies")):
        access.add_user(user)
        tokens[user] = access.create_token(user, [collection])[1]
    url, process = start_api(ws, root / "api.log")
    yield Api(url, ws, tokens, process)
    process.terminate()
    process.wait(timeout=30)


def test_openapi_schema_is_served(api):
    schema = httpx.get(f"{api.url}/openapi.json").json()
    assert {"/query", "/documents", "/documents/{doc_id}", "/documents/{doc_id}/pages/{page}.png", "/jobs/{job_id}",
            "/export"} <= set(schema["paths"])
    assert {"answer", "citations", "sources", "verification"} <= set(schema["components"]["schemas"]["QueryResponse"]["properties"])


def test_the_full_cycle_upload_poll_query_render_export_delete(api, tmp_path):
    alice = api.client("alice")
    uploaded = alice.post("/documents", files={"file": (KESTREL_NAME, kestrel_review_pdf(), "application/pdf")})
    assert uploaded.status_code == 202, uploaded.text
    body = uploaded.json()
    assert body["status"] == "queued" and body["collection"] == "finance"
    job_id, doc_id = body["job"]["job_id"], body["doc_id"]
    deadline = time.monotonic() + 180
    while (job := alice.get(f"/jobs/{job_id}").json()).get("stage", job) not in ("complete", "failed"):
        assert time.monotonic() < deadline, (job, api.ws.catalog.query("SELECT * FROM ingest_jobs"), api.ws.catalog.query("SELECT * FROM collection_documents"))
        time.sleep(0.3)
    assert job["status"] == "done" and job["doc_id"] == doc_id
    assert alice.get(f"/documents/{doc_id}").json()["stage"] == "complete"
    assert doc_id in [d["doc_id"] for d in alice.get("/documents").json()]

    question = {"question": "What does page 2 say about the acquisition of Kestrel Robotics?",
                "filters": {"doc_ids": [doc_id]}, "mode": "deterministic", "include_images": True}
    answered = alice.post("/query", json=question)
    assert answered.status_code == 200, answered.text
    result = answered.json()
    assert "acquired Kestrel Robotics" in result["answer"]
    cite = result["citations"][0]
    assert (cite["doc_id"], cite["page"]) == (doc_id, 2) and cite["polygons"]
    assert result["sources"] == [{"doc_id": doc_id, "name": KESTREL_NAME, "kind": result["sources"][0]["kind"],
                                  "format": "pdf", "pages": 2}]
    assert result["verification"]["label"] and result["vera"]["intent"]["type"] == "location"
    page = alice.get(cite["image_url"])
    assert page.status_code == 200 and page.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(page.content))
    polygon = cite["polygons"][0]
    scale = image.width / 612
    box = tuple(round(v * scale) for v in (polygon["x0"], polygon["y0"], polygon["x1"], polygon["y1"]))
    assert yellowness(image, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3)) > 40
    assert image.tobytes() == Image.open(io.BytesIO(__import__("base64").b64decode(cite["image_png_base64"]))).tobytes()

    exported = alice.post("/export", json=question)
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert exported.headers["content-type"].startswith("text/csv")
    assert rows and {r["document"] for r in rows} == {KESTREL_NAME} and {r["page"] for r in rows} == {"2"}

    deleted = alice.delete(f"/documents/{doc_id}")
    assert deleted.status_code == 200, deleted.text
    deadline = time.monotonic() + 60
    while alice.get(f"/documents/{doc_id}").status_code != 404:
        assert time.monotonic() < deadline
        time.sleep(0.3)
    assert alice.get(cite["image_url"]).status_code == 404


@pytest.mark.parametrize("case", ["no token", "wrong token", "malformed json", "missing question", "top_k zero",
                                  "unknown field", "not a pdf", "oversized", "oversized, sent chunked",
                                  "other collection's id", "bad highlight",
                                  "page out of range", "another's collection on upload", "huge job id",
                                  "highlight not finite", "unknown kind", "unknown route", "question body too big",
                                  "big body without a token", "malformed json without a token"])
def test_bad_requests_get_a_4xx_json_error_naming_the_field(api, case):
    alice = api.client("alice")
    report = api.doc(SAMPLE_PDF.name)
    call, status, field = {
        "no token": (lambda: api.client(None).get("/documents"), 401, "Authorization"),
        "wrong token": (lambda: httpx.get(f"{api.url}/documents", headers={"Authorization": "Bearer vera_nope"}),
                        401, "Authorization"),
        "malformed json": (lambda: alice.post("/query", content=b'{"question": ', headers={
            "content-type": "application/json"}), 400, "body"),
        "missing question": (lambda: alice.post("/query", json={"filters": {}}), 400, "question"),
        "top_k zero": (lambda: alice.post("/query", json={"question": "revenue?", "top_k": 0}), 400, "top_k"),
        "unknown field": (lambda: alice.post("/query", json={"question": "revenue?", "filter": {}}), 400, "filter"),
        "not a pdf": (lambda: alice.post("/documents", files={"file": ("memo.docx", b"PK\x03\x04 word", "application/octet-stream")}),
                      415, "file"),
        "oversized": (lambda: alice.post("/documents", files={"file": ("big.pdf", b"%PDF-1.7\n" + b"0" * (2 << 20),
                                                                      "application/pdf")}), 413, "file"),
        "oversized, sent chunked": (lambda: alice.post("/documents", content=_chunked_upload("big.pdf", 3 << 20),
                                                       headers={"content-type": "multipart/form-data; boundary=vera"}),
                                    413, "file"),
        "other collection's id": (lambda: api.client("bob").get(f"/documents/{report}"), 404, None),
        "bad highlight": (lambda: alice.get(f"/documents/{report}/pages/1.png?highlight=1,2,3"), 400, "highlight"),
        "page out of range": (lambda: alice.get(f"/documents/{report}/pages/999.png"), 404, "page"),
        "another's collection on upload": (lambda: alice.post("/documents", data={"collection": "policies"}, files={
            "file": ("note.md", b"# Note\n\nA short note.\n", "text/markdown")}), 403, "collection"),
        "huge job id": (lambda: alice.get(f"/jobs/{2 ** 70}"), 400, "job_id"),
        "highlight not finite": (lambda: alice.get(f"/documents/{report}/pages/1.png?highlight=nan,0,1,1"), 400,
                                 "highlight"),
        "unknown kind": (lambda: alice.post("/documents", data={"kind": "banana"}, files={
            "file": ("note.md", b"# Note\n\nA short note.\n", "text/markdown")}), 400, "kind"),
        "unknown route": (lambda: alice.get("/nowhere"), 404, None),
        "question body too big": (lambda: alice.post("/query", json={"question": "x" * 100_000}), 413, "body"),
        "big body without a token": (lambda: api.client(None).post("/query", content=b"{" + b" " * (1 << 20)), 413,
                                     "body"),  # refused unread, from its length
        "malformed json without a token": (lambda: api.client(None).post("/query", content=b'{"question": ', headers={
            "content-type": "application/json"}), 401, "Authorization"),  # who is asking, before the body
    }[case]
    response = call()
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] and body.get("field") == field


def _chunked_upload(name: str, size: int):
    """A multipart body sent without a Content-Length (a generator: httpx sends it chunked)."""
    yield f'--vera\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'.encode()
    yield b"Content-Type: application/pdf\r\n\r\n%PDF-1.7\n"
    for _ in range(size // 65536):
        yield b"0" * 65536
    yield b"\r\n--vera--\r\n"


def test_an_open_store_refuses_to_listen_beyond_loopback(tmp_path):
    from vera_core.cli.main import main
    Workspace(settings_for(tmp_path / "store")).catalog  # noqa: B018 - the store exists, with no users
    env = {**os.environ, "VERA_DATA_DIR": str(tmp_path / "store")}
    done = subprocess.run([sys.executable, "-m", "vera_core.cli.main", "api", "--host", "0.0.0.0", "--port",
                           str(free_port())], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "will not listen on 0.0.0.0 while the store has no users" in done.stderr
    assert main  # the CLI entry the command above runs


def test_quarter_type_and_speaker_filters(api):
    alice = api.client("alice")
    kept = alice.post("/query", json={"question": "What was revenue in 2024?", "mode": "deterministic",
                                      "filters": {"quarter": "FY2024", "doc_type": ["annual_report"]}})
    assert kept.status_code == 200, kept.text
    body = kept.json()
    assert body["citations"] and {c["doc_type"] for c in body["citations"]} == {"annual_report"}
    assert {c["quarter"] for c in body["citations"]} == {"FY2024"}
    assert any("Filters applied: quarter FY2024; type annual_report" in n for n in body["vera"]["notices"])
    # a filter that leaves nothing says which, and what would widen it
    empty = alice.post("/query", json={"question": "What did the CFO say?", "filters": {"doc_type": "transcript"}})
    assert empty.status_code == 404 and empty.json()["field"] == "filters"
    assert "type filter leaves none" in empty.json()["error"] and "annual_report" in empty.json()["error"]
    later = alice.post("/query", json={"question": "Revenue?", "filters": {"quarter": "2025-Q2"}})
    assert later.status_code == 404 and "FY2024" in later.json()["error"]
    bad = alice.post("/query", json={"question": "Revenue?", "filters": {"quarter": "2024-Q9"}})
    assert bad.status_code == 400 and bad.json()["field"] == "filters.quarter"
    wrong_type = alice.post("/query", json={"question": "Revenue?", "filters": {"doc_type": ["memo"]}})
    assert wrong_type.status_code == 400
    # a segment filter asks the question of that segment; one no document prints leaves nothing
    segment = alice.post("/query", json={"question": "What was revenue in 2024?", "mode": "deterministic",
                                         "filters": {"segment": "sensors & electronics"}})
    assert segment.status_code == 200, segment.text
    assert "148,900" in segment.json()["answer"] and "1,032,400" not in segment.json()["answer"]
    assert any("for the Sensors & Electronics segment" in n for n in segment.json()["vera"]["notices"])
    nowhere = alice.post("/query", json={"question": "Revenue?", "filters": {"segment": ["Reality Labs"]}})
    assert nowhere.status_code == 404 and "segment filter leaves none" in nowhere.json()["error"]
    two = alice.post("/query", json={"question": "Revenue?", "filters": {"segment": ["Fluid Power", "Motion Control"]}})
    assert two.status_code == 400 and two.json()["field"] == "filters.segment"
