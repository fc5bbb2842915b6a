"""Write data/dev2/questions.jsonl from the two readers' sheets (data/dev2/sheets/A and B), the
reconciled disagreements (data/dev2/resolutions.json) and fixed templates.

    python scripts/dev2_questions.py            # reconcile, then write the questions
    python scripts/dev2_questions.py --check    # only list the disagreements still unresolved

Every template is applied to every filing of its kind that prints what it needs; computed golds are
this script's arithmetic over the gold values, never VERA's. See data/dev2/README.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "data" / "dev2"
SCALES = {"units": 1.0, "thousands": 1e3, "millions": 1e6, "billions": 1e9}
TOLERANCE = 1e-9
"""Two readings agree only on the same figure (float noise aside)."""

# The period each quarterly document reports, read from its cover page: (quarter key, the quarter as
# the question words it, the year-earlier quarter key and words, year-to-date months).
QUARTERS = {
    "APPLE_2023Q3_10Q": ("Q3 FY2023", "the three months ended July 1, 2023", "Q3 FY2022",
                         "the three months ended June 25, 2022", 9),
    "EBAY_2023Q2_10Q": ("Q2 FY2023", "the three months ended June 30, 2023", "Q2 FY2022",
                        "the three months ended June 30, 2022", 6),
    "PAYPAL_2023Q2_10Q": ("Q2 FY2023", "the three months ended June 30, 2023", "Q2 FY2022",
                          "the three months ended June 30, 2022", 6),
    "SALESFORCE_2023Q3_10Q": ("Q3 FY2023", "the three months ended October 31, 2022", "Q3 FY2022",
                              "the three months ended October 31, 2021", 9),
    "EBAY_2023Q2_EARNINGS": ("Q2 FY2023", "the second quarter of 2023", "Q2 FY2022", "the second quarter of 2022", 6),
    "INTEL_2023Q1_EARNINGS": ("Q1 FY2023", "the first quarter of 2023", "Q1 FY2022", "the first quarter of 2022", 3),
    "MCDONALDS_2023Q2_EARNINGS": ("Q2 FY2023", "the second quarter of 2023", "Q2 FY2022",
                                  "the second quarter of 2022", 6),
    "PG_E_2023_EARNINGS-dated-2023-07-27": ("Q2 FY2023", "the second quarter of 2023", "Q2 FY2022",
                                            "the second quarter of 2022", 6),
    "SALESFORCE_2024Q1_EARNINGS": ("Q1 FY2024", "the first quarter of fiscal 2024", "Q1 FY2023",
                                   "the first quarter of fiscal 2023", 3),
}
QUARTER_END = {
    "APPLE_2023Q3_10Q": "July 1, 2023", "EBAY_2023Q2_10Q": "June 30, 2023", "PAYPAL_2023Q2_10Q": "June 30, 2023",
    "SALESFORCE_2023Q3_10Q": "October 31, 2022",
}


NOT_SEGMENT = re.compile(r"\b(?:totals?|corporate|eliminations?|all\s+other|subtotal)\b", re.I)
"""Rows of a segment table that are not a segment."""
SEGMENT_MEASURES = {"ORACLE_2021_10K": "segment margin", "AES_2021_10K": "Adjusted PTC",
                    "BOSTONPROPERTIES_2015_10K": "net operating income"}
"""The measure a filing reports per segment, where it is not operating income."""


@dataclass(frozen=True)
class Gold:
    """One reconciled value: in units (scale applied), with where it is printed."""

    value: float
    page_index: int
    label: str
    accept: tuple[float, ...] = ()
    """Other readings an analyst would accept for the same item (in units)."""


class Sheet:
    """One filing's reconciled gold values."""

    def __init__(self, doc: str, a: dict, b: dict, values: dict[tuple[str, str], Gold], absent: set[str]) -> None:
        self.doc, self.company, self.kind = doc, a.get("company", doc.split("_")[0].title()), a.get("kind", "")
        self.values, self.absent = values, absent
        self.readings = (a, b)

    def top_segment(self, period: str) -> tuple[str, Gold] | None:
        """The segment both readers read as the largest by the filing's segment measure at `period`
        (totals, corporate and elimination rows are not segments), with the measure as asked."""
        tops = []
        for sheet in self.readings:
            tables = [t for t in sheet.get("segments", []) if t.get("period") == period and t.get("rows")]
            if not tables:
                return None
            table = tables[0]
            rows = [r for r in table["rows"] if not NOT_SEGMENT.search(r["name"])]
            best = max(rows, key=lambda r: r["value"])
            tops.append(Gold(best["value"] * SCALES[table.get("scale", "millions")], int(table["page_index"]), best["name"]))
        if len(tops) != 2 or not _agree(tops[0].value, tops[1].value):
            return None
        return SEGMENT_MEASURES.get(self.doc, "operating income"), tops[0]

    def get(self, item: str, period: str) -> Gold | None:
        return self.values.get((item, period))

    def years(self, item: str = "revenue") -> list[int]:
        """Fiscal years the sheet has `item` for, latest first."""
        return sorted({int(p[2:]) for (i, p) in self.values if i == item and p.startswith("FY")}, reverse=True)


