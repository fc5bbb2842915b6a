"""The figure strategy: a figure question -> the one cell per (line item, period) asked, stated in
the unit asked, cited to that cell with its row label highlighted.

Where several tables print the item, the statement the question names comes first, then the primary
statements, then notes; the same figure elsewhere corroborates but is not repeated. When the item is
printed but not for the period asked, the answer says so and which periods the statements show:
never another period's figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from vera_core.answer.compose import Piece
from vera_core.answer.contract import Figure, FigureCell
from vera_core.questions.figure import FigureRequest, period_matches
from vera_core.finance.line_items import Concept, label_score, label_terms
from vera_core.records import GridCell, Period, TableGrid
from vera_core.store.catalog import ChunkRecord
from vera_core.finance.statements import STATEMENT_NAMES
from vera_core.tables.values import exact, money, unit_words

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


@dataclass
class FigureEvidence:
    """What the strategy found: pieces to cite, figure records, and what is missing."""

    pieces: list[Piece] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Sentences saying what was asked but is not printed, and what is."""
    item_found: bool = False


def figure_evidence(request: FigureRequest, grids: Mapping[str, Sequence[TableGrid]],
                    chunks: Mapping[str, ChunkRecord], hit_rank: Mapping[str, int], doc_names: Mapping[str, str]
                    ) -> FigureEvidence:
    """Resolve every (item, period) of `request` over the grids of the documents in scope.
    `grids` maps doc_id -> its grids; `chunks` chunk_id -> chunk; `hit_rank` the retrieval rank of
    table chunks (a tie-breaker after the statement order)."""
    out = FigureEvidence()
    corroborations: list[Piece] = []
    items: list[Concept | None] = list(request.concepts) or [None]
    chosen_labels: list[frozenset[str]] = []
    for concept in items:
        if concept is not None and any(label_terms(concept.name) <= own for own in chosen_labels):
            continue  # "total revenues net of interest expense": interest expense is part of the item asked
        candidates = candidates_for(request, concept, grids, chunks, hit_rank)
        if not candidates:
            continue
        out.item_found = True
        name = concept.name if concept else candidates[0].label.row_label
        for period, words in zip(request.periods, request.period_texts) if request.periods else [(None, "")]:
            chosen = choose(candidates, period)
            if chosen is None:
                out.missing.append(_missing(name, words, candidates, doc_names))
                continue
            cand, cell = chosen
            piece, figure = _state(request, concept, name, cand, cell)
            out.pieces.append(piece)
            out.figures.append(figure)
            chosen_labels.append(label_terms(cand.label.row_label))
            corroborations.extend(_corroborations(candidates, cand, cell, period))
    out.pieces.extend(corroborations)  # after every figure: figure i is piece i
    return out


MAX_CORROBORATIONS = 2


def _corroborations(candidates: list[Candidate], chosen: Candidate, cell: GridCell,
                    period: Period | None) -> list[Piece]:
    """The same figure for the same period in other tables (a note beside the statement), cited
    after the answer; never a different figure."""
    amount = cell.value * cell.scale
    out: list[Piece] = []
    seen = {chosen.chunk.chunk_id}
    for cand in candidates:
        if cand.chunk.chunk_id in seen or len(out) >= MAX_CORROBORATIONS:
            continue
        for other in cand.cells:
            same_period = period_matches(period, other.period) if period else other.period == cell.period
            if same_period and other.unit == cell.unit and abs(other.value * other.scale - amount) <= 1e-9 * max(1.0, abs(amount)):
                title = cand.grid.title[:80]
                where = STATEMENT_NAMES.get(cand.grid.statement) or (f'the table "{title}"' if title else "a table")
                page = f" on page {other.box.page}" if other.box else ""
                regions = tuple(r for r in (cand.label.box, other.box) if r is not None)
                out.append(Piece(f"The same figure is printed in {where}{page} ({cand.label.row_label}: {other.printed}).",
                                 cand.chunk, f"{cand.label.row_label} | {other.header}: {other.printed}",
                                 checked=f"{cand.label.row_label} {other.header} {other.printed}", regions=regions,
                                 pages=(other.box.page,) if other.box else ()))
                seen.add(cand.chunk.chunk_id)
                break
    return out


def _parsed(grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord]):
    """(document order, grid, its chunk) of every parsed grid in scope whose chunk is known."""
    for doc_order, doc_grids in enumerate(grids.values()):
        for grid in doc_grids:
            chunk = chunks.get(grid.chunk_id)
            if grid.status == "parsed" and chunk is not None:
                yield doc_order, grid, chunk


