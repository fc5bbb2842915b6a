#!/usr/bin/env python
"""Generate VERA's bundled sample documents and their ground truth, deterministically.

Outputs (all under ``data/samples/``):

* ``Aurora_Annual_Report_2024.pdf`` - a fictional annual report laid out page by page with real
  text in the PDF base-14 Helvetica faces (embedded as subsets), so a parser sees only font sizes,
  weights and positions. No outline/bookmarks are written.
* ``information_security_policy.md``, ``expense_policy.md``, ``data_retention_policy.md``.
* ``ground_truth.json`` - written from this script's own content and layout data, never by parsing
  the outputs. It includes the expected values of library metrics (``vera_core/data/metrics.md``) for FY2024,
  computed from the same source figures the statements print.

Usage::

    python scripts/make_samples.py            # generate, then self-check
    python scripts/make_samples.py --check    # only verify the files on disk (and determinism)

The PDF is typeset with ``pymupdf.TextWriter`` and a small line-breaking engine rather than
``Page.insert_htmlbox``: MuPDF's HTML engine shapes text with HarfBuzz and turns "fi"/"fl" into
ligature glyphs (U+FB01/U+FB02 in extracted text), which would make exact-text ground truth
ambiguous. The engine below knows where every line, heading, table row and list item lands, and it
refuses to place anything outside the text area (it fails loudly instead of overflowing).

Ground-truth conventions: page numbers are 1-based; a heading's ``path`` includes the heading itself;
a ``section_path`` is the ``path`` of the innermost heading that contains the element.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import textwrap
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal
from pathlib import Path

import pymupdf
import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "data" / "samples"
PDF_NAME = "Aurora_Annual_Report_2024.pdf"
GT_NAME = "ground_truth.json"
GENERATOR = "scripts/make_samples.py"

# --------------------------------------------------------------------------------------------
# Page geometry and typography
# --------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------
# Financial data (EUR thousand) - every figure in the report derives from these
# --------------------------------------------------------------------------------------------

SEGMENTS = [  # name, revenue 2024, revenue 2023, adjusted EBITDA 2024, capex 2024
    ("Motion Control", 412_300, 398_750, 71_480, 27_640),
    ("Fluid Power", 236_450, 251_200, 31_920, 14_210),
    ("Sensors & Electronics", 148_900, 102_600, 29_380, 12_870),
    ("Energy Transmission", 111_450, 108_320, 18_760, 8_930),
    ("Aftermarket Services", 123_300, 119_630, 22_630, 3_150),
]
CORPORATE_EBITDA, CORPORATE_CAPEX = (-14_320, 3_940)
NORDLICHT_REVENUE = 31_200
NORDLICHT_CONSIDERATION = 48_500

REVENUE = (sum(s[1] for s in SEGMENTS), sum(s[2] for s in SEGMENTS))

# income statement lines: (label, note, 2024, 2023)
IS_LINES = {
    "cost_of_sales": (-724_180, -697_340),
    "selling": (-92_610, -88_420),
    "admin": (-71_350, -69_880),
    "rnd": (-38_920, -33_150),
    "other_income": (6_140, 4_870),
    "finance_income": (3_210, 2_040),
    "finance_costs": (-18_460, -15_930),
    "tax": (-23_580, -20_010),
    "nci": (1_630, 1_140),
}
SHARES_THOUSANDS = 50_000


def _pair(f) -> tuple[int, int]:
    return f(0), f(1)


GROSS = _pair(lambda i: REVENUE[i] + IS_LINES["cost_of_sales"][i])
OP = _pair(lambda i: GROSS[i] + IS_LINES["selling"][i] + IS_LINES["admin"][i] + IS_LINES["rnd"][i]
           + IS_LINES["other_income"][i])
PBT = _pair(lambda i: OP[i] + IS_LINES["finance_income"][i] + IS_LINES["finance_costs"][i])
PROFIT = _pair(lambda i: PBT[i] + IS_LINES["tax"][i])
OWNERS = _pair(lambda i: PROFIT[i] - IS_LINES["nci"][i])
EPS = _pair(lambda i: OWNERS[i] / SHARES_THOUSANDS)

DEPRECIATION = (48_370, 44_120)
CF_WORKING = [
    ("Change in inventories", -11_260, -12_360),
    ("Change in trade and other receivables", -9_870, -10_940),
    ("Change in trade and other payables", 6_920, 9_310),
    ("Change in provisions", 2_940, -1_180),
]
INTEREST_PAID, TAX_PAID = (-16_870, -14_520), (-21_730, -18_640)
CF_INVESTING = [
    ("Purchase of property, plant and equipment", -61_280, -54_930),
    ("Purchase of intangible assets", -9_460, -7_820),
    ("Acquisition of subsidiary, net of cash acquired", -45_270, 0),
    ("Proceeds from sale of property, plant and equipment", 2_140, 1_630),
    ("Interest received", 3_010, 1_980),
]
DIVIDENDS = (-30_000, -27_500)
CF_FINANCING = [
    ("Proceeds from borrowings", 80_000, 40_000),
    ("Repayment of borrowings", -54_000, -35_500),
    ("Payment of lease liabilities", -8_640, -7_910),
    ("Dividends paid to owners of the parent", DIVIDENDS[0], DIVIDENDS[1]),
    ("Dividends paid to non-controlling interests", -510, -420),
]
FX_EFFECT = (-1_020, -1_260)

NET_FINANCE = _pair(lambda i: -(IS_LINES["finance_income"][i] + IS_LINES["finance_costs"][i]))
CASH_GENERATED = _pair(lambda i: PROFIT[i] + DEPRECIATION[i] + NET_FINANCE[i] - IS_LINES["tax"][i]
                       + sum(w[1 + i] for w in CF_WORKING))
NET_OPERATING = _pair(lambda i: CASH_GENERATED[i] + INTEREST_PAID[i] + TAX_PAID[i])
NET_INVESTING = _pair(lambda i: sum(x[1 + i] for x in CF_INVESTING))
NET_FINANCING = _pair(lambda i: sum(x[1 + i] for x in CF_FINANCING))
NET_CHANGE = _pair(lambda i: NET_OPERATING[i] + NET_INVESTING[i] + NET_FINANCING[i])
CASH_2023 = 112_450
CASH = (CASH_2023 + NET_CHANGE[0] + FX_EFFECT[0], CASH_2023)
OPENING_CASH = (CASH_2023, CASH_2023 - NET_CHANGE[1] - FX_EFFECT[1])

# Borrowings: 2024 follows from 2023 and the financing cash flows.
CURRENT_BORROWINGS = (42_000, 38_500)
NC_BORROWINGS_2023 = 231_000
NC_BORROWINGS = (NC_BORROWINGS_2023 + CURRENT_BORROWINGS[1] + CF_FINANCING[0][1] + CF_FINANCING[1][1]
                 - CURRENT_BORROWINGS[0], NC_BORROWINGS_2023)

BS_NON_CURRENT_LIAB = [
    ("Borrowings", "", NC_BORROWINGS[0], NC_BORROWINGS[1]),
    ("Lease liabilities", "", 34_820, 32_410),
    ("Employee benefit obligations", "", 27_640, 29_880),
    ("Provisions", "4", 9_310, 7_950),
    ("Deferred tax liabilities", "", 18_260, 14_730),
]
BS_CURRENT_LIAB = [
    ("Trade and other payables", "", 176_940, 168_320),
    ("Borrowings", "", CURRENT_BORROWINGS[0], CURRENT_BORROWINGS[1]),
    ("Lease liabilities", "", 8_150, 7_620),
    ("Current tax liabilities", "", 11_480, 9_860),
    ("Provisions", "4", 6_720, 5_140),
]
SHARE_CAPITAL, SHARE_PREMIUM = (50_000, 50_000), (118_400, 118_400)
OTHER_RESERVES = (-3_480, -5_910)
NCI_EQUITY = (9_870, 8_240)
OTHER_ASSETS = {  # everything except property, plant and equipment
    "non_current": [
        ("Right-of-use assets", "", 41_260, 38_770),
        ("Goodwill", "2", 164_930, 121_480),
        ("Other intangible assets", "", 58_310, 39_640),
        ("Deferred tax assets", "", 12_870, 11_920),
        ("Other financial assets", "", 6_420, 5_980),
    ],
    "current": [
        ("Inventories", "", 184_560, 171_230),
        ("Trade and other receivables", "", 201_340, 188_960),
        ("Current tax assets", "", 3_180, 2_740),
        ("Cash and cash equivalents", "", CASH[0], CASH[1]),
    ],
}
PPE_2023 = 287_910


def _sum(items, i):
    return sum(it[2 + i] for it in items)


TOTAL_NCL = _pair(lambda i: _sum(BS_NON_CURRENT_LIAB, i))
TOTAL_CL = _pair(lambda i: _sum(BS_CURRENT_LIAB, i))
TOTAL_LIAB = _pair(lambda i: TOTAL_NCL[i] + TOTAL_CL[i])
# 2023 retained earnings balance the 2023 sheet; 2024 retained earnings roll forward from 2023 and
# property, plant and equipment balances the 2024 sheet.
_ASSETS_EX_PPE = _pair(lambda i: _sum(OTHER_ASSETS["non_current"], i) + _sum(OTHER_ASSETS["current"], i))
_RET_2023 = PPE_2023 + _ASSETS_EX_PPE[1] - TOTAL_LIAB[1] - NCI_EQUITY[1] - SHARE_CAPITAL[1] \
    - SHARE_PREMIUM[1] - OTHER_RESERVES[1]
RETAINED = (_RET_2023 + OWNERS[0] + DIVIDENDS[0], _RET_2023)
OWNERS_EQUITY = _pair(lambda i: SHARE_CAPITAL[i] + SHARE_PREMIUM[i] + RETAINED[i] + OTHER_RESERVES[i])
TOTAL_EQUITY = _pair(lambda i: OWNERS_EQUITY[i] + NCI_EQUITY[i])
PPE = (TOTAL_EQUITY[0] + TOTAL_LIAB[0] - _ASSETS_EX_PPE[0], PPE_2023)
BS_ASSETS = {
    "non_current": [("Property, plant and equipment", "", PPE[0], PPE[1])] + OTHER_ASSETS["non_current"],
    "current": OTHER_ASSETS["current"],
}
TOTAL_NCA = _pair(lambda i: _sum(BS_ASSETS["non_current"], i))
TOTAL_CA = _pair(lambda i: _sum(BS_ASSETS["current"], i))
TOTAL_ASSETS = _pair(lambda i: TOTAL_NCA[i] + TOTAL_CA[i])

ADJ_EBITDA = sum(s[3] for s in SEGMENTS) + CORPORATE_EBITDA
CAPEX = sum(s[4] for s in SEGMENTS) + CORPORATE_CAPEX
NET_DEBT = _pair(lambda i: NC_BORROWINGS[i] + CURRENT_BORROWINGS[i] + BS_NON_CURRENT_LIAB[1][2 + i]
                 + BS_CURRENT_LIAB[2][2 + i] - CASH[i])


def check_financials() -> None:
    assert ADJ_EBITDA == OP[0] + DEPRECIATION[0], (ADJ_EBITDA, OP[0] + DEPRECIATION[0])
    assert CAPEX == -(CF_INVESTING[0][1] + CF_INVESTING[1][1]), CAPEX
    for i in (0, 1):
        assert TOTAL_ASSETS[i] == TOTAL_EQUITY[i] + TOTAL_LIAB[i]
    assert 0 < PPE[0] - PPE[1] < 40_000, PPE
    assert 60_000 < CASH[0] < 140_000, CASH
    assert RETAINED[0] > RETAINED[1] > 0, RETAINED
    assert round(-DIVIDENDS[0] / SHARES_THOUSANDS, 2) == 0.60


# --------------------------------------------------------------------------------------------
# Computed metrics: the library's formulas (vera_core/data/metrics.md) over the figures above, for FY2024
# --------------------------------------------------------------------------------------------

IS_CAPTION = "Consolidated income statement for the year ended 31 December 2024"
BS_CAPTION = "Consolidated balance sheet as at 31 December 2024"
CF_CAPTION = "Consolidated statement of cash flows for the year ended 31 December 2024"
METRIC_LIBRARY = ROOT / "vera_core" / "data" / "metrics.md"
METRIC_YEAR = 2024
SCALE = 1_000  # the statements print EUR thousand; metrics are computed in EUR


@dataclass(frozen=True)
class Line:
    """A printed statement line a metric reads: its table, row label and figures (2024, 2023)."""

    caption: str
    label: str
    figures: tuple[int, int]
    cost: bool = False
    """Printed in parentheses and used as the amount incurred or spent (the library's convention)."""

    def value(self, year: int) -> float:
        """EUR (not thousands), a cost as a positive amount."""
        figure = self.figures[METRIC_YEAR - year] * SCALE
        return float(-figure if self.cost else figure)


def _bs(section: str, label: str) -> tuple[int, int]:
    items = {"assets": OTHER_ASSETS["current"], "liabilities": BS_CURRENT_LIAB}[section]
    return next((a, c) for n, _, a, c in items if n == label)


REVENUE_L = Line(IS_CAPTION, "Revenue", REVENUE)
COST_OF_SALES_L = Line(IS_CAPTION, "Cost of sales", IS_LINES["cost_of_sales"], cost=True)
OPERATING_PROFIT_L = Line(IS_CAPTION, "Operating profit", OP)
PBT_L = Line(IS_CAPTION, "Profit before tax", PBT)
TAX_L = Line(IS_CAPTION, "Income tax expense", IS_LINES["tax"], cost=True)
PROFIT_L = Line(IS_CAPTION, "Profit for the year", PROFIT)
TOTAL_ASSETS_L = Line(BS_CAPTION, "Total assets", TOTAL_ASSETS)
CURRENT_ASSETS_L = Line(BS_CAPTION, "Total current assets", TOTAL_CA)
CURRENT_LIAB_L = Line(BS_CAPTION, "Total current liabilities", TOTAL_CL)
TOTAL_LIAB_L = Line(BS_CAPTION, "Total liabilities", TOTAL_LIAB)
TOTAL_EQUITY_L = Line(BS_CAPTION, "Total equity", TOTAL_EQUITY)
PPE_L = Line(BS_CAPTION, "Property, plant and equipment", PPE)
INVENTORIES_L = Line(BS_CAPTION, "Inventories", _bs("assets", "Inventories"))
RECEIVABLES_L = Line(BS_CAPTION, "Trade and other receivables", _bs("assets", "Trade and other receivables"))
PAYABLES_L = Line(BS_CAPTION, "Trade and other payables", _bs("liabilities", "Trade and other payables"))
CASH_L = Line(BS_CAPTION, "Cash and cash equivalents", CASH)
DEPRECIATION_L = Line(CF_CAPTION, "Depreciation and amortisation", DEPRECIATION)
OPERATING_CASH_L = Line(CF_CAPTION, "Net cash from operating activities", NET_OPERATING)
CAPEX_L = Line(CF_CAPTION, CF_INVESTING[0][0], (CF_INVESTING[0][1], CF_INVESTING[0][2]), cost=True)


class Reader:
    """Reads lines for one metric as its formula does, left to right, recording each (line, year)."""

    def __init__(self) -> None:
        self.read: list[tuple[str, Line, int]] = []

    def __call__(self, name: str, line: Line, year: int = METRIC_YEAR) -> float:
        if (line, year) not in [(ln, y) for _, ln, y in self.read]:
            self.read.append((name, line, year))
        return line.value(year)

    def avg(self, name: str, line: Line) -> float:
        """The library's avg(x): the year asked and the prior year-end."""
        return (self(name, line) + self(name, line, METRIC_YEAR - 1)) / 2

    def prior(self, name: str, line: Line) -> float:
        return self(name, line, METRIC_YEAR - 1)


# key, the question an analyst asks, the library formula (checked against vera_core/data/metrics.md), the
# same formula over this report's lines. Capital expenditure is the cash flow statement's purchase
# of property, plant and equipment. Left out on purpose: dividend payout (dividends to owners over
# profit including non-controlling interests mixes two bases) and interest coverage (the report
# prints finance costs, not interest expense).
METRICS = [
    ("gross_margin", "What was Aurora's gross margin in FY2024?", "(revenue - cost of sales) / revenue",
     lambda x: (x("revenue", REVENUE_L) - x("cost of sales", COST_OF_SALES_L)) / x("revenue", REVENUE_L)),
    ("operating_margin", "What was Aurora's operating margin for FY2024?", "operating income / revenue",
     lambda x: x("operating income", OPERATING_PROFIT_L) / x("revenue", REVENUE_L)),
    ("net_margin", "What was Aurora's net profit margin in FY2024?", "net income / revenue",
     lambda x: x("net income", PROFIT_L) / x("revenue", REVENUE_L)),
    ("ebitda", "What was Aurora's EBITDA in FY2024?", "operating income + depreciation and amortization",
     lambda x: x("operating income", OPERATING_PROFIT_L) + x("depreciation and amortization", DEPRECIATION_L)),
    ("ebitda_margin", "What was Aurora's EBITDA margin in FY2024?",
     "(operating income + depreciation and amortization) / revenue",
     lambda x: (x("operating income", OPERATING_PROFIT_L) + x("depreciation and amortization", DEPRECIATION_L))
     / x("revenue", REVENUE_L)),
    ("free_cash_flow", "What was Aurora's free cash flow in FY2024?", "operating cash flow - capital expenditure",
     lambda x: x("operating cash flow", OPERATING_CASH_L) - x("capital expenditure", CAPEX_L)),
    ("current_ratio", "What was Aurora's current ratio at the end of FY2024?",
     "total current assets / total current liabilities",
     lambda x: x("total current assets", CURRENT_ASSETS_L) / x("total current liabilities", CURRENT_LIAB_L)),
    ("quick_ratio", "What was Aurora's quick ratio at year end 2024?",
     "(total current assets - inventories) / total current liabilities",
     lambda x: (x("total current assets", CURRENT_ASSETS_L) - x("inventories", INVENTORIES_L))
     / x("total current liabilities", CURRENT_LIAB_L)),
    ("cash_ratio", "What was Aurora's cash ratio at the end of FY2024?",
     "cash and cash equivalents / total current liabilities",
     lambda x: x("cash and cash equivalents", CASH_L) / x("total current liabilities", CURRENT_LIAB_L)),
    ("debt_to_equity", "What was Aurora's debt-to-equity ratio at the end of FY2024?",
     "total liabilities / total equity",
     lambda x: x("total liabilities", TOTAL_LIAB_L) / x("total equity", TOTAL_EQUITY_L)),
    ("working_capital", "How much working capital did Aurora have at the end of FY2024?",
     "total current assets - total current liabilities",
     lambda x: x("total current assets", CURRENT_ASSETS_L) - x("total current liabilities", CURRENT_LIAB_L)),
    ("return_on_assets", "What was Aurora's return on assets in FY2024?", "net income / avg(total assets)",
     lambda x: x("net income", PROFIT_L) / x.avg("total assets", TOTAL_ASSETS_L)),
    ("return_on_equity", "What was Aurora's return on equity in FY2024?", "net income / avg(total equity)",
     lambda x: x("net income", PROFIT_L) / x.avg("total equity", TOTAL_EQUITY_L)),
    ("asset_turnover", "What was Aurora's asset turnover in FY2024?", "revenue / avg(total assets)",
     lambda x: x("revenue", REVENUE_L) / x.avg("total assets", TOTAL_ASSETS_L)),
    ("fixed_asset_turnover", "What was Aurora's fixed asset turnover in FY2024?",
     "revenue / avg(net property, plant and equipment)",
     lambda x: x("revenue", REVENUE_L) / x.avg("net property, plant and equipment", PPE_L)),
    ("inventory_turnover", "What was Aurora's inventory turnover in FY2024?", "cost of sales / avg(inventories)",
     lambda x: x("cost of sales", COST_OF_SALES_L) / x.avg("inventories", INVENTORIES_L)),
    ("days_sales_outstanding", "What were Aurora's days sales outstanding in FY2024?",
     "365 * avg(accounts receivable) / revenue",
     lambda x: 365 * x.avg("accounts receivable", RECEIVABLES_L) / x("revenue", REVENUE_L)),
    ("days_inventory_outstanding", "What were Aurora's days inventory outstanding in FY2024?",
     "365 * avg(inventories) / cost of sales",
     lambda x: 365 * x.avg("inventories", INVENTORIES_L) / x("cost of sales", COST_OF_SALES_L)),
    ("days_payable_outstanding", "What were Aurora's days payable outstanding in FY2024?",
     "365 * avg(accounts payable) / cost of sales",
     lambda x: 365 * x.avg("accounts payable", PAYABLES_L) / x("cost of sales", COST_OF_SALES_L)),
    ("cash_conversion_cycle", "What was Aurora's cash conversion cycle in FY2024?",
     "365 * avg(accounts receivable) / revenue + 365 * avg(inventories) / cost of sales"
     " - 365 * avg(accounts payable) / cost of sales",
     lambda x: 365 * x.avg("accounts receivable", RECEIVABLES_L) / x("revenue", REVENUE_L)
     + 365 * x.avg("inventories", INVENTORIES_L) / x("cost of sales", COST_OF_SALES_L)
     - 365 * x.avg("accounts payable", PAYABLES_L) / x("cost of sales", COST_OF_SALES_L)),
    ("effective_tax_rate", "What was Aurora's effective tax rate in FY2024?",
     "income tax expense / income before income taxes",
     lambda x: x("income tax expense", TAX_L) / x("income before income taxes", PBT_L)),
    ("capex_to_revenue", "What was Aurora's capex as a % of revenue in FY2024?", "capital expenditure / revenue",
     lambda x: x("capital expenditure", CAPEX_L) / x("revenue", REVENUE_L)),
    ("revenue_growth", "What was Aurora's revenue growth in FY2024?", "(revenue - prior(revenue)) / prior(revenue)",
     lambda x: (x("revenue", REVENUE_L) - x.prior("revenue", REVENUE_L)) / x.prior("revenue", REVENUE_L)),
]
METRIC_DIGITS = {"percent": 1, "ratio": 2, "days": 1}  # VERA's default rounding when none is asked
STATEMENT_OF = {IS_CAPTION: "income", BS_CAPTION: "balance", CF_CAPTION: "cash_flow"}


def library_metrics(path: Path = METRIC_LIBRARY) -> dict[str, tuple[str, str]]:
    """key -> (formula, unit) of every `### key` section of the metric library."""
    out = {}
    for block in re.split(r"^### ", path.read_text(encoding="utf-8"), flags=re.M)[1:]:
        key, _, body = block.partition("\n")
        fields = dict(re.findall(r"^- (\w+):\s*(.+?)\s*$", body, flags=re.M))
        out[key.strip()] = (fields["formula"], fields["unit"])
    return out


def stated(value: float, unit: str) -> str:
    """A metric as VERA states it with default rounding (half up): 29.9%, 1.98, 69.0 days, and an
    amount in the statements' unit, EUR thousand (no decimals from 100 up)."""
    shown = value / SCALE if unit == "amount" else value
    digits = METRIC_DIGITS.get(unit, 0 if abs(shown) >= 100 else 2)
    exact = Decimal(repr(abs(shown))) * 10 ** digits
    if abs(exact - exact.to_integral_value(rounding=ROUND_FLOOR) - Decimal("0.5")) < Decimal("1e-6"):
        raise ValueError(f"{value!r} lies on a rounding boundary; the ground truth would be ambiguous")
    text = f"{Decimal(repr(abs(shown))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):,.{digits}f}"
    sign = "-" if shown < 0 else ""
    return {"percent": f"{sign}{text}%", "ratio": f"{sign}{text}", "days": f"{sign}{text} days"}.get(
        unit, f"{sign}€{text} thousand")


def metric_truth(tables: list[dict]) -> list[dict]:
    """Expected FY2024 metrics, each with the printed cells it reads (tied out to the drawn tables)."""
    library = library_metrics()
    by_caption = {t["caption"]: t for t in tables}
    out = []
    for key, question, formula, compute in METRICS:
        if library.get(key, ("", ""))[0] != formula:
            raise ValueError(f"vera_core/data/metrics.md changed {key!r}: {library.get(key)} (script has {formula!r})")
        unit = library[key][1]
        reader = Reader()
        value = compute(reader)
        expected = value * 100 if unit == "percent" else value
        operands = []
        for name, line, year in reader.read:
            table = by_caption[line.caption]
            rows = [i for i, row in enumerate(table["rows"]) if row[0] == line.label]
            if len(rows) != 1:
                raise ValueError(f"{line.label!r} is not one row of {line.caption!r}")
            col = table["header"].index(str(year))
            cell = next(c for c in table["cells"] if (c["row"], c["col"]) == (rows[0], col))
            if cell["text"] != fmt(line.figures[METRIC_YEAR - year]):
                raise ValueError(f"{line.label} {year}: printed {cell['text']!r}, figures say {line.figures}")
            operands.append({"name": name, "row_label": line.label, "period": str(year), "printed": cell["text"],
                             "value": line.value(year), "statement": STATEMENT_OF[line.caption],
                             "table": line.caption, "page": cell["page"], "bbox": cell["bbox"]})
        out.append({"key": key, "question": question, "period": f"FY{METRIC_YEAR}", "formula": formula,
                    "unit": unit, "expected": expected, "rounded": stated(expected, unit), "operands": operands})
    return out


# --------------------------------------------------------------------------------------------
# The annual report
# --------------------------------------------------------------------------------------------

FACT_SENTENCES = {
    "consolidation_basis": "The consolidated financial statements include Aurora Components Group plc "
                           "and all subsidiaries it controls.",
    "accounting_framework": "The consolidated financial statements have been prepared in accordance with "
                            "International Financial Reporting Standards (IFRS) as adopted by the "
                            "European Union.",
    "default_currency": "These financial statements are presented in euro (EUR), which is the Group's "
                        "presentation currency and the functional currency of the parent company.",
    "units": "Unless otherwise stated, all amounts are in thousands of euro (EUR thousand).",
    "reporting_period": "The reporting period is the financial year from 1 January 2024 to 31 December 2024.",
}
REPORTING_PERIOD_END = "2024-12-31"
FACT_VALUES = {
    "default_currency": "EUR",
    "units": "EUR thousand",
    "reporting_period": "financial year from 1 January 2024 to 31 December 2024",
    "accounting_framework": "IFRS",
    "consolidation_basis": "consolidated",
}
ATTRIBUTE_TEXT = "between EUR 2.1 million and EUR 3.4 million"
RISK_REF = "Risk factors on page 11"

SIGNIFICANT_EVENTS = [
    ("Acquisition of Nordlicht Sensors GmbH:",
     f"On 1 April 2024 the Group acquired 100% of Nordlicht Sensors GmbH, a Hamburg-based maker of "
     f"industrial pressure and position sensors, for {meur(NORDLICHT_CONSIDERATION)} in cash. Provisional "
     f"goodwill of EUR 43.5 million was recognised, reflecting expected cross-selling synergies."),
    ("Opening of the Brno production line:",
     "A fully automated line for precision ball screws started serial production in Brno, Czech Republic, "
     "in September 2024, adding capacity of 180,000 units a year at a total cost of EUR 22.8 million."),
    ("Refinancing of the revolving credit facility:",
     "In May 2024 the Group replaced its EUR 250 million revolving credit facility with a new "
     "EUR 350 million facility from a group of seven banks, maturing in 2029 with two one-year extension "
     "options."),
    ("Closure of the Lyon assembly plant:",
     "Following consultation with employee representatives, assembly of hydraulic power units moved from "
     "Lyon to the existing sites in Brno and Bilbao. Restructuring costs of EUR 4.2 million were "
     "recognised in 2024."),
    ("Placement of a Schuldschein loan:",
     "In June 2024 the Group placed a EUR 80 million Schuldschein loan in tranches of five and seven years, "
     "the first sustainability-linked financing in its history."),
    ("Voluntary recall of HX-200 valves:",
     "In August 2024 Fluid Power recalled a batch of HX-200 directional control valves after a supplier "
     "seal defect was identified. The Group recognised a provision of EUR 2.6 million for replacement "
     "costs and direct customer compensation."),
    ("Contained cyber security incident:",
     "In October 2024 an attempted ransomware attack on the IT network of the Spanish subsidiary was detected "
     "and contained within hours. No customer data was lost and production was not interrupted."),
]

RISK_FACTORS = [
    ("Cyclical demand in end markets",
     ["A large share of revenue comes from machine builders, mobile machinery manufacturers and process "
      "industries whose investment spending follows the economic cycle. A prolonged downturn in Europe, "
      "where the Group generates 64% of its revenue, would reduce volumes and put pressure on prices and "
      "on the absorption of fixed production costs.",
      "The Group mitigates this risk through its diversified customer base, the growing share of "
      "aftermarket revenue and flexible staffing, but it cannot fully offset a severe and synchronised "
      "decline in its main markets."]),
    ("Raw material and energy prices",
     ["Steel, aluminium, copper and electronic components account for about 41% of cost of sales. Sharp "
      "increases in commodity or energy prices may not be passed on to customers in full or with the "
      "necessary speed, which would compress margins."]),
    ("Supply chain concentration",
     ["Several critical parts, including semiconductor chips for sensors and special seals for hydraulic "
      "valves, are sourced from a small number of suppliers. The HX-200 recall in 2024 showed that a "
      "single supplier defect can lead to significant costs and reputational damage."]),
    ("Information security and cyber threats",
     ["The Group depends on networked production systems, engineering data and enterprise software. "
      "A successful cyber attack could halt production, expose confidential customer designs or lead to "
      "regulatory penalties. Engineering data is encrypted at rest and in transit, and the controls are "
      "described in the Group's Information Security Policy."]),
    ("Currency and interest rate exposure",
     ["Although the presentation currency is the euro, about 22% of revenue is earned in US dollars, "
      "Swedish krona and Czech koruna. Adverse exchange rate movements and higher interest rates on "
      "floating-rate borrowings could reduce reported profit and cash flow."]),
]


def build_report() -> tuple[bytes, dict]:
    check_financials()
    rep = Report()
    facts: dict[str, dict] = {}
    page_refs: list[dict] = []

    def fact_para(keys: list[str], extra: str = "") -> None:
        text = " ".join(FACT_SENTENCES[k] for k in keys) + (" " + extra if extra else "")
        p = rep.para(text)
        for k in keys:
            facts[k] = {"value": FACT_VALUES[k], "page": p["page"], "evidence": FACT_SENTENCES[k],
                        "section_path": rep.section_path()}

    # ---------------------------------------------------------------- page 1: About this report
    rep.heading(1, "About this report")
    rep.para(f"This annual report of {COMPANY} (\"Aurora\" or the \"Group\") covers the Group's strategy, "
             "performance, risks and consolidated financial statements for 2024. Aurora designs and "
             "manufactures precision motion, fluid power and sensing components for industrial customers "
             "across Europe and North America from 14 manufacturing sites in seven countries. The parent "
             "company is incorporated and domiciled in Ireland, and its shares are listed on Euronext Dublin.")
    rep.heading(2, "Reporting scope and presentation")
    fact_para(["consolidation_basis"],
              "Associates and joint ventures are accounted for using the equity method. Subsidiaries are "
              "consolidated from the date on which control is obtained until the date on which it ceases.")
    fact_para(["accounting_framework"],
              "They are prepared on a historical cost basis, except for derivative financial instruments and "
              "certain other financial assets, which are measured at fair value.")
    fact_para(["default_currency", "units"], "Figures may not add up exactly due to rounding.")
    fact_para(["reporting_period"],
              "Comparative information is presented for the financial year ended 31 December 2023.")
    rep.heading(2, "Forward-looking statements")
    rep.para("This report contains forward-looking statements about the Group's expected performance, "
             "markets and strategy. Such statements reflect management's current expectations and are "
             "subject to risks and uncertainties, many of which are outside the Group's control, that could "
             "cause actual results to differ materially. Aurora undertakes no obligation to update "
             "forward-looking statements except as required by law.")
    rep.heading(2, "Contents")
    contents = [(t, p) for t, p in EXPECTED_L1_PAGES.items() if t != "About this report"]
    for rec in rep.lines([f"{t} — page {p}" for t, p in contents]):
        t, p = rec["text"].rsplit(" — page ", 1)
        page_refs.append({"source_page": rec["page"], "text": rec["text"], "target_page": int(p),
                          "target_heading": t, "kind": "contents"})

    # ---------------------------------------------------------------- page 2: CEO letter
    rep.heading(1, "Letter from the Chief Executive")
    rep.para("Dear shareholders,")
    rep.para(f"2024 was a year in which Aurora showed that a disciplined, engineering-led business can grow in "
             f"a difficult market. Revenue rose by {pct(*REVENUE):.1f}% to {meur(REVENUE[0])}, operating profit "
             f"increased by {pct(*OP):.1f}% to {meur(OP[0])} and we delivered our highest operating margin in a "
             f"decade, despite weak demand from European machine builders in the second half of the year.")
    rep.para("The acquisition of Nordlicht Sensors in April was the most important strategic step of the year. "
             "It gives us proprietary pressure and position sensing technology and brings our Sensors & "
             "Electronics segment to almost EUR 150 million of annual revenue. Integration is ahead of plan, "
             "and the first co-developed smart actuator will ship to customers in the spring of 2025.")
    rep.para("We also took difficult decisions. The closure of our Lyon assembly plant affected 132 colleagues, "
             "and I want to thank them for their professionalism during the transition. At the same time we "
             f"invested {meur(CAPEX)} in new capacity and digital tools, including the automated production "
             "line in Brno, which will lower unit costs in Motion Control from 2025 onwards.")
    ceo_ref = rep.para("Looking ahead, we expect market conditions to remain uneven in the first half of 2025. "
                       f"Our principal risks are described in {RISK_REF}. The Board proposes a dividend of "
                       "EUR 0.64 per share, up from EUR 0.60, reflecting our confidence in the Group's cash "
                       "generation and balance sheet strength.")
    page_refs.append({"source_page": ceo_ref["page"], "text": RISK_REF, "target_page": 11,
                      "target_heading": RISKS, "kind": "cross_reference"})
    rep.para("I would like to thank our 5,800 colleagues, our customers and you, our shareholders, for your "
             "continued support.", gap_after=14)
    rep.lines(["Johanna Lindqvist", "Chief Executive Officer", "Dublin, 26 February 2025"], gap_after=0)

    # ---------------------------------------------------------------- pages 3-5: MD&A
    rep.heading(1, MDA)
    rep.para("The following discussion should be read together with the consolidated financial statements "
             "and the accompanying notes. Percentages are calculated on the basis of unrounded figures, and "
             "amounts in the tables are stated in EUR thousand.")
    rep.heading(2, "Overview")
    rep.para("Aurora operates through five reportable segments: Motion Control, Fluid Power, Sensors & "
             "Electronics, Energy Transmission and Aftermarket Services. The segments serve a diversified base "
             "of more than 6,000 customers in factory automation, mobile machinery, process industries and "
             "renewable energy, and no single customer accounts for more than 4% of revenue. About 64% of revenue is "
             "generated in Europe, 27% in North America and 9% in Asia and the rest of the world.")
    rep.para("Demand in 2024 was mixed. Orders from semiconductor equipment and renewable energy customers grew "
             "strongly, while European machine builders and agricultural equipment manufacturers reduced "
             "production and destocked throughout the second half of the year. Order intake for the Group was "
             "EUR 1,018.6 million, giving a book-to-bill ratio of 0.99. Aftermarket demand was stable, supported "
             "by a larger installed base and new multi-year service agreements with two wind turbine makers.")
    rep.heading(2, "Results of operations")
    rep.heading(3, "Revenue")
    organic = pct(REVENUE[0] - NORDLICHT_REVENUE, REVENUE[1])
    rep.para(f"Group revenue increased by {pct(*REVENUE):.1f}% to {meur(REVENUE[0])} (2023: {meur(REVENUE[1])}). "
             f"Excluding the acquisition of Nordlicht Sensors, organic revenue growth was {organic:.1f}%, with "
             "price increases contributing 1.8 percentage points and volumes 0.3 percentage points.")
    seg_rows = [TableRow([n, fmt(a), fmt(c), fmt_pct(pct(a, c))]) for n, a, c, _, _ in SEGMENTS]
    seg_rows.append(TableRow(["Total", fmt(REVENUE[0]), fmt(REVENUE[1]), fmt_pct(pct(*REVENUE))], "total"))
    rep.table(
        "Revenue by segment",
        ["Segment", "2024", "2023", "Change %"],
        seg_rows,
        [Col(LEFT, 300, "left"), Col(330, 390, "right"), Col(410, 470, "right"), Col(490, RIGHT, "right")],
        ["(1) Amounts in EUR thousand. Sensors & Electronics includes Nordlicht Sensors GmbH from 1 April 2024, "
         f"which contributed revenue of {meur(NORDLICHT_REVENUE)}.",
         "(2) Change % is calculated on unrounded figures; negative changes are shown in parentheses."],
    )
    s = {n: (a, c) for n, a, c, _, _ in SEGMENTS}
    rep.para(f"Motion Control grew by {pct(*s['Motion Control']):.1f}%, supported by semiconductor and "
             "packaging automation projects. Fluid Power revenue declined by "
             f"{-pct(*s['Fluid Power']):.1f}% as agricultural and construction equipment customers cut "
             f"production. Sensors & Electronics grew by {pct(*s['Sensors & Electronics']):.1f}%, of which the "
             "larger part came from the acquisition. Energy Transmission and Aftermarket Services grew by "
             f"{pct(*s['Energy Transmission']):.1f}% and {pct(*s['Aftermarket Services']):.1f}% respectively.")
    rep.heading(3, "Operating costs and margin")
    gm = (GROSS[0] / REVENUE[0] * 100, GROSS[1] / REVENUE[1] * 100)
    om = (OP[0] / REVENUE[0] * 100, OP[1] / REVENUE[1] * 100)
    rep.para(f"Gross profit increased to {meur(GROSS[0])} and the gross margin improved to {gm[0]:.1f}% "
             f"(2023: {gm[1]:.1f}%), as lower freight and energy costs and price increases more than offset "
             "wage inflation. Research and development expenses rose by "
             f"{pct(IS_LINES['rnd'][0], IS_LINES['rnd'][1]):.1f}% to {meur(-IS_LINES['rnd'][0])}, reflecting "
             "the consolidation of Nordlicht Sensors and the smart actuator programme. Selling and distribution "
             "expenses grew more slowly than revenue, as the Group moved a larger share of its distributor "
             "business to its own digital ordering portal.")
    rep.para(f"Operating profit rose by {pct(*OP):.1f}% to {meur(OP[0])}, and the operating margin was "
             f"{om[0]:.1f}% (2023: {om[1]:.1f}%). Operating profit includes restructuring costs of EUR 4.2 "
             "million for the closure of the Lyon plant and acquisition-related expenses of EUR 1.9 million. "
             "Excluding these items, the operating margin would have been 11.2%, the highest level since the "
             "Group's listing in 2011. Depreciation and amortisation increased to "
             f"{meur(DEPRECIATION[0])} (2023: {meur(DEPRECIATION[1])}) as new capacity came into use.")
    rep.heading(3, "Finance costs and taxation")
    rep.para(f"Net finance costs increased to {meur(NET_FINANCE[0])} (2023: {meur(NET_FINANCE[1])}) because "
             "average borrowings were higher after the acquisition of Nordlicht Sensors and the interest rate on "
             "the floating-rate part of the revolving credit facility rose in the first half of the year. The "
             f"effective tax rate was {-IS_LINES['tax'][0] / PBT[0] * 100:.1f}% "
             f"(2023: {-IS_LINES['tax'][1] / PBT[1] * 100:.1f}%), reflecting a higher share of profit earned "
             "in Germany and the United States. Profit for the year attributable to owners of the parent was "
             f"{meur(OWNERS[0])}, and basic earnings per share rose to EUR {EPS[0]:.2f} "
             f"(2023: EUR {EPS[1]:.2f}). Non-controlling interests relate mainly to the 70%-owned Spanish "
             "subsidiary Aurora Transmisiones S.L.")
    rep.heading(3, "Order intake and backlog")
    rep.para("Order intake weakened in the third quarter, mainly in Fluid Power, and recovered slightly in the "
             "fourth quarter as customers in semiconductor equipment and wind energy placed framework orders for "
             "2025. The order backlog at 31 December 2024 was EUR 386.2 million (2023: EUR 402.7 million), of "
             "which about 85% is expected to be delivered in 2025. Cancellations remained below 1% of order "
             "intake throughout the year, and average delivery times returned to pre-pandemic levels of six to eight "
             "weeks for standard products.")
    rep.heading(2, "Significant events")
    lead = rep.para("The following events had a significant effect on the Group's financial position and "
                    "performance in 2024:")
    event_recs = []
    for i, (lead_in, body) in enumerate(SIGNIFICANT_EVENTS):
        event_recs.append(rep.para([b(lead_in), r(" " + body)], indent=18, bullet="•",
                                   gap_after=4 if i < len(SIGNIFICANT_EVENTS) - 1 else PARA_GAP))
    events_gt = {
        "section_path": [MDA, "Significant events"],
        "pages": sorted({e["page"] for e in event_recs}),
        "lead_in": lead["text"],
        "items": [e["text"] for e in event_recs],
        "item_pages": [e["page"] for e in event_recs],
        "bullet": "•",
        "next_heading": "Liquidity and capital resources",
    }
    if events_gt["item_pages"] != [4, 4, 4, 4, 5, 5, 5]:
        raise LayoutError(f"significant events must split 4/3 over pages 4-5, got {events_gt['item_pages']} "
                          f"(tops {[round(e['top']) for e in event_recs]}, y after {rep.y:.0f})")
    rep.heading(2, events_gt["next_heading"])
    rep.heading(3, "Cash flows")
    rep.para(f"Net cash from operating activities was {meur(NET_OPERATING[0])} (2023: {meur(NET_OPERATING[1])}). "
             "Working capital absorbed less cash than in the previous year as inventory levels stabilised in the "
             f"second half. Net cash used in investing activities was {meur(-NET_INVESTING[0])}, including "
             f"capital expenditure of {meur(CAPEX)} and the acquisition of Nordlicht Sensors.")
    rep.heading(3, "Financing and covenants")
    rep.para(f"Net debt, defined as borrowings and lease liabilities less cash and cash equivalents, was "
             f"{meur(NET_DEBT[0])} at 31 December 2024 (2023: {meur(NET_DEBT[1])}). Net debt was "
             f"{NET_DEBT[0] / ADJ_EBITDA:.1f} times adjusted EBITDA of {meur(ADJ_EBITDA)}, well within the "
             "covenant limit of 3.0 times. At year end the Group had undrawn committed facilities of "
             "EUR 310.0 million.")
    mda_ref = rep.para("Factors that could affect the Group's liquidity, including the availability of "
                       "financing and movements in interest rates, are discussed in "
                       f"{RISK_REF}.")
    page_refs.append({"source_page": mda_ref["page"], "text": RISK_REF, "target_page": 11,
                      "target_heading": RISKS, "kind": "cross_reference"})
    rep.heading(2, "Outlook")
    rep.para("For 2025 the Group expects organic revenue growth of between 1% and 3% and an operating margin "
             "of around 11%, assuming no further deterioration in European industrial production. Capital "
             "expenditure is planned at about 6% of revenue.")

    # ---------------------------------------------------------------- pages 6-8: statements
    rep.heading(1, FS)
    rep.para("The consolidated financial statements on the following pages were approved by the Board of "
             "Directors on 26 February 2025. The accompanying notes form an integral part of these statements.")
    rep.heading(2, "Consolidated income statement")
    stmt_cols = [Col(LEFT, 330, "left"), Col(345, 385, "center"), Col(400, 470, "right"),
                 Col(482, RIGHT, "right")]
    stmt_header = ["EUR thousand", "Note", "2024", "2023"]
    L = IS_LINES
    is_rows = [
        TableRow(["Revenue", "3", fmt(REVENUE[0]), fmt(REVENUE[1])]),
        TableRow(["Cost of sales", "", fmt(L["cost_of_sales"][0]), fmt(L["cost_of_sales"][1])]),
        TableRow(["Gross profit", "", fmt(GROSS[0]), fmt(GROSS[1])], "subtotal"),
        TableRow(["Selling and distribution expenses", "", fmt(L["selling"][0]), fmt(L["selling"][1])]),
        TableRow(["Administrative expenses", "", fmt(L["admin"][0]), fmt(L["admin"][1])]),
        TableRow(["Research and development expenses", "", fmt(L["rnd"][0]), fmt(L["rnd"][1])]),
        TableRow(["Other operating income", "", fmt(L["other_income"][0]), fmt(L["other_income"][1])]),
        TableRow(["Operating profit", "3", fmt(OP[0]), fmt(OP[1])], "subtotal"),
        TableRow(["Finance income", "", fmt(L["finance_income"][0]), fmt(L["finance_income"][1])]),
        TableRow(["Finance costs", "", fmt(L["finance_costs"][0]), fmt(L["finance_costs"][1])]),
        TableRow(["Profit before tax", "", fmt(PBT[0]), fmt(PBT[1])], "subtotal"),
        TableRow(["Income tax expense", "", fmt(L["tax"][0]), fmt(L["tax"][1])]),
        TableRow(["Profit for the year", "", fmt(PROFIT[0]), fmt(PROFIT[1])], "total"),
        TableRow(["Attributable to owners of the parent", "", fmt(OWNERS[0]), fmt(OWNERS[1])]),
        TableRow(["Attributable to non-controlling interests", "", fmt(L["nci"][0]), fmt(L["nci"][1])]),
        TableRow(["Basic and diluted earnings per share (EUR)", "", f"{EPS[0]:.2f}", f"{EPS[1]:.2f}"]),
    ]
    rep.table(IS_CAPTION, stmt_header, is_rows,
              stmt_cols,
              ["(1) Comparative figures for 2023 have been re-presented to reflect the reclassification of "
               "outbound freight costs from cost of sales to selling and distribution expenses.",
               "(2) Basic and diluted earnings per share are identical because no dilutive instruments were "
               f"outstanding. The weighted average number of shares was {SHARES_THOUSANDS // 1000} million."],
              rules=True)

    rep.heading(2, "Consolidated balance sheet")
    bs_rows: list[TableRow] = [TableRow(["Non-current assets", "", "", ""], "section")]
    bs_rows += [TableRow([n, note, fmt(a), fmt(c)]) for n, note, a, c in BS_ASSETS["non_current"]]
    bs_rows.append(TableRow(["Total non-current assets", "", fmt(TOTAL_NCA[0]), fmt(TOTAL_NCA[1])], "subtotal"))
    bs_rows.append(TableRow(["Current assets", "", "", ""], "section"))
    bs_rows += [TableRow([n, note, fmt(a), fmt(c)]) for n, note, a, c in BS_ASSETS["current"]]
    bs_rows.append(TableRow(["Total current assets", "", fmt(TOTAL_CA[0]), fmt(TOTAL_CA[1])], "subtotal"))
    bs_rows.append(TableRow(["Total assets", "", fmt(TOTAL_ASSETS[0]), fmt(TOTAL_ASSETS[1])], "total"))
    bs_rows.append(TableRow(["Equity", "", "", ""], "section"))
    bs_rows += [
        TableRow(["Share capital", "", fmt(SHARE_CAPITAL[0]), fmt(SHARE_CAPITAL[1])]),
        TableRow(["Share premium", "", fmt(SHARE_PREMIUM[0]), fmt(SHARE_PREMIUM[1])]),
        TableRow(["Retained earnings", "", fmt(RETAINED[0]), fmt(RETAINED[1])]),
        TableRow(["Other reserves", "", fmt(OTHER_RESERVES[0]), fmt(OTHER_RESERVES[1])]),
        TableRow(["Equity attributable to owners of the parent", "", fmt(OWNERS_EQUITY[0]),
                  fmt(OWNERS_EQUITY[1])], "subtotal"),
        TableRow(["Non-controlling interests", "", fmt(NCI_EQUITY[0]), fmt(NCI_EQUITY[1])]),
        TableRow(["Total equity", "", fmt(TOTAL_EQUITY[0]), fmt(TOTAL_EQUITY[1])], "subtotal"),
        TableRow(["Non-current liabilities", "", "", ""], "section"),
    ]
    bs_rows += [TableRow([n, note, fmt(a), fmt(c)]) for n, note, a, c in BS_NON_CURRENT_LIAB]
    bs_rows.append(TableRow(["Total non-current liabilities", "", fmt(TOTAL_NCL[0]), fmt(TOTAL_NCL[1])],
                            "subtotal"))
    bs_rows.append(TableRow(["Current liabilities", "", "", ""], "section"))
    bs_rows += [TableRow([n, note, fmt(a), fmt(c)]) for n, note, a, c in BS_CURRENT_LIAB]
    bs_rows.append(TableRow(["Total current liabilities", "", fmt(TOTAL_CL[0]), fmt(TOTAL_CL[1])], "subtotal"))
    bs_rows.append(TableRow(["Total liabilities", "", fmt(TOTAL_LIAB[0]), fmt(TOTAL_LIAB[1])], "subtotal"))
    bs_rows.append(TableRow(["Total equity and liabilities", "", fmt(TOTAL_ASSETS[0]), fmt(TOTAL_ASSETS[1])],
                            "total"))
    bs = rep.table(BS_CAPTION, stmt_header, bs_rows, stmt_cols,
                   ["(1) Goodwill and other intangible assets at 31 December 2024 include provisional amounts "
                    "arising from the acquisition of Nordlicht Sensors GmbH."],
                   indent_items=True)
    if len(bs["pages"]) != 2:
        raise LayoutError(f"the balance sheet must span two pages, got {bs['pages']}")

    rep.page_break()  # each remaining statement starts on a fresh page
    rep.heading(2, "Consolidated statement of cash flows")
    cf_rows = [
        TableRow(["Operating activities", "", ""], "section"),
        TableRow(["Profit for the year", fmt(PROFIT[0]), fmt(PROFIT[1])]),
        TableRow(["Depreciation and amortisation", fmt(DEPRECIATION[0]), fmt(DEPRECIATION[1])]),
        TableRow(["Net finance costs", fmt(NET_FINANCE[0]), fmt(NET_FINANCE[1])]),
        TableRow(["Income tax expense", fmt(-L["tax"][0]), fmt(-L["tax"][1])]),
    ]
    cf_rows += [TableRow([n, fmt(a), fmt(c)]) for n, a, c in CF_WORKING]
    cf_rows += [
        TableRow(["Cash generated from operations", fmt(CASH_GENERATED[0]), fmt(CASH_GENERATED[1])], "subtotal"),
        TableRow(["Interest paid", fmt(INTEREST_PAID[0]), fmt(INTEREST_PAID[1])]),
        TableRow(["Income taxes paid", fmt(TAX_PAID[0]), fmt(TAX_PAID[1])]),
        TableRow(["Net cash from operating activities", fmt(NET_OPERATING[0]), fmt(NET_OPERATING[1])],
                 "subtotal"),
        TableRow(["Investing activities", "", ""], "section"),
    ]
    cf_rows += [TableRow([n, fmt(a) if a else "—", fmt(c) if c else "—"]) for n, a, c in CF_INVESTING]
    cf_rows += [
        TableRow(["Net cash used in investing activities", fmt(NET_INVESTING[0]), fmt(NET_INVESTING[1])],
                 "subtotal"),
        TableRow(["Financing activities", "", ""], "section"),
    ]
    cf_rows += [TableRow([n, fmt(a), fmt(c)]) for n, a, c in CF_FINANCING]
    cf_rows += [
        TableRow(["Net cash used in financing activities", fmt(NET_FINANCING[0]), fmt(NET_FINANCING[1])],
                 "subtotal"),
        TableRow(["Net change in cash and cash equivalents", fmt(NET_CHANGE[0]), fmt(NET_CHANGE[1])], "subtotal"),
        TableRow(["Cash and cash equivalents at 1 January", fmt(OPENING_CASH[0]), fmt(OPENING_CASH[1])], "plain"),
        TableRow(["Effect of exchange rate changes", fmt(FX_EFFECT[0]), fmt(FX_EFFECT[1])], "plain"),
        TableRow(["Cash and cash equivalents at 31 December", fmt(CASH[0]), fmt(CASH[1])], "total"),
    ]
    assert NET_FINANCING[0] < 0 and NET_FINANCING[1] < 0
    rep.table(CF_CAPTION, ["EUR thousand", "2024", "2023"], cf_rows,
              [Col(LEFT, 380, "left"), Col(400, 470, "right"), Col(482, RIGHT, "right")],
              ["(1) Cash flows from operating activities are presented using the indirect method. Interest paid "
               "is classified as an operating cash flow and interest received as an investing cash flow."],
              keep_together=True, indent_items=True)

    # ---------------------------------------------------------------- pages 9-10: notes
    rep.heading(1, NOTES)
    rep.heading(2, "Note 1 Basis of preparation")
    rep.para(f"{COMPANY} is a public limited company incorporated and domiciled in Ireland. "
             + FACT_SENTENCES["accounting_framework"] + " " + FACT_SENTENCES["consolidation_basis"])
    rep.para(FACT_SENTENCES["default_currency"] + " " + FACT_SENTENCES["units"] + " "
             + FACT_SENTENCES["reporting_period"] + " The financial statements were prepared on a going "
             "concern basis; the Directors have assessed cash flow forecasts for at least twelve months from "
             "the date of approval.")
    rep.heading(2, "Note 2 Significant accounting policies")
    rep.para("The accounting policies set out below have been applied consistently to all periods presented. "
             "Amendments to IFRS that became effective on 1 January 2024 had no material effect on the "
             "consolidated financial statements.")
    rep.heading(3, "Revenue recognition")
    rep.para("Revenue from the sale of components is recognised when control passes to the customer, which is "
             "normally on delivery in accordance with the agreed Incoterms. Revenue from service contracts in "
             "Aftermarket Services is recognised over time as the services are rendered. Volume rebates are "
             "estimated using the expected value method and deducted from revenue.")
    rep.heading(3, "Goodwill and impairment")
    rep.para("Goodwill is allocated to the groups of cash-generating units that are expected to benefit from the "
             "business combination and is tested for impairment at least annually. The recoverable amount is "
             "determined on a value-in-use basis using five-year cash flow projections and pre-tax discount "
             "rates between 10.2% and 12.8%. No impairment was required in 2024 or 2023.")
    rep.heading(3, "Provisions")
    rep.para("A provision is recognised when the Group has a present obligation as a result of a past event, it "
             "is probable that an outflow of resources will be required and the amount can be estimated "
             "reliably. Warranty provisions are based on historical claim rates for each product family.")

    rep.page_break()
    rep.heading(2, "Note 3 Segment information")
    rep.para("Reportable segments correspond to the Group's business units, which are managed separately and "
             "reviewed monthly by the Chief Executive. Segment performance is measured by adjusted EBITDA, "
             "which excludes restructuring costs and acquisition-related expenses.")
    note3_rows = [TableRow([n, fmt(a), fmt(e), fmt(cx)]) for n, a, _, e, cx in SEGMENTS]
    note3_rows.append(TableRow(["Corporate and eliminations", "—", fmt(CORPORATE_EBITDA), fmt(CORPORATE_CAPEX)]))
    note3_rows.append(TableRow(["Group", fmt(REVENUE[0]), fmt(ADJ_EBITDA), fmt(CAPEX)], "total"))
    rep.table("Segment results 2024",
              ["EUR thousand", "Revenue", "Adjusted EBITDA", "Capital expenditure"],
              note3_rows,
              [Col(LEFT, 260, "left"), Col(280, 340, "right"), Col(360, 440, "right"), Col(460, RIGHT, "right")],
              [f"(1) Group adjusted EBITDA equals operating profit of {fmt(OP[0])} plus depreciation and "
               f"amortisation of {fmt(DEPRECIATION[0])}."])

    rep.heading(2, "Note 4 Provisions and contingent liabilities")
    prov = (BS_NON_CURRENT_LIAB[3][2] + BS_CURRENT_LIAB[4][2], BS_NON_CURRENT_LIAB[3][3] + BS_CURRENT_LIAB[4][3])
    rep.para(f"Provisions of {meur(prov[0])} (2023: {meur(prov[1])}) comprise product warranties, the "
             "HX-200 recall, restructuring and environmental obligations. Of the total, "
             f"{meur(BS_CURRENT_LIAB[4][2])} is expected to be used within one year.")
    sig_ref = "Significant events on page 4"
    attr = rep.para("Customers affected by the HX-200 recall described under "
                    f"{sig_ref} have brought claims for consequential losses in Germany and Austria. "
                    "No provision has been recognised for these claims because the Group does not consider an "
                    "outflow probable. Based on legal advice, the Group estimates the aggregate range of "
                    f"reasonably possible losses at {ATTRIBUTE_TEXT}.")
    page_refs.append({"source_page": attr["page"], "text": sig_ref, "target_page": 4,
                      "target_heading": "Significant events", "kind": "cross_reference"})
    attribute = {"text": ATTRIBUTE_TEXT, "page": attr["page"], "section_path": rep.section_path(),
                 "sentence": "Based on legal advice, the Group estimates the aggregate range of reasonably "
                             f"possible losses at {ATTRIBUTE_TEXT}.",
                 "low": {"amount": 2.1, "unit": "EUR million"}, "high": {"amount": 3.4, "unit": "EUR million"}}
    rep.heading(2, "Note 5 Events after the reporting period")
    rep.para("On 14 January 2025 the Group signed an agreement to acquire the remaining 30% interest in Aurora "
             "Transmisiones S.L. for EUR 6.2 million, subject to customary closing conditions. On 26 February "
             "2025 the Board proposed a dividend of EUR 0.64 per share, or EUR 32.0 million in total, which has "
             "not been recognised as a liability at 31 December 2024.")

    # ---------------------------------------------------------------- page 11: risk factors
    rep.heading(1, RISKS)
    rep.para("The risks below could have a material adverse effect on the Group's revenue, profit, cash flow or "
             "financial position. They are not the only risks the Group faces, and the order in which they are "
             "presented does not indicate their likelihood or potential impact.")
    for title, paras in RISK_FACTORS:
        rep.heading(2, title)
        for ptxt in paras:
            rep.para(ptxt)

    # ---------------------------------------------------------------- checks on the layout
    for h in rep.headings:
        if h["level"] == 1 and EXPECTED_L1_PAGES.get(h["title"]) != h["page"]:
            raise LayoutError(f"{h['title']!r} landed on page {h['page']}, "
                              f"expected {EXPECTED_L1_PAGES.get(h['title'])}")
    heading_pages = {h["title"]: h["page"] for h in rep.headings}
    for ref in page_refs:
        if heading_pages[ref["target_heading"]] != ref["target_page"]:
            raise LayoutError(f"page reference {ref} is wrong")
    pdf = rep.finish()
    gt = {
        "format": "pdf",
        "pages": len(rep.doc),
        "page_size": [PAGE_W, PAGE_H],
        "has_outline": False,
        "running_header": RUNNING_HEADER,
        "running_footer_pattern": RUNNING_FOOTER,
        "body_font_size": BODY,
        "heading_font_sizes": {str(k): v for k, v in HEADING_SIZE.items()},
        "headings": rep.headings,
        "tables": rep.tables,
        "significant_events": events_gt,
        "page_references": page_refs,
        "attribute": attribute,
        "facts": facts,
        "metrics": metric_truth(rep.tables),
    }
    return pdf, gt


# --------------------------------------------------------------------------------------------
# Markdown policies
# --------------------------------------------------------------------------------------------

NIST_URL = "https://pages.nist.gov/800-63-3/sp800-63b.html"


def H(level: int, title: str) -> tuple:
    return ("h", level, title)


def P(text: str) -> tuple:
    return ("p", text)


def LIST(items: list, lead_in: str | None = None, ordered: bool = False, indent: int = 0) -> tuple:
    """items: str, or (str, [child str]) for a nested list."""
    return ("list", {"lead_in": lead_in, "items": items, "ordered": ordered, "indent": indent})


def OUTLINE(items: list, lead_in: str | None = None, style: str = "a.") -> tuple:
    """A policy outline: items are str, or (str, [child str]); top-level items are marked with letters
    ("a." or "(a)" by `style`), their children with roman numerals ("i." or "(i)"), indented 4 spaces."""
    return ("outline", {"lead_in": lead_in, "items": items, "style": style})


def PIPE(header: list[str], rows: list[list[str]]) -> tuple:
    return ("pipe", header, rows)


def GRID(header: list[str], rows: list[list[str]], widths: list[int]) -> tuple:
    return ("grid", header, rows, widths)


def CODE(lang: str, text: str) -> tuple:
    return ("code", lang, text)


POLICIES: dict[str, dict] = {
    "information_security_policy.md": {
        "front_matter": {"title": "Information Security Policy", "owner": "Chief Information Security Officer",
                         "version": "3.1", "effective_date": "2024-03-01"},
        "blocks": [
            H(1, "Information Security Policy"),
            H(2, "Purpose"),
            P("This policy sets out the minimum controls that protect the confidentiality, integrity and "
              "availability of information held by Aurora Components Group. It applies to all employees, "
              "contractors and third parties who use Group systems or handle Group data."),
            H(2, "Password protection"),
            LIST(["Passwords must be at least 14 characters.",
                  "Passwords must not repeat any of the previous 12 passwords.",
                  "Passwords must be unique to Group systems and must never be shared or sent by email.",
                  "Multi-factor authentication is mandatory for remote access and for all privileged accounts.",
                  "A suspected password compromise must be reported to the IT Service Desk immediately."],
                 lead_in="All user and service accounts must follow these password rules:", indent=4),
            P(f"The rules follow [NIST SP 800-63B]({NIST_URL}). Periodic forced password changes are not required "
              "unless there is evidence that a password has been compromised."),
            H(3, "Exceptions"),
            P("Exceptions to the password rules may be granted by the Chief Information Security Officer for a "
              "maximum of 90 days. Each exception must be recorded in the risk register together with the "
              "compensating controls that apply while it is in force."),
            H(2, "Access control"),
            P("Access is granted on a least-privilege basis and reviewed by the system owner at the frequency "
              "shown below."),
            PIPE(["Role", "Access level", "Review frequency"],
                 [["Employee", "Standard business applications", "Annually"],
                  ["Line manager", "Team data and approval workflows", "Semi-annually"],
                  ["System administrator", "Privileged access to managed systems", "Quarterly"],
                  ["Contractor", "Time-limited project access", "Quarterly"],
                  ["Service account", "Non-interactive access to a single system", "Quarterly"]]),
            H(3, "Account reviews"),
            P("Administrators identify dormant accounts on Linux servers with the following script and lock "
              "them until the owner confirms they are still needed:"),
            CODE("bash",
                 "# Report accounts with no login in the last 90 days\n"
                 "lastlog --before 90 | awk 'NR > 1 {print $1}' > stale_accounts.txt\n"
                 "\n"
                 "# Lock each stale account and keep a record for the review ticket\n"
                 "while read -r account; do\n"
                 "    sudo usermod --lock \"$account\"\n"
                 "    echo \"$(date -I) locked $account\" >> access_review.log\n"
                 "done < stale_accounts.txt"),
            H(2, "Compliance"),
            P("Breaches of this policy may lead to disciplinary action. The Information Security team reports "
              "compliance with this policy to the Audit Committee twice a year."),
        ],
    },
    "expense_policy.md": {
        "front_matter": {"title": "Travel and Expense Policy", "owner": "Group Finance", "version": "2.4",
                         "effective_date": "2024-01-15"},
        "blocks": [
            H(1, "Travel and Expense Policy"),
            H(2, "Scope"),
            P("This policy applies to all employees of Aurora Components Group who incur business travel or "
              "other expenses on behalf of the Group. Local rules may be stricter but never more generous."),
            H(2, "Expense limits"),
            P("The following limits apply per person and include VAT. Amounts are in euro (EUR); expenses in "
              "other currencies are converted at the rate on the date of the card transaction."),
            GRID(["Expense category", "Limit (EUR)", "Conditions"],
                 [["Hotel accommodation", "180 per night",
                   "240 per night in London, Paris, Zurich and New York; breakfast included where available"],
                  ["Meals while travelling", "60 per day", "Itemised receipts required for any single meal "
                                                           "above EUR 25"],
                  ["Client entertainment", "90 per person", "Prior approval by a director; names of all "
                                                            "attendees recorded on the claim"],
                  ["Air travel", "Economy class", "Business class allowed for flights longer than six hours"],
                  ["Rail travel", "First class", "Only where the fare is no more than 30% above standard "
                                                 "class"],
                  ["Private car mileage", "0.30 per km", "Only when cheaper than a rental car or public "
                                                         "transport"]],
                 [24, 15, 40]),
            H(2, "Submitting claims"),
            LIST(["Submit the claim in the expense system within 30 days of the expense being incurred.",
                  "Attach an itemised receipt for every expense above EUR 25.",
                  "State the business purpose and, for entertainment, the names of all attendees.",
                  "Your line manager reviews and approves the claim within five working days.",
                  "Group Finance reimburses approved claims with the next monthly payroll."],
                 lead_in="To be reimbursed, follow these steps:", ordered=True),
            H(3, "Late or incomplete claims"),
            P("Claims submitted more than 90 days after the expense was incurred are reimbursed only with the "
              "approval of the local finance director. Incomplete claims are returned to the employee."),
            H(2, "Non-reimbursable expenses"),
            LIST(["Personal travel insurance, which is provided by the Group.",
                  "Fines for traffic or parking offences.",
                  "Upgrades to flights, trains or hotel rooms paid for privately or with loyalty points.",
                  "Alcohol, unless it is part of approved client entertainment."],
                 lead_in="The Group does not reimburse:"),
        ],
    },
    "data_retention_policy.md": {
        "front_matter": {"title": "Data Retention Policy", "owner": "Group Legal and Compliance",
                         "version": "1.2", "effective_date": "2024-06-30"},
        "blocks": [
            H(1, "Data Retention Policy"),
            H(2, "Purpose"),
            P("Aurora Components Group keeps records for as long as they are needed for business, legal and "
              "regulatory purposes and then disposes of them securely. This policy sets the minimum and maximum "
              "retention periods for the main record types."),
            H(2, "Retention schedule"),
            P("Retention periods run from the end of the financial year in which the record was created, unless "
              "stated otherwise."),
            PIPE(["Record type", "Retention period", "Basis"],
                 [["Accounting records and general ledger", "10 years", "Commercial and tax law"],
                  ["Customer and supplier contracts", "10 years after expiry", "Limitation periods"],
                  ["Payroll records", "7 years", "Tax and social security law"],
                  ["Employee personnel files", "6 years after employment ends", "Employment law"],
                  ["Applications from unsuccessful candidates", "6 months", "Data protection"],
                  ["Product quality and test records", "15 years", "Product liability"],
                  ["CCTV recordings", "30 days", "Data protection"]]),
            H(3, "Legal hold"),
            P("When litigation, an investigation or an audit is reasonably anticipated, Group Legal may suspend "
              "disposal of the relevant records. A legal hold overrides the retention schedule until Group Legal "
              "releases it in writing."),
            H(2, "Storage and disposal"),
            H(3, "Disposal methods"),
            LIST([("Paper records", ["Shred to DIN 66399 security level P-4 or higher.",
                                     "Use locked confidential waste bins until collection."]),
                  ("Electronic records", ["Delete from active systems and shared drives.",
                                          "Wipe or physically destroy storage media before disposal."]),
                  ("Backups", ["Let records expire with the 90-day backup rotation cycle.",
                               "Do not restore expired records except under a legal hold."])],
                 lead_in="Records that have reached the end of their retention period must be disposed of as "
                         "follows:"),
            H(3, "Responsibilities"),
            LIST([("Record owners", ["Classify records and apply the retention schedule."]),
                  ("IT Operations", ["Configure automatic deletion in business systems.",
                                     "Maintain disposal certificates from destruction vendors."]),
                  "Group Legal and Compliance reviews this policy every two years."],
                 lead_in="The following roles are responsible for applying this policy:"),
        ],
    },
    "data_protection_policy.md": {
        "front_matter": {"title": "Data Protection Policy", "owner": "Data Protection Officer", "version": "2.0",
                         "effective_date": "2024-05-15"},
        "topics": {"encryption_at_rest": {
            "section_path": ["Data Protection Policy", "Security of personal data"],
            "passage": "Personal data held in Group databases, file shares and backups must be encrypted at rest "
                       "with AES-256."}},
        "blocks": [
            H(1, "Data Protection Policy"),
            H(2, "Purpose"),
            P("Aurora Components Group processes personal data of employees, customers and suppliers. This policy "
              "sets out how the Group complies with the General Data Protection Regulation and national data "
              "protection law."),
            H(2, "Principles"),
            LIST(["Personal data is processed lawfully, fairly and transparently.",
                  "Personal data is collected for specified purposes and not used for other purposes.",
                  "Only the personal data needed for the purpose is collected.",
                  "Personal data is kept accurate and up to date.",
                  "Personal data is kept no longer than the Data Retention Policy allows."],
                 lead_in="Every business unit applies the following principles:"),
            H(2, "Security of personal data"),
            P("Personal data held in Group databases, file shares and backups must be encrypted at rest with "
              "AES-256. Encryption keys are held in the Group key management service, separately from the data "
              "they protect, and are rotated every twelve months."),
            P("Access to personal data is limited to employees who need it for their role and is logged."),
            H(2, "Data subject requests"),
            P("Requests from individuals to access, correct or erase their personal data are forwarded to the "
              "Data Protection Officer within two working days and answered within one month."),
            H(2, "International transfers"),
            P("Personal data is transferred outside the European Economic Area only under standard contractual "
              "clauses approved by the European Commission or another lawful transfer mechanism."),
        ],
    },
    "mobile_device_policy.md": {
        "front_matter": {"title": "Mobile Device Policy", "owner": "Head of IT Operations", "version": "1.4",
                         "effective_date": "2024-02-01"},
        "topics": {"encryption_at_rest": {
            "section_path": ["Mobile Device Policy", "Device requirements"],
            "passage": "Laptops must use full disk encryption (BitLocker on Windows, FileVault on macOS) before "
                       "they are issued."}},
        "blocks": [
            H(1, "Mobile Device Policy"),
            H(2, "Scope"),
            P("This policy covers laptops, tablets and smartphones that connect to Group systems, whether the "
              "Group or the employee owns them."),
            H(2, "Device requirements"),
            LIST(["Laptops must use full disk encryption (BitLocker on Windows, FileVault on macOS) before they "
                  "are issued.",
                  "Screens lock automatically after five minutes without use.",
                  "Operating system and security updates are installed within 14 days of release.",
                  "Smartphones are enrolled in the Group's mobile device management service."],
                 lead_in="Every device must meet these requirements:"),
            H(2, "Lost or stolen devices"),
            P("A lost or stolen device must be reported to the IT Service Desk within four hours. IT Operations "
              "wipes the device remotely once the report is confirmed."),
            H(2, "Personal devices"),
            P("Employees may read Group email on their own smartphones only through the approved mail app, which "
              "keeps Group data in a separate container that IT Operations can wipe."),
        ],
    },
    "acceptable_use_policy.md": {
        "front_matter": {"title": "Acceptable Use Policy", "owner": "Chief Information Security Officer",
                         "version": "4.0", "effective_date": "2024-04-01"},
        "topics": {"encryption_at_rest": {
            "section_path": ["Acceptable Use Policy", "User responsibilities"],
            "passage": "Switch on persistent data encryption for any USB stick or external drive that holds "
                       "Group information."}},
        "blocks": [
            H(1, "Acceptable Use Policy"),
            H(2, "Purpose"),
            P("This policy sets the rules for using the Group's computers, networks, accounts and removable "
              "media."),
            H(2, "User responsibilities"),
            OUTLINE([("Password protection",
                      ["Choose a passphrase of at least four random words.",
                       "Never write a password down or keep it in a browser.",
                       "Change a password at once when someone else may know it."]),
                     ("Removable media",
                      ["Use only USB sticks and external drives issued by IT Operations.",
                       "Switch on persistent data encryption for any USB stick or external drive that holds "
                       "Group information.",
                       "Hand media that is no longer needed to IT Operations for destruction."]),
                     ("Email and messaging",
                      ["Do not forward Group email to personal accounts.",
                       "Report phishing messages with the Report button."]),
                     ("Internet use",
                      ["Do not download software from unapproved sites."])],
                    lead_in="Every user must follow these rules:"),
            H(2, "Monitoring"),
            P("The Group may monitor the use of its systems within the limits of the law. Monitoring records are "
              "kept for 30 days."),
        ],
    },
    "remote_working_policy.md": {
        "front_matter": {"title": "Remote Working Policy", "owner": "Group Human Resources", "version": "1.1",
                         "effective_date": "2024-09-01"},
        "blocks": [
            H(1, "Remote Working Policy"),
            H(2, "Eligibility"),
            P("Employees whose role allows it may work from home for up to three days a week with the agreement "
              "of their line manager."),
            H(2, "Working securely from home"),
            LIST(["Connect to Group systems only through the Group VPN; all traffic between your device and Group "
                  "systems is then encrypted in transit.",
                  "Keep work files on Group file shares, not on personal cloud services.",
                  "Do not print confidential documents at home.",
                  "Lock your screen whenever you leave your device unattended."],
                 lead_in="When working remotely:"),
            H(2, "Equipment and expenses"),
            P("The Group provides a laptop, a monitor and a headset. Internet costs are covered by a monthly "
              "allowance of EUR 20 paid with the salary."),
        ],
    },
    "incident_response_policy.md": {
        "front_matter": {"title": "Incident Response Policy", "owner": "Chief Information Security Officer",
                         "version": "2.2", "effective_date": "2024-07-01"},
        "blocks": [
            H(1, "Incident Response Policy"),
            H(2, "Reporting an incident"),
            P("Report every suspected security incident to the Security Operations Centre within one hour of "
              "noticing it."),
            OUTLINE([("the date and time the incident was detected;", []),
                     ("the systems and data affected;",
                      ["the categories of personal data, if any;",
                       "the approximate number of records;"]),
                     ("the name and contact details of the person reporting;", []),
                     ("the actions already taken to contain the incident.", [])],
                    lead_in="The following information must be included in every incident notification:",
                    style="(a)"),
            H(2, "Severity levels"),
            PIPE(["Severity", "Example", "Response time"],
                 [["Critical", "Ransomware spreading on the network", "15 minutes"],
                  ["High", "Confirmed loss of personal data", "1 hour"],
                  ["Medium", "Malware on a single laptop", "4 hours"],
                  ["Low", "Phishing email reported, not opened", "1 working day"]]),
            H(2, "Closing an incident"),
            P("The incident manager closes an incident once the root cause is fixed and writes a short review "
              "within ten working days."),
        ],
    },
    "business_continuity_policy.md": {
        "front_matter": {"title": "Business Continuity Policy", "owner": "Chief Operating Officer",
                         "version": "1.0", "effective_date": "2024-10-01"},
        "blocks": [
            H(1, "Business Continuity Policy"),
            H(2, "Objectives"),
            P("The Group keeps its critical processes running, or restores them quickly, after a disruption such "
              "as a fire, a flood, a power failure or a cyber attack."),
            H(2, "Recovery targets"),
            PIPE(["Process", "Recovery time objective", "Recovery point objective"],
                 [["Order intake and invoicing", "8 hours", "1 hour"],
                  ["Production planning", "24 hours", "4 hours"],
                  ["Payroll", "3 days", "24 hours"]]),
            H(2, "Backups"),
            P("Business systems are backed up every night. Backups are copied to a second data centre at least "
              "200 km away and kept for 90 days; a restore is tested every quarter."),
            H(2, "Testing the plans"),
            P("Each site runs a continuity exercise once a year and reports the lessons learned to the Chief "
              "Operating Officer."),
        ],
    },
}


def render_grid(header: list[str], rows: list[list[str]], widths: list[int]) -> str:
    def sep(ch: str) -> str:
        return "+" + "+".join(ch * (w + 2) for w in widths) + "+"

    def row_lines(cells: list[str]) -> list[str]:
        wrapped = [textwrap.wrap(c, w) or [""] for c, w in zip(cells, widths)]
        height = max(len(x) for x in wrapped)
        out = []
        for i in range(height):
            parts = [(x[i] if i < len(x) else "").ljust(w) for x, w in zip(wrapped, widths)]
            out.append("| " + " | ".join(parts) + " |")
        return out

    lines = [sep("-")] + row_lines(header) + [sep("=")]
    for row in rows:
        lines += row_lines(row) + [sep("-")]
    return "\n".join(lines)


def render_pipe(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
                     + [line(r_) for r_ in rows])


ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]


