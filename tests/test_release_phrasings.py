"""Issue 26, releases: ways analysts ask for a quarter's change that the metric reader had misread.

- "grow year over year": the 'over' of "year over year" divides nothing (it had read "revenue growth year / year");
- "as reported (not constant currency)", "using the Q4 deck", "from the deck": the basis and the source, not the item;
- "Family of Apps operating income": a capitalised name with "of" inside it is not "X of <company>";
- "U.S. GMV": an abbreviation's full stop does not end the question;
- "how much did X decline year over year", "how did X change sequentially, in percent": a rate;
- "DCAI revenue": a short name the document defines ("Data Center and AI (DCAI)") is read as its long name, and the
  answer says so."""

from __future__ import annotations

from tests.conftest import searchable_pdfs
from tests.made_pdfs import release_pdf
from vera_core.answer.figures.gates import period_matches
from vera_core.query import QueryEngine
from vera_core.questions.defined_terms import defined_acronyms, spelled_out
from vera_core.questions.metric import read_plan
from vera_core.records import Period


def _quarters(plan):
    return [(p.kind, p.year, p.quarter) for p in plan.periods]


def test_year_over_year_is_a_growth_not_a_division():
    plan = read_plan("By what percentage did Meta's Reality Labs revenue grow year over year in Q3 2024? Round to one decimal.")
    assert plan.name == "Revenue growth" and plan.unit == "percent" and plan.digits == 1
    assert plan.definition == "(revenue - prior(revenue)) / prior(revenue)" and "labs" in plan.qualifier.words


def test_the_basis_and_the_source_are_not_the_item():
    reported = read_plan("Y/Y growth in Salesforce's Data subscription and support revenue in Q2 FY24, as reported "
                         "(not constant currency)?")
    assert reported.name == "Data subscription and support revenue growth", reported.name
    deck = read_plan("Sequential growth in Meta's Family of Apps operating income from 3Q24 to 4Q24, using the Q4 deck?")
    assert deck.name == "Family of Apps operating income growth", deck.name
    assert _quarters(deck) == [("quarter", 2024, 3), ("quarter", 2024, 4)]


def test_a_rate_asked_without_the_word_growth():
    sequential = read_plan("From eBay's Q2 2023 release, how did U.S. GMV change sequentially versus Q1 2023, in percent?")
    assert sequential.name == "U.S. GMV growth" and sequential.unit == "percent"
    assert _quarters(sequential) == [("quarter", 2023, 1), ("quarter", 2023, 2)]
    decline = read_plan("How much did Intel's DCAI revenue decline year over year in Q1 2023 (one decimal)?")
    assert decline.name == "Revenue growth" and decline.unit == "percent" and decline.digits == 1
    assert read_plan("How much did revenue decline year over year in Q1 2023, in $ millions?") is None or \
        read_plan("How much did revenue decline year over year in Q1 2023, in $ millions?").unit != "percent"
    assert read_plan("How did the operating margin change in Q2 2023?").direction  # a direction, as before


def test_a_pasted_yoy_percent_and_a_whats_typed_without_its_apostrophe():
    """Notes typed fast: "capex yoy % in 1Q25", "whats the yoy growth in capex in Q1 2025?" ask the growth."""
    pasted = read_plan("capex yoy % in 1Q25")
    assert pasted is not None and pasted.over == "growth" and pasted.unit == "percent", pasted
    assert _quarters(pasted)[-1] == ("quarter", 2025, 1)
    typed = read_plan("whats the yoy growth in capex in Q1 2025?")
    assert typed is not None and typed.over == "growth" and "capex" in typed.name.lower(), typed

def test_a_document_defines_its_short_names():
    text = ["Intel reorganized into Client Computing Group (CCG) and Data Center and AI (DCAI). The Securities Act "
            "of 1933 (the Act) applies. Shares trade on Nasdaq (INTC)."]
    assert defined_acronyms(text) == {"CCG": "Client Computing Group", "DCAI": "Data Center and AI"}
    question, used = spelled_out("What was DCAI revenue in Q1 2023?", defined_acronyms(text))
    assert question == "What was Data Center and AI (DCAI) revenue in Q1 2023?" and used == {"DCAI": "Data Center and AI"}
    assert spelled_out("What was Data Center and AI (DCAI) revenue?", defined_acronyms(text))[1] == {}


