"""The last check before a figure or a metric is stated: a word the question puts on the item that the cells
read do not carry, while another row of the same filing carries both it and the item, means the question asked
for that other line ("revenue from selling regulatory credits", "gross margin on Jakafi", "the EchoPark
segment's income"): the cell read is the company's total, and VERA abstains, naming the row that carries the word.

The qualifier readers (`questions/qualifiers.py`) take such words from where a question usually puts them; this
check does not depend on where the question says them. A word counts only when:
- it is in the asking part of the question: not a persona's sentence ("I'm building a comp sheet for mobility
  names.", "Credit analyst here -") and not what the question leaves out ("excluding the current portion");
- it is not the company's name, a period, a unit, a number word or an instruction ("defined as", "using the
  information in"), nor a word rows add to their item without making it another line ("total", "net", "(loss)");
- it is rare in the filing's row labels (it names a part of the figures: "income" is everywhere);
- a row of the same filing that prints a figure carries it in its own label, and carries the item read in its
  label or its parent row ("Automotive leasing" under "Revenues"), and is not the measure asked itself (a printed
  "Days inventory outstanding ("DIO")" row beside the DIO computed).
The check reads the words of the question, not their order, so it can only withhold a figure, never choose one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass

from vera_core.finance.line_items import label_terms
from vera_core.records import GridCell, TableGrid
from vera_core.questions.figure import EXCLUDED
from vera_core.text import QUOTED

__all__ = ["ADJUSTING", "Read", "segment_not_read", "unread", "unread_word"]

RARE_SHARE = 0.2
"""A word printed in at most this share of a filing's row labels names a part of its figures."""
RARE_MIN = 3
"""... or in at most this many, in a filing with few tables."""
MAX_LABEL_WORDS = 12
"""A row label longer than this is a sentence printed in a table, not a line item."""
_MODIFIERS = label_terms("total net consolidated gross loss losses")
"""Words a row adds to its item without making it another line ("Total revenues" is the revenue; "Net income (loss)")."""
ADJUSTING = label_terms("adjustment adjustments")
"""A row of adjustments ("Non-GAAP operating income from continuing operations adjustments") is no line asked unless the
question says adjustments: the measure's own row is."""
_INSTRUCTIONS = label_terms(
    "average mean divided over sum plus minus less ratio times percent percentage margin growth grow change rate "
    "compound annual annually round rounded decimal decimals places digit million millions billion billions "
    "thousand thousands dollar dollars usd amount figure number value calculate compute computed using use based "
    "per share unit units basis point points year years fiscal full quarter quarters month months period ended "
    "ending end statement statements balance sheet income cash flow flows operations note notes report reported "
    "annual filing form page table segment segments company business gaap defined define definition "
    "measured information data details line item items "
    "january february march april may june july august september october november december "
    "one two three four five six seven eight nine ten first second third fourth last prior previous current next "
    "generate generated generating earn earned earning make made bring brought book booked post posted record "
    "recorded recognise recognised recognize recognized report reporting get got come came take took produce "
    "produced achieve achieved deliver delivered have had spend spent pay paid incur incurred show shows shown see "
    "print printed disclose disclosed state stated give given")
"""Words of arithmetic, units, periods, sources and the verbs a question asks a figure with ("how much revenue did
they generate"): how the question asks, never which line it asks for."""
_PERSONA = re.compile(r"^\W*(?:i|i'm|i’m|im|i've|we|we're|we’re|our|my|as\s+an?)\b|\bhere\W*$|"
                      r"\b(?:i(?!\.)|i'm|i’m|we|our|my|(?-i:us))\b", re.I)
"""A part of the question about who asks ("I'm building a comp sheet", "Credit analyst here", "for our comps"); never
"US" or "i.e."."""
_ASKS = re.compile(r"\b(?:what|how|which|did|does|was|were|is|are)\b", re.I)
_PARTS = re.compile(r"(?<=[.?!:;])\s+|\s+[-–—]+\s+|:\s+")
_WORD = re.compile(r"[A-Za-z][\w'’&-]*")