def _reading(entry: dict) -> tuple[float, int, str]:
    return float(entry["value"]) * SCALES[entry.get("scale", "units")], int(entry["page_index"]), entry.get("label", "")


def _agree(x: float, y: float) -> bool:
    return x == y or abs(x - y) <= TOLERANCE * max(abs(x), abs(y))


def reconcile(doc: str, resolutions: dict) -> tuple[Sheet | None, list[str]]:
    """The filing's gold values, and the disagreements between the readers not yet resolved."""
    paths = [ROOT / "sheets" / r / f"{doc}.json" for r in ("A", "B")]
    if not all(p.exists() for p in paths):
        return None, [f"{doc}: {'both readings are' if not any(p.exists() for p in paths) else 'one reading is'} missing"]
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in paths)
    values: dict[tuple[str, str], Gold] = {}
    problems: list[str] = []
    resolved_absent: set[str] = set()
    by_key = [{(v["item"], v["period"]): v for v in sheet.get("values", [])
               if v.get("value") is not None and not v["item"].endswith("_part")} for sheet in (a, b)]
    for key in sorted(set(by_key[0]) | set(by_key[1])):
        fixed = resolutions.get(f"{doc}|{key[0]}|{key[1]}")
        if fixed is not None:
            scale = SCALES[fixed.get("scale", "units")]
            if fixed.get("value") is not None:
                values[key] = Gold(float(fixed["value"]) * scale, int(fixed["page_index"]), fixed.get("label", ""),
                                   tuple(float(x) * scale for x in fixed.get("accept", [])))
            else:
                resolved_absent.add(key[0])
            continue
        ra, rb = (by_key[i].get(key) for i in (0, 1))
        if ra is None or rb is None:
            other_absent = {x["item"] for x in (b if rb is None else a).get("absent", [])}
            if key[0] not in other_absent:
                continue  # read once only (an extra the other reader did not record): not a gold
            problems.append(f"{doc}|{key[0]}|{key[1]}: only reader {'A' if rb is None else 'B'} recorded it "
                            f"({(ra or rb)['printed']!r}, page {(ra or rb)['page_index']})")
            continue
        (va, pa, la), (vb, pb, _) = _reading(ra), _reading(rb)
        if not _agree(va, vb):
            problems.append(f"{doc}|{key[0]}|{key[1]}: A {ra['printed']!r} ({ra.get('scale')}, page {pa}) vs "
                            f"B {rb['printed']!r} ({rb.get('scale')}, page {pb})")
            continue
        values[key] = Gold(va, pa, la)
    absent = {x["item"] for x in a.get("absent", [])} & {x["item"] for x in b.get("absent", [])} | resolved_absent
    return Sheet(doc, a, b, values, absent), problems


# -- templates ------------------------------------------------------------------------------------

def _q(sheet: Sheet, template: str, kind: str, question: str, gold: float | None, unit: str, golds: list[Gold],
       accept: tuple[float, ...] = (), verdict: str | None = None, scale: float = 1.0) -> dict:
    """One question. `gold` is in the unit the question asks (`scale`: 1e6 for "in USD millions")."""
    expect = "abstain" if gold is None and verdict is None else "answer"
    return {"id": f"dev2-{sheet.doc}-{template.replace(':', '-')}", "doc_name": sheet.doc, "company": sheet.company,
            "template": template, "kind": kind, "question": question, "gold": None if gold is None else round(gold, 6),
            "gold_unit": unit, "gold_scale": scale, "accept": [round(x, 6) for x in accept], "verdict": verdict, "expect": expect,
            "answer": _answer_text(gold, unit, verdict),
            "evidence": [{"page_index": p} for p in sorted({g.page_index for g in golds})]}


