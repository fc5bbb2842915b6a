"""Issue 26: round 24's dev questions (w63 on the calls, w64 on the releases and decks, written blind before this part's
code), each a class of question:

Releases and decks:
- a printed measure inside a formula is the company's row ("free cash flow as a percentage of net income" reads Meta's
  printed free cash flow, 15,522, which deducts lease principal; it had computed 24,724 - 8,258 and stated 105.0%);
- "the first 36 weeks of the fiscal year" is the year to date of the year named elsewhere (it had stated the quarter);
- what the printed figures imply for a quarter no document prints (the 36 weeks less the other two quarters);
- "excluding FX effect" is the row "Revenue excluding foreign exchange effect"; "(net revenues / GMV)" reads GMV as the
  release defines it; "Full time equivalent headcount" is the headcount asked; "the third quater" is the third quarter;
- how a guided range moved between two releases ("by how much did the midpoint of full-year FY24 revenue guidance move?"):
  each release's range as its sentence states it, VERA's difference;
- a colon's definition ("payout ratio for Q3 2024: cash spent on Class A buybacks plus dividends and dividend
  equivalents (from the cash flow statement), divided by net income. What is it?") keeps its statement note, reads
  "cash spent on X" as X and is a percentage as the payout ratio it names.

Calls:
- "head of IR = ?"; "which executive did the operator ask to go ahead first and spoke first"; "was jamie dimon even on
  JPM's Q4 2023 call? who spoke"; "Fraser on where the rest of the 20k job cuts come from" (a search of what she said,
  not her job: "job cuts" ask no job); "how did the CEO open on the March bank failures?" (the prepared remarks); "20,000 jobs" is "20 thousand";
  "As a bank analyst I want ..." asks no analyst's words; "the Q1, Q2 and Q3 2023 calls" are three calls; a call named by
  the month it was held ("(Feb 2024 call)").

Corpus golds are the blind writers' own, judged as `vera eval` judges them (skipped when ../shared/corpus is absent)."""

from __future__ import annotations

import pytest

from tests.conftest import blind_golds, corpus_engine, judged_blind
from tests.test_release_rows_named import IR
from vera_core.documents.identity import Identity, quarter_labels
from vera_core.query import QueryEngine
from vera_core.questions.figure import asked_periods
from vera_core.questions.metric import printed_first, read_plan
from vera_core.questions.restate import blank_asked
from vera_core.questions.speakers import PERSONA, calls_named, read_people_ask, read_remark_ask, role_of_named
from vera_core.questions.spelling import misspelt
from vera_core.records import Period

FILES = [IR / "COST" / "COST_2023Q1_RELEASE.pdf", IR / "COST" / "COST_2023Q3_RELEASE.pdf",
         IR / "META" / "META_2024Q3_RELEASE.pdf", IR / "EBAY" / "EBAY_2023Q2_RELEASE.pdf",
         IR / "CRM" / "CRM_2024Q1_RELEASE.pdf", IR / "CRM" / "CRM_2024Q2_RELEASE.pdf", IR / "INTC" / "INTC_2023Q1_RELEASE.pdf",
         IR / "DB" / "DB_2023Q4_CALL.pdf", IR / "C" / "C_2023Q1_CALL.pdf", IR / "C" / "C_2023Q4_CALL.pdf",
         IR / "TD" / "TD_2024Q1_CALL.pdf"] + [IR / "JPM" / f"JPM_2023Q{q}_CALL.pdf" for q in (1, 2, 3, 4)]
GOLDS = {**blind_golds("r24-ir-releases-dev"), **blind_golds("r24-ir-calls-dev")}


