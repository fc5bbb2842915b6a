"""Answer strategies: one module per kind of answer, each with one entry point
`gather(plan, services) -> Evidence` (see `base`). The engine (`vera_core.query`) routes a question,
calls the strategy of its intent, and assembles and verifies the answer.

Adding a kind of answer: a new `IntentType` in `answer.contract`, a router rule that emits it, a
module here with its `gather`, and one line in `STRATEGIES` (or in `SUBTYPE_STRATEGIES` for a subtype
with a strategy of its own, such as the document-coverage questions).
"""

from __future__ import annotations

from vera_core.answer.contract import Intent, IntentType
from vera_core.answer.strategies import (coverage, documents, figure, location, metadata, metric, remarks, semantic,
                                         slides, speakers, verdict)
from vera_core.answer.strategies.base import Evidence, Keywords, Mode, Plan, Services, Stopwatch, Strategy

__all__ = ["STRATEGIES", "SUBTYPE_STRATEGIES", "strategy_for", "Evidence", "Keywords", "Mode", "Plan", "Services", "Stopwatch", "Strategy"]

STRATEGIES: dict[IntentType, Strategy] = {
    "location": location.gather,
    "metadata": metadata.gather,
    "coverage": coverage.gather,
    "figure": figure.gather,
    "metric": metric.gather,
    "semantic": semantic.gather,
    "verdict": verdict.gather,
}
"""The strategy of each intent type."""

SUBTYPE_STRATEGIES: dict[tuple[IntentType, str], Strategy] = {
    ("coverage", "documents"): documents.gather,
    ("coverage", "speakers"): speakers.gather,
    ("semantic", "remarks"): remarks.gather,
    ("semantic", "slides"): slides.gather,
}
"""Kinds of answer that are a subtype of an intent with a strategy of their own."""


def strategy_for(intent: Intent) -> Strategy:
    """The strategy that answers an intent: its subtype's own, else its type's."""
    return SUBTYPE_STRATEGIES.get((intent.type, intent.subtype or ""), STRATEGIES[intent.type])
