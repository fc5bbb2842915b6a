"""`vera eval` on typed golds (data/dev2): a stated figure within tolerance is correct, another figure
is wrong-stated, none is an abstention; an abstention is correct where the filing prints nothing; a
verdict is judged on the answer's verdict, a withheld one where the question expects it withheld."""

from __future__ import annotations

import pytest

from vera_core.answer.contract import (Answer, Calculation, Figure, FigureCell, Intent, PeriodResult, Verdict,
                                       Verification)
from vera_core.cli.eval_judge import judge, per_template


def answer(figures=(), calculation=None, verdict=None) -> Answer:
    return Answer(question="q", intent=Intent(type="figure", rule="t"), answer="a",
                  verification=Verification(grounding_score=1.0, label="grounded"), figures=list(figures),
                  calculation=calculation, verdict=verdict)


def figure(value: float, scale: float = 1e6, unit: str = "USD") -> Figure:
    return Figure(line_item="revenue", period="FY2021", value=value, unit=unit, scale=scale, printed=str(value),
                  cell=FigureCell(chunk_id="c", row=0, col=1))


def calc(result: float, unit: str = "percent", results=()) -> Calculation:
    return Calculation(metric="m", definition="d", source="library", expression="e", result=result, unit=unit,
                       results=[PeriodResult(period=p, result=r, rounded=str(r)) for p, r in results])


REVENUE = {"kind": "figure", "gold": 11141.0, "gold_unit": "usd", "gold_scale": 1e6, "accept": [], "expect": "answer"}


@pytest.mark.parametrize("given, outcome", [
    (answer([figure(11141)]), "correct"),
    (answer([figure(11.141, scale=1e9)]), "correct"),  # the same figure in billions
    (answer([figure(11.20, scale=1e9)]), "correct"),   # rounded within 1%
    (answer([figure(155.642)]), "wrong"),              # another table's figure
    (answer([figure(-11141)]), "wrong"),               # the sign matters
    (answer(), "abstained"),
])
def test_a_figure_is_correct_wrong_or_abstained(given, outcome):
    assert judge(REVENUE, given) == outcome


def test_a_percent_metric_matches_within_rounding_and_is_wrong_in_another_unit():
    growth = {"kind": "metric", "gold": -0.37, "gold_unit": "percent", "accept": [], "expect": "answer"}
    assert judge(growth, answer(calculation=calc(-0.3704))) == "correct"  # the unrounded result
    assert judge(growth, answer(calculation=calc(0.37))) == "wrong"
    assert judge(growth, answer(calculation=calc(-0.0037, unit="ratio"))) == "wrong"


def test_an_accepted_reading_is_correct():
    net = {**REVENUE, "gold": -88.0, "accept": [-102.0]}
    assert judge(net, answer([figure(-102)])) == "correct"


def test_where_the_filing_prints_nothing_only_an_abstention_is_correct():
    absent = {**REVENUE, "gold": None, "expect": "abstain"}
    assert judge(absent, answer()) == "correct"
    assert judge(absent, answer([figure(0.01, scale=1)])) == "wrong"


@pytest.mark.parametrize("gold, given, outcome", [
    ("yes", Verdict(value="yes"), "correct"),
    ("yes", Verdict(value="no"), "wrong"),
    ("yes", Verdict(withheld="gross margin not printed"), "abstained"),
    ("Client Computing Group", Verdict(value="Client Computing Group (CCG)"), "correct"),
    ("Client Computing Group", Verdict(value="Data Center Group"), "wrong"),
    ("withheld", Verdict(withheld="no cost of sales line"), "correct"),
    ("withheld", Verdict(value="no"), "wrong"),
])
def test_a_verdict_is_judged_on_the_answer_verdict(gold, given, outcome):
    assert judge({"kind": "verdict", "verdict": gold, "expect": "answer"}, answer(verdict=given)) == outcome


def test_per_template_counts_every_outcome():
    rows = [{"template": "figure:revenue", "outcome": o} for o in ("correct", "correct", "wrong", "abstained")]
    assert per_template(rows) == {"figure:revenue": {"questions": 4, "correct": 2, "wrong": 1, "abstained": 1}}


