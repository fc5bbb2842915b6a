"""Behind the team proxy (issue 21): with VERA_TRUSTED_USER_HEADER set, a session the proxy names a
known user in that header is signed in at once; one without the header, or naming nobody VERA knows,
gets the sign-in form and no question box. Sessions speak the app's own websocket protocol, so they
can send the header as the proxy would."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import ROOT, SAMPLES, settings_for
from vera_core.store.access import AccessStore
from vera_bench.app_server import start_app
from vera_bench.stream_session import StreamSession
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace

HEADER = "X-Forwarded-User"


async def _opens(url: str, headers: dict[str, str]) -> bool:
    session = StreamSession(url, headers=headers)
    try:
        await session.open(timeout_s=120)
    except RuntimeError as exc:
        assert "drew no question box" in str(exc)
        return False
    try:
        await session.ask("What is the approval limit for expenses?")
    finally:
        await session.close()
    return True


def test_the_proxys_user_header_signs_a_session_in(tmp_path):
    ws = Workspace(settings_for(tmp_path / "store"))
    assert Ingestor(ws).ingest_file(SAMPLES / "expense_policy.md").status == "ingested"
    access = AccessStore(ws.catalog)
    access.create_collection("hr")
    access.add_documents("hr", [ws.catalog.documents()[0].doc_id])
    access.add_user("carol")
    access.create_token("carol", ["hr"])
    with start_app(ws.data_dir, log=ROOT / "test-artifacts" / "trusted-header-streamlit.log",
                   env={"VERA_TRUSTED_USER_HEADER": HEADER, "VERA_EMBED_WORKERS": "1"}) as server:
        assert asyncio.run(_opens(server.url, {HEADER: "carol"}))
        assert not asyncio.run(_opens(server.url, {}))
        assert not asyncio.run(_opens(server.url, {HEADER: "mallory"}))
