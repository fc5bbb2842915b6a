"""Collections, users and API tokens in the catalog.

A token is shown once, when created (`vera tokens create`), and stored as its SHA-256: tokens are 256
random bits, so a fast hash is as safe as a slow one and checking one costs microseconds on every
request. With no user defined the store is one analyst's: every caller reads every document. Once a
user exists, every caller must present a token, and reads the documents of the token's collections."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from vera_core.errors import VeraError
from vera_core.store.db import execute

if TYPE_CHECKING:  # NOTE: the catalog's schema reads this module's tables: the catalog itself only for types
    from vera_core.store.catalog import Catalog

TOKEN_PREFIX = "vera_"
MIGRATION_SQL = """
        CREATE TABLE collections (
            name TEXT PRIMARY KEY,
            created_at TEXT NOT NULL
        );
        CREATE TABLE collection_documents (
            collection TEXT NOT NULL,
            doc_id TEXT NOT NULL,
            joined TEXT NOT NULL DEFAULT 'added',
            PRIMARY KEY (collection, doc_id)
        );
        CREATE INDEX collection_documents_doc ON collection_documents(doc_id);
        CREATE TABLE users (
            name TEXT PRIMARY KEY,
            created_at TEXT NOT NULL
        );
        CREATE TABLE api_tokens (
            token_id TEXT PRIMARY KEY,
            token_hash TEXT NOT NULL UNIQUE,
            user_name TEXT NOT NULL,
            created_at TEXT NOT NULL,
            last_used_at TEXT,
            revoked_at TEXT
        );
        CREATE TABLE token_collections (
            token_id TEXT NOT NULL,
            collection TEXT NOT NULL,
            PRIMARY KEY (token_id, collection)
        )
    """
"""The access tables (catalog migration 8): every statement on them is here, as the grids' are in grids.py."""
CONTRACT: dict[str, tuple[str, ...]] = {
    "collections": ("name", "created_at"),
    "collection_documents": ("collection", "doc_id", "joined"),
    "users": ("name", "created_at"),
    "api_tokens": ("token_id", "token_hash", "user_name", "created_at", "last_used_at", "revoked_at"),
    "token_collections": ("token_id", "collection"),
}
"""The access tables' columns the code reads and writes (part of the catalog's schema contract)."""


class AccessError(VeraError):
    """A caller without a valid token, or asking for what its token may not read."""


@dataclass(frozen=True)
class Principal:
    """Who is asking: a user and the collections their token may read (`everything` in an open store)."""

    user: str
    collections: frozenset[str]
    everything: bool = False
    token_id: str = ""


