"""The words a question puts on a line item that make it another line: "Tesla's total *automotive* gross
margin", "*used vehicles* gross profit", "*Data Center and AI (DCAI)* operating margin", "*Mobileye*
revenue growth". A figure or operand for such an item is read only from a row (or a table or column)
that carries those words; the company's total is never stated in its place. Words of the company's own
name, periods, units, rounding and other instructions are not qualifiers.

A qualifier is read from the words just before the item's name, back to a possessive ("Tesla's"), a
preposition or a question word; words in parentheses there are an alias ("(DCAI)"): any one of them, or
all of the words outside them, names the row.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass

from vera_core.finance.line_items import label_terms
from vera_core.text import QUALIFIER_CONNECTIVES as _CONNECTIVES
from vera_core.text import QUALIFIER_SKIP as _SKIP
from vera_core.text import QUALIFIER_STOP as _STOP
from vera_core.text import QUALIFIER_TOKEN as _TOKEN

__all__ = ["Qualifier", "item_qualifier", "qualifier_after", "qualifier_around", "qualifier_before"]

MAX_WORDS = 4
"""At most this many words before the item are read."""
_PERIODISH = re.compile(r"^(?:(?:FY|Q[1-4]|H[12])?'?\d{2,4}(?:Q[1-4])?|Q[1-4]|[1-4]Q|[12]H|H[12]|FY|YTD|TTM|LTM|"
                        r"sequential(?:ly)?|yoy|qoq)$|^\d", re.I)
"""A token that says which periods, never what of ("FY23", "Q3", "sequential")."""


@dataclass(frozen=True)
class Qualifier:
    """The words that make an item another line."""

    words: frozenset[str] = frozenset()
    """Normalised words outside parentheses: every one must be on the row (or its table or column)."""
    aliases: frozenset[str] = frozenset()
    """Words in parentheses ("DCAI"): any one of them on the row names it too."""
    owner: frozenset[str] = frozenset()
    """The name owning the item in a possessive ("Gatorade's net revenues"): a qualifier only once the
    company is known and it is not the company's own name (`without`)."""

    def __bool__(self) -> bool:
        return bool(self.words or self.aliases)

    def without(self, company: Container[str]) -> Qualifier:
        """The qualifier without the words that name the company (`company`: a set, or anything that says
        whether it holds a word), and with the possessive's owner when that is not the company: a brand or
        business of it ("Gatorade's", in PepsiCo's 10-K). The owner counts only where the company's words
        are known (a Registrant, or a set that holds any) and, for a Registrant, its documents' first pages
        do not print it: otherwise it is taken for the company."""
        known = bool(getattr(company, "words", None) or getattr(company, "stems", None)) if not isinstance(
            company, (set, frozenset)) else bool(company)
        cover = getattr(company, "cover", frozenset())  # a name the documents' first pages print is the company's
        owner = frozenset(w for w in self.owner if known and w not in company and w not in cover)
        return Qualifier(frozenset(w for w in self.words | owner if w not in company),
                         frozenset(w for w in self.aliases if w not in company))

    def named_by(self, terms: frozenset[str]) -> bool:
        """Whether a row whose label, table title, column header and parent rows hold `terms` is the
        qualified line."""
        if not self:
            return True
        return bool(self.words and self.words <= terms) or bool(self.aliases & terms)


_SELLING = frozenset({"selling", "sell", "sold"})
_EARNING = frozenset("make makes made earn earns earned generate generates generated get gets got bring brings brought "
                     "from by".split())
"""How an amount was earned, after a verb of earning or its preposition ("make selling", "earn from selling"): not a word
of the line."""
_UNIT_POSSESSIVE = re.compile(r"(?:segment|division|business|unit|subsidiary|brand)['\u2019]s?", re.I)
"""A business unit's possessive ("segment's"): the name before it is the unit's, and qualifies the item."""


_ORDINAL_PERIOD = re.compile(r"\b(?:first|second|third|fourth)\s+(?:fiscal\s+)?(?:quarter|half)\b", re.I)
"""A period named by its ordinal ("salesforce first quarter fiscal 2024 non-GAAP income"): no words of the item's."""


