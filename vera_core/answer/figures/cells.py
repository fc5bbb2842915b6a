"""Reading figures from table grids: the rows that print a line item (`CellFinder.candidates`) and the
one cell per (item, period) that passes every gate (`CellFinder.choose`), or what was found and why
none was used."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from vera_core.answer.figures.gates import (fiscal_year_end_month, identity_gate, needed_statements, period_matches,
                                            scale_gate, statement_gate)
from vera_core.answer.figures.sources import Source, table_sources
from vera_core.answer.figures.unread import ADJUSTING
from vera_core.finance.dates import MONTH_NAME, YEAR
from vera_core.finance.line_items import (AMOUNT_STEMS, BENEFIT_FIRST, COUNT_BASIS, NON_GAAP, Concept, concepts_in, in_order,
                                          label_score, label_terms)
from vera_core.questions.figure import FigureRequest
from vera_core.records import CHART_CAPTION, ChunkRecord, GridCell, Period, TableGrid

__all__ = ["Candidate", "CellFinder", "Choice", "Rejected", "ScopeGrids"]

MIN_FREE_SCORE = 0.34
"""A question's own words (no known concept) must make up at least this share of a row label."""


@dataclass(frozen=True)
class Candidate:
    """A row printing the item asked, with how well it fits the question."""

    grid: TableGrid
    chunk: ChunkRecord
    cells: tuple[GridCell, ...]
    """The row's value cells."""
    label: GridCell
    rank: tuple
    source: Source = Source("other", "")
    """What the table is to the question (a primary statement or not: `sources.py`)."""
    refused: str = ""
    """Why the row is not the item though it names it ("it is another line item: discontinued"); '' when it is."""



_SHARES_OF = re.compile(r"\b(?:as\s+an?\s+)?(?:percent(?:age)?s?|%)\s+of\s+(?:total\s+|net\s+)?(?:revenues?|sales|net\s+sales)\b",
                        re.I)
"""A statement printed as shares of revenue ("(As a percentage of total revenues)"): its rows are percentages, no
amounts, whether or not a cell prints "%"."""


def _parsed(grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord]):
    """(document order, grid, its chunk) of every parsed grid in scope whose chunk is known."""
    for doc_order, doc_grids in enumerate(grids.values()):
        for grid in doc_grids:
            chunk = chunks.get(grid.chunk_id)
            if grid.status == "parsed" and chunk is not None:
                yield doc_order, grid, chunk


