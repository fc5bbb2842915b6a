"""A computed-metric question -> what to compute: the formula (the question's own definition first,
else the library's), the period(s), rounding and unit, and whether it asks for a direction."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from vera_core.questions.figure import LABEL_FIRST, SPAN_LEFT, UNIT_ASKED, asked_periods, asked_scale
from vera_core.finance.line_items import TABLE_NAMED, label_terms
from vera_core.questions.expression import (SHARE_OF, Avg, BinOp, Chg, ExpressionError, Item, Node, Num, items,
                                           normalise, parse, render, statement_note)
from vera_core.finance.line_items import concepts_in
from vera_core.finance.statements import named_statement
from vera_core.questions.library import MetricDef, library, metric_named
from vera_core.questions.qualifiers import Qualifier, qualifier_around
from vera_core.questions.restate import restated
from vera_core.questions.spans import (COMPOUND, LISTED, MEAN, POINTS, RANGE, SEQUENTIAL, SPAN, Aggregate, aggregate_periods,
                                      previous_quarter, quarter_span, read_aggregate, shifted, span_year,
                                      summed_quarter_periods)
from vera_core.records import Period

_DEFINE = re.compile(r"\b(?:define[sd]?|compute|calculate)\s+(?:the\s+)?(?P<name>[^.?;:]{2,80}?)\s+as\b\s*:?\s*"
                     r"(?P<body>[^?;]+?)(?=\.\s|\?|;|$)", re.I)
"""A definition: "define X as A / B", and "compute the 2022 loss ratio as A divided by B"."""
_DEFINED = re.compile(r"(?P<name>[A-Za-z][\w &%/'’-]{1,80}?)\s+(?:is|are)\s+(?:defined|calculated|computed|measured)\s+"
                      r"as\b\s*:?\s*(?P<body>[^?;]+?)(?=\.\s|\?|;|$)", re.I)
_EQUALS = re.compile(r"(?P<name>[A-Za-z][\w &%/'’-]{1,60}?)\s*=\s*(?P<body>[^.?;]+)", re.I)
_HEAD = re.compile(r"\b(?:what\s+(?:is|was|were|are|will\s+be)|what['\u2019]?s|calculate|compute|how\s+much\s+(?:is|was)|"
                   # NOTE: "tell me how much Meta spent ...": a question within, asked as written
                   r"(?:give|show|tell|get)\s+me(?!\s+(?:how|what|which|whether|if)\b)|work\s+out|determine)\s+"
                   r"(?:the\s+|its\s+)?(?P<head>(?:[^?.;]|(?-i:(?<=\b[A-Z]))\.(?=\s*[A-Za-z]))+)", re.I)
_COMPANY_TAIL = re.compile(r"(?<!%)(?<!percent)(?<!percentage)(?<!share)(?<!proportion)\s+(?:for|of|at|by)\s+"
                           r"(?=(?:[A-Z0-9]|the\s+company))")
_POSSESSIVE = re.compile(r"(?:(?<=\s)|^)(?:the\s+company|(?:[A-Z0-9][\w&.-]*\s+){0,3}[A-Za-z0-9][\w&.-]*)(?:['’]s\b|(?<=s)['’](?=\s))\s*")
"""The company's possessive ("Acme's", "Sonic Automotive's", "Enact Holdings'"): the company, not the item."""
_DIRECTION = re.compile(r"\bimprov\w*|\bchang\w*|\bchg\b|\bris(?:e|es|en)\b|\brose\b|\bdraw[-\s]?down\b|\bincreas\w*|\bdecreas\w*|\btrend\w*|\bdeclin\w*|\bdeteriorat\w*|"
                        r"\bgrow\w*|\bcompare\w*|\bmov(?:e|ed|es|ement)\b(?=[^?]*\bbetween\b)|"
                        r"\b(?:expand|contract|widen|narrow)(?:s|ed|ing)?\b(?=[^?]*\bfrom\b[^?]*\bto\b)", re.I)
_ROUND = re.compile(r"\bround(?:ed)?\s+(?:your\s+|the\s+)?(?:answer\s+|result\s+)?to\s+(?:the\s+nearest\s+)?"
                    r"(?P<n>one|two|three|four|zero|\d)\s+decimal|\bnearest\s+(?P<whole>whole\s+number|integer)\b"
                    r"|(?:^|[\s(,;])(?P<n2>one|two|three|four|zero|\d)\s*(?:decimals?(?:\s+places?)?|dp|d\.p\.)(?![\w])", re.I)
"""Rounding asked: "round to two decimal places", "to the nearest whole number", and the instruction alone
("two decimals", "(%, 1 decimal)", "2 dp")."""
_NUMBERS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4}
_PERCENT = re.compile(r"\bpercent(?:age|s)?\b|%|\bmargin\b|\brate\b", re.I)
_PERCENT_QUOTIENT = re.compile(r"\breturn\s+on\b|\bpayout\b|\b(?:combined|loss|expense|efficiency)\s+ratio\b", re.I)
"""Quotients analysts state in percent (a return on equity, a payout, an insurer's combined ratio); never an amount."""
_PERCENT_ASKED = re.compile(r"\b(?:in|as)\s+(?:a\s+)?(?:units\s+of\s+)?(?:percent(?:age)?s?\b|%)(?!\s+of\b)"
                            r"|(?:^|[.?(;]\s*)(?:percent(?:age)?|%)\s*(?:,|with\b|to\b|\)|rounded\b|one\b|two\b|\d)"
                            r"|[,(:-]\s*%\s*(?:[.?)]|$)|[.?;]\s*(?:in\s+)?(?:percent(?:age)?s?|%)\s*[.?]?\s*$", re.I)
"""A percentage asked for: "in percent", "as a %", and an instruction of its own ("Percent, two decimals",
"(%, 1 decimal)", "growth 2022 vs 2021, %?")."""
_RATIO = re.compile(r"\bratio\b|\bturnover\b|\bcoverage\b|\btimes\b", re.I)
_SHARE_OF = re.compile(SHARE_OF, re.I)
_OPERATORS = re.compile(r"[+*/]|(?<![A-Za-z])-|-(?![A-Za-z])")  # "debt-to-equity" is a name


@dataclass(frozen=True)
class MetricPlan:
    """What a metric question asks VERA to compute."""

    name: str
    """The metric as the question names it ("fixed asset turnover ratio")."""
    metric: MetricDef | None
    """The library metric used, when the question does not define it."""
    definition: str
    """The formula used, as written (the question's words, or the library's formula)."""
    source: str
    """`question` (the question defines it) or `library`."""
    tree: Node
    unit: str
    """percent, ratio, days or amount."""
    periods: tuple[Period, ...]
    """Where to compute it: one period, or several for a direction question."""
    direction: bool
    digits: int | None
    """Decimal places asked; None: the unit's default."""
    scale: float | None
    """Amounts: the unit asked (1e6 for "in USD millions")."""
    over: str = "at"
    """`at` each period; `mean` of the periods' values; `growth` (last / first - 1) or `change` (last -
    first) between the first and last period (`questions/spans.py`)."""
    compound: bool = False
    """`growth` compounded per year (a CAGR): (last / first) ^ (1 / years between them) - 1."""
    qualifier: Qualifier = Qualifier()
    """Words the question puts on a library metric or a line item that make it another line's ("Tesla's
    automotive gross margin", "Mobileye revenue growth"): every operand is read from rows carrying them."""
    fall_asked: bool = False
    """The question asks how much a change fell ("how many fewer employees", "went down ... by how many"): a fall is
    stated as its size, not as a negative change (unless the question asks for the sign)."""
    part_of_whole: bool = False
    """The question asks what part of a whole the metric is ("what proportion of the debt was non-recourse"): a result
    over 100% of positive amounts is not stated."""


_DIVIDE_BY = re.compile(r"\s+and\s+(?:then\s+)?divid(?:e|ing)\s+(?:it\s+|that\s+|them\s+|the\s+result\s+)?by\b", re.I)
"""'take A and divide by B': a quotient written as an instruction."""
_INLINE = re.compile(r"(?:(?:,\s*|\(\s*|\b)(?:defined\s+as|calculated\s+as|computed\s+as|measured\s+as|taking|"
                     r"(?<=, )meaning|"
                     r"(?<=[-\u2013\u2014,;:] )take|"
                     r"i\.\s?e\.,?)|(?:,\s*|\(\s*)using|"
                     # NOTE: "Alphabet's 2023 ROE: net income divided by the average of ...": a colon before a formula
                     # a question after a colon is no formula ("Treasury question: how much did total debt (A plus B) ...")
                     r"(?<=[A-Za-z)])\s*:(?=(?:(?!\b(?:how|what|which)\b)[^?;:])*?\b(?:divided\s+by|minus|less|plus)\b))"
                     r"\s*:?\s*(?P<body>[^?;]+?)(?=\)\s*(?:[,.?;]|$)|\?|;|\.\s|,\s*then\b|\s+for\s+each\s+(?:year|period)\b|"
                     # NOTE: "defined as A minus B — how much, in $ millions?": the ask after a dash is not an operand
                     r"\s+[-\u2013\u2014]{1,2}\s+(?=(?:how|what|give|show|in|as|please|round\w*|one|two|three|four|zero|\d+)\b(?!-))|,\s*both\b|$)",
                     re.I)