def _answer_text(gold: float | None, unit: str, verdict: str | None) -> str:
    shown = "" if gold is None else (f"{gold:.2f}%" if unit == "percent" else f"${gold:,.2f}" if unit.startswith("usd")
                                     else f"{gold:.2f}")
    if verdict is not None:
        return f"{verdict}" + (f" ({shown})" if shown else "")
    return shown or "Not printed: the right answer abstains."


ANNUAL_FIGURES = [  # (template, item, period offset, question, unit asked)
    ("figure:revenue", "revenue", 0, "What is the FY{Y} total revenue (in USD millions) for {C}? Give a response to "
     "the question by relying on the details shown in the income statement.", 1e6),
    ("figure:cogs", "cogs", 0, "What is {C}'s FY{Y} cost of goods sold (in USD millions)? Base your answer on the "
     "income statement.", 1e6),
    ("figure:operating-income", "operating_income", 0, "What is {C}'s FY{Y} operating income (in USD millions)? "
     "Answer using the income statement.", 1e6),
    ("figure:net-income", "net_income", 0, "What is {C}'s FY{Y} net income (in USD millions)? Use the income "
     "statement.", 1e6),
    ("figure:net-income-older", "net_income", 2, "What was {C}'s net income in FY{Y2} (in USD millions)? Use the "
     "income statement.", 1e6),
    ("figure:revenue-older", "revenue", 1, "What was {C}'s total revenue in FY{Y1}, in USD billions? Answer from "
     "the income statement.", 1e9),
    ("figure:total-assets", "total_assets", 0, "What is the value of {C}'s total assets (in USD millions) at the end "
     "of FY{Y}? Answer from the balance sheet.", 1e6),
    ("figure:current-assets", "total_current_assets", 0, "What are {C}'s total current assets at the end of FY{Y} "
     "(in USD millions)? Use the balance sheet.", 1e6),
    ("figure:current-liabilities", "total_current_liabilities", 0, "What are {C}'s total current liabilities at "
     "the end of FY{Y} (in USD millions), per the balance sheet?", 1e6),
    ("figure:inventories", "inventories", 0, "What is {C}'s year-end FY{Y} inventory (in USD millions)? Use the "
     "balance sheet.", 1e6),
    ("figure:accounts-payable", "accounts_payable", 0, "What is the FY{Y} year-end accounts payable balance for {C} "
     "(in USD millions)? Use the balance sheet.", 1e6),
    ("figure:net-ppe", "net_ppe", 0, "Assume that you are a public equities analyst. Answer the following question "
     "by primarily using information that is shown in the balance sheet: what is the year end FY{Y} net PPNE for "
     "{C}? Answer in USD billions.", 1e9),
    ("figure:capex", "capex", 0, "What is the FY{Y} capital expenditure amount (in USD millions) for {C}? Give a "
     "response to the question by relying on the details shown in the cash flow statement.", 1e6),
    ("figure:dna", "dna", 0, "What is {C}'s FY{Y} depreciation and amortization expense (in USD millions), as shown "
     "in the cash flow statement?", 1e6),
    ("figure:cfo", "cfo", 0, "How much cash did {C} generate from operating activities in FY{Y} (in USD millions)? "
     "Use the cash flow statement.", 1e6),
]


UNSIGNED = ("capex", "dna", "cogs", "dividends_paid")
"""Costs and outflows: asked for as the amount spent, whatever sign the filing prints them with."""


def _words(text: str, sheet: Sheet, year: int) -> str:
    return text.format(C=sheet.company, Y=year, Y1=year - 1, Y2=year - 2)


def _net_income(sheet: Sheet, period: str) -> tuple[Gold | None, tuple[float, ...]]:
    """Net income attributable to the company, and consolidated net income as an accepted alternative."""
    main, total = sheet.get("net_income", period), sheet.get("net_income_consolidated", period)
    accept = (total.value,) if main and total and not _agree(main.value, total.value) else ()
    return main or total, accept + (main.accept if main else ())


