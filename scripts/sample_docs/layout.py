"""The PDF layout engine of the sample annual report: page geometry and typography, line breaking, and a
Report that places headings, paragraphs, lists and tables and records where each lands (for the ground truth)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

import pymupdf

from sample_docs.common import GENERATOR, REPORTING_PERIOD_END

PAGE_W, PAGE_H = 612, 792  # US Letter
LEFT, RIGHT, TOP, BOTTOM = 60.0, 552.0, 70.0, 730.0
HEADER_BASELINE, FOOTER_BASELINE = 40.0, 760.0

FONT_R = pymupdf.Font("helv")  # Helvetica
FONT_B = pymupdf.Font("hebo")  # Helvetica-Bold
FONT_I = pymupdf.Font("heit")  # Helvetica-Oblique

BODY, TABLE, SMALL = 10.0, 9.0, 8.0
HEADING_SIZE = {1: 16.0, 2: 13.0, 3: 11.0}
HEADING_GAP_BEFORE = {1: 0.0, 2: 12.0, 3: 8.0}
HEADING_GAP_AFTER = {1: 10.0, 2: 5.0, 3: 3.0}
LEADING = 1.45  # line pitch as a multiple of the font size
ROW_PITCH = 14.0  # table row pitch at 9pt
PARA_GAP = 6.0

BLACK = (0.0, 0.0, 0.0)
HEADING_COLOR = (0.06, 0.2, 0.4)
GREY = (0.35, 0.35, 0.35)

RUNNING_HEADER = "Aurora Components Group — Annual Report 2024"
RUNNING_FOOTER = "Page {n}"

COMPANY = "Aurora Components Group plc"
MDA = "Management's discussion and analysis"
FS = "Consolidated financial statements"
NOTES = "Notes to the consolidated financial statements"
RISKS = "Risk factors"
EXPECTED_L1_PAGES = {
    "About this report": 1,
    "Letter from the Chief Executive": 2,
    MDA: 3,
    FS: 6,
    NOTES: 9,
    RISKS: 11,
}


class LayoutError(RuntimeError):
    """Content did not fit where it had to go."""


Run = tuple[str, pymupdf.Font]


def b(text: str) -> Run:
    return (text, FONT_B)


def r(text: str) -> Run:
    return (text, FONT_R)


def width(text: str, font: pymupdf.Font, size: float) -> float:
    return font.text_length(text, fontsize=size)


def wrap(runs: list[Run], avail: float, size: float) -> list[list[Run]]:
    """Greedy line breaking of styled runs at spaces; each line is a list of same-font segments."""
    words: list[tuple[list[Run], pymupdf.Font | None]] = []  # (fragments, font of space before)
    cur: list[Run] = []
    space_font: pymupdf.Font | None = None
    for text, font in runs:
        for tok in re.split(r"(\s+)", text):
            if not tok:
                continue
            if tok.isspace():
                if cur:
                    words.append((cur, space_font))
                    cur = []
                space_font = font
            else:
                cur.append((tok, font))
    if cur:
        words.append((cur, space_font))

    lines: list[list[Run]] = []
    line: list[Run] = []
    line_w = 0.0
    for frags, sp_font in words:
        w = sum(width(t, f, size) for t, f in frags)
        if w > avail:
            raise LayoutError(f"word wider than the column: {frags}")
        sp = width(" ", sp_font or FONT_R, size)
        if line and line_w + sp + w > avail:
            lines.append(line)
            line, line_w = [], 0.0
        if line:
            line.append((" ", sp_font or FONT_R))
            line_w += sp
        line.extend(frags)
        line_w += w
    if line:
        lines.append(line)

    merged: list[list[Run]] = []
    for ln in lines:
        out: list[Run] = []
        for text, font in ln:
            if out and out[-1][1] is font:
                out[-1] = (out[-1][0] + text, font)
            else:
                out.append((text, font))
        merged.append(out)
    return merged


def plain(runs: list[Run]) -> str:
    return re.sub(r"\s+", " ", "".join(t for t, _ in runs)).strip()


def fmt(n: int) -> str:
    """EUR thousand amount, negatives in parentheses."""
    return f"({abs(n):,})" if n < 0 else f"{n:,}"


def pct(new: float, old: float) -> float:
    return (new / old - 1.0) * 100.0


def fmt_pct(p: float) -> str:
    return f"({abs(p):.1f})%" if p < 0 else f"{p:.1f}%"


def meur(n_thousand: int) -> str:
    """EUR thousand -> 'EUR 1,032.4 million' style text."""
    millions = (Decimal(n_thousand) / 1000).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"EUR {millions:,} million"


def text_bbox(x: float, baseline: float, text: str, font: pymupdf.Font, size: float) -> list[float]:
    """Box of a text run drawn at (x, baseline), in PyMuPDF page coordinates (origin top-left, points).

    Horizontally from the pen start to start + advance width; vertically from baseline - ascender * size
    to baseline - descender * size with the font's own ascender/descender (as ``pymupdf.Font`` exposes
    them; the descender is negative). This is the same box MuPDF gives each character, so it matches
    what ``page.search_for(text)`` returns for the run.
    """
    return [round(x, 3), round(baseline - font.ascender * size, 3),
            round(x + width(text, font, size), 3), round(baseline - font.descender * size, 3)]


MONTHS = {m: i for i, m in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
     "November", "December"], 1)}
_CAPTION_DATE = re.compile(r"\b(for the year ended|as at) (\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4})\b")


def _fiscal_year_end() -> tuple[int, int]:
    """(month, day) on which the reporting period ends, from the report's own reporting-period fact."""
    end = REPORTING_PERIOD_END  # "2024-12-31"
    return int(end[5:7]), int(end[8:10])


