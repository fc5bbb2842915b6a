"""Issue 26: round 25's dev questions (w67 on the calls, w68 on the releases and decks, written blind before this part's
code), each a class of question:

Releases and decks:
- a quarter named by its months ("the July-September 2024 quarter", "April-June 2025", "the October to December 2022
  quarter", "the 12-week quarter that ended in early May 2023") is the quarter of the month it ends in, a 52/53-week
  quarter ending a few days into the next month included (Intel's three months ended April 1, 2023 are "the March
  quarter"), and a guided quarter so named is the company's fiscal quarter;
- "revenue from European users" is the Europe row (a qualifier after the item, a region's adjective), never total
  revenue (it had stated 21.6%, total revenue's growth);
- "Q2'23 vs Q1'23, % to 1dp" keeps its quarters apart from its rounding; "Intel CCG notebook rev y/y, Q1'23" asks a growth;
- "FY23 YTD (36 wks thru 3Q)" is the year to date through Q3 of FY23; a year asked is never the balance at an earlier
  quarter's end (it had stated Costco's deferred membership fees as of May 7, 2023 for "FY23 YTD membership fee rev");
- "merch margin = (net sales - merch costs)/net sales, %": merchandise costs, and the unit after the formula no operand;
- "the Family of Apps operating margin (segment operating income divided by segment revenue)": the segment is Family of
  Apps, "operating" no word of it; "versus the same three months of 2022": the same dated span a year before, and a
  scene-setting sentence ("gives constant-currency growth rates") asks no direction.

Calls:
- who spoke just before a person ("who handed off to slootman") or next after a role ("which executive gave the
  credit-quality remarks after the CFO"); the last analyst and who replied to him; "last analyst to ask a q";
- what a named analyst asked and who answered her; what Sewing told "the Goldman analyst" (a firm by its first word);
  "td cfo on share repurchses" (a note headed by a role, never operating cash flow); the prepared remarks against the
  Q&A (the best of each); a span of calls in parentheses ("(Q4 FY22 through Q3 FY23)").

Corpus golds are the blind writers' own, judged as `vera eval` judges them (skipped when ../shared/corpus is absent)."""

from __future__ import annotations

import pytest

from tests.conftest import blind_golds, corpus_engine, judged_blind
from tests.test_release_rows_named import IR
from vera_core.answer.figures.gates import period_matches
from vera_core.answer.units import run_on, split_units
from vera_core.documents.identity import Identity, dated_by_company
from vera_core.query import QueryEngine
from vera_core.questions.figure import asked_periods
from vera_core.questions.metric import definitions, read_plan
from vera_core.questions.month_spans import month_spans_named
from vera_core.questions.qualifiers import qualifier_after
from vera_core.questions.restate import line_asides_dropped, noted_sum_asked, restated, short_words_written
from vera_core.questions.speakers import BOTH_SECTIONS, analyst_place, calls_named, firms_named, read_people_ask, read_remark_ask, spanned_quarters
from vera_core.records import ChunkRecord, Period

RELEASES = [IR / "COST" / "COST_2023Q3_RELEASE.pdf", IR / "EBAY" / "EBAY_2023Q2_RELEASE.pdf",
            IR / "META" / "META_2024Q3_RELEASE.pdf", IR / "META" / "META_2025Q2_SLIDES.pdf",
            IR / "META" / "META_2024Q1_SLIDES.pdf", IR / "META" / "META_2025Q3_SLIDES.pdf",
            IR / "CRM" / "CRM_2024Q2_RELEASE.pdf", IR / "INTC" / "INTC_2022Q4_RELEASE.pdf",
            IR / "INTC" / "INTC_2023Q1_RELEASE.pdf"]
