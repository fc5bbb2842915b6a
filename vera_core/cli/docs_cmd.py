"""`vera list`, `vera show`, `vera kind`, `vera delete`, `vera migrate`."""

from __future__ import annotations

import json
import sys
import time

from vera_core.config import VeraSettings
from vera_core.documents.identity import Identity, stored_identity
from vera_core.documents.kinds import KIND_CHUNKS, KindReading, stored_kind
from vera_core.ingest.desk import IngestDesk
from vera_core.ingest.worker_process import store_lock
from vera_core.store.catalog import Catalog
from vera_core.store.jobs import JobQueue
from vera_core.tables.export import document_tables
from vera_core.workspace import Workspace


def document_json(ws: Workspace, doc) -> dict:
    """The `doc` object of `vera list/show --json`; `kind` and `kind_basis` say what the document is
    and how that was decided (`user`, or what VERA read it from, or `uncertain`); `doc_type`, `company`,
    `fiscal_year`, `fiscal_quarter`, `quarter` ('2024-Q3', 'FY2024') and `period_end` what it is and
    when, with `identity_basis` saying what each was read from."""
    chunks = lambda: ws.catalog.first_chunks(doc.doc_id, KIND_CHUNKS)  # noqa: E731
    reading = stored_kind(doc, chunks)
    identity = stored_identity(doc, chunks, reading).to_dict()
    return {"doc_id": doc.doc_id, "name": doc.name, "format": doc.format, "pages": doc.pages,
            "chunks": doc.chunk_count, "tables": doc.table_count, "size_bytes": doc.size_bytes,
            "sha256": doc.sha256, "ingested_at": doc.ready_at, "stage": doc.stage, "warnings": doc.warnings,
            "kind": reading.kind, "kind_basis": reading.basis,
            **{k: v for k, v in identity.items() if k != "basis"}, "identity_basis": identity["basis"]}


def show_json(ws: Workspace, doc) -> dict:
    """`vera show --json`: the document, its heading tree with page ranges, and its tables (each
    with its number for `vera table DOC N` and whether its cell grid was read)."""
    headings = [{"path": "/".join([doc.stem, *h.path]), "title": h.title, "level": h.level,
                 "pages": list(range(h.page_start, h.page_end + 1)) if h.page_start else []}
                for h in ws.catalog.headings(doc.doc_id)]
    chunks = ws.doc_chunks(doc.doc_id)
    numbered = {t.table_id: t for t in document_tables(chunks, ws.doc_grids(doc.doc_id))}
    tables = [{"chunk_id": c.chunk_id, "pages": list(c.pages), "caption": c.caption,
               "heading_path": c.heading_path, "polygons": [r.as_dict() for r in c.polygons],
               "number": numbered[c.chunk_id].number, "grid": numbered[c.chunk_id].grid.status}
              for c in chunks if c.kind == "table"]
    return {"doc": document_json(ws, doc), "headings": headings, "tables": tables}


def run_list(args, settings: VeraSettings) -> int:
    ws = Workspace(settings)
    docs = ws.catalog.documents()
    if args.json:
        print(json.dumps({"documents": [document_json(ws, d) for d in docs]}, indent=2))
        return 0
    if not docs:
        print("No documents. Add some with `vera ingest PATH`.")
    for d in docs:
        pages = f"{d.pages} pages" if d.format == "pdf" else "markdown"
        stage = "" if d.complete else "  [searchable; dense vectors in progress]"
        reading = stored_kind(d, lambda d=d: ws.catalog.first_chunks(d.doc_id, KIND_CHUNKS))
        identity = stored_identity(d, lambda d=d: ws.catalog.first_chunks(d.doc_id, KIND_CHUNKS), reading)
        print(f"{d.doc_id}  {d.name}  {_kind_words(reading)}  [{_identity_words(identity)}]  ({pages}, {d.chunk_count} chunks, "
              f"{d.table_count} tables){stage}")
        for warning in d.warnings:
            print(f"    warning: {warning['message']}")
    active = JobQueue(ws.catalog).jobs(active_only=True)
    for job in reversed(active):
        print(f"  in the queue: {job.name}: {job.label}")
    return 0