def _candidates(request: FigureRequest, concept: Concept | None, grids: Mapping[str, Sequence[TableGrid]],
                chunks: Mapping[str, ChunkRecord], hit_rank: Mapping[str, int],
                sources: Mapping[str, Source]) -> list[Candidate]:
    """Rows printing the item asked, best first: tables of the statements the question needs (else
    primary statements), then by how well the label reads, retrieval rank and position."""
    needed = needed_statements(request.statement, concept, request.non_gaap)
    phrases = [label_terms(p) for p in concept.printed] if concept else [request.item_terms]
    found: list[Candidate] = []
    cost_asked = bool((request.question_terms | request.item_terms) & _COST_TERMS)
    moved = request.statement == "cash_flow" or bool(request.question_terms & CASH_MOVED)
    for doc_order, grid, chunk in _parsed(grids, chunks):
        if not request.percent and _SHARES_OF.search(grid.title):
            continue  # NOTE: "Statements of Operations (As a percentage of total revenues)": its gross profit is 75 (%)
        rows = grid.rows()
        for row, cells in rows.items():
            label = next((c for c in cells if c.col == 0), None)
            values = tuple(c for c in cells if c.col and c.value is not None)
            if label is None or not values:
                continue
            fit = _fit(label, phrases, concept is None, concept.printed if concept else (), moved)
            qualified_away = (changes_meaning(label.row_label, concept, request.question_terms)
                              or _another_concept(label.row_label, concept)) if fit is not None and concept is not None else ""
            if fit is not None and request.reconciling and not reconciles(grid, chunk):
                continue  # NOTE: "the SBC add-back": a cash flow statement's "Stock-based compensation" is another amount
            if fit is not None and request.non_gaap:
                values = adjusted_cells(grid, chunk, label, values)
                if not values:
                    continue  # a GAAP row: not the adjusted measure asked
            if fit is None and not request.reconciling and _quoted(label, request.question_terms) \
                    and _prints_item(rows, phrases, concept is None) \
                    and not _other_measure(ancestors(grid, label), concept):
                # the question quotes this row ("attributable to owners of the parent"); under a heading of another
                # measure it is that measure's ("FedEx Ground segment" under "Operating income (loss):")
                fit = (0, 1.0)
            if fit is None:
                continue
            source = sources.get(grid.chunk_id, Source("other", grid.statement))
            statement_rank = 0 if not statement_gate(source, needed) else 1 if source.role == "statement" else 2
            if not needed and not request.non_gaap:
                # NOTE: an item no vocabulary places ("total expenses") is read from the reporting entity's own
                # statements before a segment's or a summary's table that prints a row of the same name
                statement_rank = 0 if source.role == "statement" else 2 if source.role == "other_entity" else 1
            if concept is not None and concept.per_share and not any(c.unit == "per_share" for c in values):
                continue  # "diluted" shares outstanding are not diluted earnings per share
            # NOTE: a line no vocabulary knows, printed both as revenue and as its cost ("Cloud services and license
            # support" under "Revenues:" and under "Expenses:"): the cost only when the question says cost
            costed = concept is None and not cost_asked and bool(_COST_LABEL.search(label.parent_label))
            # NOTE: "revenue excluding the foreign exchange effect": the row printing that measure by name, not the effect's
            named = bool(request.named_exclusion) and label_terms(label.row_label) == request.named_exclusion
            # NOTE: a row that prints the excluded measure by name is the line asked, read as a named row (not gated on
            # the statements: Meta's "Revenue excluding foreign exchange effect" is in its non-GAAP table)
            rank = (-1 if named else bool(qualified_away), costed, not named, statement_rank, *_label_rank(label, request.question_terms),
                    fit[1] < 0.999,
                    fit[0], -fit[1], hit_rank.get(grid.chunk_id, 999), doc_order, chunk.position, row)
            # NOTE: "Other income, net" is not net income, "Total derivative assets" are not total assets: kept
            # only to be named when VERA abstains
            refusal = f"it is another line item ({qualified_away})" if qualified_away else ""
            found.append(Candidate(grid, chunk, values, label, rank, source, refusal))
    # NOTE: a row under a cost heading yields to its revenue twin only where one is printed: Incyte's "Research and
    # development" under "Costs and expenses:" has none, and a note's "Capitalized research and development" had won
    # (a twin is printed under a heading of its own: a side table's row under none, Salesforce's share-based "Marketing
    # and sales", is no revenue line)
    twins = {label_terms(c.label.row_label) for c in found
             if c.label.parent_label.strip() and not _COST_LABEL.search(c.label.parent_label)}
    found = [replace(c, rank=(c.rank[0], False, *c.rank[2:])) if c.rank[1] and label_terms(c.label.row_label) not in twins
             else c for c in found]
    qualified = _qualified(request, concept, phrases, grids, chunks) if concept else []
    found.sort(key=lambda c: c.rank)
    # NOTE: without a row named by the qualifier under a heading of the item, a row printing both the item and
    # the qualifier ("EchoPark Segment revenues", in a segment note) is the line asked, wherever it is printed
    # ("JAKAFI revenues, net" for "Jakafi net product revenue": "product" is the item's own word where its total row,
    # "Total product revenues, net", prints it)
    labelled = [replace(c, rank=(-1, *c.rank)) for c in found if request.qualifier and not c.refused
                and (request.qualifier.named_by(label_terms(c.label.row_label))
                     or named_with_total(request.qualifier, c.grid, c.label))] if not qualified else []
    # NOTE: last, a row under the item's heading carrying every word of a qualifier of CARRIED_WORDS or more, though
    # the question does not say all of its words ("revenue ... from selling regulatory credits": "Automotive regulatory
    # credits"; one word is too loose: "construction revenue" is not "Construction services (includes engineering ...)")
    # NOTE: each segment heading its own rows, the item one row of each ("Greater China:" over "Net sales" and
    # "Operating income"), or a table of its own ("TABLE 13: ICS SELECTED INCOME STATEMENT DATA"): the item's row under
    # the heading or in the table the qualifier names
    grouped = [replace(c, rank=(-1, *c.rank)) for c in found if request.qualifier and not c.refused and (
        request.qualifier.named_by(label_terms(ancestors(c.grid, c.label)))
        or request.qualifier.named_by(label_terms(c.grid.title)))] if not (qualified or labelled) else []
    carried = _qualified_rows(request, concept, phrases, grids, chunks, lambda own: request.qualifier.words <= own) \
        if concept and len(request.qualifier.words) >= CARRIED_WORDS and not (qualified or labelled or grouped) else []
    return qualified or labelled or grouped or carried or found


_TOTAL = re.compile(r"^\W*total\b", re.I)
_TOTAL_TERMS = label_terms("total")


def named_with_total(qualifier, grid: TableGrid, label: GridCell) -> bool:
    """Whether a row names the qualified line once the words its table's total row prints are the item's own: the
    qualifier's other words, at least one, all on the row ("JAKAFI revenues, net" for "Jakafi net product revenue"; never
    a part for "product revenue" alone)."""
    distinct = qualifier.words - total_words(grid, label)
    return bool(distinct) and distinct <= label_terms(label.row_label) and not _TOTAL.match(label.row_label)


def total_words(grid: TableGrid, label: GridCell) -> frozenset[str]:
    """The words of the total rows of a row's table that share a word of the row's label ("Total product revenues, net"
    for "JAKAFI revenues, net"), "total" aside: the item's own words, which its parts need not repeat."""
    own = label_terms(label.row_label) - _WHOLE
    totals = (label_terms(c.row_label) - _WHOLE for c in grid.cells if c.col == 0 and _TOTAL.match(c.row_label))
    return frozenset().union(*(t for t in totals if t & own))


CARRIED_WORDS = 2
"""A qualifier of at least this many words may name a row that carries them among others (`_candidates`)."""


def _qualified(request: FigureRequest, concept: Concept, phrases: list[frozenset[str]],
               grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord]) -> list[Candidate]:
    """Rows the question names by label ("the Motion Control segment") in tables of the item (its
    caption or a column header prints it) or under a heading row printing it: the item for that row,
    not the total. Only the columns headed by the item are read when a column names it."""
    return _qualified_rows(request, concept, phrases, grids, chunks, lambda own: own <= request.question_terms)