CALLS = [IR / "TD" / "TD_2024Q1_CALL.pdf", IR / "TD" / "TD_2024Q3_CALL.pdf", IR / "TD" / "TD_2024Q4_CALL.pdf", IR / "JPM" / "JPM_2023Q2_CALL.pdf",
         IR / "DB" / "DB_2023Q1_CALL.pdf", IR / "DB" / "DB_2023Q3_CALL.pdf", IR / "META" / "META_2024Q3_CALL.pdf"] + \
    [IR / "SNOW" / f"SNOW_{q}_CALL.pdf" for q in ("2022Q4", "2023Q1", "2023Q2", "2023Q3")]
GOLDS = {**blind_golds("r25-ir-releases-dev"), **blind_golds("r25-ir-calls-dev"), **blind_golds("r21-ir-calls-dev2")}


def test_quarters_named_by_their_months():
    read = month_spans_named("Comparing the October to December 2022 quarter with the January to March 2023 quarter, "
                             "by what percentage did total net revenue fall?")
    assert read[0] == "Comparing the December 2022 quarter with the March 2023 quarter, by what percentage did total net " \
        "revenue fall?"
    assert month_spans_named("how fast did revenue grow in the April-June 2025 quarter compared with April-June 2024?")[0] \
        .endswith("in the June 2025 quarter compared with the June 2024 quarter?")
    assert month_spans_named("In the 12-week quarter that ended in early May 2023, how much")[0] == \
        "In the May 2023 quarter, how much"
    assert month_spans_named("Costco op margin for the quarter ending in early May?")[0] == \
        "Costco op margin for the May quarter?"
    assert month_spans_named("revenue for January-June") == ("revenue for January-June", {})  # six months, no year
    # NOTE: Intel's quarter ended April 1, 2023 is the March quarter; Costco's ended May 7 the May quarter
    march = Period("months", "2023-03", 2023, 3)
    assert period_matches(march, Period("months", "2023-04-01", 2023, 3), 12)
    assert period_matches(Period("months", "2023-05", 2023, 3), Period("months", "2023-05-07", 2023, 3), 8)
    assert not period_matches(march, Period("months", "2023-07-01", 2023, 3), 12)


def test_periods_and_notes_of_round_25():
    assert asked_periods("COST FY23 YTD (36 wks thru 3Q) membership fee revenue, $m")[0] == \
        [Period("fiscal_months", "", 2023, 9)]
    assert asked_periods("For the three months ended July 31, 2023, how much did Asia Pacific revenue grow versus the same "
                         "three months of 2022?")[0] == [Period("months", "2023-07-31", 2023, 3),
                                                        Period("months", "2022-07-31", 2022, 3)]
    # NOTE: a year asked is its year-end balance, never a quarter's end before it (Costco's year ends in August)
    year = Period("year", "", 2023)
    assert not period_matches(year, Period("instant", "2023-05-07", 2023), 8)
    assert period_matches(year, Period("instant", "2023-09-03", 2023), 8)
    assert restated("eBay total GMV q/q chg, Q2'23 vs Q1'23, % to 1dp") == \
        "What was the percent change in eBay total GMV qoq from Q1'23 to Q2'23? to 1dp"
    assert restated("Intel CCG notebook rev y/y, Q1'23 (%, 1dp)") == \
        "What was the Intel CCG notebook revenue growth yoy in Q1'23? (%, 1dp)"
    assert line_asides_dropped("CRM Q2 FY24 Data (Tableau + MuleSoft) subscription & support rev ($m)") == \
        "CRM Q2 FY24 Data subscription & support rev ($m)"
    assert line_asides_dropped("Adjusted EBITDA (Revenue + Other)") == "Adjusted EBITDA (Revenue + Other)"  # line items
    assert short_words_written("CRM Q2 FY24 Data subscription & support rev ($m)").endswith("support revenue ($m)")
    assert noted_sum_asked("CRM cash + marketable securities @ 4/30/23 ($m)") == \
        "What was CRM cash + marketable securities at 4/30/23 ($m)?"
    # NOTE: neither the members a question compares nor a note that defines a ratio is rewritten
    fedex = "Among FedEx's three transportation segments (Express, Ground, Freight), which grew revenue the most?"
    assert line_asides_dropped(fedex) == fedex
    leverage = ("HCA 2022 leverage: total debt (long-term debt plus long-term debt due within one year) over EBITDA, with "
                "EBITDA = income before income taxes + interest expense + D&A. Two decimals.")
    assert noted_sum_asked(leverage) == leverage
    assert asked_periods("COST 36-wk interest expense FY23 YTD ($m)")[0] == [Period("fiscal_months", "", 2023, 9)]
    assert short_words_written("META 3Q24 diluted wtd-avg share count (mm)") == \
        "META 3Q24 diluted weighted average share count (mm)"
    assert restated("FoA rev 2Q25 q/q % chg (Meta Q2'25 deck), 1dp") == \
        "What was the FoA revenue growth qoq in 2Q25? (Meta Q2'25 deck), 1dp"
    assert definitions("COST 3Q FY23 merch margin = (net sales - merch costs)/net sales, %?") == \
        {"COST 3Q FY23 merch margin": "(net sales - merch costs)/net sales"}
    question = "how fast did revenue from European users grow in the June 2025 quarter"
    assert qualifier_after(question, question.index("revenue") + len("revenue")).words == {"europ"}  # Europe's row
    plan = read_plan("What was the Family of Apps operating margin (segment operating income divided by segment revenue) "
                     "in the September 2024 quarter?")
    assert plan is not None and plan.qualifier.words and "operat" not in plan.qualifier.words


