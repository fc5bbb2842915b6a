"""Answer strategies (vera_core/answer/strategies/): one per kind of question, each reading an
immutable plan and returning evidence; the engine routes, times each stage and assembles."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import get_args

import pytest

from tests.conftest import SAMPLE_PDF, doc_by_name
from vera_core.answer.contract import IntentType
from vera_core.answer.strategies import STRATEGIES, Services, Stopwatch
from vera_core.answer.strategies.search import search_iteratively
from vera_core.llm.steps import NO_KEY
from vera_core.query import QueryEngine

REPORT = SAMPLE_PDF.name
NO_LLM = "LLM unavailable (stub): answered deterministically."


@pytest.fixture(scope="module")
def engine(sample_store) -> QueryEngine:
    return QueryEngine(sample_store, llm=None)


def services_for(ws, keywords=lambda question: ("", "")) -> Services:
    return Services(ws, keywords, Stopwatch())


def test_every_kind_of_question_has_a_strategy():
    assert set(STRATEGIES) == set(get_args(IntentType))


@pytest.mark.parametrize("question, kind", [
    ("What does page 4 say about the acquisition of Nordlicht?", "location"),
    ("What currency are the statements presented in?", "metadata"),
    ("List all significant events", "coverage"),
    ("What was the revenue of the Motion Control segment in 2024?", "figure"),
    ("What was the gross margin in FY2024?", "metric"),
    ("What drove the growth of revenue in 2024?", "semantic"),
])
def test_each_kind_is_answered_with_every_stage_timed(engine, question, kind):
    answer = engine.answer(question, docs=[REPORT], mode="deterministic")
    assert answer.intent.type == kind and answer.citations
    t = answer.timings_ms
    assert t.route > 0 and t.synthesize > 0 and t.verify > 0
    assert t.retrieve > 0 or kind == "metadata"  # a fact is looked up, not searched for
    assert t.total + 0.05 >= t.route + t.retrieve + t.synthesize + t.verify


def test_a_strategy_leaves_the_plan_as_it_found_it(engine, sample_store):
    """A location question over every document narrows its documents in the evidence, not in the plan."""
    plan = engine.plan("What does page 4 say about the acquisition of Nordlicht?")
    routed = plan.intent.model_copy(deep=True)
    evidence = STRATEGIES["location"](plan, services_for(sample_store))
    assert plan.intent == routed and plan.intent.doc_scope == []
    report = doc_by_name(sample_store, REPORT).doc_id
    assert evidence.doc_scope == (report,)
    assert evidence.pieces and all(p.pages == (4,) for p in evidence.pieces)
    with pytest.raises(FrozenInstanceError):
        evidence.pieces = ()
    assert engine.answer(plan.question).intent.doc_scope == [report]


def test_a_page_no_document_has_is_not_handed_to_the_llm(engine):
    missing = engine.answer("What does page 99 say about revenue?", docs=[REPORT], mode="llm_always")
    assert "Page 99 does not exist" in missing.answer and NO_KEY not in missing.notices
    fact = engine.answer("What currency are the statements presented in?", docs=[REPORT], mode="llm_always")
    assert fact.citations and NO_KEY in fact.notices  # the LLM was wanted, and the notice says it is absent


def test_an_expansion_hop_asks_for_keywords_and_says_why_none_came(engine, sample_store):
    asked = []

    def failing(question: str) -> tuple[str, str]:
        asked.append(question)
        return "", NO_LLM

    plan = engine.plan("What was the zorblax flux capacitance of the frobnicator division?", docs=[REPORT])
    found = search_iteratively(plan, services_for(sample_store, failing))
    assert found.hops >= 2 and found.coverage < 0.8 and asked == [plan.question] * (found.hops - 1)
    assert found.notices == (NO_LLM,)  # said once, however many hops asked
    assert len({h.chunk.chunk_id for h in found.hits}) == len(found.hits)  # a hop never returns a chunk twice
