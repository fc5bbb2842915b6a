"""A measure by segment, read from the tables that print it per segment (the segment note, the MD&A's
segment results), for "which segment had the highest operating income?".

Segment tables print a measure per segment in one of these layouts:
- the measure heads a group of rows, one per segment ("Operating income (loss):" over "Data Center
  Group", "Client Computing Group", ...), titles the table, or closes the rows as their total ("U.S.",
  ..., "Total operating income");
- the measure heads a column, one row per segment ("Segment results 2024": Revenue, Adjusted EBITDA);
- each segment heads a group of rows and the measure is one row of each ("Americas" over "Net sales",
  "Operating income").
Totals, corporate, eliminations and other reconciling rows are not segments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from vera_core.answer.figures.cells import Candidate, CellFinder
from vera_core.answer.figures.sources import Source
from vera_core.finance.line_items import label_terms
from vera_core.records import ChunkRecord, GridCell, Period, TableGrid

__all__ = ["SegmentFigure", "segment_figures"]

NOT_SEGMENT = re.compile(r"^\W*(?:totals?|corporate|eliminations?|intersegment|inter-segment|all\s+other|other|"
                         r"unallocated|reconcil\w*|consolidated|subtotal|adjustments?)\b|\bsubtotal\b|"
                         r"^\W*(?:segment|segments)\s+totals?\b", re.I)
"""Rows of a segment table that are not a segment: totals, corporate, eliminations, reconciling items
(a segment may still be named "... Markets & Corporate"). A group with an "Add:" or "Less:" row is no breakdown at all
(`RECONCILING`)."""
RECONCILING = re.compile(r"^\W*(?:add|less|plus|minus|deduct)\b\s*:?", re.I)
"""A row that adds or deducts ("Add: Net equity in losses", "Less: Loss (income) from discontinued operations"): the rows
it is among reconcile one measure to another, they are not the measure by segment."""
PERIOD_NAME = re.compile(r"\b(?:quarter|Q[1-4]|fiscal|months?|weeks?|year)\b|^\W*(?:19|20)\d\d\W*$", re.I)
"""A group named by a period ("First Quarter") is a breakdown by time, not by segment."""
_GENERIC = label_terms("segment segments business reportable by")
MIN_SEGMENTS = 2


@dataclass(frozen=True)
class SegmentFigure:
    """One segment's figure for the measure and period asked."""

    name: str
    candidate: Candidate
    """The row (its label cell is the segment's or the measure's, by layout)."""
    cell: GridCell


def _measure_in(text: str, measure: frozenset[str]) -> bool:
    return bool(measure) and measure <= label_terms(text)


def _groups(grid: TableGrid, measure: frozenset[str], segment_table: bool
            ) -> Iterable[list[tuple[str, GridCell, GridCell]]]:
    """(segment name, label cell, value cell) groups of one table: the measure heading the rows (only
    in a table about segments: elsewhere such a group is any breakdown), or each segment heading its rows."""
    labels = [c for c in grid.cells if c.col == 0]
    values: dict[int, list[GridCell]] = {}
    for c in grid.cells:
        if c.col and c.value is not None:
            values.setdefault(c.row, []).append(c)
    titled = _measure_in(grid.title, measure)
    by_parent: dict[str, list[tuple[str, GridCell, GridCell]]] = {}
    per_segment: list[tuple[str, GridCell, GridCell]] = []
    for label in labels:
        for cell in values.get(label.row, []):
            if (_measure_in(label.parent_label, measure) or titled and not label.parent_label) \
                    and not _measure_in(label.row_label, measure):
                by_parent.setdefault(label.parent_label, []).append((label.row_label, label, cell))
            elif _measure_in(label.row_label, measure) and label.parent_label:
                per_segment.append((label.parent_label, label, cell))
    if segment_table:
        yield from by_parent.values()
        yield from _closed_by_total(labels, values, measure)
        for col, header in enumerate(grid.header):  # the measure heads a column: one row per segment
            if col and _measure_in(header, measure):
                yield [(label.row_label, label, cell) for label in labels for cell in values.get(label.row, [])
                       if cell.col == col]
    yield per_segment


_TOTAL = re.compile(r"^\s*(?:total|consolidated)\s+(?P<measure>.+)$", re.I)


