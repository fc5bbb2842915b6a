"""Per-question options (the app's settings sidebar) applied to one shared workspace: coverage mode,
hybrid retrieval, the semantic verifier, the document-facts cache, top-k, document scope and the IR library's
filters (quarter, type, speaker)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vera_core.answer.contract import Answer
from vera_core.answer.modes import MODES
from vera_core.config import VeraSettings
from vera_core.documents.filters import LibraryFilters
from vera_core.llm.client import api_key

if TYPE_CHECKING:
    from vera_core.query import QueryEngine
    from vera_core.workspace import Workspace

VERIFIER_OFF_NOTICE = ("Semantic verifier off: grounding is word overlap and figure checks only "
                       "(no embedding of claims).")


@dataclass(frozen=True)
class QuestionOptions:
    """How the next question is answered."""

    mode: str = "llm_fallback"
    """Coverage mode: one of `vera_core.answer.modes.MODES`."""
    hybrid: bool = True
    """Fuse BM25 and dense retrieval; False: dense only."""
    verifier: bool = True
    """Semantic grounding check of every claim (embeds the claims); False: lexical and figures only."""
    facts_enabled: bool = True
    """Answer metadata questions from the stored document facts first."""
    top_k: int = 8
    """Chunks retrieved per search."""
    docs: tuple[str, ...] = field(default_factory=tuple)
    """doc_ids the question is limited to; empty: every document."""
    filters: LibraryFilters | None = None
    """Quarter, fiscal year, type and speaker filters (the sidebar's chips); None: none."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {self.mode!r}")


class _SettingsView:
    """The shared workspace seen with other settings: same stores, caches and embedding model."""

    def __init__(self, ws: Workspace, settings: VeraSettings) -> None:
        self._ws = ws
        self.settings = settings

    def __getattr__(self, name: str):
        return getattr(self._ws, name)


class QuestionAnswerer:
    """Answers questions over one workspace with per-question options. Thread-safe: engines are
    built once per (facts, verifier) combination and shared.

    NOTE: the answering machinery (retrieval, llama-index, Chroma) is imported when the first engine is
    built, not with this module: the app's first page draws without it (importing it took 2-4 s)."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._engines: dict[tuple[bool, bool], QueryEngine] = {}
        self._lock = threading.Lock()

    def engine(self, *, facts_enabled: bool = True, verifier: bool = True) -> QueryEngine:
        key = (facts_enabled, verifier)
        with self._lock:
            if key not in self._engines:
                from vera_core.query import LexicalVerifierEngine, QueryEngine
                ws = self.ws
                if facts_enabled != ws.settings.facts_enabled:
                    ws = _SettingsView(ws, ws.settings.model_copy(update={"facts_enabled": facts_enabled}))
                self._engines[key] = (QueryEngine if verifier else LexicalVerifierEngine)(ws)
            return self._engines[key]

    def warm_up(self, *, documents: bool = False) -> None:
        """Load the embedding model (and with `documents`, every document's keyword index, chunks and
        grids) before the first question."""
        self.engine().warm_up(documents=documents)

    def answer(self, question: str, options: QuestionOptions = QuestionOptions()) -> Answer:
        """A cited, verified answer; raises DocumentNotFoundError for an unknown doc in `options.docs`."""
        engine = self.engine(facts_enabled=options.facts_enabled, verifier=options.verifier)
        answer = engine.answer(question, docs=list(options.docs), mode=options.mode, top_k=options.top_k,
                               hybrid=options.hybrid, filters=options.filters or None)
        if not options.verifier:
            answer.notices.append(VERIFIER_OFF_NOTICE)
        return answer


def llm_configured() -> bool:
    """Whether the Claude layer can run: an Anthropic API key in the environment or in
    `.streamlit/secrets.toml`. Without one the LLM modes answer deterministically and say so."""
    return api_key() is not None


__all__ = ["QuestionAnswerer", "QuestionOptions", "VERIFIER_OFF_NOTICE", "llm_configured"]
