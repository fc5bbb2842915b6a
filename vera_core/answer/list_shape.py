"""The shape of an answer follows its evidence: when the passages that best answer a question introduce
a list, the answer is that list, whatever words the question used.

People ask for a list in many ways ("What software is banned outright from our laptops?", "my laptop got
stolen - what am I supposed to do?", "What conditions apply to sharing Restricted data?"), and few of them
say "list". A question routed to the sentence answer still finds the right passage: the lead-in ("The
following must never be installed on a Kestrel laptop:"), the bold line over a list ("**Sharing
Restricted data:**"), or the item whose sub-items answer it ("Company equipment collected:"). This module
reads that evidence: among the best-scoring passages of the hits, the best one that owns a list of at
least two items (by its colon, or by items nested under it) makes the answer that list, each item cited;
a section whose title is the question's topic and whose body is a list does the same.

It never turns a question that asks for one fact into a list: who, when, how many/much/long, yes/no.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vera_core.answer.compose import Piece
from vera_core.answer.outlines import OutlineItem, items_asked, read_outline
from vera_core.answer.units import score_unit, split_units
from vera_core.records import ChunkRecord
from vera_core.retrieve.coverage import heading_match, section_scope
from vera_core.text import terms

__all__ = ["ListAnswer", "ONE_FACT", "asks_one_fact", "hit_grids", "row_piece", "table_section", "list_from_evidence", "definitions_list", "document_table_list", "list_object",
           "section_list", "table_list"]

ONE_FACT = re.compile(r"\bwhat\s+(?:is|was)\s+(?:the|its|their|[\w&.-]+['\u2019]s)\s+(?:\w+\s+)?(?:largest|biggest|smallest|"
                      r"highest|lowest|main|primary|single|only|total|most|least)\b|"
                      r"^\s*(?:who|whom|whose|when|how\s+(?:many|much|long|often|soon|quickly|old)|"
                      r"is|are|was|were|does|do|did|can|could|will|would|has|have|had|must|should\s+(?:i|we)\s+\w+\s+"
                      r"(?:if|whether))\b", re.I)
"""Questions that ask for one fact or a yes/no: never answered with a list by this module."""
LISTY = re.compile(r"\b(?:what|which)\s+(?:are|were)\b|\bsteps?\b|\bquestions\b|\bprocess\b|\bprocedures?\b|"
                   r"\bchecklist\b|\blist\b|\bitems\b|\brequirements\b|\bconditions\b|\brules\b|\bcriteria\b|"
                   r"\bwhat\s+(?:do|should|must)\s+(?:i|we|you)\b|\b(?:each|every|all)\b", re.I)
"""A question that asks for several things: the sentence just before a list may introduce it without a colon."""
MIN_ITEMS = 2
NEAR_BEST = 0.75
"""A list's anchor must score at least this share of the best passage's score (it is among the best evidence)."""
NEAR_BEST_LISTY = 0.6
"""...or this share when the question asks for several things (the sentence that sets the scene often
scores best: "In this Phase, the IT department attempts to contain the incident." over "The IT department
performs the following:")."""
MIN_SCORE = 0.2
"""...and hold at least this share of the question's terms."""
OWN_SHARE = 0.15
"""The anchor line itself holds at least this share of the question's terms (and one at least)."""
HITS_READ = 6
"""The anchor is sought in the best hits' chunks (and the sections they open)."""
STEP_TITLE_WORDS = 6
"""A step this short is a title over its sub-steps ("Prepare the ceremony."), which a question can name."""
_BOLD_LEAD = re.compile(r"^\s*\*\*(?P<text>[^*]{2,120})\*\*\s*:?\s*$")
_CHECKBOX = re.compile(r"^\[[ xX]\]\s*")


@dataclass(frozen=True)
class ListAnswer:
    """A list found in the evidence: its anchor (the line that introduces it) and its items."""

    anchor: str
    items: tuple[Piece, ...]
    section: str


def _lead_key(line: str) -> str:
    """A lead-in as a key: its last sentence (a paragraph's closing "The following must never be
    installed:"), without bold marks, colon or case."""
    text = " ".join(line.replace("**", "").split())
    text = re.split(r"(?<=[.!?])\s+(?=[A-Z\"(])", text)[-1]
    return text.rstrip(":").strip().lower()


def _owned(outline: Sequence[OutlineItem], index: int | None, lead: str, field: str = "lead_in") -> list[OutlineItem]:
    """The items an anchor owns: the children of outline item `index`, else the top-level items whose
    lead-in (or, with `field="intro"`, the line before them) is `lead`."""
    if index is not None:
        return [o for o in outline if o.parent == index]
    owned = [o for o in outline if _lead_key(getattr(o, field)) == lead]
    if not owned:
        return []
    top = min(o.level for o in owned)
    return [o for o in owned if o.level == top]


def _anchors_in(chunk: ChunkRecord, doc_chunks: Sequence[ChunkRecord],
                listy: bool) -> dict[str, tuple[list[OutlineItem], str]]:
    """Every line of `chunk` that owns a list (a lead-in or an item over sub-items; with `listy`, also
    the sentence just before a list that has no colon), keyed by its text as a unit would show it, with
    the items it owns (read over its section, so a list the chunker split is whole) and the section's
    path."""
    scope, section = section_scope(chunk, doc_chunks)
    start = next((i for i, c in enumerate(scope) if c.chunk_id == chunk.chunk_id), 0)
    outline = read_outline(scope[start:])
    found: dict[str, tuple[list[OutlineItem], str]] = {}
    own_text = chunk.text
    for i, item in enumerate(outline):
        if item.chunk.chunk_id != chunk.chunk_id:
            # NOTE: a lead-in that ends this chunk owns the list the chunker put in the next one
            if item.chunk.position == chunk.position + 1 and item.level == 0 and (item.lead_in or item.intro) \
                    and (item.lead_in or item.intro) in own_text:
                lead = item.lead_in or (item.intro if listy else "")
                owned = _owned(outline, None, _lead_key(lead), "lead_in" if item.lead_in else "intro") if lead else []
                if len(owned) >= MIN_ITEMS:
                    found.setdefault(_lead_key(lead), (owned, section))
            continue
        kids = _owned(outline, i, "")
        if len(kids) >= MIN_ITEMS:
            found[_lead_key(item.text)] = (kids, section)
            found[_lead_key(item.line)] = (kids, section)
        if item.lead_in:
            owned = _owned(outline, None, _lead_key(item.lead_in))
            if len(owned) >= MIN_ITEMS:
                found.setdefault(_lead_key(item.lead_in), (owned, section))
        elif item.intro and item.level == 0 and (listy or _BOLD_LEAD.match(item.intro)):
            # NOTE: a bold line over a list is its heading ("**5.1 Where MFA is required**"), whatever the question's words
            owned = _owned(outline, None, _lead_key(item.intro), "intro")
            if len(owned) >= MIN_ITEMS:
                found.setdefault(_lead_key(item.intro), (owned, section))
    return found


def _sub_lists(items: Sequence[OutlineItem], doc_chunks) -> dict[str, tuple[list[OutlineItem], str]]:
    """The sub-lists of a list's items, keyed as `_anchors_in` keys its anchors: the items a lead-in owns in the next
    chunk ("4. **Appeal.**" over its three points, under "The formal grievance procedure has the following stages:")
    own theirs as well, though they are not anchors of the lead-in's chunk."""
    if not items:
        return {}
    scope, section = section_scope(items[0].chunk, doc_chunks(items[0].chunk.doc_id))
    outline = read_outline(scope)
    wanted = {(o.chunk.chunk_id, o.line) for o in items}
    found = {}
    for i, item in enumerate(outline):
        kids = _owned(outline, i, "") if (item.chunk.chunk_id, item.line) in wanted else []
        if len(kids) >= MIN_ITEMS:
            found[_lead_key(item.text)] = (kids, section)
    return found


def list_from_evidence(question: str, query: str, hits: Sequence[ChunkRecord], doc_chunks) -> ListAnswer | None:
    """The list the best evidence introduces, or None. `hits`: the retrieved chunks, best first;
    `doc_chunks(doc_id)`: a document's chunks in order."""
    if asks_one_fact(question) or not hits:
        return None
    wanted = terms(query)
    if not wanted:
        return None
    listy = LISTY.search(question) is not None
    scored = []
    for rank, chunk in enumerate(hits[:HITS_READ]):
        if chunk.kind != "text":
            continue
        for unit in split_units(chunk):
            scored.append((score_unit(unit, wanted, False) + 0.02 / (rank + 1), rank, unit))
    if not scored:
        return None
    best = max(s for s, _, _ in scored)
    scored.sort(key=lambda x: (-x[0], x[1], x[2].order))
    anchors_by_chunk: dict[str, dict] = {}
    near = NEAR_BEST_LISTY if listy else NEAR_BEST
    for score, _, unit in scored:
        if score < max(MIN_SCORE, best * near):
            break
        line = unit.text.strip()
        own = terms(line) & wanted
        if len(own) < max(1, OWN_SHARE * len(wanted)):
            continue  # NOTE: the anchor itself names what is asked; its section title alone does not
        chunk = unit.chunk
        if chunk.chunk_id not in anchors_by_chunk:
            anchors_by_chunk[chunk.chunk_id] = _anchors_in(chunk, doc_chunks(chunk.doc_id), listy)
        anchors = anchors_by_chunk[chunk.chunk_id]
        first_line = line.splitlines()[0]
        key = _lead_key(_shown(first_line))
        owned = anchors.get(key) or anchors.get(_lead_key(first_line))
        if owned is None:
            # NOTE: the sentence that sets the scene in a paragraph closing with a lead-in ("... monitors Tier 1
            # and Tier 2 vendors throughout the relationship. In addition to scheduled reassessments, it tracks:")
            paragraph = next((p for p in chunk.text.split("\n") if first_line.strip() and first_line.strip() in p), "")
            if ends_lead_in(paragraph) and paragraph.strip() != first_line.strip():
                owned = anchors.get(_lead_key(paragraph))
                first_line = re.split(r"(?<=[.!?])\s+(?=[A-Z\"(])", " ".join(paragraph.split()))[-1] if owned else first_line
        if owned is None and _BOLD_LEAD.match(first_line):
            first_line, owned = _under_bold(first_line, chunk, anchors)
        if owned is None:
            continue
        items, section = owned
        anchor = _shown(first_line)
        if not anchor.rstrip().endswith(":"):
            # NOTE: a step over its sub-items ("Before provisioning any systems, ... file a request.") is not
            # the list asked when its section's title names the question as well ("Provisioning Production
            # Systems": the steps are the section's)
            whole = section_list(question, query, [chunk], doc_chunks)
            # NOTE: ...unless the step names what is asked beyond the title ("what do I have to do to prepare"
            # for a key ceremony: "Prepare the ceremony." under "5.4 Key ceremony")
            if whole is not None and len(terms(whole.anchor) & wanted) >= len(terms(anchor) & wanted) \
                    and not (len(anchor.split()) <= STEP_TITLE_WORDS
                             and (terms(anchor) & wanted) - terms(whole.anchor) - terms(whole.section)):
                return whole
        # NOTE: an item the lead-in's chunk does not hold owns its sub-list only when the question names its title
        # whole ("the appeal stage" for "**Appeal.**"), not a few of its words ("data we hold" for "The teams holding
        # the data search their systems ...")
        if not ends_lead_in(anchor) and _HOW_DO.search(question) and not _names_title(anchor, wanted):
            # NOTE: "deleted a folder by mistake, how do I get it restored?": the best passage is one step ("Raise a
            # restore request in the Service Desk portal.") over its sub-items; the procedure asked is the steps
            steps = _steps_of(chunk, first_line, doc_chunks)
            if steps is not None:
                return steps
        # NOTE: a question that asks for what sits under one step ("the items under that step", "what does the first
        # step involve") may name the step by any of its words, not its whole title
        sub_asked = bool(SUBLIST_ASKED.search(question)) and not TOP_LEVEL_ASKED.search(question)
        pool = items if sub_asked else [o for o in items if _names_title(o.text, wanted)]
        owners = {**_sub_lists(pool, doc_chunks), **anchors}
        named = _named_item(items, owners, wanted, terms(first_line), dominant=sub_asked)
        if named is not None:  # NOTE: "what examples of security testing": the item the question names owns the list
            anchor, (items, section) = _shown(named.text), owners[_lead_key(named.text)]
        return ListAnswer(anchor, tuple(_piece(o) for o in items), section)
    return _list_holding(scored, best * near, wanted, doc_chunks) if listy else None


_HOW_DO_WORDS = r"how\s+(?:do|can|should)\s+(?:i|we|you)\s+(?!know\b|tell\b|find\b)"
_HOW_DO = re.compile(rf"\b{_HOW_DO_WORDS}", re.I)
"""A question asking how to get something done, naming no step or list ("how do I get it restored?")."""


def _names_title(item: str, wanted: set[str]) -> bool:
    """Whether the question names an item's title whole ("the appeal stage" for "Appeal.")."""
    title = terms(_item_title(item))
    return bool(title) and title <= wanted


def _steps_of(chunk: ChunkRecord, line: str, doc_chunks) -> ListAnswer | None:
    """The top-level list an item over sub-items belongs to (the steps of its procedure), when it has siblings."""
    scope, section = section_scope(chunk, doc_chunks(chunk.doc_id))
    outline = read_outline(scope)
    said = " ".join(_shown(line).split())
    at = next((o for o in outline if o.chunk.chunk_id == chunk.chunk_id and " ".join(_shown(o.text).split()) == said), None)
    if at is None or at.parent is not None:
        return None
    steps = _siblings(outline, at)
    if len(steps) < MIN_ITEMS:
        return None
    title = chunk.heading_titles[-1] if chunk.heading_titles else section
    return ListAnswer(_shown(at.lead_in or at.intro) or title, tuple(_piece(o) for o in steps), section)


def _siblings(outline: Sequence[OutlineItem], item: OutlineItem) -> list[OutlineItem]:
    """The items of the list `item` is in: same level, same parent, same lead-in and introduction."""
    return [o for o in outline if o.level == item.level and o.parent == item.parent
            and (o.lead_in, o.intro) == (item.lead_in, item.intro)]


def ends_lead_in(line: str) -> bool:
    """Whether a line ends as a lead-in does, with a colon (before any closing bold marks)."""
    return line.rstrip().rstrip("*").endswith(":")


def lead_in_list(pieces: Sequence[Piece], doc_chunks, intros: bool = False) -> ListAnswer | None:
    """The list a quoted lead-in introduces: a sentence answer whose best passages include "MFA is mandatory in the
    following circumstances:" or "When a temperature alarm sounds, the responding staff member must:" is answered by
    the items under it, whatever the question's words ("When is MFA mandatory?" asks one fact in form only). With
    `intros` (a question asking for several things), also a sentence printed just before a list without a colon
    ("... it is the Incident Commander's responsibility to ensure that"). The first that owns a list wins; None when
    none does."""
    for piece in pieces:
        line = piece.text.strip().splitlines()[0] if piece.text.strip() else ""
        # NOTE: the sentence that sets the scene in a paragraph closing with a lead-in ("Tailscale catalogues assets
        # with several pieces of information, ... Information collected is as follows:")
        paragraph = next((p for p in piece.chunk.text.split("\n") if line.strip() and line.strip() in p), "")
        if intros and ends_lead_in(paragraph) and paragraph.strip() != line.strip():
            line = re.split(r"(?<=[.!?])\s+(?=[A-Z\"(])", " ".join(paragraph.split()))[-1]
        colon = ends_lead_in(_shown(line))
        if piece.chunk.kind != "text" or not (colon or intros):
            continue
        anchors = _anchors_in(piece.chunk, doc_chunks(piece.chunk.doc_id), not colon)
        owned = anchors.get(_lead_key(_shown(line))) or anchors.get(_lead_key(line))
        if owned is not None:
            items, section = owned
            return ListAnswer(_shown(line), tuple(_piece(o) for o in items), section)
    return None


def _under_bold(line: str, chunk: ChunkRecord, anchors: dict) -> tuple[str, tuple | None]:
    """The list under a bold line that heads a passage ("**5.1 Where MFA is required**" over "Multi-factor
    authentication is required for:" and its items): the first lead-in after it, before the next bold line."""
    lines = chunk.text.split("\n")
    at = next((i for i, ln in enumerate(lines) if ln.strip() == line.strip()), None)
    for ln in lines[at + 1:] if at is not None else ():
        if not ln.strip():
            continue
        if _BOLD_LEAD.match(ln) or re.match(r"^\s*(?:[-*+\u2022]|\d{1,2}[.)])\s", ln):
            break
        owned = anchors.get(_lead_key(ln))
        if owned is not None:
            return ln.strip(), owned
    return line, None


def _list_holding(scored, floor: float, wanted: set[str], doc_chunks) -> ListAnswer | None:
    """The list that the best passage is an item of, when a question asks for several things and no line of
    the evidence introduces a list: "walk me through the offboarding steps" is best answered by a sub-step
    ("The line manager ... records the leaving date in Workday"), and the answer is the procedure it belongs
    to, at its top level ("Record the leaving date.", "Remove access on the last working day.", ...), or the
    sub-list of the one step the question names."""
    for score, _, unit in scored[:3]:
        if score < max(MIN_SCORE, floor):
            break
        chunk = unit.chunk
        scope, section = section_scope(chunk, doc_chunks(chunk.doc_id))
        outline = read_outline(scope)
        said = " ".join(_shown(unit.text.strip().splitlines()[0]).split())
        at = next((i for i, o in enumerate(outline) if o.chunk.chunk_id == chunk.chunk_id and said
                   and " ".join(_shown(o.text).split()).startswith(said[:80])), None)
        if at is None:
            continue
        root = at
        while outline[root].parent is not None:
            root = outline[root].parent
        top = outline[root]
        field = "lead_in" if top.lead_in else "intro"
        lead = top.lead_in or top.intro
        items = _owned(outline, None, _lead_key(lead), field) if lead else []
        if len(items) < MIN_ITEMS or not any(o is top for o in items):
            continue
        subs = {_lead_key(o.text): ([k for k in outline if k.parent == i], section)
                for i, o in enumerate(outline) if o in items and any(k.parent == i for k in outline)}
        named = _named_item(items, subs, wanted, terms(lead))
        # NOTE: the step's sub-list only when the question names the step more than the procedure: "the
        # offboarding steps" of someone "leaving" is the procedure "Leavers are offboarded as follows:",
        # not the sub-steps of "Record the leaving date."
        if named is not None and len(terms(named.text) & wanted) > len(terms(lead) & wanted) \
                and len(subs[_lead_key(named.text)][0]) >= MIN_ITEMS:
            kids, _ = subs[_lead_key(named.text)]
            return ListAnswer(_shown(named.text), tuple(_piece(o) for o in kids), section)
        return ListAnswer(_shown(lead), tuple(_piece(o) for o in items), section)
    return None


SUBLIST_ASKED = re.compile(r"\b(?:under|beneath|below|within)\s+(?:that|the|this|each)\s+(?:step|item|point|bullet|task)\b|"
                           r"\bsub-?(?:items?|steps?|points?|tasks?|bullets?)\b|\b(?:step|task)\s+about\b|"
                           r"\bwhat\s+does\s+(?:the\s+)?(?:[\w-]+\s+){0,2}(?:step|task)\b", re.I)
"""A question asking for the sub-items of one step or item, not the list the step is in."""
TOP_LEVEL_ASKED = re.compile(r"\b(?:not|no|without|excluding|except)\s+(?:the\s+|any\s+)?sub-?(?:items?|steps?|points?|tasks?|"
                             r"bullets?)\b|\bmain\s+steps\b|\btop[\s-]level\b", re.I)
"""'(main steps only, not the sub-steps)': the list itself is asked."""


def _named_item(items: Sequence[OutlineItem], anchors: dict, wanted: set[str], anchor_terms: set[str],
                dominant: bool = False) -> OutlineItem | None:
    """The item of a list that owns a list of its own and that the question names beyond what the
    anchor names ("Security testing, for example:" under "Secure Development and Testing:"), else None. `dominant`:
    a sub-list is asked, and the one item the question names that has items under it is it."""
    best, best_key = None, (0, 0)
    for item in items:
        own = terms(item.text) & wanted
        key = (len(own - anchor_terms), len(own))
        if _lead_key(item.text) in anchors and key[0] >= 1 and len(own) >= len(anchor_terms & wanted) and key > best_key:
            best, best_key = item, key
    if best is None:
        # NOTE: "access reviews -> quarterly cycle: which accounts?": the one item the question's own words
        # single out among its siblings owns the list asked, though the anchor holds more of its words
        shared = set.intersection(*(terms(item.text) for item in items)) if items else set()  # "reviews" in each
        named = [item for item in items if (terms(item.text) & wanted) - anchor_terms - shared]
        if len(named) > 1:  # NOTE: the step titled "Containment." over one whose sentence says "corrective actions"
            named = [item for item in named if (terms(_item_title(item.text)) & wanted) - anchor_terms - shared]
        if len(named) == 1 and _lead_key(named[0].text) in anchors:
            best = named[0]
        elif dominant:
            # NOTE: "which permits are listed under the step about issuing a permit to work?": of the steps the question
            # names, the one step with items under it
            owning = [item for item in named if _lead_key(item.text) in anchors]
            best = owning[0] if len(owning) == 1 else None
    return best


def _item_title(text: str) -> str:
    """An item's title: its first sentence or the words before its colon ("Containment. Limit the damage."
    -> "Containment")."""
    return re.split(r"(?<=\w)[.:]\s|\s[\u2013\u2014-]\s", text.replace("**", ""), maxsplit=1)[0]


def asks_one_fact(question: str) -> bool:
    """A question asking for one fact or a yes/no, never answered with a list here."""
    return ONE_FACT.search(question) is not None


def section_list(question: str, query: str, hits: Sequence[ChunkRecord], doc_chunks) -> ListAnswer | None:
    """The list that is a section's whole body, when the section's title is the question's topic
    ("What are the potential trigger events listed in the auditing policy?" -> "Potential Trigger Events"),
    in the documents of the best hits. A document's own title names the document, not a list in it."""
    if asks_one_fact(question):
        return None
    for doc_id in list(dict.fromkeys(c.doc_id for c in hits))[:2]:
        chunks = doc_chunks(doc_id)
        anchor = heading_match(query, [c for c in chunks if len(c.heading_titles) > 1])
        if anchor is None:
            continue
        scope, section = section_scope(anchor, chunks)
        outline = read_outline(scope)
        if not outline:
            led = _bold_led(scope)  # NOTE: a definitions section prints each term in bold before its paragraph
            if len(led) >= MIN_ITEMS:
                title = anchor.heading_titles[-1] if anchor.heading_titles else section
                return ListAnswer(title, tuple(led), section)
            continue
        top = min(o.level for o in outline)
        # NOTE: an item of the section that the question names ("what examples of security testing")
        # owns the list asked, not the section's top level
        items = items_asked(outline, query, section) or [o for o in outline if o.level == top]
        if len(items) >= MIN_ITEMS:
            title = anchor.heading_titles[-1] if anchor.heading_titles else section
            return ListAnswer(title, tuple(_piece(o) for o in items), section)
    return None


_CALLOUT_ASKED = re.compile(r"\b(?:(?P<kind>warning|caution|note|tip|important|danger)\s+(?:box|callout|panel|block)|"
                            r"callout|admonition)\b", re.I)
"""A question naming a callout by its kind ("what does the warning box in the trips procedure tell the leader to do?")."""
CALLOUT_KINDS = r"(?:warning|caution|note|tip|important|danger|info)"
"""The kinds a callout is labelled with ("> **Note:**", "!!! warning", "::: tip")."""
_CALLOUT_LABEL = re.compile(rf"^[ \t>]*(?:\*\*|__)?[ \t]*(?P<kind>{CALLOUT_KINDS})\b[^\n]*$", re.I | re.M)
"""A callout's label as ingest prints it ("**Warning: Never enter the following into any AI tool**", "**Warning**")."""


def callout_list(question: str, hits: Sequence[ChunkRecord], doc_chunks) -> ListAnswer | None:
    """The list inside the callout a question names by its kind: in the best hits' documents, the first list after a
    label of that kind, the callout whose label, lead and items share most of the question's words."""
    asked = _CALLOUT_ASKED.search(question)
    if asked is None:
        return None
    kind = (asked.group("kind") or "").lower()
    wanted = terms(question)
    best: tuple[int, ListAnswer] | None = None
    for doc_id in list(dict.fromkeys(c.doc_id for c in hits[:HITS_READ]))[:2]:
        for chunk in doc_chunks(doc_id):
            if chunk.kind != "text":
                continue
            for label in _CALLOUT_LABEL.finditer(chunk.text):
                if kind and label.group("kind").lower() != kind:
                    continue
                after = [o for o in read_outline([chunk]) if chunk.text.find(o.line.strip()) > label.end()]
                if not after:
                    continue
                first = after[0]
                items = _siblings(after, first)
                if len(items) < MIN_ITEMS:
                    continue
                said = terms(" ".join([label.group(0), first.lead_in or first.intro, *(o.text for o in items)]))
                shown = _shown(label.group(0)).rstrip(":") or label.group("kind").title()
                found = (len(said & wanted), ListAnswer(shown, tuple(_piece(o) for o in items), chunk.heading_path))
                best = found if best is None or found[0] > best[0] else best
    return best[1] if best else None


PROCEDURAL = re.compile(r"\b(?:steps?|procedures?|process|checklist|what\s+(?:do|should|must)\s+(?:i|we|you|they)\s+do|"
                        rf"{_HOW_DO_WORDS})\b", re.I)
"""A question asking how something is done ("What's the procedure for calling in sick?")."""


def top_hit_list(question: str, hits: Sequence[ChunkRecord], doc_chunks) -> ListAnswer | None:
    """The one list of the best hit's section, for a question asking how something is done when no line of the evidence
    names it ("What's the procedure for calling in sick?" over "4.5.2 Reporting sickness absence", whose body is "If you
    are unable to come to work because you are ill, you must:" and its six steps): retrieval read the question's
    meaning; the section's shape says what answers it. None when the section holds more than one list."""
    if not PROCEDURAL.search(question) or asks_one_fact(question) or not hits or hits[0].kind != "text":
        return None
    scope, section = section_scope(hits[0], doc_chunks(hits[0].doc_id))
    outline = read_outline(scope)
    if not outline:
        return None
    top = [o for o in outline if o.level == min(o.level for o in outline)]
    leads = {(o.lead_in or o.intro).strip() for o in top}
    if len(top) < MIN_ITEMS or len(leads) != 1:
        return None
    title = hits[0].heading_titles[-1] if hits[0].heading_titles else section
    return ListAnswer(_shown(next(iter(leads))) or title, tuple(_piece(o) for o in top), section)


TABLE_HITS = HITS_READ
"""A table answers a list question only from among the best hits."""
GENERIC_HEADERS = frozenset(terms("item items name names description details notes note type category"))
"""A first column headed only by these names no kind of thing the question could ask for by name."""


def table_list(question: str, hits: Sequence[ChunkRecord], doc_grids) -> ListAnswer | None:
    """A table's column among the best hits when its header is what the question asks a list of ("What
    change types are defined ...?" over a table headed "Change type | Examples | Approval"; "Which
    departments are named as record owners ...?" over "Record type | Retention period | Record owner"):
    the first column lists each row with its other cells as details, cited to the row; another column
    lists its distinct values. `doc_grids(doc_id)`: a document's table grids."""
    asked = _asked_object(question)
    found = [(answer, chunk) for grid, chunk in (hit_grids(hits, doc_grids) if asked else ())
             if (answer := _column_list(grid, chunk, asked, question)) is not None]
    if not found:
        return None
    # NOTE: tables of one shape under sibling headings ("### Buses", "### Light rail vehicles"): the one whose
    # heading the question names ("the bus preventive maintenance interval table"), else the best ranked
    wanted = terms(question)
    return max(enumerate(found), key=lambda at: (len(wanted & terms(" ".join(at[1][1].heading_titles))), -at[0]))[1][0]


def hit_grids(hits: Sequence[ChunkRecord], doc_grids):
    """(grid, chunk) for each table among the best hits (grid None when it has none), best first."""
    for chunk in hits[:TABLE_HITS]:
        if chunk.kind == "table":
            yield next((g for g in doc_grids(chunk.doc_id) if g.chunk_id == chunk.chunk_id), None), chunk


def row_piece(cells, chunk: ChunkRecord) -> Piece:
    """A table row as a list item: its label with its other cells as details ("Payroll records (Retention
    period: 7 years; ...)"), cited to the row's boxes."""
    label = next(c for c in cells if c.col == 0)
    bare = not any(c.header for c in cells if c.col)  # NOTE: a table without a header: its cells as printed
    details = "; ".join(f"{c.header}: {c.printed}" if c.header else c.printed for c in sorted(cells, key=lambda c: c.col)
                        if c.col and c.printed.strip() and (c.header or bare))
    boxes = tuple(b for b in (label.label_box, *(c.box for c in cells if c.col)) if b is not None)
    return Piece(f"{label.row_label} ({details})" if details else label.row_label, chunk, label.row_label, regions=boxes)


def document_table_list(question: str, hits: Sequence[ChunkRecord], doc_grids, doc_chunks) -> ListAnswer | None:
    """The one table of one of the best hits' first two documents whose header names what is asked a list
    of, when retrieval ranked no table ("what severity levels does the incident response plan use?"); None when
    no table, or more than one, names it."""
    asked = _asked_object(question)
    for doc_id in list(dict.fromkeys(c.doc_id for c in hits[:HITS_READ]))[:2] if asked else ():
        tables = {c.chunk_id: c for c in doc_chunks(doc_id) if c.kind == "table"}
        named = [(g, tables[g.chunk_id]) for g in doc_grids(doc_id)
                 if g.chunk_id in tables and _asked_column(g, asked, "", tables[g.chunk_id]) is not None]
        if len(named) == 1:
            return _column_list(*named[0], asked)
    return None


_EACH = re.compile(r"\b(?:under|for|in|of|at)\s+(?:each|every)\s+(?P<obj>(?:[\w-]+\s+){0,2}?[\w-]+?)\s*(?:[?,.]|$)", re.I)
"""'How often are suppliers reviewed under each risk tier?': one fact asked of every row of a table."""


def _asked_object(question: str) -> set[str]:
    """The loose terms of what a list question asks a list of; for a one-fact question, what it asks the
    fact of each of ("under each risk tier"), else nothing."""
    if asks_one_fact(question):
        each = _EACH.search(question)
        return {_loose(t) for t in terms(each.group("obj"))} if each else set()
    return {_loose(t) for t in terms(list_object(question))}


def _asked_column(grid, asked: set[str], question: str = "", chunk: ChunkRecord | None = None) -> int | None:
    """The column whose header is what is asked a list of (or, for a header of two words or more, whose
    words the question all uses: "named as record owners" over "Record owner"), or None."""
    if grid is None or grid.status != "parsed" or not grid.header:
        return None
    said = {_loose(t) for t in terms(question)}
    heads = [({_loose(t) for t in terms(header or "")}, not terms(header or "") <= GENERIC_HEADERS) for header in grid.header]
    for col, (head, named) in enumerate(heads):
        if head and named and head <= asked:
            return col
    # NOTE: "what kinds of customer data have a set retention period?" over "Data Assets | Retention period": the
    # first column names the kind of thing asked; the other is what the question says of it
    if heads and heads[0][1] and heads[0][0] & asked - {_loose(t) for t in GENERIC_HEADERS}:
        return 0
    # NOTE: a table without a header, led into by "Incidents can be classified based on their severity:": the lead-in
    # names its rows by a word of the question its section's titles do not hold ("severity", not "incidents")
    titled = {_loose(t) for t in terms(" ".join(chunk.heading_titles))} if chunk is not None else set()
    if not any(h for h, _ in heads) and asked & {_loose(t) for t in terms(grid.title)} - titled:
        return 0
    for col, (head, named) in enumerate(heads):
        if head and named and len(head) > 1 and head <= said:
            return col
    return None


def _column_list(grid, chunk: ChunkRecord, asked: set[str], question: str = "") -> ListAnswer | None:
    col = _asked_column(grid, asked, question, chunk)
    if col is None:
        return None
    items, seen = [], set()
    for _, cells in sorted(grid.rows().items()):
        label = next((c for c in cells if c.col == 0), None)
        if label is None or not label.row_label.strip():
            continue
        if col == 0:
            items.append(row_piece(cells, chunk))
            continue
        cell = next((c for c in cells if c.col == col and c.printed.strip()), None)
        if cell is None or cell.printed.strip().lower() in seen:
            continue
        seen.add(cell.printed.strip().lower())
        items.append(Piece(cell.printed.strip(), chunk, cell.printed.strip(),
                           regions=tuple(b for b in (cell.box,) if b is not None)))
    if len(items) < MIN_ITEMS:
        return None
    return ListAnswer(grid.header[col] or grid.title, tuple(items), table_section(chunk))


def table_section(chunk: ChunkRecord) -> str:
    """The section path a table's list answer names ("Policy/Retention period")."""
    return (" / ".join(chunk.heading_titles) if chunk.heading_titles else "").replace(" / ", "/")


_OBJECT = re.compile(r"\b(?:what|which)\s+(?:are|were)\s+(?:the\s+)?(?P<obj2>(?:[\w-]+\s+){0,3}?[\w-]+?)"
                     r"(?=\s+(?:that|which|in|of|for|under|on|listed|defined|named|set|i|we|you)\b|\s*[?,]|$)|"
                     r"\b(?:what|which)\s+(?:(?:kinds?|types?|sorts?|categories|classes)\s+of\s+)?(?P<obj>(?:[\w-]+\s+){0,3}?"
                     r"[\w-]+?)\s+(?:are|is|were|was|do|does|did|can|could|should|must|have|has|get|gets|need|needs|"
                     r"require|requires|make\s+up|makes\s+up|include|includes|cover|covers|use|uses|apply|applies|exist)\b|"
                     r"\blist\s+(?:all\s+|every\s+|each\s+)?(?:the\s+)?(?P<obj3>(?:[\w-]+\s+){0,3}?[\w-]+?)"
                     r"(?=\s+(?:that|which|in|of|for|under|on|from|at|across|within|listed|defined|named|used)\b|"
                     r"\s*[?,.]|$)|"
                     # a terse note's ask after a dash or colon: "contractor onboarding RACI - activities covered?"
                     r"(?:^|\s[-\u2013\u2014]\s*|:\s*)(?P<obj4>(?:[\w-]+\s+){0,2}?[\w-]+s)\s+(?:covered|listed|included|"
                     r"required|named|defined|involved|in\s+scope)\s*\?", re.I)


def list_object(question: str) -> str:
    """What a list question asks a list of, from the sentence that asks: "What change types are defined
    ...?" -> "change types"; "For which kinds of data does ...?" -> "data"; "What are the questions I have
    to go through?" -> "questions"; '' when it names none."""
    sentences = [s for s in re.split(r"(?<=[?.!])\s+", question.strip()) if s.strip()]
    asking = next((s for s in reversed(sentences) if s.rstrip().endswith("?")), sentences[-1] if sentences else "")
    found = _OBJECT.search(asking)
    return next((g for g in found.groups() if g), "") if found else ""


def _loose(term: str) -> str:
    """A term as its plural stems it ("type" and "types" -> "typ")."""
    return term[:-1] if term.endswith("e") and len(term) > 3 else term


_DEFINED_ASKED = re.compile(r"\b(?:(?:which|what)\s+(?:terms|words|phrases)\s+(?:are|get|were|does\s+\S+(?:\s+\S+){0,6}?)\s*defined?|"
                            r"defined\s+terms|definitions?\s+(?:section|list)|glossary|(?:list|give|show)\b[^?]{0,40}?"
                            r"\bdefinitions)\b", re.I)
"""A question asking for the terms a document defines."""
_DEFINITIONS_TITLE = re.compile(r"^(?:(?:part|section|appendix|annex|schedule|chapter)\s+[\w.]+\s*[:.\u2013\u2014-]?\s*|[\d.]+\s*)?"
                                r"(?:definitions?|glossary|defined\s+terms|key\s+terms|terms\s+and\s+"
                                r"definitions|abbreviations|acronyms|terms(?:\s+used)?(?:\s+in\s+th(?:is|e)\s+\w+)?\s*$)\b", re.I)


def definitions_list(question: str, hits: Sequence[ChunkRecord], doc_chunks,
                     named: Sequence[str] = ()) -> ListAnswer | None:
    """The terms the document defines ("Which terms are defined in the Incident Response Plan?"): the
    items of its Definitions (or Glossary) section, in the best hits' first document that has one. `named`: the
    documents the question names by title, read after the hits' (two documents may share the title asked)."""
    if not _DEFINED_ASKED.search(question):
        return None
    asked = terms(question)
    docs = list(dict.fromkeys([*(c.doc_id for c in hits[:HITS_READ]), *named]))
    titled = {d: next((c.heading_titles[0] for c in doc_chunks(d) if c.heading_titles), "") for d in docs}
    # NOTE: the document the question names comes first ("... defined in the Incident Response Plan")
    for doc_id in sorted(docs, key=lambda d: -len(terms(titled[d]) & asked)):
        chunks = doc_chunks(doc_id)
        anchor = next((c for c in chunks if c.heading_titles and _DEFINITIONS_TITLE.match(c.heading_titles[-1].strip())), None)
        if anchor is None:
            continue
        scope, section = section_scope(anchor, chunks)
        items = _bold_led(scope) or _defined_terms(scope) or [_term(_piece(o)) for o in read_outline(scope) if o.level == 0]
        if len(items) >= MIN_ITEMS:
            return ListAnswer(anchor.heading_titles[-1], tuple(items), section)
    return None


_BOLD_TERM = re.compile(r"^\s*\*\*(?P<term>[^*]{2,80}?)\*\*\s*[:.\u2013\u2014-]")


_TERM_LED = re.compile(r"^\s*(?:\*\*(?P<bold>[^*]{2,80}?)\*\*|(?P<plain>[^.:;]{2,60}?)\s+(?:means|refers\s+to|is\s+defined\s+as)\b)")


def _term(piece: Piece) -> Piece:
    """A glossary item as its term ("**Authority device** means any computer ..." -> "Authority device"), cited to
    its line; the item itself when it leads with no term."""
    line = re.sub(r"^\s*(?:[-+\u2022]|\*(?!\*))\s+", "", piece.quote) if piece.quote else piece.text
    m = _TERM_LED.match(line) or _TERM_LED.match(piece.text)
    if m is None:
        return piece
    return Piece((m.group("bold") or m.group("plain")).strip(), piece.chunk, piece.quote or piece.text)


def _bold_led(scope: Sequence[ChunkRecord]) -> list[Piece]:
    """The paragraphs of a section that each open with a term in bold ("**Security event**: Any ..."), as
    items: the term, cited to its line."""
    out = []
    for chunk in scope:
        for line in chunk.text.split("\n") if chunk.kind == "text" else ():
            m = _BOLD_TERM.match(line)
            if m:
                out.append(Piece(m.group("term").strip(), chunk, line.strip()))
    return out


_DEFINITION_LINE = re.compile(r"^\s{0,3}[:~]\s+\S")
"""A definition under its term in a Markdown definition list ("Security incident" / ": Any event that ...")."""
_JOINED_DEFINITION = re.compile(r"^\s*(?P<term>[^:\s][^:]{1,79}?)\s+[:~]\s+\S")
"""A definition list's term and definition as ingest joins them ("Security incident : Any event that ...")."""


def _defined_terms(scope: Sequence[ChunkRecord]) -> list[Piece]:
    """The terms of a Markdown definition list (a term on its own line, its definition on the next line after a
    colon, a blank line between them allowed), each cited to its line."""
    out = []
    for chunk in scope:
        lines = [line for line in chunk.text.split("\n") if line.strip()] if chunk.kind == "text" else []
        for line, following in zip(lines, [*lines[1:], ""]):
            joined = _JOINED_DEFINITION.match(line)
            if joined:
                out.append(Piece(joined.group("term").replace("**", "").strip(), chunk, line.strip()))
            elif _DEFINITION_LINE.match(following) and not _DEFINITION_LINE.match(line) and len(line.strip()) <= 80:
                out.append(Piece(line.strip().replace("**", ""), chunk, line.strip()))
    return out if len(out) >= MIN_ITEMS else []


def _shown(line: str) -> str:
    """An anchor line as the lead names it: no bullet, box, marker or bold."""
    line = re.sub(r"^\s*(?:[-*+•]\s+)?(?:\[[ xX]\]\s*)?(?:\(?[a-z0-9]{1,3}[.)]\s+)?", "", line)
    return line.replace("**", "").strip()


def _piece(item: OutlineItem) -> Piece:
    return Piece(_CHECKBOX.sub("", item.text).strip(), item.chunk, item.line)