def annual(sheet: Sheet) -> list[dict]:
    years = sheet.years()
    if not years:
        return []
    y = years[0]
    out: list[dict] = []
    for template, item, back, text, scale in ANNUAL_FIGURES:
        period = f"FY{y - back}"
        gold, accept = _net_income(sheet, period) if item == "net_income" else (sheet.get(item, period), ())
        if gold is None and item not in sheet.absent:
            continue  # neither printed nor known to be absent: the readers could not tell
        value = None if gold is None else abs(gold.value) / scale if item in UNSIGNED else gold.value / scale
        out.append(_q(sheet, template, "figure", _words(text, sheet, y), value, "usd", [gold] if gold else [],
                      tuple(a / scale for a in accept), scale=scale))
    out += annual_metrics(sheet, y)
    out += annual_verdicts(sheet, y)
    return out


def _v(sheet: Sheet, item: str, year: int, sign: bool = False) -> Gold | None:
    """The gold of `item` at fiscal year-end `year` (unsigned for costs when `sign`); net income
    carries the other accepted readings (consolidated net income) in `accept`."""
    if item == "net_income":
        gold, accept = _net_income(sheet, f"FY{year}")
        return Gold(gold.value, gold.page_index, gold.label, accept) if gold else None
    gold = sheet.get(item, f"FY{year}")
    if gold is None:
        return None
    return Gold(abs(gold.value), gold.page_index, gold.label) if sign else gold


def _alternatives(golds: list[Gold], compute) -> tuple[float, ...]:
    """The metric over each other accepted reading, taken for every operand that has one (every year's
    consolidated net income together: an analyst does not mix the two readings across years)."""
    out = []
    for k in range(max((len(g.accept) for g in golds), default=0)):
        out.append(compute(*[g.accept[k] if len(g.accept) > k else g.value for g in golds]))
    return tuple(out)


