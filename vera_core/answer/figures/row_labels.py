"""The rows of the tables in scope that a question names by their own printed label.

A question the router's frames do not read ("What mortgage notes payable did the company show on its balance
sheet at December 31, 2015?") still names its item in the filing's own words: the label of a row the filing
prints. The documents' labels, not a vocabulary, say what the item is; the longest label the question writes
word for word is the one it names (`questions.row_asks.label_in_question`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence

from vera_core.finance.line_items import COUNT_BASIS, label_sequence, label_terms
from vera_core.questions.figure import expand_abbreviations
from vera_core.questions.row_asks import LabelSpan, label_in_question
from vera_core.records import TableGrid

__all__ = ["ACRONYM", "MAX_LABEL_WORDS", "named_rows"]

MAX_LABEL_WORDS = 10
"""A longer label is a sentence printed in a table, not a line item a question names."""
_GENERIC = frozenset(label_sequence(
    "total net other and of the in a gross basic diluted operating thousands millions billions dollars usd except per "
    "share shares amounts amount year years ended ending fiscal period quarter months weeks december january february "
    "march april may june july august september october november as at unaudited"))
"""Words that never name an item alone ("Total", "Net", "Other"), nor a unit legend or a period header printed as
a row ("(in millions)", "Year ended December 31")."""
ACRONYM = re.compile(r"\(([A-Z][A-Z&]{1,5})\)")
"""An acronym a label prints in parentheses ("Family Daily Active People (DAP)")."""
_PREFIX = re.compile(r"^\s*(?:less|add|plus|deduct)\s*:\s*|[:\s]+$|\s*\((?:\d|[a-z])\)\s*$|\$", re.I)


def _labels(grids: Iterable[TableGrid]) -> Counter[str]:
    """Every parsed grid's row labels (cleaned of a 'Less:' lead and a trailing colon or footnote mark), with
    how many rows print each."""
    out: Counter[str] = Counter()
    for grid in grids:
        if grid.status != "parsed":
            continue
        seen = set()
        for cell in grid.cells:
            if cell.row not in seen and cell.row_label:
                seen.add(cell.row)
                out[_PREFIX.sub("", cell.row_label).strip()] += 1
    return out


def named_rows(question: str, grids: Mapping[str, Sequence[TableGrid]], company: Container[str] = frozenset(),
               limit: int = 2) -> list[LabelSpan]:
    """The labels of rows in `grids` (doc_id -> grids) the question writes word for word, the longest first (the
    most printed among equals); at most `limit`. A label of generic words only, of figures, of the company's own
    name (`company`: a stock performance graph's "American Express" row), or longer than MAX_LABEL_WORDS is never
    one."""
    asked = label_terms(expand_abbreviations(question))
    found: list[tuple[int, int, LabelSpan]] = []
    for label, count in _labels(g for doc in grids.values() for g in doc).items():
        # NOTE: "Family average revenue per person" names "Family Average Revenue per Person (ARPP)" without its acronym
        acronym = ACRONYM.search(label)
        written = label[:acronym.start()] + label[acronym.end():] if acronym else label
        words = label_sequence(written)
        if not set(words) <= asked and COUNT_BASIS.match(written):
            # NOTE: "Full time equivalent headcount" is the headcount asked: how heads are counted, no other item
            written = COUNT_BASIS.sub("", written)
            words = label_sequence(written)
        if not words or len(words) > MAX_LABEL_WORDS or not set(words) <= asked:
            continue
        if all(w in _GENERIC or w.isdigit() or w in company for w in words):
            continue
        span = label_in_question(question, written, company)
        span = LabelSpan(label, span.text, span.start, span.end) if span is not None and written != label else span
        if span is not None and not _listed_on(span):
            found.append((len(words), count, span))
    for label, count in _labels(g for doc in grids.values() for g in doc).items():
        # NOTE: a row named by its acronym alone ("ARPP" for "Family Average Revenue per Person (ARPP)")
        acronym = ACRONYM.search(label)
        span = label_in_question(question, acronym.group(1)) if acronym and acronym.group(1).lower() not in company else None
        words = label_sequence(label)
        if span is not None and words and len(words) <= MAX_LABEL_WORDS:
            found.append((len(words), count, LabelSpan(label, span.text, span.start, span.end)))
    found.sort(key=lambda x: (-x[0], -x[1], x[2].label))
    out: list[LabelSpan] = []
    for _, _, span in found:
        if all(label_sequence(span.label) != label_sequence(o.label) for o in out):
            out.append(span)
    return _qualified(out, grids)[:limit]


_LISTED_ON = re.compile(r"\s*,?\s*(?:and|&)\s+(?!(?:the|its|their|in|for|at|of|during|as|how|what|which|did|does|do|was|"
                        r"were|is|are|then|also|so|at|by|on|from|to|with)\b)[a-z]", re.I)
"""An item the question goes on to join to the one named ("cash, cash equivalents and marketable securities")."""


_LIST_TAIL = re.compile(r"\b[a-z][\w-]*,\s+(?:[a-z][\w-]*\s+){0,3}?[a-z][\w-]*,?\s+(?:and|&)\s+$", re.I)
"""The words before an item that end a list it closes ("cash, cash equivalents, and marketable securities")."""


def _listed_on(span: LabelSpan) -> bool:
    """Whether the question writes the row's label as the head of a list it goes on with ("cash, cash equivalents and
    marketable securities" is one line, the three added, never the "Cash and cash equivalents" row alone): a label it
    writes with a comma in it that an "and" carries on, or the one its list ends with ("..., and marketable
    securities")."""
    return ("," in span.text[span.start:span.end] and bool(_LISTED_ON.match(span.text, span.end))) or \
        bool(_LIST_TAIL.search(span.text, 0, span.start))


def _qualified(spans: list[LabelSpan], grids: Mapping[str, Sequence[TableGrid]]) -> list[LabelSpan]:
    """The labels with one the question writes just before another first, where a table titled with the other's
    words prints it ("Data subscription and support revenue": the "Data" row of "Subscription and support revenues by
    service offering", never the total "Subscription and support" row); the other is never named alone then, and
    without such a table neither is when the other is the longer ("notebook revenue" names the "Notebook" row as
    before)."""
    for outer in spans:
        before = [s for s in spans if s is not outer and s.end <= outer.start and not s.text[s.end:outer.start].strip()]
        if not before:
            continue
        inner = before[0]
        titled = any(set(label_sequence(outer.label)) <= set(label_sequence(g.title))
                     and any(label_sequence(_PREFIX.sub("", c.row_label).strip()) == label_sequence(inner.label)
                             for c in g.cells if c.col == 0)
                     for doc in grids.values() for g in doc if g.status == "parsed")
        rest = [s for s in spans if s is not outer and s is not inner]
        if titled:
            return [inner, *rest]
        if len(label_sequence(outer.label)) > len(label_sequence(inner.label)):
            return rest  # NOTE: a longer line qualified by a row of no table of its own: neither is stated
    return spans
