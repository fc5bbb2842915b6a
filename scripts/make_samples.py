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

The script is split by document: ``sample_docs/aurora.py`` writes the annual report over the layout
engine of ``sample_docs/layout.py``, ``sample_docs/policies.py`` the Markdown policies; this script
generates them all, adds the document-coverage truth and checks every file against its ground truth.

Usage::

    python scripts/make_samples.py            # generate, then self-check
    python scripts/make_samples.py --check    # only verify the files on disk (and determinism)

The PDF is typeset with ``pymupdf.TextWriter`` and a small line-breaking engine rather than
``Page.insert_htmlbox``: MuPDF's HTML engine shapes text with HarfBuzz and turns "fi"/"fl" into
ligature glyphs (U+FB01/U+FB02 in extracted text), which would make exact-text ground truth
ambiguous. The engine (``sample_docs/layout.py``) knows where every line, heading, table row and list item lands, and it
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
from pathlib import Path

import pymupdf
import yaml

from sample_docs.common import GENERATOR, GT_NAME, OUT_DIR, PDF_NAME
from sample_docs.layout import BODY, BOTTOM, HEADING_SIZE, LEFT, RIGHT, SMALL, TOP, b
from sample_docs.aurora import build_report
from sample_docs.policies import POLICIES, build_markdown

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
