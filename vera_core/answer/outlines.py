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

from vera_core.ingest.markdown_prep import OUTLINE_MARKER, outline_levels
from vera_core.store.catalog import ChunkRecord
from vera_core.text import terms

__all__ = ["LIST_WORDS", "OutlineItem", "items_asked", "read_outline"]

_LINE = re.compile(r"^(?P<indent>[ \t]*)(?:(?P<bullet>[-*+•●▪◦■➢►–·])\s+)?"
                   rf"(?:(?P<marker>{OUTLINE_MARKER}|\d{{1,2}}[.)])\s+)?(?P<text>\S.*)$")
LIST_WORDS = frozenset(terms("list all every each item items rule rules requirement requirements element elements "
                             "point points following"))
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


def read_outline(chunks: Sequence[ChunkRecord]) -> list[OutlineItem]:
    """The list items of the text chunks, in order, with level, parent and lead-in."""
    items: list[OutlineItem] = []
    carried = ""  # NOTE: a list the chunker split keeps its lead-in in the next chunk
    for chunk in chunks:
        if chunk.kind != "text":
            carried = ""
            continue
        run: list[tuple[int, str, str, str]] = []  # (indent, bullet, marker, line)
        lead = carried
        for raw in chunk.text.split("\n"):
            m = _LINE.match(raw)
            if not raw.strip() or m is None:
                continue
            if m.group("bullet") or m.group("marker"):
                run.append((len(m.group("indent").expandtabs(4)), m.group("bullet") or "", m.group("marker") or "",
                            raw.strip()))
                continue
            if run and raw[:1] in " \t":  # a wrapped line of the item above
                indent, bullet, marker, line = run[-1]
                run[-1] = (indent, bullet, marker, f"{line} {raw.strip()}")
                continue
            items += _items(run, lead, chunk, len(items))
            run = []
            lead = raw.strip() if raw.rstrip().endswith(":") else ""
        carried = lead if run else ""
        items += _items(run, lead, chunk, len(items))
    return items


def _items(run: list[tuple[int, str, str, str]], lead: str, chunk: ChunkRecord, offset: int) -> list[OutlineItem]:
    if not run:
        return []
    levels = outline_levels([(indent, marker) for indent, _, marker, _ in run])
    out: list[OutlineItem] = []
    stack: list[int] = []
    for (_, _, marker, line), level in zip(run, levels):
        stack = stack[:level]
        parent = stack[-1] if stack and len(stack) == level else None
        text = _LINE.match(line).group("text") if not marker else line.split(marker, 1)[1].strip()
        out.append(OutlineItem(text.replace("**", "").strip(), marker, level, parent, lead, chunk, line))
        stack.append(offset + len(out) - 1)
    return out


def items_asked(outline: Sequence[OutlineItem], focus: str) -> list[OutlineItem] | None:
    """The items a list question asks for: the children of the outline item whose words name the
    list ("Password protection"), else the top-level items under the lead-in that names it; None
    when neither is named (the caller lists the section as a whole)."""
    wanted = terms(focus) - LIST_WORDS
    if not wanted or not outline:
        return None
    best: tuple[float, int] | None = None
    for i, item in enumerate(outline):
        title = terms(item.text)
        if not title or len(title) > 8:
            continue
        overlap = len(title & wanted)
        score = overlap / len(title) * min(1.0, overlap / max(1, min(len(wanted), 3)))
        if score >= TITLE_MATCH and any(o.parent == i for o in outline) and (best is None or score > best[0]):
            best = (score, i)
    if best is not None:
        return [o for o in outline if o.parent == best[1]]
    leads: dict[str, float] = {}
    for item in outline:
        if item.lead_in and item.lead_in not in leads:
            leads[item.lead_in] = len(terms(item.lead_in) & wanted) / len(wanted)
    lead = max(leads, key=leads.get, default=None)
    if lead is None or leads[lead] < LEAD_IN_MATCH:
        return None
    owned = [o for o in outline if o.lead_in == lead]
    top = min(o.level for o in owned)
    return [o for o in owned if o.level == top]
