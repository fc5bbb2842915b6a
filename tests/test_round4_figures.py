"""Issue 25, fourth part: the wrong figures of the earlier held-back filing sets, each a class of phrasing or
layout, now dev (measured once each, at the end of their rounds). Golds are the blind writers' own
(data/blind/filings-holdout.jsonl, r3-filings-holdout.jsonl, r3-filings-dev.jsonl), judged as `vera eval`
judges them. The filings are made searchable only (grids and keyword index): figure, metric and verdict
answers read grids. Skipped when ../shared/corpus is absent."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, blind_golds, searchable_pdfs
from vera_core.cli.eval_judge import judge
from vera_core.query import QueryEngine

CORPUS = ROOT.parent / "shared" / "corpus"
FILES = {"AES_2021_10K": "financebench-dev2", "INTEL_2020_10K": "financebench-dev2", "PG_E_2021_10K": "financebench-dev2",
         "SALESFORCE_2023_10K": "financebench-dev2", "HCAHEALTHCARE_2022_10K": "financebench-dev3",
         "SAFEANDGREEN_2022_10K": "financebench-dev3", "WESTWATER_2022_10K": "financebench-dev3",
         "ALPHABET_2023_10K": "financebench-dev3", "BOSTONPROPERTIES_2015_10K": "financebench-dev2"}
GOLDS = {**blind_golds("filings-holdout"), **blind_golds("r3-filings-holdout"), **blind_golds("r3-filings-dev"),
         **blind_golds("r5-filings-holdout"), **blind_golds("r4-filings-holdout")}

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not all((CORPUS / folder / f"{name}.pdf").is_file() for name, folder in FILES.items()),
                       reason=f"financebench-dev2/dev3 filings not found under {CORPUS}"),
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    paths = [CORPUS / folder / f"{name}.pdf" for name, folder in FILES.items()]
    return QueryEngine(searchable_pdfs(tmp_path_factory, "round4-filings", paths), llm=None)


def _ask(engine: QueryEngine, qid: str):
    gold = GOLDS[qid]
    answer = engine.answer(gold["question"], docs=[f"{gold['doc_name']}.pdf"], mode="deterministic")
    return gold, answer


@pytest.mark.parametrize("qid, cls", [
    ("w4-041", "an operand's own words ('net income attributable to HCA Healthcare, Inc.'), a bare statement hint in "
               "parentheses, and 'payment of dividends' as the outflow it is"),
    ("w4-066", "a question that is only its definition ('X free cash flow for 2022 = A - B'), in a table printing "
               "whole dollars"),
    ("w4-070", "'operating cash burn' is the cash used in operations, as an amount"),
    ("w5-007", "'divided by the average of total stockholders' equity at the end of 2022 and 2023' after a colon"),
    ("w10-002", "a bar the question sets ('the current ratio ... with 1.0x as the bar') decides the yes/no"),
    ("w10-005", "a CAGR 'from fiscal 2018 to fiscal 2020'"),
    ("w10-016", "adjusted EPS from its own row, never from a reconciliation's share-count column"),
    ("w9-017", "a row a lead-in's scale line excepts ('which is presented in billions')"),
])
def test_a_figure_once_stated_wrong_is_now_right(engine, qid, cls):
    gold, answer = _ask(engine, qid)
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"


def test_every_operand_of_a_calculation_is_a_cited_cell(engine):
    gold, answer = _ask(engine, "w5-007")
    calculation = answer.calculation
    assert calculation is not None and len(calculation.operands) == 3  # net income, equity at both year-ends
    assert all(op.citation for op in calculation.operands)


@pytest.mark.parametrize("qid, cls", [
    ("w15-036", "'by what percentage did average billed residential electric revenue per kWh rise from 2020 to 2021': "
                "'average' is the item's own word, the growth is asked (it was read as a two-year mean)"),
    ("w15-048", "'how much revenue did Intel get from Apple in 2020': a qualifier after 'get from'; no row carries it, "
                "so VERA abstains rather than state total revenue"),
])
def test_the_wrong_figures_of_the_round5_held_back_set_once_measured(engine, qid, cls):
    """Round 5's held-back filings (w15), measured once at the end of the fifth part; its two wrong figures, fixed
    afterwards for their class (dev from then on)."""
    gold, answer = _ask(engine, qid)
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"


@pytest.mark.parametrize("qid, cls", [
    ("w15-042", "'What mortgage notes payable did the company show on its balance sheet at December 31, 2015?': a frame "
                "the router does not read; 'Mortgage notes payable' is the balance sheet's own row"),
    ("w15-041", "'how fast did Boston Properties' base rent grow in 2015 vs 2014?': the growth of the row 'Base rent'"),
    ("w15-035", "'what current liability for wildfire-related claims did PG&E Corporation carry on its balance sheet'"),
    ("w4-006", "'compound annual growth rate of Alphabet's Google Cloud revenues over FY2021 - FY2023': the row 'Google "
               "Cloud' in the revenue note, compounded over two years"),
    ("w4-064", "'SGBX total revenue YoY change 2022 vs 2021, % (1 dp)?': a growth asked as a change in percent"),
])
def test_a_row_the_filing_prints_answers_a_question_in_a_frame_no_rule_reads(engine, qid, cls):
    """The shape follows the evidence (`answer.strategies.shapes`): a question routed to semantic search that asks an
    amount of a row the filing prints under its own label is answered as that row's figure or metric."""
    gold, answer = _ask(engine, qid)
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"
    # NOTE: an item the vocabulary does not know is read as a growth between two years named from the ninth part on
    # ("base rent grow in 2015 vs 2014"): routed as a metric at once, not after semantic search
    assert answer.intent.rule in ("figure:row-named", "metric:row-named", "metric:library")
    cited = {c.page for c in answer.citations}
    assert cited & {op["page_index"] + 1 for op in gold["operands"]}, f"cited pages {sorted(cited)}"


@pytest.mark.parametrize("qid", ["w4-040", "w13-024"])
def test_a_total_printed_without_a_label_is_read_for_the_rows_it_sums(engine, qid):
    """HCA's balance sheet prints total current assets and total current liabilities as bare rows under a rule; each
    is named for its heading once its figures are the sum of the rows above it (`tables.totals`)."""
    gold, answer = _ask(engine, qid)
    assert judge(gold, answer) == "correct", answer.answer[:300]
    assert {op.row_label for op in answer.calculation.operands} == {"Total Current assets", "Total Current liabilities"}