USED_EVERY = timedelta(minutes=1)
"""How often a token's `last_used_at` is written at most (it says when, to the minute)."""
OPEN = Principal("", frozenset(), everything=True)
"""The caller of a store with no users: one analyst, who reads everything."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class AccessStore:
    """The access tables of one store's catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._last_written: dict[str, datetime] = {}

    # -- collections -------------------------------------------------------------------------------

    def create_collection(self, name: str) -> None:
        if not name or not name.replace("-", "").replace("_", "").isalnum():
            raise VeraError(f"{name!r} is not a collection name: use letters, digits, - and _.")
        with self.catalog.transaction() as conn:
            execute(conn, "INSERT INTO collections VALUES (:name, :now) ON CONFLICT (name) DO NOTHING",
                    {"name": name, "now": _now()})

    def collections(self) -> dict[str, list[str]]:
        """Each collection's document ids."""
        found: dict[str, list[str]] = {r["name"]: [] for r in self.catalog.query("SELECT name FROM collections ORDER BY name")}
        for row in self.catalog.query("SELECT collection, doc_id FROM collection_documents ORDER BY collection, doc_id"):
            found.setdefault(row["collection"], []).append(row["doc_id"])
        return found

    def add_documents(self, collection: str, doc_ids: list[str], *, joined: str = "added") -> None:
        """Put documents in a collection. `joined`: how: `added` by an administrator, `ingested` (the
        document was first stored through an upload into it), `shared` (an upload of bytes the store
        already held for others: the uploader holds the file, so they read its document too)."""
        self._known_collection(collection)
        with self.catalog.transaction() as conn:
            execute(conn, "INSERT INTO collection_documents (collection, doc_id, joined) VALUES (:c, :doc_id, :joined)"
                          " ON CONFLICT DO NOTHING", [{"c": collection, "doc_id": d, "joined": joined} for d in doc_ids])

    def remove_documents(self, collection: str, doc_ids: list[str]) -> None:
        with self.catalog.transaction() as conn:
            execute(conn, "DELETE FROM collection_documents WHERE collection = :c AND doc_id IN :ids",
                    {"c": collection, "ids": doc_ids}, expanding=("ids",))

    def forget_document(self, doc_id: str) -> None:
        """A deleted document leaves every collection."""
        with self.catalog.transaction() as conn:
            execute(conn, "DELETE FROM collection_documents WHERE doc_id = :doc_id", {"doc_id": doc_id})

    def _known_collection(self, name: str) -> None:
        if not self.catalog.query("SELECT 1 FROM collections WHERE name = :name", {"name": name}):
            raise VeraError(f"No collection {name!r}: create it with `vera collections create {name}`.")

    # -- users and tokens --------------------------------------------------------------------------

    def add_user(self, name: str) -> None:
        if not name.strip():
            raise VeraError("A user needs a name.")
        with self.catalog.transaction() as conn:
            execute(conn, "INSERT INTO users VALUES (:name, :now) ON CONFLICT (name) DO NOTHING",
                    {"name": name.strip(), "now": _now()})

    def users(self) -> list[str]:
        return [r["name"] for r in self.catalog.query("SELECT name FROM users ORDER BY name")]

    def has_users(self) -> bool:
        return bool(self.catalog.query("SELECT 1 FROM users LIMIT 1"))

    def create_token(self, user: str, collections: list[str]) -> tuple[str, str]:
        """A new token for `user` reading `collections`: (token_id, the token, shown this once)."""
        if not self.catalog.query("SELECT 1 FROM users WHERE name = :name", {"name": user}):
            raise VeraError(f"No user {user!r}: add them with `vera users add {user}`.")
        if not collections:
            raise VeraError("A token reads at least one collection: name it with --collection.")
        for name in collections:
            self._known_collection(name)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token_id = secrets.token_hex(4)
        with self.catalog.transaction() as conn:
            execute(conn, "INSERT INTO api_tokens (token_id, token_hash, user_name, created_at) VALUES"
                          " (:id, :hash, :user, :now)", {"id": token_id, "hash": token_hash(token), "user": user,
                                                         "now": _now()})
            execute(conn, "INSERT INTO token_collections VALUES (:id, :c)",
                    [{"id": token_id, "c": c} for c in sorted(set(collections))])
        return token_id, token

    def revoke(self, token_id: str) -> None:
        with self.catalog.transaction() as conn:
            done = execute(conn, "UPDATE api_tokens SET revoked_at = :now WHERE token_id = :id", {"id": token_id, "now": _now()})
            if not done.rowcount:
                raise VeraError(f"No token {token_id!r}: `vera tokens list` shows each token's id.")

    def tokens(self) -> list[dict]:
        rows = self.catalog.query("SELECT token_id, user_name, created_at, last_used_at, revoked_at FROM api_tokens"
                                  " ORDER BY created_at, token_id")
        grants = {}
        for row in self.catalog.query("SELECT token_id, collection FROM token_collections ORDER BY collection"):
            grants.setdefault(row["token_id"], []).append(row["collection"])
        return [{**dict(r), "collections": grants.get(r["token_id"], [])} for r in rows]

    def authenticate(self, token: str | None) -> Principal:
        """The caller a token names: OPEN when the store has no users; else the token's user and
        collections. Raises AccessError for a missing, unknown or revoked token."""
        if not self.has_users():
            return OPEN
        if not token:
            raise AccessError("This VERA store has users: send an API token (Authorization: Bearer <token>).")
        rows = self.catalog.query("SELECT token_id, user_name, revoked_at FROM api_tokens WHERE token_hash = :hash",
                                  {"hash": token_hash(token)})
        if not rows or rows[0]["revoked_at"]:
            raise AccessError("The API token is not valid (unknown or revoked).")
        token_id = rows[0]["token_id"]
        self._used(token_id)
        collections = frozenset(r["collection"] for r in self.catalog.query(
            "SELECT collection FROM token_collections WHERE token_id = :id", {"id": token_id}))
        return Principal(rows[0]["user_name"], collections, token_id=token_id)

    def _used(self, token_id: str) -> None:
        """Keep the token's `last_used_at` (written at most once a minute a token: not a write per request)."""
        now = datetime.now(UTC)
        if (now - self._last_written.get(token_id, now - USED_EVERY)) < USED_EVERY:
            return
        with self.catalog.transaction() as conn:
            execute(conn, "UPDATE api_tokens SET last_used_at = :now WHERE token_id = :id", {"id": token_id, "now": _now()})
        self._last_written[token_id] = now

    def principal_of_user(self, user: str) -> Principal:
        """A user signed in by the team proxy (a trusted header): every collection of their live tokens."""
        rows = self.catalog.query(
            "SELECT DISTINCT tc.collection FROM token_collections tc JOIN api_tokens t ON t.token_id = tc.token_id"
            " WHERE t.user_name = :user AND t.revoked_at IS NULL", {"user": user})
        if not self.catalog.query("SELECT 1 FROM users WHERE name = :user", {"user": user}):
            raise AccessError(f"No VERA user {user!r}.")
        return Principal(user, frozenset(r["collection"] for r in rows))

    def withdraw(self, principal: Principal, doc_id: str) -> bool:
        """A caller deletes a document: True when it is to be deleted from the store (it is in the caller's
        collections only); False when it also belongs to collections the caller does not read, or to none
        (an administrator's), so it only leaves the caller's: one user's delete never takes a document
        from anyone else."""
        if principal.everything:
            return True
        rows = self.catalog.query("SELECT collection, joined FROM collection_documents WHERE doc_id = :doc_id",
                                  {"doc_id": doc_id})
        mine = [r for r in rows if r["collection"] in principal.collections]
        others = [r for r in rows if r["collection"] not in principal.collections]
        # NOTE: a document the caller only joined by uploading bytes the store already held was not theirs
        if mine and not others and any(r["joined"] != "shared" for r in mine):
            return True
        for row in mine:
            self.remove_documents(row["collection"], [doc_id])
        return False

    def holders(self, doc_id: str) -> set[str]:
        return {r["collection"] for r in self.catalog.query(
            "SELECT collection FROM collection_documents WHERE doc_id = :doc_id", {"doc_id": doc_id})}

    def readable(self, principal: Principal) -> frozenset[str] | None:
        """The document ids the caller may read; None: every document (an open store)."""
        if principal.everything:
            return None
        if not principal.collections:
            return frozenset()
        return frozenset(r["doc_id"] for r in self.catalog.query(
            "SELECT DISTINCT doc_id FROM collection_documents WHERE collection IN :names",
            {"names": sorted(principal.collections)}, expanding=("names",)))