def candidates_for(request: FigureRequest, concept: Concept | None, grids: Mapping[str, Sequence[TableGrid]],
                chunks: Mapping[str, ChunkRecord], hit_rank: Mapping[str, int]) -> list[Candidate]:
    phrases = [label_terms(p) for p in concept.printed] if concept else [request.item_terms]
    found: list[Candidate] = []
    for doc_order, grid, chunk in _parsed(grids, chunks):
        rows: dict[int, list[GridCell]] = {}
        for cell in grid.cells:
            rows.setdefault(cell.row, []).append(cell)
        for row, cells in rows.items():
            label = next((c for c in cells if c.col == 0), None)
            values = tuple(c for c in cells if c.col and c.value is not None)
            if label is None or not values:
                continue
            fit = _fit(label, phrases, concept is None)
            if fit is None and _quoted(label, request.question_terms) and _prints_item(rows, phrases, concept is None):
                fit = (0, 1.0)  # the question quotes this row ("attributable to owners of the parent")
            if fit is None:
                continue
            statement_rank = (0 if grid.statement == request.statement else 1 if grid.statement else 2) \
                if request.statement else (0 if grid.statement else 1)
            if concept is not None and concept.per_share and not any(c.unit == "per_share" for c in values):
                continue  # "diluted" shares outstanding are not diluted earnings per share
            rank = (statement_rank, *_label_rank(label, request.question_terms), fit[1] < 0.999, fit[0], -fit[1],
                    hit_rank.get(grid.chunk_id, 999), doc_order, chunk.position, row)
            found.append(Candidate(grid, chunk, values, label, rank))
    qualified = _qualified(request, concept, phrases, grids, chunks) if concept else []
    found.sort(key=lambda c: c.rank)
    return qualified or found


def _qualified(request: FigureRequest, concept: Concept, phrases: list[frozenset[str]],
               grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord]) -> list[Candidate]:
    """Rows the question names by label ("the Motion Control segment") in tables of the item (its
    caption or a column header prints it): the item for that row, not the total. Only the columns
    headed by the item are read when a column names it."""
    concept_terms = frozenset().union(*phrases)
    found: list[Candidate] = []
    for doc_order, grid, chunk in _parsed(grids, chunks):
        item_columns = {j for j, h in enumerate(grid.header) if j and any(p and p <= label_terms(h) for p in phrases)}
        if not item_columns and not any(p and p <= label_terms(grid.title) for p in phrases):
            continue
        for label in (c for c in grid.cells if c.col == 0):
            own = label_terms(label.row_label)
            if not own or own & concept_terms or not own <= request.question_terms:
                continue
            values = tuple(c for c in grid.cells if c.row == label.row and c.col and c.value is not None
                           and (not item_columns or c.col in item_columns))
            if values:
                found.append(Candidate(grid, chunk, values, label, (-1, 0, -len(own), doc_order, chunk.position)))
    return sorted(found, key=lambda c: c.rank)


QUOTED_MIN_WORDS = 3
"""A row the question quotes (every word of its label in the question) counts as the item when it
sits in a table that prints the item and has at least this many words (not "Total", not "Net")."""


def _quoted(label: GridCell, question_terms: frozenset[str]) -> bool:
    own = label_terms(label.row_label)
    return len(own) >= QUOTED_MIN_WORDS and own <= question_terms


def _prints_item(rows: dict[int, list[GridCell]], phrases: list[frozenset[str]], free: bool) -> bool:
    return any(_fit(c, phrases, free) is not None for cells in rows.values() for c in cells if c.col == 0)


def _label_rank(label: GridCell, question_terms: frozenset[str]) -> tuple[int, int]:
    """How a row label reads against the question: an "Other ..." row the question does not ask
    for comes last; then the more of its words the question uses the better ("Net income
    attributable to PepsiCo" over "Net income" when the question says "attributable to PepsiCo").
    Between rows that tie, a label that is exactly one of the item's names beats a longer one."""
    own = label_terms(label.row_label)
    other = label.row_label.strip().lower().startswith("other") and "other" not in question_terms
    return int(other), -len(own & question_terms)