def _qualified_rows(request: FigureRequest, concept: Concept, phrases: list[frozenset[str]],
                    grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord],
                    named: Callable[[frozenset[str]], bool]) -> list[Candidate]:
    """`_qualified`'s rows, with `named(own words)` saying whether a row is one the question names."""
    concept_terms = frozenset().union(*phrases)
    found: list[Candidate] = []
    for doc_order, grid, chunk in _parsed(grids, chunks):
        item_columns = {j for j, h in enumerate(grid.header) if j and any(p and p <= label_terms(h) for p in phrases)}
        item_table = bool(item_columns) or any(p and p <= label_terms(grid.title) for p in phrases)
        for label in (c for c in grid.cells if c.col == 0):
            # NOTE: "Total Client Computing" (the sum of its lines, under "Net revenue:") is the segment's own line
            own = label_terms(label.row_label) - (_TOTAL_TERMS if _TOTAL.match(label.row_label) else frozenset())
            # NOTE: a segment table's rows sit under a heading row that prints the item ("Operating segment
            # revenue:" over "Data Center and AI"), when neither its title nor its columns do
            under_item = _under(label.parent_label, phrases)
            if not under_item and own and own <= request.qualifier.words | request.qualifier.aliases | request.qualifier.owner:
                # NOTE: a part the qualifier names may sit two headings below the item ("Net revenue:" > "Internet of
                # Things" > "Mobileye"); any row of the question's other words may not ("Income" under "Termination"
                # under "Rental Revenue" for "total revenue ... in the income statement")
                under_item = _under(ancestors(grid, label), phrases)
            if not (item_table or under_item) or not own or own & concept_terms or not named(own) or MONTH_NAME.search(label.row_label) \
                    or YEAR.fullmatch(label.row_label.strip()) or own <= BASIS_WORDS:
                continue  # NOTE: a row named by a date ("October 2022") or a basis ("GAAP") is not a named row
            # NOTE: a row printing some of the qualifier's words is not the line the rest of them name ("Subscription
            # and support" for "Data subscription and support revenue"); its headings, title or item column may print them
            if request.qualifier and not request.qualifier.named_by(
                    own | label_terms(ancestors(grid, label)) | label_terms(_UNIT_NOTE.sub(" ", f"{grid.title} {chunk.caption}"))
                    | frozenset().union(*(label_terms(grid.header[j]) for j in item_columns if j < len(grid.header)))):
                continue
            values = tuple(c for c in grid.cells if c.row == label.row and c.col and c.value is not None
                           and (not item_columns or c.col in item_columns))
            if values and request.non_gaap:
                values = adjusted_cells(grid, chunk, label, values)  # a GAAP row is not the adjusted measure asked
            if values:
                # NOTE: a heading naming more than the item ("Franchised Dealerships Segment Revenues") narrows
                # the row to a part of it the question does not ask for: such rows come last
                narrowed = len(label_terms(label.parent_label) - concept_terms - request.question_terms)
                found.append(Candidate(grid, chunk, values, label,
                                       (-1, narrowed, not item_table, -len(own), doc_order, chunk.position)))
    return sorted(found, key=lambda c: c.rank)


_UNIT_NOTE = re.compile(r"\([^)]*\b(?:millions?|thousands?|billions?|percentage|except)\b[^)]*\)", re.I)
"""A title's unit note ("(in millions, except per share data)"): no words of a line item."""


def _other_measure(heading: str, concept: Concept | None) -> bool:
    """Whether a row's headings name another line item than the one asked ("Operating income (loss):" over "FedEx
    Ground segment", asked for revenue); "Current liabilities" over "Wildfire-related claims" names the one asked."""
    named = concepts_in(heading) if heading and concept is not None else []
    return bool(named) and concept not in named


def _under(heading: str, phrases: list[frozenset[str]]) -> bool:
    """Whether a heading prints the item (and is not a count of it)."""
    return any(p and p <= label_terms(heading) for p in phrases) and not label_terms(heading) & COUNT_WORDS


_DEPTH = 3
"""Heading rows read above a row (its parent, the parent's parent, ...)."""


def ancestors(grid: TableGrid, label: GridCell) -> str:
    """The heading rows a row sits under, nearest first: its parent, then the heading row that parent is itself under
    ("Mobileye" under "Internet of Things" under "Net revenue:"), each the nearest row above of that label."""
    labels = {c.row: c for c in grid.cells if c.col == 0}
    chain, parent, row = [], label.parent_label, label.row
    while parent and len(chain) < _DEPTH:
        chain.append(parent)
        above = next((labels[r] for r in sorted(labels, reverse=True) if r < row and labels[r].row_label == parent), None)
        if above is None:
            break
        parent, row = above.parent_label, above.row
    return " ".join(chain)


_UNITS_NOTE = re.compile(r"\b(?:except|other\s+than)\s+(?:for\s+)?(?:per[\s-]share|share|employee|headcount|percentage)s?"
                         r"(?:\s+(?:and\s+)?[\w-]+)*?\s+(?:data|amounts|information|figures)\b", re.I)
"""A table's note on its units ("(in millions, except per share data)"): no segment's name ("the Data cloud" is not
named by it)."""


