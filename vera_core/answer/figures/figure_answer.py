"""Figure answers: the one cell per (line item, period) asked (`cells.CellFinder`), stated in the unit
asked, cited to that cell with its row label highlighted.

A primary line item is read from the statement the question names, else a primary statement; the same
figure elsewhere corroborates but is not repeated. When no cell passes the gates (`gates.py`), no
figure is stated: the answer names the cells found and why none was used. When the item is printed but
not for the period asked, the answer says which periods the statements show: never another period's figure.
"""

from __future__ import annotations

import re
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field, replace

from vera_core.answer.compose import Piece
from vera_core.answer.contract import Figure, FigureCell
from vera_core.answer.figures.cells import Candidate, CellFinder, Choice, Rejected, ancestors, signed
from vera_core.answer.figures.sources import Source
from vera_core.answer.figures.unread import Read, unread, unread_word
from vera_core.answer.numbers import source_scale
from vera_core.finance.line_items import Concept, label_terms
from vera_core.finance.statements import STATEMENT_NAMES
from vera_core.questions.figure import FigureRequest
from vera_core.records import ChunkRecord, GridCell, Period, TableGrid
from vera_core.finance.money import exact, money, unit_words


@dataclass
class FigureEvidence:
    """What the strategy found: pieces to cite, figure records, and what is missing."""

    pieces: list[Piece] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Sentences saying what was asked but is not printed, and what is."""
    refusals: list[Piece] = field(default_factory=list)
    """The cells found for an item no figure is stated for, each cited with why it was not used."""
    item_found: bool = False


def figure_evidence(request: FigureRequest, grids: Mapping[str, Sequence[TableGrid]],
                    chunks: Mapping[str, ChunkRecord], hit_rank: Mapping[str, int], doc_names: Mapping[str, str],
                    question: str = "", company: Container[str] = frozenset()) -> FigureEvidence:
    """Resolve every (item, period) of `request` over the grids of the documents in scope.
    `grids` maps doc_id -> its grids; `chunks` chunk_id -> chunk; `hit_rank` the retrieval rank of
    table chunks (a tie-breaker after the statement order); `question` as asked and `company` (the registrant's
    name words) for the last check (`unread.py`): a word the question puts on the item that the cell lacks."""
    out = FigureEvidence()
    finder = CellFinder(grids, chunks, hit_rank)
    corroborations: list[Piece] = []
    items: list[Concept | None] = list(request.concepts) or [None]
    chosen_labels: list[frozenset[str]] = []
    named = frozenset().union(*(c.words for c in request.concepts))
    for concept in items:
        if concept is not None and any(label_terms(concept.name) <= own for own in chosen_labels):
            continue  # "total revenues net of interest expense": interest expense is part of the item asked
        candidates = finder.candidates(request, concept)
        if not candidates:
            continue
        out.item_found = True
        name = concept.name if concept else candidates[0].label.row_label
        for period, words in zip(request.periods, request.period_texts) if request.periods else [(None, "")]:
            choice = finder.choose(candidates, period, request, concept)
            if not choice.found:
                out.missing.append(_none_passes(name, words, choice, doc_names) if choice.rejected
                                   else _missing(name, words, candidates, doc_names))
                out.refusals.extend(refusal_pieces(choice))
                continue
            cand, cell = choice.candidate, choice.cell
            if any(f.cell.chunk_id == cand.grid.chunk_id and (f.cell.row, f.cell.col) == (cell.row, cell.col)
                   for f in out.figures):
                continue  # NOTE: "Q3 FY23 (3 months to Oct 31, 2022)": one period named twice is one cell, stated once
            why, line = unread(question, [Read(cand.grid, cand.label, cell)], grids, named, company)
            asked = _line_asked(finder, request, line, cand, period) if why and line and concept is None else None
            stated_name = name
            if asked is not None:  # NOTE: "eBay 1Q23 U.S. GMV": the "U.S." row under the heading of the total read
                stated_name = re.sub(r"^\W*total\s+", "", cand.label.row_label.strip(), flags=re.I)  # "Gross ... (U.S.)"
                cand, cell = asked.candidate, asked.cell
                why = unread_word(question, [Read(cand.grid, cand.label, cell)], grids, named, company)
            if why:
                out.missing.append(f"No figure is stated for {name}{' for ' + words if words else ''}: {why}.")
                out.refusals.extend(refusal_pieces(Choice(rejected=(Rejected(cand, cell, why),))))
                continue
            piece, figure = _state(request, concept, stated_name, cand, cell)
            out.pieces.append(piece)
            out.figures.append(figure)
            chosen_labels.append(label_terms(cand.label.row_label))
            corroborations.extend(_corroborations(finder, candidates, cand, cell, period))
    out.pieces.extend(corroborations)  # after every figure: figure i is piece i
    return out


_ITEM_MODIFIERS = label_terms("total net consolidated")


def _line_asked(finder: CellFinder, request: FigureRequest, line: str, read: Candidate,
                period: Period | None) -> Choice | None:
    """The row the last check names as the line asked (`unread`), when it sits under a heading printing the item of the
    row read ("U.S." under "Gross Merchandise Volume (3)", the total "Total Gross Merchandise Volume" read for "U.S.
    GMV"), in the same document: its cell for the period, through the same gates; None when there is none."""
    core = label_terms(read.label.row_label) - _ITEM_MODIFIERS
    found: list[Candidate] = []
    for grid in finder.grids.get(read.chunk.doc_id, ()):
        chunk = finder.chunks.get(grid.chunk_id)
        if chunk is None or grid.status != "parsed":
            continue
        for label in (c for c in grid.cells if c.col == 0 and c.row_label.strip() == line):
            if not core or not core <= label_terms(ancestors(grid, label)):
                continue
            values = tuple(c for c in grid.cells if c.row == label.row and c.col and c.value is not None)
            if values:
                found.append(Candidate(grid, chunk, values, label, (0, chunk.position, label.row),
                                       finder.sources.get(grid.chunk_id, Source("other", grid.statement))))
    choice = finder.choose(found, period, request, None) if found else None
    return choice if choice is not None and choice.found else None


MAX_CORROBORATIONS = 2


def _corroborations(finder: CellFinder, candidates: list[Candidate], chosen: Candidate, cell: GridCell,
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
            same_period = finder.matches(period, other, cand) if period else other.period == cell.period
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


MAX_REFUSED = 3
"""Cells named in an abstention: the best-ranked few."""


def refused(name: str, words: str, choice: Choice, doc_names: Mapping[str, str]) -> str:
    """The abstention: the cells found for the item and period, and why none was used."""
    parts = []
    for r in choice.rejected[:MAX_REFUSED]:
        cand = r.candidate
        where = STATEMENT_NAMES.get(cand.grid.statement) if cand.source.role == "statement" else \
            f'the table "{cand.grid.title[:60]}"' if cand.grid.title else "a table"
        page = f", page {r.cell.box.page}" if r.cell.box else ""
        parts.append(f"{cand.label.row_label} {r.cell.printed} ({where}{page}): {r.why}")
    doc = doc_names.get(choice.rejected[0].candidate.chunk.doc_id, "") if choice.rejected else ""
    return (f"No figure is stated for {name}{' for ' + words if words else ''}"
            f"{' in ' + doc if doc else ''}: " + "; ".join(parts) + ".")


def _none_passes(name: str, words: str, choice: Choice, doc_names: Mapping[str, str]) -> str:
    doc = doc_names.get(choice.rejected[0].candidate.chunk.doc_id, "")
    return (f"No figure is stated for {name}{' for ' + words if words else ''}{' in ' + doc if doc else ''}: "
            f"{len(choice.rejected[:MAX_REFUSED])} cell{'s' * (len(choice.rejected[:MAX_REFUSED]) != 1)} found, "
            f"and none passes the checks a stated figure must pass (each is cited below with why).")


def refusal_pieces(choice: Choice) -> list[Piece]:
    """The cells an abstention names, each cited so the reader sees what was found and not used."""
    out = []
    for r in choice.rejected[:MAX_REFUSED]:
        cand, cell = r.candidate, r.cell
        regions = tuple(b for b in (cand.label.box, cell.box) if b is not None)
        out.append(Piece(f"Found, not used: {cand.label.row_label}, {cell.header}: {cell.printed} ({r.why}).", cand.chunk,
                         f"{cand.label.row_label} | {cell.header}: {cell.printed}",
                         checked=f"{cand.label.row_label} {cell.header} {cell.printed}", regions=regions,
                         pages=(cell.box.page,) if cell.box else ()))
    return out


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
        return f"{amount:,.2f}".rstrip("0").rstrip(".") + "%"  # NOTE: "18.2%" as printed, never "18.20%"
    shown = amount / scale
    digits = min(2, max(0, -exact(abs(shown)).normalize().as_tuple().exponent))  # 980.5 stays 980.5; 8.738 reads 8.74
    return money(shown, currency, scale, digits)


_RESULT_STEMS = ("incom", "earn", "profit")
"""Stems of a result that is income or loss: a question naming one asks the signed result ("operating income (loss)")."""


def asks_loss(request: FigureRequest, concept: Concept | None, row_label: str) -> bool:
    """Whether the question asks a loss as such ("how big was the operating loss") of a result line that prints
    losses negative ("Operating (Loss)", "Net income (loss)"): the loss is stated as its size. A question naming
    the income too ("operating income (loss)") asks the signed figure; a loss line of a cost ("Losses incurred")
    is no result."""
    return (concept is not None and any(s in concept.name for s in _RESULT_STEMS) and names_loss(request.question_terms)
            and "loss" in label_terms(row_label))


def names_loss(terms: frozenset[str]) -> bool:
    """Whether words name a loss as such ("the operating loss", "Reality Labs operating loss"), not a result that may
    be one ("operating income (loss)"): its printed negative figures are its size."""
    return "loss" in terms and not any(t.startswith(_RESULT_STEMS) for t in terms)


def _state(request: FigureRequest, concept: Concept | None, name: str, cand: Candidate,
           cell: GridCell) -> tuple[Piece, Figure]:
    """One plain sentence for one figure, and its record."""
    if concept is not None and concept.shares:
        # NOTE: a count of shares printed in an EPS table "(In millions, except per share amounts)": no currency, no
        # amount per share, the table's scale ("Diluted" 2,600 is 2.6 billion shares), unless the row or its heading
        # states the count's own ("Shares used in calculation (000's)" under "dollars in millions": 444,360 thousand)
        own = source_scale(cand.label.row_label) or source_scale(cand.label.parent_label)
        cell = replace(cell, unit="", currency="", scale=own or cand.grid.scale or cell.scale)
    percent = cell.unit == "%"
    outflow = bool(concept and concept.outflow and cell.value < 0 and cand.grid.statement == "cash_flow")
    value = signed(concept, cand, cell)  # a cost or an outflow as the amount; the printed sign stays beside it
    # NOTE: a table that states no unit (and none is inherited) is not converted to the unit asked: "$1,302"
    # of a release's statement is not 0.00 million
    unknown = not cand.grid.scale_source and cell.scale == 1.0 and request.scale not in (None, 1.0)
    scale = 1.0 if percent or cell.unit == "per_share" else (cell.scale if unknown else request.scale or cell.scale)
    amount = value * (1.0 if percent or cell.unit == "per_share" else cell.scale)
    loss = not percent and amount < 0 and asks_loss(request, concept, cand.label.row_label)
    amount = -amount if loss else amount  # NOTE: "how big was the operating loss": a loss of 4,210, not -4,210
    # NOTE: the record names the loss it holds ("operating loss" 4,210, never "operating income" 4,210)
    name = re.sub(r"\b(?:income|earnings|profit)\b", "loss", name, flags=re.I) if loss else name
    stated = ("a loss of " if loss else "") + _money(amount, cell.currency, scale, percent)
    if unknown and not percent and cell.unit != "per_share":
        stated += " as printed (its table states no unit, so it is not converted to the unit asked)"
    printed_unit = ("" if "%" in cell.printed else "%") if percent else unit_words(cell.currency, cell.scale)
    # NOTE: a table is named for a statement only when it is one (a summary table of income-statement
    # data is named by its title)
    where = (STATEMENT_NAMES.get(cand.source.statement) if cand.source.role == "statement" else None) \
        or cand.grid.title[:80] or "table"
    period_text = cell.period.label if cell.period else cell.header
    label = cand.label.row_label
    item = label if label.lower() == name.lower() else f"{name} ({label})"
    heading = cand.label.parent_label.strip().rstrip(":")
    if request.qualifier and heading and not request.qualifier.named_by(label_terms(label)) \
            and request.qualifier.named_by(label_terms(heading)):
        item = f"{item}, {heading}"  # NOTE: the segment's heading the row sits under ("Operating income, Greater China")
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
