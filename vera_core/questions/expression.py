"""Arithmetic over line items: the library's formulas and the definitions analysts write in questions
("Fixed asset turnover ratio is defined as: FY2018 revenue / (average PP&E between FY2017 and
FY2018)", "Define unadjusted EBITDA as unadjusted operating income + depreciation and amortization
[from cash flow statement]") become one small tree that VERA evaluates, every leaf a table cell."""

from __future__ import annotations

import re
from dataclasses import dataclass

from vera_core.finance.line_items import concepts_in
from vera_core.questions.figure import asked_periods
from vera_core.records import Period
from vera_core.finance.statements import named_statement


@dataclass(frozen=True)
class Num:
    value: float


@dataclass(frozen=True)
class Item:
    """A line item read from a statement: at the period asked (`offset` 0), or years before it."""

    phrase: str
    offset: int = 0
    period: Period | None = None
    """A period the formula names for this operand ("FY2018 revenue"); None: the period asked."""
    statement: str = ""
    """The statement the formula names for it ("[from cash flow statement]"), or ''."""


@dataclass(frozen=True)
class Avg:
    """The average of an item at the period asked and the year-end before it."""

    item: Item


@dataclass(frozen=True)
class Chg:
    """The change of an item from the year-end before the period asked to the period asked
    ("change in inventory between FY2018 and FY2019" = inventory(FY2019) - inventory(FY2018))."""

    item: Item


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Node
    right: Node


Node = Num | Item | Avg | Chg | BinOp

_NOT_A_PERIOD_PAIR = "".join(rf"(?<!{w}[\s-])" for w in ("year", "quarter", "month", "period", "week"))
"""'year over year' compares two periods; its 'over' divides nothing."""
SHARE_OF = r"\bas\s+an?\s+(?:%|percent(?:age)?|share|proportion|fraction)\s+of\b|\bas\s+%\s+of\b|" \
           r"(?<=[A-Za-z&)]\s)(?<!\bthe\s)(?<!\bwhat\s)(?<!\bwhich\s)(?:%|pct)\s+of\b(?=\s+[A-Za-z])"
"""Words that divide: "A as a percentage of B", "A as a share of B", a note's "SG&A % of net sales" (a sign after a
word, never after a number: "25% of")."""
_WORD_OPS = ((rf"\bdivided\s+by\b|{_NOT_A_PERIOD_PAIR}\bover\b|÷|{SHARE_OF}", "/"), (r"\bmultiplied\s+by\b|\btimes\b|×", "*"),
             (r"\bplus\b|\band\s+add\b", "+"), (r"\bminus\b|\bless\b|\bsubtract(?:ing)?\b", "-"),
             (r"(?<=\s)x(?=\s)", "*"))
_AVERAGE = re.compile(r"\b(?:the\s+)?average\s+(?:of\s+)?(?P<item>[^()/*+\-]+?)\s+(?:between|for|over|of|as\s+of|"
                      r"at\s+(?:the\s+)?(?:end|close)\s+of|at)\s+"
                      r"(?P<a>(?:FY\s?|fiscal\s+(?:year\s+)?)?\d{2,4})\s+(?:and|to|-)\s+"
                      r"(?P<b>(?:FY\s?|fiscal\s+(?:year\s+)?)?\d{2,4})", re.I)
_ENDS = r"(?:beginning|opening|start)(?:[\s-]+of[\s-]+(?:the\s+)?(?:year|period))?\s+and\s+(?:the\s+)?(?:ending|closing|end)(?:[\s-]+of[\s-]+(?:the\s+)?(?:year|period))?"
_AVERAGE_ENDS = re.compile(rf"\b(?:the\s+|an?\s+)?(?:simple\s+)?average\s+(?:of\s+)?(?:the\s+|its\s+)?{_ENDS}\s+(?P<item>[^()/*+\-{{}},.;]+?)"
                           r"(?=\s*(?:$|[,.;)]|\{|\s(?:for|in|at|during|as\s+of)\b))", re.I)