# -- lists and document coverage (vera_core/cli/eval_lists.py) ------------------------------------------

def _listed(items=(), cited=()):
    from vera_core.answer.contract import Citation, Item
    base = answer()
    return base.model_copy(update={
        "items": [Item(text=t) for t in items],
        "citations": [Citation(n=i + 1, doc_id=d, doc_name=f"{d}.md", format="markdown", page=None, heading_path="",
                               chunk_id="c", kind="text", quote="q", score=1.0) for i, d in enumerate(cited)]})


def test_two_required_items_run_together_into_one_listed_item_count_for_neither():
    from vera_core.cli.eval_lists import list_coverage
    q = {"required_items": ["Email", "Phone call", "Secure Chat"]}
    assert list_coverage(q, _listed(["Email", "Phone call", "Secure Chat"]))["items"] == (3, 3)
    assert list_coverage(q, _listed(["Email; 3. Phone call", "Secure Chat"]))["items"] == (1, 3)


def test_a_required_item_counts_as_whole_words_of_a_listed_item():
    from vera_core.cli.eval_lists import list_coverage
    q = {"required_items": ["Public", "Internal"]}
    listed = _listed(["Public (Description: for public release)", "Internal (Examples: details not released publicly)"])
    assert list_coverage(q, listed)["items"] == (2, 2)  # "public" is not in "publicly"
    assert list_coverage({"required_items": ["Public"]}, _listed(["Publicly released"]))["items"] == (0, 1)


def test_documents_cited_are_required_accepted_unexpected_or_of_another_kind():
    from vera_core.cli.eval_lists import list_coverage
    q = {"required_docs": ["access", "07-systems_access_policy"], "accept_docs": ["hr"],
         "other_docs": ["Aurora_Annual_Report_2024"]}
    got = list_coverage(q, _listed(cited=["access", "hr", "ccm", "Aurora_Annual_Report_2024"]))
    assert got == {"docs": (1, 2), "unexpected_docs": (1, 0), "other_kind_docs": (1, 0)}


def test_a_table_row_listed_with_its_details_counts_for_its_name():
    from vera_core.cli.eval_lists import list_coverage
    q = {"required_items": ["Critical", "Medium"]}
    listed = _listed(["Critical (Extreme outage)", "Medium (Non-critical functionality loss)"])
    assert list_coverage(q, listed)["items"] == (2, 2)
    assert list_coverage(q, _listed(["Critical; Medium"]))["items"] == (0, 2)  # run together: still neither


def _cited(text: str, *pages: tuple[str, int]) -> Answer:
    from vera_core.answer.contract import Citation
    return Answer(question="q", intent=Intent(type="coverage", rule="t"), answer=text,
                  verification=Verification(grounding_score=1.0, label="grounded"),
                  citations=[Citation(n=i + 1, doc_id="d", doc_name=f"{doc}.pdf", format="pdf", page=page,
                                      heading_path="h", chunk_id=f"c{i}", kind="text", quote="q", score=1.0)
                             for i, (doc, page) in enumerate(pages)])


ANALYSTS = {"kind": "people", "expect": "answer", "doc_name": "C_2023Q1_CALL",
            "required_people": [{"name": "Glenn Schorr", "firm": "Evercore"}, {"name": "Mike Mayo", "firm": "Wells Fargo"}]}
REMARK = {"kind": "remark", "expect": "answer", "doc_name": "JPM_2023Q1_CALL",
          "turns": [{"speaker": "Jamie Dimon", "page_index": 4}, {"speaker": "Jamie Dimon", "page_index": 6},
                    {"doc_name": "JPM_2023Q2_CALL", "speaker": "Jamie Dimon", "page_index": 2}]}