def column_periods(caption: str, header: list[str]) -> tuple[list[dict], dict | None]:
    """Normalised period of each header column, and a table-level period when no column has one.

    Rule: only a header cell that is a four-digit year Y is a period column; every other header
    (the label column, "Note", "Change %", measure names such as "Revenue") gets ``period: null``.
    The caption says what kind of period a year column is:
      * "... as at <d> <Month> <yyyy>"  -> balance-sheet column: {"kind": "instant", "end": "Y-MM-DD"}
      * "... for the year ended <d> <Month> <yyyy>" -> flow column:
        {"kind": "fiscal_year", "fiscal_year": Y, "end": "Y-MM-DD"}
      * no date phrase (e.g. the MD&A table "Revenue by segment") -> a flow for the financial year
        Y, ending on the reporting-period year end (31 December, see FACT_VALUES["reporting_period"]).
    The Group's financial year is the calendar year, so fiscal year Y ends in year Y.
    If no column is a period column and the caption ends in a year ("Segment results 2024"), the
    whole table describes that financial year: the table-level period is
    {"kind": "fiscal_year", "fiscal_year": yyyy, "end": "yyyy-12-31"}; otherwise it is null.
    """
    m = _CAPTION_DATE.search(caption)
    if m:
        kind = "instant" if m.group(1) == "as at" else "fiscal_year"
        month, day = MONTHS[m.group(3)], int(m.group(2))
    else:
        kind = "fiscal_year"
        month, day = _fiscal_year_end()

    def period(year: int, kind: str) -> dict:
        end = f"{year:04d}-{month:02d}-{day:02d}"
        return {"kind": "instant", "end": end} if kind == "instant" else \
            {"kind": "fiscal_year", "fiscal_year": year, "end": end}

    columns = [{"header": h, "period": period(int(h), kind) if re.fullmatch(r"\d{4}", h) else None}
               for h in header]
    years = [int(h) for h in header if re.fullmatch(r"\d{4}", h)]
    if m and years and int(m.group(4)) != max(years):
        raise LayoutError(f"caption date {m.group(0)!r} does not match the latest column of {header}")
    table_period = None
    if not years:
        tail = re.search(r"\b(\d{4})$", caption)
        if tail:
            table_period = period(int(tail.group(1)), "fiscal_year")
    return columns, table_period