"""A definition of the metric the question asks, written after its name: ", defined as A minus B",
"taking A over B", "i.e. (A - B) / C"."""
_DASHED = re.compile(r"(?<=[A-Za-z0-9)])\s+[-\u2013\u2014]{1,2}\s+(?P<body>[^?;]*?\b(?:divided\s+by|minus|less|plus|over)\b"
                     r"[^?;]*?)\s+[-\u2013\u2014]{1,2}(?=\s|\?|$)", re.I)
"""A definition set between dashes after the metric's name: "expense ratio - total expenses divided by total revenues
net of interest expense - below 80%?"."""
_DASH_LEAD = re.compile(r"(?<=[A-Za-z0-9)])\s+[-\u2013\u2014]{1,2}\s+(?!(?:what|how|which|why|who)\b)(?P<body>[A-Za-z(][^?;\u2013\u2014]*?\b(?:divided\s+by|minus|"
                        r"less|plus)\b(?:(?!\s[-\u2013\u2014]{1,2}\s)[^?;])*?)(?=\?|;|\.\s|\.$|,\s*(?:in|as)\s|,\s*both\b|$)",
                        re.I)
"""A formula after a dash that no second dash closes, tried after every other form: "Book value per share at 12/31/2021
- A divided by B, both from the balance sheet?"."""
_PAREN = re.compile(r"\((?P<body>[^()]*?(?:\b(?:minus|less|over|divided\s+by|plus)\b|\s[/\u00f7+]\s|"
                    rf"{SHARE_OF})[^()]*?)\)", re.I)
"""A definition in parentheses after the metric's name: "FCF (cash from operations less capex)"."""
_IN_FORMULA = re.compile(r"\s*(?:[/\u00f7*+]|-\s+(?=[A-Za-z(])(?!(?:in|as|to|rounded|one|two|three|percent)\b)|"
                         r"\b(?:over|divided\s+by|minus|less|plus|times|against)\b)", re.I)
"""What follows a parenthesis inside a written formula: the parenthesis is an operand's own formula, not the metric's."""
_AGGREGATED = re.compile(r"\b(?:mean|average|each\s+year|sum)\b", re.I)
"""A parenthesis that says how a metric is aggregated ("(simple mean of A / B for each year)") defines no metric."""
_YEARS_ASKED = re.compile(r"\bhow\s+many\s+years\b|\bnumber\s+of\s+years\b", re.I)
"""A quotient asked as a number of years (a cash runway, a payback period)."""
_ASKER = re.compile(r"^\s*(?:(?:as|i'?m|i\s+am)\s+an?\s+(?:[\w-]+\s+){0,3}?(?:analyst|investor|manager|banker|lender)\b[,.]?\s*)?"
                    r"(?:(?:i|we)\s+(?:want|need|would\s+like)\s+(?:to\s+(?:know|see|get)\s+)?)?", re.I)
"""Who asks, before the metric's name ("As an equity analyst I want Alphabet's ROE: ...")."""
_OWNER_LEFT = re.compile(r"\s+(?:in|for|of|at|from)\s+(?:the\s+)?[A-Z][\w&.-]*['\u2019]s?\s*$")
"""A company's possessive left at the end of a name once its period is read ("operating margin in Intel's" of "... in
Intel's fourth quarter of 2022")."""
_INSTRUCTION_TAIL = re.compile(r"(?:\s*,\s*(?:(?:%|percent(?:age)?s?|(?:in|as\s+an?)\s+(?:%|percent(?:age)?))"
                               r"(?:\s+(?:to|with|rounded\s+to)\s+(?:\d+|one|two|three|zero)\s+decimals?(?:\s+places?)?)?|"
                               r"\d+\s*d\.?p\.?|"
                               r"(?:\d+|one|two|three|zero)\s+decimals?(?:\s+places?)?|round\w*[^,]*|"
                               r"in\s+(?:USD\s+|US\$\s*|\$\s*)?(?:thousands|millions|billions)|\$\s*(?:mm|m|bn|b|k)))+[\s.?!]*$", re.I)
"""Instructions written after a definition inside its parenthesis: unit and rounding, not operands."""
_UNIT_TAIL = re.compile(r"\s*,\s*(?:%|percent(?:age)?|in\s+%)[\s.?!]*$|\s*\?\s*$", re.I)
"""The percent asked after a formula (", %?"), no part of its last operand."""
_ROUNDING_TAIL = re.compile(r"\s*,\s*to\s+(?:(?:\d+|one|two|three|zero)\s+|\d\s*)(?:decimals?(?:\s+places?)?|d\.?p\.?)"
                            r"(?:\s*\([^()]*\))?\s*$", re.I)
"""The rounding asked after the item ("notebook revenue ..., to one decimal"): no word of the item."""
INLINE = ""
"""The key of a definition the question gives without naming it again: it defines the metric asked."""


def definitions(question: str) -> dict[str, str]:
    """Names the question defines and their formula text, in the order written; a definition written
    after the metric's name without naming it again ("..., defined as A minus B", "(A less B)") is under
    the key INLINE."""
    found: dict[str, str] = {}
    question = _DIVIDE_BY.sub(" divided by ", question)  # "take total revenues and divide by equivalent admissions"
    for pattern in (_DEFINE, _DEFINED, _EQUALS):
        for m in pattern.finditer(question):
            # NOTE: "..., with EBITDA = A + B + C": the name defined is EBITDA, not "with EBITDA"
            name = re.sub(r"^(?:(?:with|where|and|using|given|taking)\s+)?(?:(?:the|a|an)\s+)?", "", m.group("name").strip(),
                          flags=re.I)
            # NOTE: "merch margin = (net sales - merch costs)/net sales, %?": the unit asked after the formula is no operand
            found.setdefault(name, _UNIT_TAIL.sub("", m.group("body").strip()) or m.group("body").strip())
    if not found:
        for pattern in (_INLINE, _DASHED, _PAREN, _DASH_LEAD):
            m = pattern.search(question)
            if m and pattern is _PAREN and _IN_FORMULA.match(question, m.end()):
                continue  # NOTE: "notes payable (current plus non-current ...) / total equity": an operand's own formula
            if m and _OPERATORS.search(normalise(m.group("body"))) and not (pattern is _PAREN and _AGGREGATED.search(m.group("body"))):
                body = _INSTRUCTION_TAIL.sub("", m.group("body")).strip(" ,")  # "(gross profit / net revenue, %, 1 dp)"
                if pattern is _PAREN:  # NOTE: "total debt (short-term + long-term)": each part is the item's noun so qualified
                    body = _parts_of(body, question[:m.start()])
                # NOTE: "defined as A divided by (B + C)?": the body's own group closes where the question does
                found[INLINE] = body + ")" * max(0, body.count("(") - body.count(")"))
                break
    return found


_AMOUNT_CHANGE = re.compile(r"\b(?:year[\s-]over[\s-]year|yoy|y/y)\s+(?:change|increase|decrease)\b", re.I)
_GROWTH_WORD = re.compile(r"\bgrowth\b|%|\bpercent", re.I)
"""A change asked as "year-over-year change" is an amount when the question asks an amount's unit and no percentage."""
_GROW_ASKED = re.compile(r"\b(?:grow|grew|grown|growth|increase[ds]?|rise|rose|risen|change[ds]?)\b", re.I)


def _defines_item_grown(question: str, defs: dict[str, str]) -> bool:
    """Whether the question's one definition is a sum in parentheses after an item whose growth it asks in percent
    ("by what percentage did quarterly capex (A plus B) grow year over year?"): an amount, no quotient."""
    body = defs.get(INLINE)
    m = _PAREN.search(question)
    if body is None or len(defs) != 1 or not m or body not in m.group(0) or not _PERCENT_ASKED.search(question) \
            and not re.search(r"\bby\s+what\s+(?:percent(?:age)?|%)", question, re.I):
        return False
    try:
        tree = _parsed(body, {})
    except ExpressionError:
        return False
    return not _has_quotient(tree) and bool(_GROW_ASKED.search(question[m.end():]))


