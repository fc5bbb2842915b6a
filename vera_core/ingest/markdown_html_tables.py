"""HTML tables inside Markdown (`<table><tr><td>...`), as policy sets exported from a word processor print them
(tailscale's retention schedule, severity levels and risk categories): read as tables, like pipe and grid
tables, so a table's rows and columns answer list and figure questions. CommonMark leaves raw HTML as text.

A first row whose cells are all `<th>` or all bold is the header; otherwise the header is empty and every row is
a body row. A cell's list items are joined with "; ". Only a bounded `<table>` block is read (no nested table);
anything else stays text."""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["extract_html_tables"]

_OPEN = re.compile(r"<table\b[^>]{0,500}>", re.I)
_CLOSE = re.compile(r"</table\s*>", re.I)
MAX_TABLE_CHARS = 200_000
MAX_ROWS = 500
MAX_COLUMNS = 30


class _Cells(HTMLParser):
    """Rows of cells, with whether each cell is a header cell (`<th>` or only bold text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, bool]]] = []
        self._cell: list[str] | None = None
        self._header = False
        self._bold_depth = 0
        self._plain = False  # text outside bold in the current cell
        self._full = False  # MAX_ROWS reached

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag == "tr":
            self._full = len(self.rows) >= MAX_ROWS  # NOTE: rows past the cap are dropped, not run into the last
            if not self._full:
                self.rows.append([])
        elif tag in ("td", "th") and self.rows and not self._full and len(self.rows[-1]) < MAX_COLUMNS:
            self._cell, self._header, self._plain = [], tag == "th", False
        elif tag in ("strong", "b"):
            self._bold_depth += 1
        elif tag == "li" and self._cell is not None and "".join(self._cell).strip():
            self._cell.append("; ")
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.rows:
            text = " ".join("".join(self._cell).split()).replace(" ;", ";").strip(" ;")
            self.rows[-1].append((text, self._header or (bool(text) and not self._plain)))
            self._cell = None
        elif tag in ("strong", "b"):
            self._bold_depth = max(0, self._bold_depth - 1)

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
            if data.strip() and not self._bold_depth:
                self._plain = True


def _read(html: str) -> tuple[list[str], list[list[str]]] | None:
    parser = _Cells()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):  # NOTE: html.parser gives up on some markup ("<![ b"): the table stays text
        return None
    rows = [r for r in parser.rows if r]
    if not rows:
        return None
    width = max(len(r) for r in rows)
    if width < 2:
        return None
    padded = [[text for text, _ in r] + [""] * (width - len(r)) for r in rows]
    if all(header for _, header in rows[0]) and len(rows) > 1:
        return padded[0], padded[1:]
    return [""] * width, padded


_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)", re.M)


def _fenced(text: str) -> list[tuple[int, int]]:
    """(start, end) of each fenced code block (an unclosed fence runs to the end)."""
    out, opened = [], None
    for m in _FENCE.finditer(text):
        if opened is None:
            opened = m
        elif m.group(1) == opened.group(1):
            out.append((opened.start(), m.end()))
            opened = None
    if opened is not None:
        out.append((opened.start(), len(text)))
    return out


def extract_html_tables(text: str, placeholder: str) -> tuple[str, list[tuple[list[str], list[list[str]]]]]:
    """Replace each HTML table that starts a line with a placeholder paragraph (`placeholder.format(i)`); return
    the tables as (header, rows). One pass over the text: a table holding another, or longer than
    MAX_TABLE_CHARS, stays text."""
    tables: list[tuple[list[str], list[list[str]]]] = []
    out: list[str] = []
    fenced = _fenced(text)
    pos = 0
    while True:
        opened = _OPEN.search(text, pos)
        if opened is None:
            break
        inside = next((end for start, end in fenced if start <= opened.start() < end), None)
        if inside is not None:  # NOTE: a table shown in a fenced code block is code
            out.append(text[pos:inside])
            pos = inside
            continue
        closed = _CLOSE.search(text, opened.end())
        if closed is None:
            break
        line_start = text.rfind("\n", 0, opened.start()) + 1
        inner = _OPEN.search(text, opened.end(), closed.start())
        read = None
        if not text[line_start:opened.start()].strip() and inner is None \
                and closed.end() - opened.start() <= MAX_TABLE_CHARS:
            read = _read(text[opened.start():closed.end()])
        if read is not None:
            tables.append(read)
            out.append(text[pos:line_start])
            out.append(f"\n{placeholder.format(len(tables) - 1)}\n")
        else:
            out.append(text[pos:closed.end()])
        pos = closed.end()
    out.append(text[pos:])
    return "".join(out), tables