def annual_metrics(sheet: Sheet, y: int) -> list[dict]:
    out: list[dict] = []
    g = lambda item, year, sign=False: _v(sheet, item, year, sign)  # noqa: E731

    def add(template: str, text: str, needs: list[tuple[str, int]], compute, unit: str, scale: float = 1.0,
            absent_is_abstain: bool = True) -> None:
        golds = [g(i, yr, i in UNSIGNED) for i, yr in needs]
        if any(x is None for x in golds):
            missing = {i for (i, _), x in zip(needs, golds) if x is None}
            if absent_is_abstain and missing <= sheet.absent:
                out.append(_q(sheet, template, "metric", _words(text, sheet, y), None, unit, [], scale=scale))
            return
        value = compute(*[x.value for x in golds])
        accept = tuple(a / scale for a in _alternatives(golds, compute))
        out.append(_q(sheet, template, "metric", _words(text, sheet, y), value / scale, unit, golds, accept, scale=scale))

    add("metric:revenue-growth", "What is the year-over-year change in revenue from FY{Y1} to FY{Y} for {C} (in "
        "units of percents and round to one decimal place)? Give a response to the question by relying on the details "
        "shown in the income statement.", [("revenue", y), ("revenue", y - 1)], lambda a, b: (a / b - 1) * 100, "percent")
    add("metric:growth-range", "What is {C}'s FY{Y1} - FY{Y} operating income growth rate? Answer in percent, rounded "
        "to one decimal place, based on the income statement.", [("operating_income", y), ("operating_income", y - 1)],
        lambda a, b: (a / b - 1) * 100, "percent")
    add("metric:avg-net-margin", "What is {C}'s FY{Y2} - FY{Y} 3 year average net profit margin (as a %)? Answer in "
        "units of percents and round to one decimal place. Use the income statement.",
        [("net_income", y), ("revenue", y), ("net_income", y - 1), ("revenue", y - 1), ("net_income", y - 2),
         ("revenue", y - 2)], lambda n0, r0, n1, r1, n2, r2: (n0 / r0 + n1 / r1 + n2 / r2) / 3 * 100, "percent")
    add("metric:avg-capex-pct", "What is the FY{Y2} - FY{Y} 3 year average of capex as a % of revenue for {C}? Answer "
        "in units of percents and round to one decimal place. Calculate what was asked by utilizing the line items "
        "clearly shown in the cash flow statement and the income statement.",
        [("capex", y), ("revenue", y), ("capex", y - 1), ("revenue", y - 1), ("capex", y - 2), ("revenue", y - 2)],
        lambda c0, r0, c1, r1, c2, r2: (c0 / r0 + c1 / r1 + c2 / r2) / 3 * 100, "percent")
    add("metric:dpo", "What is the FY{Y} days payable outstanding (DPO) for {C}? DPO is defined as: 365 * (average "
        "accounts payable between FY{Y1} and FY{Y}) / (FY{Y} COGS + change in inventory between FY{Y1} and FY{Y}). "
        "Round your answer to two decimal places. Address the question by using the line items and information shown "
        "within the balance sheet and the P&L statement.",
        [("accounts_payable", y), ("accounts_payable", y - 1), ("cogs", y), ("inventories", y), ("inventories", y - 1)],
        lambda p0, p1, c, i0, i1: 365 * (p0 + p1) / 2 / (c + i0 - i1), "days")
    add("metric:inventory-change", "What is the change in inventory between FY{Y1} and FY{Y} for {C} (in USD "
        "millions)? Use the balance sheet.", [("inventories", y), ("inventories", y - 1)], lambda a, b: a - b, "usd", 1e6)
    add("metric:roa", "What is {C}'s FY{Y} return on assets (ROA)? ROA is defined as: FY{Y} net income / (average total "
        "assets between FY{Y1} and FY{Y}). Answer in percent, rounded to two decimal places.",
        [("net_income", y), ("total_assets", y), ("total_assets", y - 1)], lambda n, a0, a1: n / ((a0 + a1) / 2) * 100,
        "percent")
    if g("inventories", y) is not None:
        add("metric:quick-ratio", "What is {C}'s FY{Y} quick ratio? The quick ratio is defined as (total current assets "
            "- inventories) / total current liabilities. Round to two decimal places. Use the balance sheet.",
            [("total_current_assets", y), ("inventories", y), ("total_current_liabilities", y)],
            lambda a, i, l: (a - i) / l, "ratio")
    else:
        add("metric:current-ratio", "What is {C}'s current ratio at the end of FY{Y}? Round to two decimal places. Use "
            "the balance sheet.", [("total_current_assets", y), ("total_current_liabilities", y)], lambda a, l: a / l,
            "ratio")
    add("metric:working-capital", "What is {C}'s working capital at the end of FY{Y} (in USD millions)? Working capital "
        "is defined as total current assets minus total current liabilities.",
        [("total_current_assets", y), ("total_current_liabilities", y)], lambda a, l: a - l, "usd", 1e6)
    add("metric:ebitda-margin", "What is {C}'s FY{Y} unadjusted EBITDA % margin? Calculate unadjusted EBITDA using "
        "unadjusted operating income and D&A (from cash flow statement). Answer in percent, rounded to one decimal place.",
        [("operating_income", y), ("dna", y), ("revenue", y)], lambda o, d, r: (o + d) / r * 100, "percent")
    add("metric:fcf", "What is {C}'s FY{Y} free cash flow (in USD millions)? Free cash flow is defined as cash from "
        "operations minus capital expenditures. Use the cash flow statement.", [("cfo", y), ("capex", y)],
        lambda c, x: c - x, "usd", 1e6)
    add("metric:etr", "What is {C}'s FY{Y} effective tax rate? The effective tax rate is the provision for income taxes "
        "divided by income before income taxes. Answer in percent, rounded to one decimal place.",
        [("income_tax", y), ("pretax_income", y)], lambda t, p: t / p * 100, "percent")
    add("metric:payout", "What is {C}'s FY{Y} dividend payout ratio, defined as cash dividends paid divided by net "
        "income? Answer in percent, rounded to one decimal place.", [("dividends_paid", y), ("net_income", y)],
        lambda d, n: d / n * 100, "percent", absent_is_abstain=False)
    return out


