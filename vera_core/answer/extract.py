"""Deterministic coverage extraction over a whole section: list items, numeric spans, items with
amounts. Every extracted piece keeps the chunk it came from, for its citation."""

from __future__ import annotations

import re
from collections.abc import Sequence

from vera_core.answer.compose import Piece
from vera_core.answer.outlines import LIST_WORDS, items_asked, read_outline
from vera_core.answer.series import inline_series
from vera_core.answer.units import Unit, score_unit, split_units
from vera_core.ingest.pdf_tables import markdown_rows, table_cells
from vera_core.records import ChunkRecord
from vera_core.text import terms

BULLET = re.compile(r"^\s*([•●▪◦■➢►✓*\-–—]|\(?\d{1,2}[.)]|\(?[a-z][.)]|\(?[ivx]{1,4}\))\s+", re.IGNORECASE)
AMOUNT = re.compile(
    r"(?:(?:USD|EUR|GBP|CHF|JPY|US\$|[$€£¥])\s?\(?\d[\d,]*(?:\.\d+)?\)?(?:\s?(?:million|billion|thousand|bn|mn|m|k)\b)?"
    r"|\(?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?(?:\s?(?:million|billion|thousand))?"
    r"|\d+(?:\.\d+)?\s?(?:million|billion|thousand)\b"
    r"|\(?\d+(?:\.\d+)?\)?\s?%)", re.IGNORECASE)
SCALED = r"(?:USD|EUR|GBP|US\$|[$€£])?\s?\d[\d,]*(?:\.\d+)?\s?(?:million|billion|thousand|bn|mn|m|%)?"
RANGE = re.compile(rf"(?:between|from|range of|ranging from)\s+(?P<low>{SCALED})\s+(?:and|to)\s+(?P<high>{SCALED})",
                   re.IGNORECASE)
DASH_RANGE = re.compile(rf"(?P<low>{SCALED})\s?[-–—]\s?(?P<high>{SCALED})")


def _paragraphs(chunk: ChunkRecord) -> list[str]:
    return [p.strip() for p in re.split(r"\n+", chunk.text) if p.strip()]


def _clean(text: str) -> str:
    return BULLET.sub("", text, count=1).replace("**", "").strip()


def list_items(scope: Sequence[ChunkRecord], scope_path: str, focus: str = "") -> list[Piece]:
    """Items of a section, by the first structure that yields any: the items under the outline item
    or lead-in the focus names (`outlines.items_asked`), the section's top-level list items, then
    sub-headings, then table rows, then paragraphs."""
    if _TABLE_ASKED.search(focus):
        entries = table_entries(scope)
        if entries:
            return entries
    outline = read_outline(scope)
    asked = items_asked(outline, focus, scope_path) if focus else None
    if asked:
        return [Piece(o.text, o.chunk, o.line) for o in asked]
    words = [w for w in re.findall(r"[A-Za-z][\w-]*", focus) if terms(w) and not terms(w) & LIST_WORDS]
    series = inline_series([u for c in scope if c.kind == "text" for u in split_units(c)], words[-1]) \
        if words else None
    if series is not None and series.counted:
        return [Piece(item, series.unit.chunk, series.unit.quote) for item in series.items]
    top = min((o.level for o in outline), default=0)
    bullets = [_titled(o.text, o.chunk, o.line) for o in outline if o.level == top and len(o.text) > 2]
    subheadings = _subheadings(scope, scope_path)
    # NOTE: a section of sub-headed parts ("### Stage 1 ...", "### Stage 2 ...") lists its parts; a list inside
    # one part is that part's (the certificates a supplier provides under "Stage 2 — Due diligence")
    in_parts = len(subheadings) >= 2 and bool(bullets) and all(b.chunk.heading_path != scope_path for b in bullets) \
        and not _part_named(subheadings, scope_path, focus)
    if bullets and not in_parts:
        return bullets
    if series is not None and not in_parts:
        return [Piece(item, series.unit.chunk, series.unit.quote) for item in series.items]
    if len(subheadings) >= 2:
        return subheadings
    rows = [Piece(u.text, u.chunk, u.quote) for c in scope if c.kind == "table" for u in split_units(c)]
    if rows:
        return rows
    titles = {c.heading_titles[-1] for c in scope if c.heading_titles}
    return [Piece(p, c, p) for c in scope if c.kind == "text" for p in _paragraphs(c) if p not in titles]


