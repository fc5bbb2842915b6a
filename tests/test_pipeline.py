"""The query path's combinator (hypothesis)."""

from hypothesis import given
from hypothesis import strategies as st

from vera_core.pipeline import until


@given(st.integers(0, 50), st.integers(0, 10))
def test_until_is_bounded_and_stops_when_done(start, rounds):
    result = until(lambda s: s + 1, lambda s: s >= 10, rounds)(start)
    assert result == (start if start >= 10 else min(10, start + rounds))


@given(st.integers(0, 50), st.integers(0, 10))
def test_until_checks_before_each_round(start, rounds):
    """A state that is already done is returned untouched, and the step never runs on it."""
    calls = []

    def step(s):
        calls.append(s)
        return s + 1
    until(step, lambda s: s >= 10, rounds)(start)
    assert all(s < 10 for s in calls) and len(calls) == max(0, min(rounds, 10 - start))