@dataclass(frozen=True)
class Read:
    """One cell a figure or operand was read from."""

    grid: TableGrid
    label: GridCell
    cell: GridCell


def asking_part(question: str) -> str:
    """The question without its persona's parts and without what it leaves out of the item."""
    parts = [p for p in _PARTS.split(question) if p.strip()]
    # NOTE: a part that asks ("for our comps, what was EchoPark segment income?") is kept whoever it says asks
    kept = [p for p in parts if not _PERSONA.search(p) or "?" in p or _ASKS.search(p)] or parts[-1:]
    return EXCLUDED.sub(" ", " ".join(kept))


@dataclass(frozen=True)
class _Row:
    own: frozenset[str]
    """The row label's terms."""
    item: frozenset[str]
    """The row label's and its parent row's terms."""
    name: str


_KEPT: dict[str, tuple[_Row, ...]] = {}
_KEPT_MAX = 4096


def _rows(grid: TableGrid) -> tuple[_Row, ...]:
    """The labelled rows of a grid that print a figure, memoised per table chunk."""
    key = f"{grid.chunk_id}:{grid.title[:40]}:{len(grid.cells)}"
    if key in _KEPT:
        return _KEPT[key]
    valued = {c.row for c in grid.cells if c.col and c.value is not None}
    found = tuple(_Row(label_terms(c.row_label), label_terms(c.row_label) | label_terms(c.parent_label), c.row_label.strip())
                  for c in grid.cells if not c.col and c.row in valued and c.row_label
                  and len(c.row_label.split()) <= MAX_LABEL_WORDS)
    if len(_KEPT) >= _KEPT_MAX:
        _KEPT.clear()
    _KEPT[key] = found
    return found


_PURPOSE = re.compile(r"\b(?:use[ds]?|using)\s+(?:for|in|to\s+(?:compute|calculate|work\s+out))\s+(?:the\s+|its\s+|their\s+)?"
                      r"(?:[\w'\u2019-]+\s+){0,4}?(?:EPS|earnings\s+per\s+share)\b|\b(?:behind|underlying)\s+(?:the\s+|its\s+)?"
                      r"(?:[\w'\u2019-]+\s+){0,3}?(?:EPS|earnings\s+per\s+share)\b", re.I)
"""What a share count is used for ("how many weighted-average diluted shares did Meta use for Q3 2024 diluted EPS"): the
purpose, no line the question names."""


def unread_word(question: str, read: Sequence[Read], doc_grids: Mapping[str, Sequence[TableGrid]],
                explained: Iterable[str] = (), company: Container[str] = frozenset(),
                measure: frozenset[str] = frozenset()) -> str:
    """'' when every word of the question that names a part of the filing's figures is carried by a cell read,
    else the sentence saying which word is not and which row carries it (the answer abstains). `doc_grids` maps
    each document to its grids (the documents the cells come from are read); `explained`: words of the item's own
    names and of the metric asked; `measure`: the metric's name words (a row printing it is not a part)."""
    return unread(question, read, doc_grids, explained, company, measure)[0]