def test_a_short_name_with_a_small_letter_and_one_opening_a_parenthesis():
    """Meta defines "Family of Apps (FoA)": "FoA" writes the initial of "of" small. An analyst's formula in parentheses
    ("(FoA op income / FoA revenue)") asks the short name too."""
    acronyms = defined_acronyms(["We report two segments: Family of Apps (FoA) and Reality Labs (RL). FoA includes"])
    assert acronyms == {"FoA": "Family of Apps", "RL": "Reality Labs"}
    question, used = spelled_out("FoA operating margin Q3 2024 (FoA op income / FoA revenue), 1 dp", acronyms)
    # NOTE: inside the formula's parenthesis the long name alone (a parenthesis in it would end the formula)
    assert question == ("Family of Apps (FoA) operating margin Q3 2024 (Family of Apps op income / Family of Apps "
                        "revenue), 1 dp") and used == {"FoA": "Family of Apps"}
    both = spelled_out("Family of Apps operating margin in Q3 2025 (FoA operating income divided by FoA revenue)?",
                       acronyms)[0]  # the long name printed once does not leave the formula's short names unread
    assert both == ("Family of Apps operating margin in Q3 2025 (Family of Apps operating income divided by "
                    "Family of Apps revenue)?"), both
    assert defined_acronyms(["Our PayPal (PayPal) wallet"]) == {}  # initials that do not fit define nothing


def test_a_segment_asked_by_its_short_name_is_read_from_its_row(tmp_path, tmp_path_factory):
    path = tmp_path / "falcon_q2_release.pdf"
    path.write_bytes(release_pdf(2, "June 30", [("Cloud Platforms", "3,718", "6,074"), ("Devices", "1,489", "2,139"),
                                                ("Total net revenue", "5,207", "8,213")], [("Net income", "300", "250")],
                                 summary="Cloud Platforms (CP) revenue fell as customers digested inventory.",
                                 table_title="Net Revenue by Operating Segment"))
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-segments", [path]), llm=None)
    answer = engine.answer("By what percentage did Falcon's CP revenue decline year over year in Q2 2023?",
                           docs=[path.name], mode="deterministic")
    assert answer.calculation is not None and answer.calculation.rounded == "-38.8%", answer.answer  # 3,718 / 6,074 - 1
    assert [o.printed for o in answer.calculation.operands] == ["3,718", "6,074"]
    assert 'Read CP as \\"Cloud Platforms\\"' in answer.model_dump_json(), answer.answer  # said, never silent


def test_a_quarter_named_by_its_month_and_an_adjusted_measure_set_aside():
    from vera_core.finance.line_items import asks_non_gaap
    from vera_core.questions.figure import asked_periods
    assert asked_periods("GAAP EPS in the July quarter of FY24?")[0] == [Period("fiscal_months", "--07", 2024, 3)]
    assert asked_periods("GAAP EPS in the July 2023 quarter?")[0] == [Period("months", "2023-07", 2023, 3)]
    assert not asks_non_gaap("What was GAAP diluted EPS in Q2? I don't want the non-GAAP number.")
    assert not asks_non_gaap("GAAP operating margin, not the adjusted one")
    assert asks_non_gaap("What was non-GAAP diluted EPS in Q2?")
    july = Period("months", "2023-07-31", 2023, 3)
    assert period_matches(Period("fiscal_months", "--07", 2024, 3), july, year_end_month=1)  # Salesforce's FY24 Q2
    assert not period_matches(Period("fiscal_months", "--07", 2024, 3), july, year_end_month=12)
    assert not period_matches(Period("fiscal_months", "--07", 2024, 3), Period("months", "2023-07-31", 2023, 6), 1)