def test_release_phrasings_of_round_24():
    periods, _ = asked_periods("Checking Costco's third-quarter FY2023 release: how much membership fee income for the "
                               "first 36 weeks of the fiscal year?")
    assert periods == [Period("fiscal_months", "", 2023, 9)]
    assert misspelt("costco SG&A growth y/y for the third quater of fiscal 2023", frozenset({"quarter", "fiscal"})) == \
        {"quater": "quarter"}
    plan = read_plan("How much did Intel's notebook revenue (Client Computing) decline year over year in Q1 2023, to one "
                     "decimal?")
    assert plan is not None and "decimal" not in plan.name, plan.name
    plan = read_plan("I want Meta's total shareholder payout ratio for Q3 2024: cash spent on Class A buybacks plus dividends "
                     "and dividend equivalents (from the cash flow statement), divided by net income. What is it?")
    assert plan is not None and plan.source == "question" and plan.unit == "percent"
    assert "cash_flow" in repr(plan.tree)  # NOTE: the statement note stays with its operand
    question = ("Teaching cash conversion with Meta's Q3 2024 release: free cash flow as a percentage of net income for the "
                "three months ended Sept 30, 2024?")
    tree, metrics = printed_first(read_plan(question), question)
    assert [m.name for m in metrics] == ["Free cash flow"] and "free cash flow" in repr(tree)
    # NOTE: a question that names the formula's own items asks for VERA's arithmetic
    written = "What was Meta's free cash flow (operating cash flow minus capital expenditure) as a % of net income in Q3 2024?"
    assert read_plan(written) is None or printed_first(read_plan(written), written) is None


def test_a_trailing_twelve_months_is_the_four_quarters_ending_with_the_one_named():
    from vera_core.questions.spans import summed_periods
    assert summed_periods("META FCF TTM thru 3Q25 ($mm)") == ["Q4 2024", "Q1 2025", "Q2 2025", "Q3 2025"]
    assert summed_periods("revenue, trailing twelve months through the first quarter of 2025") == \
        ["Q2 2024", "Q3 2024", "Q4 2024", "Q1 2025"]
    assert summed_periods("revenue TTM") == []  # NOTE: no quarter named: no four quarters to add


def test_call_phrasings_of_round_24():
    assert read_people_ask("snowflake Q4 FY22 call, 4th analyst to ask a question? name + firm").role == "fourth"
    assert read_people_ask("Which analyst was third in the Q&A queue on JPMorgan's first-quarter 2023 call?").role == "third"
    assert blank_asked("DB Q4 2023 call - head of IR = ?") == "DB Q4 2023 call - head of IR?"
    ask = read_people_ask("on JPMorgan Chase's October 2023 (third quarter) earnings call, which executive did the operator "
                          "ask to go ahead first and spoke first for the firm, and what is his title?")
    assert ask is not None and (ask.kind, ask.role) == ("handoff", "first")
    # NOTE: "job cuts" ask no job: what she said is searched, not who she is
    assert role_of_named("Fraser on where the rest of the 20k job cuts come from beyond the management layers - Q4 2023 "
                         "Citi call", ["Jane Fraser", "Mark Mason"]) is None
    ask = read_remark_ask("Citi Q1 2023: how did the CEO open on the March bank failures?", ["Jane Fraser"])
    assert ask is not None and ask.roles == ("CEO",) and ask.section == "prepared"
    ask = read_remark_ask("As a bank analyst I want the sequence: how did JPMorgan's full-year 2023 NII guidance change on "
                          "the Q1, Q2 and Q3 2023 calls?", ["Jeremy Barnum"])
    assert ask is not None and "analyst" not in ask.roles
    assert PERSONA.match("As a bank analyst I want the sequence: how did")
    assert quarter_labels("on the Q1, Q2 and Q3 2023 calls") == [(2023, 1), (2023, 2), (2023, 3)]
    calls = [("msft", Identity(doc_type="transcript", company="Microsoft", fiscal_year=2023, fiscal_quarter=3)),
             ("snow", Identity(doc_type="transcript", company="Snowflake", fiscal_year=2023, fiscal_quarter=2,
                               period_end="2022-07-31"))]
    held = {"msft": ("2023-04-25",), "snow": ()}
    assert calls_named("How did Satya say they'd charge for Copilot? (April 2023 call)", calls, dates=held) == ["msft"]
    # NOTE: a call with no date printed is placed by its period's end: held one or two months later
    assert calls_named("what did the CFO say on the September 2022 call?", calls, dates=held) == ["snow"]


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round24", FILES, f"ir-dev files not found under {IR}")


HELD_BACK_MISSES = [
    ("w62-013", "'META FCF TTM thru 3Q25 ($mm) - sum last 4 qtrs': the four quarters added (it had stated Q3 alone)"),
    ("w61-008", "'Which analyst was third in the Q&A queue ...?': John McDonald, Autonomous Research"),
    ("w61-009", "'snowflake Q4 FY22 call, 4th analyst to ask a question? name + firm': Keith Weiss"),
    ("w61-018", "'Which Microsoft people actually said something on the FY23 Q3 call?': the three company speakers"),
]
"""Round 24's held-back misses (measured once, at 4f90299), fixed as classes after the measurement."""
GOLDS.update({**blind_golds("r24-ir-releases-holdout"), **blind_golds("r24-ir-calls-holdout")})
HELD_BACK_FILES = [IR / "META" / f"META_{q}_SLIDES.pdf" for q in ("2024Q4", "2025Q1", "2025Q2", "2025Q3")] + \
    [IR / "SNOW" / "SNOW_2022Q4_CALL.pdf", IR / "MSFT" / "MSFT_2023Q3_CALL.pdf"]


