"""Coverage questions read a whole section, not the top hits alone: every item of a list ("list all
significant events"), every item with its amount, a range ("the aggregate range of possible
losses"), or where a topic is discussed ("where can I find the risk factors?")."""

from __future__ import annotations

import re

from vera_core.answer.compose import Piece
from vera_core.answer.extract import items_with_amounts, list_items, numeric_spans
from vera_core.answer.heading_lists import child_headings
from vera_core.answer.list_shape import CALLOUT_KINDS, ends_lead_in, list_from_evidence, table_list
from vera_core.answer.outlines import items_asked, read_outline
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.strategies.search import search
from vera_core.records import ChunkRecord
from vera_core.retrieve import iterative
from vera_core.retrieve.coverage import heading_match, heading_scored, section_scope
from vera_core.retrieve.hybrid import Hit
from vera_core.text import terms

__all__ = ["SECTION_TOP_K", "gather"]

SECTION_TOP_K = 10
"""At least this many chunks are searched for the section's anchor."""
POINTER_HITS = 3
"""A pointer prefers a section titled as asked among this many best hits."""
BOLD_HITS = 5
"""A pointer into a document sectioned by bold lines reads this many of its best hits."""
BOLD_LINE = re.compile(r"^[ \t]*(?:\*\*|__)(?P<title>[^*_\n]{2,90}?)(?:\*\*|__)[ \t]*:?[ \t]*$", re.M)
"""A line that is all bold: a section's title where a document has no headings below its own title."""


def gather(plan: Plan, services: Services) -> Evidence:
    """The section the question is about, in document order, and what the subtype asks of it:
    `list` its items, `numeric_list` its items with an amount, `attribute` its best range,
    `pointer` where it is (heading path and pages)."""
    with services.clock.stage("retrieve"):
        hits = search(plan, services, plan.query, top_k=max(plan.top_k, SECTION_TOP_K))
        if not hits:
            return Evidence(hops=1, unanswerable=True,
                            empty_message="No section of the documents in scope matches the question.")
        scope, section = _section(plan, services, hits)
        coverage = iterative.coverage(plan.query, scope)
    with services.clock.stage("synthesize"):
        subtype = plan.intent.subtype
        is_list = subtype not in ("attribute", "pointer")
        if subtype == "attribute":
            pieces = numeric_spans(scope, plan.query)[:1]
        elif subtype == "numeric_list":
            pieces = items_with_amounts(scope, plan.query)
        elif subtype == "pointer":
            pieces = [_pointer(services, scope, plan.query, hits)]
        else:
            # NOTE: "List the asset risk categories": a table among the best hits headed by what is asked is the list
            table = table_list(plan.question, [h.chunk for h in hits], services.ws.doc_grids)
            parts = _parts(scope, services.ws.doc_chunks) if plan.intent.rule == "coverage:list:parts" else []
            led = None if table or parts else _named_lead_in(plan, services, hits)
            if table:
                pieces, section = list(table.items), table.section or section
            elif parts:
                pieces = parts
            elif led:
                pieces, section = list(led.items), led.section
            else:
                pieces = list_items(scope, section, plan.query)
        lead = f"{len(pieces)} items in {section.replace('/', ' > ')}:" if is_list else ""
        empty = ""
        if not pieces:
            pages = sorted({p for c in scope for p in c.pages})
            empty = (f"Nothing matching was found in {section or 'the sections searched'}"
                     + (f" (pages {', '.join(map(str, pages))})" if pages else "") + ".")
    return Evidence(pieces=tuple(pieces), is_list=is_list, lead=lead, empty_message=empty, hits=tuple(hits),
                    scope=tuple(scope), sections=(section,), hops=1, coverage=coverage)