def test_a_sentence_cut_by_a_line_or_a_chunk_reads_on_and_an_undated_deck_takes_its_companys_calendar():
    text = ("eBay's first-party advertising products, primarily driven by Promoted Listings, delivered $341 million of"
            "\n\nrevenue in the second quarter, up 47%.")
    chunk = ChunkRecord("c1", "d", 0, "text", text, text, "Release/Business Highlights", ("Release", "Business Highlights"),
                        "s1", 2, 2, (), "", "", 0)
    units = run_on(split_units(chunk), None)
    assert units[0].text.endswith("$341 million of revenue in the second quarter, up 47%.")
    assert units[0].quote.endswith("$341 million of")  # NOTE: the quote stays the sentence's own words
    deck = Identity(doc_type="slides", company="Meta", fiscal_year=2025, fiscal_quarter=3)
    release = Identity(doc_type="release", company="Meta Platforms, Inc.", fiscal_year=2024, fiscal_quarter=3,
                       period_end="2024-09-30")
    assert dated_by_company({"deck": deck}, [release])["deck"].period_end == "2025-09-30"
    crm = Identity(doc_type="release", company="Salesforce, Inc.", fiscal_year=2024, fiscal_quarter=2, period_end="2023-07-31")
    undated = Identity(doc_type="slides", company="Salesforce", fiscal_year=2024, fiscal_quarter=4)
    assert dated_by_company({"d": undated}, [crm])["d"].period_end == "2024-01-31"
    assert dated_by_company({"deck": deck}, [crm])["deck"].period_end == ""  # NOTE: no document of Meta's dated


