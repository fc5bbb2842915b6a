"""Issue 25, eleventh part: the sub-items of one step, asked in the step's own loose words ("what does the first step
(checking the reading is genuine) actually involve?", "which permits are listed under the step about issuing a permit to
work?"): of the steps the question names, the one with items under it owns the list; a question that asks for the main
steps only ("main steps only, not the sub-steps") still gets the steps. Asked of w28's health-provider documents (round
11, dev since its one held-back measurement) and w19's credit-union documents (round 7), golds the writers' own."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, blind_golds, complete_list, markdown_store
from vera_core.query import QueryEngine

FOLDER = ROOT / "data" / "blind" / "policies-r11-holdout"
R7 = ROOT / "data" / "blind" / "policies-r7-holdout"
GOLDS = {**blind_golds("r11-policies-holdout"), **blind_golds("r7-policies-holdout")}


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return QueryEngine(markdown_store(tmp_path_factory, "round11-policies", FOLDER, 8), llm=None)


@pytest.mark.parametrize("qid", ["w28-028", "w28-030"])
def test_the_sub_items_of_the_step_the_question_names(engine, qid):
    answer = complete_list(engine, GOLDS[qid])
    assert answer.answer.startswith(f"{len(GOLDS[qid]['required_items'])} items under"), answer.answer[:200]


def test_main_steps_only_are_the_steps(tmp_path_factory):
    engine = QueryEngine(markdown_store(tmp_path_factory, "round7-policies", R7, 7), llm=None)
    complete_list(engine, GOLDS["w19-023"])  # "What are the steps I follow? (main steps only, not the sub-steps)"
