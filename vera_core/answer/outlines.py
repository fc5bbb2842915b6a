"""Lists as outlines: items with their level and parent, and the lead-in sentence ("The following
information must be included ...:") that owns them. A list question gets the items under the
outline item or lead-in it names ("list all the password protection rules" -> the items under
"a. Password protection"), at that level, not every line of the section flattened.

Markdown lists arrive as `- a. item` lines indented two spaces per level (`ingest.markdown`); PDF
lines keep their markers but not their indentation, so there a level follows the order in which
marker styles first appear (a. before i.)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vera_core.ingest.markdown_lists import OUTLINE_MARKER, outline_levels
from vera_core.records import ChunkRecord
from vera_core.text import terms

__all__ = ["LIST_WORDS", "OutlineItem", "items_asked", "read_outline"]

_LINE = re.compile(r"^(?P<indent>[ \t]*)(?:(?P<bullet>[-*+•●▪◦■➢►–·])\s+)?"
                   rf"(?:(?P<marker>{OUTLINE_MARKER}|\d{{1,2}}[.)])\s+)?(?P<text>\S.*)$")
_CHECKBOX = re.compile(r"^\[[ xX]\]\s+")
LIST_WORDS = frozenset(terms("list all every each item items rule rules requirement requirements element elements "
                             "point points following include included contain contained comprise consist"))
"""Words of asking for a list, not of its topic ("list all the password protection rules")."""
TITLE_MATCH = 0.6
"""An outline item names the list asked when its words are mostly the question's (as section titles do)."""
LEAD_IN_MATCH = 0.5
"""A lead-in owns the list asked when it holds this share of the question's topic words."""


@dataclass(frozen=True)
class OutlineItem:
    """One item of a list, in document order."""

    text: str
    """The item without its bullet and marker."""
    marker: str
    """'a.', '(iv)', '3.' or '' (a plain bullet)."""
    level: int
    """0 for a top-level item."""
    parent: int | None
    """Index (in the outline) of the item it sits under."""
    lead_in: str
    """The sentence ending in ':' just before the list, '' when none."""
    chunk: ChunkRecord
    line: str
    """The item's line as the chunk prints it (its quote)."""
    intro: str = ""
    """The line of text just before the list (its lead-in when that ends with a colon; else the sentence
    that introduces it without one: "Answer the questions in order and stop when you reach a class.")."""


def read_outline(chunks: Sequence[ChunkRecord]) -> list[OutlineItem]:
    """The list items of the text chunks, in order, with level, parent and lead-in."""
    items: list[OutlineItem] = []
    carried = ""  # NOTE: a list the chunker split keeps its lead-in in the next chunk
    carried_intro = ""
    tail: list[tuple[int, str]] = []  # (indent, marker) of the run that ended the chunk before
    for chunk in chunks:
        if chunk.kind != "text":
            carried, tail = "", []
            continue
        run: list[tuple[int, str, str, str]] = []  # (indent, bullet, marker, line)
        lead = carried
        intro = carried_intro
        context = tail  # the list this chunk opens with continues the one the chunk before ended with
        titles = set(chunk.heading_titles)
        for raw in chunk.text.split("\n"):
            m = _LINE.match(raw)
            if not raw.strip() or m is None or raw.strip() in titles:  # a numbered heading is no list item
                continue
            if m.group("bullet") or m.group("marker"):
                run.append((len(m.group("indent").expandtabs(4)), m.group("bullet") or "", m.group("marker") or "",
                            raw.strip()))
                continue
            if run and raw[:1] in " \t":  # a wrapped line of the item above
                indent, bullet, marker, line = run[-1]
                run[-1] = (indent, bullet, marker, f"{line} {raw.strip()}")
                continue
            items += _items(run, lead, chunk, items, intro, context)
            run, context = [], []
            # NOTE: a bold line over a list ("**When a device is lost:**") is a lead-in too
            lead = raw.strip() if raw.rstrip().rstrip("*").rstrip().endswith(":") else ""
            intro = raw.strip()
        carried = lead  # a list the chunker split keeps its lead-in, and so does a lead-in that ends a chunk
        carried_intro = intro  # a list that goes on in the next chunk keeps its introduction
        tail = [*context, *((indent, marker) for indent, _, marker, _ in run)] if run else []
        items += _items(run, lead, chunk, items, intro, context)
    return items