PART_OF_WHOLE = re.compile(r"\bwhat\s+(?:proportion|portion|fraction|share|part|percent(?:age)?|%)\s+of\b"
                           r"(?=[^?]*\b(?:was|were|is|are|came|comes|come|went|goes)\b)", re.I)
"""'What proportion of AES's debt was non-recourse?': a part of a whole, never more than the whole."""


def read_plan(question: str) -> MetricPlan | None:
    """The metric plan of a question, or None when it asks for no computed metric."""
    plan = _read_plan(question)
    if plan is not None and plan.over == "change" and asks_fall(question):
        plan = replace(plan, fall_asked=True)  # NOTE: the question as written: a restatement may say "change" for its fall
    return replace(plan, part_of_whole=True) if plan is not None and PART_OF_WHOLE.search(question) else plan


_ASKED_AGAIN = re.compile(r"(?<=[.:;])\s*(?:so\s+)?(?:what|how\s+much)\s+(?:is|was|would\s+be|does\s+that\s+come\s+to)\s+"
                          r"(?:it|that|this|the\s+(?:ratio|result|figure|number|answer))\s*\??\s*$", re.I)
"""A short ask after a definition written as a statement ("...: A plus B, divided by C. What is it?"): the definition
is the question."""


_RESTATED_DEFINITION = re.compile(r",?\s*\(?\b(?:i\.\s?e\.?|ie|that\s+is|in\s+other\s+words)\s*,?\s+(?P<body>[^?()]+?)\)?(?=\s*\?|\s*$)|"
                                  r"\s*\((?P<paren>[^()]+)\)(?=\s*\?|\s*$)", re.I)
"""A definition said again after the metric it defines ("operating margin ..., i.e. its operating income as a share of its
revenue", "... in Q1 2023 (segment operating income divided by segment revenue)?")."""
_DEFINITION_WORDS = label_terms("its their the segment segments segment's own as a share of over divided by per cent percent "
                                "percentage ratio to")
"""Words of a definition said again that name no line ("its", "as a share of", "segment")."""


_COMMA_FORMULA = re.compile(r"^(?P<lead>[^,?=:]{2,80}?),\s+(?P<body>[^,?=:()]{2,80}?\s(?:/|\u00f7)\s[^,?=:()]{2,60}?)"
                            r"(?P<tail>\s*\((?:x|times|%)\))?\s*\?\s*$", re.I)
"""A note's metric, then its formula after a comma ("COST 1Q FY23 interest coverage, op income / interest expense (x)?")."""


def _comma_defined(question: str) -> str:
    """'<metric>, A / B?' as '<metric> = A / B?' when the note names a library metric before the comma; the question
    itself otherwise."""
    head = LABEL_FIRST.match(question) if ":" in question else None
    lead = question[head.end():] if head else question
    m = _COMMA_FORMULA.match(lead)
    if not m or metric_named(m.group("lead")) is None:
        return question
    return f"{question[:len(question) - len(lead)]}{m.group('lead')} = {m.group('body')}{m.group('tail') or ''}?"


def _library_restated(question: str) -> str:
    """The question without a definition it gives of the library metric it names in the library's own items ("What was
    Mobileye's operating margin ..., i.e. its operating income as a share of its revenue?"): the library's formula, and
    the qualifier the metric's name carries ("Mobileye's"), read as for the metric named alone."""
    m = _RESTATED_DEFINITION.search(question)
    metric = metric_named(question[:m.start()]) if m else None
    if metric is None:
        return question
    items = {w for t in re.findall(r"[a-z][a-z ]+", metric.formula.lower()) for w in label_terms(t)}
    said = label_terms(m.group("body") or m.group("paren")) - _DEFINITION_WORDS
    return f"{question[:m.start()]}{question[m.end():]}" if said and said <= items else question


_SUM_OF_QUARTERS = re.compile(r"\s*=\s*(?=(?:the\s+)?(?:sum|total)\s+of\s+(?:the\s+|its\s+)?(?:\w+\s+)?(?:quarters|qtrs)\b)", re.I)
"""'FCF = sum of the four quarters, each taken from that quarter's own deck': how the figure is added up, no formula."""