def annual_verdicts(sheet: Sheet, y: int) -> list[dict]:
    out: list[dict] = []
    g = lambda item, year: _v(sheet, item, year)  # noqa: E731
    rev0, rev1, cogs0, cogs1 = g("revenue", y), g("revenue", y - 1), g("cogs", y), g("cogs", y - 1)
    text = _words("Does {C} have an improving gross margin profile as of FY{Y}? Compare its gross margin in FY{Y1} "
                  "and FY{Y}.", sheet, y)
    if rev0 and rev1 and cogs0 and cogs1:
        m0, m1 = 1 - abs(cogs0.value) / rev0.value, 1 - abs(cogs1.value) / rev1.value
        out.append(_q(sheet, "verdict:gross-margin", "verdict", text, m0 * 100, "percent", [rev0, rev1, cogs0, cogs1],
                      verdict="yes" if m0 > m1 else "no"))
    elif "cogs" in sheet.absent:
        out.append(_q(sheet, "verdict:gross-margin", "verdict", text, None, "percent", [], verdict="withheld"))
    ca, cl = g("total_current_assets", y), g("total_current_liabilities", y)
    if ca and cl:
        out.append(_q(sheet, "verdict:working-capital", "verdict", _words("Is {C}'s working capital positive at the end "
                      "of FY{Y}?", sheet, y), (ca.value - cl.value) / 1e6, "usd", [ca, cl],
                      verdict="yes" if ca.value > cl.value else "no", scale=1e6))
    n0, n1 = g("net_income", y), g("net_income", y - 1)
    if n0 and n1:
        out.append(_q(sheet, "verdict:net-income-up", "verdict", _words("Did {C}'s net income increase from FY{Y1} to "
                      "FY{Y}?", sheet, y), n0.value / 1e6, "usd", [n0, n1], verdict="yes" if n0.value > n1.value else "no",
                      scale=1e6))
    o0, o1 = g("operating_income", y), g("operating_income", y - 1)
    if o0 and o1 and rev0 and rev1:
        m0, m1 = o0.value / rev0.value, o1.value / rev1.value
        out.append(_q(sheet, "verdict:operating-margin", "verdict", _words("Did {C}'s operating margin improve from "
                      "FY{Y1} to FY{Y}?", sheet, y), m0 * 100, "percent", [o0, o1, rev0, rev1],
                      verdict="yes" if m0 > m1 else "no"))
    top = sheet.top_segment(f"FY{y}")
    if top is not None:
        measure, best = top
        out.append(_q(sheet, "verdict:top-segment", "verdict", _words(f"Which segment had the highest {measure} "
                      "for {C} in FY{Y}?", sheet, y), best.value / 1e6, "usd", [best], verdict=best.label, scale=1e6))
    return out


def quarterly(sheet: Sheet) -> list[dict]:
    if sheet.doc not in QUARTERS:
        return []
    q, words, qp, words_prior, ytd = QUARTERS[sheet.doc]
    end = QUARTER_END.get(sheet.doc)
    out: list[dict] = []
    get = sheet.get
    release = "EARNINGS" in sheet.doc
    where = ", according to its earnings release" if release else ""

    def fig(template: str, item: str, period: str, text: str, scale: float, unit: str = "usd") -> None:
        gold = get(item, period)
        if gold is None and item not in sheet.absent:
            return
        value = None if gold is None else gold.value / scale
        out.append(_q(sheet, template, "figure", text, value, unit, [gold] if gold else [], scale=scale))

    C = sheet.company
    fig("q-figure:revenue", "revenue", q, f"What was {C}'s total revenue for {words} (in USD millions){where}?", 1e6)
    fig("q-figure:revenue-prior", "revenue", qp, f"What was {C}'s total revenue for {words_prior} (in USD millions), "
        f"as shown in its report for {words}?", 1e6)
    fig("q-figure:net-income", "net_income", q, f"What was {C}'s net income for {words} (in USD millions){where}?", 1e6)
    fig("q-figure:operating-income", "operating_income", q, f"What was {C}'s operating income for {words} (in USD "
        f"millions){where}?", 1e6)
    fig("q-figure:eps", "eps_diluted", q, f"What were {C}'s GAAP diluted earnings per share for {words}?", 1.0,
        "usd_per_share")
    if end:
        fig("q-figure:total-assets", "total_assets", q, f"What were {C}'s total assets as of {end} (in USD millions)?", 1e6)
        fig("q-figure:cash", "cash", q, f"How much cash and cash equivalents did {C} hold as of {end} (in USD millions)?",
            1e6)
        months = {3: "three", 6: "six", 9: "nine"}[ytd]
        fig("q-figure:cfo-ytd", "cfo", f"YTD {q}", f"What was {C}'s net cash provided by operating activities for the "
            f"{months} months ended {end} (in USD millions)?", 1e6)
    r0, r1 = get("revenue", q), get("revenue", qp)
    if r0 and r1:
        out.append(_q(sheet, "q-metric:revenue-growth", "metric", f"What is {C}'s year-over-year revenue growth for "
                      f"{words}? Answer in percent, rounded to one decimal place.", (r0.value / r1.value - 1) * 100,
                      "percent", [r0, r1]))
        out.append(_q(sheet, "q-verdict:revenue-up", "verdict", f"Did {C}'s revenue grow year over year in {words}?",
                      (r0.value / r1.value - 1) * 100, "percent", [r0, r1], verdict="yes" if r0.value > r1.value else "no"))
    o0 = get("operating_income", q)
    if o0 and r0:
        out.append(_q(sheet, "q-metric:operating-margin", "metric", f"What was {C}'s operating margin for {words}? "
                      "Answer in percent, rounded to one decimal place.", o0.value / r0.value * 100, "percent", [o0, r0]))
    ca, cl = get("total_current_assets", q), get("total_current_liabilities", q)
    if ca and cl and end:
        out.append(_q(sheet, "q-metric:working-capital", "metric", f"What was {C}'s working capital as of {end} (in USD "
                      "millions)? Working capital is total current assets minus total current liabilities.",
                      (ca.value - cl.value) / 1e6, "usd", [ca, cl], scale=1e6))
        out.append(_q(sheet, "q-metric:current-ratio", "metric", f"What was {C}'s current ratio as of {end}? Round to "
                      "two decimal places.", ca.value / cl.value, "ratio", [ca, cl]))
        out.append(_q(sheet, "q-verdict:working-capital", "verdict", f"Was {C}'s working capital positive as of {end}?",
                      (ca.value - cl.value) / 1e6, "usd", [ca, cl], verdict="yes" if ca.value > cl.value else "no",
                      scale=1e6))
    e0, e1 = get("eps_diluted", q), get("eps_diluted", qp)
    if release and e0 and e1:
        out.append(_q(sheet, "q-verdict:eps-up", "verdict", f"Did {C}'s GAAP diluted EPS increase year over year in "
                      f"{words}?", e0.value, "usd_per_share", [e0, e1], verdict="yes" if e0.value > e1.value else "no"))
    return out