def _items(run: list[tuple[int, str, str, str]], lead: str, chunk: ChunkRecord,
           before: list[OutlineItem], intro: str = "", context: Sequence[tuple[int, str]] = ()) -> list[OutlineItem]:
    """The items of one run of list lines. A run that opens with the line of an item read before (a
    long list split between chunks repeats its parent item's line) continues that item: the line is
    not read twice, and the items under it are its sub-items. `context`: the (indent, marker) of the
    run the chunk before ended with, when this run continues it (the chunker split "4. Release ..."
    from its sub-item "a. If more time is needed ..."): levels are read over both, and the items sit
    under the items read before."""
    if not run:
        return []
    pairs = [(indent, marker) for indent, _, marker, _ in run]
    levels = outline_levels([*context, *pairs])[len(context):] if context and before else outline_levels(pairs)
    out: list[OutlineItem] = []
    stack: list[int] = _ancestry(before) if context and before else []
    offset = len(before)
    for position, ((_, _, marker, line), level) in enumerate(zip(run, levels)):
        stack = stack[:level]
        if position == 0 and level == 0:
            earlier = next((i for i in range(len(before) - 1, max(-1, len(before) - 200), -1)
                            if before[i].line == line), None)
            if earlier is not None:
                stack.append(earlier)
                continue
        parent = stack[-1] if stack and len(stack) == level else None
        text = _LINE.match(line).group("text") if not marker else line.split(marker, 1)[1].strip()
        text = _CHECKBOX.sub("", text.replace("**", "").strip())  # a task list's box is not its text
        if context:
            absolute = level
        else:
            absolute = level + before[stack[0]].level if stack and stack[0] < offset else level
        out.append(OutlineItem(text, marker, absolute, parent, lead, chunk, line, intro))
        stack.append(offset + len(out) - 1)
    return out


def _ancestry(items: Sequence[OutlineItem]) -> list[int]:
    """The indices from the top-level item down to the last item read, each the parent of the next."""
    chain = [len(items) - 1]
    while items[chain[0]].parent is not None:
        chain.insert(0, items[chain[0]].parent)
    return chain


def items_asked(outline: Sequence[OutlineItem], focus: str, section: str = "") -> list[OutlineItem] | None:
    """The items a list question asks for: the children of the outline item whose words name the
    list ("Password protection"), else the items under the lead-in that names it (a sentence before
    the list, or an item over its sub-items); None when neither is named (the caller lists the
    section as a whole). Words of the `section`'s titles (the heading path the question was matched
    to) name the section, not a list in it, and are not matched."""
    named = terms(section.replace("/", " "))
    wanted = terms(focus) - LIST_WORDS - named
    if not wanted or not outline:
        return None
    best: tuple[float, int] | None = None
    for i, item in enumerate(outline):
        # NOTE: the section's words name the section in an item's title too ("Security testing, for example:"
        # under "... Product Security": its own words are testing and examples)
        # NOTE: a parenthetical says whom an item applies to ("Enhanced screening (staff with access to ...)"),
        # not what it is called
        own = terms(re.sub(r"\([^)]*\)", " ", item.text)) or terms(item.text)
        title = own - named or own
        if not title or len(title) > 8:
            continue
        overlap = len(title & wanted)
        score = overlap / len(title) * min(1.0, overlap / max(1, min(len(wanted), 3)))
        if score >= TITLE_MATCH and any(o.parent == i for o in outline) and (best is None or score > best[0]):
            best = (score, i)
    if best is not None:
        return [o for o in outline if o.parent == best[1]]
    # NOTE: a lead-in is a sentence before the list ("The incident response process addresses:") or an
    # item over its sub-items ("3. ... request changes to policies using the following process:")
    parents = {o.parent for o in outline if o.parent is not None}
    leads: dict[str | int, float] = {}
    for i, item in enumerate(outline):
        if item.lead_in and item.lead_in not in leads:
            leads[item.lead_in] = len(terms(item.lead_in) & wanted) / len(wanted)
        if i in parents:
            leads[i] = (len(terms(item.text) & wanted) / len(wanted) if item.text.rstrip().endswith(":")
                        else _distinct_share(outline, i, wanted))
    lead = max(leads, key=lambda k: (leads[k], isinstance(k, int)), default=None)
    if lead is None or leads[lead] < LEAD_IN_MATCH:
        return None
    if isinstance(lead, int):
        return [o for o in outline if o.parent == lead]
    owned = [o for o in outline if o.lead_in == lead]
    top = min(o.level for o in owned)
    return [o for o in owned if o.level == top]


def _distinct_share(outline: Sequence[OutlineItem], index: int, wanted: set[str]) -> float:
    """How well an item over sub-items that is not a lead-in (no colon: "(e) Each production change
    must include proper approval.") names the list asked, by the words that set it apart from its
    siblings: a word every sibling holds ("production change" in each of (a) to (e)) names their
    list, not this item's sub-items."""
    item = outline[index]
    siblings = [o for o in outline if o.parent == item.parent and o.level == item.level]
    held = [terms(o.text) for o in siblings]
    # NOTE: a word no sibling holds sets none apart ("checks" asked of "Enhanced screening"'s sub-items): half weight
    weight = {w: 1.0 - sum(w in h for h in held) / len(held) if any(w in h for h in held) else 0.5 for w in wanted}
    total = sum(weight.values())
    if total <= 0 or len(siblings) < 2:
        return 0.0
    return sum(weight[w] for w in wanted & terms(item.text)) / total
