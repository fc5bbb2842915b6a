"""Grounding: a claim copied from its source is fully supported, a wrong figure or an uncited
claim is not, and the answer's score is in [0, 1], reproducible and honest at its extremes."""

from __future__ import annotations

import hashlib
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vera_core.answer.contract import ClaimCheck
from vera_core.answer.grounding import aggregate, content_tokens, score_claim
from vera_core.answer.numbers import verify_numbers

SOURCE = ("Revenue increased to $1,577 million in 2024, driven by the industrial segment. "
          "Operating margin improved by 1.2 percentage points to 14.3%.")
TABLE = "(in millions)\n| | 2024 | 2023 |\n|---|---|---|\n| **Revenue** | 1,577 | 1,400 |\n| Capex | (310) | (275) |"


def hashed_embed(texts: list[str]) -> list[list[float]]:
    """A deterministic bag-of-words embedder (unit vectors), standing in for MiniLM."""
    vectors = []
    for text in texts:
        v = [0.0] * 64
        for token in content_tokens(text):
            v[int(hashlib.md5(token.encode()).hexdigest(), 16) % 64] += 1.0
        norm = math.sqrt(sum(x * x for x in v)) or 1.0
        vectors.append([x / norm for x in v])
    return vectors


def claim(support: float, supported: bool) -> ClaimCheck:
    return ClaimCheck(text="x", citations=[1], support=support, supported=supported, lexical=support,
                      numbers_ok=True)


def test_content_tokens_normalise_words_and_figures():
    assert content_tokens("**Revenues** | (1,577.00) | increased 3.4% [2]") == ["revenu", "-1577", "increas", "3.4",
                                                                               "percent"]
    assert content_tokens("increase increases increasing") == ["increas"] * 3
    assert content_tokens("the companies were stopped") == ["company", "stop"]


@pytest.mark.parametrize("embed", [None, hashed_embed])
def test_a_sentence_copied_from_its_source_scores_one(embed):
    result = score_claim("Revenue increased to $1,577 million in 2024, driven by the industrial segment [1].",
                         [1], {1: SOURCE}, embed=embed)
    assert (result.support, result.supported, result.lexical, result.numbers_ok) == (1.0, True, 1.0, True)


@pytest.mark.parametrize("embed", [None, hashed_embed])
def test_a_table_row_rendered_as_label_and_values_scores_one(embed):
    result = score_claim("Revenue: 2024 1,577; 2023 1,400", [2], {2: TABLE}, embed=embed)
    assert (result.support, result.supported) == (1.0, True)


def test_a_wrong_figure_caps_support_below_the_supported_threshold():
    result = score_claim("Revenue increased to $1,600 million in 2024 [1].", [1], {1: SOURCE})
    assert result.numbers_ok is False
    assert result.support == 0.4 and not result.supported


def test_an_uncited_claim_or_a_citation_without_source_has_no_support():
    assert score_claim("Revenue increased [1].", [], {1: SOURCE}).support == 0.0
    assert score_claim("Revenue increased [3].", [3], {1: SOURCE}).support == 0.0


def test_partial_overlap_blends_lexical_and_semantic_scores():
    text = "Revenue increased because customers bought more turbines [1]."
    plain = score_claim(text, [1], {1: SOURCE})
    blended = score_claim(text, [1], {1: SOURCE}, embed=hashed_embed)
    assert plain.support == plain.lexical == 0.4  # revenue, increased of 5 (customers, bought, turbines not in source)
    assert plain.semantic is None and 0 < blended.semantic < 1
    assert blended.support == pytest.approx(0.75 * blended.lexical + 0.25 * blended.semantic, abs=1e-4)


def test_answers_embed_only_the_claims_whose_words_do_not_settle_their_support():
    from vera_core.answer.compose import Piece, verify
    from vera_core.records import ChunkRecord
    chunk = ChunkRecord("c1", "d", 0, "text", SOURCE, SOURCE, "d/s", ("s",), "d/s", 1, 1, (), "", "", 40)
    embedded: list[str] = []

    def recording_embed(texts):
        embedded.extend(texts)
        return hashed_embed(texts)
    copied = Piece("Revenue increased to $1,577 million in 2024", chunk, SOURCE[:40])
    result = verify([copied], [1], recording_embed)
    assert result.grounding_score == 1.0 and embedded == []  # extractive: no model call at all
    paraphrase = Piece("Revenue increased because customers bought more turbines", chunk, SOURCE[:40])
    result = verify([copied, paraphrase], [1, 2], recording_embed)
    assert embedded and all("turbines" in t or t.startswith("Revenue increased to") for t in embedded)
    assert result.claims[1].semantic is not None and result.claims[0].semantic is None


