"""What each table of a document is to a figure question: one of the primary statements of the
reporting entity, or something else (a note, a segment or quarterly table, selected data, a
supplementary schedule, the parent company alone, another registrant's statements, a release's
highlights, a table of the MD&A).

A primary line item ("total assets", "net income") is answered from a primary statement only; every
other table can corroborate it, never answer it (`gates.py`). Rules (each a filing convention):
- A primary statement is a table a statement's title names: its caption, its title, or the nearest
  heading that names a statement (`finance.statements.statement_titled`, which already refuses
  titles of notes, selections, supplements, pro forma and parent-only schedules). A table that only
  its rows make look like a statement (selected data, MD&A tables, a release's highlights) is not one.
- Filings of two registrants (a holding company and its utility; a REIT and its operating
  partnership) print two sets of statements, each titled with its entity's name. The reporting
  entity's come first (the cover names it first); another entity's statements are not its figures.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from vera_core.finance.statements import STATEMENT_WORDS, statement_titled
from vera_core.records import ChunkRecord, TableGrid

__all__ = ["Role", "Source", "table_sources"]

Role = Literal["statement", "other_entity", "other"]

ENTITY_SUFFIX = re.compile(r"\b(?:inc|incorporated|corp|corporation|company|co|llc|l\.?p|limited\s+partnership|plc|"
                           r"ltd|limited|holdings|group|s\.?a|a\.?g|n\.?v)\b\.?\s*$", re.I)
"""A title naming a company ends with one of these ("PG&E Corporation", "Boston Properties Limited Partnership")."""
MAX_ENTITY_WORDS = 8


@dataclass(frozen=True)
class Source:
    """A table as a source of figures."""

    role: Role
    """`statement`: a primary statement of the reporting entity; `other_entity`: another registrant's
    statement; `other`: notes, segment, quarterly, selected, supplementary, MD&A and release tables."""
    statement: str
    """The statement kind when the table is one (`income`, `balance`, ...), else ''."""
    entity: str = ""
    """The entity its title names, normalised ('' when it names none)."""
    why: str = ""
    """Why a statement-like table is not a primary statement ('selected data', 'another entity: ...')."""


def entity_of(title: str) -> str:
    """The entity a statement's title names before the statement words ("PG&E CORPORATION CONSOLIDATED
    STATEMENTS OF INCOME" -> "pg&e corporation"); '' when it names none."""
    head = STATEMENT_WORDS.split(title, maxsplit=1)[0] if STATEMENT_WORDS.search(title) else title
    head = re.sub(r"\s+", " ", head).strip(" ,.-–—:").lower()
    head = re.sub(r",?\s+and\s+(?:its\s+)?(?:consolidated\s+)?subsidiaries$", "", head)
    if not head or len(head.split()) > MAX_ENTITY_WORDS or not ENTITY_SUFFIX.search(head):
        return ""
    return re.sub(r"[.,]", "", head)


def same_entity(a: str, b: str) -> bool:
    """Whether two titles name the same entity: one name ends with the other ("item 1 financial statements
    salesforce inc" and "salesforce inc"; not "boston properties limited partnership" and "boston properties inc")."""
    return a == b or a.endswith(" " + b) or b.endswith(" " + a)


def _titles(chunk: ChunkRecord, grid: TableGrid) -> list[str]:
    return [t for t in (chunk.caption, grid.title, *reversed(chunk.heading_titles)) if t]


def _entity(chunk: ChunkRecord, grid: TableGrid) -> str:
    """The entity named by the caption, else by the nearest heading that is only a company's name."""
    for text in _titles(chunk, grid):
        found = entity_of(text)
        if found:
            return found
    return ""


def table_sources(grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord]) -> dict[str, Source]:
    """chunk_id -> Source for every parsed grid of the documents in `grids` whose chunk is known."""
    out: dict[str, Source] = {}
    for doc_grids in grids.values():
        out.update(_document_sources(doc_grids, chunks))
    return out


TITLE_PREFIX_WORDS = re.compile(r"\b(?:in|on|of|to|for|from|by|with|as)\b", re.I)
"""A statement's title may follow a company's name or an Item's, never a phrase ("Fair Values of
Derivative Instruments Designated as Hedges in Consolidated Balance Sheets" is a note's title)."""


def titled_as(text: str) -> str | None:
    """The statement a title names when it is that statement's title, not a phrase mentioning it."""
    kind = statement_titled(text) if text else None
    if not kind:
        return kind
    found = STATEMENT_WORDS.search(text)
    prefix = text[:found.start()] if found else ""
    if len(prefix.split()) > MAX_ENTITY_WORDS or TITLE_PREFIX_WORDS.search(prefix):
        return None
    return kind


def _named_by(chunk: ChunkRecord, grid: TableGrid) -> str:
    """The statement a table's own title names: its caption or title (or a header row that prints
    it), else the nearest heading that names one; '' when only its rows make it look like a statement."""
    for text in (chunk.caption, grid.title, *grid.header[:2], *reversed(chunk.heading_titles)):
        kind = titled_as(text)
        if kind is not None:
            return kind
    return ""


def _document_sources(grids: Iterable[TableGrid], chunks: Mapping[str, ChunkRecord]) -> dict[str, Source]:
    ordered = sorted(((chunks[g.chunk_id], g) for g in grids if g.status == "parsed" and g.chunk_id in chunks),
                     key=lambda cg: cg[0].position)
    out: dict[str, Source] = {}
    primary_entity: str | None = None
    for chunk, grid in ordered:
        if not grid.statement:
            out[chunk.chunk_id] = Source("other", "")
            continue
        if _named_by(chunk, grid) != grid.statement:
            out[chunk.chunk_id] = Source("other", grid.statement, why="a table only its rows make look like a statement")
            continue
        entity = _entity(chunk, grid)
        if primary_entity is None and entity:
            primary_entity = entity
        if entity and primary_entity and not same_entity(entity, primary_entity):
            out[chunk.chunk_id] = Source("other_entity", grid.statement, entity, f"the statement of {entity}")
            continue
        out[chunk.chunk_id] = Source("statement", grid.statement, entity)
    return out