def _read_plan(question: str) -> MetricPlan | None:
    question = _SUM_OF_QUARTERS.sub(" - ", question)
    question = restated(_library_restated(_comma_defined(_ASKED_AGAIN.sub("", question))))
    lead = _PERSONA_LEAD.match(question)
    if lead and metric_named(lead.group(0)) is None and not concepts_in(lead.group(0)):
        question = question[lead.end():]  # NOTE: "We're looking at a small-cap credit: what was ..., meaning A minus B?"
    defs = definitions(question)
    if _defines_item_grown(question, defs):
        # NOTE: "by what percentage did quarterly capex (purchases of P&E plus finance lease principal payments) grow
        # year over year?": the parenthesis says what the item is; the growth asked is the item's, as printed
        question = restated(" ".join(_PAREN.sub(" ", question, count=1).split()))
        defs = definitions(question)
    outside = question
    for body in defs.values():
        outside = outside.replace(body, " ")
    outside = re.sub(r"\s+[-\u2013\u2014]{1,2}\s+[-\u2013\u2014]{1,2}(?=\s|\?|$)", " ", outside)  # a dashed definition's dashes
    head = _head(outside)
    if head and MEAN.search(head) and not (SPAN.search(head) or RANGE.search(head) or LISTED.search(head)):
        # NOTE: "Average dividend payout ratio for Weis Markets over fiscal 2020-2022": the years follow the company
        rest = _without_definitions(question, defs)
        span = SPAN.search(rest) or RANGE.search(rest) or LISTED.search(rest)
        head = f"{head} {span.group(0)}" if span else head
    percent_asked = bool(_PERCENT_ASKED.search(question)) and not POINTS.search(question)
    aggregate = read_aggregate(head, percent_asked) if head and not _defined(head, defs) else None
    if aggregate is not None and aggregate.over == "growth" and not percent_asked and asked_scale(question) is not None \
            and _AMOUNT_CHANGE.search(head) and not _GROWTH_WORD.search(head):
        # NOTE: "the year-over-year change in total borrowings ... In $ billions": an amount's change, not a growth rate
        aggregate = replace(aggregate, over="change")
    if aggregate is not None and aggregate.years is None:
        # NOTE: the years may follow the company ("Revenue CAGR for X over fiscal years 2020-2022")
        span = SPAN.search(_without_definitions(question, defs)) or RANGE.search(_without_definitions(question, defs))
        if span:
            first, last = sorted((span_year(span.group("a")), span_year(span.group("b"))))
            aggregate = replace(aggregate, years=(first, last))
        else:  # NOTE: "from Q1 2023 to Q2 2023", "sequential growth in 4Q24": quarters, not years
            named = asked_periods(_without_definitions(question, defs))[0]
            quarters = quarter_span(named, question)
            if len(quarters) != 2 and len(named) == 2 and all(p.kind == "instant" for p in named):
                quarters = tuple(sorted(named, key=lambda p: p.end))  # NOTE: "from Nov 20, 2022 to May 7, 2023": the dates
            aggregate = replace(aggregate, periods=quarters) if len(quarters) == 2 else aggregate
    named_metric = metric_named(RANGE.sub(" ", head)) if aggregate is not None and aggregate.over != "mean" else None
    if named_metric is not None and not (aggregate.over == "growth" and named_metric.unit == "amount"
                                         and "prior(" not in named_metric.formula):
        # NOTE: "revenue growth" is the library's metric: its own formula, at the last year; "the % change in FCF
        # from Q1 2023 to Q2 2023" is the growth of the library's FCF (an amount) between the two periods named; a
        # margin's "growth" between two periods is its move in points (a direction)
        aggregate = None
    if aggregate is not None:
        head = aggregate.head
    tree, name, definition, source, metric = _head_formula(head, defs), head, "", "question", None
    try:
        # NOTE: a question that is only its definition ("X free cash flow for 2022 = A - B. Express in ...") asks it
        named = _defined(head, defs) if head else next(iter(defs)) if len(defs) == 1 and INLINE not in defs else None
        inline = _inline_tree(defs[INLINE], defs) if tree is None and not named and INLINE in defs else None
        if inline is not None:  # "free cash flow for 2021, defined as A minus B": the question's own formula
            tree, definition = inline, defs[INLINE]
            name = without_periods(re.sub(r"\s*\([^()]*\)", " ", head)) or _named_before(question, defs[INLINE])
        elif tree is not None:
            name = definition = _LEFT_BEHIND.sub("", without_periods(head)).strip(" ,")
        elif named:
            name, definition = without_periods(named) or named, defs[named]
            tree = _parsed(definition, defs)
        else:
            # NOTE: "net cash provided by operating activities ... from the FCF reconciliation": where to read names no
            # metric asked
            metric = metric_named(TABLE_NAMED.sub(" ", head or "")) or (
                None if aggregate else metric_named(TABLE_NAMED.sub(" ", outside)))
            if metric is not None:
                name, definition, source = metric.name, metric.formula, "library"
                tree = parse(metric.formula)
                if _ENDING.search(question) and not _AVERAGE_ASKED.search(question) and _has_average(tree):
                    # NOTE: "DSO using year-end net accounts receivable": the balance at the year-end, not averaged
                    tree, definition = _ending_balances(tree), f"{metric.formula}, with year-end balances as asked"
            elif aggregate is not None and (concepts_in(head) or aggregate.over in ("change", "growth") and (
                    aggregate.years or aggregate.periods or _two_years(_without_definitions(question, defs))
                    or _quarter_over_year_ago(_without_definitions(question, defs)))
                                            and label_terms(without_periods(head))):
                # NOTE: "operating income growth rate": a line item's; "the change in long-term debt from 2020 to
                # 2021", "how fast did total operating expenses grow in 2022 compared with 2021": an item the
                # vocabulary does not know, between the two years named
                name = _COMPARED_LEFT.sub("", _INSTRUCTION_TAIL.sub("", without_periods(head))).strip(" ,")
                name = re.sub(r"^(?:yoy|y/y|q/q|qoq)\s+", "", name, flags=re.I)  # NOTE: "y/y % change in D&A": the rate's words
                name = re.sub(r"\s+(?:from|between)\s+(?:to|and)\b", "", name)  # NOTE: what a span of two dates leaves
                tree, source = Item(name), "library"
                definition = {"growth": f"{name}(last year) / {name}(first year) - 1",
                              "change": f"{name}(last year) - {name}(first year)",
                              "mean": f"the mean of {name} over the years"}[aggregate.over]
            elif summed_quarter_periods(question) and (summed := _summed_item(question)):
                # NOTE: "Reality Labs' full-year 2024 operating loss. Add up the quarters from Q1, Q2, Q3 and Q4 2024
                # decks": a printed line added up over the quarters named (the strategy's period sum)
                name, tree, source = summed, Item(summed), "library"
                definition = f"{summed}, each quarter's as printed, added up"
            else:
                return None
    except ExpressionError:
        return None
    periods, _ = asked_periods(_without_definitions(question, defs))
    if aggregate is not None:
        base = max(periods, key=lambda p: (p.year or 0, p.end, p.quarter or 0)) if periods else None
        over = aggregate_periods(aggregate, base)
        return replace(_aggregate_plan(question, aggregate, name, metric, definition, source, tree, over),
                       qualifier=_qualifier(question, metric, name, source)) if over else None
    # NOTE: a metric named for a change ("revenue growth") asks for one value, not a direction
    stated = outside
    for words in sorted({name, *(metric.aliases if metric else ())}, key=len, reverse=True):
        stated = re.sub(rf"(?<![\w-]){re.escape(words)}(?![\w-])", " ", stated, flags=re.I)
    # NOTE: "Salesforce gives constant-currency growth rates by region, but I want ... . For the three months ..., how much
    # did Asia Pacific revenue grow versus ...?": a sentence before the one that asks sets the scene, asks no direction
    sentences = [p for p in re.split(r"(?<=[.!])\s+(?=[A-Z])", stated) if p.strip()]
    asking = sentences[-1] if len(sentences) > 1 and "?" in sentences[-1] else stated
    direction = bool(_DIRECTION.search(asking))
    if direction and "prior(" in definition and all(re.match(r"(?:grow|increas|declin|decreas)", m.group(0), re.I)
                                                    for m in _DIRECTION.finditer(_YEAR_AGO.sub(" ", asking))):
        # NOTE: "How fast did Asia Pacific revenue grow in Q2 FY24 compared with the same quarter a year earlier?": the
        # growth is the library's rate (its prior() is the year-ago quarter), read once at the quarter asked
        direction = False
    if direction and len(periods) == 1 and periods[0].kind == "quarter" and periods[0].quarter:
        # NOTE: a quarter's change is over the year-ago quarter, or the quarter before when asked as sequential
        periods = [previous_quarter(periods[0]) if SEQUENTIAL.search(question) else shifted(periods[0], 1), periods[0]]
    elif direction and len(periods) == 1:
        periods = [Period("year", "", periods[0].year - 1), periods[0]] if periods[0].year else periods
    elif direction:
        periods = sorted(periods, key=lambda p: (p.year or 0, p.end, p.quarter or 0))  # from the earlier to the later
    elif not direction and len(periods) > 1:
        ordered = sorted(periods, key=lambda p: (p.year or 0, p.end, p.quarter or 0))
        periods = [ordered[-1]]
        if ordered[-1].kind == "quarter" and ordered[-1].quarter and previous_quarter(ordered[-1]) in ordered:
            tree = _prior_at(tree, previous_quarter(ordered[-1]))  # NOTE: "revenue growth from Q3 to Q4 2023"
        elif len(set(ordered)) == 2 and ordered[0].kind == ordered[-1].kind and ordered[0] != shifted(ordered[-1], 1):
            # NOTE: "the % increase in total revenue from Q1 2022 to Q3 2025", "revenue growth from FY2019 to FY2022":
            # over the earlier period named, never the year before the later one
            tree = _prior_at(tree, ordered[0])
            definition = f"{definition}, prior() read at {ordered[0].label}" if "prior(" in definition else definition
    if not direction and len(periods) == 1 and periods[0].kind == "quarter" and periods[0].quarter \
            and SEQUENTIAL.search(question):
        tree = _prior_at(tree, previous_quarter(periods[0]))  # NOTE: "revenue growth sequentially in Q4 2023"
    per_one = _without_hundred(tree)
    unit = metric.unit if metric else _unit_of(name, tree)
    named = metric_named(question.split(":", 1)[0]) if source == "question" and ":" in question else None
    if unit == "ratio" and named is not None and named.unit == "percent":
        unit = "percent"  # NOTE: "Meta's total shareholder payout ratio for Q3 2024: A plus B, divided by C": a payout
    if per_one is not tree or _PERCENT_ASKED.search(question) or (source == "question" and _SHARE_OF.search(definition)):
        unit = "percent"
    if unit == "ratio" and _YEARS_ASKED.search(question):
        unit = "years"  # NOTE: "how many years would its cash last at the pace of its cash burn (cash / burn)?"
    if unit == "percent":
        tree = per_one  # NOTE: a percent is multiplied by 100 once, when it is stated (answer.py)
    name = _OWNER_LEFT.sub("", name)
    return MetricPlan(_ASKER.sub("", name).strip() or name.strip(), metric, definition, source, tree, unit, tuple(periods),
                      direction and len(periods) > 1,
                      _digits(question), asked_scale(question), qualifier=_qualifier(question, metric, name, source))


FALL_ASKED = re.compile(r"\bhow\s+(?:many|much)\s+(?:fewer|less|lower|smaller)\b|\b(?:went|go|goes|gone|come|came)\s+down\b|"
                        r"\b(?:decrease|decline|drop|fall|shrink|reduce)[sd]?\b|\b(?:fell|shrank|dropped|narrow(?:ed)?)\b|"
                        r"\b(?:shed|lose|lost|eliminated?|lay\s+off|laid\s+off)\b|\bdraw[-\s]?downs?\b", re.I)
"""A change asked as a fall: its size is asked ("How many fewer employees ...", "headcount went down ... by how many",
"how many employees did Intel shed")."""
SIGN_ASKED = re.compile(r"\bnegative\s+(?:if|when|for)\b|\bsigned\b|\bwith\s+(?:its|the)\s+sign\b|\bas\s+a\s+negative\b|"
                        r"\(\s*-\s*\)", re.I)
"""The question asks for the change's sign ("$ millions, negative if it fell")."""


def asks_fall(question: str) -> bool:
    """Whether a change is asked as a fall, its size (FALL_ASKED), and not with its sign (SIGN_ASKED)."""
    return bool(FALL_ASKED.search(question)) and not SIGN_ASKED.search(question)


def item_aggregate_plan(question: str, aggregate: Aggregate, name: str, periods: tuple[Period, ...] | None,
                        qualifier: Qualifier, base: Period | None = None) -> MetricPlan | None:
    """The growth, change or mean of one printed line `name` (the row's own label), over `periods` when given,
    else over the years of `aggregate` or the years before `base`; None when no periods follow."""
    over = periods or aggregate_periods(aggregate, base)
    if not over:
        return None
    definition = {"growth": f"{name}(last year) / {name}(first year) - 1", "change": f"{name}(last year) - {name}(first year)",
                  "mean": f"the mean of {name} over the years"}[aggregate.over]
    return replace(_aggregate_plan(question, aggregate, name, None, definition, "library", Item(name), tuple(over)),
                   qualifier=qualifier)


