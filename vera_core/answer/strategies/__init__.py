"""Answer strategies: one module per kind of answer, each with one entry point
`gather(plan, services) -> Evidence` (see `base`). The engine (`vera_core.query`) routes a question,
calls the strategy of its intent, and assembles and verifies the answer.

Adding a kind of answer: a new `IntentType` in `answer.contract`, a router rule that emits it, a
module here with its `gather`, and one line in `STRATEGIES`.
"""

from __future__ import annotations

from vera_core.answer.contract import IntentType
from vera_core.answer.strategies import coverage, figure, location, metadata, metric, semantic
from vera_core.answer.strategies.base import Evidence, Keywords, Mode, Plan, Services, Stopwatch, Strategy

__all__ = ["STRATEGIES", "Evidence", "Keywords", "Mode", "Plan", "Services", "Stopwatch", "Strategy"]

STRATEGIES: dict[IntentType, Strategy] = {
    "location": location.gather,
    "metadata": metadata.gather,
    "coverage": coverage.gather,
    "figure": figure.gather,
    "metric": metric.gather,
    "semantic": semantic.gather,
}
"""The strategy of each intent type."""
