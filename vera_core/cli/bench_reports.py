"""Generated annual reports for benchmarks of a store of many documents (`vera bench query --reports N`,
`vera bench ingest --reports N`): fictional companies, each a short PDF with a management discussion,
risk factors and three financial statements whose figures differ per company. Deterministic: the same
N gives the same files. Written into a temporary folder, never into the project."""

from __future__ import annotations

import html
import random
from pathlib import Path

import pymupdf

__all__ = ["write_reports"]

_NAMES = ["Alder", "Birch", "Cedar", "Dunmore", "Elmstead", "Fenwick", "Garnet", "Halden", "Islay", "Juniper",
          "Kestrel", "Larch", "Morrow", "Northgate", "Oakridge", "Pembrook", "Quarry", "Redfern", "Sorrel",
          "Thornbury", "Umber", "Vantage", "Westbrook", "Yarrow", "Zephyr"]
_TRADES = ["Industrial Pumps", "Packaging", "Logistics", "Medical Devices", "Specialty Chemicals", "Software",
           "Building Materials", "Food Ingredients", "Electrical Components", "Retail"]
_RISKS = [
    ("Demand cycles", "Customers delay orders when their own markets weaken, which reduces volumes and margins."),
    ("Input costs", "Prices of raw materials and energy can rise faster than prices can be passed on."),
    ("Cyber security", "An attack on production or finance systems could interrupt operations and expose data."),
    ("Currency", "A large share of revenue is earned in currencies other than the presentation currency."),
    ("Key suppliers", "Several components come from single suppliers; a failure could halt deliveries."),
    ("Regulation", "Changes in product, environmental or tax rules could raise costs or limit sales."),
]
_PAGE = pymupdf.Rect(0, 0, 595, 842)
_BODY = pymupdf.Rect(56, 56, 539, 786)


def _money(n: int) -> str:
    return f"({-n:,})" if n < 0 else f"{n:,}"


def _table(title: str, years: tuple[int, int], rows: list[tuple[str, int, int]]) -> str:
    body = "".join(f"<tr><td>{html.escape(label)}</td><td align='right'>{_money(a)}</td>"
                   f"<td align='right'>{_money(b)}</td></tr>" for label, a, b in rows)
    return (f"<h3>{html.escape(title)}</h3><p><i>In thousands of US dollars</i></p>"
            f"<table width='100%'><tr><th align='left'></th><th align='right'>{years[0]}</th>"
            f"<th align='right'>{years[1]}</th></tr>{body}</table>")