def _not_qualified(request: FigureRequest | None, cand: Candidate, cell: GridCell) -> str:
    """Why a row is not the qualified line the question asks for ("automotive revenues", not total
    revenues): its label, parent rows, table title and column header lack the qualifier; '' when it is."""
    if request is None or not request.qualifier:
        return ""
    quoted = label_terms(cand.label.row_label)
    item = request.item_terms.union(*(label_terms(p) for c in request.concepts for p in c.printed))
    if quoted in request.quoted and quoted - item:
        return ""  # NOTE: a line the question quotes, naming more than the item ("revenue excluding foreign exchange
        # effect"), is the line asked; quoting the item alone ("'operating income'") still needs the segment asked
    terms = (quoted | label_terms(cand.label.parent_label) | label_terms(_UNITS_NOTE.sub(" ", cand.grid.title))
             | label_terms(_UNITS_NOTE.sub(" ", cell.header)) | label_terms(_UNITS_NOTE.sub(" ", cand.chunk.caption)))
    if request.qualifier.named_by(terms) or named_with_total(request.qualifier, cand.grid, cand.label):
        return ""
    return f"it is not the {' '.join(sorted(request.qualifier.words | request.qualifier.aliases))} line the question asks for"


QUOTED_MIN_WORDS = 3
"""A row the question quotes (every word of its label in the question) counts as the item when it
sits in a table that prints the item and has at least this many words (not "Total", not "Net")."""


QUALIFIERS = label_terms(
    "other discontinued noncontrolling non controlling comprehensive deferred unearned accrued derivative derivatives "
    "restricted held segment segments adjusted gaap non core pro forma unbilled prepaid not unpaid declared noncash") \
    | ADJUSTING
"""Words that make a row a different line item from the one it names ("Income from discontinued
operations" is not operating income; "Net income attributable to noncontrolling interests" is not net
income; "Deferred revenues" are not revenue; "Total non-GAAP operating income adjustments" are not non-GAAP operating
income), unless the item asked or the question has them."""


MOVEMENT = label_terms("increase increases decrease decreases change changes proceeds repayment repayments payment payments "
                       "purchase purchases issuance issuances")
"""Words that make a row the movement of a balance in a period, not the balance (or flow) a question
names in its own words."""


CASH_MOVED = label_terms("paid pay spent spend outflow outflows")
"""Words asking how much cash moved ("how much cash went out for dividends", "paid for"): the row of a payment answers."""


SUM_WORDS = label_terms("incl including includes plus combined together")
"""Words by which a question names two rows as one item (a sum no single row prints unless it says so)."""


COUNT_WORDS = label_terms("unit units volume volumes number headcount")
"""A heading row that counts ("Segment Retail New and Used Vehicle Unit Sales Volume") heads counts, not the
amount of an item its words include ("sales")."""


BASIS_WORDS = label_terms("gaap non adjusted reported as core")
"""A row labelled only by its basis ("GAAP", "Non-GAAP", "As reported") names no item or segment."""


def changes_meaning(label: str, concept: Concept, question_terms: frozenset[str]) -> str:
    """The words by which a row label qualifies the item into another one (words of QUALIFIERS the
    item's names and the question lack), '' when it does not."""
    own = label_terms(label.split(",", 1)[0])  # NOTE: after a comma, a descriptor ("Inventories, at cost, not in ...")
    names = concept.words
    # NOTE: "GAAP cash from operations" is the reported measure itself: "GAAP" qualifies only as "non-GAAP"
    plain = _GAAP if not own & _NON else frozenset()
    return ", ".join(sorted((own & (QUALIFIERS | label_terms(" ".join(concept.other_items)))) - names - question_terms - plain))


_GAAP = label_terms("GAAP")
_NON = label_terms("non")


def _another_concept(label: str, concept: Concept) -> str:
    """The line item a row's label names when it is another than `concept` ("Non-GAAP net income from continuing
    operations" is net income, not the operating income it holds the words of); '' when it names `concept` or none."""
    head = _MEASURE_LEAD.sub("", label)
    if concept.asked.match(head) or (concept.per_share and _PER_SHARE.search(label)):
        return ""  # NOTE: "Net income (loss) per share - diluted" is diluted EPS
    # NOTE: only a measure the label opens with ("Earnings per diluted share" names no diluted share count)
    named = [c for c in concepts_in(head) if c.asked.match(head)]
    return named[0].name if named and not any(c.name == concept.name for c in named) else ""


_PER_SHARE = re.compile(r"\bper\s+(?:common\s+|diluted\s+|basic\s+|ordinary\s+)?share\b", re.I)
_MEASURE_LEAD = re.compile(r"^\W*(?:(?:total|non-?\s?GAAP|adjusted|reported|GAAP)\s+)*", re.I)
"""Words before a label's measure that leave it that measure ("Non-GAAP net income ...")."""


