"""Issue 25, eleventh part: the classes of the round-11 filing set (w27's questions, dev since their one held-back
measurement) that stated a wrong figure or verdict, each a class:

- a growth threshold over two named years read at each year ("did Greater China net sales drop by more than 15% in
  fiscal 2019 versus fiscal 2018?": FY2018's own growth had decided a "no");
- "was PBNA more profitable than FLNA" read as the company's net income being positive;
- a rate's change "in percentage points" computed as a growth;
- a payout or an insurer's combined ratio stated as a fraction where analysts state a percentage;
- "long-term debt excluding the current portion" answered with the current portion;
- a row named by the question under another measure's heading ("FedEx Ground segment" under "Operating income (loss):")
  stated as the segment's revenue;
- a printed row taken for a measure it does not name ("Revision in estimated cash flows" for free cash flow).

Golds are the writer's own, judged as `vera eval` judges them. Skipped when ../shared/corpus is absent."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, blind_golds, corpus_engine
from vera_core.cli.eval_judge import judge
from vera_core.query import QueryEngine
from vera_core.questions.metric import read_plan
from vera_core.questions.verdict import read_verdict

CORPUS = ROOT.parent / "shared" / "corpus"
FILES = [CORPUS / "financebench-dev2" / "APPLE_2019_10K.pdf",
         CORPUS / "financebench-dev2" / "FEDEX_2023_10K.pdf",
         CORPUS / "financebench-dev2" / "PG_E_2021_10K.pdf"]
GOLDS = blind_golds("r11-filings-holdout")


def test_a_growth_threshold_over_two_named_years_is_the_later_years_growth():
    verdict = read_verdict(GOLDS["w27-016"]["question"])
    assert verdict is not None and [p.year for p in verdict.plan.periods] == [2019], verdict


def test_more_profitable_than_is_not_a_sign():
    verdict = read_verdict(GOLDS["w27-011"]["question"])  # "was PBNA more profitable than FLNA ...?"
    assert verdict is None or verdict.kind != "sign", verdict


def test_a_change_in_percentage_points_is_not_a_growth():
    plan = read_plan(GOLDS["w27-051"]["question"])  # "... change from year-end 2021 to year-end 2022, in percentage points?"
    assert plan is None or plan.over != "growth", plan


@pytest.mark.parametrize("qid", ["w27-044", "w27-049"])
def test_a_payout_and_a_combined_ratio_are_percentages(qid):
    plan = read_plan(GOLDS[qid]["question"])
    assert plan is not None and plan.unit == "percent", plan


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round11-figures", FILES,
                         f"financebench-dev2 filings not found under {CORPUS}")


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", [
    ("w27-016", "Greater China net sales -15.9% FY2019 vs FY2018: yes, more than 15%"),
    ("w27-019", "long-term debt excluding the current portion: 20,453, not the current portion's 126"),
    ("w27-018", "FedEx Ground segment revenue: 33,507, not its operating income under 'Operating income (loss):'"),
    ("w27-033", "PCG FCF (OCF - capex): -5,427, not 'Revision in estimated cash flows'"),
])
def test_a_round11_class_is_answered_right(engine, qid, cls):
    gold = GOLDS[qid]
    answer = engine.answer(gold["question"], docs=[f"{gold['doc_name']}.pdf"], mode="deterministic")
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"
