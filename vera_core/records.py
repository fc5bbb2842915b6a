"""Records that cross module boundaries: parsed blocks, geometry, parsed documents; the store's rows of a
document, its chunks and facts, and the identity of the model its vectors were made with. Plain data, with no database
library and nothing of VERA's imported at load (a period's label is read from tables/ when asked): every layer
reaches them."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NamedTuple


CHART_CAPTION = "Chart: "
"""How a chart read as a table is captioned (`ingest/pdf_charts.py`): a deck's charts are its figures, no statement
prints them."""

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
    grid: RawGrid | None = None
    """PDF tables: the cells as laid out, with their boxes (Markdown tables are read from `text`)."""

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


# -- table grids --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RawCell:
    """A cell as laid out on the page: its text and where it is printed."""

    text: str
    """The text as printed (a currency sign printed apart is joined to its figure)."""
    box: Rect | None = None
    """The printed text's box; None for Markdown."""
    span: tuple[int, int] = (0, 0)
    """Header cells: first and last grid column the text stretches over (inclusive)."""


@dataclass(frozen=True)
class RawGrid:
    """A table as rows of cells over one label column and its value columns, before interpretation.
    Column 0 is the row label; columns 1.. are value columns, left to right."""

    header: tuple[tuple[RawCell, ...], ...]
    """Header rows top to bottom; each holds its cells (with `span`), not one per column."""
    body: tuple[tuple[RawCell | None, ...], ...]
    """Body rows; one entry per column (None where the row prints nothing in that column)."""
    width: int
    """Number of columns, label column included."""
    indents: tuple[float, ...] = ()
    """Body rows: x of the label's left edge (PDF points); empty for Markdown."""


@dataclass(frozen=True)
class Period:
    """The period a table column (or a question) speaks of."""

    kind: str
    """`fiscal_year` (a year's flow), `quarter`, `months` (three/six/nine months ended), `instant`
    (as of a date, balance-sheet style), `year` (a bare year, kind unknown) or, asked only, `fiscal_months` (the
    first `months` of fiscal year `year`: "the first half of fiscal 2024")."""
    end: str = ""
    """ISO end date (YYYY-MM-DD) when printed; '' when only the year is known."""
    year: int | None = None
    """Fiscal year the period belongs to (the year of `end`, or the year printed)."""
    months: int | None = None
    """Length in months for flows (12 for a year, 3 for a quarter); None for instants."""
    quarter: int | None = None
    """Fiscal quarter 1-4 when the period is one."""

    @property
    def label(self) -> str:
        """How an analyst reads it: "FY2018 (year ended December 31, 2018)", "as of December 31, 2018"."""
        from vera_core.tables.periods import period_label
        return period_label(self)


@dataclass(frozen=True)
class GridCell:
    """One body cell of a parsed table with everything a figure answer needs."""

    row: int
    """0-based body row."""
    col: int
    """0-based column; 0 is the row label."""
    row_label: str
    """The row's label (wrapped label lines joined)."""
    parent_label: str
    """The heading row this row is nested under ("Current assets" for "Inventories"), or ''."""
    header: str
    """The column's header text, header rows joined top to bottom ('' for the label column)."""
    printed: str
    """The cell's text as printed ("(1,577)", "$8,738", "—")."""
    value: float | None
    """The figure as printed, in the table's `scale`: parentheses and leading minus negative; None
    for a dash (nil), text, or the label column."""
    unit: str = ""
    """'' for an amount, '%' for a percentage, 'per_share' for per-share amounts."""
    scale: float = 1.0
    """Multiplier from the printed figure to units: 1, 1e3, 1e6 or 1e9 (1 for percentages)."""
    currency: str = ""
    """ISO code ("USD", "EUR") when the table or document states one; '' otherwise."""
    period: Period | None = None
    box: Rect | None = None
    """Where the printed text is, on its page; None for Markdown."""
    label_box: Rect | None = None
    """Where the row label is printed; None for Markdown."""


@dataclass(frozen=True)
class TableGrid:
    """A table chunk's interpreted grid, or the reason it has none."""

    chunk_id: str
    status: str
    """`parsed`, or `unparsed` when no grid could be read (the chunk and its Markdown stay)."""
    statement: str = ""
    """`income`, `balance`, `cash_flow`, `equity`, `comprehensive_income` or '' (a note or other table)."""
    title: str = ""
    """Caption, or the enclosing heading when there is none."""
    scale: float = 1.0
    scale_source: str = ""
    """Where the scale came from: the line that states it, or `document` when inherited."""
    currency: str = ""
    header: tuple[str, ...] = ()
    """One header text per column."""
    periods: tuple[Period | None, ...] = ()
    """One per column (None for the label column and non-period columns)."""
    cells: tuple[GridCell, ...] = ()
    n_rows: int = 0

    def rows(self) -> dict[int, list[GridCell]]:
        """The grid's cells grouped by row, each row's cells in the order stored (its label cell first)."""
        out: dict[int, list[GridCell]] = {}
        for cell in self.cells:
            out.setdefault(cell.row, []).append(cell)
        return out