def _fit(label: GridCell, phrases: list[frozenset[str]], free: bool) -> tuple[int, float] | None:
    """(phrase index, label score) of the first phrase the row prints, or None."""
    for index, phrase in enumerate(phrases):
        if free:
            shared = phrase & _terms(label)
            own = label_score(label.row_label, shared, label.parent_label)
            share = len(shared) / max(len(phrase), 1)
            if share >= 0.6 and own >= MIN_FREE_SCORE:
                return index, own * share
            continue
        score = label_score(label.row_label, phrase, label.parent_label)
        if score > 0:
            return index, score
    return None


def _terms(label: GridCell) -> frozenset[str]:
    return label_terms(f"{label.row_label} {label.parent_label}")


def choose(candidates: list[Candidate], period: Period | None) -> tuple[Candidate, GridCell] | None:
    """The best-ranked row that prints the period asked (its latest period when none is asked)."""
    for cand in candidates:
        if period is None:
            dated = [c for c in cand.cells if c.period is not None]
            if dated:
                return cand, max(dated, key=lambda c: (c.period.end or "", c.period.year or 0))
            continue
        for cell in cand.cells:
            if period_matches(period, cell.period):
                return cand, cell
    return None


def _missing(name: str, words: str, candidates: list[Candidate], doc_names: Mapping[str, str]) -> str:
    best = candidates[0]
    shown = sorted({c.period.label for c in best.cells if c.period}, reverse=True)
    where = STATEMENT_NAMES.get(best.grid.statement, f"table '{best.grid.title[:60]}'")
    doc = doc_names.get(best.chunk.doc_id, best.chunk.doc_id)
    there = f"; it shows {', '.join(shown)}" if shown else ""
    return (f"{words} is not in {doc}'s {where} for {name} (page {best.chunk.page_start}){there}. "
            f"No figure of another period is given in its place.")


def _money(amount: float, currency: str, scale: float, percent: bool) -> str:
    if percent:
        return f"{amount:,.2f}%".replace(".00%", "%")
    shown = amount / scale
    digits = min(2, max(0, -exact(abs(shown)).normalize().as_tuple().exponent))  # 980.5 stays 980.5; 8.738 reads 8.74
    return money(shown, currency, scale, digits)


def _state(request: FigureRequest, concept: Concept | None, name: str, cand: Candidate,
           cell: GridCell) -> tuple[Piece, Figure]:
    """One plain sentence for one figure, and its record."""
    percent = cell.unit == "%"
    value = cell.value
    outflow = bool(concept and concept.outflow and value < 0 and cand.grid.statement == "cash_flow")
    if outflow or (concept and concept.expense and value < 0):
        value = -value  # a cost or an outflow is stated as the amount; the printed sign stays beside it
    scale = 1.0 if percent or cell.unit == "per_share" else (request.scale or cell.scale)
    amount = value * (1.0 if percent or cell.unit == "per_share" else cell.scale)
    stated = _money(amount, cell.currency, scale, percent)
    printed_unit = "%" if percent else unit_words(cell.currency, cell.scale)
    where = STATEMENT_NAMES.get(cand.grid.statement, cand.grid.title[:80] or "table")
    period_text = cell.period.label if cell.period else cell.header
    label = cand.label.row_label
    item = label if label.lower() == name.lower() else f"{name} ({label})"
    note = "; a cash outflow" if outflow else ""
    text = (f"{item[:1].upper()}{item[1:]}, {period_text}: {stated} "
            f"(printed {cell.printed}{' in ' + printed_unit if printed_unit else ''}; {where}{note}).")
    quote = f"{label} | {cell.header}: {cell.printed}"
    regions = tuple(r for r in (cand.label.box, cell.box) if r is not None)
    piece = Piece(text, cand.chunk, quote, checked=f"{label} {cell.header} {cell.printed}", regions=regions, pages=(cell.box.page,) if cell.box else ())
    figure = Figure(line_item=name, row_label=label, period=period_text,
                    period_end=cell.period.end if cell.period else "",
                    value=round(amount / scale, 6), unit="%" if percent else cell.currency,
                    scale=scale, printed=cell.printed, printed_scale=cell.scale, statement=cand.grid.statement,
                    table_title=cand.grid.title,
                    cell=FigureCell(chunk_id=cand.chunk.chunk_id, row=cell.row, col=cell.col,
                                    page=cell.box.page if cell.box else None,
                                    bbox=[round(v, 2) for v in (cell.box.x0, cell.box.y0, cell.box.x1, cell.box.y1)]
                                    if cell.box else None))
    return piece, figure
