"""`vera query`, `vera facts` and `vera export`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from vera_core.documents.filters import LibraryFilters
from vera_core.answer.contract import Answer
from vera_core.answer.evidence_rows import evidence_rows, to_csv
from vera_core.config import VeraSettings
from vera_core.query import QueryEngine
from vera_core.workspace import Workspace


def read_questions(path: Path) -> list[dict]:
    """JSON lines with at least `question`; `doc` (or `doc_name`) optional."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"vera: {path}:{number} is not JSON ({exc.msg}); expected one object per line")
    return out


def answer_many(engine: QueryEngine, questions: list[dict], args) -> list[Answer]:
    answers = []
    for q in questions:
        docs = [q["doc"]] if q.get("doc") else [q["doc_name"]] if q.get("doc_name") and args.scope_docs else []
        answers.append(engine.answer(q["question"], docs=docs or args.doc, mode=args.mode, top_k=args.top_k,
                                     filters=library_filters(args),
                                     hybrid=False if args.dense else None))
    return answers


def render(answer: Answer) -> str:
    """Human-readable answer with citations, grounding and timings."""
    intent = answer.intent
    lines = [answer.answer, ""]
    for c in answer.citations:
        where = f"p. {c.page}" if c.page else c.heading_path
        lines.append(f"[{c.n}] {c.doc_name}, {where} ({c.kind}): {c.quote[:160].replace(chr(10), ' ')}")
    v = answer.verification
    lines += ["", f"Intent: {intent.type}{' - ' + intent.subtype if intent.subtype else ''} (rule {intent.rule})",
              f"Grounding: {v.grounding_score:.2f} ({v.label})"]
    lines += [f"Warning: {w}" for w in v.warnings] + [f"Notice: {n}" for n in answer.notices]
    r, t = answer.retrieval, answer.timings_ms
    lines.append(f"Retrieval: {r.hops} hop(s), coverage {r.coverage:.2f}, {r.candidates} candidates; "
                 f"{t.total:.0f} ms (route {t.route:.0f}, retrieve {t.retrieve:.0f}, synthesize {t.synthesize:.0f}, verify {t.verify:.0f})")
    return "\n".join(lines)


def run_query(args, settings: VeraSettings) -> int:
    engine = QueryEngine(Workspace(settings))
    args.scope_docs = True
    if args.questions:
        output = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
        try:
            for answer in answer_many(engine, read_questions(Path(args.questions)), args):
                output.write(answer.model_dump_json() + "\n")
        finally:
            if args.output:
                output.close()
        return 0
    if not args.question:
        print("vera query: give a QUESTION or --questions FILE.jsonl", file=sys.stderr)
        return 2
    answer = engine.answer(args.question, docs=args.doc, mode=args.mode, top_k=args.top_k,
                           hybrid=False if args.dense else None, filters=library_filters(args))
    print(answer.model_dump_json(indent=2) if args.json else render(answer))
    return 0


def library_filters(args) -> LibraryFilters | None:
    """The quarter, fiscal year, type, speaker and segment options as filters (None when none is given)."""
    filters = LibraryFilters(quarter=tuple(getattr(args, "quarter", ()) or ()),
                             fiscal_year=tuple(getattr(args, "fiscal_year", ()) or ()),
                             doc_type=tuple(getattr(args, "doc_type", ()) or ()),
                             speaker=tuple(getattr(args, "speaker", ()) or ()),
                             segment=tuple(getattr(args, "segment", ()) or ()))
    return filters or None


def run_facts(args, settings: VeraSettings) -> int:
    from vera_core.facts.extract import period_iso, refresh_facts
    ws = Workspace(settings)
    doc = ws.catalog.resolve(args.doc)
    if args.refresh or not ws.catalog.facts(doc.doc_id):
        refresh_facts(ws.catalog, doc)
    facts = ws.catalog.facts(doc.doc_id)
    if args.json:
        print(json.dumps({"doc": {"doc_id": doc.doc_id, "name": doc.name}, "facts": [
            {"name": f.fact_name, "value": f.value, "status": f.status, "confidence": f.confidence,
             "period": period_iso(f.value) if f.fact_name == "reporting_period" else None,
             "source_chunk_id": f.source_chunk_id, "pages": list(f.page_numbers),
             "polygons": [p.as_dict() for p in f.polygons], "evidence": f.evidence_excerpt,
             "extractor_version": f.extractor_version, "doc_sha256": f.doc_sha256, "extracted_at": f.extracted_at}
            for f in facts]}, indent=2))
        return 0
    print(f"{doc.name}")
    for f in facts:
        pages = ",".join(map(str, f.page_numbers)) or "-"
        print(f"  {f.fact_name:<22}{(f.value or '-'):<28}{f.status:<11}p. {pages:<8}{f.evidence_excerpt[:90]}")
    return 0


def run_export(args, settings: VeraSettings) -> int:
    if args.answers:
        answers = [Answer.model_validate_json(line) for line in Path(args.answers).read_text().splitlines() if line.strip()]
    else:
        args.scope_docs = True
        answers = answer_many(QueryEngine(Workspace(settings)), read_questions(Path(args.questions)), args)
    if args.format == "csv":
        Path(args.output).write_text(to_csv(answers), encoding="utf-8")
    else:
        rows = [row for a in answers for row in evidence_rows(a)]
        Path(args.output).write_text(json.dumps(rows, indent=2), encoding="utf-8")
    print(f"Wrote {sum(len(evidence_rows(a)) for a in answers)} evidence rows of {len(answers)} answers to {args.output}")
    return 0