def unread(question: str, read: Sequence[Read], doc_grids: Mapping[str, Sequence[TableGrid]],
           explained: Iterable[str] = (), company: Container[str] = frozenset(),
           measure: frozenset[str] = frozenset()) -> tuple[str, str]:
    """`unread_word`'s sentence, and the label of the row it names as the line asked ('' when it names none: a
    quoted line no row prints, a segment not read)."""
    if not read or not question:
        return "", ""
    carried = frozenset().union(*(label_terms(r.label.row_label) | label_terms(r.label.parent_label)
                                  | label_terms(r.grid.title) | label_terms(r.cell.header) for r in read))
    skip = carried | frozenset(explained) | _INSTRUCTIONS | _MODIFIERS
    asked = _PURPOSE.sub(" ", asking_part(question))
    quoted = _quoted_away(asked, carried | frozenset(explained) | measure, company) \
        or segment_not_read(asked, carried | frozenset(explained) | measure, company)
    if quoted:
        return quoted, ""
    residual = {w for w in label_terms(asked) - skip
                if w not in company and not any(ch.isdigit() for ch in w) and len(w) > 2}
    if not residual:
        return "", ""
    chunks = {r.grid.chunk_id for r in read}
    rows = [row for grids in doc_grids.values() if any(g.chunk_id in chunks for g in grids)
            for g in grids if g.status == "parsed" for row in _rows(g)]
    labels = {row.own for row in rows}
    df = Counter(w for terms in labels for w in terms & residual)
    rare = {w for w in residual if 0 < df[w] <= max(RARE_MIN, RARE_SHARE * len(labels))}
    if not rare:
        return "", ""
    for r in read:
        # NOTE: a row labelled "Total" is its parent row's total ("Revenues:" over "Total")
        core = label_terms(r.label.row_label) - _MODIFIERS or label_terms(r.label.parent_label) - _MODIFIERS
        if not core:
            continue
        for row in rows:
            words = row.own & rare
            if words and core <= row.item and row.name != r.label.row_label.strip() \
                    and not (measure and measure <= row.own) and not (row.own & ADJUSTING) - label_terms(asked):
                said = ", ".join(dict.fromkeys(w for w in _WORD.findall(asked) if label_terms(w) & words))
                return (f"the question names '{said}', which the row read ({r.label.row_label.strip()}) does not carry, "
                        f"while '{row.name}' does: that is the line asked, and the row read is not stated in its place",
                        row.name)
    return "", ""


def _quoted_away(asked: str, carried: frozenset[str], company: Container[str]) -> str:
    """Why the cells read are not the line asked when the question quotes a line none of them prints (`carried`: the
    cells' words and the metric's own names: "'return on equity'" quotes the measure, not a line); '' otherwise.
    (A proper name outside quotes is no such sign: "McDonald's", "Dec 31", "SG Blocks" and a plant a persona names
    are not lines.)"""
    for match in QUOTED.finditer(asked):
        words = {w for w in label_terms(match["q"]) if w not in company and w not in _INSTRUCTIONS}
        if len(words) >= 2 and not words <= carried:
            return f"the question quotes '{match['q']}', which no row read prints"
    return ""


_UNIT_NAMED = re.compile(r"(?P<name>(?:(?:[A-Z][\w&'’.-]*|\([^)]{1,80}\)|and|of|&)\s+){1,8})"
                         r"(?P<unit>(?i:segment|division|business\s+unit|operating\s+unit))(?:['’]s)?\b"
                         r"(?!\s+(?i:notes?|information|reporting|disclosures?|data|tables?|results|sections?)\b)")
"""A business unit the question names by its capitalised name or acronym ("Intel's AXG (Accelerated Computing Systems
and Graphics) segment", "the Motion Control segment's")."""
_OWNER = re.compile(r"^.*\b[\w&.-]+['’]s?\s+", re.S)


def segment_not_read(asked: str, carried: frozenset[str], company: Container[str]) -> str:
    """Why the cells read are not the unit's line when the question names a segment or division by name and no cell
    read carries that name (nor, for a name with an alias in parentheses, the alias): the figure read is another
    unit's or the company's total, whether or not the filing prints the unit at all (a segment reorganised away)."""
    for match in _UNIT_NAMED.finditer(asked):
        name = _OWNER.sub("", match["name"]).strip()  # "Intel's AXG" -> "AXG": the owner is the company
        inside = " ".join(re.findall(r"\(([^)]*)\)", name))
        outside = re.sub(r"\([^)]*\)", " ", name)
        words = {w for w in label_terms(outside) if w not in company and w not in _INSTRUCTIONS and not re.search(r"\d", w)}
        aliases = {w for w in label_terms(inside) if w not in company and w not in _INSTRUCTIONS and not re.search(r"\d", w)}
        if not (words or aliases):
            continue
        if (words and words <= carried) or (aliases and aliases <= carried):
            continue
        return f"the question asks for the {name} {match['unit'].lower()}, which no cell read carries"
    return ""

