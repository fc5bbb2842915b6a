"""Where the financial statements state facts outside the front matter.

Two places, read for the facts they state and only for those:

- the primary statements (income statement, balance sheet, statements of comprehensive income, cash
  flows and equity): their scale lines ("(In millions, except per share data)", "(Millions)",
  "(in thousands of U.S. dollars)", "EUR thousand", "$ in millions") state the units and, when they
  name one, the currency of every figure in the statements. They are read for `LEGEND_FACTS`, and
  their legends outrank other tables' (`patterns.TIER_STATEMENT`): a note table "(in thousands)"
  states the unit of that table only, a statement's legend that of the statements.
- the auditor's opinion ("present fairly, in all material respects, ... in conformity with U.S.
  generally accepted accounting principles"; "give a true and fair view ... in accordance with
  IFRS"), read for the accounting framework.

A primary statement is a table whose caption or heading is a statement title, or which follows a
short text chunk starting with one (a title the parser did not attach as a caption); notes are
never statements, even when a note table is captioned "Statement of Cash Flows". Statements of the
parent company alone (Schedule I) are not the primary statements either.
"""

from __future__ import annotations

from collections.abc import Sequence

from vera_core.finance.statements import NOTE_HEADING, is_statement_title
from vera_core.records import ChunkRecord

__all__ = ["LEGEND_FACTS", "OPINION_PHRASES", "auditor_opinions", "is_statement_title", "primary_statements",
           "statement_scope"]

LEGEND_FACTS = ("units", "default_currency")
"""Facts read from the primary statements' scale lines."""
OPINION_PHRASES = ("present fairly", "true and fair view")
"""A text chunk containing one of these is (part of) an auditor's opinion."""
MAX_LEAD_IN = 300
"""Longest text chunk (characters) read as the title block of the statement table that follows it."""

def primary_statements(ordered: Sequence[ChunkRecord]) -> list[ChunkRecord]:
    """The tables of the primary statements, each with the short title chunk before it if there is
    one, in document order (`ordered` is all of a document's chunks by position)."""
    keep: list[ChunkRecord] = []
    for i, chunk in enumerate(ordered):
        if chunk.kind != "table" or any(NOTE_HEADING.match(t) for t in chunk.heading_titles):
            continue
        before = ordered[i - 1] if i else None
        lead_in = (before is not None and before.kind == "text" and len(before.text) <= MAX_LEAD_IN
                   and before.page_end == chunk.page_start and is_statement_title(before.text.split("\n", 1)[0]))
        titled = is_statement_title(chunk.caption) or (
            bool(chunk.heading_titles) and is_statement_title(chunk.heading_titles[-1]))
        if lead_in:
            keep.append(before)
        if lead_in or titled:
            keep.append(chunk)
    return list({c.chunk_id: c for c in keep}.values())


def auditor_opinions(ordered: Sequence[ChunkRecord]) -> list[ChunkRecord]:
    """The text chunks holding an auditor's opinion on the financial statements, in document order."""
    return [c for c in ordered if c.kind == "text"
            and any(p in " ".join(c.text.lower().split()) for p in OPINION_PHRASES)]


def statement_scope(ordered: Sequence[ChunkRecord], names: Sequence[str]) -> dict[str, list[ChunkRecord]]:
    """The chunks read for each of the facts `names` beyond the front matter: the primary statements
    for `LEGEND_FACTS`, the auditor's opinion for `accounting_framework`; other facts have none."""
    scope: dict[str, list[ChunkRecord]] = {}
    if any(name in LEGEND_FACTS for name in names):
        scope.update(dict.fromkeys(LEGEND_FACTS, primary_statements(ordered)))
    if "accounting_framework" in names:
        scope["accounting_framework"] = auditor_opinions(ordered)
    return scope