def _subheadings(scope: Sequence[ChunkRecord], scope_path: str) -> list[Piece]:
    """The section's direct sub-sections, each as its title and first paragraph."""
    depth = len(scope_path.split("/"))
    subheadings: list[Piece] = []
    seen: set[str] = set()
    for chunk in scope:
        parts = chunk.heading_path.split("/")
        if len(parts) > depth and parts[depth] not in seen:
            seen.add(parts[depth])
            first = _paragraphs(chunk)
            body = next((p for p in first if p != parts[depth]), "")
            text = f"{parts[depth]}: {body}" if body else parts[depth]
            subheadings.append(Piece(text, chunk, body or parts[depth]))
    return subheadings


def _part_named(parts: Sequence[Piece], scope_path: str, focus: str) -> bool:
    """Whether the focus names one sub-section by a word of its title that the other parts' titles do not share ("the
    recovery phase tasks": "13.5.2 Recovery Phase" among the Notification, Recovery and Reconstitution phases)."""
    depth = len(scope_path.split("/"))
    titles = [terms(part.chunk.heading_path.split("/")[depth]) for part in parts]
    shared = frozenset.intersection(*map(frozenset, titles))
    wanted = terms(focus)
    return any((title - shared) & wanted for title in titles)


_TABLE_ASKED = re.compile(r"\btables?\b", re.I)
"""A list question that names a table ("List all the systems covered by the table") lists its rows."""


def table_entries(scope: Sequence[ChunkRecord]) -> list[Piece]:
    """The entries a table lists: the first cell of each of its body rows (each cited with its row),
    from the first table of the scope that has any."""
    for chunk in scope:
        if chunk.kind != "table":
            continue
        rows = markdown_rows(chunk.text)
        entries = [Piece(first, chunk, line) for line in rows[1:]
                   if (first := table_cells(line)[0].replace("**", "").strip())]
        if entries:
            return entries
    return []


RUN_IN_MIN_WORDS = 70
"""A bullet this long is a titled paragraph: a filing's risk factor opens with its title sentence."""
RUN_IN_TITLE_MAX_WORDS = 60


def _titled(text: str, chunk: ChunkRecord, line: str) -> Piece:
    """A list item as the reader names it: a long bullet by its run-in title (its first sentence, which
    filings print in bold or italics: "Results are impacted by ... conditions."), else in full."""
    if len(text.split()) >= RUN_IN_MIN_WORDS:
        first = re.split(r"(?<=[.!?])\s+(?=[A-Z\u201c\"(])", text, maxsplit=1)[0]
        if first != text and len(first.split()) <= RUN_IN_TITLE_MAX_WORDS:
            return Piece(first, chunk, first)
    return Piece(text, chunk, line)


def numeric_spans(scope: Sequence[ChunkRecord], focus: str) -> list[Piece]:
    """Ranges ("between EUR 2.1 million and EUR 3.4 million", "$10-$20 million") in the scope,
    most relevant to the focus first."""
    wanted = terms(focus)
    found: list[tuple[float, int, Piece]] = []
    for chunk in scope:
        for unit in split_units(chunk):
            for pattern in (RANGE, DASH_RANGE):
                for match in pattern.finditer(unit.text):
                    if not re.search(r"\d", match.group("low")) or not re.search(r"\d", match.group("high")):
                        continue
                    span = match.group(0)
                    relevance = len(wanted & terms(unit.text)) / max(1, len(wanted))
                    found.append((relevance, -len(found), Piece(unit.text, chunk, unit.quote, amount=span)))
                    break
    found.sort(key=lambda x: (-x[0], -x[1]))
    return [e for _, _, e in found]


def items_with_amounts(scope: Sequence[ChunkRecord], focus: str, numeric: bool = True) -> list[Piece]:
    """Bullets, sentences and table rows of the scope that carry an amount, in document order,
    keeping those that share a term with the focus when any do."""
    wanted = terms(focus)
    units: list[Unit] = [u for c in scope for u in split_units(c)]
    with_amount = [(u, AMOUNT.search(u.text)) for u in units]
    hits = [(u, m) for u, m in with_amount if m]
    related = [(u, m) for u, m in hits if score_unit(u, wanted, numeric) > 0.15]
    chosen = related or hits
    return [Piece(_clean(u.text), u.chunk, u.quote, amount=m.group(0).strip()) for u, m in chosen]


def table_row_cells(quote: str) -> tuple[list[str], list[str]]:
    """(header cells, row cells) of a table-row quote."""
    lines = quote.splitlines()
    return table_cells(lines[0]), table_cells(lines[-1])