def _outline_marker(label: str, style: str) -> str:
    return f"({label})" if style.startswith("(") else f"{label}."


def build_markdown(name: str, spec: dict) -> tuple[str, dict]:
    fm = spec["front_matter"]
    parts = ["---\n" + "".join(f'{k}: "{v}"\n' for k, v in fm.items()) + "---"]
    path: list[tuple[int, str]] = []
    gt = {"format": "markdown", "front_matter": dict(fm), "headings": [], "tables": [], "code_blocks": [],
          "lists": [], "outlines": [], "links": [], "topics": spec.get("topics", {})}

    def section_path() -> list[str]:
        return [t for _, t in path]

    for block in spec["blocks"]:
        kind = block[0]
        if kind == "h":
            _, level, title = block
            path = [(lv, t) for lv, t in path if lv < level] + [(level, title)]
            parts.append("#" * level + " " + title)
            gt["headings"].append({"title": title, "level": level, "path": section_path()})
        elif kind == "p":
            parts.append("\n".join(textwrap.wrap(block[1], 100, break_long_words=False, break_on_hyphens=False)))
            gt["links"] += re.findall(r"\]\((https?://[^)\s]+)\)", block[1])
        elif kind == "list":
            spec_l = block[1]
            pad = " " * spec_l["indent"]
            lines = []
            texts, nested = [], []
            for i, item in enumerate(spec_l["items"], 1):
                text, children = (item, []) if isinstance(item, str) else item
                marker = f"{i}." if spec_l["ordered"] else "-"
                lines.append(f"{pad}{marker} {text}")
                lines += [f"{pad}    - {c}" for c in children]
                texts.append(text)
                if children:
                    nested.append({"parent": text, "items": list(children)})
            if spec_l["lead_in"]:
                parts.append(spec_l["lead_in"])
            parts.append("\n".join(lines))
            rec = {"section_path": section_path(), "lead_in": spec_l["lead_in"], "items": texts,
                   "ordered": spec_l["ordered"], "marker_indent": spec_l["indent"]}
            if nested:
                rec["nested"] = nested
            gt["lists"].append(rec)
        elif kind == "outline":
            spec_o = block[1]
            lines, items = [], []
            for i, item in enumerate(spec_o["items"]):
                text, children = (item, []) if isinstance(item, str) else item
                marker = _outline_marker(chr(ord("a") + i), spec_o["style"])
                lines.append(f"{marker} {text}")
                kids = [{"marker": _outline_marker(ROMAN[j], spec_o["style"]), "text": c}
                        for j, c in enumerate(children)]
                lines += [f"    {k['marker']} {k['text']}" for k in kids]
                items.append({"marker": marker, "text": text, "children": kids})
            if spec_o["lead_in"]:
                parts.append(spec_o["lead_in"])
            parts.append("\n".join(lines))
            gt["outlines"].append({"section_path": section_path(), "lead_in": spec_o["lead_in"], "items": items})
        elif kind == "pipe":
            _, header, rows = block
            parts.append(render_pipe(header, rows))
            gt["tables"].append({"kind": "pipe", "header": header, "rows": rows, "section_path": section_path()})
        elif kind == "grid":
            _, header, rows, widths = block
            parts.append(render_grid(header, rows, widths))
            gt["tables"].append({"kind": "grid", "header": header, "rows": rows, "section_path": section_path()})
        elif kind == "code":
            _, lang, text = block
            parts.append(f"```{lang}\n{text}\n```")
            gt["code_blocks"].append({"language": lang, "section_path": section_path(), "text": text})
        else:  # pragma: no cover
            raise ValueError(kind)
    return "\n\n".join(parts) + "\n", gt