# -- what the store keeps of a document: its row, its chunks, its facts, and the model of its vectors ----------

@dataclass(frozen=True)
class DocumentRecord:
    """A row of `documents`."""

    doc_id: str
    name: str
    format: str
    """`pdf` or `markdown`."""
    sha256: str
    pages: int
    """Physical pages (0 for Markdown)."""
    size_bytes: int
    status: str
    """`ingesting` (invisible, repaired on next ingest) or `ready`."""
    metadata: dict
    parser_version: str
    chunk_count: int
    table_count: int
    created_at: str
    ready_at: str | None
    stage: str = "complete"
    """For a ready document: `searchable` (chunks, tables, facts and keyword index written; dense
    vectors still being written) or `complete` (vectors written too)."""
    kind: str = ""
    """filing, policy, contract or other ('' in a store ingested before kinds were stored)."""
    kind_source: str = ""
    """How the kind was decided: `user`, or what VERA read it from (`title`, `front matter`, `opening`,
    `headings`, `vocabulary`, `file name`), or `uncertain` (vera_core/documents/kinds.py)."""
    identity: dict = field(default_factory=dict)
    """What the document is and when: doc_type, company, fiscal_year, fiscal_quarter, period_end and the
    basis of each (vera_core/documents/identity.py); {} in a store ingested before identities were read."""

    @property
    def complete(self) -> bool:
        """Dense vectors are written: semantic search reads this document's vectors."""
        return self.stage == "complete"

    @property
    def warnings(self) -> list[dict]:
        """Warnings about the file itself ({code, message}): a PDF that had to be repaired, pages that
        came out empty."""
        return list(self.metadata.get("warnings") or [])

    @property
    def stem(self) -> str:
        """File name without its extension."""
        return self.name.rsplit(".", 1)[0]


@dataclass(frozen=True)
class ChunkRecord:
    """A row of `chunks`: one retrievable, citable unit with its geometry."""

    chunk_id: str
    doc_id: str
    position: int
    """0-based order in the document."""
    kind: str
    """`text`, `table` or `code`."""
    text: str
    """Display text; Markdown for tables (caption and footnotes included)."""
    embed_text: str
    """What the embedding model read (a synopsis for tables)."""
    heading_path: str
    heading_titles: tuple[str, ...]
    section_id: str
    page_start: int
    """1-based; 0 for Markdown."""
    page_end: int
    polygons: tuple[Rect, ...]
    caption: str
    footnotes: str
    tokens: int
    embed_key: str = ""
    """SHA-256 (hex, 32 digits) of `embed_text`; '' in stores written before schema version 2."""

    @property
    def pages(self) -> tuple[int, ...]:
        """Every 1-based page the chunk touches (empty for Markdown)."""
        return tuple(range(self.page_start, self.page_end + 1)) if self.page_start else ()


class KeywordRow(NamedTuple):
    """What BM25 indexes of a chunk."""

    chunk_id: str
    page_start: int
    page_end: int
    caption: str
    heading_path: str
    text: str
    kind: str


@dataclass(frozen=True)
class FactRecord:
    """A row of `document_facts` (the facts contract)."""

    doc_id: str
    fact_name: str
    value: str | None
    status: str
    """`found`, `not_found` or `ambiguous` (ambiguous and not_found carry no value)."""
    confidence: float
    source_chunk_id: str | None
    page_numbers: tuple[int, ...]
    polygons: tuple[Rect, ...]
    evidence_excerpt: str
    extractor_version: str
    doc_sha256: str
    extracted_at: str


@dataclass(frozen=True)
class ModelIdentity:
    """What a store records with its vectors. Two models are the same when version and dimension are:
    the name is for people (a copied folder with the same weights makes the same vectors)."""

    name: str
    version: str
    """The first 16 hex digits of the weights' SHA-256."""
    dimension: int

    def same_vectors(self, other: ModelIdentity) -> bool:
        return (self.version, self.dimension) == (other.version, other.dimension)

    def __str__(self) -> str:
        return f"{self.name} (weights {self.version[:8]}, {self.dimension}-d)"
