"""The intent router and document scope: what kind of question, which pages, which documents, what to search."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vera_core.errors import DocumentNotFoundError
from vera_core.records import DocumentRecord
from vera_core.retrieve.doc_scope import resolve_scope
from vera_core.retrieve.router import route

NAMES = ["3M_2018_10K.pdf", "3M_2022_10K.pdf", "AMERICANEXPRESS_2022_10K.pdf", "PEPSICO_2021_10K.pdf",
         "PEPSICO_2022_10K.pdf", "PEPSICO_2023Q1_EARNINGS.pdf", "PEPSICO_2023_8K_dated-2023-05-05.pdf",
         "Aurora_Annual_Report_2024.pdf", "information_security_policy.md"]


def _doc(name: str, doc_id: str | None = None) -> DocumentRecord:
    return DocumentRecord(
        doc_id=doc_id or hashlib.sha256(name.encode()).hexdigest()[:16], name=name,
        format="markdown" if name.endswith(".md") else "pdf", sha256="0" * 64, pages=10, size_bytes=1000,
        status="ready", metadata={}, parser_version="test", chunk_count=1, table_count=0,
        created_at="2025-01-01T00:00:00+00:00", ready_at="2025-01-01T00:00:00+00:00")


DOCS = [_doc(n) for n in NAMES]
ID = {d.stem: d.doc_id for d in DOCS}
STEM = {d.doc_id: d.stem for d in DOCS}


def _family(rule: str) -> str:
    return rule.split(":")[0]


# -- location ---------------------------------------------------------------------------------------

LOCATION = [  # (question, pages, coverage subtype)
    ("What does page 22 say about goodwill?", [22], None),
    ("What is on p. 22?", [22], None),
    ("Explain the chart on p.22", [22], None),
    ("Explain the table on pp. 3-5.", [3, 4, 5], None),
    ("Compare pages 3 to 5 of the report.", [3, 4, 5], None),
    ("What is discussed on pages 10 through 12?", [10, 11, 12], None),
    ("What do pages 4 and 7 say about leases?", [4, 7], None),
    ("Read pages 4, 7 and 9 and tell me about risk.", [4, 7, 9], None),
    ("Summarize pages 18 & 19.", [18, 19], None),
    ("What is shown on page 5?", [5], None),
    ("Check page no. 7.", [7], None),
    ("What does page twenty-two cover?", [22], None),
    ("Read page one.", [1], None),
    ("Where on page 10 is the auditor named?", [10], None),
    ("What is the reporting currency shown on page 2?", [2], None),  # location outranks metadata
    ("List all items on page 4.", [4], "list"),
    ("List all risks on pp. 3-5 with their amounts.", [3, 4, 5], "numeric_list"),
    ("Which note on page 40 discusses leases?", [40], "pointer"),
]


@pytest.mark.parametrize(("question", "pages", "subtype"), LOCATION)
def test_location_questions_name_their_pages(question, pages, subtype):
    intent = route(question)
    assert (intent.type, intent.subtype, intent.pages) == ("location", subtype, pages)
    assert _family(intent.rule) == "location"


def test_location_rule_says_whether_one_page_a_range_or_a_list_was_named():
    assert route("What is on page 5?").rule == "location:page-number"
    assert route("What is on pp. 5-6?").rule == "location:page-range"
    assert route("What is on pages 5 and 9?").rule == "location:page-list"


NOT_LOCATION = [
    "What is the page count of the report?",
    "Who wrote the 22-page report?",
    "Was this front page news?",
    "What is on the home page of the website?",
    "How many pages does the report have?",
    "Is there a one-page summary?",
    "Which page discusses the share buyback?",  # a pointer: no page is named
]


@pytest.mark.parametrize("question", NOT_LOCATION)
def test_page_words_without_a_page_number_are_not_location(question):
    intent = route(question)
    assert intent.type != "location" and intent.pages == []


def test_a_year_after_a_page_list_is_not_a_page():
    assert route("What does page 5 and the 2022 outlook say about margins?").pages == [5]


# -- metadata ---------------------------------------------------------------------------------------

METADATA = [
    ("What currency are the statements presented in?", "default_currency"),
    ("What is the reporting currency?", "default_currency"),
    ("What is the presentation currency of the group?", "default_currency"),
    ("What is the functional currency of the parent company?", "default_currency"),
    ("In which currency are the figures reported?", "default_currency"),
    ("Which currency does Aurora use for its financial statements?", "default_currency"),
    ("What period does the report cover?", "reporting_period"),
    ("When does the fiscal year end?", "reporting_period"),
    ("What is the reporting period of these accounts?", "reporting_period"),
    ("What financial year does this annual report relate to?", "reporting_period"),
    ("What is the company's fiscal year-end?", "reporting_period"),
    ("What is the balance sheet date?", "reporting_period"),
    ("Are the statements prepared under IFRS or US GAAP?", "accounting_framework"),
    ("Which accounting framework is used?", "accounting_framework"),
    ("Which accounting standards does the company follow?", "accounting_framework"),
    ("Are the financial statements prepared under which GAAP?", "accounting_framework"),
    ("Does the company report under IFRS?", "accounting_framework"),
    ("What is the basis of preparation?", "accounting_framework"),
    ("Are amounts in thousands or millions?", "units"),
    ("What units are the figures presented in?", "units"),
    ("What is the unit of measure of the figures in the tables?", "units"),
    ("Are the amounts in the tables expressed in millions?", "units"),
    ("Are figures rounded to the nearest thousand?", "units"),
    ("Are these statements consolidated or standalone?", "consolidation_basis"),
    ("What is the basis of consolidation?", "consolidation_basis"),
    ("What entities are consolidated?", "consolidation_basis"),
    ("Which subsidiaries are included in the consolidated financial statements?", "consolidation_basis"),
    ("What is the scope of consolidation?", "consolidation_basis"),
    ("Please list the reporting currency.", "default_currency"),  # metadata outranks coverage
]


@pytest.mark.parametrize(("question", "fact"), METADATA)
def test_metadata_questions_name_the_fact(question, fact):
    intent = route(question)
    assert (intent.type, intent.subtype, intent.pages, intent.numeric) == ("metadata", fact, [], False)
    assert _family(intent.rule) == "metadata"


NOT_METADATA = [
    "What are the foreign currency risks?",
    "What is the company's currency exposure?",
    "What was the impact of currency translation on sales?",
    "Which currency had the biggest impact on reported sales?",
    "What currency is the debt denominated in?",
    "How many units were sold in 2024?",
    "What are the business units?",
    "What are the reporting segments?",
    "What was period-over-period growth in revenue?",
    "What new accounting standards were adopted in 2024?",
    "What GAAP measures are reconciled?",
    "What is non-GAAP EPS?",
    "What was revenue for the reporting period?",
    "What was net debt at fiscal year end?",
    "What was consolidated revenue?",
    "What is the FY2022 operating income (in USD millions)?",
]


@pytest.mark.parametrize("question", NOT_METADATA)
def test_currency_period_and_unit_words_about_the_business_are_semantic(question):
    intent = route(question)
    assert (intent.type, intent.subtype) in (("semantic", None), ("figure", None))  # a line item's figure is not a fact
    assert _family(intent.rule) == intent.type


# -- coverage ---------------------------------------------------------------------------------------

COVERAGE = [
    ("List all significant events in the MD&A", "list"),
    ("List the risk factors.", "list"),
    ("Please list the subsidiaries of the company.", "list"),
    ("Can you list the key audit matters?", "list"),
    ("What are all the reportable segments?", "list"),
    ("Which were all the acquisitions made in 2024?", "list"),
    ("Enumerate the principal risks.", "list"),
    ("Itemize the components of other comprehensive income.", "list"),
    ("Summarize section 7.", "list"),
    ("Summarise the section on liquidity.", "list"),
    ("Could you summarize the risk factors section?", "list"),
    ("Give me every covenant in the credit agreement.", "list"),
    ("Name all directors of the board.", "list"),
    ("Show me all the material contracts.", "list"),
    ("All significant events after the reporting date?", "list"),
    ("What is the aggregate range of reasonably possible losses?", "attribute"),
    ("What is the range of loss for the patent litigation?", "attribute"),
    ("Between what amounts is the contingent liability estimated?", "attribute"),
    ("Between what values could the earn-out payment fall?", "attribute"),
    ("What is the estimated range of possible loss for legal matters?", "attribute"),
    ("What is the EPS guidance range for 2025?", "attribute"),
    ("What is the target range for the leverage ratio?", "attribute"),
    ("What is the expected range for capital expenditures next year?", "attribute"),
    ("What are the minimum and maximum amounts payable under the contract?", "attribute"),
    ("Give the low and high ends of the estimated legal exposure.", "attribute"),
    ("What is the lower and upper bound of the estimated settlement?", "attribute"),
    ("What is the reasonably possible loss in excess of the accrual?", "attribute"),
    ("What is the range of potential outcomes for the tax dispute?", "attribute"),
    ("What are the items of note affecting net income and their aggregate impact?", "numeric_list"),
    ("List the restructuring charges with their amounts.", "numeric_list"),
    ("What were the impairment charges along with their respective amounts?", "numeric_list"),
    ("List the goodwill impairments by segment with their respective amounts.", "numeric_list"),
    ("Show the one-time items and their effect on operating income.", "numeric_list"),
    ("Which acquisitions were completed in 2024, together with their purchase prices?", "numeric_list"),
    ("Enumerate the non-recurring gains with their values.", "numeric_list"),
    ("Give each acquisition and its purchase price.", "numeric_list"),
    ("List each litigation matter and the amount accrued.", "numeric_list"),
    ("What are the amounts of each share repurchase program?", "numeric_list"),
    ("What was the amount of each impairment recorded in 2024?", "numeric_list"),
    ("How much did each cost-saving initiative contribute?", "numeric_list"),
    ("What special items affected EPS and what was the impact of each?", "numeric_list"),
    ("Where can I find the lease disclosures?", "pointer"),
    ("Where could we locate the segment reconciliation?", "pointer"),
    ("Which note discusses income taxes?", "pointer"),
    ("Which section covers cybersecurity?", "pointer"),
    ("What page describes the share buyback?", "pointer"),
    ("Which table shows revenue by region?", "pointer"),
    ("Where is revenue recognition described?", "pointer"),
    ("In which section is goodwill discussed?", "pointer"),
    ("In which note are the leases presented?", "pointer"),
    ("Where is the information on pension plans?", "pointer"),
    ("Where are the details about the credit facility?", "pointer"),
    ("Where in the report is the dividend policy?", "pointer"),
    ("Where does the policy mention passwords?", "pointer"),
    ("Where does the company disclose its legal proceedings?", "pointer"),
]


@pytest.mark.parametrize(("question", "subtype"), COVERAGE)
def test_coverage_questions_get_their_subtype(question, subtype):
    intent = route(question)
    assert (intent.type, intent.subtype, intent.pages) == ("coverage", subtype, [])
    assert intent.rule.startswith(f"coverage:{subtype}:")


@pytest.mark.parametrize("subtype", ["list", "attribute", "numeric_list", "pointer"])
def test_every_coverage_subtype_has_a_dozen_phrasings(subtype):
    assert sum(s == subtype for _, s in COVERAGE) >= 12


def test_numeric_spans_and_item_amounts_are_numeric_but_pointers_are_not():
    assert route("What is the range of loss for the litigation?").numeric
    assert route("List the restructuring charges with their amounts.").numeric
    assert not route("Where is the revenue recognition policy described?").numeric


NOT_COVERAGE = [
    "What is the list price of the product?",
    "Is there a price list?",
    "How many listed companies are in the index?",
    "What is listed on the NYSE?",
    "Which securities are listed on the exchange?",
    "Where is the company headquartered?",
    "Where does the company operate?",
    "Where are the main factories?",
    "Where was revenue highest?",
    "Which segment grew fastest?",
    "Which items are included in other income?",
    "Which part of the world generates most sales?",
    "What is the range of products offered?",
    "What is the company's product range?",
    "Are all major customers in the US?",
    "Describe the company's strategy.",
]


@pytest.mark.parametrize("question", NOT_COVERAGE)
def test_list_range_and_where_words_that_ask_about_the_world_are_semantic(question):
    intent = route(question)
    assert (intent.type, intent.subtype) == ("semantic", None)
    assert _family(intent.rule) == "semantic"


# -- semantic ---------------------------------------------------------------------------------------

SEMANTIC = [  # (question, numeric)
    ("What was revenue in 2024?", True),
    ("How much did operating income grow year-over-year?", True),
    ("What is diluted EPS?", True),
    ("What was the dividend per share?", True),
    ("What is the YoY growth rate of sales?", True),
    ("What was the free cash flow in USD millions?", True),
    ("Did the company spend more than $5 million on R&D?", True),
    ("What is the debt-to-equity ratio?", True),
    ("What is the gross margin in %?", True),
    ("What was capex in the last fiscal year?", True),
    ("How did EBITDA develop?", True),
    ("What was net income attributable to shareholders?", True),
    ("Who is the CEO?", False),
    ("Describe the company's strategy.", False),
    ("What are the main risks of the business?", False),
    ("Is 3M a capital-intensive business?", False),  # "3M" is a company, not 3 million
    ("Was the auditor's opinion qualified?", False),
    ("What does the policy require for password rotation?", False),
]


@pytest.mark.parametrize(("question", "numeric"), SEMANTIC)
def test_semantic_questions_flag_amounts_and_kpis(question, numeric):
    intent = route(question)
    if intent.type == "figure":  # the printed figure of a named line item
        assert numeric and (intent.rule, intent.numeric, intent.pages) == ("figure:line-item", True, [])
        return
    if intent.type == "metric":  # a library metric (vera_core/data/metrics.md), or a change the text states, computed
        assert numeric and intent.rule in ("metric:library", "metric:text") and intent.numeric
        return
    assert (intent.type, intent.subtype, intent.pages, intent.numeric) == ("semantic", None, [], numeric)
    assert intent.rule == ("semantic:numeric-kpi" if numeric else "semantic:default")


def test_long_analyst_prompt_is_a_figure_question_scoped_to_its_filing():
    question = ("What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the "
                "question by relying on the details shown in the cash flow statement.")
    intent = route(question, DOCS)
    assert (intent.type, intent.rule, intent.numeric) == ("figure", "figure:line-item", True)
    assert intent.doc_scope == [ID["3M_2018_10K"]]
    assert intent.focus == "FY2018 capital expenditure amount cash flow statement"


# -- focus ------------------------------------------------------------------------------------------

FOCUS = [
    ("What does page 22 say about goodwill?", "goodwill"),
    ("List all significant events in the MD&A", "significant events MD&A"),
    ("Which note discusses income taxes?", "income taxes"),
    ("Where can I find the lease disclosures?", "lease disclosures"),
    ("Summarize section 7.", "section 7"),
    ("Summarise the section on liquidity.", "liquidity"),
    ("List the restructuring charges with their amounts.", "restructuring charges"),
    ("What is the aggregate range of reasonably possible losses?", "aggregate range reasonably possible losses"),
    ("What does the information security policy say about passwords?", "passwords"),
    ("What was 3M's revenue in FY18?", "revenue FY18"),
    ("What does Aurora_Annual_Report_2024.pdf say about revenue?", "revenue"),
    ("Are the statements prepared under IFRS or US GAAP?", "statements prepared under IFRS US GAAP"),
    ("Assume that you are an equity research analyst. Answer the following question by primarily using "
     "information that is shown in the income statement: what is PepsiCo's FY2022 net revenue? Answer in "
     "USD millions.", "income statement FY2022 net revenue"),
]


@pytest.mark.parametrize(("question", "focus"), FOCUS)
def test_focus_keeps_what_to_search_for(question, focus):
    assert route(question, DOCS).focus == focus


# -- document scope ---------------------------------------------------------------------------------

SCOPE = [  # (question, stems, rule)
    ("What does Aurora_Annual_Report_2024.pdf say about revenue?", ["Aurora_Annual_Report_2024"],
     "question:document-name"),
    ("Summarize the 3M 2018 10-K risk factors.", ["3M_2018_10K"], "question:document-name"),
    ("What was revenue in the 3m_2018_10k?", ["3M_2018_10K"], "question:document-name"),
    ("What does the information security policy say about passwords?", ["information_security_policy"],
     "question:document-name"),
    ("What was 3M's revenue in FY18?", ["3M_2018_10K"], "question:company-year"),
    ("What was 3M's revenue in fiscal 2022?", ["3M_2022_10K"], "question:company-year"),
    ("What is PepsiCo's FY2022 net revenue?", ["PEPSICO_2022_10K"], "question:company-year"),
    ("How did Pepsi do in 2021?", ["PEPSICO_2021_10K"], "question:company-year"),
    ("What did AmEx report for 2022?", ["AMERICANEXPRESS_2022_10K"], "question:company-year"),
    ("Did American Express' card member loans grow in FY2022?", ["AMERICANEXPRESS_2022_10K"],
     "question:company-year"),
    ("What is MMM's dividend in 2022?", ["3M_2022_10K"], "question:company-year"),
    ("What was Aurora's revenue in 2024?", ["Aurora_Annual_Report_2024"], "question:company-year"),
    ("What are 3M's main segments?", ["3M_2018_10K", "3M_2022_10K"], "question:company"),
    ("Which legal matters did PepsiCo report in FY2021 and FY2022?", ["PEPSICO_2021_10K", "PEPSICO_2022_10K"],
     "question:company-year"),
    ("What did PepsiCo report in its FY2023Q1 earnings?", ["PEPSICO_2023Q1_EARNINGS"], "question:company-year"),
    ("What did Pepsico disclose in the first quarter of 2023?", ["PEPSICO_2023Q1_EARNINGS"],
     "question:company-year"),
    ("What does PepsiCo's 8-K say about the AGM vote?", ["PEPSICO_2023_8K_dated-2023-05-05"], "question:company"),
    ("What did American Express earn in 2019?", ["AMERICANEXPRESS_2022_10K"], "question:company"),
    ("Compare 3M FY2018 with PepsiCo FY2022.", ["3M_2018_10K", "PEPSICO_2022_10K"], "question:company-year"),
    ("Compare 3M and PepsiCo in FY2022.", ["3M_2022_10K", "PEPSICO_2022_10K"], "question:company-year"),
]


@pytest.mark.parametrize(("question", "stems", "rule"), SCOPE)
def test_documents_named_in_the_question_narrow_the_scope(question, stems, rule):
    doc_ids, fired = resolve_scope(question, DOCS)
    assert ([STEM[i] for i in doc_ids], fired) == (stems, rule)
    assert route(question, DOCS).doc_scope == doc_ids


NO_SCOPE = [
    "What was revenue in 2022?",  # a year alone names no document
    "What were FY2018 capital expenditures?",
    "Did the company pay a $3M fine?",  # an amount, not the company 3M
    "Revenue of 1.3M units in 2018?",
    "What does the security policy say?",  # part of a name is not the name
    "What does the annual report say about risk?",
    "How did Coca-Cola do in 2022?",  # a company with no document
    "Who owns 13M shares?",
]


@pytest.mark.parametrize("question", NO_SCOPE)
def test_questions_that_name_no_document_search_all(question):
    assert resolve_scope(question, DOCS) == ([], "scope:all")


@pytest.mark.parametrize("ref", [ID["PEPSICO_2022_10K"], ID["PEPSICO_2022_10K"][:8], "PEPSICO_2022_10K.pdf",
                                 "pepsico_2022_10k", "PEPSICO_2022_10K"])
def test_explicit_filter_wins_over_the_question(ref):
    doc_ids, rule = resolve_scope("What was 3M's revenue in 2018?", DOCS, [ref])
    assert (doc_ids, rule) == ([ID["PEPSICO_2022_10K"]], "filter:explicit")
    assert route("What was 3M's revenue in 2018?", DOCS, [ref]).doc_scope == doc_ids


def test_filter_of_several_entries_keeps_catalog_order():
    doc_ids, _ = resolve_scope("anything", DOCS, ["information_security_policy", ID["3M_2018_10K"][:6]])
    assert doc_ids == [ID["3M_2018_10K"], ID["information_security_policy"]]


def test_unknown_filter_names_itself_and_the_known_documents():
    with pytest.raises(DocumentNotFoundError) as err:
        route("What was revenue?", DOCS, ["Globex_2024_10K"])
    assert "'Globex_2024_10K'" in str(err.value)
    assert "3M_2018_10K.pdf" in str(err.value) and "information_security_policy.md" in str(err.value)


def test_unknown_filter_with_no_documents_says_how_to_add_some():
    with pytest.raises(DocumentNotFoundError, match="vera ingest"):
        resolve_scope("What was revenue?", [], ["anything"])


def test_ambiguous_id_prefix_asks_for_the_full_id():
    docs = [_doc("a.pdf", "abcdef0000000001"), _doc("b.pdf", "abcdef0000000002")]
    with pytest.raises(DocumentNotFoundError, match="several documents.*a.pdf.*b.pdf"):
        resolve_scope("q", docs, ["abcdef"])


def test_short_id_prefix_is_not_a_reference():
    with pytest.raises(DocumentNotFoundError, match="'abc'"):
        resolve_scope("q", [_doc("a.pdf", "abcdef0000000001")], ["abc"])


# -- invariants -------------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_routes_to_a_consistent_intent(text):
    intent = route(text, DOCS)
    assert _family(intent.rule) == intent.type
    assert intent.pages == sorted(set(intent.pages)) and all(p >= 1 for p in intent.pages)
    assert set(intent.doc_scope) <= set(ID.values())
    assert route(text, DOCS) == intent


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 999), min_size=1, max_size=5, unique=True))
def test_any_list_of_pages_is_read_back(pages):
    listed = ", ".join(map(str, pages[:-1])) + (" and " if len(pages) > 1 else "") + str(pages[-1])
    intent = route(f"What do pages {listed} say about leases?")
    assert (intent.type, intent.pages, intent.focus) == ("location", sorted(pages), "leases")


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 900), st.integers(0, 60), st.sampled_from(["pp. {}-{}", "pages {} to {}", "p.{}-{}"]))
def test_any_page_range_expands(start, length, form):
    assert route("Summarize " + form.format(start, start + length)).pages == list(range(start, start + length + 1))


def test_a_one_word_file_name_counts_only_with_its_extension():
    docs = [*DOCS, _doc("contract.pdf")]
    assert resolve_scope("What does the contract say about termination?", docs) == ([], "scope:all")
    assert resolve_scope("What does contract.pdf say about termination?", docs) == (
        [docs[-1].doc_id], "question:document-name")


def test_blank_filter_entries_fall_back_to_the_question():
    assert resolve_scope("What was 3M's capex in FY2018?", DOCS, ["", "  "]) == (
        [ID["3M_2018_10K"]], "question:company-year")


def test_a_company_is_named_as_its_identity_prints_it_and_a_ticker_only_in_capitals():
    """A store of IR files named by ticker: "Costco" names COST_... (its identity's company), "COST" names it too, but
    "cost of sales" names no company; "Intel" names INTC_... ."""
    from dataclasses import replace
    cost = replace(_doc("COST_2023Q1_RELEASE.pdf"), identity={"company": "Costco Wholesale Corporation"})
    intc = replace(_doc("INTC_2022Q4_RELEASE.pdf"), identity={"company": "Intel"})
    amex = replace(_doc("AMERICANEXPRESS_2022_10K.pdf"), identity={"company": "American Express Company"})
    docs = [cost, intc, amex]
    assert resolve_scope("Costco net income Q1 FY23", docs)[0] == [cost.doc_id]
    assert resolve_scope("COST net sales Q1 FY23", docs)[0] == [cost.doc_id]
    assert resolve_scope("What was Intel's cost of sales in Q4 2022?", docs)[0] == [intc.doc_id]
    assert resolve_scope("What was the cost of sales in 2022?", docs) == ([], "scope:all")
    assert resolve_scope("What did American Express report?", docs)[0] == [amex.doc_id]
    assert resolve_scope("What did American Airlines report?", docs) == ([], "scope:all")  # "american" alone: no one
