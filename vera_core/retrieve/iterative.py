"""Iterative retrieval support: how much of the question the context covers, and deterministic
query expansion (terms of the best chunks' section titles plus a financial synonym map)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from vera_core.records import ChunkRecord
from vera_core.text import figures, key_terms, stem, terms  # NOTE: key_terms stays importable from here

COVERAGE_TARGET = 0.80
MAX_HOPS = 3

SYNONYMS: dict[str, tuple[str, ...]] = {
    "revenue": ("net sales", "total revenues", "sales"),
    "sales": ("revenue", "net revenue"),
    "capex": ("capital expenditures", "purchases of property, plant and equipment"),
    "capital expenditure": ("purchases of property, plant and equipment", "capital spending",
                            "additions to property", "capex", "PP&E"),
    "capital spending": ("capital expenditures", "purchases of property, plant and equipment"),
    "profit": ("net income", "earnings"),
    "net income": ("net earnings", "profit attributable"),
    "earnings per share": ("EPS", "diluted"),
    "eps": ("earnings per share", "diluted"),
    "margin": ("gross margin", "operating margin", "as a percentage of sales"),
    "debt": ("borrowings", "long-term debt", "notes payable"),
    "cash flow": ("cash provided by operating activities", "operating activities"),
    "dividend": ("dividends paid", "cash dividends", "per share"),
    "acquisition": ("acquired", "business combination", "purchase price"),
    "restructuring": ("severance", "exit costs", "restructuring charges"),
    "inventory": ("inventories",),
    "receivable": ("accounts receivable", "trade receivables"),
    "liquidity": ("cash and cash equivalents", "credit facility", "working capital"),
    "segment": ("business segment", "operating segment", "reportable segment"),
    "risk": ("risk factors", "uncertainties"),
    "tax": ("income taxes", "effective tax rate", "provision for income taxes"),
    "litigation": ("legal proceedings", "contingencies", "lawsuits"),
    "loss": ("charge", "impairment", "expense"),
    "geograph": ("geographic", "regions", "countries", "international", "divisions", "markets"),
    "retain": ("retention", "attrition", "loyalty", "renewal"),
    "retention": ("retain", "attrition", "loyalty", "renewal"),
    "churn": ("attrition", "retention", "cancellations"),
    "guidance": ("outlook", "expects", "forecast"),
    "headcount": ("employees", "workforce"),
}

ABBREVIATIONS: dict[str, str] = {
    "ppne": "property, plant and equipment net", "pp&e": "property, plant and equipment",
    "ppe": "property, plant and equipment", "capex": "capital expenditures purchases of property, plant and equipment",
    "eps": "earnings per share", "cogs": "cost of goods sold cost of sales", "sg&a": "selling, general and administrative",
    "d&a": "depreciation and amortization", "fcf": "free cash flow", "r&d": "research and development",
    "ebitda": "earnings before interest, taxes, depreciation and amortization", "ebit": "operating income",
    "yoy": "year over year", "roa": "return on assets net income total assets", "roe": "return on equity",
    "dpo": "days payable outstanding accounts payable", "dso": "days sales outstanding accounts receivable",
    "opex": "operating expenses", "a/r": "accounts receivable", "a/p": "accounts payable",
    "nci": "noncontrolling interest", "aoci": "accumulated other comprehensive income",
}
STATEMENTS: dict[str, tuple[str, ...]] = {
    r"balance sheets?|statements? of financial position": ("balance sheet", "financial position"),
    r"income statements?|statements? of (?:income|operations|earnings)|p&l|profit and loss":
        ("statement of income", "statements of income", "statement of operations", "income statement",
         "statement of earnings", "statements of earnings"),
    r"cash flows? statements?|statements? of cash flows?": ("cash flow",),
    r"statements? of (?:changes in )?(?:shareholders'?|stockholders'?) equity|equity statement": ("equity",),
}


def with_abbreviations(query: str) -> str:
    """The query plus the spelled-out form of finance abbreviations it uses (PPNE, capex, EPS...)."""
    extra = [full for short, full in ABBREVIATIONS.items()
             if re.search(rf"(?<![\w&/]){re.escape(short)}(?![\w&/])", query, re.IGNORECASE)]
    return f"{query} {' '.join(extra)}".strip()


IMPLIED_STATEMENTS: dict[str, tuple[str, ...]] = {
    r"\b(?:gross|operating|ebitda|ebit|profit|net income|net profit|pre-?tax) margins?\b|\bprofitab":
        ("income statement",),
    r"capital[- ]intensi|asset[- ](?:light|heavy|intensi)|\bcapex\b|capital expenditures?|free cash flow":
        ("balance sheet", "cash flow statement"),
    r"\b(?:largest|biggest|total) (?:liabilit|asset)|\bleverage\b|debt[- ]to[- ](?:equity|capital)|"
    r"working capital|current ratio|quick ratio|return on (?:assets|equity)|\broa\b|\broe\b":
        ("balance sheet",),
}
"""Analyst concepts computed from the primary statements: a question about capital intensity is
answered from PP&E, total assets and capex; one about a margin from the income statement."""


def named_statements(question: str) -> list[str]:
    """Caption phrases of the financial statements a question names ("based on the balance sheet"),
    or else of those its analyst concept is computed from ("operating margin": income statement)."""
    named = [phrase for pattern, phrases in STATEMENTS.items()
             if re.search(pattern, question, re.IGNORECASE) for phrase in phrases]
    if named:
        return named
    implied = " ".join(name for pattern, names in IMPLIED_STATEMENTS.items()
                       if re.search(pattern, question, re.IGNORECASE) for name in names)
    return [phrase for pattern, phrases in STATEMENTS.items()
            if re.search(pattern, implied, re.IGNORECASE) for phrase in phrases]


def synonyms_for(query: str) -> str:
    """Alternative wordings of the finance terms in `query` (keyword search reads these)."""
    lowered = query.lower()
    return " ".join(alt for key, alts in SYNONYMS.items() if key in lowered for alt in alts)


def coverage(question: str, chunks: Sequence[ChunkRecord]) -> float:
    """Share of the question's key terms (`key` mode) found in the chunks: the terms of their text,
    captions and section titles, and the figures of their text."""
    wanted = key_terms(question)
    if not wanted:
        return 1.0
    seen: set[str] = set()
    for chunk in chunks:
        seen |= terms(f"{chunk.caption} {' '.join(chunk.heading_titles[-2:])} {chunk.text}")
        seen |= figures(chunk.text)
    return round(len(wanted & seen) / len(wanted), 4)


def expand(question: str, chunks: Sequence[ChunkRecord], missing: set[str]) -> str:
    """A new query: the question plus synonyms of its terms and the titles of the best chunks."""
    extra: list[str] = []
    lowered = question.lower()
    for key, alternatives in SYNONYMS.items():
        if key in lowered or stem(key) in missing:
            extra.extend(alternatives)
    for chunk in chunks[:3]:
        if chunk.heading_titles:
            extra.append(chunk.heading_titles[-1])
        if chunk.caption:
            extra.append(chunk.caption)
    seen: set[str] = set()
    words = [w for w in extra if not (w.lower() in seen or seen.add(w.lower()))]
    return f"{question} {' '.join(words)}".strip()