def _aggregate_plan(question: str, aggregate: Aggregate, name: str, metric: MetricDef | None, definition: str,
                    source: str, tree: Node, periods: tuple[Period, ...]) -> MetricPlan:
    """The plan of a metric taken over several years: a growth is a percentage; a mean or a change has
    the unit of what it aggregates (a change of a percentage is in percentage points)."""
    per_one = _without_hundred(tree)
    unit = metric.unit if metric else _unit_of(name, tree) if not isinstance(tree, Item) else "amount"
    if per_one is not tree or (aggregate.over != "change" and _PERCENT_ASKED.search(question)):
        unit = "percent"
    if aggregate.over == "growth":
        unit = "percent"
    words = {"mean": f"{len(periods)} year average", "growth": "growth", "change": "change"}[aggregate.over]
    if aggregate.compound:
        words = "compound annual growth rate"
        definition = f"({name}(last year) / {name}(first year)) ^ (1 / years) - 1"
    label = f"{name} {words}" if aggregate.over != "mean" else f"{words} {name}"
    return MetricPlan(label, metric, definition, source, per_one if unit == "percent" else tree, unit, periods, False,
                      _digits(question), asked_scale(question), aggregate.over, compound=aggregate.compound,
                      fall_asked=aggregate.over == "change" and asks_fall(question))


_MEASURE_KINDS = label_terms("operating gross net pretax pre-tax ebitda ebit")
"""The words that say which margin or return a measure is ("operating margin"), never which segment's."""
_MEASURE_WORD = re.compile(r"\b(?:margin|ratio|rate|return|turnover|yield)\b", re.I)
"""The measure's own word in a name read with its verb ("operating margin did Data Center and AI earn")."""


def _qualifier(question: str, metric: MetricDef | None, name: str, source: str) -> Qualifier:
    """The qualifier the question puts on a library metric or an aggregated line item (the words just
    before its name); none for a metric the question defines (its operands carry their own words)."""
    if source != "library":
        # NOTE: "Meta's Family of Apps segment ... (segment operating income over segment revenue)": the segment the
        # question names qualifies the operands its own definition calls the segment's
        # NOTE: "Using the segment table ..., what operating margin did the Family of Apps segment earn": the first
        # "segment" that names one (a word before it), not a table's
        said_segment = [(m, qualifier_around(question, m.start(), m.end()))
                        for m in re.finditer(r"\bsegment(?:['\u2019]s)?\b", question, re.I)]
        named, found = next(((m, q) for m, q in said_segment if q.words or q.owner),
                            said_segment[0] if said_segment else (None, Qualifier()))
        if named and source == "question" and re.search(r"\bsegment\b", name + " " + question[named.end():], re.I):
            # NOTE: "Mobileye's operating margin ... (segment operating income over segment revenue)": the segment is the
            # one whose measure is asked, the owner before the measure's name
            said = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", question, re.I) if name and not found.words else None
            found = qualifier_around(question, said.start(), said.end()) if said else found
            measure = _MEASURE_WORD.search(question, said.start(), said.end()) if said and not (found.words or found.owner) else None
            if measure:  # NOTE: "What operating margin did Data Center and AI earn (segment ... over segment revenue)?"
                found = qualifier_around(question, measure.start(), measure.end())
            # NOTE: "the Family of Apps operating margin (segment operating income divided by segment revenue)": the
            # measure's own kind ("operating") is no word of the segment
            found = replace(found, words=found.words - _MEASURE_KINDS)
            if found.words or found.owner:
                return found
        return Qualifier()
    names = sorted({name, *(metric.aliases if metric else ())}, key=len, reverse=True)
    for words in names:
        found = re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", question, re.I) if words else None
        if found:
            around = qualifier_around(question, found.start(), found.end())
            if around or metric is not None:
                return around
            break  # NOTE: an item's name read whole ("revenue from European users growth") carries its words inside
    # NOTE: "how fast did revenue from European users grow": the item as the name starts it ("revenue from European
    # users growth") is where its concept is asked, not the first "revenue" of the question ("the revenue-by-user-
    # geography chart")
    words = name.split()
    named = next((m for k in range(len(words), 0, -1)
                  for m in [re.search(rf"(?<![\w-]){re.escape(' '.join(words[:k]))}(?![\w-])", question, re.I)] if m), None)
    found = next((m for c in concepts_in(named.group(0)) for m in [c.asked.search(question, named.start(), named.end())]
                  if m), None) if named else None
    found = found or next((m for c in concepts_in(question) for m in [c.asked.search(question)] if m), None)
    return qualifier_around(question, found.start(), found.end()) if found else Qualifier()


_ENDING = re.compile(r"\b(?:year[\s-]end|ending|end[\s-]of[\s-](?:the\s+)?(?:year|period)|period[\s-]end|closing)\s+"
                     r"(?:net\s+|total\s+|gross\s+)?(?:balances?|[a-z]+)", re.I)
"""A question asking a balance at the year-end ("using year-end net accounts receivable") where the library
averages it."""


_AVERAGE_ASKED = re.compile(r"\b(?:average|avg|mean)\b", re.I)


def _prior_at(node: Node, period: Period) -> Node:
    """The formula with each operand read a period before (`prior(...)`) read at `period` instead: a quarter's change
    asked against the quarter before, not the year-ago quarter."""
    if isinstance(node, BinOp):
        return BinOp(node.op, _prior_at(node.left, period), _prior_at(node.right, period))
    if isinstance(node, Item) and node.offset < 0 and node.period is None:
        return Item(node.phrase, 0, period, node.statement)
    return node


def _has_average(node: Node) -> bool:
    if isinstance(node, BinOp):
        return _has_average(node.left) or _has_average(node.right)
    return isinstance(node, Avg)


def _ending_balances(node: Node) -> Node:
    """The formula with each average of a balance replaced by the balance at the period asked."""
    if isinstance(node, BinOp):
        return replace(node, left=_ending_balances(node.left), right=_ending_balances(node.right))
    return node.item if isinstance(node, Avg) else node


def _digits(question: str) -> int | None:
    rounding = _ROUND.search(question)
    if not rounding:
        return None
    if rounding.group("whole"):
        return 0
    n = (rounding.group("n") or rounding.group("n2") or "").lower()
    return _NUMBERS.get(n, int(n) if n.isdigit() else None)


def _named_before(question: str, body: str) -> str:
    """The metric an inline definition defines, as the words before it name it ("uber 2021 FCF (A less B)"
    -> "uber FCF"; "What gross margin did X earn on Y, i.e. ..." -> "gross margin did X earn on Y")."""
    before = question[:max(0, question.find(body))]
    before = re.sub(r"^\s*(?:what|which|how\s+much)\s+(?:is|was|were|are)?\s*", "", before, flags=re.I)
    words = without_periods(re.sub(r"[(,:]|\s[-\u2013\u2014]{1,2}\s*$|\bi\.\s?e\.|\b(?:defined|calculated|computed|taking)\b.*$",
                                    " ", before, flags=re.I)).split()
    return " ".join(words[-8:]) or "the metric asked"


_TRAILING_PARENTHESIS = re.compile(r"\s*\((?=[^()]*(?:\$|\b(?:USD|millions?|billions?|thousands?|percent|decimals?|dp|bn|mm)\b|%))"
                                   r"[^()]*\)\s*$", re.I)
"""The unit or rounding asked, set in parentheses after a definition ("A minus B from the cash flow statement ($ millions)");
never what the definition says of its operands ("average total assets (start and end of year)")."""


def _inline_tree(body: str, defs: dict[str, str]) -> Node | None:
    """The formula of an inline definition, or None when it does not read as one (a parenthesis at its end that
    does not read, such as the unit asked, is set aside)."""
    for text in (body, _TRAILING_PARENTHESIS.sub("", body)):
        try:
            return _parsed(text, defs)
        except ExpressionError:
            continue
    return None


_EVERY_OPERAND_FROM = re.compile(r"(?:\(\s*(?:both|all|each)\s+|,\s*(?:both\s+|all\s+)?)(?:from|per|in|on|using)\s+(?:the\s+)?"
                                 r"[^(),]*?(?:statements?|balance\s+sheet|P&L|cash\s+flows?|financial\s+(?:condition|"
                                 r"position))\s*\)?\s*$", re.I)
"""A statement named once for every operand at the end of a definition ("A / B, from the statement of
financial condition", "A divided by B (both from the income statement)")."""