def adjusted_cells(grid: TableGrid, chunk: ChunkRecord, label: GridCell,
                   values: tuple[GridCell, ...]) -> tuple[GridCell, ...]:
    """The cells of a row that print an adjusted (non-GAAP) measure: all of them when its label or its
    table says so (a reconciliation's GAAP rows excepted), else those of columns headed "Non-GAAP"."""
    own = f"{label.row_label} {label.parent_label}"
    if NON_GAAP.search(own):
        return values
    if re.match(r"\s*(?:GAAP|reported|as\s+reported)\b", label.row_label, re.I):
        return ()
    columns = {j for j, h in enumerate(grid.header) if j and NON_GAAP.search(h)}
    if columns:
        return tuple(c for c in values if c.col in columns)
    if not NON_GAAP.search(f"{grid.title} {chunk.caption}") or "gaap" in label.row_label.lower():
        return ()
    # NOTE: a reconciliation whose own rows name the adjusted measure ("Adjusted EPS" under "Diluted earnings (loss)
    # per share" and the adjustments): its other rows are the GAAP start and the adjustments, not the measure
    named = any(NON_GAAP.search(c.row_label) for c in grid.cells if c.col == 0)
    return () if named else values


def reconciles(grid: TableGrid, chunk: ChunkRecord) -> bool:
    """Whether a table reconciles a GAAP measure to an adjusted one: its title or one of its rows names the adjusted
    measure ("Non-GAAP income from operations")."""
    return bool(NON_GAAP.search(f"{grid.title} {chunk.caption}")) or any(NON_GAAP.search(c.row_label)
                                                                         for c in grid.cells if c.col == 0)


def _quoted(label: GridCell, question_terms: frozenset[str]) -> bool:
    own = label_terms(label.row_label)
    return len(own) >= QUOTED_MIN_WORDS and own <= question_terms


def _prints_item(rows: dict[int, list[GridCell]], phrases: list[frozenset[str]], free: bool) -> bool:
    return any(_fit(c, phrases, free) is not None for cells in rows.values() for c in cells if c.col == 0)


def _label_rank(label: GridCell, question_terms: frozenset[str]) -> tuple[int, int, int]:
    """How a row label reads against the question: an "Other ..." row the question does not ask
    for comes last; then the more of its words the question uses the better ("Net income
    attributable to PepsiCo" over "Net income" when the question says "attributable to PepsiCo"), then the more of its
    heading's ("Reality Labs" under "Income (loss) from operations:" over "Reality Labs" under "Revenue:" for "Reality
    Labs operating loss"). Between rows that tie, a label that is exactly one of the item's names beats a longer one."""
    own = label_terms(label.row_label)
    other = label.row_label.strip().lower().startswith("other") and "other" not in question_terms
    return int(other), -len(own & question_terms), -len((label_terms(label.parent_label) - own) & question_terms)


def _fit(label: GridCell, phrases: list[frozenset[str]], free: bool,
         texts: tuple[str, ...] = (), moved: bool = False) -> tuple[int, float] | None:
    """(phrase index, label score) of the first phrase the row prints (a known item's phrase with its
    words in its order: "cost of revenue" is not "revenues net of interest expense"), or None. With `moved`
    the question asks a flow of cash, and a row of a movement ("Payments for dividends") may be it."""
    for index, phrase in enumerate(phrases):
        if free and phrase and phrase == {t for a in _LABEL_ACRONYM.findall(label.row_label) for t in label_terms(a)}:
            return index, 1.0  # NOTE: "DAP" names "Family Daily Active People (DAP) (In Billions)" by its acronym
        if free:
            # NOTE: "Long-term debt, less debt issuance costs and discounts of $301 and $248": what follows ", less" says
            # how the line is measured, not which line it is
            head = COUNT_BASIS.sub("", _MEASURED_AS.sub("", label.row_label))  # NOTE: "Full time equivalent headcount"
            if (label_terms(head) & MOVEMENT) - phrase and not moved:
                continue  # NOTE: "Net increase in loans receivable" is a cash flow, not the loans asked for
            if phrase & SUM_WORDS and not label_terms(label.row_label) & SUM_WORDS:
                continue  # NOTE: "long-term debt incl. current maturities" is a sum, not "Current maturities of ..."
            printed = _terms(label)
            if any(a in phrase and b in printed and b not in phrase for a, b in _OPPOSITES):
                continue  # NOTE: "long-term debt" is never the "Short-term debt" row, whatever words they share
            shared = phrase & printed
            own = max(label_score(label.row_label, shared, label.parent_label),
                      label_score(head, shared, label.parent_label) if head != label.row_label else 0.0)
            share = len(shared) / max(len(phrase), 1)
            # NOTE: a row that measures something the item does not name, two of the item's words unprinted, is another
            # line ("ad impressions delivered ... Asia-Pacific" is no "Advertising Revenue ...: Asia-Pacific" row)
            unshared = {w for w in phrase - shared if len(w) > 2 and not any(ch.isdigit() for ch in w)}  # not "1 dp"
            other = len(unshared) >= 2 and bool((printed - phrase) & _MEASURE_NOUNS)
            if share >= 0.6 and own >= MIN_FREE_SCORE and not other:
                return index, own * share
            continue
        score = label_score(label.row_label, phrase, label.parent_label)
        if score > 0 and (index >= len(texts) or in_order(label.row_label, texts[index])):
            return index, score
    return None


_MEASURE_NOUNS = label_terms("revenue income expense cost profit loss margin sales assets liabilities equity debt")
"""Words that say what a row measures (`_fit`)."""
_LABEL_ACRONYM = re.compile(r"\((?-i:[A-Z]{2,6})\)")
"""A label's acronym in parentheses ("(DAP)"): the row's name in short."""
_MEASURED_AS = re.compile(r",\s*(?:less|net\s+of|excluding)\b.*$", re.I | re.S)
"""A label's clause after its name saying how the line is measured."""


