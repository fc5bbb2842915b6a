"""Evaluate a formula over table cells: every operand resolved through the figure resolution to one
cited cell, the arithmetic VERA's own. An operand that cannot be found stops the calculation: no
result is stated, and the answer names what is missing and where it looked."""

from __future__ import annotations

import re

from collections.abc import Container, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from vera_core.answer.figures.cells import Candidate, CellFinder, Choice, signed
from vera_core.answer.figures.figure_answer import refused
from vera_core.answer.figures.sources import Source
from vera_core.finance.statements import STATEMENT_NAMES
from vera_core.questions.figure import FigureRequest
from vera_core.questions.spans import shifted
from vera_core.finance.line_items import concepts_in, label_terms
from vera_core.text import JOINING_WORDS
from vera_core.questions.expression import Avg, Chg, Item, Node, Num
from vera_core.questions.qualifiers import Qualifier, item_qualifier
from vera_core.records import ChunkRecord, GridCell, Period, TableGrid


@dataclass(frozen=True)
class Operand:
    """One cell a calculation read."""

    name: str
    """The operand as the formula names it ("revenue")."""
    period: Period
    value: float
    """In units (scale applied); an outflow (capex) as the amount spent."""
    candidate: Candidate
    cell: GridCell
    proposed: bool = False
    """Claude named the row (LLM modes, no row found by VERA); the cell and the arithmetic are VERA's."""


_BURN = re.compile(r"\bburn(?:ed|t|\s+rate)?\b", re.I)
"""An operand named as a burn ("operating cash burn"): the amount used, whatever sign the statement prints it with
(a formula over "net cash used in operating activities" keeps the printed sign: "A - capex" is its free cash flow)."""

_USED = re.compile(r"\bused\s+(?:in|for|by)\b|\boutflows?\b", re.I)

RowPicker = Callable[[str, str, list[str]], tuple[int | None, str]]
"""(line item, period words, row labels) -> (index of the row Claude says is the item or None, notice)."""

MAX_PROPOSED_ROWS = 200
"""Row labels sent to Claude when it is asked which row an operand is."""


class MissingOperand(LookupError):
    """An operand no table prints for the period, or whose cells all failed a gate: the calculation
    abstains. `refused` names the cells found and why none was used ('' when none was found)."""

    def __init__(self, name: str, period: Period, refused: str = "") -> None:
        super().__init__(f"{name} for {period_words(period)}")
        self.name = name
        self.period = period
        self.refused = refused


def period_words(period: Period) -> str:
    return f"FY{period.year}" if period.kind == "year" else period.label


ITS = re.compile(r"\s*(?:its|their)\b", re.I)
"""An item named by a pronoun ("its cost of revenues"): it carries the qualifier of the item named before it."""


