"""Changes and totals over amounts the text states (vera_core/metrics/stated.py): the question read,
each amount's role (before, after, the change itself), the arithmetic, and abstention when the
operands are not clearly printed; end to end through the engine on a generated filing."""

from __future__ import annotations

import pytest

from tests.conftest import settings_for
from vera_core.answer.units import split_units
from vera_core.cli.eval_cmd import stated_values
from vera_core.ingest.service import Ingestor
from vera_core.answer.figures.stated import compute
from vera_core.questions.stated import read_ask, terms
from vera_core.query import QueryEngine
from vera_core.records import ChunkRecord
from vera_core.retrieve.router import route
from vera_core.workspace import Workspace


def _units(*paragraphs: str, doc: str = "doc"):
    chunks = [ChunkRecord(f"{doc}-c{i}", doc, i, "text", p, p, "Item 8.01", ("Item 8.01",), "s", 2, 2, (), "", "", 60)
              for i, p in enumerate(paragraphs)]
    return [u for c in chunks for u in split_units(c)]


@pytest.mark.parametrize("question, kind, subject_terms, points", [
    ("By how much did Pepsico increase its unsecured five year revolving credit agreement on May 26, 2023?",
     "change", {"unsecured", "five", "year", "revolving", "credit", "agreement"}, False),
    ("As of FY2023Q1, by how many percentage points did Pepsico raise full year guidance in respect of core "
     "constant currency EPS growth?", "change", {"core", "constant", "currency", "eps", "growth", "guidance"}, True),
    ("By how much did the company cut its quarterly dividend in 2024?", "change", {"quarterly", "dividend"}, False),
    ("How much did Acme reduce its term loan facility?", "change", {"term", "loan", "facility"}, False),
    ("What was the increase in the share repurchase authorization?", "change",
     {"share", "repurchase", "authorization"}, False),
    ("By how many percentage points did the target operating margin rise?", "change",
     {"target", "operating", "margin"}, True),
    ("By how much has the board expanded the buyback program as of March 3, 2024?", "change",
     {"board", "buyback", "program"}, False),
    ("What was the decrease in the revolving credit commitment?", "change", {"revolving", "credit", "commitment"}, False),
    ("As of May 26, 2023, what is the total amount Pepsico may borrow under its unsecured revolving credit "
     "agreements?", "total", {"unsecured", "revolving", "credit", "agreement"}, False),
    ("What is the combined amount available under the company's credit facilities?", "total",
     {"credit", "facilities"}, False),
])
def test_a_change_or_total_asked_of_stated_amounts_is_read(question, kind, subject_terms, points):
    ask = read_ask(question)
    assert ask is not None and ask.kind == kind and ask.points == points
    assert terms(" ".join(subject_terms)) <= ask.terms, ask.terms
    assert not ask.terms & terms("2023 2024 fy2023q1 increase raise cut reduce rise expanded")


@pytest.mark.parametrize("question", [
    "What is the total revenue for FY2022?",  # a figure of a table, not a total of stated amounts
    "What is the total amount of debt outstanding?",  # a singular subject: a printed total
    "What are the company's revenue recognition policies?",
    "Why did PepsiCo raise its full year guidance?",
])
def test_questions_that_ask_no_stated_change_or_total_are_not_read_as_one(question):
    assert read_ask(question) is None or route(question).rule != "metric:text"


def test_the_router_sends_stated_changes_to_the_metric_strategy_and_explanations_to_semantic():
    assert route("By how much did Acme increase its revolving credit facility?").rule == "metric:text"
    assert route("Why did Acme increase its revolving credit facility?").type == "semantic"


CREDIT = (
    "Effective May 26, 2023, Acme terminated the $3,800,000,000 364 day unsecured revolving credit agreement, "
    "dated as of May 27, 2022. There were no outstanding borrowings under it.",
    "On May 26, 2023, Acme entered into a new $4,200,000,000 364 day unsecured revolving credit agreement. "
    "Acme may increase the commitments under the 2023 364 Day Credit Agreement to up to $4,950,000,000.",
    "Effective May 26, 2023, Acme terminated the $3,500,000,000 five year unsecured revolving credit agreement, "
    "dated as of May 27, 2022.",
    "On May 26, 2023, Acme entered into a new $4,000,000,000 five year unsecured revolving credit agreement "
    "that expires on May 26, 2028.",
)