# --------------------------------------------------------------------------------------------
# Generation and self-check
# --------------------------------------------------------------------------------------------


COVERAGE_QUESTIONS = {
    "encryption_at_rest": "Which policies address encryption of data at rest? Provide the specific policy sections.",
}
"""Document-coverage questions over the sample policies: each policy that addresses the topic says so in
its `topics` (section and passage), in its own words; the others do not address it."""


def document_coverage(documents: dict[str, dict]) -> dict[str, dict]:
    """Per topic: the question, and every policy that addresses it with its section and passage. The
    annual report, in the same store, is of another kind and is never an answer to 'which policies'."""
    out = {}
    for key, question in COVERAGE_QUESTIONS.items():
        found = {name: gt["topics"][key] for name, gt in sorted(documents.items())
                 if gt.get("format") == "markdown" and key in gt.get("topics", {})}
        policies = sorted(n for n, gt in documents.items() if gt.get("format") == "markdown")
        out[key] = {"question": question, "kind": "policy", "documents": found,
                    "not_matching": [n for n in policies if n not in found]}
    return out


def build_all() -> dict[str, bytes]:
    pdf, pdf_gt = build_report()
    files: dict[str, bytes] = {PDF_NAME: pdf}
    documents = {PDF_NAME: pdf_gt}
    for name, spec in POLICIES.items():
        text, gt = build_markdown(name, spec)
        files[name] = text.encode("utf-8")
        documents[name] = gt
    truth = {
        "generator": GENERATOR,
        "conventions": {
            "pages": "1-based, as a PDF viewer shows them",
            "path": "a heading's path lists the titles from the top level down to and including the heading",
            "section_path": "the path of the innermost heading that contains the element",
            "amounts": "table cells are verbatim strings; negatives are in parentheses",
            "cells": "PDF tables: one entry per non-empty body cell (header cells excluded); row/col index "
                     "the table's rows (across pages) and header; page is where the cell is drawn",
            "bbox": "[x0, y0, x1, y1] in PyMuPDF page coordinates (origin top-left, points): x0 = pen start, "
                    "x1 = x0 + advance width, y0/y1 = baseline - ascender/descender * font size "
                    "(pymupdf.Font metrics); matches page.search_for(text) for the cell",
            "period": "columns[j].period is null unless header j is a year; then {kind: fiscal_year, "
                      "fiscal_year, end} for flow statements or {kind: instant, end} for 'as at' captions. "
                      "A table-level period is set only when no column carries one (caption ends in a year)",
            "label_parents": "per row, the label of the section row the row sits under, else null; a "
                             "section ends at its own total row, the next section, or a grand total",
            "metrics": "FY2024 values of vera_core/data/metrics.md formulas over the figures the statements print: "
                       "expected is unrounded (percent metrics in percent, amounts in EUR, not thousands); "
                       "rounded is the answer with VERA's default rounding, half up (percent 1 decimal, ratio 2, "
                       "days 1, amounts in EUR thousand); operands list each cell read in formula order "
                       "(avg(x): the year, then the prior year-end), costs and capex as positive values",
        },
        "documents": documents,
        "document_coverage": document_coverage(documents),
    }
    files[GT_NAME] = (json.dumps(truth, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return files


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def exact_spans(page: pymupdf.Page) -> set[str]:
    return {s["text"].strip() for blk in page.get_text("dict")["blocks"] for ln in blk.get("lines", ())
            for s in ln["spans"]}


def row_on_page(page: pymupdf.Page, row: list[str]) -> bool:
    """All non-empty cells of the row are on the page, on one baseline."""
    hits = [page.search_for(c) for c in row if c]
    if any(not h for h in hits):
        return False
    for lab in hits[0]:
        yc = (lab.y0 + lab.y1) / 2
        if all(any(abs((q.y0 + q.y1) / 2 - yc) < 2 for q in rects) for rects in hits[1:]):
            return True
    return False


def verify(out_dir: Path, files: dict[str, bytes]) -> list[str]:
    """Check the files on disk against the ground truth; returns a list of problems."""
    problems: list[str] = []
    for name, data in files.items():
        on_disk = (out_dir / name).read_bytes()
        if hashlib.sha256(on_disk).digest() != hashlib.sha256(data).digest():
            problems.append(f"{name}: file on disk differs from a fresh generation (not deterministic?)")
    truth = json.loads((out_dir / GT_NAME).read_text(encoding="utf-8"))
    gt = truth["documents"][PDF_NAME]
    doc = pymupdf.open(out_dir / PDF_NAME)
    if doc.page_count != gt["pages"]:
        problems.append(f"page count {doc.page_count} != {gt['pages']}")
    if doc.get_toc():
        problems.append("the PDF has an outline")
    texts = {i + 1: _norm(doc[i].get_text()) for i in range(doc.page_count)}

    def on_page(text: str, page: int, what: str) -> None:
        if len(text) <= 60:
            if not doc[page - 1].search_for(text):
                problems.append(f"{what}: {text!r} not found on page {page}")
        if _norm(text) not in texts[page]:
            problems.append(f"{what}: {text!r} not in the text of page {page}")

    for i, page in enumerate(doc):
        n = i + 1
        spans = [s for blk in page.get_text("dict")["blocks"] for ln in blk.get("lines", ())
                 for s in ln["spans"] if s["text"].strip()]
        for s in spans:
            x0, y0, x1, y1 = s["bbox"]
            chrome = s["text"] in (gt["running_header"], gt["running_footer_pattern"].format(n=n))
            if x0 < LEFT - 0.5 or x1 > RIGHT + 0.5:
                problems.append(f"page {n}: span outside the margins: {s['text']!r}")
            if not chrome and (y0 < TOP - 1 or y1 > BOTTOM + 5):
                problems.append(f"page {n}: span outside the text area: {s['text']!r} {s['bbox']}")
            if not chrome and s["size"] == SMALL and y0 < TOP:
                problems.append(f"page {n}: small text in the header band: {s['text']!r}")
        head = [s for s in spans if s["bbox"][3] < TOP - 10]
        foot = [s for s in spans if s["bbox"][1] > BOTTOM + 10]
        if [(s["text"], s["size"]) for s in head] != [(gt["running_header"], SMALL)]:
            problems.append(f"page {n}: running header wrong: {[s['text'] for s in head]}")
        if [(s["text"], s["size"]) for s in foot] != [(gt["running_footer_pattern"].format(n=n), SMALL)]:
            problems.append(f"page {n}: running footer wrong: {[s['text'] for s in foot]}")

    for h in gt["headings"]:
        page = doc[h["page"] - 1]
        hits = [s for blk in page.get_text("dict")["blocks"] for ln in blk.get("lines", ())
                for s in ln["spans"] if s["text"] == h["title"]]
        want = HEADING_SIZE[h["level"]]
        if not any(abs(s["size"] - want) < 0.01 and s["font"] == "Helvetica-Bold" for s in hits):
            problems.append(f"heading {h['title']!r}: no {want}pt bold span on page {h['page']}")
        for other in range(1, doc.page_count + 1):
            if other != h["page"] and any(
                    s["text"] == h["title"] and s["size"] > BODY
                    for blk in doc[other - 1].get_text("dict")["blocks"] for ln in blk.get("lines", ())
                    for s in ln["spans"]):
                problems.append(f"heading {h['title']!r} also set as a heading on page {other}")

    for t in gt["tables"]:
        on_page(t["caption"], t["pages"][0], "table caption")
        for p in t["pages"]:
            for cell in t["header"]:
                on_page(cell, p, f"header of {t['caption']!r}")
        flat = [row for rows in t["rows_by_page"].values() for row in rows]
        if flat != t["rows"]:
            problems.append(f"{t['caption']!r}: rows_by_page does not add up to rows")
        if sorted(int(p) for p in t["rows_by_page"]) != t["pages"]:
            problems.append(f"{t['caption']!r}: pages do not match rows_by_page")
        for p, rows in t["rows_by_page"].items():
            page = doc[int(p) - 1]
            for row in rows:
                for cell in row:
                    if cell:
                        on_page(cell, int(p), f"cell of {t['caption']!r}")
                if not row_on_page(page, row):
                    problems.append(f"{t['caption']!r}: row {row} is not one aligned line on page {p}")
            # a row recorded on page p must not be set (as the exact label text) on the table's other pages
            for q in t["pages"]:
                if q == int(p):
                    continue
                here = {row[0] for row in t["rows_by_page"][str(q)]}
                there = exact_spans(doc[q - 1])
                for row in rows:
                    if row[0] not in here and row[0] in there:
                        problems.append(f"{t['caption']!r}: row {row[0]!r} also appears on page {q}")
        for fn in t["footnotes"]:
            on_page(fn, t["footnote_pages"][-1], "footnote")
        # cells, columns and label_parents tie out to the table and to the drawn text
        page_of_row = {i: int(p) for i, (p, _) in enumerate(
            (p, row) for p, rows in t["rows_by_page"].items() for row in rows)}
        want_cells = [(i, j, c, page_of_row[i]) for i, row in enumerate(t["rows"]) for j, c in enumerate(row) if c]
        if [(c["row"], c["col"], c["text"], c["page"]) for c in t["cells"]] != want_cells:
            problems.append(f"{t['caption']!r}: cells do not match rows/rows_by_page")
        for c in t["cells"]:
            hits = doc[c["page"] - 1].search_for(c["text"])
            dev = min((max(abs(a - b) for a, b in zip(h, c["bbox"])) for h in hits), default=float("inf"))
            if dev > 0.5:
                problems.append(f"{t['caption']!r}: bbox of cell {c} is {dev:.2f}pt from search_for")
        if [c["header"] for c in t["columns"]] != t["header"]:
            problems.append(f"{t['caption']!r}: columns do not match the header")
        if len(t["label_parents"]) != len(t["rows"]):
            problems.append(f"{t['caption']!r}: label_parents does not have one entry per row")
        labels = {row[0] for row in t["rows"]}
        if any(lp is not None and lp not in labels for lp in t["label_parents"]):
            problems.append(f"{t['caption']!r}: a label parent is not a row label")
        if len(t["rows"]) < 6:
            problems.append(f"{t['caption']!r}: fewer than 6 rows")

    ev = gt["significant_events"]
    if len(ev["items"]) != 7:
        problems.append("there must be exactly 7 significant events")
    for text, p in zip(ev["items"], ev["item_pages"]):
        on_page(text, p, "significant event")
    on_page(ev["lead_in"], ev["item_pages"][0], "significant events lead-in")
    # the list must end where the next heading starts, at the top of page 5
    for ref in gt["page_references"]:
        on_page(ref["text"], ref["source_page"], "page reference")
        on_page(ref["target_heading"], ref["target_page"], "page reference target")
    on_page(gt["attribute"]["text"], gt["attribute"]["page"], "attribute")
    on_page(gt["attribute"]["sentence"], gt["attribute"]["page"], "attribute sentence")
    for key, fact in gt["facts"].items():
        on_page(fact["evidence"], fact["page"], f"fact {key}")
    for metric in gt["metrics"]:
        for op in metric["operands"]:
            on_page(op["printed"], op["page"], f"operand {op['row_label']} {op['period']} of {metric['key']}")

    # markdown
    for name, mgt in truth["documents"].items():
        if mgt["format"] != "markdown":
            continue
        text = (out_dir / name).read_text(encoding="utf-8")
        fm_text = text.split("---\n")[1]
        if yaml.safe_load(fm_text) != mgt["front_matter"]:
            problems.append(f"{name}: front matter mismatch")
        body_lines = text.splitlines()
        for h in mgt["headings"]:
            if "#" * h["level"] + " " + h["title"] not in body_lines:
                problems.append(f"{name}: heading {h['title']!r} missing")
        for t in mgt["tables"]:
            for cell in t["header"] + [c for row in t["rows"] for c in row]:
                if t["kind"] == "pipe" and f" {cell} " not in text:
                    problems.append(f"{name}: pipe cell {cell!r} missing")
                if t["kind"] == "grid" and any(w not in text for w in cell.split()):
                    problems.append(f"{name}: grid cell {cell!r} missing")
        for c in mgt["code_blocks"]:
            if f"```{c['language']}\n{c['text']}\n```" not in text:
                problems.append(f"{name}: code block missing")
        for lst in mgt["lists"]:
            for item in lst["items"]:
                if not any(ln.endswith(" " + item) for ln in body_lines):
                    problems.append(f"{name}: list item {item!r} missing")
        for outline in mgt["outlines"]:
            for item in outline["items"]:
                for entry in [item] + item["children"]:
                    if not any(ln.strip() == f"{entry['marker']} {entry['text']}" for ln in body_lines):
                        problems.append(f"{name}: outline item {entry['text']!r} missing")
        for key, topic in mgt["topics"].items():
            heading = topic["section_path"][-1]
            level = len(topic["section_path"])
            start = text.find("#" * level + " " + heading + "\n")
            following = text.find("\n" + "#" * level + " ", start + 1)
            section = text[start:following if following > 0 else len(text)]
            if start < 0 or _norm(topic["passage"]) not in _norm(section):
                problems.append(f"{name}: {key} passage not in section {heading!r}")
        for url in mgt["links"]:
            if f"({url})" not in text:
                problems.append(f"{name}: link {url} missing")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only verify the files already on disk")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help="output directory (default: data/samples)")
    args = ap.parse_args(argv)
    files = build_all()
    again = build_all()
    if files != again:
        print("generation is not deterministic within one process", file=sys.stderr)
        return 1
    if not args.check:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (args.out / name).write_bytes(data)
            print(f"wrote {args.out / name} ({len(data):,} bytes)")
    problems = verify(args.out, files)
    for p in problems:
        print("PROBLEM:", p, file=sys.stderr)
    if problems:
        return 1
    print("self-check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
