"""A figure a document states as what it would have been without an item: "Excluding this one-time tax charge, our
third quarter 2025 diluted earnings per share would have increased by $6.20 to $7.25" answers "What would diluted EPS
have been excluding that charge?". No table prints it; the reported figure (the table's) is never its answer.

Read only when the question asks what an item would have been without something (`COUNTERFACTUAL_ASKED`). A sentence
answers when
- it says what the item would have been without something ("excluding", "without", "absent"), and the words before
  "would have" name the item asked (a concept by its usual names, "diluted EPS" for "diluted earnings per share", and
  every other word of it);
- the figure is the level it would have reached: the one after "would have been", or after "to" in "would have
  increased by X to Y";
- the period it names is the one asked, or it names none and its document is that quarter's;
- every sentence that answers states the same figure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from vera_core.answer.figures.gates import as_fiscal_quarter
from vera_core.answer.figures.sentence_figure import SentenceFigure
from vera_core.answer.numbers import find_numbers
from vera_core.answer.units import Unit
from vera_core.documents.identity import Identity
from vera_core.finance.line_items import concepts_in
from vera_core.questions.figure import asked_periods, expand_abbreviations
from vera_core.questions.stated import terms
from vera_core.records import Period

__all__ = ["COUNTERFACTUAL_ASKED", "WOULD_HAVE", "counterfactual_figure", "without_asked"]

_WITHOUT = (r"(?:exclud\w*|without|absent|but\s+for|if\s+not\s+for|ex-|ex\s+(?=(?:the|this|that|one|non|items?|special|FX)\b)|"
            r"exclusive\s+of|strip\w*\s+(?:[\w-]+\s+){0,3}?out\b|tak(?:e|ing)\s+(?:[\w-]+\s+){1,3}?out\b|remov(?:e|ed|ing)\b|"
            r"adjust\w*\s+for)")
_EVENT = (r"(?:one[\s-]time\s+|non[\s-]?recurring\s+|special\s+)?(?:charges?|effects?|impacts?|benefits?|gains?|items?|"
          r"headwinds?|tailwinds?|accruals?|expenses?|costs?|losses|write[\s-]?(?:downs?|offs?)|impairments?|restructuring|"
          r"settlements?|litigation|fines?|severance|FX|currency|amortization|stock[\s-]based\s+compensation|SBC)\b")
"""What a figure is asked without when the question asks what it would have been: an event or a cost, not a part of a
balance ("excluding the one-time tax charge", "excluding the foreign exchange effect", "excluding the legal accrual",
"excluding restructuring"; "excluding the current portion" is a line's own words)."""
COUNTERFACTUAL_ASKED = re.compile(rf"\bwould\s+(?P<item>[^?.;]{{2,60}}?)\s+have\s+been\b(?=[^?]*\b{_WITHOUT})|"
                                  rf"\b{_WITHOUT}\b[^?]{{0,80}}\bwhat\s+would\s+(?P<item2>[^?.;]{{2,60}}?)\s+have\s+been\b|"
                                  rf"\bwhat\s+(?P<item3>[^?.;]{{2,60}}?)\s+would\s+(?:[\w&.'\u2019-]+\s+){{1,3}}?have\s+(?:reported|posted|"
                                  rf"shown|earned|recorded|made)\b(?=[^?]*\b{_WITHOUT})|"
                                  rf"(?:^|[.:;]\s+){_WITHOUT}\b[^?.;]{{2,120}}?,\s*what\s+(?:was|were|is|are)\s+"
                                  rf"(?P<item4>[^?.;,()]{{2,60}}?)(?=\s+(?:in|for|during|at|over)\b|\s*[?,(]|\s*$)|"
                                  rf"\bwhat\s+(?:was|were|is|are)\s+(?P<item5>[^?.;,()]{{2,60}}?)\s+(?:(?:in|for|during)\s+[^?.;()]{{2,40}}?\s+)?"
                                  rf"(?={_WITHOUT}\s+(?:the\s+|that\s+|this\s+|its\s+|any\s+)?(?:[\w-]+\s+){{0,5}}?{_EVENT})|"
                                  rf"^(?![^?]*\b(?:what|how|which|who|why|did|does|was|were)\b)\s*(?P<item6>[^?]{{2,80}}?)\s+"
                                  rf"(?={_WITHOUT}\s*(?:the\s+|that\s+|this\s+|its\s+|any\s+)?(?:[\w-]+\s+){{0,5}}?{_EVENT}"
                                  rf"(?:\s*\([^()]*\))?(?:\s*,\s*(?:in\s+)?[$\w%]{{1,8}})?\s*\??\s*$)",
                                  re.I)
"""'What would diluted EPS have been excluding that charge?', 'what diluted EPS would Meta have reported excluding the
charge?', 'Excluding the one-time tax charge ..., what was Meta's effective tax rate in ...?', 'What was Meta's
effective tax rate in Q3 2025 excluding the one-time tax charge?', 'meta Q3'25 diluted EPS ex the one-time tax charge?',
'Meta Q3 2024 revenue ex-FX (constant currency, the non-GAAP number), $M?': the item, as it would have been without
something."""
WOULD_HAVE = re.compile(r"\bwould\s+have\s+(?:been\s+(?:approximately\s+|about\s+)?|(?:increased|decreased|grown|"
                         r"declined|risen|fallen|improved|been\s+(?:higher|lower))\s+by\s+\S+(?:\s+(?:billion|million|"
                         r"thousand|percent(?:age)?(?:\s+points?)?|basis\s+points?|points?))?\s+to\s+(?:approximately\s+|about\s+)?)",
                         re.I)
"""The words before the level an item would have reached ("would have been", "would have increased by $6.20 to", "would
have decreased by 73 percentage points to")."""
_SENTENCE_WITHOUT = re.compile(rf"\b{_WITHOUT}", re.I)
_WITHOUT_CLAUSE = re.compile(rf"\b{_WITHOUT}[^,;.]{{2,80}}", re.I)
"""What the sentence says the level is without ("Excluding this one-time tax charge")."""
_LEAD = re.compile(r"^(?:the|its|their|[\w.&-]+['\u2019]s)\s+", re.I)


_ASKED_WITHOUT = re.compile(rf"\b{_WITHOUT}\s*(?:(?!\s+[-\u2013\u2014]\s|\s+(?:in|for|during|on|at|that|which|behind)\s)[^,;.?()]){{2,80}}",
                            re.I)
"""What the question says the item is without ("excluding the foreign exchange effect"; not the clause after it: "...
effect that sits behind that claim")."""


def without_asked(question: str) -> tuple[str, str] | None:
    """The item a counterfactual question asks and what it is without ("Meta's Q3 2024 revenue", "excluding the
    foreign exchange effect"), else None."""
    m = COUNTERFACTUAL_ASKED.search(question)
    # NOTE: "... a non-GAAP revenue figure that strips out the foreign exchange effect ... what was that non-GAAP revenue
    # excluding foreign exchange effect?": what the item asked is without, from where the question asks it
    clause = (_ASKED_WITHOUT.search(question, m.start()) or _ASKED_WITHOUT.search(question)) if m else None
    if not m or not clause:
        return None
    # NOTE: "revenue ex-FX": excluding the foreign exchange effect, as a row that prints it names it
    without = re.sub(r"^ex[-\s]+", "excluding ", clause.group(0).strip(), flags=re.I)
    without = re.sub(r"\bFX(?=\s+(?:effects?|impacts?)\b)", "foreign exchange", without)  # "excluding FX effect"
    without = re.sub(r"\bFX\b(?!\s+(?:effects?|impacts?))", "foreign exchange effect", without)
    return next(g for g in m.groups() if g).strip(), without


def counterfactual_figure(question: str, asked: Period, company: Iterable[str], units: Iterable[Unit],
                          identities: Mapping[str, Identity]) -> tuple[SentenceFigure | None, list[SentenceFigure]]:
    """The level the sentences of `units` say the item asked would have reached without something, in the period
    `asked`, and every sentence found; (None, found) when none is found or two disagree."""
    m = COUNTERFACTUAL_ASKED.search(question)
    if not m:
        return None, []
    item = _LEAD.sub("", _LEAD.sub("", next(g for g in m.groups() if g).strip()))  # "the quarter's effective tax rate"
    concepts = concepts_in(item)
    rest = item
    for concept in concepts:
        rest = concept.asked.sub(" ", rest)
    company = frozenset(company)
    words = {t for t in terms(expand_abbreviations(rest)) if t not in company and not re.search(r"\d", t)}
    if not concepts and not words:
        return None, []
    found: list[SentenceFigure] = []
    for unit in units:
        identity = identities.get(unit.chunk.doc_id)
        if unit.chunk.kind == "table" or identity is None:
            continue
        text = " ".join(unit.text.split())
        if not _SENTENCE_WITHOUT.search(text):
            continue
        clause = _WITHOUT_CLAUSE.search(text)
        without = clause.group(0).strip().lower() if clause else "without the item"
        for would in WOULD_HAVE.finditer(text):
            subject = re.split(r"[,;:]\s*", text[:would.start()])[-1].strip()
            named = all(c.asked.search(subject) for c in concepts) and words <= terms(expand_abbreviations(subject))
            level = next((n for n in find_numbers(text[would.end():]) if not n.is_year), None)
            if not named or level is None or level.start > 3:
                continue
            period = _period_of(subject, asked, identity)
            if period:
                level = replace(level, start=would.end() + level.start, end=would.end() + level.end)
                found.append(SentenceFigure(unit, level, f"{subject} as it would have been {without}", period))
    values = {round(f.amount, 6) for f in found}
    return (found[0] if len(values) == 1 else None), found


def _period_of(subject: str, asked: Period, identity: Identity) -> str:
    """The period the sentence names for its figure when it is the one asked; a sentence naming none is its
    document's quarter."""
    periods, texts = asked_periods(subject)
    asked = as_fiscal_quarter(asked, identity)  # NOTE: "the July to September 2025 quarter": Meta's Q3 2025
    quarter = (identity.fiscal_year, identity.fiscal_quarter) == (asked.year, asked.quarter)
    if not periods:
        return f"Q{asked.quarter} {asked.year}" if asked.kind == "quarter" and quarter else ""
    if len(periods) == 1 and periods[0] == asked:
        return texts[0]
    return ""
