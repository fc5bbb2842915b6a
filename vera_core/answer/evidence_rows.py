"""Evidence rows: one row per claim and citation of an answer, as `vera export` and the app's
CSV download write them (same columns in both)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable

from vera_core.answer.contract import Answer

COLUMNS = ("question", "claim", "citation", "document", "page", "heading_path", "quote", "polygons",
           "retrieval_score", "support", "grounding_score", "label",
           "line_item", "period", "figure_value", "figure_unit", "figure_scale", "printed", "statement",
           "cell_table_id", "cell_row", "cell_col", "cell_page", "cell_bbox",
           "metric", "definition", "expression", "result", "operand", "doc_type", "quarter", "speaker", "table_id")
"""The columns from `line_item` on describe the table cell a figure answer or a metric's operand read, and
the calculation it entered ('' for other claims); the last four where the citation stands: the document's type
and quarter, a transcript turn's speaker, a table's id."""


def evidence_rows(answer: Answer) -> list[dict]:
    """Rows for one answer: each claim (or list item) with each of its citations."""
    by_n = {c.n: c for c in answer.citations}
    support = {tuple(c.citations): c.support for c in answer.verification.claims}
    figures = {f.citation: f for f in answer.figures}
    operands = {o.citation: o for o in answer.calculation.operands} if answer.calculation else {}
    rows = []
    for claim in answer.verification.claims or []:
        for n in claim.citations:
            cite = by_n.get(n)
            if cite is None:
                continue
            rows.append({
                "question": answer.question, "claim": claim.text, "citation": n, "document": cite.doc_name,
                "page": cite.page if cite.page is not None else "", "heading_path": cite.heading_path,
                "quote": cite.quote, "polygons": json.dumps([p.model_dump() for p in cite.polygons]),
                "retrieval_score": cite.score, "support": round(support.get(tuple(claim.citations), claim.support), 4),
                "grounding_score": answer.verification.grounding_score, "label": answer.verification.label,
                **_cell_columns(figures.get(n)), **_calculation_columns(answer, operands.get(n)),
                "doc_type": cite.doc_type, "quarter": cite.quarter, "speaker": cite.speaker, "table_id": cite.table_id})
    return rows


def _cell_columns(figure) -> dict:
    if figure is None:
        return {k: "" for k in COLUMNS[COLUMNS.index("line_item"):]}
    cell = figure.cell
    return {"line_item": figure.line_item, "period": figure.period, "figure_value": figure.value,
            "figure_unit": figure.unit, "figure_scale": figure.scale, "printed": figure.printed,
            "statement": figure.statement, "cell_table_id": cell.chunk_id, "cell_row": cell.row, "cell_col": cell.col,
            "cell_page": cell.page if cell.page is not None else "",
            "cell_bbox": json.dumps(cell.bbox) if cell.bbox else ""}


def _calculation_columns(answer: Answer, operand) -> dict:
    calc = answer.calculation
    if calc is None:
        return {k: "" for k in ("metric", "definition", "expression", "result", "operand")}
    out = {"metric": calc.metric, "definition": calc.definition, "expression": calc.expression,
           "result": calc.rounded or "", "operand": operand.name if operand else ""}
    if operand is not None:  # the operand's cell fills the cell columns (none for an amount a sentence states)
        cell = operand.cell
        out.update({"line_item": operand.name, "period": operand.period, "figure_value": operand.value,
                    "figure_unit": operand.unit, "printed": operand.printed, "statement": operand.statement})
        if cell is not None:
            out.update({"cell_table_id": cell.chunk_id, "cell_row": cell.row, "cell_col": cell.col,
                        "cell_page": cell.page if cell.page is not None else "",
                        "cell_bbox": json.dumps(cell.bbox) if cell.bbox else ""})
    return out


def to_csv(answers: Iterable[Answer]) -> str:
    """CSV text (header + rows) of the evidence of several answers."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS)
    writer.writeheader()
    for answer in answers:
        writer.writerows(evidence_rows(answer))
    return buffer.getvalue()
