"""Issue 25, fifth part: the wrong figures and the abstentions of the round-4 held-back filing set (w13's
questions over the dev3 10-Ks, dev since its one measurement), each a class of phrasing or layout. Golds are
the writer's own (data/blind/r4-filings-holdout.jsonl), judged as `vera eval` judges them. The filings are
made searchable only (grids and keyword index). Skipped when ../shared/corpus is absent."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, blind_golds, searchable_pdfs
from vera_core.cli.eval_judge import judge
from vera_core.query import QueryEngine

DEV3 = ROOT.parent / "shared" / "corpus" / "financebench-dev3"
FILES = ("SONICAUTOMOTIVE_2022_10K", "UBER_2021_10K", "ENACT_2022_10K", "WHEELERREIT_2022_10K", "WESTWATER_2022_10K",
         "HCAHEALTHCARE_2022_10K", "TDSYNNEX_2022_10K", "TESLA_2023_10K", "PATRIOTTRANSPORTATION_2023_10K")
GOLDS = {**blind_golds("r4-filings-holdout"), **blind_golds("filings-holdout")}

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not all((DEV3 / f"{name}.pdf").is_file() for name in FILES),
                       reason=f"financebench-dev3 filings not found under {DEV3}"),
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return QueryEngine(searchable_pdfs(tmp_path_factory, "round5-filings", [DEV3 / f"{name}.pdf" for name in FILES]),
                       llm=None)


def _ask(engine: QueryEngine, qid: str):
    gold = GOLDS[qid]
    return gold, engine.answer(gold["question"], docs=[f"{gold['doc_name']}.pdf"], mode="deterministic")


@pytest.mark.parametrize("qid, cls", [
    ("w13-043", "'how many years could it fund its cash burn' over 'net cash used in operating activities': the amount "
                "used, never a negative number of years"),
    ("w13-045", "'EchoPark segment revenue': the row printing both the segment and the item, never the segment's unit "
                "sales volume under a heading that says 'sales'"),
    ("w13-046", "'revenue did Sonic Automotive generate from electric vehicle sales': a qualifier in lower case after "
                "the company; no row carries it, so VERA abstains rather than state total revenues"),
    ("w13-044", "'used vehicle gross margin': revenue and cost of the consolidated used vehicles rows, not a segment's"),
    ("w4-068", "'by how much did total operating expenses change': a cost line no vocabulary knows, printed in "
               "parentheses, is the amount incurred (it fell by 6,100), and the statement's row is read, not a note's"),
])
def test_a_figure_once_stated_wrong_is_now_right_or_withheld(engine, qid, cls):
    gold, answer = _ask(engine, qid)
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"


@pytest.mark.parametrize("qid, cls", [
    ("w13-003", "'change between the Dec 31, 2020 and Dec 31, 2021 balance sheets' of an item the vocabulary does not "
                "know: the later balance less the earlier"),
    ("w13-015", "'net income CAGR FY2020 -> FY2022': an arrow joins the years of a span"),
    ("w13-011", "'TSLA opex FY23 ($m)': opex is operating expenses"),
    ("w13-027", "'HCA cash from ops 2022, $mm': cash from ops is operating cash flow"),
    ("w13-029", "'op margin FY22 TD SYNNEX? (%, 2dp)': op margin is operating margin"),
    ("w13-034", "'spend on labor (compensation and benefits) in the year ended Sept 30, 2023': the line named in "
                "parentheses, for the fiscal year ending on that date"),
    ("w13-002", "'did its operating loss margin narrow every year': a loss margin that narrows rises toward zero"),
    ("w13-018", "'did Wheeler REIT's operating income cover its interest expense': A at least B"),
    ("w13-026", "'did HCA spend more on capex (purchase of property and equipment) than its D&A'"),
    ("w13-009", "'Tesla automotive gross margin (A less B, divided by A): did it fall in both FY2022 and FY2023?': the "
                "subject named before the colon, each year against the one before"),
    ("w13-019", "'loans payable (net) as a percentage of total assets, one decimal': '(net)' and the rounding are not "
                "part of the item"),
    ("w13-010", "'YoY growth in Tesla's energy generation and storage revenue, 2023 vs 2022': the growth asked before "
                "the company's possessive, over the years joined by 'vs'"),
])
def test_a_question_once_abstained_on_is_answered(engine, qid, cls):
    gold, answer = _ask(engine, qid)
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"
