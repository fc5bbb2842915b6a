"""Deterministic heading detection for PDFs: the outline when present, else font statistics.

Font statistics: the body size is the size covering most characters; a heading is a short,
standalone row set larger than the body or entirely bold at body size. Distinct heading styles
are ranked (larger first, bold before regular) into levels. Filings set every heading bold at body
size, so structural patterns (PART I, Item 7., Note 4) fix the top levels and plain headings nest
under the structural heading they follow.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from vera_core.ingest.pdf_rows import Row

_PART = re.compile(r"^part\s+[ivx]+\b", re.IGNORECASE)
_ITEM = re.compile(r"^item\s+\d{1,2}[a-c]?\s*[.:\-–—]", re.IGNORECASE)
_NOTE = re.compile(r"^note\s+\d{1,2}\b", re.IGNORECASE)
_LETTERS = re.compile(r"[A-Za-z]{2}")
MAX_HEADING_WORDS = 16
MAX_LEVELS = 4


@dataclass(frozen=True)
class HeadingMark:
    """A row (or rows) recognised as a heading."""

    page: int
    """1-based page."""
    row_ids: tuple[int, ...]
    """Indexes into that page's content rows (several for a heading wrapped over lines)."""
    title: str
    level: int


def body_size(pages: list[list[Row]]) -> float:
    """The font size that covers the most characters."""
    weights: Counter[float] = Counter()
    for rows in pages:
        for row in rows:
            weights[row.size] += len(row.text)
    return weights.most_common(1)[0][0] if weights else 10.0


def _structural_level(title: str) -> int | None:
    if _PART.match(title):
        return 1
    if _ITEM.match(title):
        return 1
    if _NOTE.match(title):
        return 2
    return None


def _is_candidate(row: Row, body: float) -> bool:
    text = row.text.strip()
    words = text.split()
    if len(row.cells) != 1 or not _LETTERS.search(text) or len(words) > MAX_HEADING_WORDS:
        return False
    if text.endswith((",", ";")) or text[0] in "•●▪◦-–*(" or text[0].isdigit() and len(words) < 2:
        return False
    if text.endswith(".") and len(words) > 8 and not _structural_level(text):
        return False
    larger = row.size >= body + 1.0
    bold = row.bold and row.size >= body - 0.25
    return larger or bold


def font_headings(pages: list[list[Row]], consumed: set[tuple[int, int]], body: float) -> list[HeadingMark]:
    """Headings by font statistics; `consumed` holds (page, row index) pairs already in tables."""
    marks: list[tuple[int, list[int], str, tuple[float, bool]]] = []
    for rows in pages:
        for idx, row in enumerate(rows):
            if (row.page, idx) in consumed or not _is_candidate(row, body):
                continue
            style = (row.size, row.bold)
            prev = marks[-1] if marks else None
            if prev and prev[0] == row.page and prev[1][-1] == idx - 1 and prev[3] == style \
                    and len(prev[1]) < 3 and not _structural_level(row.text) \
                    and row.y0 - rows[idx - 1].y1 < 0.6 * row.height:
                prev[1].append(idx)
                marks[-1] = (prev[0], prev[1], f"{prev[2]} {row.text.strip()}", style)
                continue
            marks.append((row.page, [idx], row.text.strip(), style))
    if not marks:
        return []
    return [HeadingMark(page, tuple(ids), title, level)
            for (page, ids, title, _), level in zip(marks, _levels(marks))]


def _levels(marks: list[tuple[int, list[int], str, tuple[float, bool]]]) -> list[int]:
    """Levels by style rank (larger first, bold before regular). In a filing, where one dominant
    style holds the PART/Item headings, that style's levels come from the patterns instead and
    plain headings nest one level under the structural heading before them."""
    styles = sorted({m[3] for m in marks}, key=lambda s: (-s[0], not s[1]))
    rank = {style: i + 1 for i, style in enumerate(styles)}
    counts = Counter(m[3] for m in marks)
    dominant, dominant_count = counts.most_common(1)[0]
    items = sum(1 for m in marks if m[3] == dominant and (_PART.match(m[2]) or _ITEM.match(m[2])))
    if items < 3 or dominant_count < 0.6 * len(marks):
        return [min(rank[m[3]], MAX_LEVELS) for m in marks]
    base = 1  # cover-page titles in larger styles become level-1 siblings, never ancestors of Items
    levels: list[int] = []
    depth = base
    for _, _, title, style in marks:
        structural = _structural_level(title)
        if style == dominant:
            level = base + structural - 1 if structural else depth + 1
            if structural:
                depth = level
        elif style[0] > dominant[0] or (style[0] == dominant[0] and style[1] and not dominant[1]):
            level = base
            depth = base
        else:
            level = depth + 2
        levels.append(min(level, MAX_LEVELS))
    return levels


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def outline_headings(toc: list, pages: list[list[Row]], consumed: set[tuple[int, int]]) -> list[HeadingMark]:
    """Headings from the PDF outline, each matched to its row on the target page when possible
    (an entry with no matching row becomes a heading at the top of its page, with no row)."""
    out: list[HeadingMark] = []
    for entry in toc:
        level, title, page = int(entry[0]), str(entry[1]).strip(), int(entry[2])
        if not title or page < 1 or page > len(pages):
            continue
        key = _norm(title)[:40]
        ids: tuple[int, ...] = ()
        for idx, row in enumerate(pages[page - 1]):
            text = _norm(row.text)
            if (page, idx) not in consumed and key and text and (text.startswith(key) or key.startswith(text) and len(text) > 8):
                ids = (idx,)
                break
        out.append(HeadingMark(page, ids, title, min(level, MAX_LEVELS)))
    return out
