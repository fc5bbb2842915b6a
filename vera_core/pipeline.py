"""Small combinators that compose the query path from typed steps.

A step is a function from a state to a state. `sequence` composes steps left to right (associative,
with `identity` as its neutral element), `branch` chooses by a predicate, `until` repeats a step
until a condition holds (bounded), and `verify` runs a check after a step, so a verification can be
inserted at any point of a composed pipeline without changing the steps around it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

S = TypeVar("S")
Step = Callable[[S], S]


def identity(state: S) -> S:
    """The step that changes nothing: `sequence(identity, f) == f == sequence(f, identity)`."""
    return state


def sequence(*steps: Step) -> Step:
    """Apply `steps` left to right."""
    def run(state: S) -> S:
        for step in steps:
            state = step(state)
        return state
    return run


def branch(predicate: Callable[[S], bool], if_true: Step, if_false: Step = identity) -> Step:
    """`if_true` when `predicate(state)`, else `if_false`."""
    def run(state: S) -> S:
        return if_true(state) if predicate(state) else if_false(state)
    return run


def until(step: Step, done: Callable[[S], bool], max_rounds: int) -> Step:
    """Apply `step` while `done(state)` is false, at most `max_rounds` times."""
    def run(state: S) -> S:
        for _ in range(max_rounds):
            if done(state):
                break
            state = step(state)
        return state
    return run


def verify(step: Step, check: Step) -> Step:
    """Run `check` on the state `step` produced (a check annotates the state or raises)."""
    return sequence(step, check)


def timed(record: Callable[[S, float], None], step: Step) -> Step:
    """Run `step` and report its wall time in milliseconds to `record(state, ms)`."""
    def run(state: S) -> S:
        started = time.perf_counter()
        state = step(state)
        record(state, (time.perf_counter() - started) * 1000)
        return state
    return run
