"""Which embedding model made the store's vectors (`vector_spaces`), and which documents a new model
has re-embedded so far (`space_documents`).

A space is one Chroma collection of one model's vectors. The `active` space is the store's: ingestion
embeds into it, and a document in it is dense-searchable once its stage is `complete`. `vera reembed`
opens a `building` space for another model; a document is in it once all its new vectors are written
(a `space_documents` row). When every document is, the building space becomes the active one in one
transaction and the old one is `retired` (its collection then deleted). A process whose model is
neither finds no space: its dense search is off, and says why."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from vera_core.records import ModelIdentity
from vera_core.store.catalog import Catalog
from vera_core.store.db import execute

SpaceState = Literal["active", "building", "retired"]


@dataclass(frozen=True)
class Space:
    collection: str
    model: ModelIdentity
    state: SpaceState
    created_at: str
    activated_at: str | None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _space(row) -> Space:
    return Space(row["collection"], ModelIdentity(row["model_name"], row["model_version"], int(row["dimension"])),
                 row["state"], row["created_at"], row["activated_at"])


class VectorSpaces:
    """The vector spaces of one store's catalog; each method is one short transaction."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def spaces(self) -> list[Space]:
        """The active and building spaces (retired ones are history)."""
        return [_space(r) for r in self.catalog.query(
            "SELECT * FROM vector_spaces WHERE state <> 'retired' ORDER BY created_at, collection")]

    def active(self) -> Space | None:
        return next((s for s in self.spaces() if s.state == "active"), None)

    def building(self) -> Space | None:
        return next((s for s in self.spaces() if s.state == "building"), None)

    def adopt(self, collection: str, model: ModelIdentity) -> Space:
        """The active space; a store that records none (new, or from before schema 7) takes `collection`
        as `model`'s: the vectors it holds were made by the model its processes load."""
        now = _now()
        with self.catalog.transaction() as conn:
            if not execute(conn, "SELECT 1 FROM vector_spaces WHERE state = 'active'").fetchall():
                execute(conn, "INSERT INTO vector_spaces VALUES (:c, :name, :version, :dim, 'active', :now, :now)"
                              " ON CONFLICT (collection) DO NOTHING",
                        {"c": collection, "name": model.name, "version": model.version, "dim": model.dimension,
                         "now": now})
        return self.active()

    def start_building(self, base: str, model: ModelIdentity) -> Space:
        """The building space for `model` (one is opened, named after the store's collection and the
        model's version; a building space of another model is dropped first)."""
        collection = f"{base[:44]}_{model.version}"
        with self.catalog.transaction() as conn:
            for row in execute(conn, "SELECT collection, model_version FROM vector_spaces WHERE state = 'building'"
                               ).mappings().fetchall():
                if row["model_version"] != model.version:
                    execute(conn, "DELETE FROM space_documents WHERE collection = :c", {"c": row["collection"]})
                    execute(conn, "UPDATE vector_spaces SET state = 'retired' WHERE collection = :c",
                            {"c": row["collection"]})
            execute(conn, "INSERT INTO vector_spaces VALUES (:c, :name, :version, :dim, 'building', :now, NULL)"
                          " ON CONFLICT (collection) DO UPDATE SET state = 'building', activated_at = NULL",
                    {"c": collection, "name": model.name, "version": model.version, "dim": model.dimension,
                     "now": _now()})
        return self.building()

    def embedded(self, collection: str) -> set[str]:
        """Documents whose vectors in the building space `collection` are all written."""
        return {r["doc_id"] for r in self.catalog.query(
            "SELECT doc_id FROM space_documents WHERE collection = :c", {"c": collection})}

    def mark(self, collection: str, doc_id: str) -> None:
        with self.catalog.transaction() as conn:
            execute(conn, "INSERT INTO space_documents VALUES (:c, :doc_id, :now) ON CONFLICT DO NOTHING",
                    {"c": collection, "doc_id": doc_id, "now": _now()})

    def forget(self, doc_id: str) -> None:
        """A deleted document leaves every space."""
        with self.catalog.transaction() as conn:
            execute(conn, "DELETE FROM space_documents WHERE doc_id = :doc_id", {"doc_id": doc_id})

    def missing(self, collection: str) -> list[str]:
        """Visible documents not yet re-embedded into the building space `collection`."""
        return [r["doc_id"] for r in self.catalog.query(
            "SELECT doc_id FROM documents WHERE status = 'ready' AND doc_id NOT IN"
            " (SELECT doc_id FROM space_documents WHERE collection = :c) ORDER BY name, doc_id", {"c": collection})]

    def switch(self, collection: str) -> Space | None:
        """Make the building space `collection` the active one if every document is in it; returns the
        space retired (its collection is the caller's to delete), None when documents are missing."""
        with self.catalog.transaction() as conn:
            missing = execute(conn, "SELECT COUNT(*) FROM documents WHERE status = 'ready' AND doc_id NOT IN"
                                    " (SELECT doc_id FROM space_documents WHERE collection = :c)",
                              {"c": collection}).scalar()
            if missing:
                return None
            old = execute(conn, "SELECT * FROM vector_spaces WHERE state = 'active'").mappings().fetchall()
            execute(conn, "UPDATE vector_spaces SET state = 'retired' WHERE state = 'active'")
            execute(conn, "UPDATE vector_spaces SET state = 'active', activated_at = :now WHERE collection = :c",
                    {"c": collection, "now": _now()})
            # NOTE: documents ingested by this model's workers while it was building are complete now
            execute(conn, "UPDATE documents SET stage = 'complete' WHERE status = 'ready' AND doc_id IN"
                          " (SELECT doc_id FROM space_documents WHERE collection = :c)", {"c": collection})
            execute(conn, "DELETE FROM space_documents WHERE collection = :c", {"c": collection})
        return _space(old[0]) if old else None

    def fingerprint(self) -> tuple:
        """What another process may change: the spaces and how far the building one is."""
        rows = self.catalog.query("SELECT collection, state FROM vector_spaces ORDER BY collection")
        done = self.catalog.query("SELECT COUNT(*) AS n FROM space_documents")[0]["n"]
        return tuple((r["collection"], r["state"]) for r in rows) + (done,)