def _parsed(body: str, defs: dict[str, str]) -> Node:
    """A definition's formula, each operand with the statement named for all of them at its end."""
    every = _EVERY_OPERAND_FROM.search(body)
    written = body[:every.start()] if every else body
    try:
        tree = _substitute(parse(normalise(written)), defs)
    except ExpressionError:
        # NOTE: "FCF = CFO minus capex (payments for PP&E), $mm": the unit asked and an aside that says what an operand
        # is are not operands
        tree = _substitute(parse(normalise(_NAMING_ASIDE.sub(" ", _INSTRUCTION_TAIL.sub("", written)).strip(" ,"))), defs)
    return _from_statement(tree, named_statement(every.group(0))) if every and named_statement(every.group(0)) else tree


def _from_statement(node: Node, statement: str) -> Node:
    if isinstance(node, BinOp):
        return replace(node, left=_from_statement(node.left, statement), right=_from_statement(node.right, statement))
    if isinstance(node, Item) and not node.statement:
        return replace(node, statement=statement)
    return node


_ASIDE = re.compile(r"\((?![^()]*[-+*/\u00f7])[^()]*\)")
"""A parenthesis without an operator in a written formula: an aside ("(holdco consolidated)"), not an operand."""
_PERSONA_LEAD = re.compile(r"^\s*(?:(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:looking|working|reviewing|doing|writing|building|"
                          r"running|checking|a|an|the|on|in)\b|(?:as|for)\s+(?:a|an|the|our)\b)[^:?]{0,80}:\s+(?=\S)", re.I)
"""Who is asking, set before a colon ("We're looking at a small-cap credit: what was ..."): not a definition's name
(unless it names the metric: "As an equity analyst I want Alphabet's 2023 ROE: net income divided by ...")."""


_YEAR_AGO_BASE = r"(?:the\s+)?(?:year[\s-]ago|prior[\s-]year|same)\s+quarter|a\s+year\s+(?:ago|earlier|before)"
"""The year-ago quarter named as a change's base ("the year-ago quarter", "a year ago")."""
_SAME_WEEKS_LAST_YEAR = (r"the\s+same\s+(?:\d{1,2}\s+weeks|quarter|period|three\s+months)\s+(?:a\s+year\s+(?:earlier|ago|before)|"
                         r"(?:of\s+)?(?:last|a|the\s+prior|the\s+previous)\s+year)")
"""The year-ago quarter named by its length ("the same 12 weeks last year", "the same 12 weeks a year earlier")."""
_SAME_SPAN_AGO = re.compile(rf"\s*\b(?:vs\.?|versus|compared\s+(?:with|to)|against)\s+{_SAME_WEEKS_LAST_YEAR}\b", re.I)
"""The year-ago span a growth is against ("compared with the same 12 weeks a year earlier"): no word of the item."""
_YEAR_AGO = re.compile(rf"\b(?:year[\s-]+(?:over|on)[\s-]+year|yoy|y/y)\b|\b(?:versus|vs\.?|from|over|compared\s+(?:with|to)|"
                       rf"against|than)\s+(?:{_YEAR_AGO_BASE})\b|\b{_SAME_WEEKS_LAST_YEAR}\b", re.I)
"""A quarter's change asked over the year-ago quarter ("year over year in Q2 2023", "vs the year-ago quarter")."""


def _quarter_over_year_ago(text: str) -> bool:
    """Whether the text names one quarter and asks its change over the year-ago quarter (the two quarters are read then:
    "how much did product development expense go up year over year in Q2 2023")."""
    named = asked_periods(text)[0]
    if len(named) != 1:
        return False
    one = named[0]
    # NOTE: "the 12 weeks that ended May 7, 2023 ... versus the same 12 weeks a year earlier": a quarter named by its end
    quarter = one.kind == "quarter" and bool(one.quarter) or one.kind == "months" and one.months == 3
    return quarter and bool(_YEAR_AGO.search(text))


def _two_years(text: str) -> bool:
    """Whether the text names two or more periods, each a year (not quarters: "from Q4 2022 to Q1 2023")."""
    periods, _ = asked_periods(text)
    return len(periods) >= 2 and all(p.kind in ("year", "fiscal_year") for p in periods)


_COMPARED_LEFT = re.compile(rf"\s+(?:compared\s+(?:with|to)|versus|vs\.?|against|relative\s+to|than|from)"
                            rf"(?:\s+(?:{_YEAR_AGO_BASE}|{_SAME_WEEKS_LAST_YEAR}))?\s*$", re.I)
"""What taking the years out of "X in 2022 compared with 2021" leaves after the item's name, and the year-ago base a
quarter's change is asked over ("X compared to a year ago")."""
_NAMING_ASIDE = re.compile(r"\((?![^()]*(?:[-+*/\u00f7\d]|\b(?:year|years|start|end|beginning|opening|closing|average|avg|"
                           r"prior|current|quarter|month)\b))[^()]*\)", re.I)
"""An aside that only names what an operand is ("capex (payments for PP&E)"), never how or when it is read
("average total assets (start and end of year)", "(Nov 30, 2022 and Nov 30, 2021)")."""
_LEFT_BEHIND = re.compile(r",?\s*[\w&'-]+(?:\s+[\w&'-]+){0,3}\s*=\s*$")
"""The name of a definition whose body was taken out ("..., EBIT =")."""


def _head_formula(head: str, defs: dict[str, str]) -> Node | None:
    """The formula the question's head writes ("unadjusted EBITDA less capex"), or None."""
    # NOTE: a year range ("FY2019 - FY2020") is a span, never a subtraction; nor is a dash left at either end
    words = without_periods(RANGE.sub(" ", head)).strip(" -\u2013\u2014")
    # NOTE: "PCG (holdco consolidated) 2021 EBIT / interest expense, EBIT = operating income": a parenthesis with no
    # operator in it and the name a definition left behind are not operands
    # (a statement named in one, "(from the cash flow statement)", says where its operand is read: kept)
    words = _LEFT_BEHIND.sub("", _ASIDE.sub(lambda m: m.group(0) if statement_note(m.group(0)) else " ", words)
                         ).strip(" ,-\u2013\u2014")
    if not words or not _OPERATORS.search(normalise(words)):
        return None
    named_metric = metric_named(words) if _SHARE_OF.search(words) and not _OPERATORS.search(_SHARE_OF.sub(" ", words)) \
        else None
    if named_metric is not None and named_metric.unit != "amount":
        return None  # NOTE: "capex as a % of revenue" is the library's metric, with its own name; "FCF as % of revenue"
        # names an amount (free cash flow), whose share is the question's own formula
    try:
        return _substitute(parse(normalise(words)), defs)
    except ExpressionError:
        pass
    # NOTE: "total debt (long-term debt plus long-term debt due within one year) over EBITDA": a name followed by its
    # own formula in parentheses is that formula
    named = _NAMED_FORMULA.sub(lambda m: f"{m.group('lead')}({_ELLIPTIC.sub(_said_twice, m.group('body'))})", words)
    if named == words:
        return None  # NOTE: "times interest earned" names a metric; it is not a product
    try:
        return _substitute(parse(normalise(named)), defs)
    except ExpressionError:
        return None


_NEAR_PART = r"current|short[-\s]term"
_FAR_PART = r"non-?current|long[-\s]term"
"""The two parts an item is split into by maturity, each as its own word (the near one first, as analysts say it)."""
_ELLIPTIC = re.compile(rf"\b(?P<a>{_NEAR_PART})\s+(?P<op>plus|and|\+)\s+(?P<b>{_FAR_PART})\s+"
                       r"(?P<x>(?:(?!\b(?:plus|minus|less|over|times|divided)\b)[\w &'-])+?)(?P<rest>\s+(?:plus|minus|less|over|"
                       r"times|divided)\b.*)?$", re.I)
"""'current plus non-current notes payable and other borrowings': the item said once for both parts."""


_PART = rf"{_NEAR_PART}|{_FAR_PART}|domestic|foreign|international"
_PARTS_ONLY = re.compile(rf"^\s*(?P<a>{_PART})\s+(?P<op>plus|and|\+)\s+(?P<b>{_PART})\s*$", re.I)
"""A definition naming only the parts of the item before it ("total debt (short-term + long-term)")."""


def _parts_of(body: str, before: str) -> str:
    """'short-term + long-term' after "total debt" as 'short-term debt plus long-term debt'; the body itself otherwise."""
    m = _PARTS_ONLY.match(body)
    noun = re.search(r"([A-Za-z][\w'-]*)\s*$", before)
    if not m or not noun or noun.group(1).lower() in {"total", "the", "of", "its", "their"}:
        return body
    return f"{m.group('a')} {noun.group(1)} plus {m.group('b')} {noun.group(1)}"