"""'the average of beginning and ending total stockholders' equity': the item's average over the year asked (its year-end
and the one before)."""
_AVERAGE_BALANCE = re.compile(r"(?<!weighted\s)(?<!weighted-)\b(?:the\s+|an?\s+)?average\s+(?:of\s+(?:the\s+)?)?"
                              r"(?!daily\b|annual\b|monthly\b|quarterly\b|cost\s+of\s+capital\b)"
                              r"(?P<item>(?:[\w'\u2019&-]+\s+){0,3}?(?:equity|assets|liabilities|debt|inventor(?:y|ies)|"
                              r"receivables?|payables?|capital|deposits|loans|borrowings))\b", re.I)
"""'average total stockholders' equity' in a formula: a balance's average over the year asked, never its closing balance."""
_CHANGE = re.compile(r"\b(?:the\s+)?change\s+in\s+(?P<item>[^()/*+\-]+?)\s+(?:between|from)\s+"
                     r"(?P<a>(?:FY\s?)?\d{2,4})\s+(?:and|to|-)\s+(?P<b>(?:FY\s?)?\d{2,4})", re.I)
_STATEMENT_NOTE = re.compile(r"[\[(]\s*(?:from|in|per|using|on)\s+(?:the\s+)?(?P<what>[^\])]*?statements?|"
                             r"[^\])]*?(?:P&L|balance\s+sheet|cash\s+flows?))\s*[\])]", re.I)
_STATEMENT_BARE = re.compile(r"[\[(]\s*(?:the\s+)?(?:consolidated\s+)?(?P<what>(?:income|cash\s+flows?|operations)\s+statement|"
                             r"statements?\s+of\s+(?:cash\s+flows?|income|operations|earnings|financial\s+(?:condition|position))|"
                             r"balance\s+sheet|P&L)\s*[\])]", re.I)
"""A statement named alone in brackets after an operand ("payment of dividends (cash flow statement)"); a bracket
holding an operand ("(operating cash flow)") is not one."""
_STATEMENT_PHRASE = re.compile(r",?\s*\b(?:from|per|in|on|using)\s+(?:the\s+)?(?:consolidated\s+)?(?P<what>statements?\s+of\s+"
                               r"(?:cash\s+flows?|financial\s+(?:condition|position)|income|operations|earnings)|"
                               r"(?:income|cash\s+flows?)\s+statement|balance\s+sheet|P&L)\b", re.I)
"""A statement named after an operand without brackets: "total deposits, from the statement of financial
condition", "dividends paid per the cash flow statement"."""
# NOTE: a hyphen between letters joins a word ("debt-to-equity", "acid-test"); a minus stands apart
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?)(?![\w])|(?P<op>[-+*/()])|(?P<func>avg|prior|chg)\s*\(|"
                    r"(?P<word>(?:[^-+*/()]|(?<=[A-Za-z])-(?=[A-Za-z]))+))", re.I)


class ExpressionError(ValueError):
    """A formula that cannot be read (unbalanced, empty operand, stray operator)."""


def statement_note(text: str) -> bool:
    """Whether a bracket names the statement its operand is read from ("(from the cash flow statement)", "(P&L)")."""
    return bool(_STATEMENT_NOTE.fullmatch(text.strip()) or _STATEMENT_BARE.fullmatch(text.strip()))