def test_a_change_told_in_two_paragraphs_subtracts_the_terminated_amount_from_the_new_one():
    got = compute(read_ask("By how much did Acme increase its five year unsecured revolving credit agreement?"),
                  _units(*CREDIT))
    assert got.result == 500_000_000
    before, after = got.operands
    assert (before.mention.text, before.cue, after.mention.text, after.cue) == \
        ("$3,500,000,000", "terminated", "$4,000,000,000", "new")


def test_a_total_sums_each_current_item_once_and_leaves_out_terminated_and_optional_amounts():
    ask = read_ask("What is the total amount Acme may borrow under its unsecured revolving credit agreements?")
    got = compute(ask, _units(*CREDIT, CREDIT[1]))  # a repeated paragraph counts once
    assert got.result == 8_200_000_000
    assert sorted(a.mention.text for a in got.operands) == ["$4,000,000,000", "$4,200,000,000"]


@pytest.mark.parametrize("sentence, before, after, change", [
    ("We now expect core EPS to increase 9 percent (previously 8 percent).", 8, 9, 1),
    ("We now expect 9 percent core EPS growth (previously 8 percent), and 4 percent organic revenue growth.", 8, 9, 1),
    ("The quarterly dividend was lowered from $0.50 to $0.35 per share.", 0.5, 0.35, -0.15),
    ("The board raised the quarterly dividend to $0.60 from $0.55 per share.", 0.55, 0.60, 0.05),
    ("Core EPS guidance is now $7.27, up from $7.20.", 7.20, 7.27, 0.07),
])
def test_a_pair_in_one_sentence_gives_the_before_and_after_amounts(sentence, before, after, change):
    subject = "core EPS" if "EPS" in sentence else "quarterly dividend"
    got = compute(read_ask(f"By how much did the company change its {subject}?"), _units(sentence))
    assert [o.value for o in got.operands] == [before, after]
    assert got.result == pytest.approx(change)


def test_a_pair_is_read_for_the_item_asked_not_its_neighbour_in_the_same_sentence():
    text = ("We now expect organic revenue to increase 8 percent (previously 6 percent) and core constant currency "
            "EPS to increase 9 percent (previously 8 percent).")
    revenue = compute(read_ask("By how many percentage points did guidance for organic revenue rise?"), _units(text))
    eps = compute(read_ask("By how many percentage points did core constant currency EPS guidance rise?"), _units(text))
    assert (revenue.result, eps.result) == (2, 1)


def test_a_change_the_text_prints_is_stated_not_recomputed():
    text = "In March 2024 the board increased the share repurchase authorization by $2.5 billion to $10 billion."
    got = compute(read_ask("By how much did the board increase the share repurchase authorization?"), _units(text))
    assert got.printed_change and got.result == 2_500_000_000


def test_no_result_when_the_amount_before_the_change_is_not_stated():
    got = compute(read_ask("By how much did Acme increase its five year unsecured revolving credit agreement?"),
                  _units(CREDIT[3]))
    assert got.result is None and "amount before the change is not stated" in got.missing


def test_no_result_when_two_items_fit_the_question_equally_and_disagree():
    got = compute(read_ask("By how much did Acme increase its unsecured revolving credit agreement?"), _units(*CREDIT))
    assert got.result is None and "ambiguous" in got.missing
    assert "$3,800,000,000" in got.missing and "$3,500,000,000" in got.missing


def test_no_result_when_no_sentence_states_an_amount_of_the_subject():
    got = compute(read_ask("By how much did Acme raise its term loan facility?"), _units(*CREDIT))
    assert got.result is None and "no sentence read states an amount of the" in got.missing


def test_no_total_from_a_single_item():
    got = compute(read_ask("What is the total amount Acme may borrow under its term loan facilities?"),
                  _units("Acme entered into a new $900,000,000 term loan facility on June 1, 2024."))
    assert got.result is None and "fewer than two" in got.missing


