"""Finance line items: how analysts name them and how statements print them.

A concept is found in a question by its `asked` pattern; a statement row is that concept when its
label contains every word of one of the concept's `printed` phrases (after the shared text
normaliser). A question naming no known concept is matched on its own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from vera_core.text import normalise


@dataclass(frozen=True)
class Concept:
    """A line item an analyst asks for."""

    name: str
    """How the answer names it ("capital expenditure")."""
    asked: re.Pattern[str]
    """Words of a question that ask for it."""
    printed: tuple[str, ...]
    """Row labels that print it, most specific first."""
    outflow: bool = False
    """Printed negative in the cash flow statement, asked for as a positive amount (capex, dividends)."""
    expense: bool = False
    """A cost: printed in parentheses by some filers, used in formulas as the amount incurred."""
    per_share: bool = False
    """Only rows of per-share amounts print it (not the share counts beside them)."""
    home: tuple[str, ...] = ()
    """The primary statements that print it, first the one it is read from (`income`, `balance`,
    `cash_flow`); empty for items no primary statement carries (notes, segments)."""
    never_credit: bool = False
    """A cost that is never a credit: printed in parentheses it is still the amount incurred (interest
    expense under "Non-operating income (expense)"), whatever the rest of the table prints."""
    other_items: tuple[str, ...] = ()
    """Words that make a row printing its name another item ("Income from continuing operations" is
    not operating income; "Income before income taxes" is not the tax expense)."""
    shares: bool = False
    """A count of shares: read from a row that counts shares, stated with no currency and never as an amount per share;
    a question naming it asks the count, not the EPS beside it ("diluted shares ... in its EPS calculation")."""

    @property
    def words(self) -> frozenset[str]:
        """The normalised words of its name and of the row labels that print it."""
        return label_terms(" ".join((self.name, *self.printed)))


def _c(name: str, asked: str, printed: tuple[str, ...], outflow: bool = False, expense: bool = False,
       per_share: bool = False, home: tuple[str, ...] = (), other_items: str = "", never_credit: bool = False,
       shares: bool = False) -> Concept:
    return Concept(name, re.compile(asked, re.I), printed, outflow, expense, per_share, home, never_credit,
                   tuple(other_items.split()), shares)


CONCEPTS: tuple[Concept, ...] = (
    _c("capital expenditure", r"\bcapex\b|\bcapital\s+expenditures?\b|\bcapital\s+spending\b|"
                              r"\b(?:purchases?|acquisitions?|additions?|payments?)\s+(?:of|to|for)\s+(?:PP&E|P&E\b|"
                              r"property,?\s+(?:plant,?\s+)?(?:and|&)\s+equipment)\b",
       ("purchases of property plant and equipment", "purchase of property plant and equipment",
        "capital expenditures", "capital expenditure", "capital spending", "additions to property plant and equipment",
        "payments for property plant and equipment", "expenditures for property plant and equipment",
        "purchases of property and equipment", "additions to property and equipment"), outflow=True, home=("cash_flow",)),
    _c("net property, plant and equipment",
       r"\bnet\s+(?:PP&?N?E|property,?\s+plant,?\s+(?:and|&)\s+equipment)\b|\bPP&?N?E,?\s+net\b|"
       r"\bproperty,?\s+plant,?\s+(?:and|&)\s+equipment,?\s+net\b|\bPPNE\b|\bPP&?E\b|"
       r"\bproperty,?\s+plant,?\s+(?:and|&)\s+equipment\b|\bfixed\s+assets\b",
       ("property plant and equipment net", "net property plant and equipment", "property and equipment net",
        "net property and equipment", "property plant and equipment"), home=("balance",)),
    # NOTE: a liability, never the revenue line: "deferred revenue balance" is Salesforce's "Unearned revenue"
    _c("deferred revenue", r"\b(?:deferred|unearned)\s+revenues?\b|\bcontract\s+liabilit(?:y|ies)\b",
       ("deferred revenue", "unearned revenue", "deferred revenues", "unearned revenues", "contract liabilities",
        "contract liability"), home=("balance",)),
    _c("revenue", r"\b(?:total\s+|net\s+)?(?:revenues?|net\s+sales|turnover)\b|\btop[\s-]line\b",
       ("total net revenues", "total net revenue", "total revenues", "total revenue", "net revenues", "net revenue",
        "net sales", "revenues", "revenue", "sales"), home=("income",)),
    _c("net income", r"\bnet\s+(?:income|earnings|profit)\b|\bprofit\s+for\s+the\s+(?:year|period)\b|"
                     r"\b(?:profit|earnings|income)\s+attributable\s+to\b",
       ("net income attributable to", "net earnings attributable to", "net income", "net earnings",
        "profit for the year", "profit for the period", "net loss attributable to", "net loss"), home=("income",)),
    _c("operating income", r"\b(?:operating|op\.?)\s+(?:income|profit|loss)\b|\b(?:income|loss)\s+from\s+operations\b|\bEBIT\b|"
                           r"\b(?:at|on)\s+the\s+operating\s+(?:line|level)\b",
       ("operating income", "operating profit", "income from operations", "loss from operations", "operating loss"),
       home=("income",),
       other_items="continuing discontinued before tax taxes equity"),
    _c("cost of sales", r"\bcost\s+of\s+(?:goods\s+sold|sales|revenues?)\b|\bCOGS\b",
       ("cost of sales", "cost of goods sold", "cost of revenues", "cost of revenue"), expense=True, home=("income",)),
    _c("depreciation and amortization", r"\bdepreciation\s+(?:and|&)\s+amorti[sz]ation\b|\bD&A\b|"
                                        r"(?<!accumulated\s)\bdepreciation\b(?!\s+(?:of|on|and)\b)",
       ("depreciation and amortization", "depreciation and amortisation", "depreciation depletion and amortization",
        "depreciation amortization and impairment", "depreciation and amortization expense"),
       expense=True, home=("cash_flow", "income"), other_items="accumulated deferred"),
    _c("operating cash flow", r"(?<!\bthe\s)(?<!\bour\s)(?<!\bits\s)\b(?:CFO|OCF|CFFO)\b(?!['\u2019]s|\s+(?:said|says|is|was|"
                              r"of|and|who|role|commentary|comments?|remarks|on\s+(?!a\s|an\s|the\s)[a-z]))|"
                              r"\b(?:operating\s+cash\s+flows?|cash\s+flows?\s+from\s+operations|operating\s+cash\s+burn|"
                              r"cash\s+(?:provided\s+by|from|(?:provided\s+by\s+\(?)?used\s+in\)?)\s+operating\s+activities|"
                              r"cash\b[^.?;]{0,40}?\b(?:generate[ds]?|provided|produced)\s+(?:by|from|in)\s+"
                              r"operati(?:ng\s+activities|ons)|cash\s+(?:flows?\s+)?from\s+(?:operati(?:ons|ng\s+activities)|ops))\b",
       ("net cash provided by operating activities", "net cash from operating activities",
        "cash provided by operating activities", "cash generated by operating activities",
        "cash flows provided by operating activities", "net cash provided by used in operating activities",
        "cash provided by operations", "cash from operations"), home=("cash_flow",)),
    _c("dividends paid", r"\bdividends?\s+paid\b|\bcash\s+dividends\b|\bpa(?:y|id)\s+(?:out\s+)?(?:in\s+)?(?:cash\s+)?dividends\b|"
       r"\bpayments?\s+of\s+(?:cash\s+)?dividends\b",
       ("dividends paid", "cash dividends paid", "payment of dividends", "payments of dividends", "dividends"), outflow=True,
       home=("cash_flow",)),
    _c("share repurchases", r"\b(?:share|stock)\s+(?:repurchases?|buybacks?)\b|"
       r"\brepurchas(?:es?|ing|ed)\s+(?:of\s+)?(?:its\s+|our\s+|their\s+)?(?:class\s+[A-C]\s+)?(?:common\s+)?(?:stock|shares)\b|"
       r"\bbuy-?backs?\b(?!\s+(?:authori[sz]\w*|program\w*|plan\w*|capacity))|"
       r"\b(?:buy(?:s|ing)?|bought)\s+back\s+(?:(?:its|their|the\s+company'?s)\s+)?(?:own\s+)?(?:common\s+)?(?:stock|shares)\b",
       ("purchases of treasury stock", "repurchases of common stock", "share repurchases"), outflow=True, home=("cash_flow",)),
    _c("inventories", r"\binventor(?:y|ies)\b", ("total inventories", "inventories", "inventory"), home=("balance",)),
    _c("accounts receivable", r"\b(?:accounts|trade)\s+receivables?\b",
       ("accounts receivable", "trade receivables", "trade and other receivables"), home=("balance",)),
    _c("accounts payable", r"\b(?:accounts|trade)\s+payables?\b", ("accounts payable", "trade payables",
                                                                    "trade and other payables"), home=("balance",)),
    _c("cash and cash equivalents", r"\bcash\s+(?:and|&)\s+(?:cash\s+)?equivalents\b|\bcash\s+(?:balance|position|on\s+hand)\b",
       ("cash and cash equivalents", "cash and equivalents", "cash"), home=("balance",)),
    _c("total current assets", r"\b(?:total\s+)?current\s+assets\b", ("total current assets",), home=("balance",)),
    _c("total current liabilities", r"\b(?:total\s+)?current\s+liabilities\b", ("total current liabilities",), home=("balance",)),
    _c("total equity", r"\b(?:total\s+)?(?:stockholders'?|shareholders'?|shareowners'?)?\s*equity\b",
       ("total equity", "total stockholders equity", "total shareholders equity", "total shareowners equity",
        "total company shareholders equity", "total common shareholders equity"), home=("balance",)),
    _c("interest expense", r"\binterest\s+expenses?\b", ("interest expense", "interest expense net", "finance costs"),
       expense=True, home=("income",), never_credit=True),
    _c("income before income taxes", r"\b(?:income|earnings|profit)\s+before\s+(?:income\s+)?taxe?s?\b|\bpre-?tax\s+income\b",
       ("income before income taxes", "earnings before income taxes", "income before provision for income taxes",
        "income before taxes", "pretax income", "pre tax income", "profit before tax"), home=("income",)),
    _c("total assets", r"\btotal\s+assets\b", ("total assets",), home=("balance",)),
    _c("total liabilities", r"\btotal\s+liabilities\b", ("total liabilities",), home=("balance",)),
    _c("funds from operations", r"\bFFO\b|\bfunds\s+from\s+operations\b",
       ("funds from operations attributable to", "funds from operations", "ffo"), other_items="adjusted"),
    _c("restructuring charges", r"\brestructuring\s+(?:costs?|charges?|expenses?)\b",
       ("total restructuring and impairment charges", "restructuring and impairment charges",
        "restructuring charges", "restructuring costs", "restructuring")),
    _c("income tax expense", r"\b(?:income\s+tax(?:es)?\s+(?:expense|provision)|provision\s+for\s+income\s+taxes)\b",
       ("provision for income taxes", "income tax provision", "income tax expense", "provision for taxes", "tax expense",
        "income taxes"), expense=True, home=("income",), other_items="before deferred payable receivable paid"),
    _c("dividends per share", r"\b(?:cash\s+)?dividends?\s+(?:declared\s+|paid\s+)?per\s+(?:common\s+)?share\b|\bDPS\b",
       ("cash dividends per share", "dividends per share", "dividends declared per share", "dividends per common share",
        "cash dividends declared per common share", "cash dividends declared per share"), per_share=True),
    _c("diluted shares", r"\bdiluted\s+(?:weighted[\s-]+average\s+|wtd\.?[\s-]*avg\.?\s+|average\s+)?(?:number\s+of\s+)?(?:common\s+)?"
                         r"(?:shares?(?!\s+(?:price|repurchase|buyback))|share\s+count)\b|"
                         r"\b(?:weighted[\s-]+average|wtd\.?[\s-]*avg\.?)\s+(?:number\s+of\s+)?(?:common\s+)?shares?\b[^?.]{0,30}?\bdiluted\b|"
                         r"\bshare\s+count\b[^?.]{0,20}?\bdiluted\b|\bdiluted\s+wtd\b",
       ("weighted average diluted shares outstanding", "diluted weighted average shares outstanding",
        "weighted average shares outstanding diluted", "diluted weighted average shares", "weighted average diluted shares",
        "diluted shares outstanding", "diluted shares", "diluted"), home=("income",), shares=True),
    _c("diluted earnings per share", r"\bdiluted\s+(?:EPS|(?:net\s+)?(?:earnings|income)\s+per\s+(?:common\s+)?share)\b|"
                                     r"\bEPS\b|\bearnings\s+per\s+(?:common\s+)?share\b",
       ("diluted earnings per share", "earnings per share diluted", "diluted net income per share",
        "net income per share diluted", "diluted", "adjusted eps", "non-gaap eps"), per_share=True, home=("income",)),
)
NON_GAAP = re.compile(r"\bnon-?\s?(?:GAAP|IFRS)\b|\badj(?:usted\b|\.|\b(?=\s+(?:EPS|EBITDA|operating|net|income|earnings)\b))|\bcore\s+(?:earnings|EPS|income|net\s+income|"
                      r"operating)\b|\bexcluding\s+(?:special|one-time|non-?recurring)\b", re.I)
"""A measure the company adjusts from its GAAP figure ("non-GAAP EPS", "adjusted EBITDA", "core earnings"):
read where printed, never recomputed, never taken for the GAAP figure."""
NOT_ADJUSTED = re.compile(r"(?:\bnot|n['\u2019]t\s+(?:want|need|use)|\brather\s+than|\binstead\s+of|\bother\s+than|\bas\s+opposed\s+to)"
                          r"\s+(?:the\s+|a\s+|an\s+|any\s+)?(?:company['\u2019]s\s+)?(?:non-?\s?GAAP|adjusted)\b", re.I)
"""An adjusted measure the question sets aside ("using GAAP figures, not non-GAAP", "I don't want the non-GAAP
number")."""


TABLE_NAMED = re.compile(r"\b(?:from|in|on|using|per|off)\s+(?:the\s+|its\s+|their\s+|[\w&.-]+['\u2019]s\s+)?"
                          r"(?:[\w&/.-]+\s+){0,5}?(?:reconciliations?|recon|tables?|schedules?|slides?|sections?|appendix)\b|"
                          # NOTE: "the year-to-date column of the Reconciliation of GAAP to Non-GAAP Results"
                          r"\b(?:from|in|of|using|per)\s+(?:the\s+|its\s+)?reconciliations?\s+(?:of|from)\s+[^,?;)]{2,60}",
                          re.I)
"""Where the question says to read ("from the FCF reconciliation", "using the non-GAAP table"): no metric asked."""


def asks_non_gaap(question: str) -> bool:
    """Whether a question asks the company's adjusted measure (and does not only set it aside, nor only names the
    reconciliation to read from: "net additions to PP&E, from the adjusted free cash flow reconciliation")."""
    return bool(NON_GAAP.search(NOT_ADJUSTED.sub(" ", TABLE_NAMED.sub(" ", question))))

_EQUIVALENT = {"cost": "charge", "costs": "charge", "charges": "charge", "expense": "charge", "expenses": "charge",
               "purchase": "purchas", "purchases": "purchas", "pp": "property", "ppe": "property",
               # NOTE: short words keep their plural's "s" in the stemmer: "membership fee revenue" asks "Membership fees"
               "fees": "fee", "taxes": "tax", "units": "unit", "users": "user",
               # NOTE: a company's headcount is its employees ("Employees (in thousands)" for "intel headcount")
               "headcount": "employ", "employe": "employ",
               # NOTE: "META ad revenue", "ads revenue": the "Advertising" row ("Ad Impressions" reads the same both sides)
               "ad": "advertis", "ads": "advertis", "advertisement": "advertis",
               # NOTE: a row named by its verb ("how much debt did eBay repay", "long-term debt did Intel issue"):
               # "Repayment of debt", "Issuance of long-term debt"
               "repa": "repayment", "repaid": "repayment", "issu": "issuanc",
               # NOTE: a region named by its people's adjective ("revenue from European users") is the row of the place
               # ("Europe"); not the adjectives companies are named with ("American Express", "Canadian Pacific"), whose
               # name words are compared with labels as printed
               "european": "europ", "asian": "asia"}
_LABEL_NOISE = re.compile(r"\((?:note\s+\d+|[a-z]|\d)\)|\bnote\s+\d+\b", re.I)
_UNITED_STATES = re.compile(r"(?<![\w.])(?:U\.S\.(?:A\.)?|U\.S(?![\w.$])|USA?(?![\w.$&])|United\s+States(?:\s+of\s+America)?)(?!\s*\$)")
"""The country as labels and questions write it ("U.S.", "US", "USA", "United States"): one word, where "US" in
lower case is the pronoun a stopword list drops ("eBay US GMV" names the row "U.S." under GMV). Not "US$"."""


def concepts_in(question: str) -> list[Concept]:
    """The concepts a question asks for, in the order it names them (one per span; where two overlap,
    the longer: "cost of revenues" is the cost, not the revenue)."""
    matches = sorted(((m.start(), m.end(), concept) for concept in CONCEPTS for m in concept.asked.finditer(question)),
                     key=lambda x: x[0] - x[1])
    found: list[tuple[int, int, Concept]] = []
    for start, end, concept in matches:
        if not any(s < end and start < e for s, e, _ in found):
            found.append((start, end, concept))
    concepts = list(dict.fromkeys(c for _, _, c in sorted(found, key=lambda x: x[0])))
    if any(c.shares for c in concepts):
        # NOTE: "how many diluted shares did Costco use in its EPS calculation?": the count, not the EPS
        concepts = [c for c in concepts if c.name != "diluted earnings per share"]
    return concepts


_ABBREVIATIONS = ((re.compile(r"\bSG&A\b", re.I), "selling, general and administrative"),
                  (re.compile(r"\bR&D\b", re.I), "research and development"),
                  (re.compile(r"\bG&A\b", re.I), "general and administrative"),
                  (re.compile(r"\bS&M\b", re.I), "sales and marketing"),
                  (re.compile(r"\bopex\b", re.I), "operating expenses"),
                  (re.compile(r"\bcapex\b", re.I), "capital expenditures"),
                  (re.compile(r"\brevs?\b(?![.\d])", re.I), "revenue"),
                  (re.compile(r"\bD&A\b", re.I), "depreciation and amortization"),
                  (re.compile(r"\bSBC\b"), "stock-based compensation"),
                  (re.compile(r"\bstock[\s-]based\s+comp\b\.?", re.I), "stock-based compensation"),
                  (re.compile(r"\bNII\b"), "net interest income"),
                  (re.compile(r"\bP&E\b"), "property and equipment"),
                  (re.compile(r"\bF&I\b"), "finance and insurance"),
                  (re.compile(r"\bavg\b\.?", re.I), "average"),
                  # NOTE: regions as analysts write them ("APAC revenue growth": the "Asia Pacific" row)
                  (re.compile(r"\bAPAC\b", re.I), "Asia Pacific"),
                  (re.compile(r"\bLATAM\b", re.I), "Latin America"),
                  (re.compile(r"\bLT\b(?=\s+(?:debt|borrowings?|investments?|assets?|liabilit))"), "long-term"),
                  (re.compile(r"\bST\b(?=\s+(?:debt|borrowings?|investments?|assets?|liabilit))"), "short-term"),
                  # NOTE: "total current liabs", "TWLO Comms rev": a note's short words ("CF stmt" is written out with
                  # the question's, `questions.restate.short_words_written`)
                  (re.compile(r"\bliabs?\b\.?", re.I), "liabilities"),
                  (re.compile(r"\bcomms\b", re.I), "communications"),
                  # NOTE: "current ratio (TCA / TCL)": the balance sheet's totals
                  (re.compile(r"\bTCA\b"), "total current assets"),
                  (re.compile(r"\bTCL\b"), "total current liabilities"),
                  (re.compile(r"\bops\b(?=\W*(?:$|[,;?(]|\s+(?:in|for|of|at|during|fy|\d)))", re.I), "operations"),
                  # NOTE: "shares out for Intel as of Apr 1 2023": the shares outstanding
                  (re.compile(r"\bshares\s+out\b(?!-)", re.I), "shares outstanding"),
                  # NOTE: "intel employee count": the employees row ("Employees (in thousands)")
                  (re.compile(r"\b(?:employee|staff)\s+(?:count|numbers?|headcount)\b", re.I), "employees"),
                  # NOTE: "RL op loss 2Q25?": an operating line
                  (re.compile(r"\bop\.?(?=\s+(?:loss|losses|income|profit|margin|expenses?|costs?)\b)", re.I), "operating"),
                  # NOTE: "merch costs", "merch inventories": a retailer's merchandise line
                  (re.compile(r"\bmerch\b\.?", re.I), "merchandise"))
"""Accounting abbreviations an analyst writes for a line the statements print in words."""


COUNT_BASIS = re.compile(r"^\s*(?:full[\s-]time[\s-]equivalents?|FTE)\s+(?=\w)", re.I)
"""How a count of people is counted, printed before it ("Full time equivalent headcount"): the count asked as
"headcount" all the same."""


def expand_abbreviations(text: str) -> str:
    """The text with accounting abbreviations written out ("PepsiCo SG&A" -> "PepsiCo selling, general and
    administrative")."""
    for pattern, words in _ABBREVIATIONS:
        text = pattern.sub(words, text)
    return text


@lru_cache(maxsize=65536)
def label_terms(text: str) -> frozenset[str]:
    """The normalised words of a label or phrase (PP&E -> property; charges ~ costs ~ expenses)."""
    return frozenset(label_sequence(text))


@lru_cache(maxsize=65536)
def label_sequence(text: str) -> tuple[str, ...]:
    """The normalised words of a label or phrase in the order printed."""
    # NOTE: "R&D expense" names the row "Research and development" (an operand of a metric as much as a figure asked)
    text = _UNITED_STATES.sub(" unitedstates ", _LABEL_NOISE.sub(" ", expand_abbreviations(text))).replace("&", " and ")
    return tuple(_EQUIVALENT.get(t, t) for t in normalise(text, "terms"))


def in_order(label: str, phrase: str) -> bool:
    """Whether a label prints a phrase's words in the phrase's order ("Cost of revenues" prints "cost of
    revenue"; "Total revenues net of interest expense" does not: its expense is the interest's)."""
    wanted = [t for t in label_sequence(phrase) if t in label_terms(label)]
    seen = iter(label_sequence(label))
    return all(any(t == s for s in seen) for t in wanted)


BENEFIT_FIRST = re.compile(r"\b(?:benefit|credit)s?\s+(?:from\s+)?\(\s*(?:provision|expense|charge)", re.I)
"""A tax row printing benefits positive ("Income tax benefit (expense)", "Benefit from (provision for) income
taxes"): its figures are the negative of the expense."""


_ALTERNATE_WORDS = label_terms("loss common")
"""Words a row adds to what it names without naming another line: "Earnings (loss) per common share"."""


def label_score(label: str, phrase_terms: frozenset[str], parent: str = "") -> float:
    """How well a row prints a phrase: every phrase word must be in the label or its parent row's
    label ("Diluted" under "Earnings per share") else 0; then the fewer extra words the label has,
    the better (1.0 = exactly the phrase)."""
    if not phrase_terms:
        return 0.0
    own = label_terms(label)
    # NOTE: the parent row supplies words only to a label made of the phrase's own words ("Diluted"
    # under "Earnings per share"; "Earnings (loss) per common share" under "Diluted earnings (loss) per common
    # share:", its loss and its common share said by every such row); "Net income" under "Operating activities" is
    # not operating income
    borrowed = label_terms(parent) if parent and own - _ALTERNATE_WORDS <= phrase_terms else frozenset()
    if not phrase_terms <= own | borrowed:
        return 0.0
    return min(1.0, len(phrase_terms & own) / max(len(own), 1))


AMOUNT_STEMS = frozenset({"expens", "revenu", "spend", "capex", "cost", "outlay"})
"""Stems (`text.terms`) of words that ask an amount of money whatever the item: a cell printed in percent is no answer
to "marketing and sales expense" (Salesforce prints its income statement in dollars and as a share of revenues)."""