def _closes_section(row: "TableRow", section: str) -> bool:
    label = row.cells[0].lower()
    return row.kind in ("subtotal", "total") and label != section.lower() and label.endswith(section.lower())


def label_parents(rows: list["TableRow"]) -> list[str | None]:
    """For each row, the label of the section row ("section" kind) it sits under, or None.

    Rule: a section row opens a section (the section row itself has no parent). The section covers
    the rows after it up to and including its own total - the first subtotal/total row whose label
    ends with the section label ("Total current assets" for "Current assets", "Net cash from operating
    activities" for "Operating activities") - or up to the next section row, whichever comes first.
    A "total" row that is not the section's own total (a grand total such as "Total assets") and
    "plain" rows end the section and have no parent; so do the rows after a section's total.
    """
    out: list[str | None] = []
    section: str | None = None
    for row in rows:
        if row.kind == "section":
            out.append(None)
            section = row.cells[0]
            continue
        if section is not None and _closes_section(row, section):
            out.append(section)
            section = None
            continue
        if row.kind in ("total", "plain"):
            section = None
        out.append(section)
    return out


# --------------------------------------------------------------------------------------------
# Layout engine
# --------------------------------------------------------------------------------------------


@dataclass
class Col:
    x0: float
    x1: float
    align: str  # "left" | "right" | "center"


@dataclass
class TableRow:
    cells: list[str]
    kind: str = "item"  # item | section (italic label row) | subtotal | total (bold) | plain (never indented)