class CellResolver:
    """Operands -> cells over one scope's grids (memoised: an average and its metric read a cell once).
    Each operand passes the same gates as a figure (`gates.py`)."""

    def __init__(self, grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord],
                 hit_rank: Mapping[str, int], propose: RowPicker | None = None,
                 doc_names: Mapping[str, str] | None = None, qualifier: Qualifier = Qualifier(),
                 company: Container[str] = frozenset(), uses_as_amounts: bool = False,
                 siblings: Sequence[str] = ()) -> None:
        self.finder = CellFinder(grids, chunks, hit_rank)
        self.siblings = tuple(siblings)
        """The formula's other items: a longer one names a part of a shorter one ("long-term debt" and "long-term debt
        due within one year"), whose row the shorter one is not."""
        self.qualifier = qualifier
        """Words the question puts on the whole metric ("automotive gross margin"): every operand carries them."""
        self.company = company
        """The registrant's own name: never a qualifier."""
        self.propose = propose
        self.doc_names = doc_names or {}
        self._memo: dict[tuple, tuple[Operand | None, str]] = {}
        self._last_own = Qualifier()
        """The qualifier of the item read last: what "its" in the next one refers to."""
        self.notices: list[str] = []
        """What the reader should know: a row Claude proposed, or why it could not be asked."""
        self.uses_as_amounts = uses_as_amounts
        """An operand named as a use ("net cash used in operating activities") is the amount used: set for a
        metric asked in years (how long a balance lasts at a rate of use), where only the amount means anything."""

    def __call__(self, item: Item, period: Period) -> Operand:
        key = (item.phrase.lower(), item.statement, period)
        if key not in self._memo:
            self._memo[key] = self._resolve(item, period)
            unnamed = self._without_company(item.phrase)
            if self._memo[key] == (None, "") and unnamed:
                # NOTE: "intel headcount", "meta dilutd share count": the company's name written before the item, in
                # lower case, where no row prints it; read only when the item as written finds no row at all
                found, refused = self._resolve(Item(unnamed, item.offset, item.period, item.statement), period)
                self._memo[key] = (replace(found, name=item.phrase) if found else None, refused)
        found, refused = self._memo[key]
        if found is None:
            raise MissingOperand(item.phrase, period, refused)
        return found

    def _without_company(self, phrase: str) -> str:
        """The item without the company's name words that lead it ("intel headcount" -> "headcount"); '' when none
        lead it or nothing would be left."""
        if concepts_in(phrase):
            return ""  # NOTE: "cost of sales" is a line item whatever the company's ticker (COST) spells
        words = phrase.split()
        lead = 0
        while lead < len(words) - 1 and (terms := label_terms(words[lead])) and all(t in self.company for t in terms):
            lead += 1
        if lead and words[lead].lower() in JOINING_WORDS:
            return ""  # NOTE: what is left is no item ("of sales")
        return " ".join(words[lead:]) if lead else ""

    @property
    def found(self) -> list[Operand]:
        """The operands read so far, in the order first read (what an abstention can still cite)."""
        return [op for op, _ in self._memo.values() if op is not None]

    def _resolve(self, item: Item, period: Period) -> tuple[Operand | None, str]:
        concepts = concepts_in(item.phrase)
        concept = concepts[0] if concepts else None
        # NOTE: the words the concept is asked by ("capex") are the item, not a qualifier of it
        own = item_qualifier(concept.asked.sub(" ", item.phrase), concept.words) \
            if concept else Qualifier()
        if not own and ITS.match(item.phrase):
            own = self._last_own  # NOTE: "(subscription and support revenue - its cost of revenues)": its = the one named before
        self._last_own = own or self._last_own
        qualifier = Qualifier(self.qualifier.words | own.words, self.qualifier.aliases, self.qualifier.owner).without(self.company)
        request = FigureRequest(tuple(concepts[:1]), frozenset() if concepts else label_terms(item.phrase), (period,),
                                (period_words(period),), None, False, item.statement,
                                # NOTE: only a qualifier's words name rows (a segment's); the item's own words
                                # rank rows through its concept, as before (an analyst's "cash from operations"
                                # would promote the end-of-period cash "of continuing operations")
                                question_terms=(label_terms(item.phrase) | qualifier.words | qualifier.aliases)
                                if qualifier else frozenset(),
                                qualifier=qualifier)
        ranked = _not_a_part(self.finder.candidates(request, concept), item.phrase, self.siblings)
        # NOTE: a row printed exactly as the formula names the item ("net sales", not "total revenue") comes first
        named = label_terms(item.phrase)
        # NOTE: then a row that prints every word of it ("Less: Purchases of property and equipment, net" for "purchases of
        # property and equipment"), before a row printed as another name of its concept ("Capital Expenditures")
        ranked = sorted(ranked, key=lambda c: (label_terms(c.label.row_label) != named,
                                               len(named) < 2 or not named <= label_terms(c.label.row_label))) \
            if concept is not None else ranked
        choice = self.finder.choose(ranked, period, request, concept)
        proposed = False
        if not choice.found and not choice.rejected and self.propose is not None:
            choice = self._proposed(item, period, request, concept)
            proposed = choice.found
        if not choice.found:
            return None, refused(item.phrase, period_words(period), choice, self.doc_names) if choice.rejected else ""
        cand, cell = choice.candidate, choice.cell
        value = signed(concept, cand, cell) * (1.0 if cell.unit else cell.scale)
        if value < 0 and (_BURN.search(item.phrase) or self.uses_as_amounts and _USED.search(item.phrase)):
            value = -value  # NOTE: "operating cash burn": the amount used, as the formula means it
        return Operand(item.phrase, period, value, cand, cell, proposed), ""

    def _proposed(self, item: Item, period: Period, request: FigureRequest, concept) -> Choice:
        """The row Claude names as the operand, among the rows that print a figure for the period
        (statements first, then notes; each label once), with its cell read from the grid and gated."""
        rows: list[Candidate] = []
        seen: set[str] = set()
        sources = self.finder.sources
        ordered = sorted(((g, d) for d, gs in self.finder.grids.items() for g in gs if g.status == "parsed"),
                         key=lambda x: (not x[0].statement,))
        for grid, _ in ordered:
            chunk = self.finder.chunks.get(grid.chunk_id)
            for label in (c for c in grid.cells if c.col == 0 and chunk is not None):
                values = tuple(c for c in grid.cells if c.row == label.row and c.col and c.value is not None)
                key = label.row_label.lower()
                cand = Candidate(grid, chunk, values, label, (), sources.get(grid.chunk_id, Source("other", "")))
                if values and key not in seen and any(self.finder.matches(period, c, cand) for c in values):
                    seen.add(key)
                    rows.append(cand)
                if len(rows) >= MAX_PROPOSED_ROWS:
                    break
        where = [f"{r.label.row_label} ({STATEMENT_NAMES.get(r.grid.statement, r.grid.title[:50] or 'table')})"
                 for r in rows]
        index, notice = self.propose(item.phrase, period_words(period), where)
        if notice:
            self.notices.append(notice)
        if index is None:
            return Choice()
        choice = self.finder.choose([rows[index]], period, request, concept)
        if choice.found:
            self.notices.append(f"No row named {item.phrase!r} was found; Claude proposed {rows[index].label.row_label!r}. "
                                f"VERA read its cell (cited) and did the arithmetic.")
        return choice


