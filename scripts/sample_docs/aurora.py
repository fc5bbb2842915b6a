"""The sample annual report (Aurora Components Group, FY2024): its financial data (every printed figure derives
from it), the library metrics computed from it for the ground truth, and the report laid out page by page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal
from pathlib import Path

from sample_docs.common import ROOT
from sample_docs.layout import BODY, COMPANY, Col, EXPECTED_L1_PAGES, FS, HEADING_SIZE, LEFT, LayoutError, MDA, NOTES, PAGE_H, PAGE_W, PARA_GAP, RIGHT, RISKS, RUNNING_FOOTER, RUNNING_HEADER, Report, TableRow, b, fmt, fmt_pct, meur, pct, r

SEGMENTS = [  # name, revenue 2024, revenue 2023, adjusted EBITDA 2024, capex 2024
    ("Motion Control", 412_300, 398_750, 71_480, 27_640),
    ("Fluid Power", 236_450, 251_200, 31_920, 14_210),
    ("Sensors & Electronics", 148_900, 102_600, 29_380, 12_870),
    ("Energy Transmission", 111_450, 108_320, 18_760, 8_930),
    ("Aftermarket Services", 123_300, 119_630, 22_630, 3_150),
]
CORPORATE_EBITDA, CORPORATE_CAPEX = (-14_320, 3_940)
NORDLICHT_REVENUE = 31_200
NORDLICHT_CONSIDERATION = 48_500

REVENUE = (sum(s[1] for s in SEGMENTS), sum(s[2] for s in SEGMENTS))

# income statement lines: (label, note, 2024, 2023)
IS_LINES = {
    "cost_of_sales": (-724_180, -697_340),
    "selling": (-92_610, -88_420),
    "admin": (-71_350, -69_880),
    "rnd": (-38_920, -33_150),
    "other_income": (6_140, 4_870),
    "finance_income": (3_210, 2_040),
    "finance_costs": (-18_460, -15_930),
    "tax": (-23_580, -20_010),
    "nci": (1_630, 1_140),
}
SHARES_THOUSANDS = 50_000


def _pair(f) -> tuple[int, int]:
    return f(0), f(1)


GROSS = _pair(lambda i: REVENUE[i] + IS_LINES["cost_of_sales"][i])
OP = _pair(lambda i: GROSS[i] + IS_LINES["selling"][i] + IS_LINES["admin"][i] + IS_LINES["rnd"][i]
           + IS_LINES["other_income"][i])
PBT = _pair(lambda i: OP[i] + IS_LINES["finance_income"][i] + IS_LINES["finance_costs"][i])
PROFIT = _pair(lambda i: PBT[i] + IS_LINES["tax"][i])
OWNERS = _pair(lambda i: PROFIT[i] - IS_LINES["nci"][i])
EPS = _pair(lambda i: OWNERS[i] / SHARES_THOUSANDS)

DEPRECIATION = (48_370, 44_120)
CF_WORKING = [
    ("Change in inventories", -11_260, -12_360),
    ("Change in trade and other receivables", -9_870, -10_940),
    ("Change in trade and other payables", 6_920, 9_310),
    ("Change in provisions", 2_940, -1_180),
]
INTEREST_PAID, TAX_PAID = (-16_870, -14_520), (-21_730, -18_640)
CF_INVESTING = [
    ("Purchase of property, plant and equipment", -61_280, -54_930),
    ("Purchase of intangible assets", -9_460, -7_820),
    ("Acquisition of subsidiary, net of cash acquired", -45_270, 0),
    ("Proceeds from sale of property, plant and equipment", 2_140, 1_630),
    ("Interest received", 3_010, 1_980),
]
DIVIDENDS = (-30_000, -27_500)
CF_FINANCING = [
    ("Proceeds from borrowings", 80_000, 40_000),
    ("Repayment of borrowings", -54_000, -35_500),
    ("Payment of lease liabilities", -8_640, -7_910),
    ("Dividends paid to owners of the parent", DIVIDENDS[0], DIVIDENDS[1]),
    ("Dividends paid to non-controlling interests", -510, -420),
]
FX_EFFECT = (-1_020, -1_260)

NET_FINANCE = _pair(lambda i: -(IS_LINES["finance_income"][i] + IS_LINES["finance_costs"][i]))
CASH_GENERATED = _pair(lambda i: PROFIT[i] + DEPRECIATION[i] + NET_FINANCE[i] - IS_LINES["tax"][i]
                       + sum(w[1 + i] for w in CF_WORKING))
NET_OPERATING = _pair(lambda i: CASH_GENERATED[i] + INTEREST_PAID[i] + TAX_PAID[i])
NET_INVESTING = _pair(lambda i: sum(x[1 + i] for x in CF_INVESTING))
NET_FINANCING = _pair(lambda i: sum(x[1 + i] for x in CF_FINANCING))
NET_CHANGE = _pair(lambda i: NET_OPERATING[i] + NET_INVESTING[i] + NET_FINANCING[i])
CASH_2023 = 112_450
CASH = (CASH_2023 + NET_CHANGE[0] + FX_EFFECT[0], CASH_2023)
OPENING_CASH = (CASH_2023, CASH_2023 - NET_CHANGE[1] - FX_EFFECT[1])

# Borrowings: 2024 follows from 2023 and the financing cash flows.
CURRENT_BORROWINGS = (42_000, 38_500)
NC_BORROWINGS_2023 = 231_000
NC_BORROWINGS = (NC_BORROWINGS_2023 + CURRENT_BORROWINGS[1] + CF_FINANCING[0][1] + CF_FINANCING[1][1]
                 - CURRENT_BORROWINGS[0], NC_BORROWINGS_2023)

BS_NON_CURRENT_LIAB = [
    ("Borrowings", "", NC_BORROWINGS[0], NC_BORROWINGS[1]),
    ("Lease liabilities", "", 34_820, 32_410),
    ("Employee benefit obligations", "", 27_640, 29_880),
    ("Provisions", "4", 9_310, 7_950),
    ("Deferred tax liabilities", "", 18_260, 14_730),
]
BS_CURRENT_LIAB = [
    ("Trade and other payables", "", 176_940, 168_320),
    ("Borrowings", "", CURRENT_BORROWINGS[0], CURRENT_BORROWINGS[1]),
    ("Lease liabilities", "", 8_150, 7_620),
    ("Current tax liabilities", "", 11_480, 9_860),
    ("Provisions", "4", 6_720, 5_140),
]
SHARE_CAPITAL, SHARE_PREMIUM = (50_000, 50_000), (118_400, 118_400)
OTHER_RESERVES = (-3_480, -5_910)
NCI_EQUITY = (9_870, 8_240)
OTHER_ASSETS = {  # everything except property, plant and equipment
    "non_current": [
        ("Right-of-use assets", "", 41_260, 38_770),
        ("Goodwill", "2", 164_930, 121_480),
        ("Other intangible assets", "", 58_310, 39_640),
        ("Deferred tax assets", "", 12_870, 11_920),
        ("Other financial assets", "", 6_420, 5_980),
    ],
    "current": [
        ("Inventories", "", 184_560, 171_230),
        ("Trade and other receivables", "", 201_340, 188_960),
        ("Current tax assets", "", 3_180, 2_740),
        ("Cash and cash equivalents", "", CASH[0], CASH[1]),
    ],
}
PPE_2023 = 287_910


def _sum(items, i):
    return sum(it[2 + i] for it in items)


TOTAL_NCL = _pair(lambda i: _sum(BS_NON_CURRENT_LIAB, i))
TOTAL_CL = _pair(lambda i: _sum(BS_CURRENT_LIAB, i))
TOTAL_LIAB = _pair(lambda i: TOTAL_NCL[i] + TOTAL_CL[i])
# 2023 retained earnings balance the 2023 sheet; 2024 retained earnings roll forward from 2023 and
# property, plant and equipment balances the 2024 sheet.
_ASSETS_EX_PPE = _pair(lambda i: _sum(OTHER_ASSETS["non_current"], i) + _sum(OTHER_ASSETS["current"], i))
_RET_2023 = PPE_2023 + _ASSETS_EX_PPE[1] - TOTAL_LIAB[1] - NCI_EQUITY[1] - SHARE_CAPITAL[1] \
    - SHARE_PREMIUM[1] - OTHER_RESERVES[1]
RETAINED = (_RET_2023 + OWNERS[0] + DIVIDENDS[0], _RET_2023)
OWNERS_EQUITY = _pair(lambda i: SHARE_CAPITAL[i] + SHARE_PREMIUM[i] + RETAINED[i] + OTHER_RESERVES[i])
TOTAL_EQUITY = _pair(lambda i: OWNERS_EQUITY[i] + NCI_EQUITY[i])
PPE = (TOTAL_EQUITY[0] + TOTAL_LIAB[0] - _ASSETS_EX_PPE[0], PPE_2023)
BS_ASSETS = {
    "non_current": [("Property, plant and equipment", "", PPE[0], PPE[1])] + OTHER_ASSETS["non_current"],
    "current": OTHER_ASSETS["current"],
}
TOTAL_NCA = _pair(lambda i: _sum(BS_ASSETS["non_current"], i))
TOTAL_CA = _pair(lambda i: _sum(BS_ASSETS["current"], i))
TOTAL_ASSETS = _pair(lambda i: TOTAL_NCA[i] + TOTAL_CA[i])

ADJ_EBITDA = sum(s[3] for s in SEGMENTS) + CORPORATE_EBITDA
CAPEX = sum(s[4] for s in SEGMENTS) + CORPORATE_CAPEX
NET_DEBT = _pair(lambda i: NC_BORROWINGS[i] + CURRENT_BORROWINGS[i] + BS_NON_CURRENT_LIAB[1][2 + i]
                 + BS_CURRENT_LIAB[2][2 + i] - CASH[i])


def check_financials() -> None:
    assert ADJ_EBITDA == OP[0] + DEPRECIATION[0], (ADJ_EBITDA, OP[0] + DEPRECIATION[0])
    assert CAPEX == -(CF_INVESTING[0][1] + CF_INVESTING[1][1]), CAPEX
    for i in (0, 1):
        assert TOTAL_ASSETS[i] == TOTAL_EQUITY[i] + TOTAL_LIAB[i]
    assert 0 < PPE[0] - PPE[1] < 40_000, PPE
    assert 60_000 < CASH[0] < 140_000, CASH
    assert RETAINED[0] > RETAINED[1] > 0, RETAINED
    assert round(-DIVIDENDS[0] / SHARES_THOUSANDS, 2) == 0.60


# --------------------------------------------------------------------------------------------
# Computed metrics: the library's formulas (vera_core/data/metrics.md) over the figures above, for FY2024
# --------------------------------------------------------------------------------------------

IS_CAPTION = "Consolidated income statement for the year ended 31 December 2024"
BS_CAPTION = "Consolidated balance sheet as at 31 December 2024"
CF_CAPTION = "Consolidated statement of cash flows for the year ended 31 December 2024"
METRIC_LIBRARY = ROOT / "vera_core" / "data" / "metrics.md"
METRIC_YEAR = 2024
SCALE = 1_000  # the statements print EUR thousand; metrics are computed in EUR


@dataclass(frozen=True)
class Line:
    """A printed statement line a metric reads: its table, row label and figures (2024, 2023)."""

    caption: str
    label: str
    figures: tuple[int, int]
    cost: bool = False
    """Printed in parentheses and used as the amount incurred or spent (the library's convention)."""

    def value(self, year: int) -> float:
        """EUR (not thousands), a cost as a positive amount."""
        figure = self.figures[METRIC_YEAR - year] * SCALE
        return float(-figure if self.cost else figure)


def _bs(section: str, label: str) -> tuple[int, int]:
    items = {"assets": OTHER_ASSETS["current"], "liabilities": BS_CURRENT_LIAB}[section]
    return next((a, c) for n, _, a, c in items if n == label)


REVENUE_L = Line(IS_CAPTION, "Revenue", REVENUE)
COST_OF_SALES_L = Line(IS_CAPTION, "Cost of sales", IS_LINES["cost_of_sales"], cost=True)
OPERATING_PROFIT_L = Line(IS_CAPTION, "Operating profit", OP)
PBT_L = Line(IS_CAPTION, "Profit before tax", PBT)
TAX_L = Line(IS_CAPTION, "Income tax expense", IS_LINES["tax"], cost=True)
PROFIT_L = Line(IS_CAPTION, "Profit for the year", PROFIT)
TOTAL_ASSETS_L = Line(BS_CAPTION, "Total assets", TOTAL_ASSETS)
CURRENT_ASSETS_L = Line(BS_CAPTION, "Total current assets", TOTAL_CA)
CURRENT_LIAB_L = Line(BS_CAPTION, "Total current liabilities", TOTAL_CL)
TOTAL_LIAB_L = Line(BS_CAPTION, "Total liabilities", TOTAL_LIAB)
TOTAL_EQUITY_L = Line(BS_CAPTION, "Total equity", TOTAL_EQUITY)
PPE_L = Line(BS_CAPTION, "Property, plant and equipment", PPE)
INVENTORIES_L = Line(BS_CAPTION, "Inventories", _bs("assets", "Inventories"))
RECEIVABLES_L = Line(BS_CAPTION, "Trade and other receivables", _bs("assets", "Trade and other receivables"))
PAYABLES_L = Line(BS_CAPTION, "Trade and other payables", _bs("liabilities", "Trade and other payables"))
CASH_L = Line(BS_CAPTION, "Cash and cash equivalents", CASH)
DEPRECIATION_L = Line(CF_CAPTION, "Depreciation and amortisation", DEPRECIATION)
OPERATING_CASH_L = Line(CF_CAPTION, "Net cash from operating activities", NET_OPERATING)
CAPEX_L = Line(CF_CAPTION, CF_INVESTING[0][0], (CF_INVESTING[0][1], CF_INVESTING[0][2]), cost=True)


class Reader:
    """Reads lines for one metric as its formula does, left to right, recording each (line, year)."""

    def __init__(self) -> None:
        self.read: list[tuple[str, Line, int]] = []

    def __call__(self, name: str, line: Line, year: int = METRIC_YEAR) -> float:
        if (line, year) not in [(ln, y) for _, ln, y in self.read]:
            self.read.append((name, line, year))
        return line.value(year)

    def avg(self, name: str, line: Line) -> float:
        """The library's avg(x): the year asked and the prior year-end."""
        return (self(name, line) + self(name, line, METRIC_YEAR - 1)) / 2

    def prior(self, name: str, line: Line) -> float:
        return self(name, line, METRIC_YEAR - 1)


# key, the question an analyst asks, the library formula (checked against vera_core/data/metrics.md), the
# same formula over this report's lines. Capital expenditure is the cash flow statement's purchase
# of property, plant and equipment. Left out on purpose: dividend payout (dividends to owners over
# profit including non-controlling interests mixes two bases) and interest coverage (the report
# prints finance costs, not interest expense).
METRICS = [
    ("gross_margin", "What was Aurora's gross margin in FY2024?", "(revenue - cost of sales) / revenue",
     lambda x: (x("revenue", REVENUE_L) - x("cost of sales", COST_OF_SALES_L)) / x("revenue", REVENUE_L)),
    ("operating_margin", "What was Aurora's operating margin for FY2024?", "operating income / revenue",
     lambda x: x("operating income", OPERATING_PROFIT_L) / x("revenue", REVENUE_L)),
    ("net_margin", "What was Aurora's net profit margin in FY2024?", "net income / revenue",
     lambda x: x("net income", PROFIT_L) / x("revenue", REVENUE_L)),
    ("ebitda", "What was Aurora's EBITDA in FY2024?", "operating income + depreciation and amortization",
     lambda x: x("operating income", OPERATING_PROFIT_L) + x("depreciation and amortization", DEPRECIATION_L)),
    ("ebitda_margin", "What was Aurora's EBITDA margin in FY2024?",
     "(operating income + depreciation and amortization) / revenue",
     lambda x: (x("operating income", OPERATING_PROFIT_L) + x("depreciation and amortization", DEPRECIATION_L))
     / x("revenue", REVENUE_L)),
    ("free_cash_flow", "What was Aurora's free cash flow in FY2024?", "operating cash flow - capital expenditure",
     lambda x: x("operating cash flow", OPERATING_CASH_L) - x("capital expenditure", CAPEX_L)),
    ("current_ratio", "What was Aurora's current ratio at the end of FY2024?",
     "total current assets / total current liabilities",
     lambda x: x("total current assets", CURRENT_ASSETS_L) / x("total current liabilities", CURRENT_LIAB_L)),
    ("quick_ratio", "What was Aurora's quick ratio at year end 2024?",
     "(total current assets - inventories) / total current liabilities",
     lambda x: (x("total current assets", CURRENT_ASSETS_L) - x("inventories", INVENTORIES_L))
     / x("total current liabilities", CURRENT_LIAB_L)),
    ("cash_ratio", "What was Aurora's cash ratio at the end of FY2024?",
     "cash and cash equivalents / total current liabilities",
     lambda x: x("cash and cash equivalents", CASH_L) / x("total current liabilities", CURRENT_LIAB_L)),
    ("debt_to_equity", "What was Aurora's debt-to-equity ratio at the end of FY2024?",
     "total liabilities / total equity",
     lambda x: x("total liabilities", TOTAL_LIAB_L) / x("total equity", TOTAL_EQUITY_L)),
    ("working_capital", "How much working capital did Aurora have at the end of FY2024?",
     "total current assets - total current liabilities",
     lambda x: x("total current assets", CURRENT_ASSETS_L) - x("total current liabilities", CURRENT_LIAB_L)),
    ("return_on_assets", "What was Aurora's return on assets in FY2024?", "net income / avg(total assets)",
     lambda x: x("net income", PROFIT_L) / x.avg("total assets", TOTAL_ASSETS_L)),
    ("return_on_equity", "What was Aurora's return on equity in FY2024?", "net income / avg(total equity)",
     lambda x: x("net income", PROFIT_L) / x.avg("total equity", TOTAL_EQUITY_L)),
    ("asset_turnover", "What was Aurora's asset turnover in FY2024?", "revenue / avg(total assets)",
     lambda x: x("revenue", REVENUE_L) / x.avg("total assets", TOTAL_ASSETS_L)),
    ("fixed_asset_turnover", "What was Aurora's fixed asset turnover in FY2024?",
     "revenue / avg(net property, plant and equipment)",
     lambda x: x("revenue", REVENUE_L) / x.avg("net property, plant and equipment", PPE_L)),
    ("inventory_turnover", "What was Aurora's inventory turnover in FY2024?", "cost of sales / avg(inventories)",
     lambda x: x("cost of sales", COST_OF_SALES_L) / x.avg("inventories", INVENTORIES_L)),
    ("days_sales_outstanding", "What were Aurora's days sales outstanding in FY2024?",
     "365 * avg(accounts receivable) / revenue",
     lambda x: 365 * x.avg("accounts receivable", RECEIVABLES_L) / x("revenue", REVENUE_L)),
    ("days_inventory_outstanding", "What were Aurora's days inventory outstanding in FY2024?",
     "365 * avg(inventories) / cost of sales",
     lambda x: 365 * x.avg("inventories", INVENTORIES_L) / x("cost of sales", COST_OF_SALES_L)),
    ("days_payable_outstanding", "What were Aurora's days payable outstanding in FY2024?",
     "365 * avg(accounts payable) / cost of sales",
     lambda x: 365 * x.avg("accounts payable", PAYABLES_L) / x("cost of sales", COST_OF_SALES_L)),
    ("cash_conversion_cycle", "What was Aurora's cash conversion cycle in FY2024?",
     "365 * avg(accounts receivable) / revenue + 365 * avg(inventories) / cost of sales"
     " - 365 * avg(accounts payable) / cost of sales",
     lambda x: 365 * x.avg("accounts receivable", RECEIVABLES_L) / x("revenue", REVENUE_L)
     + 365 * x.avg("inventories", INVENTORIES_L) / x("cost of sales", COST_OF_SALES_L)
     - 365 * x.avg("accounts payable", PAYABLES_L) / x("cost of sales", COST_OF_SALES_L)),
    ("effective_tax_rate", "What was Aurora's effective tax rate in FY2024?",
     "income tax expense / income before income taxes",
     lambda x: x("income tax expense", TAX_L) / x("income before income taxes", PBT_L)),
    ("capex_to_revenue", "What was Aurora's capex as a % of revenue in FY2024?", "capital expenditure / revenue",
     lambda x: x("capital expenditure", CAPEX_L) / x("revenue", REVENUE_L)),
    ("revenue_growth", "What was Aurora's revenue growth in FY2024?", "(revenue - prior(revenue)) / prior(revenue)",
     lambda x: (x("revenue", REVENUE_L) - x.prior("revenue", REVENUE_L)) / x.prior("revenue", REVENUE_L)),
]
METRIC_DIGITS = {"percent": 1, "ratio": 2, "days": 1}  # VERA's default rounding when none is asked
STATEMENT_OF = {IS_CAPTION: "income", BS_CAPTION: "balance", CF_CAPTION: "cash_flow"}


def library_metrics(path: Path = METRIC_LIBRARY) -> dict[str, tuple[str, str]]:
    """key -> (formula, unit) of every `### key` section of the metric library."""
    out = {}
    for block in re.split(r"^### ", path.read_text(encoding="utf-8"), flags=re.M)[1:]:
        key, _, body = block.partition("\n")
        fields = dict(re.findall(r"^- (\w+):\s*(.+?)\s*$", body, flags=re.M))
        out[key.strip()] = (fields["formula"], fields["unit"])
    return out


def stated(value: float, unit: str) -> str:
    """A metric as VERA states it with default rounding (half up): 29.9%, 1.98, 69.0 days, and an
    amount in the statements' unit, EUR thousand (no decimals from 100 up)."""
    shown = value / SCALE if unit == "amount" else value
    digits = METRIC_DIGITS.get(unit, 0 if abs(shown) >= 100 else 2)
    exact = Decimal(repr(abs(shown))) * 10 ** digits
    if abs(exact - exact.to_integral_value(rounding=ROUND_FLOOR) - Decimal("0.5")) < Decimal("1e-6"):
        raise ValueError(f"{value!r} lies on a rounding boundary; the ground truth would be ambiguous")
    text = f"{Decimal(repr(abs(shown))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):,.{digits}f}"
    sign = "-" if shown < 0 else ""
    return {"percent": f"{sign}{text}%", "ratio": f"{sign}{text}", "days": f"{sign}{text} days"}.get(
        unit, f"{sign}€{text} thousand")


def metric_truth(tables: list[dict]) -> list[dict]:
    """Expected FY2024 metrics, each with the printed cells it reads (tied out to the drawn tables)."""
    library = library_metrics()
    by_caption = {t["caption"]: t for t in tables}
    out = []
    for key, question, formula, compute in METRICS:
        if library.get(key, ("", ""))[0] != formula:
            raise ValueError(f"vera_core/data/metrics.md changed {key!r}: {library.get(key)} (script has {formula!r})")
        unit = library[key][1]
        reader = Reader()
        value = compute(reader)
        expected = value * 100 if unit == "percent" else value
        operands = []
        for name, line, year in reader.read:
            table = by_caption[line.caption]
            rows = [i for i, row in enumerate(table["rows"]) if row[0] == line.label]
            if len(rows) != 1:
                raise ValueError(f"{line.label!r} is not one row of {line.caption!r}")
            col = table["header"].index(str(year))
            cell = next(c for c in table["cells"] if (c["row"], c["col"]) == (rows[0], col))
            if cell["text"] != fmt(line.figures[METRIC_YEAR - year]):
                raise ValueError(f"{line.label} {year}: printed {cell['text']!r}, figures say {line.figures}")
            operands.append({"name": name, "row_label": line.label, "period": str(year), "printed": cell["text"],
                             "value": line.value(year), "statement": STATEMENT_OF[line.caption],
                             "table": line.caption, "page": cell["page"], "bbox": cell["bbox"]})
        out.append({"key": key, "question": question, "period": f"FY{METRIC_YEAR}", "formula": formula,
                    "unit": unit, "expected": expected, "rounded": stated(expected, unit), "operands": operands})
    return out


# --------------------------------------------------------------------------------------------
# The annual report
# --------------------------------------------------------------------------------------------

FACT_SENTENCES = {
    "consolidation_basis": "The consolidated financial statements include Aurora Components Group plc "
                           "and all subsidiaries it controls.",
    "accounting_framework": "The consolidated financial statements have been prepared in accordance with "
                            "International Financial Reporting Standards (IFRS) as adopted by the "
                            "European Union.",
    "default_currency": "These financial statements are presented in euro (EUR), which is the Group's "
                        "presentation currency and the functional currency of the parent company.",
    "units": "Unless otherwise stated, all amounts are in thousands of euro (EUR thousand).",
    "reporting_period": "The reporting period is the financial year from 1 January 2024 to 31 December 2024.",
}
FACT_VALUES = {
    "default_currency": "EUR",
    "units": "EUR thousand",
    "reporting_period": "financial year from 1 January 2024 to 31 December 2024",
    "accounting_framework": "IFRS",
    "consolidation_basis": "consolidated",
}
ATTRIBUTE_TEXT = "between EUR 2.1 million and EUR 3.4 million"
RISK_REF = "Risk factors on page 11"

SIGNIFICANT_EVENTS = [
    ("Acquisition of Nordlicht Sensors GmbH:",
     f"On 1 April 2024 the Group acquired 100% of Nordlicht Sensors GmbH, a Hamburg-based maker of "
     f"industrial pressure and position sensors, for {meur(NORDLICHT_CONSIDERATION)} in cash. Provisional "
     f"goodwill of EUR 43.5 million was recognised, reflecting expected cross-selling synergies."),
    ("Opening of the Brno production line:",
     "A fully automated line for precision ball screws started serial production in Brno, Czech Republic, "
     "in September 2024, adding capacity of 180,000 units a year at a total cost of EUR 22.8 million."),
    ("Refinancing of the revolving credit facility:",
     "In May 2024 the Group replaced its EUR 250 million revolving credit facility with a new "
     "EUR 350 million facility from a group of seven banks, maturing in 2029 with two one-year extension "
     "options."),
    ("Closure of the Lyon assembly plant:",
     "Following consultation with employee representatives, assembly of hydraulic power units moved from "
     "Lyon to the existing sites in Brno and Bilbao. Restructuring costs of EUR 4.2 million were "
     "recognised in 2024."),
    ("Placement of a Schuldschein loan:",
     "In June 2024 the Group placed a EUR 80 million Schuldschein loan in tranches of five and seven years, "
     "the first sustainability-linked financing in its history."),
    ("Voluntary recall of HX-200 valves:",
     "In August 2024 Fluid Power recalled a batch of HX-200 directional control valves after a supplier "
     "seal defect was identified. The Group recognised a provision of EUR 2.6 million for replacement "
     "costs and direct customer compensation."),
    ("Contained cyber security incident:",
     "In October 2024 an attempted ransomware attack on the IT network of the Spanish subsidiary was detected "
     "and contained within hours. No customer data was lost and production was not interrupted."),
]

RISK_FACTORS = [
    ("Cyclical demand in end markets",
     ["A large share of revenue comes from machine builders, mobile machinery manufacturers and process "
      "industries whose investment spending follows the economic cycle. A prolonged downturn in Europe, "
      "where the Group generates 64% of its revenue, would reduce volumes and put pressure on prices and "
      "on the absorption of fixed production costs.",
      "The Group mitigates this risk through its diversified customer base, the growing share of "
      "aftermarket revenue and flexible staffing, but it cannot fully offset a severe and synchronised "
      "decline in its main markets."]),
    ("Raw material and energy prices",
     ["Steel, aluminium, copper and electronic components account for about 41% of cost of sales. Sharp "
      "increases in commodity or energy prices may not be passed on to customers in full or with the "
      "necessary speed, which would compress margins."]),
    ("Supply chain concentration",
     ["Several critical parts, including semiconductor chips for sensors and special seals for hydraulic "
      "valves, are sourced from a small number of suppliers. The HX-200 recall in 2024 showed that a "
      "single supplier defect can lead to significant costs and reputational damage."]),
    ("Information security and cyber threats",
     ["The Group depends on networked production systems, engineering data and enterprise software. "
      "A successful cyber attack could halt production, expose confidential customer designs or lead to "
      "regulatory penalties. Engineering data is encrypted at rest and in transit, and the controls are "
      "described in the Group's Information Security Policy."]),
    ("Currency and interest rate exposure",
     ["Although the presentation currency is the euro, about 22% of revenue is earned in US dollars, "
      "Swedish krona and Czech koruna. Adverse exchange rate movements and higher interest rates on "
      "floating-rate borrowings could reduce reported profit and cash flow."]),
]


def build_report() -> tuple[bytes, dict]:
    check_financials()
    rep = Report()
    facts: dict[str, dict] = {}
    page_refs: list[dict] = []

    def fact_para(keys: list[str], extra: str = "") -> None:
        text = " ".join(FACT_SENTENCES[k] for k in keys) + (" " + extra if extra else "")
        p = rep.para(text)
        for k in keys:
            facts[k] = {"value": FACT_VALUES[k], "page": p["page"], "evidence": FACT_SENTENCES[k],
                        "section_path": rep.section_path()}

    # ---------------------------------------------------------------- page 1: About this report
    rep.heading(1, "About this report")
    rep.para(f"This annual report of {COMPANY} (\"Aurora\" or the \"Group\") covers the Group's strategy, "
             "performance, risks and consolidated financial statements for 2024. Aurora designs and "
             "manufactures precision motion, fluid power and sensing components for industrial customers "
             "across Europe and North America from 14 manufacturing sites in seven countries. The parent "
             "company is incorporated and domiciled in Ireland, and its shares are listed on Euronext Dublin.")
    rep.heading(2, "Reporting scope and presentation")
    fact_para(["consolidation_basis"],
              "Associates and joint ventures are accounted for using the equity method. Subsidiaries are "
              "consolidated from the date on which control is obtained until the date on which it ceases.")
    fact_para(["accounting_framework"],
              "They are prepared on a historical cost basis, except for derivative financial instruments and "
              "certain other financial assets, which are measured at fair value.")
    fact_para(["default_currency", "units"], "Figures may not add up exactly due to rounding.")
    fact_para(["reporting_period"],
              "Comparative information is presented for the financial year ended 31 December 2023.")
    rep.heading(2, "Forward-looking statements")
    rep.para("This report contains forward-looking statements about the Group's expected performance, "
             "markets and strategy. Such statements reflect management's current expectations and are "
             "subject to risks and uncertainties, many of which are outside the Group's control, that could "
             "cause actual results to differ materially. Aurora undertakes no obligation to update "
             "forward-looking statements except as required by law.")
    rep.heading(2, "Contents")
    contents = [(t, p) for t, p in EXPECTED_L1_PAGES.items() if t != "About this report"]
    for rec in rep.lines([f"{t} — page {p}" for t, p in contents]):
        t, p = rec["text"].rsplit(" — page ", 1)
        page_refs.append({"source_page": rec["page"], "text": rec["text"], "target_page": int(p),
                          "target_heading": t, "kind": "contents"})

    # ---------------------------------------------------------------- page 2: CEO letter
    rep.heading(1, "Letter from the Chief Executive")
    rep.para("Dear shareholders,")
    rep.para(f"2024 was a year in which Aurora showed that a disciplined, engineering-led business can grow in "
             f"a difficult market. Revenue rose by {pct(*REVENUE):.1f}% to {meur(REVENUE[0])}, operating profit "
             f"increased by {pct(*OP):.1f}% to {meur(OP[0])} and we delivered our highest operating margin in a "
             f"decade, despite weak demand from European machine builders in the second half of the year.")
    rep.para("The acquisition of Nordlicht Sensors in April was the most important strategic step of the year. "
             "It gives us proprietary pressure and position sensing technology and brings our Sensors & "
             "Electronics segment to almost EUR 150 million of annual revenue. Integration is ahead of plan, "
             "and the first co-developed smart actuator will ship to customers in the spring of 2025.")
    rep.para("We also took difficult decisions. The closure of our Lyon assembly plant affected 132 colleagues, "
             "and I want to thank them for their professionalism during the transition. At the same time we "
             f"invested {meur(CAPEX)} in new capacity and digital tools, including the automated production "
             "line in Brno, which will lower unit costs in Motion Control from 2025 onwards.")
    ceo_ref = rep.para("Looking ahead, we expect market conditions to remain uneven in the first half of 2025. "
                       f"Our principal risks are described in {RISK_REF}. The Board proposes a dividend of "
                       "EUR 0.64 per share, up from EUR 0.60, reflecting our confidence in the Group's cash "
                       "generation and balance sheet strength.")
    page_refs.append({"source_page": ceo_ref["page"], "text": RISK_REF, "target_page": 11,
                      "target_heading": RISKS, "kind": "cross_reference"})
    rep.para("I would like to thank our 5,800 colleagues, our customers and you, our shareholders, for your "
             "continued support.", gap_after=14)
    rep.lines(["Johanna Lindqvist", "Chief Executive Officer", "Dublin, 26 February 2025"], gap_after=0)

    # ---------------------------------------------------------------- pages 3-5: MD&A
    rep.heading(1, MDA)
    rep.para("The following discussion should be read together with the consolidated financial statements "
             "and the accompanying notes. Percentages are calculated on the basis of unrounded figures, and "
             "amounts in the tables are stated in EUR thousand.")
    rep.heading(2, "Overview")
    rep.para("Aurora operates through five reportable segments: Motion Control, Fluid Power, Sensors & "
             "Electronics, Energy Transmission and Aftermarket Services. The segments serve a diversified base "
             "of more than 6,000 customers in factory automation, mobile machinery, process industries and "
             "renewable energy, and no single customer accounts for more than 4% of revenue. About 64% of revenue is "
             "generated in Europe, 27% in North America and 9% in Asia and the rest of the world.")
    rep.para("Demand in 2024 was mixed. Orders from semiconductor equipment and renewable energy customers grew "
             "strongly, while European machine builders and agricultural equipment manufacturers reduced "
             "production and destocked throughout the second half of the year. Order intake for the Group was "
             "EUR 1,018.6 million, giving a book-to-bill ratio of 0.99. Aftermarket demand was stable, supported "
             "by a larger installed base and new multi-year service agreements with two wind turbine makers.")
    rep.heading(2, "Results of operations")
    rep.heading(3, "Revenue")
    organic = pct(REVENUE[0] - NORDLICHT_REVENUE, REVENUE[1])
    rep.para(f"Group revenue increased by {pct(*REVENUE):.1f}% to {meur(REVENUE[0])} (2023: {meur(REVENUE[1])}). "
             f"Excluding the acquisition of Nordlicht Sensors, organic revenue growth was {organic:.1f}%, with "
             "price increases contributing 1.8 percentage points and volumes 0.3 percentage points.")
    seg_rows = [TableRow([n, fmt(a), fmt(c), fmt_pct(pct(a, c))]) for n, a, c, _, _ in SEGMENTS]
    seg_rows.append(TableRow(["Total", fmt(REVENUE[0]), fmt(REVENUE[1]), fmt_pct(pct(*REVENUE))], "total"))
    rep.table(
        "Revenue by segment",
        ["Segment", "2024", "2023", "Change %"],
        seg_rows,
        [Col(LEFT, 300, "left"), Col(330, 390, "right"), Col(410, 470, "right"), Col(490, RIGHT, "right")],
        ["(1) Amounts in EUR thousand. Sensors & Electronics includes Nordlicht Sensors GmbH from 1 April 2024, "
         f"which contributed revenue of {meur(NORDLICHT_REVENUE)}.",
         "(2) Change % is calculated on unrounded figures; negative changes are shown in parentheses."],
    )
    s = {n: (a, c) for n, a, c, _, _ in SEGMENTS}
    rep.para(f"Motion Control grew by {pct(*s['Motion Control']):.1f}%, supported by semiconductor and "
             "packaging automation projects. Fluid Power revenue declined by "
             f"{-pct(*s['Fluid Power']):.1f}% as agricultural and construction equipment customers cut "
             f"production. Sensors & Electronics grew by {pct(*s['Sensors & Electronics']):.1f}%, of which the "
             "larger part came from the acquisition. Energy Transmission and Aftermarket Services grew by "
             f"{pct(*s['Energy Transmission']):.1f}% and {pct(*s['Aftermarket Services']):.1f}% respectively.")
    rep.heading(3, "Operating costs and margin")
    gm = (GROSS[0] / REVENUE[0] * 100, GROSS[1] / REVENUE[1] * 100)
    om = (OP[0] / REVENUE[0] * 100, OP[1] / REVENUE[1] * 100)
    rep.para(f"Gross profit increased to {meur(GROSS[0])} and the gross margin improved to {gm[0]:.1f}% "
             f"(2023: {gm[1]:.1f}%), as lower freight and energy costs and price increases more than offset "
             "wage inflation. Research and development expenses rose by "
             f"{pct(IS_LINES['rnd'][0], IS_LINES['rnd'][1]):.1f}% to {meur(-IS_LINES['rnd'][0])}, reflecting "
             "the consolidation of Nordlicht Sensors and the smart actuator programme. Selling and distribution "
             "expenses grew more slowly than revenue, as the Group moved a larger share of its distributor "
             "business to its own digital ordering portal.")
    rep.para(f"Operating profit rose by {pct(*OP):.1f}% to {meur(OP[0])}, and the operating margin was "
             f"{om[0]:.1f}% (2023: {om[1]:.1f}%). Operating profit includes restructuring costs of EUR 4.2 "
             "million for the closure of the Lyon plant and acquisition-related expenses of EUR 1.9 million. "
             "Excluding these items, the operating margin would have been 11.2%, the highest level since the "
             "Group's listing in 2011. Depreciation and amortisation increased to "
             f"{meur(DEPRECIATION[0])} (2023: {meur(DEPRECIATION[1])}) as new capacity came into use.")
    rep.heading(3, "Finance costs and taxation")
    rep.para(f"Net finance costs increased to {meur(NET_FINANCE[0])} (2023: {meur(NET_FINANCE[1])}) because "
             "average borrowings were higher after the acquisition of Nordlicht Sensors and the interest rate on "
             "the floating-rate part of the revolving credit facility rose in the first half of the year. The "
             f"effective tax rate was {-IS_LINES['tax'][0] / PBT[0] * 100:.1f}% "
             f"(2023: {-IS_LINES['tax'][1] / PBT[1] * 100:.1f}%), reflecting a higher share of profit earned "
             "in Germany and the United States. Profit for the year attributable to owners of the parent was "
             f"{meur(OWNERS[0])}, and basic earnings per share rose to EUR {EPS[0]:.2f} "
             f"(2023: EUR {EPS[1]:.2f}). Non-controlling interests relate mainly to the 70%-owned Spanish "
             "subsidiary Aurora Transmisiones S.L.")
    rep.heading(3, "Order intake and backlog")
    rep.para("Order intake weakened in the third quarter, mainly in Fluid Power, and recovered slightly in the "
             "fourth quarter as customers in semiconductor equipment and wind energy placed framework orders for "
             "2025. The order backlog at 31 December 2024 was EUR 386.2 million (2023: EUR 402.7 million), of "
             "which about 85% is expected to be delivered in 2025. Cancellations remained below 1% of order "
             "intake throughout the year, and average delivery times returned to pre-pandemic levels of six to eight "
             "weeks for standard products.")
    rep.heading(2, "Significant events")
    lead = rep.para("The following events had a significant effect on the Group's financial position and "
                    "performance in 2024:")
    event_recs = []
    for i, (lead_in, body) in enumerate(SIGNIFICANT_EVENTS):
        event_recs.append(rep.para([b(lead_in), r(" " + body)], indent=18, bullet="•",
                                   gap_after=4 if i < len(SIGNIFICANT_EVENTS) - 1 else PARA_GAP))
    events_gt = {
        "section_path": [MDA, "Significant events"],
        "pages": sorted({e["page"] for e in event_recs}),
        "lead_in": lead["text"],
        "items": [e["text"] for e in event_recs],
        "item_pages": [e["page"] for e in event_recs],
        "bullet": "•",
        "next_heading": "Liquidity and capital resources",
    }
    if events_gt["item_pages"] != [4, 4, 4, 4, 5, 5, 5]:
        raise LayoutError(f"significant events must split 4/3 over pages 4-5, got {events_gt['item_pages']} "
                          f"(tops {[round(e['top']) for e in event_recs]}, y after {rep.y:.0f})")
    rep.heading(2, events_gt["next_heading"])
    rep.heading(3, "Cash flows")
    rep.para(f"Net cash from operating activities was {meur(NET_OPERATING[0])} (2023: {meur(NET_OPERATING[1])}). "
             "Working capital absorbed less cash than in the previous year as inventory levels stabilised in the "
             f"second half. Net cash used in investing activities was {meur(-NET_INVESTING[0])}, including "
             f"capital expenditure of {meur(CAPEX)} and the acquisition of Nordlicht Sensors.")
    rep.heading(3, "Financing and covenants")
    rep.para(f"Net debt, defined as borrowings and lease liabilities less cash and cash equivalents, was "
             f"{meur(NET_DEBT[0])} at 31 December 2024 (2023: {meur(NET_DEBT[1])}). Net debt was "
             f"{NET_DEBT[0] / ADJ_EBITDA:.1f} times adjusted EBITDA of {meur(ADJ_EBITDA)}, well within the "
             "covenant limit of 3.0 times. At year end the Group had undrawn committed facilities of "
             "EUR 310.0 million.")
    mda_ref = rep.para("Factors that could affect the Group's liquidity, including the availability of "
                       "financing and movements in interest rates, are discussed in "
                       f"{RISK_REF}.")
    page_refs.append({"source_page": mda_ref["page"], "text": RISK_REF, "target_page": 11,
                      "target_heading": RISKS, "kind": "cross_reference"})
    rep.heading(2, "Outlook")
    rep.para("For 2025 the Group expects organic revenue growth of between 1% and 3% and an operating margin "
             "of around 11%, assuming no further deterioration in European industrial production. Capital "
             "expenditure is planned at about 6% of revenue.")

    # ---------------------------------------------------------------- pages 6-8: statements
    rep.heading(1, FS)
    rep.para("The consolidated financial statements on the following pages were approved by the Board of "
             "Directors on 26 February 2025. The accompanying notes form an integral part of these statements.")
    rep.heading(2, "Consolidated income statement")
    stmt_cols = [Col(LEFT, 330, "left"), Col(345, 385, "center"), Col(400, 470, "right"),
                 Col(482, RIGHT, "right")]
    stmt_header = ["EUR thousand", "Note", "2024", "2023"]
    L = IS_LINES
    is_rows = [
        TableRow(["Revenue", "3", fmt(REVENUE[0]), fmt(REVENUE[1])]),
        TableRow(["Cost of sales", "", fmt(L["cost_of_sales"][0]), fmt(L["cost_of_sales"][1])]),
        TableRow(["Gross profit", "", fmt(GROSS[0]), fmt(GROSS[1])], "subtotal"),
        TableRow(["Selling and distribution expenses", "", fmt(L["selling"][0]), fmt(L["selling"][1])]),
        TableRow(["Administrative expenses", "", fmt(L["admin"][0]), fmt(L["admin"][1])]),
        TableRow(["Research and development expenses", "", fmt(L["rnd"][0]), fmt(L["rnd"][1])]),
        TableRow(["Other operating income", "", fmt(L["other_income"][0]), fmt(L["other_income"][1])]),
        TableRow(["Operating profit", "3", fmt(OP[0]), fmt(OP[1])], "subtotal"),
        TableRow(["Finance income", "", fmt(L["finance_income"][0]), fmt(L["finance_income"][1])]),
        TableRow(["Finance costs", "", fmt(L["finance_costs"][0]), fmt(L["finance_costs"][1])]),
        TableRow(["Profit before tax", "", fmt(PBT[0]), fmt(PBT[1])], "subtotal"),
        TableRow(["Income tax expense", "", fmt(L["tax"][0]), fmt(L["tax"][1])]),
        TableRow(["Profit for the year", "", fmt(PROFIT[0]), fmt(PROFIT[1])], "total"),
        TableRow(["Attributable to owners of the parent", "", fmt(OWNERS[0]), fmt(OWNERS[1])]),
        TableRow(["Attributable to non-controlling interests", "", fmt(L["nci"][0]), fmt(L["nci"][1])]),
        TableRow(["Basic and diluted earnings per share (EUR)", "", f"{EPS[0]:.2f}", f"{EPS[1]:.2f}"]),
    ]
    rep.table(IS_CAPTION, stmt_header, is_rows,
              stmt_cols,
              ["(1) Comparative figures for 2023 have been re-presented to reflect the reclassification of "
               "outbound freight costs from cost of sales to selling and distribution expenses.",
               "(2) Basic and diluted earnings per share are identical because no dilutive instruments were "
               f"outstanding. The weighted average number of shares was {SHARES_THOUSANDS // 1000} million."],
              rules=True)

    rep.heading(2, "Consolidated balance sheet")
    bs_rows: list[TableRow] = [TableRow(["Non-current assets", "", "", ""], "section")]
    bs_rows += [TableRow([n, note, fmt(a), fmt(c)]) for n, note, a, c in BS_ASSETS["non_current"]]
    bs_rows.append(TableRow(["Total non-current assets", "", fmt(TOTAL_NCA[0]), fmt(TOTAL_NCA[1])], "subtotal"))
    bs_rows.append(TableRow(["Current assets", "", "", ""], "section"))
    bs_rows += [TableRow([n, note, fmt(a), fmt(c)]) for n, note, a, c in BS_ASSETS["current"]]
    bs_rows.append(TableRow(["Total current assets", "", fmt(TOTAL_CA[0]), fmt(TOTAL_CA[1])], "subtotal"))
    bs_rows.append(TableRow(["Total assets", "", fmt(TOTAL_ASSETS[0]), fmt(TOTAL_ASSETS[1])], "total"))
    bs_rows.append(TableRow(["Equity", "", "", ""], "section"))
    bs_rows += [
        TableRow(["Share capital", "", fmt(SHARE_CAPITAL[0]), fmt(SHARE_CAPITAL[1])]),
        TableRow(["Share premium", "", fmt(SHARE_PREMIUM[0]), fmt(SHARE_PREMIUM[1])]),
        TableRow(["Retained earnings", "", fmt(RETAINED[0]), fmt(RETAINED[1])]),
        TableRow(["Other reserves", "", fmt(OTHER_RESERVES[0]), fmt(OTHER_RESERVES[1])]),
        TableRow(["Equity attributable to owners of the parent", "", fmt(OWNERS_EQUITY[0]),
                  fmt(OWNERS_EQUITY[1])], "subtotal"),
        TableRow(["Non-controlling interests", "", fmt(NCI_EQUITY[0]), fmt(NCI_EQUITY[1])]),
        TableRow(["Total equity", "", fmt(TOTAL_EQUITY[0]), fmt(TOTAL_EQUITY[1])], "subtotal"),
        TableRow(["Non-current liabilities", "", "", ""], "section"),
    ]
    bs_rows += [TableRow([n, note, fmt(a), fmt(c)]) for n, note, a, c in BS_NON_CURRENT_LIAB]
    bs_rows.append(TableRow(["Total non-current liabilities", "", fmt(TOTAL_NCL[0]), fmt(TOTAL_NCL[1])],
                            "subtotal"))
    bs_rows.append(TableRow(["Current liabilities", "", "", ""], "section"))
    bs_rows += [TableRow([n, note, fmt(a), fmt(c)]) for n, note, a, c in BS_CURRENT_LIAB]
    bs_rows.append(TableRow(["Total current liabilities", "", fmt(TOTAL_CL[0]), fmt(TOTAL_CL[1])], "subtotal"))
    bs_rows.append(TableRow(["Total liabilities", "", fmt(TOTAL_LIAB[0]), fmt(TOTAL_LIAB[1])], "subtotal"))
    bs_rows.append(TableRow(["Total equity and liabilities", "", fmt(TOTAL_ASSETS[0]), fmt(TOTAL_ASSETS[1])],
                            "total"))
    bs = rep.table(BS_CAPTION, stmt_header, bs_rows, stmt_cols,
                   ["(1) Goodwill and other intangible assets at 31 December 2024 include provisional amounts "
                    "arising from the acquisition of Nordlicht Sensors GmbH."],
                   indent_items=True)
    if len(bs["pages"]) != 2:
        raise LayoutError(f"the balance sheet must span two pages, got {bs['pages']}")

    rep.page_break()  # each remaining statement starts on a fresh page
    rep.heading(2, "Consolidated statement of cash flows")
    cf_rows = [
        TableRow(["Operating activities", "", ""], "section"),
        TableRow(["Profit for the year", fmt(PROFIT[0]), fmt(PROFIT[1])]),
        TableRow(["Depreciation and amortisation", fmt(DEPRECIATION[0]), fmt(DEPRECIATION[1])]),
        TableRow(["Net finance costs", fmt(NET_FINANCE[0]), fmt(NET_FINANCE[1])]),
        TableRow(["Income tax expense", fmt(-L["tax"][0]), fmt(-L["tax"][1])]),
    ]
    cf_rows += [TableRow([n, fmt(a), fmt(c)]) for n, a, c in CF_WORKING]
    cf_rows += [
        TableRow(["Cash generated from operations", fmt(CASH_GENERATED[0]), fmt(CASH_GENERATED[1])], "subtotal"),
        TableRow(["Interest paid", fmt(INTEREST_PAID[0]), fmt(INTEREST_PAID[1])]),
        TableRow(["Income taxes paid", fmt(TAX_PAID[0]), fmt(TAX_PAID[1])]),
        TableRow(["Net cash from operating activities", fmt(NET_OPERATING[0]), fmt(NET_OPERATING[1])],
                 "subtotal"),
        TableRow(["Investing activities", "", ""], "section"),
    ]
    cf_rows += [TableRow([n, fmt(a) if a else "—", fmt(c) if c else "—"]) for n, a, c in CF_INVESTING]
    cf_rows += [
        TableRow(["Net cash used in investing activities", fmt(NET_INVESTING[0]), fmt(NET_INVESTING[1])],
                 "subtotal"),
        TableRow(["Financing activities", "", ""], "section"),
    ]
    cf_rows += [TableRow([n, fmt(a), fmt(c)]) for n, a, c in CF_FINANCING]
    cf_rows += [
        TableRow(["Net cash used in financing activities", fmt(NET_FINANCING[0]), fmt(NET_FINANCING[1])],
                 "subtotal"),
        TableRow(["Net change in cash and cash equivalents", fmt(NET_CHANGE[0]), fmt(NET_CHANGE[1])], "subtotal"),
        TableRow(["Cash and cash equivalents at 1 January", fmt(OPENING_CASH[0]), fmt(OPENING_CASH[1])], "plain"),
        TableRow(["Effect of exchange rate changes", fmt(FX_EFFECT[0]), fmt(FX_EFFECT[1])], "plain"),
        TableRow(["Cash and cash equivalents at 31 December", fmt(CASH[0]), fmt(CASH[1])], "total"),
    ]
    assert NET_FINANCING[0] < 0 and NET_FINANCING[1] < 0
    rep.table(CF_CAPTION, ["EUR thousand", "2024", "2023"], cf_rows,
              [Col(LEFT, 380, "left"), Col(400, 470, "right"), Col(482, RIGHT, "right")],
              ["(1) Cash flows from operating activities are presented using the indirect method. Interest paid "
               "is classified as an operating cash flow and interest received as an investing cash flow."],
              keep_together=True, indent_items=True)

    # ---------------------------------------------------------------- pages 9-10: notes
    rep.heading(1, NOTES)
    rep.heading(2, "Note 1 Basis of preparation")
    rep.para(f"{COMPANY} is a public limited company incorporated and domiciled in Ireland. "
             + FACT_SENTENCES["accounting_framework"] + " " + FACT_SENTENCES["consolidation_basis"])
    rep.para(FACT_SENTENCES["default_currency"] + " " + FACT_SENTENCES["units"] + " "
             + FACT_SENTENCES["reporting_period"] + " The financial statements were prepared on a going "
             "concern basis; the Directors have assessed cash flow forecasts for at least twelve months from "
             "the date of approval.")
    rep.heading(2, "Note 2 Significant accounting policies")
    rep.para("The accounting policies set out below have been applied consistently to all periods presented. "
             "Amendments to IFRS that became effective on 1 January 2024 had no material effect on the "
             "consolidated financial statements.")
    rep.heading(3, "Revenue recognition")
    rep.para("Revenue from the sale of components is recognised when control passes to the customer, which is "
             "normally on delivery in accordance with the agreed Incoterms. Revenue from service contracts in "
             "Aftermarket Services is recognised over time as the services are rendered. Volume rebates are "
             "estimated using the expected value method and deducted from revenue.")
    rep.heading(3, "Goodwill and impairment")
    rep.para("Goodwill is allocated to the groups of cash-generating units that are expected to benefit from the "
             "business combination and is tested for impairment at least annually. The recoverable amount is "
             "determined on a value-in-use basis using five-year cash flow projections and pre-tax discount "
             "rates between 10.2% and 12.8%. No impairment was required in 2024 or 2023.")
    rep.heading(3, "Provisions")
    rep.para("A provision is recognised when the Group has a present obligation as a result of a past event, it "
             "is probable that an outflow of resources will be required and the amount can be estimated "
             "reliably. Warranty provisions are based on historical claim rates for each product family.")

    rep.page_break()
    rep.heading(2, "Note 3 Segment information")
    rep.para("Reportable segments correspond to the Group's business units, which are managed separately and "
             "reviewed monthly by the Chief Executive. Segment performance is measured by adjusted EBITDA, "
             "which excludes restructuring costs and acquisition-related expenses.")
    note3_rows = [TableRow([n, fmt(a), fmt(e), fmt(cx)]) for n, a, _, e, cx in SEGMENTS]
    note3_rows.append(TableRow(["Corporate and eliminations", "—", fmt(CORPORATE_EBITDA), fmt(CORPORATE_CAPEX)]))
    note3_rows.append(TableRow(["Group", fmt(REVENUE[0]), fmt(ADJ_EBITDA), fmt(CAPEX)], "total"))
    rep.table("Segment results 2024",
              ["EUR thousand", "Revenue", "Adjusted EBITDA", "Capital expenditure"],
              note3_rows,
              [Col(LEFT, 260, "left"), Col(280, 340, "right"), Col(360, 440, "right"), Col(460, RIGHT, "right")],
              [f"(1) Group adjusted EBITDA equals operating profit of {fmt(OP[0])} plus depreciation and "
               f"amortisation of {fmt(DEPRECIATION[0])}."])

    rep.heading(2, "Note 4 Provisions and contingent liabilities")
    prov = (BS_NON_CURRENT_LIAB[3][2] + BS_CURRENT_LIAB[4][2], BS_NON_CURRENT_LIAB[3][3] + BS_CURRENT_LIAB[4][3])
    rep.para(f"Provisions of {meur(prov[0])} (2023: {meur(prov[1])}) comprise product warranties, the "
             "HX-200 recall, restructuring and environmental obligations. Of the total, "
             f"{meur(BS_CURRENT_LIAB[4][2])} is expected to be used within one year.")
    sig_ref = "Significant events on page 4"
    attr = rep.para("Customers affected by the HX-200 recall described under "
                    f"{sig_ref} have brought claims for consequential losses in Germany and Austria. "
                    "No provision has been recognised for these claims because the Group does not consider an "
                    "outflow probable. Based on legal advice, the Group estimates the aggregate range of "
                    f"reasonably possible losses at {ATTRIBUTE_TEXT}.")
    page_refs.append({"source_page": attr["page"], "text": sig_ref, "target_page": 4,
                      "target_heading": "Significant events", "kind": "cross_reference"})
    attribute = {"text": ATTRIBUTE_TEXT, "page": attr["page"], "section_path": rep.section_path(),
                 "sentence": "Based on legal advice, the Group estimates the aggregate range of reasonably "
                             f"possible losses at {ATTRIBUTE_TEXT}.",
                 "low": {"amount": 2.1, "unit": "EUR million"}, "high": {"amount": 3.4, "unit": "EUR million"}}
    rep.heading(2, "Note 5 Events after the reporting period")
    rep.para("On 14 January 2025 the Group signed an agreement to acquire the remaining 30% interest in Aurora "
             "Transmisiones S.L. for EUR 6.2 million, subject to customary closing conditions. On 26 February "
             "2025 the Board proposed a dividend of EUR 0.64 per share, or EUR 32.0 million in total, which has "
             "not been recognised as a liability at 31 December 2024.")

    # ---------------------------------------------------------------- page 11: risk factors
    rep.heading(1, RISKS)
    rep.para("The risks below could have a material adverse effect on the Group's revenue, profit, cash flow or "
             "financial position. They are not the only risks the Group faces, and the order in which they are "
             "presented does not indicate their likelihood or potential impact.")
    for title, paras in RISK_FACTORS:
        rep.heading(2, title)
        for ptxt in paras:
            rep.para(ptxt)

    # ---------------------------------------------------------------- checks on the layout
    for h in rep.headings:
        if h["level"] == 1 and EXPECTED_L1_PAGES.get(h["title"]) != h["page"]:
            raise LayoutError(f"{h['title']!r} landed on page {h['page']}, "
                              f"expected {EXPECTED_L1_PAGES.get(h['title'])}")
    heading_pages = {h["title"]: h["page"] for h in rep.headings}
    for ref in page_refs:
        if heading_pages[ref["target_heading"]] != ref["target_page"]:
            raise LayoutError(f"page reference {ref} is wrong")
    pdf = rep.finish()
    gt = {
        "format": "pdf",
        "pages": len(rep.doc),
        "page_size": [PAGE_W, PAGE_H],
        "has_outline": False,
        "running_header": RUNNING_HEADER,
        "running_footer_pattern": RUNNING_FOOTER,
        "body_font_size": BODY,
        "heading_font_sizes": {str(k): v for k, v in HEADING_SIZE.items()},
        "headings": rep.headings,
        "tables": rep.tables,
        "significant_events": events_gt,
        "page_references": page_refs,
        "attribute": attribute,
        "facts": facts,
        "metrics": metric_truth(rep.tables),
    }
    return pdf, gt