def normalise(text: str) -> str:
    """A question's definition in formula syntax: operator words as symbols, "average X between
    FY2017 and FY2018" as avg(X), statement notes attached to their operand as {statement}."""
    out = _STATEMENT_NOTE.sub(lambda m: " {" + (named_statement(m.group(0)) or "") + "} ", text)
    out = _STATEMENT_BARE.sub(lambda m: " {" + (named_statement(m.group(0)) or "") + "} ", out)
    out = _STATEMENT_PHRASE.sub(lambda m: " {" + (named_statement(m.group(0)) or "") + "} ", out)
    # NOTE: "A less B, over A": the comma closes the numerator (written out, a division binds last)
    out = re.sub(r"^(?P<num>[^,()]+?\b(?:less|minus|plus|-|\+)\b[^,()]+?),\s*(?P<op>over|divided\s+by)\s+",
                 lambda m: f"({m.group('num')}) {m.group('op')} ", out, flags=re.I)
    # NOTE: "A minus B as a % of A", "A minus B, as a % of A": a share of names the whole sum before it (said, it is the
    # last word)
    out = re.sub(rf"^(?P<num>[^,()]+?\b(?:less|minus|plus)\b[^,()]+?)\s*,?\s*(?P<op>{SHARE_OF})\s+",
                 lambda m: f"({m.group('num')}) {m.group('op')} ", out, flags=re.I)
    out = _AVERAGE.sub(lambda m: f" avg({m.group('item').strip()} {m.group('b')}) ", out)
    out = _AVERAGE_ENDS.sub(lambda m: f" avg({m.group('item').strip()}) ", out)
    out = _AVERAGE_BALANCE.sub(lambda m: f" avg({m.group('item').strip()}) ", out)
    out = _CHANGE.sub(lambda m: f" chg({m.group('item').strip()} {m.group('b')}) ", out)
    for pattern, symbol in _WORD_OPS:
        out = re.sub(pattern, f" {symbol} ", out, flags=re.I)
    out = _SUBTRACTED.sub(_each_subtracted, out)
    return re.sub(r"\s+", " ", out).strip(" .:;")


_SUBTRACTED = re.compile(r"(?:(?<=\s-)|(?<=^-))(?P<items>[^-+*/{}]+?)(?=\s*(?:$|[-+*/]|\{))")
"""What one minus sign subtracts, up to the next operator: items joined by "and" ("- purchases of property and
equipment (net) and principal payments on finance leases"); a hyphen inside a word ("non-GAAP") is no minus."""


def _each_subtracted(m: re.Match[str]) -> str:
    """'- A and B' as '- A - B' at the first "and" after which A is a line item the vocabulary knows and no item runs
    on across the "and" ("cash and cash equivalents", "research and development" stay one item each)."""
    items = m.group("items")
    spans = [found.span() for c in concepts_in(items) if (found := c.asked.search(items))]
    for joint in re.finditer(r"\s+and\s+", items):
        a, b = items[:joint.start()], items[joint.end():]
        if b.strip() and a.count("(") == a.count(")") and concepts_in(a) \
                and not any(start < joint.start() < end for start, end in spans):
            return f"{a} - {b}"
    return items


def parse(formula: str) -> Node:
    """The tree of a formula in the library's syntax (see `vera_core/data/metrics.md`)."""
    tokens = _tokens(formula)
    node, rest = _sum(tokens)
    if rest:
        raise ExpressionError(f"cannot read {formula!r} from {''.join(t[1] for t in rest)!r}")
    return node


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ExpressionError(f"cannot read {text!r} at {text[pos:]!r}")
        pos = m.end()
        kind = m.lastgroup
        value = m.group(kind).strip()
        if kind == "word" and not value:
            continue
        out.append((kind, value.lower() if kind == "func" else value))
    return out


def _sum(tokens):
    node, tokens = _product(tokens)
    while tokens and tokens[0] in (("op", "+"), ("op", "-")):
        op = tokens[0][1]
        right, tokens = _product(tokens[1:])
        node = BinOp(op, node, _part_of(node, right) if op == "+" else right)
    return node, tokens


_PART_OF = re.compile(r"^(?:part|portion|amount|piece|bit)s?\s+(?P<rest>(?:due|payable|maturing|repayable|falling\s+due)\b.+)$",
                      re.I)
"""'the part due within one year': a part of the line named before it."""


def _part_of(left: Node, right: Node) -> Node:
    """'total debt = long-term debt plus the part due within one year': the second operand is the first line's part
    due within one year ("long-term debt due within one year"), not the first line read again."""
    part = _PART_OF.match(right.phrase) if isinstance(right, Item) and isinstance(left, Item) else None
    if part is None:
        return right
    return Item(f"{left.phrase} {part.group('rest')}", right.offset, right.period, right.statement)