def test_only_the_cited_sources_count():
    sources = {1: "Headcount was 9,000.", 2: SOURCE}
    assert score_claim("Revenue increased to $1,577 million [1].", [1], sources).supported is False
    assert score_claim("Revenue increased to $1,577 million [2].", [2], sources).supported is True


def test_aggregate_extremes_and_labels():
    assert aggregate([]) == (0.0, "ungrounded")
    assert aggregate([claim(1.0, True), claim(1.0, True)]) == (1.0, "grounded")
    assert aggregate([claim(1.0, True), claim(1.0, False)]) == (0.99, "grounded")
    assert aggregate([claim(0.7, True)] + [claim(0.0, False)] * 99) == (0.01, "ungrounded")
    assert aggregate([claim(1.0, True), claim(0.4, False)]) == (0.7, "partial")
    assert aggregate([claim(0.9, True), claim(0.8, True)]) == (0.85, "grounded")


# --- properties ---------------------------------------------------------------------------

METRICS = ["Revenue", "Operating income", "Capital expenditure", "Net debt", "Free cash flow", "Dividends"]


@st.composite
def report(draw):
    """A source paragraph of 'M was $X million in YYYY.' sentences with distinct metrics."""
    metrics = draw(st.lists(st.sampled_from(METRICS), min_size=1, max_size=5, unique=True))
    amounts = draw(st.lists(st.integers(100, 99_999), min_size=len(metrics), max_size=len(metrics)))
    years = draw(st.lists(st.integers(2015, 2024), min_size=len(metrics), max_size=len(metrics)))
    return [f"{m} was ${a:,} million in {y}." for m, a, y in zip(metrics, amounts, years)], amounts


def score_answer(sentences: list[str], source: str, embed=None):
    claims = [score_claim(s.rstrip(".") + " [1].", [1], {1: source}, embed=embed) for s in sentences]
    return claims, aggregate(claims)


@settings(max_examples=100, deadline=None)
@given(report(), st.data(), st.sampled_from([None, hashed_embed]))
def test_a_correct_extractive_answer_is_grounded_and_a_changed_figure_lowers_it(doc, data, embed):
    sentences, amounts = doc
    source = " ".join(sentences)
    _, (score, label) = score_answer(sentences, source, embed)
    assert score >= 0.85 and label == "grounded"
    i = data.draw(st.integers(0, len(sentences) - 1))
    factor = data.draw(st.sampled_from([0.5, 0.8, 0.95, 0.98, 1.02, 1.05, 1.2, 2.0]))
    wrong = round(amounts[i] * factor)
    assume(all(abs(wrong - a) > 0.01 * a for a in amounts))  # not another metric's figure
    changed = list(sentences)
    changed[i] = changed[i].replace(f"${amounts[i]:,} ", f"${wrong:,} ")
    _, (worse, _) = score_answer(changed, source, embed)
    assert worse < score
    statuses = [c.status for c in verify_numbers(changed[i], {1: source})]
    assert "mismatch" in statuses


WORDS = ["Revenue", "was", "$1,577", "million", "(310)", "increased", "3.4%", "2024", "margin", "weather",
         "turbines", "[1]", "[2]", "the", "|", "**"]


@st.composite
def answers(draw):
    sources = {1: SOURCE, 2: TABLE, 3: draw(st.text(max_size=60))}
    claims = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.booleans()):
            text = draw(st.sampled_from(["Revenue increased to $1,577 million in 2024.", "Capex: 2024 (310)",
                                         "Operating margin improved by 1.2 percentage points to 14.3%."]))
        else:
            text = " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=10)))
        cites = draw(st.lists(st.integers(1, 4), max_size=2))
        claims.append((text, cites))
    return claims, sources


@settings(max_examples=100, deadline=None)
@given(answers(), st.sampled_from([None, hashed_embed]))
def test_grounding_score_is_bounded_reproducible_and_honest_at_its_extremes(answer, embed):
    claims, sources = answer
    checks = [score_claim(text, cites, sources, embed=embed) for text, cites in claims]
    score, label = aggregate(checks)
    assert 0.0 <= score <= 1.0
    assert all(0.0 <= c.support <= 1.0 for c in checks)
    assert (score, label) == aggregate([score_claim(t, c, sources, embed=embed) for t, c in claims])
    if score == 1.0:
        assert all(c.supported for c in checks)
    if score == 0.0:
        assert not any(c.supported for c in checks)
