"""Issue 26, decks: a rate the company prints each quarter ("Ad Impressions Delivered YoY Percentage Change:
Worldwide") compared between two quarters in points is the difference of the two printed rates, never a growth
computed from amounts; the row is the one the question names, and two rows it names equally give no answer."""

from __future__ import annotations

import pymupdf

from tests.conftest import searchable_pdfs
from vera_core.answer.figures.printed_rate import rate_change_periods, rate_row
from vera_core.query import QueryEngine
from vera_core.records import GridCell, Period, TableGrid


def _deck() -> bytes:
    """One landscape slide: a table of quarterly rates, worldwide and by region."""
    doc = pymupdf.open()
    page = doc.new_page(width=792, height=612)
    page.insert_text((60, 60), "Falcon Holdings Second Quarter 2024 Results", fontsize=18, fontname="hebo")
    quarters = ["Q4'23", "Q1'24", "Q2'24", "Q3'24"]
    for k, q in enumerate(quarters):
        page.insert_text((420 + 80 * k, 120), q, fontsize=11, fontname="helv")
    rows = [("Ad Impressions YoY Percentage Change: Worldwide", ["21%", "20%", "10%", "7%"]),
            ("Ad Impressions YoY Percentage Change: Europe", ["18%", "15%", "9%", "4%"]),
            ("Average Price Per Ad YoY Percentage Change: Worldwide", ["2%", "6%", "10%", "11%"])]
    for r, (label, values) in enumerate(rows):
        y = 150 + 30 * r
        page.insert_text((60, y), label, fontsize=11, fontname="helv")
        for k, v in enumerate(values):
            page.insert_text((420 + 80 * k, y), v, fontsize=11, fontname="helv")
    return doc.tobytes()


def test_a_printed_rate_moves_between_two_quarters_in_points(tmp_path, tmp_path_factory):
    path = tmp_path / "falcon_q3_slides.pdf"
    path.write_bytes(_deck())
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-rates", [path]), llm=None)
    answer = engine.answer("Ad impressions growth slowed during 2024. By how many percentage points did Falcon's "
                           "worldwide YoY ad impressions growth change between Q1 2024 and Q3 2024?", docs=[path.name],
                           mode="deterministic")
    assert answer.calculation is not None and answer.calculation.rounded == "-13.0 percentage points", answer.answer
    assert [o.printed for o in answer.calculation.operands] == ["20%", "7%"]
    price = engine.answer("Falcon worldwide avg price per ad growth: Q4 2023 vs Q3 2024. How many points did it move?",
                          docs=[path.name], mode="deterministic")
    assert price.calculation is not None and price.calculation.rounded == "+9.0 percentage points", price.answer


def test_the_rate_asked_must_be_one_row_and_two_quarters():
    q = Period("quarter", "", 2024, 3, 1), Period("quarter", "", 2024, 3, 3)
    assert rate_change_periods("How many points did YoY ad impressions growth move from Q1 2024 to Q3 2024?") == q
    # the later quarter named first ("how many points higher was Q3 than Q1") is not read as a move from Q1
    assert rate_change_periods("How many points did YoY ad impressions growth move from Q3 2024 back to Q1 2024?") is None
    assert rate_change_periods("How did ad impressions change between Q1 2024 and Q3 2024?") is None  # no points
    assert rate_change_periods("By how many points did ad impressions growth change in 2024?") is None  # no quarters

    def grid(*labels: str) -> dict:
        cells = []
        for r, label in enumerate(labels):
            cells += [GridCell(r, 0, label, "", "", label, None),
                      GridCell(r, 1, label, "", "Q1'24", "20%", 20.0, "%", 1.0, "", q[0])]
        return {"d": [TableGrid("t", "parsed", "", "Chart", 1.0, cells=tuple(cells), n_rows=len(labels))]}

    both = grid("Ad Impressions YoY Percentage Change: Worldwide", "Ad Impressions YoY Percentage Change: Europe")
    assert rate_row("worldwide ad impressions growth, Q1 vs Q3 2024, in points", both) == \
        "Ad Impressions YoY Percentage Change: Worldwide"
    assert rate_row("ad impressions growth, Q1 vs Q3 2024, in points", both) is None, "which region is not said"
    assert rate_row("revenue growth, Q1 vs Q3 2024, in points", both) is None
    regions = grid("Ad Impressions YoY Percentage Change: Europe", "Ad Impressions YoY Percentage Change: Asia")
    assert rate_row("ad impressions growth in Europe and Asia, Q1 vs Q3 2024, in points", regions) is None, \
        "two rows fit equally: neither is stated"
    # a qualifier the question puts before the rate word that the row does not print: not that row
    plain = grid("Revenue YoY Percentage Change")
    assert rate_row("organic revenue growth, Q1 vs Q3 2024, in points", plain) is None
    assert rate_row("revenue growth, Q1 vs Q3 2024, in points", plain) == "Revenue YoY Percentage Change"


def test_a_printed_rate_asked_at_one_quarter_is_stated_as_printed(tmp_path, tmp_path_factory):
    """Round 18 (w42-035): "APAC ad impressions growth y/y, Q2 2025 (Meta)" is the deck's own "Ad Impressions Delivered
    YoY Percentage Change: Asia-Pacific" at Q2'25, stated as printed, never a growth computed over the year-ago rate
    (and never read by no answer); a region the question does not say is no row of it."""
    from vera_core.answer.figures.printed_rate import rate_at_period
    path = tmp_path / "falcon_q3_slides.pdf"
    path.write_bytes(_deck())
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-rate-at", [path]), llm=None)
    answer = engine.answer("Europe ad impressions growth y/y, Q2 2024 (Falcon)", docs=[path.name], mode="deterministic")
    assert answer.intent.rule == "figure:printed-rate", answer.intent.rule
    assert [f.printed for f in answer.figures] == ["9%"] and answer.calculation is None, answer.answer
    vague = engine.answer("ad impressions growth y/y, Q2 2024", docs=[path.name], mode="deterministic")
    assert vague.intent.rule != "figure:printed-rate" and not vague.figures, vague.answer
    assert rate_at_period("By how many points did YoY ad impressions growth change in Q2 2024?") is None
    assert rate_at_period("ad impressions growth y/y, Q1 vs Q2 2024") is None