def qualifier_before(question: str, start: int) -> Qualifier:
    """The qualifier of the item named at character `start` of `question`."""
    before = _ORDINAL_PERIOD.sub(" ", question[:start])
    tokens = _TOKEN.findall(before)
    words: list[str] = []
    aliases: list[str] = []
    owner = ""
    inside = False
    window = list(reversed(tokens[-(MAX_WORDS * 2 + 4):]))
    for i, token in enumerate(window):
        if token == ")":
            inside = True
            continue
        if token == "(":
            inside = False
            continue
        low = token.lower()
        if not re.match(r"[A-Za-z]", token):
            if token in ",;:?!" or token in (".", "-", "\u2013", "\u2014"):  # "UBER 10-K FY21 - segment results - Delivery revenue"
                break
            continue
        if not words and not aliases and _UNIT_POSSESSIVE.fullmatch(token):
            continue  # NOTE: "the EchoPark segment's income": the unit's name before its possessive qualifies the item
        if re.search(r"['\u2019]s?$", token):  # a possessive: the company ("Tesla's"), or a brand of it
            if not words and not aliases and re.fullmatch(r"[A-Z][a-z][A-Za-z&.-]+['\u2019]s?", token):
                owner = re.sub(r"['\u2019]s?$", "", token)  # "Gatorade's net revenues" (`Qualifier.without`)
            break
        if low in _STOP:
            # NOTE: "Family of Apps", "Bank of America": "of" inside a capitalised name continues it
            named = low == "of" and words and words[-1][:1].isupper() and i + 1 < len(window) \
                and window[i + 1][:1].isupper() and window[i + 1].lower() not in _STOP
            if not named:
                break
            continue
        if low in _SELLING and i + 1 < len(window) and window[i + 1].lower() in _EARNING:
            break  # NOTE: "how much did Tesla make selling automotive regulatory credits": how it was earned, not a line
        if _skipped(token) or low == "and":
            continue
        (aliases if inside else words).append(token)
        if len(words) >= MAX_WORDS:
            break
    return Qualifier(label_terms(" ".join(words)), label_terms(" ".join(aliases)), label_terms(owner))


_SPENT_ON = re.compile(r"^\s*(?:the\s+)?(?:cash|money|amount)\s+(?:spent|paid|used)\s+(?:on|for)\s+", re.I)
"""How an outflow is asked ("cash spent on Class A buybacks"): the item is what the cash went to."""


def item_qualifier(phrase: str, item_words: frozenset[str]) -> Qualifier:
    """The qualifier inside an operand's own phrase, the item's own words already taken out ("total
    automotive revenues" for revenue: automotive; "net income available to common stockholders": available,
    common, stockholders): its words that are not the item's (`item_words`) nor skipped, up to a
    preposition that starts a period, company or instruction ("revenue for eBay (in units of percents)")."""
    phrase = re.sub(r"\([^()]*\)|\[[^\]]*\]|\{[^}]*\}", " ", phrase)
    phrase = _SPENT_ON.sub(" ", phrase)
    phrase = re.split(r"\b(?:for|of|at|in|inside|within|from|during|as\s+of|per|based|using|rounded)\b", phrase, maxsplit=1,
                      flags=re.I)[0]
    words = [w for w in re.findall(r"[A-Za-z][\w&'-]*", phrase) if not _skipped(w)]
    return Qualifier(label_terms(" ".join(words)) - item_words, frozenset())


def _skipped(token: str) -> bool:
    """A word that never qualifies an item: a skipped word, a period, or a hyphenated word made of them
    ("year-end", "year-over-year")."""
    low = token.lower().rstrip(".")  # NOTE: "adj." is "adj"
    if low in _SKIP or _PERIODISH.match(token):
        return True
    parts = [p for p in re.split(r"[-/]", low) if p]
    return len(parts) > 1 and all(p in _SKIP or p in _CONNECTIVES or _PERIODISH.match(p) for p in parts)


_NP = r"(?P<np>(?:[A-Z(][\w&()'\u2019./-]*\s+(?:and\s+|&\s+|of\s+(?=[A-Z]))?){0,5}[A-Z(][\w&()'\u2019./-]*)"
"""A name in capitals ("Data Center and AI", "Client Computing Group (CCG)", "Slack", "Cybertruck", "Family of Apps")."""
_NOT_PERIOD = (r"(?!FY|Q[1-4]|H[12]|(?:(?:[Tt]he\s+)?(?:First|Second|Third|Fourth|Last)\s+(?:Quarter|Half)|fiscal|Fiscal|January|February|March|April|May|June|July|August|September|October|"
               r"November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b|\d)")
