"""Who may read what, in the app (issue 21): once the store has users, a session sees nothing until it
signs in; signed in with bob's token (collection `policies`), no page (Ask, Documents, Facts) shows,
searches, cites or names the sample report (alice's collection `finance`) or a policy in no collection."""

from __future__ import annotations

import pytest

from tests.app_harness import ask, start
from tests.conftest import SAMPLE_PDF, SAMPLES, settings_for
from vera_core.store.access import AccessStore
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace

POLICY, OTHER = "acceptable_use_policy.md", "expense_policy.md"
HIDDEN = ("Aurora", "expense_policy", "Expense Policy", "Nordlicht")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    ws = Workspace(settings_for(tmp_path_factory.mktemp("app-access") / "store"))
    for path in (SAMPLE_PDF, SAMPLES / POLICY, SAMPLES / OTHER):
        assert Ingestor(ws).ingest_file(path).status == "ingested"
    access = AccessStore(ws.catalog)
    names = {d.name: d.doc_id for d in ws.catalog.documents()}
    tokens = {}
    for user, collection, doc in (("alice", "finance", SAMPLE_PDF.name), ("bob", "policies", POLICY)):
        access.create_collection(collection)
        access.add_documents(collection, [names[doc]])
        access.add_user(user)
        tokens[user] = access.create_token(user, [collection])[1]
    ws.tokens = tokens
    return ws


def shown(at) -> str:
    """Everything the page shows as text, options and table cells included."""
    parts = []
    for kind in ("markdown", "caption", "text", "info", "success", "warning", "error", "subheader", "header",
                 "title", "code", "expander", "tabs"):
        parts += [str(getattr(e, "value", "") or getattr(e, "label", "")) for e in getattr(at, kind)]
    for kind in ("selectbox", "multiselect", "radio"):
        for element in getattr(at, kind):
            parts += [str(o) for o in element.options] + [str(element.label)]
    parts += [e.value.to_string() for e in at.dataframe]
    return "\n".join(parts)


def signed_in_as(monkeypatch, store, token: str):
    at = start(monkeypatch, store.data_dir)
    at.text_input[0].input(token)
    at.button[0].click().run()
    assert not at.exception, at.exception
    return at


def test_a_session_sees_nothing_before_it_signs_in(store, monkeypatch):
    at = start(monkeypatch, store.data_dir)
    assert any(s.value == "Sign in to VERA" for s in at.subheader)
    assert not at.chat_input
    for page in ("app_pages/ask.py", "app_pages/documents.py", "app_pages/facts.py"):
        at.switch_page(page).run()
        assert not at.exception and not at.chat_input
        text = shown(at)
        assert not any(h in text for h in HIDDEN + (POLICY,)), text


def test_a_wrong_token_is_refused(store, monkeypatch):
    at = signed_in_as(monkeypatch, store, "vera_not-a-token")
    assert any("not valid" in e.value for e in at.error) and not at.chat_input


@pytest.mark.parametrize("question", ["What was revenue in FY2024?", "What does page 4 say about the acquisition of Nordlicht?",
                                      "Which policies address expense reimbursement?", "List all significant events"])
def test_questions_in_the_app_read_only_the_users_documents(store, monkeypatch, question):
    at = signed_in_as(monkeypatch, store, store.tokens["bob"])
    ask(at, question)
    text = shown(at)  # NOTE: words of the question itself are echoed (escaped) on the page: not checked
    assert not [h for h in HIDDEN if h.lower() not in question.lower() and h in text], text


@pytest.mark.parametrize("page", ["app_pages/documents.py", "app_pages/facts.py", "app_pages/ask.py"])
def test_every_page_lists_only_the_users_documents(store, monkeypatch, page):
    at = signed_in_as(monkeypatch, store, store.tokens["bob"])
    at.switch_page(page).run()
    assert not at.exception, at.exception
    text = shown(at)
    assert not any(h in text for h in HIDDEN), text
    if page != "app_pages/facts.py":
        assert POLICY in text or "Acceptable Use" in text
    alice = signed_in_as(monkeypatch, store, store.tokens["alice"])
    alice.switch_page(page).run()
    assert "Aurora" in shown(alice) and POLICY not in shown(alice)
