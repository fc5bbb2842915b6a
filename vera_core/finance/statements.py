"""Which primary financial statement a table is, from its caption, heading and row labels.

Filings print split words in titles ("Statement of Cash Flow s"), so titles are compared with their
spaces removed. A note table that merely mentions cash flows is not the statement: the title must
name the statement, or the rows must carry its totals. Rules (each a filing convention):
- The caption names the table; the enclosing heading only when the caption names no statement (the
  statement of changes in equity printed under the balance sheet's heading is the equity statement).
- A title that names a statement inside a note, a selection or a supplement ("NOTE 7. Supplemental
  Balance Sheet Information", "Selected Income Statement Data") is not the statement; nor is any
  table under a "Note N" heading, even one captioned "Statement of Cash Flows".
- A table titled as a statement carries at least one of its rows ("net cash ...", "total assets").
- Rows alone decide only when they carry one statement's signs and no other's: "Selected financial
  data" lists net sales and total assets.
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
               r"owners|members)?'?s?equity|"
               r"statements?of(?:consolidated)?(?:stockholders|shareholders|shareowners)?'?s?equity"),
    ("income", r"statements?of(?:consolidated)?(?:income|operations|earnings|profitorloss)|incomestatements?|"
               r"profitandlossaccount|statementsofcomprehensiveincome(?!s)"),
)
_NOT_STATEMENT = re.compile(r"^\W*notes?\s+(?:\d|to\b)|\b(?:selected|supplement(?:al|ary)|summary|summarized|"
                            r"parent\s+company|statement\s+(?:and\s+other\s+)?data|pro\s+forma|"
                            r"(?:information|statements?)\s+of\s+(?:the\s+)?(?:parent|registrant)|schedule\s+i\b)\b", re.I)
"""Words that make a statement's title a note's, a selection's or the parent company's alone (not
"except per share data": scale lines share the caption)."""
STATEMENT_WORDS = re.compile(
    r"\b(?:(?:condensed\s+)?(?:consolidated|combined)\s+(?:condensed\s+)?)?(?:statements?\s+of|balance\s+sheets?|"
    r"income\s+statements?|cash\s+flow\s+statements?)\b", re.I)
"""Where a statement's title starts ("PG&E Corporation | Consolidated Statements of Income"): the entity
a title names comes before these words."""
NOTE_HEADING = re.compile(r"^\W*notes?\s+(?:\d|to\b)", re.I)
"""A note's heading ("Note 14 — ...", "Notes to Consolidated Financial Statements")."""
_OWN_ROWS = {  # a statement's table carries at least one such row
    "income": r"revenue|sales|net (?:income|earnings|loss|profit)|profit|earnings|operating (?:income|expenses)|"
              r"income tax|cost of",
    "comprehensive_income": r"comprehensive",
    "balance": r"^total\b.*\b(?:assets|liabilities|equity)\b|retained earnings|cash and cash equivalents",
    "cash_flow": r"net cash|cash equivalents|(?:operating|investing|financing) activities|depreciation",
    "equity": r"balance|dividends|retained earnings|equity|net (?:income|earnings)|shares",
}
_ROW_SIGNS = (
    ("cash_flow", (r"net cash (?:provided|used|from|generated)", r"cash and cash equivalents at (?:end|beginning)")),
    ("balance", (r"^total assets", r"^total (?:liabilities|equity|stockholders|shareholders)")),
    ("income", (r"^(?:net sales|total (?:net )?revenues?|revenues?|net revenues?)\b", r"^net (?:income|earnings|profit)|"
                r"^profit for the (?:year|period)")),
)


def classify(title: str, labels: list[str]) -> str:
    """The statement kind of a table, or '' for notes and other tables."""
    return classify_table(title, "", labels)


def classify_table(caption: str, heading: str, labels: list[str]) -> str:
    """The statement kind of a table from its caption, else its enclosing heading, else its rows; ''
    for notes and other tables."""
    lowered = [label.lower().strip() for label in labels if label]
    for title in (caption, heading):
        kind = statement_titled(title)
        if kind is not None:
            own = kind and (not lowered or any(re.search(_OWN_ROWS[kind], x) for x in lowered))
            return kind if own else ""
    matched = [kind for kind, (first, second) in _ROW_SIGNS
               if any(re.search(first, x) for x in lowered) and any(re.search(second, x) for x in lowered)]
    others = [kind for kind, (first, _) in _ROW_SIGNS if any(re.search(first, x) for x in lowered)]
    if len(matched) == 1 and set(others) <= set(matched) and len(lowered) >= 8:
        return matched[0]
    return ""


def in_notes(headings: tuple[str, ...] | list[str]) -> bool:
    """Whether a heading path runs through a note ("Note 14 — Supplemental Financial Information"):
    its tables are notes, whatever their captions say."""
    return any(NOTE_HEADING.match(h) for h in headings)


def statement_titled(title: str) -> str | None:
    """The statement a title names; '' when it names one inside a note, a selection or a supplement;
    None when it names none."""
    squeezed = re.sub(r"[\s\u2019]", "", title.lower()).replace("\u2019", "'")
    for kind, pattern in _TITLES:
        if re.search(pattern, squeezed):
            return "" if _NOT_STATEMENT.search(title) else kind
    return None


def named_statement(question: str) -> str:
    """The statement a question names ("based on the cash flow statement", "P&L"), or ''."""
    q = question.lower()
    if re.search(r"cash\s*flows?\b", q):
        return "cash_flow"
    if re.search(r"balance\s+sheet|statements?\s+of\s+financial\s+(?:position|condition)", q):
        return "balance"
    if re.search(r"income\s+statements?|statements?\s+of\s+(?:income|operations|earnings)|p\s*&\s*l\b|"
                 r"profit\s+and\s+loss", q):
        return "income"
    if re.search(r"comprehensive\s+income", q):
        return "comprehensive_income"
    return ""


# NOTE: titles are matched with spaces and punctuation removed: PDF text splits words ("Consolidated
# Statement of Incom e", "Balance Shee t") and names the company first ("3M Company and Subsidiaries").
_STATEMENT_TITLE = re.compile(
    r"^(?:\w{0,60}?andsubsidiar(?:y|ies))?(?:unaudited)?(?:condensed)?(?:consolidated|combined)?(?:condensed)?"
    r"(?:statements?of(?:consolidated)?(?:income|operations|earnings|comprehensive|cashflows?|financialposition"
    r"|financialcondition|changesin|shareholders|stockholders|shareowners|equity|retainedearnings|profitorloss"
    r"|profitandloss)|balancesheets?|incomestatements?|cashflowstatements?)")


def is_statement_title(text: str) -> bool:
    """Whether a caption, heading or title line names a primary statement ("Consolidated Balance
    Sheets", "3M Company and Subsidiaries Consolidated Statement of Incom e", "Consolidated income
    statement for the year ended 31 December 2024")."""
    return bool(_STATEMENT_TITLE.match(re.sub(r"[\W_]+", "", text.lower())))