def _section(plan: Plan, services: Services, hits: list[Hit]) -> tuple[list[ChunkRecord], str]:
    """The section of the anchor chunk and its description. The anchor is the section whose title
    matches the focus (list, pointer), else for a range the best hit that states one, else the best hit."""
    subtype, query = plan.intent.subtype, plan.query
    anchor_doc = hits[0].chunk.doc_id
    if subtype == "pointer":
        # NOTE: the section asked for may be another document's than the first hit's ("where do the policies
        # explain when break-glass access is allowed?" ranks "8. Break-Glass Access" second): among the first
        # hits, a section titled as asked wins
        titled = [(found[0], -rank, h.chunk.doc_id) for rank, h in enumerate(hits[:POINTER_HITS])
                  if (found := heading_scored(query, [h.chunk]))]
        anchor_doc = max(titled)[2] if titled else anchor_doc
    numbered = _numbered_part(plan.question, hits, services.ws.doc_chunks) if subtype in ("list", "pointer") else None
    anchor_doc = numbered.doc_id if numbered is not None else anchor_doc
    doc_chunks = services.ws.doc_chunks(anchor_doc)
    candidates = [h.chunk for h in hits if h.chunk.doc_id == anchor_doc]
    anchor = numbered or (heading_match(query, doc_chunks) if subtype in ("list", "pointer") else None)
    if anchor is not None and subtype == "pointer" and _in_opening(anchor, doc_chunks):
        anchor = None  # NOTE: the question names the document by its title; the title's section says nothing of where
    if anchor is None and subtype == "list":
        anchor = heading_match(query, candidates)
    if anchor is None and subtype == "list":
        # NOTE: a list named by an outline item ("b. Removable media") or a lead-in ("To be
        # reimbursed, follow these steps:") has no heading of its own: its chunk anchors the section
        anchor = next((c for c in candidates if items_asked(read_outline([c]), query)), None)
    if anchor is None and subtype == "pointer" and _in_opening(hits[0].chunk, doc_chunks):
        # NOTE: a pointer to a document's opening says nothing ("which section tells me how long tap-on data is
        # kept?" ranked the privacy policy's title block first): the best hit under a heading of its own answers
        anchor = next((c for c in candidates if not _in_opening(c, doc_chunks)), None)
    if anchor is None and subtype == "attribute":
        # NOTE: the section of the best hit that states a range, not merely the best hit
        anchor = next((h.chunk for h in hits if numeric_spans([h.chunk], query)), None)
    return section_scope(anchor or hits[0].chunk, doc_chunks)


LEAD_IN_NAMES = 0.6
"""A lead-in among the hits that holds this share of the question's words names the list asked."""


def _named_lead_in(plan: Plan, services: Services, hits: list[Hit]):
    """Where the question names documents that share a title (three incident response policies), the list whose
    lead-in says what is asked ("All employees much watch for potentially suspicious activities, including:"), in
    whichever of them it is printed; None when no lead-in among the hits names it."""
    if len({h.chunk.doc_id for h in hits}) < 2 or len(plan.intent.doc_scope or ()) < 2:
        return None
    found = list_from_evidence(plan.question, plan.query, [h.chunk for h in hits], services.ws.doc_chunks)
    wanted = terms(plan.query)
    if found is None or not ends_lead_in(found.anchor) or not wanted \
            or len(terms(found.anchor) & wanted) < LEAD_IN_NAMES * len(wanted):
        return None
    return found


_CALLOUT = re.compile(rf"^(?:{CALLOUT_KINDS}|example)\b", re.I)
"""A bold line that labels a callout ("**Warning: Never enter ...**"), not a part of the section."""


def _parts(scope: list[ChunkRecord], doc_chunks) -> list[Piece]:
    """The parts a section is broken into, asked for by their kind ("what topics is it broken into?"): its child
    headings, else the bold lines that head its paragraphs (callouts' labels aside), each cited where it is printed."""
    if not scope:
        return []
    path = tuple(scope[0].heading_titles)
    kids = child_headings(doc_chunks(scope[0].doc_id), path) if path else []
    if len(kids) >= 2:
        return [Piece(title, chunk, title) for title, chunk in kids]
    bold = _bold_parts(scope)
    return bold if len(bold) >= 2 else []


def _bold_parts(scope: list[ChunkRecord]) -> list[Piece]:
    """The bold lines that head a section's paragraphs, callouts' labels aside, each cited where it is printed."""
    return [Piece(m.group("title").strip().rstrip(":"), chunk, m.group(0).strip())
            for chunk in scope for m in BOLD_LINE.finditer(chunk.text) if not _CALLOUT.match(m.group("title").strip())]


_PART_NAMED = re.compile(r"\b(?P<kind>(?i:part|section|appendix|annex|schedule|chapter|article|clause))\s+"
                         r"(?P<id>[A-Z]|\d{1,3}(?:\.\d{1,3})*|[IVX]{1,5})(?![\w.])")
"""A part of a document named by its number or letter ("Part A of the acceptable use policy", "section 4.2")."""


def _numbered_part(question: str, hits: list[Hit], doc_chunks) -> ChunkRecord | None:
    """The first chunk of the section a question names by its number or letter ("Part A of the acceptable use
    policy is the bit for staff - what topics is it broken into?"), in the documents of the hits, best first: a
    heading that opens with the same words ("Part A — Staff"). None when no heading does."""
    m = _PART_NAMED.search(question)
    if m is None:
        return None
    opens = re.compile(rf"^\s*{m.group('kind')}\s+{re.escape(m.group('id'))}(?![\w.])", re.I)
    for doc_id in dict.fromkeys(h.chunk.doc_id for h in hits):
        found = next((c for c in doc_chunks(doc_id) if c.heading_titles and opens.match(c.heading_titles[-1])), None)
        if found is not None:
            return found
    return None


