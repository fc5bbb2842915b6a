"""Algebra of the query-pipeline combinators (hypothesis)."""

from hypothesis import given
from hypothesis import strategies as st

from vera_core.pipeline import branch, identity, sequence, until, verify

STEPS = st.sampled_from([lambda x: x + 1, lambda x: x * 2, lambda x: x - 3, lambda x: -x, lambda x: x // 2])
STATES = st.integers(-1000, 1000)


@given(STEPS, STEPS, STEPS, STATES)
def test_sequence_is_associative(a, b, c, x):
    assert sequence(a, sequence(b, c))(x) == sequence(sequence(a, b), c)(x) == sequence(a, b, c)(x)


@given(STEPS, STATES)
def test_identity_is_neutral(a, x):
    assert sequence(identity, a)(x) == a(x) == sequence(a, identity)(x)
    assert sequence()(x) == x


@given(STEPS, STEPS, STATES)
def test_branch_picks_by_predicate(a, b, x):
    assert branch(lambda s: s > 0, a, b)(x) == (a(x) if x > 0 else b(x))


@given(st.integers(0, 50), st.integers(0, 10))
def test_until_is_bounded_and_stops_when_done(start, rounds):
    result = until(lambda s: s + 1, lambda s: s >= 10, rounds)(start)
    assert result == (start if start >= 10 else min(10, start + rounds))


@given(STEPS, STATES)
def test_verify_can_be_inserted_anywhere(a, x):
    seen = []
    def check(s):
        seen.append(s)
        return s
    assert sequence(verify(a, check), identity)(x) == a(x) == verify(sequence(identity, a), check)(x)
    assert seen == [a(x), a(x)]