def test_a_release_answers_the_month_named_quarter(tmp_path, tmp_path_factory):
    path = tmp_path / "falcon_q2_release.pdf"
    path.write_bytes(release_pdf(2, "June 30", [("Net cash provided by operating activities", "605", "500"),
                                                ("Free cash flow", "480", "410")], [("Net income", "300", "250")]))
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-month-quarter", [path]), llm=None)
    this_year = engine.answer("What was Falcon's free cash flow in the June 2023 quarter?", docs=[path.name],
                              mode="deterministic")
    assert [f.printed for f in this_year.figures] == ["480"], this_year.answer
    year_ago = engine.answer("What was Falcon's free cash flow in the June quarter of fiscal 2022?", docs=[path.name],
                             mode="deterministic")
    assert [f.printed for f in year_ago.figures] == ["410"], year_ago.answer


def test_what_the_filings_sets_asked_reads_as_before():
    """The regression check on the filings sets found these three; each reads as it did before this part."""
    aes = read_plan("what was AES's consolidated free cash flow in 2021, i.e. net cash provided by operating activities "
                    "less capital expenditures, in $ millions?")
    # "i.e." is no abbreviation's stop: the question's own definition after it is the formula
    assert aes.definition == "net cash provided by operating activities less capital expenditures", aes.definition
    uber = read_plan("Uber revenue CAGR from 2019 to 2021, based on the 10-K income statement (%, one decimal)?")
    assert "based on the 10-K income statement" in uber.name and uber.compound, uber.name  # a source naming a statement stays


def test_a_short_name_a_table_prints_is_read_as_printed(tmp_path, tmp_path_factory):
    path = tmp_path / "falcon_q2_release.pdf"
    path.write_bytes(release_pdf(2, "June 30", [("GMV", "18,214", "18,549"), ("Net revenues", "2,540", "2,422")],
                                 [("Net income", "300", "250")],
                                 summary="Gross Merchandise Volume (GMV) was down 2% on an as-reported basis.",
                                 table_title="Supplemental Operating Data"))
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-gmv", [path]), llm=None)
    answer = engine.answer("What was Falcon's GMV in Q2 2023?", docs=[path.name], mode="deterministic")
    assert [f.printed for f in answer.figures] == ["18,214"], answer.answer
    assert "Read GMV as" not in answer.model_dump_json()


def test_an_adjusted_measure_asked_by_its_basis_or_its_short_name_is_read_where_printed(tmp_path, tmp_path_factory):
    """Intel's reconciliation prints "Non-GAAP gross margin" in dollars and, under it, "Non-GAAP gross margin
    percentage": "gross margin on a non-GAAP basis" is the percentage (the words after "non-GAAP" name only the
    basis), and "adjusted FCF" is the row "Adjusted free cash flow" (the library's alias)."""
    path = tmp_path / "falcon_q2_release.pdf"
    path.write_bytes(release_pdf(2, "June 30", [("GAAP gross margin", "5,500", "5,100"),
                                                ("Non-GAAP gross margin", "6,145", "5,900"),
                                                ("GAAP gross margin percentage", "39.2 %", "38.0 %"),
                                                ("Non-GAAP gross margin percentage", "43.8 %", "42.1 %"),
                                                ("Adjusted free cash flow", "(4,075)", "1,200")],
                                 [("Net cash provided by operating activities", "605", "500")],
                                 table_title="Supplemental Reconciliations of GAAP to Non-GAAP Results"))
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-non-gaap", [path]), llm=None)
    margin = engine.answer("Falcon Q2 2023 gross margin on a non-GAAP basis?", docs=[path.name], mode="deterministic")
    assert [f.printed for f in margin.figures] == ["43.8 %"], margin.answer
    fcf = engine.answer("Falcon adjusted FCF for Q2 2023?", docs=[path.name], mode="deterministic")
    assert [f.printed for f in fcf.figures] == ["(4,075)"], fcf.answer