def curated(sheet: Sheet, entries: list[dict]) -> tuple[list[dict], list[str]]:
    """Questions written for figures a release, a current report or a 10-K prints outside the
    statement templates (non-GAAP headlines, amounts stated in text, counts): each value must be one
    both readers recorded (in `nongaap`, `other` or `values`), on the page both give."""
    out, problems = [], []
    for entry in entries:
        scale = SCALES[entry.get("scale", "units")]
        wanted = [float(entry["value"]) * scale, *(float(x) * scale for x in entry.get("also", []))]
        pages = []
        for reading in sheet.readings:
            found = [e for part in ("nongaap", "other", "values") for e in reading.get(part, [])
                     if e.get("value") is not None and any(_agree(_reading(e)[0], w) for w in wanted[:1])]
            pages.append(sorted({int(e["page_index"]) for e in found}))
        if not all(pages):
            problems.append(f"{sheet.doc}: {entry['template']} {entry['value']} is not in both readings")
            continue
        page = min(set(pages[0]) & set(pages[1]) or set(pages[0]))
        kind = "verdict" if entry.get("verdict") else "figure"
        q = _q(sheet, entry["template"], kind, entry["question"], float(entry["value"]), entry["unit"],
               [Gold(wanted[0], page, "")], verdict=entry.get("verdict"), scale=scale)
        if entry.get("id"):
            q["id"] = entry["id"]
        out.append(q)
    return out, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list the unresolved disagreements")
    args = parser.parse_args()
    resolutions = json.loads((ROOT / "resolutions.json").read_text(encoding="utf-8")) \
        if (ROOT / "resolutions.json").exists() else {}
    docs = sorted({p.stem for r in ("A", "B") for p in (ROOT / "sheets" / r).glob("*.json")})
    sheets, problems = [], []
    for doc in docs:
        sheet, issues = reconcile(doc, resolutions)
        problems += issues
        if sheet is not None:
            sheets.append(sheet)
    for line in problems:
        print(line)
    if args.check or problems:
        print(f"{len(problems)} disagreements unresolved", file=sys.stderr)
        return 1 if problems else 0
    entries = json.loads((ROOT / "curated.json").read_text(encoding="utf-8"))
    questions = []
    for sheet in sheets:
        questions += annual(sheet) if sheet.kind == "10-K" else quarterly(sheet)
        written, issues = curated(sheet, [e for e in entries if e["doc"] == sheet.doc])
        questions += written
        problems += issues
    if problems:
        print("\n".join(problems))
        return 1
    (ROOT / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
    kinds = {k: sum(q["kind"] == k for q in questions) for k in ("figure", "metric", "verdict")}
    print(f"{len(questions)} questions over {len(sheets)} filings: {kinds}; "
          f"{sum(q['expect'] == 'abstain' for q in questions)} expect an abstention")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
