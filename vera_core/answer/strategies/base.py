"""The interface every answer strategy shares: the plan it answers (immutable, in), the services it
may use, and the evidence it returns (immutable, out). A strategy is a function
`gather(plan, services) -> Evidence`; the engine routes, calls one, and assembles the answer."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from vera_core.answer.compose import Piece
from vera_core.answer.contract import AnswerWarning, Calculation, DocumentMatch, Figure, Intent, Verdict
from vera_core.answer.modes import Mode
from vera_core.answer.figures.resolve import RowPicker
from vera_core.records import ChunkRecord
from vera_core.retrieve.hybrid import Hit
from vera_core.workspace import Workspace

__all__ = ["Evidence", "Keywords", "Mode", "Plan", "Services", "Stopwatch", "Strategy"]


Keywords = Callable[[str], tuple[str, str]]
"""question -> (extra search keywords, notice): the LLM's keywords for an expansion hop; ('', '')
without an LLM or in deterministic mode, ('', why) when the LLM failed."""


@dataclass(frozen=True)
class Plan:
    """One question as routed, with the asker's options: what a strategy answers."""

    question: str
    """The question as asked, stripped."""
    intent: Intent
    """The router's reading: kind, subtype, pages named, documents in scope, focus. Not to be mutated."""
    query: str
    """What to search for: the focus (else the question) with finance abbreviations spelled out."""
    mode: Mode = "llm_fallback"
    top_k: int = 8
    """Chunks retrieved per search."""
    hybrid: bool = True
    """Fuse BM25 and dense retrieval; False: dense only."""
    request: object = None
    """The question as the router read it for its strategy (a `FigureRequest`, `MetricPlan`, `StatedAsk` or
    `VerdictRequest`), so no strategy parses the question again; None for the other kinds."""


@dataclass(frozen=True)
class Evidence:
    """What a strategy found for a plan: the claims to cite and what was read to find them."""

    pieces: tuple[Piece, ...] = ()
    """The answer's claims, in answer order, each with the chunk and passage it cites."""
    is_list: bool = False
    """The pieces are the items of a list (a coverage question), shown as bullets after `lead`."""
    lead: str = ""
    """The line that introduces a list answer ('4 items in Risks > Market:')."""
    figures: tuple[Figure, ...] = ()
    """Figure answers: one record per piece, in the same order."""
    calculation: Calculation | None = None
    """Metric answers: the calculation; its operands are the pieces, in the same order."""
    missing: tuple[str, ...] = ()
    """Sentences saying what was asked but is not printed (figure answers), appended to the answer."""
    empty_message: str = ""
    """Why there is no answer, shown as the answer when `pieces` is empty ('' when none was given)."""
    unanswerable: bool = False
    """The scope itself rules an answer out (a page the documents lack, no matching section):
    `empty_message` says why, and no LLM is asked."""
    hits: tuple[Hit, ...] = ()
    """Retrieved chunks, best first (every hop's)."""
    scope: tuple[ChunkRecord, ...] = ()
    """Chunks read as a whole: a location's pages, a coverage section, a metadata fact's pages."""
    sections: tuple[str, ...] = ()
    """Sections read, as heading paths or page windows."""
    hops: int = 0
    """Retrieval rounds (1 for a scoped read)."""
    coverage: float = 0.0
    """Share of the question's key terms found in what was read, in [0, 1]."""
    doc_scope: tuple[str, ...] | None = None
    """The documents the answer was narrowed to, when the strategy narrowed the router's scope."""
    notices: tuple[str, ...] = ()
    """Notes for the reader about how the answer was made."""
    warnings: tuple[AnswerWarning, ...] = ()
    """Verification warnings raised before verification (the LLM step's dropped claims)."""
    written_by_llm: bool = False
    """The pieces are the LLM's claims, not the strategy's."""
    documents: tuple[DocumentMatch, ...] = ()
    """Document-coverage answers: every document in scope, the matched ones first in piece order."""
    verdict: Verdict | None = None
    """Verdict answers: the verdict computed from the pieces' figures, or why it was withheld."""


class Stopwatch:
    """Wall time per stage of one question in milliseconds; a stage timed twice adds up."""

    def __init__(self) -> None:
        self._ms: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time a stage, traced as the span `vera.query.<name>` (`vera.phase`)."""
        from vera_core.telemetry import span
        started = time.perf_counter()
        try:
            with span(f"vera.query.{name}", {"vera.operation": "query", "vera.phase": name}):
                yield
        finally:
            self._ms[name] = self._ms.get(name, 0.0) + (time.perf_counter() - started) * 1000

    def timings(self) -> dict[str, float]:
        """Milliseconds per stage, rounded to 0.01."""
        return {name: round(ms, 2) for name, ms in self._ms.items()}


@dataclass(frozen=True)
class Services:
    """What strategies share: the workspace (catalog, chunks, grids, settings), the LLM's search
    keywords, and the question's stopwatch (strategies time their `retrieve` and `synthesize` stages)."""

    ws: Workspace
    keywords: Keywords
    clock: Stopwatch
    pick_row: RowPicker | None = None
    """LLM modes: Claude's choice of the row that is an operand no row was found for (metric answers)."""

    def doc_ids(self, plan: Plan) -> list[str]:
        """The documents the router scoped the question to, else every document."""
        return plan.intent.doc_scope or [d.doc_id for d in self.ws.catalog.documents()]

    def doc_names(self) -> dict[str, str]:
        return {d.doc_id: d.name for d in self.ws.catalog.documents()}


class Strategy(Protocol):
    """One kind of answer: the evidence for a plan. Never raises for a question it cannot answer;
    says why in `Evidence.empty_message` instead."""

    def __call__(self, plan: Plan, services: Services) -> Evidence: ...
