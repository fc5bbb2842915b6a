"""The rows of a table that hold a value the question names: "Which record series on the retention schedule
carry a 7-year retention period?" over a schedule whose "Retention period" column prints "7 years" in four
of its rows is those four rows, each cited to its row; "which systems are Tier 1?" lists the systems whose
tier cell says "Tier 1".

A value is a duration ("7-year", "30 days", "24 hours") or a cell's own short text that the question uses
as whole words. The rows chosen hold it in a cell other than their label, and they are some of the table's
rows, never all of them (a value every row holds filters nothing)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from vera_core.answer.list_shape import MIN_ITEMS, ListAnswer, asks_one_fact, hit_grids, list_object, row_piece, table_section
from vera_core.records import ChunkRecord, TableGrid
from vera_core.text import CONTENT_STOPWORDS

__all__ = ["rows_holding"]

_DURATION = re.compile(r"\b(\d+(?:\.\d+)?)\s*[- ]?\s*(?:(business|working|calendar)\s+)?"
                       r"(year|yr|month|week|day|hour|hr|minute|min)s?\b", re.I)
_UNIT = {"yr": "year", "hr": "hour", "min": "minute"}
_ASKS_WHICH = re.compile(r"\b(?:which|what|list|name)\b", re.I)
MAX_VALUE_WORDS = 3
"""A cell's text is a value the question can name when it is this short ("Tier 1", "Permanent", "High")."""


def _durations(text: str) -> set[str]:
    return {f"{float(n):g} {(kind or '').lower()} {_UNIT.get(u.lower(), u.lower())}".replace("  ", " ")
            for n, kind, u in _DURATION.findall(text)}


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


def rows_holding(question: str, hits: Sequence[ChunkRecord], doc_grids) -> ListAnswer | None:
    """The rows of the best hits' first table that hold a value the question names, when they are some of
    its rows (at least one, not all); None otherwise. `doc_grids(doc_id)`: a document's table grids."""
    if asks_one_fact(question) or not (list_object(question) or _ASKS_WHICH.search(question)):
        return None
    asked_durations = _durations(question)
    said = _words(question)
    for grid, chunk in hit_grids(hits, doc_grids):
        found = _rows(grid, chunk, asked_durations, said)
        if found is not None:
            return found
    return None


STEM_PREFIX = 5
"""Two words of one stem share at least this many leading letters ("overwrite" / "overwritten", "deletion" /
"deleted")."""


def _said_in_other_forms(text: str, said: str) -> bool:
    """Whether every word of a cell of two or more words is said by the question in some form and order ("Automatic
    deletion" in "deleted or overwritten automatically")."""
    cell = [w for w in _words(text).split() if w not in CONTENT_STOPWORDS]
    asked = [w for w in said.split() if len(w) >= STEM_PREFIX]
    return len(cell) >= 2 and all(len(w) >= STEM_PREFIX and any(a[:STEM_PREFIX] == w[:STEM_PREFIX] and (
        a.startswith(w[:-2]) or w.startswith(a[:-2])) for a in asked) for w in cell)


def _rows(grid: TableGrid | None, chunk: ChunkRecord, durations: set[str], said: str) -> ListAnswer | None:
    if grid is None or grid.status != "parsed" or len(grid.header) < 2:
        return None
    rows = {r: cells for r, cells in sorted(grid.rows().items())
            if any(c.col == 0 and c.row_label.strip() for c in cells)}
    headers = _words(" ".join(grid.header))
    matched: dict[int, list] = {}
    for r, cells in rows.items():
        for cell in cells:
            text = cell.printed.strip()
            if cell.col == 0 or not text:
                continue
            if durations & _durations(text) or (
                    not _durations(text) and len(text.split()) <= MAX_VALUE_WORDS
                    and set(_words(text).split()) - CONTENT_STOPWORDS  # "All", "No", "—" name no value
                    and (_words(text) in said or _said_in_other_forms(text, said)) and _words(text) not in headers):
                matched.setdefault(r, []).append(cell)
    by_words = not any(durations & _durations(c.printed) for cells in matched.values() for c in cells)
    if not matched or len(matched) == len(rows) or (len(matched) < MIN_ITEMS and (by_words or len(rows) < 3)):
        return None  # NOTE: a word that one row's cell holds ("Restricted") may be the topic, not a filter
    items = [row_piece(rows[r], chunk) for r in matched]
    value = "; ".join(sorted({c.printed.strip() for cells in matched.values() for c in cells}))
    return ListAnswer(f"{grid.header[0]} with {value}", tuple(items), table_section(chunk))