def _report(index: int) -> tuple[str, list[str]]:
    """File name and HTML pages of report `index`."""
    rng = random.Random(index)
    name = f"{_NAMES[index % len(_NAMES)]} {_TRADES[(index // len(_NAMES) + index) % len(_TRADES)]}"
    company = f"{name} Inc."
    year = 2019 + index % 5
    years = (year, year - 1)
    revenue = [rng.randrange(200_000, 2_000_000) for _ in years]
    cost = [int(r * rng.uniform(0.55, 0.7)) for r in revenue]
    opex = [int(r * rng.uniform(0.12, 0.2)) for r in revenue]
    tax = [int((r - c - o) * 0.24) for r, c, o in zip(revenue, cost, opex)]
    net = [r - c - o - t for r, c, o, t in zip(revenue, cost, opex, tax)]
    ppe = [int(r * rng.uniform(0.3, 0.6)) for r in revenue]
    cash = [rng.randrange(20_000, 300_000) for _ in years]
    debt = [rng.randrange(50_000, 600_000) for _ in years]
    capex = [-int(p * rng.uniform(0.08, 0.15)) for p in ppe]
    growth = (revenue[0] - revenue[1]) / revenue[1] * 100
    pages = [
        f"<h1>{html.escape(company)}</h1><h2>Annual Report {year}</h2>"
        f"<p>This annual report of {html.escape(company)} covers the fiscal year ended December 31, {year}. "
        f"The consolidated financial statements are prepared in accordance with U.S. GAAP and presented in "
        f"thousands of US dollars.</p>"
        "<h2>Letter to shareholders</h2>"
        + "".join(f"<p>{html.escape(s)}</p>" for s in rng.sample([
            f"Revenue {'grew' if growth >= 0 else 'declined'} {abs(growth):.1f}% to ${revenue[0]:,} thousand.",
            "We invested in automation at our two largest plants and opened a service centre in Texas.",
            "Our teams delivered record on-time performance while we reduced energy use per unit by 6%.",
            "We completed the integration of the businesses acquired last year and closed one older site.",
            "The board proposes an increased dividend, reflecting confidence in our cash generation.",
        ], 4)),
        "<h2>Management's discussion and analysis</h2><h3>Results of operations</h3>"
        f"<p>Revenue was ${revenue[0]:,} thousand in {year} compared with ${revenue[1]:,} thousand in {year - 1}. "
        f"Cost of sales was ${cost[0]:,} thousand and operating expenses ${opex[0]:,} thousand. Net income was "
        f"${net[0]:,} thousand.</p><h3>Liquidity and capital resources</h3>"
        f"<p>Cash and cash equivalents were ${cash[0]:,} thousand at year end. Capital expenditures were "
        f"${-capex[0]:,} thousand. Long-term debt was ${debt[0]:,} thousand; the revolving credit facility "
        f"of ${rng.randrange(100, 900) * 1000:,} thousand was undrawn.</p>"
        "<h3>Restructuring</h3><p>" + html.escape(rng.choice([
            "No restructuring programme was announced during the year.",
            "A restructuring of the European sales organisation cost $4,100 thousand in severance.",
            "The closure of one older plant led to restructuring charges of $2,700 thousand.",
        ])) + "</p>",
        "<h2>Risk factors</h2>" + "".join(f"<h3>{html.escape(t)}</h3><p>{html.escape(b)}</p>"
                                          for t, b in rng.sample(_RISKS, 4)),
        "<h2>Consolidated financial statements</h2>"
        + _table("Consolidated statement of income", years, [
            ("Revenue", *revenue), ("Cost of sales", *[-c for c in cost]),
            ("Gross profit", *[r - c for r, c in zip(revenue, cost)]),
            ("Operating expenses", *[-o for o in opex]),
            ("Operating income", *[r - c - o for r, c, o in zip(revenue, cost, opex)]),
            ("Income tax expense", *[-t for t in tax]), ("Net income", *net)])
        + _table("Consolidated balance sheet", years, [
            ("Cash and cash equivalents", *cash), ("Property, plant and equipment, net", *ppe),
            ("Total assets", *[c + p + r // 3 for c, p, r in zip(cash, ppe, revenue)]),
            ("Long-term debt", *debt)]),
        _table("Consolidated statement of cash flows", years, [
            ("Net income", *net), ("Purchases of property, plant and equipment", *capex),
            ("Dividends paid", *[-n // 4 for n in net])])
        + "<h2>Notes</h2><h3>Note 1 Basis of preparation</h3><p>The statements are prepared in accordance "
          "with U.S. GAAP on a going concern basis and include all subsidiaries the company controls.</p>",
    ]
    return f"{company.replace(' ', '_').replace('.', '')}_{year}_Annual_Report.pdf", pages


def write_reports(folder: Path, count: int) -> list[Path]:
    """Write `count` generated annual reports as PDFs into `folder`; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        name, pages = _report(index)
        doc = pymupdf.open()
        for page_html in pages:
            page = doc.new_page(width=_PAGE.width, height=_PAGE.height)
            page.insert_htmlbox(_BODY, page_html, css="body{font-family:sans-serif;font-size:10pt}")
        path = folder / name
        doc.save(path, deflate=True)
        paths.append(path)
    return paths
