"""How `vera eval` judges a remark: each call asked answered on a page of one of its gold turns, a page being one the
citation shows (its own, or one its highlight runs onto); a question to decline is right only uncited."""

from __future__ import annotations

from vera_core.answer.contract import Answer, Citation, Polygon
from vera_core.cli.eval_calls import judge_call

BUYBACKS = {"id": "t-1", "kind": "remark", "doc_name": "DB_2023Q4_CALL", "expect": "answer", "turns": [
    {"speaker": "Christian Sewing", "page_index": 7, "doc_name": "DB_2023Q1_CALL"},
    {"speaker": "Christian Sewing", "page_index": 2, "doc_name": "DB_2023Q4_CALL"}]}


def _cited(doc_name: str, page: int, *highlight_pages: int) -> Citation:
    return Citation(n=1, doc_id="d", doc_name=doc_name, format="pdf", page=page, heading_path="", chunk_id="c",
                    kind="text", quote="", score=1.0,
                    polygons=[Polygon(page=p, x0=0, y0=0, x1=1, y1=1) for p in highlight_pages or (page,)])


def _judged(question: dict, *citations: Citation) -> str:
    return judge_call(question, Answer.model_construct(answer="", citations=list(citations)))


def test_a_remark_whose_sentence_runs_overleaf_is_on_the_page_its_highlight_covers():
    q1 = _cited("DB_2023Q1_CALL.pdf", 8)
    assert _judged(BUYBACKS, q1, _cited("DB_2023Q4_CALL.pdf", 2, 2, 3)) == "correct"
    assert _judged(BUYBACKS, q1, _cited("DB_2023Q4_CALL.pdf", 2)) == "wrong"


def test_every_call_asked_needs_its_turn_and_an_uncited_answer_abstains():
    assert _judged(BUYBACKS, _cited("DB_2023Q4_CALL.pdf", 3)) == "wrong"
    assert _judged(BUYBACKS) == "abstained"
    assert _judged({**BUYBACKS, "expect": "abstain"}) == "correct"
    assert _judged({**BUYBACKS, "expect": "abstain"}, _cited("DB_2023Q4_CALL.pdf", 3)) == "wrong"


def test_an_operator_named_by_first_name_only_is_a_person_named():
    question = {"id": "t-2", "kind": "people", "doc_name": "META_2024Q3_CALL", "expect": "answer", "required_people": [
        {"name": "Kenneth Dorell", "role": "investor relations"}, {"name": "Krista", "role": "operator"}]}
    cited = [_cited("META_2024Q3_CALL.pdf", 1)]
    both = "Kenneth Dorell (Director, Investor Relations) is the investor relations on the call. [1] Krista (operator) is the " \
           "operator on the call. [2]"
    assert judge_call(question, Answer.model_construct(answer=both, citations=cited)) == "correct"
    unnamed = "Kenneth Dorell (Director, Investor Relations) is the investor relations on the call. [1] Operator (operator) " \
              "is the operator on the call. [2]"
    assert judge_call(question, Answer.model_construct(answer=unnamed, citations=cited)) == "wrong"


def test_a_slide_question_written_without_expect_is_judged():
    """Round 19's writer w44 wrote its four slide questions without `expect`: a question about a call, a release's people
    or a deck's slide has a typed gold whatever it says it expects (they had been left out of the counts)."""
    from vera_core.cli.eval_cmd import typed
    assert typed({"kind": "slide", "gold_pages": [3]}) and typed({"kind": "figure", "expect": "answer"})
    assert not typed({"kind": "figure", "answer": "$1.2 billion"})  # a FinanceBench-style question: its answer text