def _product(tokens):
    node, tokens = _atom(tokens)
    while tokens and tokens[0] in (("op", "*"), ("op", "/")):
        op = tokens[0][1]
        right, tokens = _atom(tokens[1:])
        node = BinOp(op, node, right)
    return node, tokens


def _atom(tokens):
    if not tokens:
        raise ExpressionError("an operand is missing")
    kind, value = tokens[0]
    if kind == "num":
        if len(tokens) > 1 and tokens[1][0] == "word":  # "2018 revenue": a year, not a number
            return _item(f"{value} {tokens[1][1]}"), tokens[2:]
        return Num(float(value)), tokens[1:]
    if kind == "word":
        return _item(value), tokens[1:]
    if kind == "func":
        inner, rest = _sum(tokens[1:])
        if not rest or rest[0] != ("op", ")"):
            raise ExpressionError(f"{value}( is not closed")
        if not isinstance(inner, Item):
            raise ExpressionError(f"{value}() takes one line item")
        if value == "avg":
            return Avg(inner), rest[1:]
        if value == "chg":
            return Chg(inner), rest[1:]
        return Item(inner.phrase, inner.offset - 1, inner.period, inner.statement), rest[1:]
    if (kind, value) == ("op", "("):
        inner, rest = _sum(tokens[1:])
        if not rest or rest[0] != ("op", ")"):
            raise ExpressionError("a parenthesis is not closed")
        return inner, rest[1:]
    if (kind, value) == ("op", "-"):
        inner, rest = _atom(tokens[1:])
        return BinOp("-", Num(0.0), inner), rest
    raise ExpressionError(f"unexpected {value!r}")


def _item(words: str) -> Item:
    statement = ""
    m = re.search(r"\{(\w*)\}", words)
    if m:
        statement = m.group(1)
        words = words.replace(m.group(0), " ")
    periods, texts = asked_periods(words)
    for text in texts:
        words = words.replace(text, " ")
    # NOTE: articles go, but not the A of "D&A"
    kept = re.sub(r"(?<!&)\b(?:the|a|an|of\s+the|total\s+of)\b(?!&)", " ", words, flags=re.I)
    phrase = re.sub(r"\s+", " ", kept).strip(" ,.;:")
    if not phrase:
        raise ExpressionError(f"an operand names no line item: {words!r}")
    return Item(phrase, 0, periods[0] if periods else None, statement)


def items(node: Node) -> list[Item]:
    """Every line item a formula reads, left to right (an average reads its item twice)."""
    if isinstance(node, Item):
        return [node]
    if isinstance(node, (Avg, Chg)):
        return [node.item, Item(node.item.phrase, node.item.offset - 1, node.item.period, node.item.statement)]
    if isinstance(node, BinOp):
        return items(node.left) + items(node.right)
    return []


def render(node: Node) -> str:
    """The formula as text (for the answer's `expression`)."""
    if isinstance(node, Num):
        return f"{node.value:g}"
    if isinstance(node, Item):
        when = f" [{node.period.year}]" if node.period else ""
        return f"prior({node.phrase}){when}" if node.offset else f"{node.phrase}{when}"
    if isinstance(node, Avg):
        return f"avg({render(node.item)})"
    if isinstance(node, Chg):
        return f"chg({render(node.item)})"
    return joined(node, render(node.left), render(node.right))


def joined(node: BinOp, left: str, right: str) -> str:
    """`left op right` with the parentheses the operators need (written sides of `node`)."""
    if isinstance(node.left, BinOp) and node.op in "*/" and node.left.op in "+-":
        left = f"({left})"
    if isinstance(node.right, BinOp) and (node.op in "*/" or node.op == "-" and node.right.op in "+-"):
        right = f"({right})"
    return f"{left} {node.op} {right}"
