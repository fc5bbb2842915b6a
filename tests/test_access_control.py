"""Who may read what, tried at every endpoint (issue 21): bob's token reads the collection `policies`
only; every way he might reach the sample report (collection `finance`, alice's) or a policy in no
collection, by id, by name in a question, through a job, a page, an export or a delete, finds nothing,
and no response of his names them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLE_PDF, SAMPLES, settings_for
from tests.test_api import OTHER_POLICY, POLICY, Api, start_api
from vera_core.store.access import AccessStore
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    root = tmp_path_factory.mktemp("access")
    ws = Workspace(settings_for(root / "store"))
    for path in (SAMPLE_PDF, SAMPLES / POLICY, SAMPLES / OTHER_POLICY):
        assert Ingestor(ws).ingest_file(path).status == "ingested"
    access = AccessStore(ws.catalog)
    names = {d.name: d.doc_id for d in ws.catalog.documents()}
    access.create_collection("finance")
    access.add_documents("finance", [names[SAMPLE_PDF.name]])
    access.create_collection("policies")
    access.add_documents("policies", [names[POLICY]])
    tokens = {}
    for user, collection in (("alice", "finance"), ("bob", "policies")):
        access.add_user(user)
        tokens[user] = access.create_token(user, [collection])[1]
    url, process = start_api(ws, root / "api.log")
    yield Api(url, ws, tokens, process)
    process.terminate()
    process.wait(timeout=30)


def _hidden(api: Api) -> list[str]:
    """What must never appear in a response of bob's: the other documents' ids and names."""
    report, other = api.doc(SAMPLE_PDF.name), api.doc(OTHER_POLICY)
    return [report, other, "Aurora", SAMPLE_PDF.stem, "expense_policy", "Expense"]


def _clean(api: Api, response, asked: str = "") -> None:
    """No hidden id or name in the response, other than words of the caller's own question (which the
    answer echoes, in its intent)."""
    for secret in (s for s in _hidden(api) if s.lower() not in asked.lower()):
        assert secret not in response.text, f"{secret!r} leaked: {response.text[:300]}"


def test_the_document_list_shows_only_the_tokens_collections(api):
    bob = api.client("bob")
    listed = bob.get("/documents")
    assert [d["name"] for d in listed.json()] == [POLICY] and listed.json()[0]["collections"] == ["policies"]
    _clean(api, listed)
    assert sorted(d["name"] for d in api.client("alice").get("/documents").json()) == [SAMPLE_PDF.name]


@pytest.mark.parametrize("target", [SAMPLE_PDF.name, OTHER_POLICY])
def test_a_guessed_document_id_finds_nothing_at_any_endpoint(api, target):
    bob, doc_id = api.client("bob"), api.doc(target)
    for response in (bob.get(f"/documents/{doc_id}"), bob.get(f"/documents/{doc_id}/pages/1.png"),
                     bob.get(f"/documents/{doc_id}/pages/1.png?highlight=60,200,400,300"),
                     bob.post("/query", json={"question": "What is this document about?", "filters": {"doc_ids": [doc_id]}}),
                     bob.post("/export", json={"question": "What is this document about?", "filters": {"doc_ids": [doc_id]}}),
                     bob.delete(f"/documents/{doc_id}")):
        assert response.status_code == 404, (response.request.url, response.text)
        _clean(api, response)
    assert api.ws.catalog.document(doc_id) is not None  # the delete did nothing


@pytest.mark.parametrize("question", [
    "What was revenue in FY2024?",
    "What does page 4 say about the acquisition of Nordlicht?",
    "What currency are the statements of Aurora_Annual_Report_2024 presented in?",
    "Which policies address expense reimbursement?",
    "List all significant events",
    "What is the maximum hotel rate for business travel?",
])
def test_questions_read_and_cite_only_the_tokens_documents(api, question):
    bob = api.client("bob")
    asked = bob.post("/query", json={"question": question, "mode": "deterministic"})
    assert asked.status_code in (200, 404), asked.text
    if asked.status_code == 200:
        body = asked.json()
        assert {c["doc_id"] for c in body["citations"]} <= {api.doc(POLICY)}
        assert {s["name"] for s in body["sources"]} <= {POLICY}
        assert {d["doc_id"] for d in body["vera"]["documents"]} <= {api.doc(POLICY)}
    _clean(api, asked, question)
    exported = bob.post("/export", json={"question": question, "mode": "deterministic"})
    _clean(api, exported, question)


def test_another_users_job_is_not_found(api):
    alice, bob = api.client("alice"), api.client("bob")
    job = alice.post("/documents", files={"file": ("finance_note.md", b"# Finance note\n\nThe audit closes in May.\n",
                                                   "text/markdown")}).json()["job"]
    assert alice.get(f"/jobs/{job['job_id']}").status_code == 200
    seen = bob.get(f"/jobs/{job['job_id']}")
    assert seen.status_code == 404 and "finance_note" not in seen.text


def test_an_unknown_or_revoked_token_reads_nothing(api):
    access = AccessStore(api.ws.catalog)
    token_id, token = access.create_token("bob", ["policies"])
    import httpx
    assert httpx.get(f"{api.url}/documents", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    access.revoke(token_id)
    for path in ("/documents", f"/documents/{api.doc(POLICY)}", "/jobs/1"):
        response = httpx.get(f"{api.url}{path}", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 401 and response.json()["field"] == "Authorization"


def test_a_delete_never_takes_a_document_from_another_users_collection(api):
    """bob uploads bytes alice's collection already holds: he reads it now, and his delete only takes it
    out of his collection; alice still reads it."""
    bob, alice = api.client("bob"), api.client("alice")
    report = api.doc(SAMPLE_PDF.name)
    again = bob.post("/documents", files={"file": (SAMPLE_PDF.name, SAMPLE_PDF.read_bytes(), "application/pdf")})
    assert again.status_code == 200 and again.json()["status"] == "already present"
    assert bob.get(f"/documents/{report}").status_code == 200  # he holds the file: its document is his to read
    gone = bob.delete(f"/documents/{report}")
    assert gone.status_code == 200 and gone.json()["status"] == "removed from your collections"
    assert bob.get(f"/documents/{report}").status_code == 404
    assert alice.get(f"/documents/{report}").json()["collections"] == ["finance"]
    assert api.ws.catalog.document(report) is not None


def test_an_upload_of_a_document_in_no_collection_joins_but_never_deletes_or_relabels_it(api):
    """The policy in no collection (an administrator's): bob uploads its bytes, so he reads it; his
    chosen kind is not applied, and his delete takes it out of his collection only."""
    bob = api.client("bob")
    other = api.doc(OTHER_POLICY)
    kind = api.ws.catalog.document(other).kind
    again = bob.post("/documents", data={"kind": "contract"},
                     files={"file": (OTHER_POLICY, (SAMPLES / OTHER_POLICY).read_bytes(), "text/markdown")})
    assert again.status_code == 200 and again.json()["status"] == "already present"
    assert api.ws.catalog.document(other).kind == kind
    gone = bob.delete(f"/documents/{other}")
    assert gone.json()["status"] == "removed from your collections"
    assert bob.get(f"/documents/{other}").status_code == 404 and api.ws.catalog.document(other) is not None


def test_revoking_an_unknown_token_says_so(api):
    from vera_core.errors import VeraError
    with pytest.raises(VeraError, match="No token 'nope'"):
        AccessStore(api.ws.catalog).revoke("nope")


@pytest.mark.parametrize("sent, stored", [
    ("../../../../etc/x.md", "x.md"),
    ("C:\\Users\\bob\\Desktop\\notes.md", "notes.md"),
    ("a" * 400 + ".md", "a" * 157 + ".md"),
    ("invoice\u202edm.exe  of   May.md", "invoice dm.exe of May.md"),  # a right-to-left override, runs of spaces
])
def test_an_upload_is_named_by_the_base_name_sent_cleaned_and_capped(api, sent, stored):
    """The hostile names of the API probe: each accepted under a clean name of at most 160 characters, staged
    under a name of the store's own inside its uploads folder; never a 500."""
    from vera_core.store.jobs import JobQueue
    body = f"# Note {len(sent)}\n\nA note uploaded as {sent!r} about the weekly supplier review.\n".encode()
    sent_back = api.client("bob").post("/documents", files={"file": (sent, body, "text/markdown")})
    assert sent_back.status_code == 202, sent_back.text
    job = JobQueue(api.ws.catalog).get(sent_back.json()["job"]["job_id"])
    assert job.name == stored
    staged = Path(job.path)
    assert staged.parent == api.ws.uploads_dir and staged.suffix == ".md" and len(staged.name) < 40


@pytest.mark.parametrize("header", ["Basic {token}", "{token}", "Token {token}", "Bearer", ""])
def test_only_a_bearer_token_is_accepted(api, header):
    import httpx
    value = header.format(token=api.tokens["bob"])
    response = httpx.get(f"{api.url}/documents", headers={"Authorization": value} if value else {})
    assert response.status_code == 401 and response.json()["field"] == "Authorization"
    assert "Authorization: Bearer <token>" in response.json()["error"]


def test_a_tokens_last_use_is_kept(api):
    import httpx
    access = AccessStore(api.ws.catalog)
    token_id, token = access.create_token("bob", ["policies"])
    assert next(t for t in access.tokens() if t["token_id"] == token_id)["last_used_at"] is None
    assert httpx.get(f"{api.url}/documents", headers={"Authorization": f"bearer {token}"}).status_code == 200
    from datetime import UTC, datetime
    used = next(t for t in access.tokens() if t["token_id"] == token_id)["last_used_at"]
    assert used and abs((datetime.now(UTC) - datetime.fromisoformat(used)).total_seconds()) < 300
