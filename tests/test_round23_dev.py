"""Issue 26: round 23's dev questions (w59 on the calls, w60 on the releases and decks, written blind before this part's
code) and what was left of the earlier rounds, each a class of question:

Calls:
- a topic asked in other words than the speakers used ("the prospect of governments putting rules on AI": "we are not
  waiting for regulation"; "how customers are split across Amazon, Microsoft and Google clouds": "AWS ... Azure ...
  GCP"): where no sentence of the speaker's turns holds half the topic's weight, each passage's closeness in meaning to
  the topic (its stored vector against the topic's) counts as well;
- a topic of guidance ("How did JPMorgan's NII guidance move across its four 2023 earnings calls?") is answered by the
  sentence that prints what was guided ("We now expect 2023 NII ... to be approximately $81 billion"), not by one that
  only names the guidance;
- a firm by its initials ("the BofA analyst": Bank of America Securities; "KBW": Keefe, Bruyette & Woods) or by all its
  generic words ("Bank of America");
- "operator hands off to which exec first (who actually speaks first)?" is whoever speaks first; "..., Christian
  Kleinerman. What is his job in Snowflake?" asks his title; "X, Y and Z gave the prepared remarks ... Which other TD
  executives spoke only in the question-and-answer session?" lists those of the Q&A only.

Releases and decks:
- "how much did total revenue jump from Q3 to Q4 2024, in percent?" and "INTC revenue 1Q23 vs 4Q22, seq % chg" are
  growths (they had stated the two figures, not the change);
- "what did the Communications business make in non-GAAP operating income?" asks the segment's line; "the revenue figure
  excluding the foreign exchange effect that sits behind that claim" is the row printed "Revenue excluding foreign
  exchange effect";
- "Building the capex line for Meta's September 2025 quarter: ..." names no "build" line;
- "Intel total debt (short-term + long-term)" is short-term debt plus long-term debt, and a balance sheet's rows after
  "Total current liabilities" without a heading of their own are long-term (Intel's "Debt");
- an operand named as a row prints it ("purchases of property and equipment plus principal payments on finance leases"
  reads "Less: Purchases of property and equipment, net", never the deck's capital expenditures chart, which already
  holds the lease payments: it had stated 8,771 for 8,472).

Corpus golds are the blind writers' own, judged as `vera eval` judges them (skipped when ../shared/corpus is absent)."""

from __future__ import annotations

import pytest

from tests.conftest import blind_golds, corpus_engine, judged_blind, settings_for
from tests.test_release_rows_named import IR
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.questions.metric import definitions, read_plan
from vera_core.questions.speakers import firms_named, read_people_ask
from vera_core.records import GridCell, TableGrid
from vera_core.retrieve.router import route
from vera_core.tables.totals import label_noncurrent
from vera_core.workspace import Workspace

FILES = [IR / "INTC" / "INTC_2022Q4_RELEASE.pdf", IR / "INTC" / "INTC_2023Q1_RELEASE.pdf",
         IR / "META" / "META_2025Q3_SLIDES.pdf", IR / "META" / "META_2024Q4_SLIDES.pdf", IR / "META" / "META_2024Q2_SLIDES.pdf",
         IR / "META" / "META_2024Q3_RELEASE.pdf", IR / "TWLO" / "TWLO_2023Q4_SLIDES.pdf",
         IR / "SNOW" / "SNOW_2023Q2_CALL.pdf", IR / "TD" / "TD_2024Q3_CALL.pdf", IR / "TD" / "TD_2024Q1_CALL.pdf",
         IR / "COST" / "COST_2023Q1_RELEASE.pdf", IR / "COST" / "COST_2023Q3_RELEASE.pdf",
         IR / "EBAY" / "EBAY_2023Q1_RELEASE.pdf", IR / "META" / "META_2024Q3_CALL.pdf"] + \
    [IR / "JPM" / f"JPM_2023Q{q}_CALL.pdf" for q in (1, 2, 3, 4)]
MEANING_FILES = [IR / "MSFT" / "MSFT_2023Q3_CALL.pdf", IR / "SNOW" / "SNOW_2023Q2_CALL.pdf", IR / "TWLO" / "TWLO_2023Q4_SLIDES.pdf"]
GOLDS = {**blind_golds("r23-ir-releases-dev"), **blind_golds("r23-ir-calls-dev"), **blind_golds("r18-ir-releases-holdout"),
         **blind_golds("r21-ir-releases-dev2"), **blind_golds("r21-ir-releases-dev"), **blind_golds("r21-ir-releases-holdout"),
         **blind_golds("r21-ir-calls-holdout"), **blind_golds("r21-ir-calls-dev2"), **blind_golds("r22-ir-calls-holdout"),
         **blind_golds("r22-ir-releases-dev"), **blind_golds("r19-ir-releases-holdout"),
         **blind_golds("r23-ir-releases-holdout"), **blind_golds("r23-ir-calls-holdout")}