def _closed_by_total(labels: list[GridCell], values: dict[int, list[GridCell]], measure: frozenset[str]
                     ) -> Iterable[list[tuple[str, GridCell, GridCell]]]:
    """Runs of segment rows each closed by its measure's total ("U.S.", "International Operated
    Markets", ..., "Total operating income"): the rows since the previous total are the measure by segment."""
    run: list[GridCell] = []
    for label in labels:
        total = _TOTAL.match(label.row_label)
        if total is None:
            run.append(label)
            continue
        if _measure_in(total.group("measure"), measure):
            yield [(row.row_label, row, cell) for row in run for cell in values.get(row.row, [])]
        run = []


SEGMENT_WORDS = re.compile(r"\bsegments?\b|\breportable\b|\bby\s+(?:geograph\w*|region|business|division)\b|"
                           r"\bgeographic(?:al)?\s+(?:areas?|information|data)\b", re.I)


def _is_statement(grid: TableGrid, finder: CellFinder) -> bool:
    """A primary statement prints consolidated figures only: never segments."""
    return finder.sources.get(grid.chunk_id, Source("other", "")).role == "statement"


def _about_segments(grid: TableGrid, chunk: ChunkRecord) -> bool:
    """A table of segment figures: its title, caption or a heading names segments (or a breakdown by
    region or business)."""
    return any(SEGMENT_WORDS.search(t) for t in (grid.title, chunk.caption, *chunk.heading_titles) if t)


def segment_figures(measure: str, period: Period | None, finder: CellFinder,
                    named: Callable[[str], bool] | None = None) -> list[SegmentFigure]:
    """Each segment's figure for `measure` at `period` (the latest the table prints when None), from the
    table that prints it for the most segments (a segment note first), best first; [] when none does.
    `named`: only segments it accepts count (the ones a question lists)."""
    wanted = label_terms(measure) - _GENERIC
    best: tuple[tuple, list[SegmentFigure]] | None = None
    for doc_order, grids in enumerate(finder.grids.values()):
        for grid in grids:
            chunk = finder.chunks.get(grid.chunk_id)
            if grid.status != "parsed" or chunk is None or _is_statement(grid, finder):
                continue
            for group in _groups(grid, wanted, _about_segments(grid, chunk)):
                if any(RECONCILING.match(name) for name, _, _ in group):
                    continue  # NOTE: AES's reconciliation closed by "Total Adjusted PTC" is not Adjusted PTC by SBU
                figures = _at_period(group, period, finder, grid, chunk)
                figures = [f for f in figures if named(f.name)] if named is not None else figures
                if len({f.name for f in figures}) < MIN_SEGMENTS:
                    continue
                rank = (-len(figures), finder.hit_rank.get(grid.chunk_id, 999), doc_order, chunk.position)
                if best is None or rank < best[0]:
                    best = (rank, figures)
    return best[1] if best else []


def _at_period(group: list[tuple[str, GridCell, GridCell]], period: Period | None, finder: CellFinder,
               grid: TableGrid, chunk: ChunkRecord) -> list[SegmentFigure]:
    source = finder.sources.get(grid.chunk_id, Source("other", ""))
    out: dict[str, SegmentFigure] = {}
    dated = [c.period for _, _, c in group if c.period is not None]
    latest = max(dated, key=lambda p: (p.end or "", p.year or 0)) if period is None and dated else None
    for name, label, cell in group:
        if PERIOD_NAME.search(name) or not name.strip() or cell.unit == "%" or name in out:
            continue
        candidate = Candidate(grid, chunk, (cell,), label, (), source)
        if (period is not None and finder.matches(period, cell, candidate)) or (latest is not None and cell.period == latest):
            out[name] = SegmentFigure(name.strip().rstrip(":"), candidate, cell)
    # NOTE: the total is found by its sum over every other row (eliminations included), then reconciling rows go
    return [f for f in _without_total(list(out.values())) if not NOT_SEGMENT.search(f.name)]


TOTAL_TOLERANCE = 0.005


def _without_total(figures: list[SegmentFigure]) -> list[SegmentFigure]:
    """The figures without a row that is the sum of all the others (a total, whatever its label:
    "Group", "Company", "Total"): an identity, not a name, tells a total from a segment."""
    amounts = [f.cell.value for f in figures]
    whole = sum(amounts)
    for i, amount in enumerate(amounts):
        rest = whole - amount
        if len(figures) > 2 and abs(amount - rest) <= TOTAL_TOLERANCE * max(abs(amount), abs(rest), 1.0):
            return figures[:i] + figures[i + 1:]
    return figures