def run_show(args, settings: VeraSettings) -> int:
    ws = Workspace(settings)
    doc = ws.catalog.resolve(args.doc)
    data = show_json(ws, doc)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(f"{doc.name}  id {doc.doc_id}  {doc.format}  {doc.pages} pages  {doc.chunk_count} chunks")
    print("\nHeadings:")
    for h in data["headings"]:
        pages = f"  p. {h['pages'][0]}-{h['pages'][-1]}" if h["pages"] else ""
        print(f"{'  ' * h['level']}{h['title']}{pages}")
    print(f"\nTables ({len(data['tables'])}):")
    for t in data["tables"]:
        pages = ",".join(map(str, t["pages"])) or "-"
        print(f"  {t['number']}. p. {pages}  {t['caption'] or '(no caption)'}  [{t['chunk_id']}]  grid: {t['grid']}")
    return 0


def _kind_words(reading: KindReading) -> str:
    if reading.basis == "uncertain":
        return "[kind uncertain]"
    return f"[{reading.kind}, {'set by you' if reading.basis == 'user' else 'from its ' + reading.basis}]"


def run_kind(args, settings: VeraSettings) -> int:
    """`vera kind DOC [KIND]`: a document's kind and how it was decided; with KIND, set it (`detect`:
    read it from the document again)."""
    ws = Workspace(settings)
    doc = ws.catalog.resolve(args.doc)
    if args.kind == "detect":
        ws.catalog.set_kind(doc.doc_id, "", "")
        reading = stored_kind(ws.catalog.document(doc.doc_id), lambda: ws.catalog.first_chunks(doc.doc_id, KIND_CHUNKS))
        ws.catalog.set_kind(doc.doc_id, reading.kind, reading.basis)
    elif args.kind:
        IngestDesk(ws).set_kind(doc.doc_id, args.kind)
    doc = ws.catalog.document(doc.doc_id)
    reading = stored_kind(doc, lambda: ws.catalog.first_chunks(doc.doc_id, KIND_CHUNKS))
    if args.json:
        print(json.dumps({"doc_id": doc.doc_id, "name": doc.name, "kind": reading.kind, "kind_basis": reading.basis}))
    else:
        print(f"{doc.name}: {reading.kind} {_kind_words(reading)}")
    return 0


def _identity_words(identity: Identity) -> str:
    when = identity.quarter.replace("-", " ") or "period not printed"
    ends = f", ended {identity.period_end}" if identity.period_end else ""
    return f"{identity.doc_type}, {identity.company or 'company not printed'}, {when}{ends}"


def run_identify(args, settings: VeraSettings) -> int:
    """`vera identify DOC [--doc-type T] [--company C] [--fiscal-year Y] [--fiscal-quarter Q] [--period-end D]`:
    what a document is and when, and what each was read from; with options, correct it (`--detect`:
    read it from the document again)."""
    ws = Workspace(settings)
    doc = ws.catalog.resolve(args.doc)
    fields = {"doc_type": args.doc_type, "company": args.company, "fiscal_year": args.fiscal_year,
              "fiscal_quarter": args.fiscal_quarter, "period_end": args.period_end}
    if args.detect or any(v is not None for v in fields.values()):
        IngestDesk(ws).set_identity(doc.doc_id, detect=args.detect, **fields)
    doc = ws.catalog.document(doc.doc_id)
    chunks = lambda: ws.catalog.first_chunks(doc.doc_id, KIND_CHUNKS)  # noqa: E731
    identity = stored_identity(doc, chunks, stored_kind(doc, chunks))
    if args.json:
        print(json.dumps({"doc_id": doc.doc_id, "name": doc.name, **identity.to_dict()}))
        return 0
    print(f"{doc.name}: {_identity_words(identity)}")
    for name, basis in identity.basis.items():
        print(f"    {name}: {'set by you' if basis == 'user' else basis}")
    return 0


def run_delete(args, settings: VeraSettings) -> int:
    ws = Workspace(settings)
    doc = ws.catalog.resolve(args.doc)
    with store_lock(ws.settings) as mine:
        if mine:
            ws.delete(doc.doc_id, forget_access=True)
        else:  # NOTE: the running worker is the store's one writer: it deletes, this command waits
            queue = JobQueue(ws.catalog)
            job_id = queue.enqueue(doc.name, doc.doc_id, kind="delete", doc_id=doc.doc_id)
            while queue.get(job_id).active:
                time.sleep(0.2)
    print(f"Deleted {doc.name} ({doc.doc_id}) from the catalog, the vector store and the file store.")
    return 0


def run_migrate(args, settings: VeraSettings) -> int:
    catalog = Catalog(settings.resolved_data_dir(), check=False, url=settings.database_url)
    applied = catalog.migrate()
    for m in applied:
        print(f"applied migration {m.version}: {m.description}")
    catalog.check_contract()
    print(f"Catalog {catalog.where} is at schema version {catalog.schema_version()}.", file=sys.stdout)
    return 0