def test_call_phrasings_of_round_23():
    firms = ["Bank of America Securities", "Keefe, Bruyette & Woods", "Morgan Stanley & Co. LLC", "National Bank Financial"]
    assert firms_named("TD Q1 2024 - what did the BofA analyst ask Bharat, and what did he say?", firms) == \
        {"Bank of America Securities"}
    assert firms_named("which question did the Bank of America analyst ask?", firms) == {"Bank of America Securities"}
    assert firms_named("what did KBW ask?", firms) == {"Keefe, Bruyette & Woods"}
    # NOTE: two letters are a ticker's, not a firm's initials; "America" alone names no firm
    assert firms_named("what did MS ask about America?", firms) == set()
    ask = read_people_ask("JPM 3Q23 call - operator hands off to which exec first (who actually speaks first)?")
    assert ask is not None and (ask.kind, ask.role) == ("handoff", "first")
    ask = read_people_ask("Snowflake call for second quarter fiscal 2023. The host say someone will join only for questions, "
                          "Christian Kleinerman. What is his job in Snowflake?")
    assert ask is not None and (ask.kind, ask.name) == ("role_of", "Christian Kleinerman")
    ask = read_people_ask("Which other TD executives spoke only in the question-and-answer session, and what are their titles?")
    assert ask is not None and (ask.kind, ask.role) == ("executives", "qa_only")


def test_release_phrasings_of_round_23():
    for question in ("How much did Meta's total revenue jump from Q3 to Q4 2024, in percent?",
                     "INTC revenue 1Q23 vs 4Q22, seq % chg"):
        assert route(question).type == "metric", question
    assert route("Twilio Q4 2023 - what did the Communications business make in non-GAAP operating income?").type == "figure"
    # NOTE: a period after "make in" is when, not what: no figure is named there
    assert route("What did Twilio make in Q4 2023?").type != "figure"
    assert definitions("Intel total debt (short-term + long-term) at Dec 31, 2022, $bn") == \
        {"": "short-term debt plus long-term debt"}
    # NOTE: a "year-over-year change" asked in $ billions is the amount's change, never a growth rate (it had stated 17.7%
    # as "71,597,000,000.0%" to "84,245,000,000.0%")
    plan = read_plan("As a bond analyst I want the year-over-year change in Oracle's total borrowings on the balance sheet "
                     "(notes payable current + notes payable and other borrowings non-current) between May 31, 2020 and "
                     "May 31, 2021. In $ billions, one decimal.")
    assert plan is not None and plan.over == "change"
    assert read_plan("What was the year-over-year change in revenue for 2021, in percent?").over == "growth"


def _row(row: int, label: str, value: float | None, parent: str = "") -> list[GridCell]:
    cells = [GridCell(row=row, col=0, row_label=label, parent_label=parent, header="", printed=label, value=None)]
    if value is not None:
        cells.append(GridCell(row=row, col=1, row_label=label, parent_label=parent, header="Dec 31, 2022",
                              printed=f"{value:,.0f}", value=value))
    return cells


def test_rows_after_the_current_liabilities_are_long_term():
    rows = [("Current liabilities:", None), ("Short-term debt", 4367.0), ("Accounts payable", 9595.0),
            ("Total current liabilities", 32155.0), ("Debt", 37684.0), ("Other long-term liabilities", 4980.0),
            ("Stockholders' equity:", None), ("Common stock", 31580.0)]
    grid = TableGrid(chunk_id="c", status="parsed", title="Consolidated Balance Sheets", n_rows=len(rows),
                     cells=tuple(c for r, (label, value) in enumerate(rows) for c in _row(r, label, value)))
    parents = {c.row_label: c.parent_label for c in label_noncurrent(grid).cells if c.col == 0}
    assert parents["Debt"] == parents["Other long-term liabilities"] == "Long-term liabilities"
    assert parents["Short-term debt"] == parents["Common stock"] == parents["Total current liabilities"] == ""


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round23", FILES, f"ir-dev files not found under {IR}")


@pytest.fixture(scope="module")
def embedded(tmp_path_factory) -> QueryEngine:
    """Two calls ingested whole (their passages' vectors written): what a topic in other words is read by."""
    if not all(path.is_file() for path in MEANING_FILES):
        pytest.skip(f"ir-dev files not found under {IR}")
    ws = Workspace(settings_for(tmp_path_factory.mktemp("round23-embedded")))
    ingestor = Ingestor(ws)
    for path in MEANING_FILES:
        assert ingestor.ingest_file(path).status == "ingested"
    return QueryEngine(ws, llm=None)


