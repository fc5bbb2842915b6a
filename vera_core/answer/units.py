"""Evidence units: the sentences of a text chunk and the rows of a table chunk, scored against
the question's terms. Deterministic answers are made of the best units, each cited."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from vera_core.ingest.pdf_tables import markdown_rows, table_cells
from vera_core.records import ChunkRecord
from vera_core.text import terms  # NOTE: the `terms` mode; re-exported for callers of units.terms

__all__ = ["Unit", "rarity_weights", "score_unit", "shared_weight", "split_units", "terms"]

_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\bex\.)(?<!\bEx\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bvs\.)(?<!\bNo\.)"
                           r"\s+(?=[A-Z(\"“•])|\n{2,}|\n(?=[-•*]\s|\d+\.\s)")
"""A sentence's end: never after an abbreviation that a name or a noun follows ("NII ex. Markets", "Mr. Barnum")."""


@dataclass(frozen=True)
class Unit:
    """A sentence or table row of a chunk."""

    chunk: ChunkRecord
    text: str
    """As shown in an answer: the sentence, or 'row label: header value; ...' for a table row."""
    quote: str
    """The passage to cite (for a table row: the header line and the row)."""
    order: int
    """Position within the chunk."""


def split_units(chunk: ChunkRecord) -> list[Unit]:
    """Sentences of a text chunk, or rows (with their column headers) of a table chunk."""
    if chunk.kind == "table":
        return _table_rows(chunk)
    parts = [p.strip() for p in _SENTENCE_END.split(chunk.text) if p and p.strip()]
    title = chunk.heading_titles[-1] if chunk.heading_titles else ""
    return [Unit(chunk, p, p, i) for i, p in enumerate(parts) if p != title and len(p) > 2]


def run_on(units: list[Unit], following: ChunkRecord | None) -> list[Unit]:
    """A text chunk's sentences with one cut mid-sentence by a line's end ("... delivered $341 million of" before
    "revenue in the second quarter, ...", a blank line between them in the PDF's text) or by the chunk's end read on into
    what follows it: the next sentence when it starts in lower case, else the first sentence of the chunk that follows.
    The quote stays the sentence's own words."""
    after = split_units(following) if following is not None and following.kind != "table" else []
    out: list[Unit] = []
    for i, unit in enumerate(units):
        nxt = units[i + 1].text if i + 1 < len(units) else after[0].text if after else ""
        cut = nxt and not _ENDED.search(unit.text) and (i + 1 == len(units) or nxt[:1].islower())
        out.append(replace(unit, text=f"{unit.text} {nxt}") if cut else unit)
    return out


_ENDED = re.compile(r"[.!?:;)\]\"'\u201d]\s*$")


def _table_rows(chunk: ChunkRecord) -> list[Unit]:
    lines = markdown_rows(chunk.text)
    if len(lines) < 2:
        return [Unit(chunk, chunk.text[:400], chunk.text[:400], 0)]
    header, body = table_cells(lines[0]), lines[1:]
    units = []
    for i, line in enumerate(body):
        cells = table_cells(line)
        values = [(h, v) for h, v in zip(header[1:], cells[1:]) if v]
        if not cells or not cells[0] or not values:
            continue
        shown = "; ".join(f"{h} {v}".strip() for h, v in values)
        units.append(Unit(chunk, f"{cells[0]}: {shown}", f"{lines[0]}\n{line}", i))
    return units


def score_unit(unit: Unit, query_terms: set[str], numeric: bool) -> float:
    """Share of the question's terms in the unit (plus its section title), with a bonus for
    figures when the question asks for them. In [0, ~1.3]."""
    if not query_terms:
        return 0.0
    context = unit.chunk.caption + " " + (unit.chunk.heading_titles[-1] if unit.chunk.heading_titles else "")
    own = terms(unit.text)
    near = terms(context)
    score = (len(query_terms & own) + 0.5 * len(query_terms & (near - own))) / len(query_terms)
    if numeric and re.search(r"\d", unit.text):
        score += 0.15
    if len(unit.text) < 25:
        score *= 0.5
    return score


def rarity_weights(held: Sequence[set[str]]) -> dict[str, float]:
    """Each word's weight over passages (`held`: the words of the topic each passage prints): the fewer passages print
    a word, the more it weighs ("NII" over "guidance"; a footer's company name on every slide weighs nearly nothing)."""
    counts = Counter(t for own in held for t in own)
    return {t: math.log((len(held) + 1) / (n + 0.5)) for t, n in counts.items()}


def shared_weight(words: set[str], weight: dict[str, float]) -> float:
    """The weight of the words a passage shares with the topic, added exactly (`fsum`): a set's order varies between
    processes, and a float sum in another order could break a tie the other way."""
    return math.fsum(weight[t] for t in words if t in weight)