def test_no_result_when_the_amounts_are_in_different_units():
    text = "Acme raised its dividend payout target to 60 percent (previously $2.10 per share)."
    got = compute(read_ask("By how much did Acme raise its dividend payout target?"), _units(text))
    assert got.result is None


EIGHT_K = """# Acme Corp Form 8-K

## Item 8.01 Other Events

Effective May 26, 2023, Acme Corp terminated the $3,800,000,000 364 day unsecured revolving credit agreement,
dated as of May 27, 2022. There were no outstanding borrowings under the 2022 agreement at the time of its
termination.

On May 26, 2023, Acme Corp entered into a new $4,200,000,000 364 day unsecured revolving credit agreement (the
2023 364 Day Credit Agreement). Acme Corp may increase the commitments under it to up to $4,950,000,000.

Effective May 26, 2023, Acme Corp terminated the $3,500,000,000 five year unsecured revolving credit agreement,
dated as of May 27, 2022.

On May 26, 2023, Acme Corp entered into a new $4,000,000,000 five year unsecured revolving credit agreement (the
2023 Five Year Credit Agreement), which expires on May 26, 2028.

## Item 9.01 Financial Statements and Exhibits

Exhibit 99.1 364 Day Credit Agreement. Exhibit 99.2 Five Year Credit Agreement.
"""


@pytest.fixture(scope="module")
def eight_k_engine(tmp_path_factory) -> QueryEngine:
    folder = tmp_path_factory.mktemp("eight-k")
    (folder / "acme_8k_2023.md").write_text(EIGHT_K)
    ws = Workspace(settings_for(folder / "store"))
    assert Ingestor(ws).ingest_file(folder / "acme_8k_2023.md").status == "ingested"
    return QueryEngine(ws)


def test_the_answer_states_the_change_with_its_calculation_and_cites_both_sentences(eight_k_engine):
    answer = eight_k_engine.answer("By how much did Acme Corp increase its five year unsecured revolving credit "
                                  "agreement on May 26, 2023?", mode="deterministic")
    assert answer.intent.rule == "metric:text"
    assert answer.answer.startswith("Increase: $500,000,000, from $3,500,000,000 to $4,000,000,000.")
    calc = answer.calculation
    assert (calc.source, calc.result, calc.rounded) == ("text", 500_000_000, "$500,000,000")
    assert calc.expression == "4,000,000,000 - 3,500,000,000 = 500,000,000"
    quotes = {c.n: c.quote for c in answer.citations}
    assert [o.cell for o in calc.operands] == [None, None]
    assert "terminated the $3,500,000,000 five year" in quotes[calc.operands[0].citation]
    assert "new $4,000,000,000 five year" in quotes[calc.operands[1].citation]
    assert answer.verification.label == "grounded"
    assert stated_values(answer) == [(500_000_000, False)]


def test_the_answer_totals_the_current_agreements(eight_k_engine):
    answer = eight_k_engine.answer("As of May 26, 2023, what is the total amount Acme Corp may borrow under its "
                                  "unsecured revolving credit agreements?", mode="deterministic")
    assert answer.calculation.rounded == "$8,200,000,000"
    assert sorted(o.printed for o in answer.calculation.operands) == ["$4,000,000,000", "$4,200,000,000"]
    assert "$3,800,000,000" not in answer.answer.split("Calculation")[0]


def test_an_unanswerable_change_states_no_figure_and_says_what_is_missing(eight_k_engine):
    answer = eight_k_engine.answer("By how much did Acme Corp increase its unsecured revolving credit agreement?",
                                  mode="deterministic")
    assert answer.calculation is None and stated_values(answer) == []
    assert "No change is computed: the amount before the change is ambiguous" in answer.answer
    assert "acme_8k_2023.md" in answer.answer


def test_a_change_printed_right_after_its_verb_is_the_answer():
    text = "Operating income increased $412 million, or 8 percent, to $5.6 billion in 2024."
    got = compute(read_ask("How much did operating income increase in 2024?"), _units(text))
    assert got.printed_change and got.result == 412_000_000
