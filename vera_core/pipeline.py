"""Combinators for the query path's steps. Only `until` still serves (the expansion hops of
`answer/strategies/search.py`); the engine calls its stages top-down (`vera_core/query.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

S = TypeVar("S")
Step = Callable[[S], S]


def until(step: Step, done: Callable[[S], bool], max_rounds: int) -> Step:
    """Apply `step` while `done(state)` is false, at most `max_rounds` times."""
    def run(state: S) -> S:
        for _ in range(max_rounds):
            if done(state):
                break
            state = step(state)
        return state
    return run