def _in_opening(chunk: ChunkRecord, doc_chunks) -> bool:
    """Whether a chunk is in its document's opening section (under the document's title only, where a document
    sectioned by bold lines keeps all of its text), or under no heading but the document's title, where sections sit
    below it ("13. Disaster Recovery Policy" over "13.2 Line of Succession"; a report's "Risk factors" is a section)."""
    if not doc_chunks:
        return False
    title = chunk.heading_titles[:1]
    return chunk.heading_path == doc_chunks[0].heading_path or (
        len(chunk.heading_titles) == 1 and title == doc_chunks[0].heading_titles[:1]
        and any(len(c.heading_titles) > 1 and c.heading_titles[:1] == title for c in doc_chunks))


def _pointer(services: Services, scope: list[ChunkRecord], query: str, hits: list[Hit]) -> Piece:
    """'See <heading path> in <document>, pages a-b.', citing the section's first chunk. In a document
    whose sections are bold lines under its title, the bold line over the passages that match."""
    anchor = scope[0]
    pages = sorted({p for c in scope for p in c.pages})
    where = " > ".join(anchor.heading_titles) or anchor.heading_path
    title, quote = (anchor.heading_titles or ("",))[-1], anchor.text[:400]
    doc_chunks = services.ws.doc_chunks(anchor.doc_id)
    # NOTE: a section divided by bold lines ("## Part B — Pupils" over "**Mobile phones**", "**Online behaviour**")
    # is pointed into as a document sectioned by them is
    opening = _in_opening(anchor, doc_chunks)
    divided = not opening and len(_bold_parts(scope)) >= 2
    if opening or divided:
        inline = bold_section(query, [h.chunk for h in hits if h.chunk.doc_id == anchor.doc_id and (
            opening or h.chunk.heading_path == anchor.heading_path)][:BOLD_HITS], doc_chunks)
        if inline:
            title, anchor, quote = inline
            where = " > ".join([*anchor.heading_titles, title])
            pages = list(anchor.pages)
    page_text = f", page {pages[0]}" if len(pages) == 1 else f", pages {pages[0]}-{pages[-1]}" if pages else ""
    doc = services.ws.catalog.document(anchor.doc_id)
    # NOTE: the claim is where the section is; grounding checks its title in the cited text, not the
    # heading path's numbers ("Chapter 4 > 4.3 Leave") as amounts
    return Piece(f"See {where} in {doc.name if doc else anchor.doc_id}{page_text}.", anchor, quote,
                 checked=title if title and title in anchor.text else "")


def bold_section(query: str, best: list[ChunkRecord], doc_chunks) -> tuple[str, ChunkRecord, str] | None:
    """The bold line whose passages among the best hits name most of the question's terms, with the
    chunk that holds the best of them and that passage; None when no passage under a bold line names any. A passage
    before a chunk's first bold line is under the last bold line of an earlier chunk. The document's
    own title words say nothing about where in it ("In the privacy policy, which section ...")."""
    wanted = terms(query) - {t for c in best[:1] for title in c.heading_titles[:1] for t in terms(title)}
    found: dict[str, tuple[set[str], int, ChunkRecord, str]] = {}
    for rank, chunk in enumerate(best):
        for title, body in _bold_blocks(chunk, doc_chunks):
            named = wanted & (terms(body) | terms(title or ""))
            if title is None or not named:
                continue
            had = found.get(title)
            found[title] = ((had[0] | named), *had[1:]) if had else (named, rank, chunk, body.strip()[:400])
    if not found:
        return None
    title, (_, _, chunk, passage) = max(found.items(), key=lambda kv: (len(kv[1][0]), -kv[1][1]))
    return title, chunk, passage or chunk.text[:400]


def _bold_blocks(chunk: ChunkRecord, doc_chunks) -> list[tuple[str | None, str]]:
    """A chunk's text cut at its bold lines: (the bold line over each part, the part)."""
    marks = list(BOLD_LINE.finditer(chunk.text))
    before = chunk.text[:marks[0].start()] if marks else chunk.text
    blocks = [(_bold_before(chunk, doc_chunks), before)] if before.strip() else []
    for mark, after in zip(marks, [*marks[1:], None]):
        blocks.append((mark.group("title").strip(), chunk.text[mark.end():after.start() if after else None]))
    return blocks


def _bold_before(chunk: ChunkRecord, doc_chunks) -> str | None:
    """The last bold line of the chunks before this one in its section, if any."""
    earlier = [c for c in doc_chunks if c.position < chunk.position and c.heading_path == chunk.heading_path]
    for previous in sorted(earlier, key=lambda c: c.position, reverse=True):
        marks = BOLD_LINE.findall(previous.text)
        if marks:
            return marks[-1].strip()
    return None