def test_call_phrasings_of_round_25():
    ask = read_people_ask("who handed off to slootman at the start of snowflake's q4 fy22 call, and what's his job?")
    assert (ask.kind, ask.role, ask.name) == ("handoff", "before", "slootman")
    ask = read_people_ask("On TD Bank's Q1 FY2024 call, which executive gave the credit-quality remarks after the CFO?")
    assert (ask.kind, ask.role, ask.name) == ("handoff", "after", "CFO")
    ask = read_people_ask("Who was the last analyst to ask a question on Snowflake's November 30, 2022 call, and which "
                          "Snowflake executive answered him?")
    assert (ask.kind, ask.role, ask.also) == ("analysts", "last", ("replied",))
    assert read_people_ask("last analyst to ask a q on jpm's july 2023 call?").role == "last"
    assert read_people_ask("who answered the first question?") is None  # NOTE: who replied, not the analyst
    ask = read_people_ask("Who kicked off Meta's Q3 2024 earnings call, and who did he hand over to?")
    assert (ask.kind, ask.role, ask.also) == ("handoff", "first", ("next",))
    assert analyst_place("Citi 3Q23 call - last analyst in the queue + firm?") == "last"
    assert read_people_ask("Who from Microsoft's legal team was on the FY23 Q3 earnings call?").name == "counsel"
    assert read_people_ask("Who hosted investor relations on Deutsche Bank's Q4 2023 analyst call?").role == \
        "investor relations"
    assert read_people_ask("TD Q4 2024 call (Dec 5) - Bharat welcomed two execs joining the call for the first time. who "
                           "were they + titles?").kind == "welcomed"
    firms = ["Goldman Sachs", "Morgan Stanley", "JPMorgan", "Credit Suisse"]
    assert firms_named("What did Sewing tell the Goldman analyst about share buybacks?", firms) == {"Goldman Sachs"}
    assert firms_named("What did the CEO say about credit?", firms) == set()
    ask = read_remark_ask("td cfo on share repurchses q3 fy24 - are they still buying back stock?", ["Kelvin Tran"])
    assert ask is not None and ask.roles == ("CFO",)
    ask = read_remark_ask("On Meta's Q3 2024 call, how did Susan Li's headcount comments in the prepared remarks compare "
                          "with what she said in the Q&A?", ["Susan Li"])
    assert ask is not None and ask.section == BOTH_SECTIONS
    # NOTE: an event something was shown at is no company: Meta's call is still the one asked
    meta = [("meta", Identity(doc_type="transcript", company="Meta Platforms, Inc.", fiscal_year=2024, fiscal_quarter=3))]
    assert calls_named("what did zuck say about those see-through hologram glasses they showed at Connect?", meta) == ["meta"]
    assert spanned_quarters("Track Snowflake's CFO on hiring plans across the four calls (Q4 FY22 through Q3 FY23).")
    ask = read_remark_ask("Did Zuck concede on the Q3 2024 call that shareholders might not like how fast Meta is spending "
                          "on AI infrastructure?", ["Mark Zuckerberg", "Susan Li"])
    assert ask is not None and ask.names == ("Mark Zuckerberg",)


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round25", RELEASES + CALLS, f"ir-dev files not found under {IR}")


HELD_BACK_MISSES = [
    ("w66-011", "'If you strip that charge out, what would the effective tax rate ... have been': 14% (it had stated the "
                "reported 87%)"),
    ("w66-034", "'CRM cash + marketable securities @ 4/30/23 ($m)': 13,977 (it had stated marketable securities alone)"),
    ("w66-024", "'COST 36-wk interest expense FY23 YTD ($m)': 104"),
    ("w66-031", "'US GMV y/y Q2 23, calc from the supplemental table, 2dp': -3.12%"),
    ("w66-037", "'gross margin for Salesforce's Q1 FY24 (qtr ended Apr 2023)': 74.2%"),
    ("w62-010", "'FoA rev 2Q25 q/q % chg (Meta Q2'25 deck), 1dp': 12.5% (round 24's; the level 47,146 had been stated)"),
    ("w66-040", "'Intel DCAI revenue y/y in Q1 2023 - exact % from the segment table': -38.8%"),
    ("w65-003", "'Who hosted investor relations on Deutsche Bank's Q4 2023 analyst call': Ioana Patriniche alone"),
    ("w65-004", "'Who from Microsoft's legal team was on the FY23 Q3 earnings call': Keith Dolliver"),
    ("w65-007", "'Citi 3Q23 call - last analyst in the queue + firm?': Gerard Cassidy, back in the queue"),
]
"""Round 25's held-back misses (measured once, at d7fc07b), fixed as classes after the measurement."""
GOLDS.update({**blind_golds("r25-ir-releases-holdout"), **blind_golds("r25-ir-calls-holdout"),
              **blind_golds("r24-ir-releases-holdout")})
