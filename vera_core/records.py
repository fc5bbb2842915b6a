"""Records that cross module boundaries: parsed blocks, geometry, parsed documents."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rect:
    """An axis-aligned region on one PDF page."""

    page: int
    """1-based page number as a PDF viewer shows it."""
    x0: float
    """Left edge in PDF points, PyMuPDF page coordinates (origin top-left, y grows downwards)."""
    y0: float
    """Top edge in PDF points."""
    x1: float
    """Right edge in PDF points."""
    y1: float
    """Bottom edge in PDF points."""

    def union(self, other: Rect) -> Rect:
        """The smallest rect on the same page containing both."""
        return Rect(self.page, min(self.x0, other.x0), min(self.y0, other.y0),
                    max(self.x1, other.x1), max(self.y1, other.y1))

    def contains(self, other: Rect, tolerance: float = 0.5) -> bool:
        """Whether `other` lies inside this rect (same page), within `tolerance` points."""
        return (self.page == other.page and other.x0 >= self.x0 - tolerance
                and other.y0 >= self.y0 - tolerance and other.x1 <= self.x1 + tolerance
                and other.y1 <= self.y1 + tolerance)

    def as_dict(self) -> dict[str, float | int]:
        """JSON form used by the catalog and the answer contract."""
        return {"page": self.page, "x0": round(self.x0, 2), "y0": round(self.y0, 2),
                "x1": round(self.x1, 2), "y1": round(self.y1, 2)}

    @classmethod
    def from_dict(cls, data: dict) -> Rect:
        """Inverse of `as_dict`."""
        return cls(int(data["page"]), float(data["x0"]), float(data["y0"]), float(data["x1"]), float(data["y1"]))


class BlockKind(enum.StrEnum):
    """What a parsed block is; decides how it is chunked."""

    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST = "list"
    TABLE = "table"
    CODE = "code"


@dataclass(frozen=True)
class Block:
    """One structural unit of a document in reading order (a paragraph, a table, a heading...)."""

    kind: BlockKind
    """Structural kind; tables and code are atomic, never split."""
    text: str
    """Plain text; for tables the Markdown of the table (without caption and footnotes)."""
    heading_titles: tuple[str, ...]
    """Titles of the enclosing headings, outermost first (for a heading: including itself)."""
    rects: tuple[Rect, ...] = ()
    """Geometry: line boxes for text, the table region per page for tables; empty for Markdown."""
    level: int = 0
    """Heading level (1 = top) for headings; 0 otherwise."""
    caption: str = ""
    """Tables: the title line(s) above the table."""
    footnotes: str = ""
    """Tables: small text right below the table."""
    language: str = ""
    """Code blocks: the fence's info string."""
    rect_offsets: tuple[int, ...] = ()
    """Start offset in `text` of the line each rect outlines (parallel to `rects`; text blocks only)."""

    @property
    def pages(self) -> tuple[int, ...]:
        """1-based pages this block touches, ascending."""
        return tuple(sorted({r.page for r in self.rects}))


@dataclass(frozen=True)
class Heading:
    """A heading of a document with the page range its section covers."""

    title: str
    level: int
    """1 = top-level section."""
    path: tuple[str, ...]
    """Titles from the top-level heading down to this one."""
    page_start: int | None
    """1-based first page of the section; None for Markdown."""
    page_end: int | None
    """1-based last page of the section; None for Markdown."""


@dataclass
class ParsedDocument:
    """A document after parsing, before chunking: blocks in reading order plus document metadata."""

    doc_id: str
    """Stable id derived from the file's bytes (first 16 hex digits of its SHA-256)."""
    name: str
    """File name as uploaded, e.g. `3M_2018_10K.pdf`."""
    format: str
    """`pdf` or `markdown`."""
    sha256: str
    """Hex SHA-256 of the file's bytes."""
    pages: int
    """Physical page count for PDFs; 0 for Markdown."""
    blocks: list[Block] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    metadata: dict = field(default_factory=dict)
    """Document-level metadata: PDF info or Markdown YAML front matter (may be nested)."""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds spent per parse stage, e.g. {"parse": 1.2, "tables": 0.3}."""

    @property
    def stem(self) -> str:
        """File name without extension; the root of every heading path."""
        return self.name.rsplit(".", 1)[0] if "." in self.name else self.name