@pytest.fixture(scope="module")
def held_back_engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round24-held-back", FILES + HELD_BACK_FILES,
                         f"ir-dev files not found under {IR}")


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", HELD_BACK_MISSES)
def test_round_24_held_back_classes_are_answered(held_back_engine, qid, cls):
    outcome, answer = judged_blind(held_back_engine, GOLDS[qid])
    assert outcome == "correct", f"{cls}: {answer.answer[:300]}"


DEV_MISSES = [
    ("w64-010", "'free cash flow as a percentage of net income': Meta's printed FCF, 98.9% (it had stated 105.0%)"),
    ("w64-022", "'membership fee income for the first 36 weeks of the fiscal year': 3,071 (it had stated the quarter)"),
    ("w64-024", "'what net income ... does that imply for Q2 FY2023': 4,132 - 1,364 - 1,302 = 1,466"),
    ("w64-006", "'revenue excluding FX effect (the non-GAAP line)': 41,133"),
    ("w64-011", "'payout ratio for Q3 2024: cash spent on Class A buybacks plus dividends ... What is it?': 64.3%"),
    ("w64-025", "'costco SG&A growth y/y for the third quater of fiscal 2023 (12 wks)?': 7.7%"),
    ("w64-031", "'take rate in Q2 2023 (net revenues / GMV)': 13.95%"),
    ("w64-036", "'salesforce headcount change from end of Q1 FY24 to end of Q2 FY24 in %?': -3.4%"),
    ("w64-041", "'notebook revenue (Client Computing) decline year over year in Q1 2023, to one decimal': -42.8%"),
    ("w63-002", "'DB Q4 2023 call - head of IR = ?': Ioana Patriniche"),
    ("w63-008", "'which executive did the operator ask to go ahead first and spoke first': Jamie Dimon"),
    ("w63-019", "'was jamie dimon even on JPM's Q4 2023 call? who spoke for JPMorgan': both"),
    ("w63-025", "'Fraser on where the rest of the 20k job cuts come from': her reply on p. 19, searched"),
    ("w63-031", "'Citi's plan to cut 20,000 jobs. What exactly did the CFO say about it': 'a net 20 thousand'"),
    ("w63-033", "'how did the CEO open on the March bank failures?': her prepared remarks"),
    ("w63-041", "'how did JPMorgan's full-year 2023 NII guidance change on the Q1, Q2 and Q3 2023 calls?': each call"),
    ("w63-005", "'who is Ajai Bambawalle at TD? what does he do (Feb 2024 call)': a call with no date kept"),
]
"""Round 24's dev misses (w63, w64)."""


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", DEV_MISSES)
def test_round_24_classes_are_answered(engine, qid, cls):
    outcome, answer = judged_blind(engine, GOLDS[qid])
    assert outcome == "correct", f"{cls}: {answer.answer[:300]}"


@pytest.mark.corpus
@pytest.mark.parametrize("question, moved", [
    ("Between the Q1 FY24 and Q2 FY24 Salesforce releases, by how much did the midpoint of full-year FY24 revenue guidance "
     "move?", 0.15),
    ("How much did Salesforce raise the high end of its full year FY24 revenue guidance from the Q1 FY24 release to the Q2 "
     "FY24 release?", 0.1),
])
def test_a_guided_range_moved_between_two_releases(engine, question, moved):
    """$34.5-34.7 billion in the Q1 FY24 release, $34.7-34.8 billion in the Q2 FY24 release: each range cited."""
    answer = engine.answer(question, docs=["CRM_2024Q1_RELEASE.pdf", "CRM_2024Q2_RELEASE.pdf"], mode="deterministic")
    assert answer.calculation is not None and answer.calculation.result == pytest.approx(moved), answer.answer[:400]
    assert {c.doc_name for c in answer.citations} == {"CRM_2024Q1_RELEASE.pdf", "CRM_2024Q2_RELEASE.pdf"}