HELD_BACK_FILES = [IR / "CRM" / "CRM_2024Q1_RELEASE.pdf", IR / "C" / "C_2023Q3_CALL.pdf", IR / "DB" / "DB_2023Q4_CALL.pdf",
                   IR / "MSFT" / "MSFT_2023Q3_CALL.pdf"]


@pytest.fixture(scope="module")
def held_back_engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round25-held-back", RELEASES + HELD_BACK_FILES,
                         f"ir-dev files not found under {IR}")


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", HELD_BACK_MISSES)
def test_round_25_held_back_classes_are_answered(held_back_engine, qid, cls):
    outcome, answer = judged_blind(held_back_engine, GOLDS[qid])
    assert outcome == "correct", f"{cls}: {answer.answer[:300]}"


DEV_MISSES = [
    ("w68-038", "'revenue from European users ... April-June 2025 compared with April-June 2024': 24.0% (it had stated "
                "total revenue's 21.6%)"),
    ("w68-040", "'between the January-March 2022 quarter and the July-September 2025 quarter': 83.6%"),
    ("w68-030", "'Family of Apps operating margin (segment operating income divided by segment revenue) in the "
                "July-September 2024 quarter': 54.0%"),
    ("w68-021", "'the October to December 2022 quarter with the January to March 2023 quarter': -16.6%"),
    ("w68-028", "'revenue ... expecting for the October through December 2024 quarter ... midpoint': $46.5 billion"),
    ("w68-002", "'COST FY23 YTD (36 wks thru 3Q) membership fee rev, $m': 3,071 (it had stated the deferred balance)"),
    ("w68-009", "'eBay total GMV q/q chg, Q2'23 vs Q1'23, % to 1dp': -1.1% (it had stated Q4 2022 to Q1 2023)"),
    ("w68-004", "'merch margin = (net sales - merch costs)/net sales, %?': 10.32%"),
    ("w68-014", "'Asia Pacific revenue grow versus the same three months of 2022': 20.4%"),
    ("w68-020", "'Intel CCG notebook rev y/y, Q1'23 (%, 1dp)': -42.8%"),
    ("w68-012", "'CRM Q2 FY24 Data (Tableau + MuleSoft) subscription & support rev ($m)': 1,186 (the products an aside)"),
    ("w68-036", "'What would net income have been without that one-time charge' for the July to September 2025 quarter, of "
                "a deck that dates no quarter: $18.64 billion"),
    ("w67-006", "'which executive gave the credit-quality remarks after the CFO': Ajai Bambawale"),
    ("w67-007", "'who handed off to slootman at the start': Jimmy Sexton"),
    ("w67-017", "'last analyst to ask a q on jpm's july 2023 call?': Charles W. Peabody alone"),
    ("w67-022", "'the last analyst ... and which Snowflake executive answered him?': Bracelin and Kleinerman"),
    ("w67-024", "'What did Sewing tell the Goldman analyst about share buybacks': his replies to Chris Hallam"),
    ("w67-036", "'td cfo on share repurchses q3 fy24': Kelvin Tran's remarks (it had read operating cash flow)"),
    ("w67-039", "'Susan Li's headcount comments in the prepared remarks compare with ... the Q&A': both sections"),
    ("w67-040", "'What did Giulia Miotto ask about ..., and who answered her?': her question and von Moltke's reply"),
    ("w67-042", "'Snowflake's CFO on hiring plans across the four calls (Q4 FY22 through Q3 FY23)': one per call"),
    ("w52-006", "'Bharat welcomed two execs joining the call for the first time. who were they + titles?': Sona Mehta "
                "and Paul Clark, his title as the welcome prints it (round 21's dev)"),
    ("w67-026", "'Did Zuck concede ... that shareholders might not like how fast Meta is spending': Zuckerberg's reply"),
]
"""Round 25's dev misses (w67, w68) fixed as classes."""


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", DEV_MISSES)
def test_round_25_classes_are_answered(engine, qid, cls):
    outcome, answer = judged_blind(engine, GOLDS[qid])
    assert outcome == "correct", f"{cls}: {answer.answer[:300]}"