def _segment_release() -> bytes:
    """A release page: "Net revenue:" over "Client Computing" over its lines and a bare sum, then operating income by
    segment, as Intel prints its segment results."""
    import pymupdf
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Falcon Holdings Reports Second Quarter 2023 Results", fontsize=14, fontname="hebo")
    page.insert_text((72, 90), "Supplemental Operating Segment Results", fontsize=10, fontname="helv")
    page.insert_text((340, 110), "Three Months Ended", fontsize=9, fontname="helv")
    page.insert_text((340, 122), "Jul 1, 2023", fontsize=9, fontname="helv")
    page.insert_text((440, 122), "Jul 2, 2022", fontsize=9, fontname="helv")
    page.insert_text((72, 122), "(In Millions)", fontsize=9, fontname="helv")
    lines = [(72, "Net revenue:", None, None), (80, "Client Computing", None, None), (88, "Desktop", "$1,879", "$2,641"),
             (88, "Notebook", "3,407", "5,959"), (88, "Other", "481", "722"), (None, "", "5,767", "9,322"),
             (80, "Data Center and AI", "3,718", "6,074"), (72, "Total net revenue", "$9,485", "$15,396"),
             (72, "Operating income (loss):", None, None), (80, "Client Computing", "$520", "$2,722"),
             (80, "Data Center and AI", "(518)", "1,393"), (72, "Total operating income (loss)", "$2", "$4,115")]
    y = 140
    for x, label, now, before in lines:
        if label:
            page.insert_text((x, y), label, fontsize=9, fontname="helv")
        for at, text in ((350, now), (450, before)):
            if text:
                page.insert_text((at, y), text, fontsize=9, fontname="helv")
        y += 13
    return doc.tobytes()


def test_a_segment_s_margin_divides_by_its_total_printed_without_a_label(tmp_path, tmp_path_factory):
    path = tmp_path / "falcon_segments.pdf"
    path.write_bytes(_segment_release())
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-segment-total", [path]), llm=None)
    answer = engine.answer("What was the Client Computing segment's operating margin in Q2 2023?", docs=[path.name],
                           mode="deterministic")
    assert answer.calculation is not None and answer.calculation.rounded == "9.0%", answer.answer  # 520 / 5,767
    assert [o.printed for o in answer.calculation.operands] == ["$520", "5,767"]


def test_the_line_a_question_quotes_is_the_line_asked(tmp_path, tmp_path_factory):
    """"constant-currency revenue, i.e. the non-GAAP 'revenue excluding foreign exchange effect'": the quoted row is
    the line asked, though it does not print the words "constant currency"; an apostrophe is no quotation mark."""
    from vera_core.questions.figure import quoted_phrases
    assert quoted_phrases("Meta's revenue and the company's 'net income' in 2023?") == ["net income"]
    assert quoted_phrases("McDonald's and Lowe's revenue in 2023?") == []
    path = tmp_path / "falcon_q2_release.pdf"
    path.write_bytes(release_pdf(2, "June 30", [("GAAP revenue", "40,589", "34,146"),
                                                ("Foreign exchange effect on 2023 revenue using 2022 rates", "544", "12"),
                                                ("Revenue excluding foreign exchange effect", "$41,133", "$34,158")],
                                 [("Net income", "300", "250")],
                                 table_title="Reconciliation of GAAP to Non-GAAP Results"))
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-quoted", [path]), llm=None)
    answer = engine.answer("Falcon Q2 2023 constant-currency revenue, i.e. the non-GAAP 'revenue excluding foreign "
                           "exchange effect', in $m?", docs=[path.name], mode="deterministic")
    assert [f.printed for f in answer.figures] == ["$41,133"], answer.answer
    # quoting the item alone does not make the company's line the segment's asked
    segment = engine.answer("What was the Cloud segment's 'net income' in Q2 2023?", docs=[path.name],
                            mode="deterministic")
    assert not segment.figures, segment.answer


def test_a_short_word_and_its_plural_name_one_line():
    """"membership fee revenue" asks Costco's "Membership fees" row: the stemmer keeps short words whole, so the
    label's words read "fees" as "fee" (and "ads" as "ad")."""
    from vera_core.finance.line_items import label_terms
    assert label_terms("Membership fees") == label_terms("membership fee")
    assert label_terms("Ads shown") == label_terms("ad shown")
    assert label_terms("Membership fees") != label_terms("membership")