DEV_MISSES = [
    ("w60-022", "'How much did Meta's total revenue jump from Q3 to Q4 2024, in percent?': 19.2%"),
    ("w60-031", "'INTC revenue 1Q23 vs 4Q22, seq % chg': -16.6%"),
    ("w60-011", "'what did the Communications business make in non-GAAP operating income?': 248"),
    ("w60-016", "'the revenue figure excluding the foreign exchange effect that sits behind that claim': 41,133"),
    ("w59-001", "'operator hands off to which exec first (who actually speaks first)?': Jamie Dimon"),
    ("w59-006", "'..., Christian Kleinerman. What is his job in Snowflake?': SVP of Product"),
    ("w59-018", "'Which other TD executives spoke only in the question-and-answer session ...?': the four of the Q&A"),
    ("w59-036", "'what did the BofA analyst ask Bharat, and what did he say?': Poonawala's exchange"),
]
"""Round 23's dev misses (w59, w60)."""


EARLIER_MISSES = [
    ("w42-018", "'Intel total debt (short-term + long-term) at Dec 31, 2022, $bn': 42.05"),
    ("w51-035", "'total debt (short-term debt plus long-term debt) divided by total stockholders' equity': 0.50"),
    ("w50-020", "'how much did Intel's total debt (short-term debt plus long-term debt ...) increase': 8,222"),
    ("w48-005", "'Building the capex line for Meta's September 2025 quarter: ...': 19,374"),
    ("w47-040", "'How did JPMorgan's NII guidance move across its four 2023 earnings calls?': the figure each quarter"),
]
"""Earlier rounds' misses, fixed as classes in this part."""


MEANING_MISSES = [
    ("w52-030", "'what did the CEO say about the prospect of governments putting rules on AI?': p. 40"),
    ("w53-022", "'What was Satya's answer on government rules for AI ...?': p. 40"),
    ("w47-029", "'What did Microsoft's CFO say about how the OpenAI partnership shows up in Microsoft's revenue?': p. 30"),
    ("w53-027", "'what did Scarpelli say about how customers are split across Amazon, Microsoft and Google clouds?': p. 6"),
    ("w56-026", "'Which slide ... shows how much of revenue comes from their biggest customers?': Top 10 Customer Accounts"),
    ("w44-042", "'which slide shows how concentrated revenue is in its biggest customers?': Top 10 Customer Accounts"),
]
"""Topics asked in other words than the speakers' (or the slide's): read by meaning too."""


HELD_BACK_MISSES = [
    ("w58-030", "'change between the November 20, 2022 balance sheet and the May 7, 2023 balance sheet': -2,247"),
    ("w60-032", "'Costco merchandise inventories: by how much did they come down between the end of Q1 FY23 ...': 2,247"),
    ("w58-024", "'meta's R&D spend growth in Q3 2024 vs Q3 2023, %?': 21.0%"),
    ("w58-019", "'eBay shows both GAAP and non-GAAP operating income ... What is the non-GAAP operating income figure': 744"),
    ("w57-016", "'everyone who put a question to Zuck and Susan ..., plus where they work': every analyst"),
    ("w57-019", "'did Dimon actually say anything on JPM's 4Q23 call? who from the bank spoke on it?': both"),
]
"""Round 23's held-back misses (measured once, at 0fdc8fd), fixed as classes after the measurement."""


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", DEV_MISSES + EARLIER_MISSES + HELD_BACK_MISSES)
def test_round_23_classes_are_answered(engine, qid, cls):
    outcome, answer = judged_blind(engine, GOLDS[qid])
    assert outcome == "correct", f"{cls}: {answer.answer[:300]}"


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", MEANING_MISSES)
def test_a_topic_in_other_words_is_found_by_meaning(embedded, qid, cls):
    outcome, answer = judged_blind(embedded, GOLDS[qid])
    assert outcome == "correct", f"{cls}: {answer.answer[:300]}"


@pytest.mark.corpus
def test_an_operand_named_as_a_row_reads_that_row(engine):
    answer = engine.answer("What were Meta's quarterly capital expenditures (purchases of property and equipment plus "
                           "principal payments on finance leases) for Q2 2024, in $ millions?",
                           docs=["META_2024Q2_SLIDES.pdf"], mode="deterministic")
    assert "8,472 million" in answer.answer and "8,771" not in answer.answer, answer.answer[:400]
