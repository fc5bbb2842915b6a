"""`vera collections`, `vera users` and `vera tokens` (issue 21): an administrator defines who may read
what from the command line; a token is printed once, authenticates, reads its collections, and stops
working once revoked."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SAMPLES
from vera_core.store.access import AccessError, AccessStore
from vera_core.cli.main import main
from vera_core.ingest.service import Ingestor


def test_an_administrator_defines_collections_users_and_tokens(empty_store, capsys):
    Ingestor(empty_store).ingest_file(SAMPLES / "expense_policy.md")
    store = ["--data-dir", str(empty_store.data_dir)]
    assert main([*store, "collections", "create", "hr"]) == 0
    assert main([*store, "collections", "add", "hr", "expense_policy"]) == 0
    assert main([*store, "users", "add", "carol"]) == 0
    capsys.readouterr()
    assert main([*store, "collections", "list"]) == 0
    assert capsys.readouterr().out.strip() == "hr: expense_policy.md"
    assert main([*store, "tokens", "create", "carol", "--collection", "hr"]) == 0
    printed = capsys.readouterr().out
    token = next(line for line in printed.splitlines() if line.startswith("vera_"))
    assert "shown this once" in printed
    access = AccessStore(empty_store.catalog)
    who = access.authenticate(token)
    assert who.user == "carol" and access.readable(who) == {empty_store.catalog.documents()[0].doc_id}
    assert token not in json.dumps(access.tokens())  # only its hash is stored
    assert main([*store, "tokens", "list"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(t["user_name"], t["collections"]) for t in listed] == [("carol", ["hr"])]
    assert main([*store, "tokens", "revoke", listed[0]["token_id"]]) == 0
    with pytest.raises(AccessError, match="not valid"):
        access.authenticate(token)
    assert main([*store, "tokens", "create", "dave", "--collection", "hr"]) == 2  # no such user
    assert "No user 'dave'" in capsys.readouterr().err