def _said_twice(m: re.Match) -> str:
    """'current plus non-current X' as 'current X plus non-current X' (the rest of the formula once, after it)."""
    return f"{m.group('a')} {m.group('x')} plus {m.group('b')} {m.group('x')}{m.group('rest') or ''}"


_NAMED_FORMULA = re.compile(r"(?P<lead>^|\b(?:over|divided\s+by|plus|minus|less|times|and)\s+)"
                            r"(?:(?!\b(?:over|plus|minus|less|times|divided)\b)[\w &'-]){2,60}?\s*"
                            r"\((?P<body>[^()]*?\b(?:plus|minus|less|divided\s+by|times|over)\b[^()]*)\)", re.I)
"""An operand written as its name and its formula in parentheses ("total debt (A plus B)")."""


def _unit_of(name: str, tree: Node) -> str:
    """The unit of a metric the question defines: the library's unit for that name, else its name's cue
    ("margin", "ratio"), else a ratio for a quotient and an amount otherwise."""
    known = metric_named(name)  # NOTE: "dividend payout ratio (dividends paid / net income)" is still a percentage
    quotient = isinstance(tree, BinOp) and tree.op == "/"
    if known is not None and not (quotient and known.unit == "amount"):
        return known.unit  # NOTE: "total debt (A plus B) over EBITDA" names total debt, an amount; a quotient is none
    if _PERCENT.search(name) or (_PERCENT_QUOTIENT.search(name) and _has_quotient(tree)):
        return "percent"
    if _RATIO.search(name):
        return "ratio"
    if isinstance(tree, BinOp) and tree.op == "/" and isinstance(tree.right, Item) and _OF_REVENUE.search(tree.right.phrase) \
            and not _OF_REVENUE.search(render(tree.left)):
        return "percent"  # NOTE: "capex / revenue", "R&D / net sales": a share of revenue is read as a percentage
    if _DAYS_TIMES.search(render(tree)) and _has_quotient(tree):
        return "days"  # NOTE: "year-end inventories / cost of revenue x 365": a quotient of a year's days
    return "ratio" if isinstance(tree, BinOp) and tree.op == "/" else "amount"


_DAYS_TIMES = re.compile(r"[*x\u00d7]\s*36[056]\b|\b36[056]\s*[*x\u00d7]", re.I)


def _has_quotient(node: Node) -> bool:
    return isinstance(node, BinOp) and (node.op == "/" or _has_quotient(node.left) or _has_quotient(node.right))


_OF_REVENUE = re.compile(r"\b(?:total\s+|net\s+)?(?:revenues?|sales|turnover)\b", re.I)


def _without_hundred(node: Node) -> Node:
    """A formula without its own `* 100` ("gross profit / revenue * 100", "100 * A / B"); the same
    node when it has none."""
    if isinstance(node, BinOp) and node.op == "*":
        if node.right == Num(100.0):
            return node.left
        if node.left == Num(100.0):
            return node.right
    if isinstance(node, BinOp) and node.op == "/":
        left = _without_hundred(node.left)
        if left is not node.left:
            return BinOp("/", left, node.right)
    return node


_PASTED = re.compile(rf"{SHARE_OF}|\b(?:growth|CAGR)\b|\b(?:yoy|y/y|year[\s-]over[\s-]year)\s*(?:%|change\b|chg\b)|^\s*(?:the\s+)?(?:[\w-]+[\s-]years?\s+)?(?:average|mean)\b|"
                     r"\s[/\u00f7]\s|\b(?:divided\s+by)\b", re.I)
"""What makes a pasted object a metric: a share of another item, a growth ("capex yoy %"), a quotient."""
_DASHED_INSTRUCTION = re.compile(r"\s+[-\u2013\u2014]{1,2}\s+(?:(?:exact(?:ly)?|in|as|to|round\w*|give|answer|please|show|one|two|"
                                 r"three|zero|\d+)\b|%).*$", re.I)
"""An instruction after a dash that ends a note's object ("... in Q1 2023 - exact % from the segment table, 2 decimals")."""
_COLON_LABEL = re.compile(r"^[^:?]{2,60}:\s+(?=\S)")
"""A note's label before a colon ("HCA 2022 leverage: ")."""
_SOURCE_NAMED = re.compile(r",?\s*\b(?:using|per|from|in|according\s+to|based\s+on|going\s+off|taking\s+(?:it|each|them)\s+from)\s+"
                           r"(?:the|its|their|that|this|each)\s+(?:[\w'\u2019]+\s+){0,3}?(?:deck|release|presentation|slides?|"
                           r"transcript|call|filing|report|reconciliation|10-[KQ])\b(?:['\u2019]s\s+(?:reconciliation|table|appendix))?"
                           r"(?=\s*(?:[,?.;:)]|$))", re.I)
"""Which document the figure comes from ("using the Q4 deck", "per that quarter's release", "going off the Q2 2025 deck's
reconciliation"): the scope, not the item."""
_AS_REPORTED = re.compile(r",?\s*\b(?:as\s+reported|on\s+an?\s+(?:as[\s-]+)?reported\s+basis|in\s+reported\s+terms)\b", re.I)
"""The printed (not constant-currency) basis, which is what a figure read from a table is."""
_OVER = re.compile(r"[A-Za-z)]\s+over\s+(?!(?:the|a|an|that|this|each|fiscal|FY|time|its|their)\b|"
                   r"[^,.?;:(]*\b(?:years?|quarters?|months?|periods?|consecutive|last|Q[1-4]|FY\w*|(?:19|20)\d\d)\b)"
                   r"[A-Za-z]", re.I)
"""A quotient written with "over" in a labelled note ("HCA 2022 leverage: total debt over EBITDA"), not "over the
last three years" or "year over year"."""


_VERSUS = re.compile(r"\s*\b(?:vs\.?|versus|compared\s+(?:with|to))\s+(?:the\s+)?(?:same\s+(?:quarter|period)\s+)?"
                     r"(?:of\s+)?(?:last|prior|previous)\s+year\b|\s*\b(?:vs\.?|versus)\s+(?:FY\s?'?)?\d{2,4}\b|"
                     r"[,(]\s*%\s*\)?(?=\s*[?.]?\s*$)|\s*[,(]\s*%\s*[,)]", re.I)
"""What a pasted object says of the comparison or unit ("growth 2022 vs 2021, %"): neither is the item."""


def _head(text: str) -> str:
    m = _HEAD.search(text)
    if not m:
        # NOTE: a question pasted from notes states its object first ("Revenue CAGR for X over FY2020-2022?",
        # "WHLR leverage check: loans payable, net as a % of total assets at YE2022?"), after any label it
        # starts with ("From Weis Markets' income statement: ...")
        first = re.split(r"(?<=[?.!])\s+", text.strip(), maxsplit=1)[0]
        labelled = bool(_COLON_LABEL.match(first))
        label = LABEL_FIRST.match(first)
        if label and not labelled and _PASTED.search(label.group(0)) and not _PASTED.search(first[label.end():]):
            # NOTE: "Intel DCAI revenue y/y change in Q1 2023 - exact % from the segment table, 2 decimals": the note's
            # object is before the dash, its instructions after it
            first = label.group(0).rstrip(" -\u2013\u2014")  # (digits and units are read from the whole question)
        else:
            first = LABEL_FIRST.sub("", first)
        first = _VERSUS.sub(" ", _SAME_SPAN_AGO.sub(" ", first))
        pasted = COMPOUND.search(first) or _PASTED.search(first) or labelled and _OVER.search(first)
        return _head(f"what is {first}") if pasted else ""
    head = _before_company(_SAME_SPAN_AGO.sub(" ", m.group("head")))
    # NOTE: "Acme's FY2022 net debt" -> "FY2022 net debt"; what is asked before the possessive stays: "the change in
    # Incyte's cash", "JAKAFI net revenues as a % of Incyte's 2022 total revenues"
    head = _POSSESSIVE.sub("", head, count=1)
    head = _INSTRUCTION_TAIL.sub("", _ROUNDING_TAIL.sub("", _DASHED_INSTRUCTION.sub("", head)))
    head = _SOURCE_NAMED.sub(" ", _AS_REPORTED.sub(" ", head))  # NOTE: "as reported (not constant currency)": the printed figure, the default
    head = re.sub(r"\s*\((net|gross|total|reported|consolidated|adjusted|diluted|basic)\)", r", \1", head, flags=re.I)
    head = re.sub(r",?\s*\bof\s+(?:US\s+|U\.S\.\s+)?dollars\b", " ", UNIT_ASKED.sub(" ", head))  # "in thousands of dollars"
    head = re.sub(r",?\s*\b(?:defined|calculated|computed|measured)\s+as\b.*$", " ", head, flags=re.I)
    return re.sub(r"\s+", " ", re.sub(r"\b(?:amount|value|figure|number)\b", " ", head, flags=re.I)).strip(" ,")


