"""Which primary financial statement a table is, from its caption, heading and row labels.

Filings print split words in titles ("Statement of Cash Flow s"), so titles are compared with their
spaces removed. A note table that merely mentions cash flows is not the statement: the title must
name the statement, or the rows must carry its totals.
"""

from __future__ import annotations

import re

STATEMENTS = ("income", "comprehensive_income", "balance", "cash_flow", "equity")
"""Statement kinds, the order a figure answer prefers when the question names none."""
STATEMENT_NAMES = {"income": "income statement", "comprehensive_income": "statement of comprehensive income",
                   "balance": "balance sheet", "cash_flow": "cash flow statement",
                   "equity": "statement of changes in equity"}
_TITLES = (  # matched against the title with spaces removed, lower case
    ("comprehensive_income", r"statements?of(?:consolidated)?comprehensive(?:income|loss|earnings)"),
    ("cash_flow", r"(?:statements?of(?:consolidated)?cashflows?|cashflowstatements?)"),
    ("balance", r"balancesheets?|statements?of(?:consolidated)?financial(?:position|condition)"),
    ("equity", r"(?:statements?of)?(?:consolidated)?changesin(?:\w+')?(?:stockholders|shareholders|share"
               r"owners|members)?'?s?equity|statements?of(?:stockholders|shareholders|shareowners)'?s?equity"),
    ("income", r"statements?of(?:consolidated)?(?:income|operations|earnings|profitorloss)|incomestatements?|"
               r"profitandlossaccount|statementsofcomprehensiveincome(?!s)"),
)
_ROW_SIGNS = (
    ("cash_flow", (r"net cash (?:provided|used|from|generated)", r"cash and cash equivalents at (?:end|beginning)")),
    ("balance", (r"^total assets", r"^total (?:liabilities|equity|stockholders|shareholders)")),
    ("income", (r"^(?:net sales|total (?:net )?revenues?|revenues?|net revenues?)\b", r"^net (?:income|earnings|profit)|"
                r"^profit for the (?:year|period)")),
)


def classify(title: str, labels: list[str]) -> str:
    """The statement kind of a table, or '' for notes and other tables."""
    squeezed = re.sub(r"[\s\u2019]", "", title.lower()).replace("\u2019", "'")
    for kind, pattern in _TITLES:
        if re.search(pattern, squeezed):
            return kind
    lowered = [label.lower().strip() for label in labels if label]
    for kind, (first, second) in _ROW_SIGNS:
        if any(re.search(first, x) for x in lowered) and any(re.search(second, x) for x in lowered) \
                and len(lowered) >= 8:
            return kind
    return ""


def named_statement(question: str) -> str:
    """The statement a question names ("based on the cash flow statement", "P&L"), or ''."""
    q = question.lower()
    if re.search(r"cash\s*flows?\b", q):
        return "cash_flow"
    if re.search(r"balance\s+sheet|statement\s+of\s+financial\s+position", q):
        return "balance"
    if re.search(r"income\s+statements?|statements?\s+of\s+(?:income|operations|earnings)|p\s*&\s*l\b|"
                 r"profit\s+and\s+loss", q):
        return "income"
    if re.search(r"comprehensive\s+income", q):
        return "comprehensive_income"
    return ""