@pytest.mark.parametrize("question, given, outcome", [
    (ANALYSTS, _cited("- GLENN SCHORR (Evercore), Citi [1]\n- MIKE MAYO (Wells Fargo Securities), Citi [2]",
                      ("C_2023Q1_CALL", 9)), "correct"),
    (ANALYSTS, _cited("- GLENN SCHORR (Evercore), Citi [1]", ("C_2023Q1_CALL", 9)), "wrong"),  # one missing
    (ANALYSTS, _cited("No speaker on C_2023Q1_CALL is named as an analyst"), "abstained"),
    # each call asked answered on one of its gold turns' pages
    (REMARK, _cited("Dimon said ...", ("JPM_2023Q1_CALL", 7), ("JPM_2023Q2_CALL", 3)), "correct"),
    (REMARK, _cited("Dimon said ...", ("JPM_2023Q1_CALL", 7)), "wrong"),  # the second call not answered
    (REMARK, _cited("Dimon said ...", ("JPM_2023Q1_CALL", 8), ("JPM_2023Q2_CALL", 3)), "wrong"),  # another turn
    ({**REMARK, "expect": "abstain"}, _cited("On the call, nobody spoke of it."), "correct"),
])
def test_call_questions_are_judged_on_names_firms_and_cited_turns(question, given, outcome):
    assert judge(question, given) == outcome


def test_a_question_is_asked_of_every_document_its_gold_reads():
    from vera_core.cli.eval_cmd import _question_documents
    q = {"doc_name": "META_2025Q3_SLIDES", "operands": [{"doc_name": "META_2024Q1_SLIDES"}, {"name": "x"}],
         "turns": [{"doc_name": "META_2025Q3_SLIDES"}]}
    assert _question_documents(q) == ["META_2025Q3_SLIDES", "META_2024Q1_SLIDES"]
    assert _question_documents({"doc_name": "APPLE_2019_10K"}) == ["APPLE_2019_10K"]


def test_a_count_of_shares_is_a_number_and_never_money():
    """SCHEMA.md's `shares` unit: a share count stated with no currency (Meta's 2,600 million diluted shares)."""
    shares = {"kind": "figure", "gold": 2600.0, "gold_unit": "shares", "gold_scale": 1e6, "accept": [], "expect": "answer"}
    assert judge(shares, answer([figure(2600, unit="")])) == "correct"
    assert judge(shares, answer([figure(2600, unit="USD")])) == "wrong"  # money is no count of shares


def test_a_change_in_a_count_is_a_number():
    """Salesforce's headcount fell by 2,514 between two releases: the change of two cells that print no currency is a
    count, never money (it had been judged wrong against a gold in `count`)."""
    from vera_core.answer.contract import CalculationOperand
    headcount = {"kind": "metric", "gold": 2514.0, "gold_unit": "count", "gold_scale": 1, "accept": [-2514.0],
                 "expect": "answer"}

    def change(currency: str) -> Calculation:
        operands = [CalculationOperand(name="headcount", row_label="Full time equivalent headcount", value=v,
                                       period="Q", unit=currency, printed=f"{v:,.0f}", statement="", cell=None)
                    for v in (72970.0, 70456.0)]
        return Calculation(metric="m", definition="d", source="library", expression="e", result=-2514.0, unit="amount",
                           operands=operands)
    assert judge(headcount, answer(calculation=change(""))) == "correct"
    assert judge(headcount, answer(calculation=change("USD"))) == "wrong"  # money is no count


def test_a_question_whose_answer_is_null_is_evaluated(tmp_path):
    """A writer's file may carry `"answer": null` (a calls question has no figure to write): `vera eval` had crashed
    on it before judging any question of the file."""
    from tests.conftest import settings_for
    from vera_core.cli.eval_cmd import evaluate
    from vera_core.workspace import Workspace
    ws = Workspace(settings_for(tmp_path))
    question = {"id": "n-1", "kind": "people", "question": "Who was the CFO on the call?", "answer": None,
                "doc_name": "ACME_2024Q1_CALL", "expect": "answer", "required_people": [{"name": "Ann Lee", "role": "CFO"}]}
    report = evaluate(ws, [question], "all", 5)
    assert [row["outcome"] for row in report["per_question"]] == ["abstained"]