_SIDES = tuple(tuple(next(iter(label_terms(w))) for w in pair) for pair in (("long", "short"), ("assets", "liabilities"),
                                                                               ("receivable", "payable")))
_OPPOSITES = _SIDES + tuple((b, a) for a, b in _SIDES)
"""Words of one side of a balance, as labels are read (each with the other side's): an item saying one is never a row
saying the other."""


def _terms(label: GridCell) -> frozenset[str]:
    return label_terms(f"{label.row_label} {label.parent_label}")


@dataclass(frozen=True)
class Rejected:
    """A cell that prints the item for the period asked but failed a gate."""

    candidate: Candidate
    cell: GridCell
    why: str


@dataclass(frozen=True)
class Choice:
    """The cell chosen for one (item, period), or none, with the cells refused on the way."""

    candidate: Candidate | None = None
    cell: GridCell | None = None
    rejected: tuple[Rejected, ...] = ()

    @property
    def found(self) -> bool:
        return self.cell is not None


class ScopeGrids(dict):
    """doc_id -> the grids of a document in scope, knowing which documents are slide decks (their `doc_type`, read from
    the document): a deck prints no statements, its slides' tables are its figures ("Segment Revenue $75M" on Twilio's
    "Segment Results Highlights"). Passed on wherever the grids go, so every reader of cells knows it."""

    def __init__(self, grids: Mapping[str, Sequence[TableGrid]], decks: Iterable[str] = (),
                 quarter_ends: Mapping[str, tuple[int, int]] | None = None) -> None:
        super().__init__(grids)
        self.decks = frozenset(decks)
        self.quarter_ends = dict(quarter_ends or {})
        """A quarter's last day -> (fiscal year, quarter), as the documents in scope say of their own period (Costco's
        third quarter of fiscal 2023 ends May 7, 2023: a 52/53-week year's quarter ends on no month's last day)."""


@dataclass
class CellFinder:
    """Candidates and gated choices over one question's scope: the grids of the documents in scope
    (doc_id -> grids), their table chunks, and the retrieval rank of each table chunk."""

    grids: Mapping[str, Sequence[TableGrid]]
    chunks: Mapping[str, ChunkRecord]
    hit_rank: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.sources = table_sources(self.grids, self.chunks)
        self.year_end_months = {doc_id: fiscal_year_end_month(p for g in grids for p in g.periods)
                                for doc_id, grids in self.grids.items()}
        # NOTE: a deck prints no statement: its charts and slides' tables are its figures (a filing or release whose
        # statements are printed, or whose statements were not read, is read from its statements only)
        # NOTE: so does a document read as a deck whose slides print tables and no chart VERA reads (Twilio's)
        decks = getattr(self.grids, "decks", frozenset())
        self.without_statements = {doc_id for doc_id, grids in self.grids.items()
                                   if (doc_id in decks or any(g.title.startswith(CHART_CAPTION) for g in grids))
                                   and not any(self.sources.get(g.chunk_id, Source("other", "")).role == "statement"
                                               for g in grids)}

    def candidates(self, request: FigureRequest, concept: Concept | None) -> list[Candidate]:
        return _candidates(request, concept, self.grids, self.chunks, self.hit_rank, self.sources)

    def matches(self, period: Period, cell: GridCell, cand: Candidate, concept: Concept | None = None) -> bool:
        """Whether a cell prints the period asked; a quarter asked of a flow (`concept` printed only in the income or
        cash flow statement) is never a balance column dated at the quarter's end."""
        if concept is not None and concept.home and "balance" not in concept.home and period.kind == "quarter" \
                and cell.period is not None and cell.period.kind in ("instant", "year"):
            return False
        return period_matches(period, cell.period, self.year_end_months.get(cand.chunk.doc_id),
                              getattr(self.grids, "quarter_ends", None))

    def choose(self, candidates: list[Candidate], period: Period | None, request: FigureRequest | None = None,
               concept: Concept | None = None, gated: bool = True) -> Choice:
        """The best-ranked row that prints the period asked (its latest period when none is asked)
        and passes the gates; the rows refused on the way, each with why."""
        needed = needed_statements(request.statement if request else "", concept,
                                   bool(request and request.non_gaap)) if gated else ()
        amount = not (request and request.percent)
        qualified = bool(candidates) and candidates[0].rank[:1] == (-1,)  # a row the question names: not gated
        rejected: list[Rejected] = []
        for cand in candidates:
            if period is None:
                dated = [c for c in cand.cells if c.period is not None]
                cells = [max(dated, key=lambda c: (c.period.end or "", c.period.year or 0))] if dated else []
            else:
                cells = [c for c in cand.cells if self.matches(period, c, cand, concept)]
            cells, ambiguous = _column_asked(cells, request, amount)
            if ambiguous:
                rejected.append(Rejected(cand, cells[0], ambiguous))
                continue
            for cell in cells[:1]:
                unprinted = cand.chunk.doc_id in self.without_statements and not (request and request.statement)
                why = cand.refused or ("" if qualified or unprinted else statement_gate(cand.source, needed))
                # NOTE: an item no vocabulary knows is refused as a percentage when the question asks it in a currency's
                # scale ("TD SYNNEX SG&A ... in $ millions": not its share of revenue in a results-of-operations table)
                # NOTE: so is a percentage for an item whose words ask money ("marketing and sales expense")
                money = bool(request and AMOUNT_STEMS & (request.question_terms | request.item_terms))
                why = why or ("it is a percentage, not an amount" if amount and cell.unit == "%" and (
                    concept is not None or bool(request and request.scale) or money) else "")
                per_share_asked = concept.per_share if concept is not None else bool(
                    request and {"share", "eps"} & request.question_terms)
                counted = concept is not None and concept.shares
                why = why or (_shares_counted(cand) if counted else "")
                why = why or ("it is a per-share figure, not the amount" if cell.unit == "per_share" and not per_share_asked
                              and not counted else "")
                why = why or ("it is an amount, not the per-share figure asked" if request is not None and
                              request.per_share and cell.unit != "per_share" and not (concept and concept.per_share)
                              and not counted else "")  # NOTE: "diluted shares ... in its EPS calculation": a count
                why = why or _not_forward(request, cand, cell)
                why = why or _share_count(cell, per_share_asked or bool(request and request.per_share))
                why = why or _component_column(request, cell)
                why = why or _not_qualified(request, cand, cell)
                why = why or identity_gate(cand.grid, cell, cand.source.statement)
                why = why or scale_gate(cand.grid, cell, self._elsewhere(candidates, cand, cell, period))
                if not why:
                    return Choice(cand, cell, tuple(rejected))
                rejected.append(Rejected(cand, cell, why))
        return Choice(rejected=tuple(rejected))

    def _elsewhere(self, candidates: list[Candidate], chosen: Candidate, cell: GridCell,
                   period: Period | None) -> list[tuple[TableGrid, GridCell]]:
        """The same item printed for the same period in other tables."""
        out = []
        for cand in candidates:
            if cand.chunk.chunk_id == chosen.chunk.chunk_id:
                continue
            out += [(cand.grid, c) for c in cand.cells
                    if (self.matches(period, c, cand) if period else c.period == cell.period)]
        return out