"""Not a period after "in" ("in FY21", "in December 2022", "in Q3")."""
_AFTER = (
    re.compile(rf"^\s+(?:did|does)\s+(?:[A-Z][\w&.'\u2019-]*\s+){{1,4}}(?:make|earn|generate|post|record|get|receive|derive|"
               rf"collect|book|recogni[sz]e|report|take\s+in|bring\s+in)\s+(?:on|from|out\s+of|in)\s+(?:the\s+|its\s+)?"
               rf"{_NOT_PERIOD}{_NP}"),
    # NOTE: "how much of pre-tax income ... was earned in the United States": a place the amount was earned in
    re.compile(rf"^(?:\s+[a-z][\w-]*){{0,5}}?\s+(?:was|were|is|are)\s+(?:earned|generated|booked|recorded|derived|recogni[sz]ed|made)\s+in\s+(?:the\s+)?"
               rf"{_NOT_PERIOD}{_NP}"),
    re.compile(r"^\s+(?:did|does)\s+(?:[A-Z][\w&.'-]*\s+){1,4}(?:make|earn|generate|post|record|get|receive|derive|"
               r"collect)\s+(?:on|from)\s+"
               r"(?:the\s+|its\s+|their\s+)?(?P<np>(?:[a-z][\w&-]*\s+){0,3}[a-z][\w&-]*)"
               r"(?=\s*(?:\(|,|\?|\.|$|\s+(?:in|for|during|over|at)\b))"),
    re.compile(rf"^\s+(?:did|does|do|has|have|had)\s+(?:[A-Z][\w&.'-]*['\u2019]s?\s+)?(?:the\s+|its\s+)?{_NP}\s+"
               r"(?:(?:segment|business|division|unit|group|region|market|operations|arm|cloud|platform|brand|"
               r"(?:service\s+|product\s+)?offering|product\s+line)\s+)?(?:\((?P<alias>[^()]{1,60})\)\s+)?"  # NOTE: "did the Data cloud (Tableau/MuleSoft) post"
               r"(?:alone\s+|only\s+|by\s+itself\s+|on\s+its\s+own\s+)?"  # NOTE: "did WhatsApp alone generate"
               r"(?:contribute|generate|earn|make|bring|post|"
               r"deliver|produce|record|report)"),
    # NOTE: "gross margin for Salesforce's Q1 FY24": a period after the owner is no part of theirs
    re.compile(rf"^\s+(?:of|for|from|at)\s+(?:the\s+)?(?:[A-Z][\w&.'-]*\s+){{0,3}}?(?:[A-Z][\w&.'-]*['\u2019]s\s+)"
               rf"(?:the\s+)?{_NOT_PERIOD}{_NP}"),
    re.compile(rf"^\s+(?:of|for|from|at)\s+(?:the\s+)?(?:[A-Z][\w&.'-]*['\u2019]s?\s+)(?:the\s+)?{_NOT_PERIOD}{_NP}"),
    # NOTE: "Gross margin on Jakafi specifically": a name set apart by "specifically", "alone" or "only" is what the
    # measure is of, whatever the preposition
    re.compile(rf"^\s+(?:on|for|of|from|at|in)\s+(?:the\s+)?{_NP}\s+(?:specifically|alone|only|in\s+particular|by\s+itself|"
               r"on\s+its\s+own)\b"),
    # NOTE: "capex for the FedEx Ground segment", "revenue (came) from the Data service offering": a unit named before its
    # kind
    re.compile(rf"^\s+(?:(?:came|comes|come|was|were|is|are)\s+)?(?:of|for|from|at|in|by)\s+(?:the\s+|its\s+)?{_NP}\s+"
               r"(?:reportable\s+|operating\s+)?(?:segment|division|"
               r"business\s+unit|subsidiary|(?:service\s+|product\s+)?offering|product\s+line|line\s+of\s+business)\b"),
    # NOTE: "revenue did they book from selling regulatory credits": what the amount comes from, in lower case
    re.compile(r"^\s+(?:did|does|do|has|have|had)\s+(?:they|it|we|the\s+company|[A-Z][\w&.'-]*)\s+(?:book|bring\s+in|take\s+in|"
               r"recogni[sz]e|record|earn|make|generate|get|collect)\s+(?:from|on)\s+(?:selling\s+|sales\s+of\s+|the\s+sale\s+of\s+)?"
               r"(?:the\s+|its\s+|their\s+)?(?P<np>(?:[a-z][\w&-]*\s+){0,3}[a-z][\w&-]*)"
               r"(?=\s*(?:\(|,|\?|\.|$|\s+(?:in|for|during|over|at)\b))"),
    # NOTE: "revenue from European users", "revenue from US & Canada customers": a place or group in capitals, then
    # whose the amount is
    re.compile(rf"^\s+(?:(?:came|comes|come|was|were|is|are|derived|generated|earned)\s+)?from\s+(?:the\s+)?{_NP}\s+"
               r"(?:users|customers|clients|advertisers|members|subscribers|buyers|sellers)\b"),
    re.compile(rf"^\s+(?:(?:came|comes|come|was|were|is|are|derived|generated|earned)\s+)?(?:from|by)\s+(?:the\s+)?{_NP}"
               r"(?=\s*(?:\(|,|\?|\.|$|\s+(?:in|for|during|as|over|at|on)\b))"),
    # NOTE: "how much of Oracle's cloud services and license support revenue came from infrastructure": the part, in lower case
    re.compile(r"^\s+(?:came|comes|come)\s+from\s+(?:the\s+|its\s+|their\s+)?(?P<np>(?:[a-z][\w&-]*\s+){0,3}[a-z][\w&-]*)"
               r"(?=\s*(?:\(|,|\?|\.|$|\s+(?:in|for|during|over|at)\b))"),
    re.compile(r"^\s+(?:did|does|do)\s+(?:[A-Z][\w&.'-]*['\u2019]s?\s+)?(?:the\s+|its\s+)?(?P<np>(?:[a-z][\w&-]*\s+){0,2}"
               r"[a-z][\w&-]*)\s+(?:segment|business|division|unit|group|brand)\s+(?:contribute|generate|earn|make|bring|"
               r"post|deliver|produce|record|report)"),
    # NOTE: "how much revenue did slack bring in for salesforce": a name typed in lower case, one word, doing the earning
    re.compile(r"^\s+(?:did|does)\s+(?!(?:they|it|we|he|she|you|the|its|their|our|company|firm|management|business|group|"
               r"segment|division|unit|bank)\b)(?P<np>[a-z][\w&-]*)\s+(?:alone\s+|only\s+)?(?:contribute|generate|earn|make|"
               r"bring\s+in|deliver|produce)\b"),
)
"""A qualifier written after the item: "revenue did Slack contribute", "revenue did Sonic Automotive
generate from electric vehicle sales", "revenue did Intel's Data Center and
AI segment generate", "operating margin of Intel's Client Computing Group (CCG)", "gross margin did Tesla
make on the Cybertruck", "revenue came from Amazon", "revenue from China (incl. Hong Kong)", "revenue from
European users", "revenue did
Intel's foundry business bring in", "operating income did Costco's Canadian operations generate"."""


