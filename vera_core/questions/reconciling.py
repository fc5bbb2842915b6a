"""A line that reconciles a GAAP measure to its adjusted one, asked by what it adds back ("how large was the restructuring
add-back?", "what's the add-back for stock-based comp and related employer payroll taxes?", "What stock-based compensation
amount is added back to GAAP income from operations there?"): the item asked is the reconciling line, never the measure
the reconciliation arrives at, and only a reconciliation's row answers it (a cash flow statement's "Stock-based
compensation expense" measures another amount)."""

from __future__ import annotations

import re

__all__ = ["reconciling_item"]

_ITEM = r"[\w&'\u2019/-]+(?:\s+[\w&'\u2019/-]+){0,8}?"
_ADD_BACK = r"add[\s-]?backs?"
_ASKED = (
    # "the add-back for stock-based comp and related employer payroll taxes", "the adjustment for restructuring"
    re.compile(r"\b(?:" + _ADD_BACK + r"|adjustments?)\s+(?:for|of)\s+(?:the\s+)?(?P<item>" + _ITEM + r")"
               r"(?=\s*(?:[?,;:(]|$|\s+(?:in|on|to|for|from|at|line|there|was|is|amount)\b))", re.I),
    # "the restructuring add-back", "the SBC add-back"
    re.compile(r"\b(?:the|its|their|that)\s+(?P<item>" + _ITEM + r")\s+" + _ADD_BACK + r"\b", re.I),
    # "What stock-based compensation amount is added back to GAAP income from operations"
    re.compile(r"\b(?:what|which|how\s+much)\s+(?P<item>" + _ITEM + r")\s+(?:amount|figure|number|charges?)?\s*"
               r"(?:is|was|were|are|gets?|got)\s+added\s+back\b", re.I),
    # "how much restructuring was added back"
    re.compile(r"\bhow\s+much\s+(?:in\s+|of\s+)?(?P<item>" + _ITEM + r")\s+(?:is|was|were|are|did\s+\S+\s+add)\s+"
               r"(?:added\s+)?back\b", re.I),
)
_NOT_AN_ITEM = re.compile(r"^(?:the\s+)?(?:total|amount|figure|number|size|line|GAAP|non-GAAP|that|this|it)$|"
                          r"^(?:that|this|those|these|any|such|each|every)\b", re.I)
"""No line's name: "the total", "that charge" (a charge the question spoke of before)."""
_RECONCILIATION = re.compile(r"\breconcil\w*|\bnon-?\s?GAAP\b|\bbridge\b|\badd[\s-]?backs?\b|\badded\s+back\b", re.I)
"""Words that put an "adjustment for X" in a reconciliation ("before any adjustment for that charge" is none)."""


def reconciling_item(question: str) -> str:
    """The reconciling line a question asks for, as it names it ("restructuring", "stock-based comp and related employer
    payroll taxes"), else ''."""
    if not _RECONCILIATION.search(question):
        return ""
    for pattern in _ASKED:
        found = pattern.search(question)
        if found:
            item = re.sub(r"^(?:the|a|an)\s+", "", found.group("item").strip(), flags=re.I)
            if item and not _NOT_AN_ITEM.match(item):
                return item
    return ""