_REMAINDER = label_terms("less net excluding excludes excluding non current noncurrent")
"""Words of a row that prints the whole less a part ("Long-term debt, less debt due within one year")."""


def _not_a_part(ranked: list[Candidate], phrase: str, siblings: Sequence[str]) -> list[Candidate]:
    """Rows for `phrase` without those that print a part another item of the formula names ("total debt = long-term
    debt plus the part due within one year": "Long-term debt due within one year" is the second item's row, not the
    first's; "Long-term debt, less debt due within one year" stays)."""
    own = label_terms(phrase)
    parts = [label_terms(s) - own for s in siblings if s.lower() != phrase.lower() and own < label_terms(s)]
    parts = [p for p in parts if p]
    if not parts or not own:
        return ranked
    return [c for c in ranked if not any(p <= label_terms(c.label.row_label) for p in parts)
            or label_terms(c.label.row_label) & _REMAINDER]


def evaluate(node: Node, period: Period, resolve: Callable[[Item, Period], Operand]) -> tuple[float, list[Operand]]:
    """The value of a formula at `period` and the operands it read, in reading order. Raises
    `MissingOperand` for the first operand not found, `ZeroDivisionError` for a zero divisor."""
    used: list[Operand] = []

    def walk(n: Node) -> float:
        if isinstance(n, Num):
            return n.value
        if isinstance(n, Item):
            operand = resolve(n, n.period or shifted(period, -n.offset if n.offset < 0 else 0))
            used.append(operand)
            return operand.value
        if isinstance(n, (Avg, Chg)):
            at = n.item.period or period
            first = resolve(n.item, at)
            second = resolve(n.item, shifted(at, 1))
            used.extend([first, second])
            return (first.value + second.value) / 2 if isinstance(n, Avg) else first.value - second.value
        left, right = walk(n.left), walk(n.right)
        if n.op == "+":
            return left + right
        if n.op == "-":
            return left - right
        if n.op == "*":
            return left * right
        if right == 0:
            raise ZeroDivisionError(f"a divisor is zero at {period_words(period)}")
        return left / right

    return walk(node), used