_KIND_ONLY = re.compile(r"(?:(?:the|its|their|our|a|an)\s+)?(?:(?:business|operating|reportable)\s+)?(?:unit|segment|division|"
                        r"business|group|arm|cloud|brand|platform)s?", re.I)
"""A parenthesis that says only what kind of part is named ("Twilio Segment (the business unit)")."""


def qualifier_after(question: str, end: int) -> Qualifier:
    """The qualifier written after the item that ends at character `end` of `question`."""
    rest = question[end:]
    for pattern in _AFTER:
        found = pattern.match(rest)
        if found:
            # NOTE: "did Safe & Green's Development segment post": the owner's possessive ends the owner, not the unit
            np = re.split(r"['\u2019]s?\s+", found.group("np"))[-1]
            alias = found.groupdict().get("alias") or ""
            alias = "" if _KIND_ONLY.fullmatch(alias.strip()) else alias  # NOTE: "(the business unit)" names no unit
            aliases = " ".join(re.findall(r"\(([^()]*)\)", np) + [alias])
            words = re.sub(r"\([^()]*\)", " ", np)
            kept = " ".join(w for w in re.findall(r"[A-Za-z][\w&'-]*", words) if w.lower() not in _SKIP and w.lower() != "and")
            return Qualifier(label_terms(kept), label_terms(aliases))
    return Qualifier()


def qualifier_around(question: str, start: int, end: int) -> Qualifier:
    """The qualifier before the item at `start`..`end`, and after it."""
    before, after = qualifier_before(question, start), qualifier_after(question, end)
    return Qualifier(before.words | after.words, before.aliases | after.aliases, before.owner)