_WHOLE = label_terms("total consolidated combined all")


def _column_asked(cells: list[GridCell], request: FigureRequest | None, amount: bool) -> tuple[list[GridCell], str]:
    """The cell of the column the question asks for when a row prints the period in several columns
    ("Same Store 2022", "Non-same Store 2022", "Total 2022"): the column whose header carries the
    question's words, else the total; why none when the question does not say which ('' when one)."""
    kind = [c for c in cells if (c.unit != "%") == amount] or cells
    if len({c.value for c in kind}) <= 1:
        return cells, ""
    asked = request.question_terms if request is not None else frozenset()
    own = {c.col: label_terms(c.header) - label_terms(" ".join(str(c.period.year or "") for c in kind if c.period))
           for c in kind}
    common = frozenset.intersection(*own.values())
    best = max(kind, key=lambda c: len((own[c.col] - common) & asked))
    if len((own[best.col] - common) & asked) > 0:
        return [best], ""
    whole = [c for c in kind if (own[c.col] - common) & _WHOLE]
    if len(whole) == 1:
        return whole, ""
    return kind, (f"the row prints this period in {len(kind)} columns ("
                  f"{'; '.join(c.header for c in kind)}) and the question does not say which")


_SHARES_COUNTED = re.compile(r"\b(?:weighted[\s-]+average\s+(?:number\s+of\s+)?(?:common\s+)?shares|shares\s+(?:used|outstanding)|"
                             r"number\s+of\s+(?:common\s+)?shares|share\s+count|diluted\s+shares)\b", re.I)
"""A label or heading whose subject is a count of shares ("Weighted-average shares used to compute earnings per share:",
"Shares used in calculation (000's)")."""


def _shares_counted(cand: Candidate) -> str:
    """Why a row is not a count of diluted shares: '' when its label, or the heading it sits under, counts shares
    ("Diluted" under "Weighted-average shares used to compute earnings per share:"), never the "Diluted" row under
    "Earnings per share:" beside it."""
    if _SHARES_COUNTED.search(cand.label.row_label) or _SHARES_COUNTED.search(cand.label.parent_label):
        return ""
    return "it is not a count of shares"


_SHARES_COLUMN = re.compile(r"\bshares\b", re.I)
_PER_SHARE_COLUMN = re.compile(r"\bper\s+(?:common\s+)?share\b|\bEPS\b|\$\s*/\s*share", re.I)


def _share_count(cell: GridCell, per_share: bool) -> str:
    """Why a per-share figure is not read from a column of share counts ("Year Ended December 31, 2021 Shares"
    beside "$ per Share" in an EPS reconciliation): '' when it is not one."""
    if per_share and _SHARES_COLUMN.search(cell.header) and not _PER_SHARE_COLUMN.search(cell.header):
        return "its column counts shares, not an amount per share"
    return ""


_COST_LABEL = re.compile(r"\b(?:expenses?|costs?)\b", re.I)
_COST_TERMS = label_terms("expense expenses cost costs spend spent spending")
_RATE_LABEL = re.compile(r"\brates?\b|\bratio\b|%", re.I)
"""A row that prints a rate of a cost ("Effective income tax (benefit) expense rate"), not the cost."""


_SPENT_LABEL = re.compile(r"\s*(?:purchases?|(?:principal\s+)?payments?|repurchases?|acquisitions?|additions?|repayments?|"
                          r"capital\s+expenditures?|(?:cash\s+)?dividends\s+paid)\b", re.I)