@dataclass
class Report:
    doc: pymupdf.Document = field(default_factory=pymupdf.open)
    writers: list[dict[tuple[float, float, float], pymupdf.TextWriter]] = field(default_factory=list)
    y: float = TOP
    path: list[tuple[int, str]] = field(default_factory=list)
    headings: list[dict] = field(default_factory=list)
    tables: list[dict] = field(default_factory=list)
    paragraphs: list[dict] = field(default_factory=list)  # {"page": int, "text": str, "lines": [...]}

    def __post_init__(self) -> None:
        self.new_page()

    # -- pages ---------------------------------------------------------------------------------
    @property
    def page(self) -> pymupdf.Page:
        return self.doc[-1]

    @property
    def pno(self) -> int:
        return len(self.doc)

    def new_page(self) -> None:
        self.doc.new_page(width=PAGE_W, height=PAGE_H)
        self.writers.append({})
        self.y = TOP

    def page_break(self) -> None:
        if self.y > TOP:
            self.new_page()

    def at_top(self) -> bool:
        return self.y <= TOP + 0.01

    def fits(self, h: float) -> bool:
        return self.y + h <= BOTTOM + 0.01

    def ensure(self, h: float) -> None:
        if not self.fits(h):
            if self.at_top():
                raise LayoutError(f"block of height {h:.1f} cannot fit on an empty page")
            self.new_page()

    def gap(self, h: float) -> None:
        if not self.at_top():
            self.y += h

    def section_path(self) -> list[str]:
        return [t for _, t in self.path]

    # -- drawing -------------------------------------------------------------------------------
    def put(self, x: float, baseline: float, text: str, font: pymupdf.Font, size: float,
            color: tuple[float, float, float] = BLACK, chrome: bool = False) -> float:
        w = width(text, font, size)
        if not chrome:
            if x < LEFT - 0.01 or x + w > RIGHT + 0.01:
                raise LayoutError(f"text outside the column on page {self.pno}: {text!r}")
            if baseline - size > BOTTOM or baseline + 0.3 * size > BOTTOM + 0.01 or baseline - size < TOP - 0.01:
                raise LayoutError(f"text outside the text area on page {self.pno}: {text!r}")
        writers = self.writers[-1]
        if color not in writers:
            writers[color] = pymupdf.TextWriter(self.page.rect, color=color)
        writers[color].append((x, baseline), text, font=font, fontsize=size)
        return x + w

    def put_line(self, x: float, baseline: float, segs: list[Run], size: float,
                 color: tuple[float, float, float] = BLACK) -> None:
        for text, font in segs:
            x = self.put(x, baseline, text, font, size, color)

    def rule(self, x0: float, x1: float, y: float, w: float = 0.5) -> None:
        self.page.draw_line((x0, y), (x1, y), color=BLACK, width=w)

    # -- blocks --------------------------------------------------------------------------------
    def heading(self, level: int, title: str) -> dict:
        size = HEADING_SIZE[level]
        if level == 1:
            self.page_break()
        else:
            self.gap(HEADING_GAP_BEFORE[level])
        # keep with next: the heading plus three body lines
        need = size * LEADING + HEADING_GAP_AFTER[level] + 3 * BODY * LEADING
        if not self.fits(need):
            self.new_page()
        self.put(LEFT, self.y + size * 1.1, title, FONT_B, size, HEADING_COLOR)
        self.y += size * LEADING + HEADING_GAP_AFTER[level]
        self.path = [(lv, t) for lv, t in self.path if lv < level] + [(level, title)]
        rec = {"title": title, "level": level, "page": self.pno, "path": self.section_path()}
        self.headings.append(rec)
        return rec

    def para(self, runs: list[Run] | str, size: float = BODY, indent: float = 0.0,
             gap_after: float = PARA_GAP, bullet: str | None = None) -> dict:
        if isinstance(runs, str):
            runs = [r(runs)]
        x = LEFT + indent
        lines = wrap(runs, RIGHT - x, size)
        pitch = size * LEADING
        self.ensure(len(lines) * pitch)
        rec = {"page": self.pno, "text": plain(runs), "lines": [], "top": self.y}
        if bullet:
            self.put(x - 12, self.y + size * 1.1, bullet, FONT_R, size)
        for ln in lines:
            self.put_line(x, self.y + size * 1.1, ln, size)
            rec["lines"].append(plain(ln))
            self.y += pitch
        self.y += gap_after
        self.paragraphs.append(rec)
        return rec

    def lines(self, texts: list[str], size: float = BODY, font: pymupdf.Font = FONT_R,
              gap_after: float = PARA_GAP) -> list[dict]:
        """Short single lines kept together (sign-offs, contents entries)."""
        pitch = size * LEADING
        self.ensure(len(texts) * pitch)
        recs = []
        for t in texts:
            if width(t, font, size) > RIGHT - LEFT:
                raise LayoutError(f"line too long: {t!r}")
            self.put(LEFT, self.y + size * 1.1, t, font, size)
            recs.append({"page": self.pno, "text": t, "lines": [t], "top": self.y})
            self.y += pitch
        self.y += gap_after
        self.paragraphs.extend(recs)
        return recs

    def table(self, caption: str, header: list[str], rows: list[TableRow], cols: list[Col],
              footnotes: list[str], rules: bool = False, keep_together: bool = False,
              indent_items: bool = False) -> dict:
        """A borderless statement-style table; rows flow to the next page with the header repeated."""
        cap_h = BODY * LEADING + 2
        head_h = ROW_PITCH + (3 if rules else 1)
        foot_h = sum(len(wrap([r(f)], RIGHT - LEFT, SMALL)) * SMALL * LEADING for f in footnotes) + 4
        total_h = cap_h + head_h + len(rows) * ROW_PITCH + 6 + foot_h
        self.gap(6)
        if keep_together:
            self.ensure(total_h)
        else:
            self.ensure(cap_h + head_h + 3 * ROW_PITCH)
        rec = {
            "caption": caption,
            "pages": [self.pno],
            "header": header,
            "rows": [row.cells for row in rows],
            "rows_by_page": {},
            "footnotes": footnotes,
            "section_path": self.section_path(),
            "header_repeated_on_pages": [],
            "ruled": rules,
        }
        columns, table_period = column_periods(caption, header)
        rec["columns"] = columns
        rec["period"] = table_period
        rec["label_parents"] = label_parents(rows)
        rec["cells"] = []
        self.put(LEFT, self.y + BODY * 1.1, caption, FONT_B, BODY)
        self.y += cap_h

        def draw_header() -> None:
            base = self.y + TABLE * 1.1
            for text, col in zip(header, cols):
                self.cell(text, col, base, FONT_B)
            self.y += ROW_PITCH
            if rules:
                self.rule(LEFT, RIGHT, self.y - 1.5, 0.6)
                self.y += 2
            self.y += 1

        draw_header()
        num_x0 = min(c.x0 for c in cols if c.align == "right")  # rules span the amount columns
        in_section = False
        for i, row in enumerate(rows):
            if not self.fits(ROW_PITCH):
                self.new_page()
                rec["pages"].append(self.pno)
                rec["header_repeated_on_pages"].append(self.pno)
                draw_header()
            base = self.y + TABLE * 1.1
            font = {"section": FONT_I, "subtotal": FONT_B, "total": FONT_B}.get(row.kind, FONT_R)
            if rules and row.kind in ("subtotal", "total"):
                self.rule(num_x0, RIGHT, self.y + 0.5, 0.5)
            for j, (text, col) in enumerate(zip(row.cells, cols)):
                if not text:
                    continue
                dx = 8.0 if (j == 0 and indent_items and in_section and row.kind == "item") else 0.0
                bbox = self.cell(text, col, base, font, dx)
                rec["cells"].append({"row": i, "col": j, "text": text, "page": self.pno, "bbox": bbox})
            if row.kind == "section":
                in_section = True
            self.y += ROW_PITCH
            if rules and row.kind == "total":
                self.rule(num_x0, RIGHT, self.y - 1.0, 0.5)
                self.rule(num_x0, RIGHT, self.y + 0.6, 0.5)
                self.y += 2
            rec["rows_by_page"].setdefault(str(self.pno), []).append(row.cells)
        self.y += 4
        if footnotes:
            fn_pages = set()
            for fn in footnotes:
                p = self.para(fn, size=SMALL, gap_after=1)
                fn_pages.add(p["page"])
            rec["footnote_pages"] = sorted(fn_pages)
            self.y += PARA_GAP - 1
        self.tables.append(rec)
        return rec

    def cell(self, text: str, col: Col, baseline: float, font: pymupdf.Font,
             dx: float = 0.0) -> list[float]:
        """Draw one table cell; returns the box of the drawn text (see ``text_bbox``)."""
        w = width(text, font, TABLE)
        if w > col.x1 - col.x0 + 0.01:
            raise LayoutError(f"cell too wide for its column: {text!r}")
        if col.align == "right":
            x = col.x1 - w
        elif col.align == "center":
            x = (col.x0 + col.x1 - w) / 2
        else:
            x = col.x0 + dx
        self.put(x, baseline, text, font, TABLE)
        return text_bbox(x, baseline, text, font, TABLE)

    # -- finishing -----------------------------------------------------------------------------
    def finish(self) -> bytes:
        for i, page in enumerate(self.doc):
            writers = self.writers[i]
            chrome = pymupdf.TextWriter(page.rect, color=GREY)
            chrome.append((LEFT, HEADER_BASELINE), RUNNING_HEADER, font=FONT_R, fontsize=SMALL)
            foot = RUNNING_FOOTER.format(n=i + 1)
            fw = width(foot, FONT_R, SMALL)
            chrome.append(((PAGE_W - fw) / 2, FOOTER_BASELINE), foot, font=FONT_R, fontsize=SMALL)
            chrome.write_text(page)
            for color in sorted(writers):
                writers[color].write_text(page)
        self.doc.set_metadata({
            "title": "Aurora Components Group - Annual Report 2024",
            "author": "Aurora Components Group plc",
            "subject": "Annual report and consolidated financial statements 2024 (fictional sample)",
            "keywords": "annual report, IFRS, sample",
            "creator": GENERATOR,
            "producer": "VERA sample generator",
            "creationDate": "D:20250101000000",
            "modDate": "D:20250101000000",
        })
        self.doc.set_toc([])
        self.doc.subset_fonts()
        return self.doc.tobytes(garbage=4, deflate=True, no_new_id=True)
