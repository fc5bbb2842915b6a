"""PDF text geometry: spans grouped into visual rows of cells, with font size and weight.

A row is what a reader sees as one line across the page; PyMuPDF often reports each table cell as
its own line, so rows are rebuilt from spans by vertical overlap. Cells are runs of spans separated
by a wide horizontal gap, which is what makes a row tabular.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import pymupdf

from vera_core.finance.dates import PERIOD_HEADING
from vera_core.finance.statements import is_statement_title
from vera_core.ingest.actual_text import missing_spans
from vera_core.records import Rect

BOLD_FLAG = 16
CURRENCY_SYMBOLS = frozenset("$€£¥")
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|,b\b", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
TEXT_FLAGS = pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_DEHYPHENATE


@dataclass
class Cell:
    """A run of spans on one row with no wide gap inside."""

    x0: float
    x1: float
    text: str
    size: float
    bold: bool


@dataclass
class Row:
    """One visual line of a page."""

    page: int
    """1-based page number."""
    x0: float
    y0: float
    x1: float
    y1: float
    cells: list[Cell] = field(default_factory=list)
    size: float = 0.0
    """Font size covering most characters of the row, in points."""
    bold: bool = False
    """True when (nearly) all characters are bold."""

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.cells)

    @property
    def rect(self) -> Rect:
        return Rect(self.page, self.x0, self.y0, self.x1, self.y1)

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def page_rows(page: pymupdf.Page, page_number: int) -> list[Row]:
    """Rows of one page in reading order (top to bottom, then left to right)."""
    spans = []
    textpage = page.get_textpage(flags=TEXT_FLAGS)
    lines = [line for block in textpage.extractDICT()["blocks"] for line in block.get("lines", ())]
    missing = missing_spans(page, textpage, lines)  # NOTE: may end a line's last span with the rest of its word
    for line in lines:
        if line["dir"][0] < 0.9:  # rotated or vertical text is not body text
            continue
        for span in line["spans"]:
            text = _SPACES.sub(" ", span["text"]).strip()
            if not text:
                continue
            x0, y0, x1, y1 = span["bbox"]
            bold = bool(span["flags"] & BOLD_FLAG) or bool(_BOLD_FONT.search(span["font"]))
            spans.extend(_figures_apart(page, (x0, y0, x1, y1, text, round(span["size"] * 2) / 2, bold)))
    for x0, y0, x1, y1, text, size, bold in missing:
        spans.extend(_figures_apart(page, (x0, y0, x1, y1, _SPACES.sub(" ", text).strip(), round(size * 2) / 2, bold)))
    spans.sort(key=lambda s: ((s[1] + s[3]) / 2, s[0]))
    rows: list[list[tuple]] = []
    for span in spans:
        mid = (span[1] + span[3]) / 2
        if rows:
            last = rows[-1]
            top = min(s[1] for s in last)
            bottom = max(s[3] for s in last)
            if top <= mid <= bottom and mid - (top + bottom) / 2 < 0.35 * (bottom - top) + 1:
                last.append(span)
                continue
        rows.append([span])
    return [_build_row(page_number, sorted(r, key=lambda s: s[0])) for r in rows]


def _build_row(page_number: int, spans: list[tuple]) -> Row:
    weights: Counter[float] = Counter()
    bold_chars = 0
    total = 0
    for s in spans:
        n = len(s[4])
        weights[s[5]] += n
        total += n
        bold_chars += n if s[6] else 0
    size = weights.most_common(1)[0][0]
    cells: list[Cell] = []
    for x0, _y0, x1, _y1, text, span_size, bold in spans:
        lone_currency = text in CURRENCY_SYMBOLS
        if cells and x0 - cells[-1].x1 < max(1.2 * span_size, 6.0) and not lone_currency \
                and cells[-1].text not in CURRENCY_SYMBOLS:
            last = cells[-1]
            joiner = "" if x0 - last.x1 < 0.15 * span_size and not text[0].isalnum() else " "
            last.text = f"{last.text}{joiner}{text}" if last.text[-1] != "-" else last.text + text
            last.x1 = max(last.x1, x1)
            last.bold = last.bold and bold
        else:
            cells.append(Cell(x0, x1, text, span_size, bold))
    return Row(page=page_number, x0=min(s[0] for s in spans), y0=min(s[1] for s in spans),
               x1=max(s[2] for s in spans), y1=max(s[3] for s in spans), cells=cells, size=size,
               bold=bold_chars >= 0.9 * total)


_FIGURE = r"(?:[$€£¥]\s?)?\(?[$€£¥]?\s?\d[\d,]*(?:\.\d+)?\)?%?"
_FIGURES = re.compile(rf"{_FIGURE}(?:\s+{_FIGURE})+")
_ONE_FIGURE = re.compile(_FIGURE)
_DIGITS = re.compile(r"\(?\d[\d,]*(?:\.\d+)?\)?%?")


def _figures_apart(page: pymupdf.Page, span: tuple) -> list[tuple]:
    """A span that is a line of figures printed as one text run ("$ 62,343,810 $ 31,614,169 $ 19,977,150"):
    one span per figure, each where the page prints its digits (found on the page within the run), so
    that each falls in its column. The run as it is when a figure cannot be placed."""
    x0, y0, x1, y1, text, size, bold = span
    trailing = _TRAILING_CURRENCY.search(text)
    figures = text[:trailing.start()] if trailing else text
    if not (_FIGURES.fullmatch(figures) or trailing and _ONE_FIGURE.fullmatch(figures)):
        return [span]
    out, left = [], x0 - 0.5
    clip = pymupdf.Rect(x0 - 1, y0 - 1, x1 + 1, y1 + 1)
    for m in _ONE_FIGURE.finditer(figures):
        digits = _DIGITS.search(m.group(0)).group(0)
        place = next((r for r in page.search_for(digits, clip=clip) if r.x0 >= left), None)
        if place is None:
            return [span]
        out.append((place.x0, y0, place.x1, y1, m.group(0), size, bold))
        left = place.x1 - 0.5
    if trailing:  # NOTE: "13,998 $": the "$" is the next column's, printed at its left edge
        symbol = trailing.group("c")
        place = next((r for r in page.search_for(symbol, clip=clip) if r.x0 >= left), None)
        if place is None:
            return [span]
        out.append((place.x0, y0, place.x1, y1, symbol, size, bold))
    return out


_TRAILING_CURRENCY = re.compile(r"\s+(?P<c>[$€£¥])$")
"""A currency symbol ending a run of figures ("13,998 $", "17,309 $ 20,402 $"): a deck printing each column's symbol at
its left edge, close after the figure before it."""


_PAGE_NUMBER = re.compile(r"^(page\s+)?[-–—]?\s*(\d{1,4}|[ivxlc]{1,6})\s*[-–—]?(\s+of\s+\d{1,4})?$", re.IGNORECASE)


def furniture_keys(pages: list[list[Row]], page_heights: list[float]) -> set[str]:
    """Normalised texts of running headers/footers: rows in the top or bottom 12% of the page
    that recur on at least 30% of pages (digits ignored, so "Page 3" and "Page 4" match)."""
    if len(pages) < 3:
        return set()
    counts: Counter[str] = Counter()
    for rows, height in zip(pages, page_heights):
        # NOTE: a column header or a statement's title in the margin ("Three Months Ended", "Condensed
        # Consolidated Statement of Income" atop every statement page of a release) recurs like a running
        # header but heads a table: it stays
        seen = {furniture_key(r) for r in rows
                if _in_margin(r, height) and not PERIOD_HEADING.search(r.text) and not is_statement_title(r.text)}
        counts.update(seen)
    threshold = max(2, int(0.3 * len(pages)))
    return {key for key, n in counts.items() if n >= threshold and key}


def strip_furniture(rows: list[Row], page_height: float, keys: set[str]) -> list[Row]:
    """A page's rows without running headers/footers (recurring margin rows) and without a bare
    page number, found in the margins or as the first or last row (filings often print the page
    number right below the content, far from the bottom margin)."""
    kept = [r for r in rows if not (_in_margin(r, page_height)
                                    and (furniture_key(r) in keys or _PAGE_NUMBER.match(r.text.strip())))]
    if not kept:  # a running header needs a body beside it: a page of margin lines only keeps them
        return rows
    while kept and _PAGE_NUMBER.match(kept[-1].text.strip()) and len(kept[-1].cells) == 1:
        kept.pop()
    while kept and _PAGE_NUMBER.match(kept[0].text.strip()) and len(kept[0].cells) == 1:
        kept.pop(0)
    return kept


def without_cut_rows(pages: list[list[Row]]) -> list[list[Row]]:
    """The pages without a row the page's foot cuts off and the next page prints whole at its top (Costco's balance
    sheet: "Sh  i  1 215  846" under "Cash and cash equivalents", "Short-term investments 1,215 846" atop the next
    page): the cut row's label begins the whole one's and its figures are the same digits."""
    out = [list(rows) for rows in pages]
    for rows, following in zip(out, out[1:]):
        if rows and following and _cut_copy(rows[-1], following[0]):
            rows.pop()
    return out


def _cut_copy(cut: Row, whole: Row) -> bool:
    """Whether `cut` is `whole` cut off by the page's foot (a page number may sit on its line: "Sh i 1 215 846 3")."""
    def figures(row: Row) -> list[str]:
        return [d for d in (re.sub(r"\D", "", c.text) for c in row.cells[1:]) if d]
    label = cut.cells[0].text.strip() if cut.cells else ""
    whole_label = whole.cells[0].text.strip() if whole.cells else ""
    mine, theirs = figures(cut), figures(whole)
    same = bool(theirs) and (mine == theirs or (mine[:-1] == theirs and len(mine[-1]) <= 3))
    return same and bool(label) and whole_label.startswith(label) and len(label) < len(whole_label)


def furniture_key(row: Row) -> str:
    return re.sub(r"\d+", "#", _SPACES.sub(" ", row.text.lower())).strip()


def _in_margin(row: Row, page_height: float) -> bool:
    return row.y1 <= 0.12 * page_height or row.y0 >= 0.88 * page_height