def _before_company(head: str) -> str:
    """The head up to the company it names ("revenue of Meta"), keeping a capitalised name that has "of" inside it
    ("Family of Apps operating income", "Cost of Revenue")."""
    for cut in _COMPANY_TAIL.finditer(head):
        before = head[:cut.start()].split()
        if cut.group(0).strip().lower() == "of" and before and before[-1].lstrip("([")[:1].isupper() and (
                len(before) > 1 or _NAME_GOES_ON.match(head, cut.end())):
            continue
        return head[:cut.start()]
    return head


_NAME_GOES_ON = re.compile(r"(?:[A-Z][\w&'-]*\s+(?:\([A-Za-z&]{2,8}\)\s+)?){1,3}(?!(?:for|in|at|of|during|on|as|to|from|vs|versus)\b)[a-z]")
"""'Family of Apps operating margin', 'Family of Apps (FoA) operating income': the item goes on after the capitalised
words "of" leads to (and a short name in parentheses), which name no company (one would end the item: "Revenue of Meta in
Q3")."""


_SUM_WORDS = re.compile(r"\b(?:add(?:ed|ing)?\s+(?:up|together)|sum(?:med)?(?:\s+of)?|combined|cumulative|in\s+total|"
                        r"(?:what(?:'s|\u2019s|\s+is|\s+was)\s+)?(?:the\s+)?total(?:\s+(?:of|for|across|over))?|"
                        r"(?:the|each|every|all(?:\s+(?:four|three|two))?)\s+quarters?(?:['\u2019]s?)?|across|together)\b", re.I)
_FROM_DOCUMENTS = re.compile(r"\b(?:from|in|using|per|across|taking\s+each\s+quarter\s+from)\s+[^.?;]{0,80}?\b(?:decks?|"
                             r"releases?|presentations?|reports?|slides|filings?|results|10-Qs?)\b", re.I)
_ASKING_LEAD = re.compile(r"^\s*(?:(?:for|as)\s+(?:an?|the|my|our)\s+[^,:]{1,60}?[,:]?\s+(?=(?:I|we)\b))?(?:(?:I|we)\s+"
                          r"(?:need|want)|please|can\s+you|give\s+me|what(?:'s|\u2019s|\s+(?:is|was|were|are))|how\s+much\s+"
                          r"(?:is|was|were|did))\s+", re.I)
_NO_ITEM = label_terms("total sum quarter quarters deck decks million millions billion billions please")


def _summed_item(question: str) -> str:
    """The printed line a sum over quarters adds up, as the question names it without its periods, documents and
    summing words ("Reality Labs' operating loss" of "I need Reality Labs' full-year 2024 operating loss. Add up the
    quarters from Meta's Q1, Q2, Q3 and Q4 2024 earnings decks - what's the total?"); '' when no sentence names one."""
    sentences = re.split(r"(?<=[.?!;])\s+|\s+[-\u2013\u2014]\s+", question)
    # NOTE: the sentence that asks or sums names the line before a persona's ("Equity research associate here."); in
    # it, what its asking clause asks first ("If I add up ... decks, what's the full-year 2024 RL operating loss?")
    ordered = sorted(sentences, key=lambda s: not (_SUM_WORDS.search(s) or "?" in s))
    asks = [m.group("head") for s in ordered if (m := _HEAD.search(s))]
    for sentence in asks + ordered:
        text = _FROM_DOCUMENTS.sub(" ", re.sub(r"\(.*?\)", " ", LABEL_FIRST.sub("", sentence)))
        text = _SUM_WORDS.sub(" ", without_periods(UNIT_ASKED.sub(" ", text)))
        text = re.sub(r"\b(?:full|first|second)[\s-](?:year|half)\b|\b(?:the\s+)?first\s+(?:two|three)\s+quarters\b|\bquarterly\b|"
                      r"[?.!,;:$]|\b(?:Q[1-4]|[1-4]Q)\b|(?<!\w)[-\u2013](?!\w)", " ", text, flags=re.I)
        text = _ASKING_LEAD.sub("", re.sub(r"\s+", " ", text).strip())
        text = re.sub(r"(?:\s+(?:for|and|in|of|over|from|during|the))+\s*$", "", without_periods(text).strip())
        text = re.sub(r"^(?:the|its)\s+", "", re.sub(r"\s+", " ", text).strip(), flags=re.I)
        if label_terms(text) - _NO_ITEM:
            return text
    return ""


def without_periods(text: str) -> str:
    _, texts = asked_periods(text)
    for words in texts:
        text = text.replace(words, " ")
    # NOTE: the words of a period read in two pieces ("in Q3 of fiscal 2023" reads "Q3", the year beside it)
    text = re.sub(r"\b(?:of\s+)?(?:fiscal(?:\s+year)?|FY)\s*'?\d{2,4}\b|\b(?:the\s+)?(?:first|second|third|fourth)\s+"
                  r"(?:fiscal\s+)?quarter\b", " ", text, flags=re.I)
    # NOTE: "in Q3 FY23, the 12 weeks ended May 7, 2023": the date read leaves the words that led to it
    text = SPAN_LEFT.sub(" ", text)
    for _ in range(2):  # what removing a period leaves ("margin in , i" once "Q3 of fiscal 2023" is gone)
        text = re.sub(r"\(\s*\)|\s+(?:in|for|of|at|during)(?:\s+the)?\s*[?.!,]?\s*$|,\s*i\s*$|"
                      r"\s+(?:in|for|of|at|during)(?:\s+the)?\s*,(?:\s*,)*\s*(?=[?.!]?\s*$)", " ", text)
    return re.sub(r"\s+", " ", text).strip(" ,")


def _without_definitions(question: str, defs: dict[str, str]) -> str:
    """The question without its definitions' bodies (their years are the formula's, not the target)."""
    for body in defs.values():
        if not re.search(r"\bbetween\b", body, re.I):
            question = question.replace(body, " ")
    return question


def _defined(head: str, defs: dict[str, str]) -> str | None:
    """The defined name the head asks for ("FY2018 fixed asset turnover ratio" -> "Fixed asset turnover ratio")."""
    head_terms = label_terms(without_periods(head))
    for name in defs:
        terms = label_terms(name)
        if terms and (terms <= head_terms or head_terms <= terms) and len(terms & head_terms) >= max(1, len(terms) - 1):
            return name
    return None


def printed_first(plan: MetricPlan, question: str) -> tuple[Node, tuple[MetricDef, ...]] | None:
    """The plan's formula with each printed library metric it expanded (free cash flow: `printed: yes`) read as the
    company's own line again, and those metrics; None when it expanded none, or the question names the formula's own
    items (then the question asks for VERA's arithmetic). "free cash flow as a percentage of net income" of a release
    that prints "Free cash flow" reads that row (Meta's deducts lease principal); the formula stays the fallback."""
    if plan.source != "question":
        return None
    asked = label_terms(question)
    used: list[MetricDef] = []

    def walk(node: Node) -> Node:
        for metric in printed_metrics():
            formula = parse(metric.formula)
            if node == formula and not any(label_terms(i.phrase) <= asked for i in items(formula)) \
                    and any(re.search(rf"(?<![\w-]){re.escape(a)}(?![\w-])", question, re.I) for a in metric.aliases):
                used.append(metric)
                return Item(metric.name.lower())
        if isinstance(node, BinOp):
            return replace(node, left=walk(node.left), right=walk(node.right))
        return node

    tree = walk(plan.tree)
    return (tree, tuple(used)) if used else None


def printed_metrics() -> tuple[MetricDef, ...]:
    """The library metrics companies print themselves, as amounts (a formula expands them only where no row prints
    them)."""
    return tuple(m for m in library() if m.printed and m.unit == "amount")


def _substitute(node: Node, defs: dict[str, str], depth: int = 0) -> Node:
    """Operands that name a definition of the question, or a library metric, become their formula."""
    if depth > 4:
        raise ExpressionError("definitions refer to each other in a loop")
    if isinstance(node, BinOp):
        return replace(node, left=_substitute(node.left, defs, depth), right=_substitute(node.right, defs, depth))
    if isinstance(node, (Avg, Chg)) or not isinstance(node, Item):
        return node
    terms = label_terms(node.phrase)
    for name, body in defs.items():
        if label_terms(name) == terms and body:
            return _substitute(parse(normalise(body)), defs, depth + 1)
    metric = metric_named(node.phrase)
    if metric and any(label_terms(a) == terms or label_terms(a) <= terms for a in metric.aliases) and metric.unit == "amount":
        return parse(metric.formula)
    return node