"""A cash flow row that names money paid out ("Purchases of property and equipment", "Repayments of debt"): printed in
parentheses, it is the amount paid."""


def signed(concept, cand: Candidate, cell: GridCell) -> float:
    """A cell's figure in the sign the formula needs: a cost or an outflow as the amount incurred
    (printed in parentheses it is still a cost), a tax row printing benefits positive ("Income tax
    benefit (expense)") as the expense it is (a benefit negative)."""
    value = cell.value
    if concept is None:
        # NOTE: a line no vocabulary knows that is a cost ("Total operating expenses (12,125)") in a statement
        # printing its costs in parentheses: the amount incurred, as a known cost would be
        if value < 0 and cell.unit != "%" and _COST_LABEL.search(cand.label.row_label) \
                and not _RATE_LABEL.search(cand.label.row_label) and prints_costs_negative(cand.grid, cell.col):
            return -value
        if value < 0 and cand.grid.statement == "cash_flow" and _SPENT_LABEL.match(cand.label.row_label):
            return -value  # NOTE: "Purchases of property and equipment (32,251)" asked in the question's words: spent
        return value
    deduction = deducted(cand.grid, cell) if concept.expense else None
    if deduction is not None:
        return -value if deduction else value
    if concept.expense and BENEFIT_FIRST.search(cand.label.row_label):
        return -value
    if value < 0 and concept.outflow and cand.grid.statement == "cash_flow":
        return -value  # NOTE: an outflow is printed negative: the amount spent
    if value < 0 and concept.never_credit:
        return -value  # NOTE: "Interest expense (2,496)": the interest paid, never a credit
    if value < 0 and concept.expense and prints_costs_negative(cand.grid, cell.col):
        return -value  # NOTE: a statement printing its costs in parentheses: still a cost, which formulas subtract
    return value


_FORWARD = re.compile(r"\b(?:guidance|outlook|forecast\w*|projection\w*|projected|expect\w*|targets?|estimated?)\b", re.I)


_COMPONENT = re.compile(r"\b(?:effects?|impacts?|adjustments?|variances?|differences?|changes?|translation|items\s+affecting|"
                        r"restructuring|impairment|mark-to-market|divestiture|special\s+items)\b", re.I)
"""Column headers of a reconciliation's components ("Exchange Rate Effect", "Items Affecting Comparability:
Restructuring and impairment charges"): never the figure of the row itself."""


def _component_column(request, cell: GridCell) -> str:
    """Why a cell is a component of a reconciliation, not the item's value ('' when it is not, or the
    question asks for it): its column is an effect, adjustment or change ("Exchange Rate Effect")."""
    if not _COMPONENT.search(cell.header or ""):
        return ""
    asked = request.question_terms if request is not None else frozenset()
    if label_terms(" ".join(_COMPONENT.findall(cell.header))) & asked:  # "the FX effect on revenue" asks for it
        return ""
    return f"its column ({cell.header.strip()}) is an effect or change, not the figure itself"


def _not_forward(request, cand: Candidate, cell: GridCell) -> str:
    """Why a cell does not answer a question asking for guidance ('' when it does or none is asked): its
    table, column and row say nothing of an outlook."""
    if request is None or not request.forward:
        return ""
    said = f"{cand.grid.title} {cell.header} {cand.label.row_label} {' '.join(cand.grid.header)}"
    return "" if _FORWARD.search(said) else "it is a reported figure, not the guidance or outlook the question asks for"


COST_WORDS = re.compile(r"\b(?:costs?|expenses?)\b", re.I)


def prints_costs_negative(grid: TableGrid, col: int) -> bool:
    """Whether a table prints its costs as negatives (a deduction layout): most of its cost and expense
    rows are negative in the column. Elsewhere a negative cost is a credit (a tax benefit)."""
    costs = [c.value for c in grid.cells if c.col == col and c.value is not None and COST_WORDS.search(c.row_label)]
    return bool(costs) and sum(v < 0 for v in costs) * 2 > len(costs)


_PRETAX = re.compile(r"\bbefore\b.*\btax", re.I)
_AFTER_TAX = re.compile(r"^\s*(?:net\s+)?(?:income|earnings|loss|profit)\b|\bnet\s+(?:income|earnings|loss)\b|"
                        r"\bfrom\s+continuing\s+operations\s*$", re.I)


def deducted(grid: TableGrid, cell: GridCell) -> bool | None:
    """Whether a tax row between pre-tax income and the income after it prints the tax as a deduction
    (pre-tax + printed = after: a positive figure is a benefit) rather than as the expense (pre-tax -
    printed = after); None when the rows around it do not tell."""
    column = {c.row: c for c in grid.cells if c.col == cell.col and c.value is not None}
    labels = {c.row: c.row_label for c in grid.cells if c.col == 0}
    above = [r for r in column if r < cell.row and _PRETAX.search(labels.get(r, ""))]
    below = [r for r in column if r > cell.row]
    if not above or not below or not _AFTER_TAX.search(labels.get(below[0], "")):
        return None
    pretax, after = column[max(above)].value, column[below[0]].value
    tolerance = 0.001 * max(abs(pretax), abs(after), 1.0)
    if abs(pretax + cell.value - after) <= tolerance:
        return True
    if abs(pretax - cell.value - after) <= tolerance:
        return False
    return None
