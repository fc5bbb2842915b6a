"""Yes/no and which-one questions over figures (issue 18): "Does X have an improving gross margin
profile?", "Is working capital positive?", "Did revenue grow year over year?", "Did the store count
change?", "Which segment had the highest operating income?". The verdict is computed by VERA from
gated figures; the question says what to compute and what the verdict tests.

- compare: a metric or line item at two periods (the two named, else the period asked and the year
  before it) and whether it went up, down, or changed at all ("improve" is up, except for a number of
  days, where shorter is better);
- sign: a metric or line item at one period, positive or negative;
- which: the segment (business, region, division) with the highest or lowest measure at a period;
- threshold and pair: a measure against the yardstick the question states, or one measure against
  another at one period (`questions/comparisons.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from vera_core.finance.line_items import concepts_in, label_terms
from vera_core.questions.comparisons import Comparison, read_bar, read_comparison
from vera_core.questions.expression import SHARE_OF, BinOp, Item, render
from vera_core.questions.figure import asked_periods, asked_scale
from vera_core.questions.library import metric_named
from vera_core.questions.metric import MetricPlan, without_periods, definitions, read_plan
from vera_core.questions.restate import asks_rate_of_direction, line_names_dropped
from vera_core.questions.spans import shifted
from vera_core.questions.yardsticks import read_yardstick
from vera_core.records import Period

__all__ = ["VerdictRequest", "asking_clause", "read_verdict"]

YES_NO = re.compile(r"^\s*(?:is|are|was|were|does|do|did|has|have|had|will)\b", re.I)
UP = re.compile(r"\b(?:improv\w*|increas\w*|grow\w*|grew|rise|rose|risen|rising|higher|expand\w*|gain\w*|climb\w*|"
                r"(?:go|goes|went|gone|going|come|comes|came|coming)\s+up)\b", re.I)
DOWN = re.compile(r"\b(?:declin\w*|decreas\w*|fall|fell|fallen|falling|lower|deteriorat\w*|shr[iu]nk\w*|"
                  r"contract\w*|drop\w*|worsen\w*|slip\w*|smaller|(?:go|goes|went|gone|going|come|comes|came|coming)\s+down)\b", re.I)
CHANGED = re.compile(r"\bchang\w*\b", re.I)
_LOSS_MOVES = re.compile(r"\bloss(?:es)?\b.*\b(?P<move>narrow\w*|widen\w*)\b", re.I)
"""'Did its operating loss margin narrow every year?': a loss printed negative rises when it narrows."""
SIGN = re.compile(r"\b(?P<sign>positive|negative)\b", re.I)
WHICH = re.compile(r"^\s*which\s+(?:of\s+(?:the|its)\s+)?(?:reportable\s+|operating\s+|business\s+)?"
                   r"(?P<unit>segments?|business(?:es)?|divisions?|regions?|units?|geograph\w*)\s+"
                   r"(?:had|has|have|generated|reported|earned|posted|delivered|was|were|is)\s+(?:the\s+)?"
                   r"(?P<rank>highest|largest|biggest|greatest|most|lowest|smallest|least)\s+(?P<measure>.+?)"
                   r"(?=\s+(?:for|of|in|during|at)\b|\?|$)", re.I)
_SUBJECT = re.compile(r"^\s*(?:is|are|was|were|does|do|did|has|have|had|will)\s+(?:the\s+)?(?:[\w&.,-]+['’]s\s+)?"
                      r"(?P<subject>.+?)\s*(?=\b(?:improv|increas|grow|grew|rise|rose|declin|decreas|fall|fell|"
                      r"deteriorat|chang|expand|shr|drop|worsen|slip|climb|narrow|widen|go\s+up|go\s+down|went|come\s+(?:up|down)|came\s+(?:up|down)|be\s+positive|positive|"
                      r"negative)\w*)", re.I)
_FILLER = re.compile(r"\b(?:have|has|an?|the|its|their|total|number\s+of|gaap|year[\s-]over[\s-]year|yoy)\b", re.I)
LOWER_IS_BETTER = ("days",)
_LOWER_IS_BETTER = re.compile(r"\b(?:loss|losses|expense|cost|combined|efficiency)\s+ratio\b|\bcost[\s-]to[\s-]income\b|"
                              r"\bleverage\b|\bdebt[\s-]to[\s-](?:equity|ebitda|capital)\b|\bdays\b", re.I)
"""Measures that improve by falling: a loss, expense, combined or efficiency ratio, leverage, days."""
"""Units where an improvement is a decrease (days sales outstanding)."""


@dataclass(frozen=True)
class VerdictRequest:
    """What a verdict question asks VERA to compute and test."""

    kind: Literal["compare", "sign", "which", "threshold", "pair"]
    test: Literal["up", "down", "changed", "positive", "negative", "highest", "lowest", "above", "below"]
    plan: MetricPlan | None = None
    """compare and sign: what to compute, at the periods compared (earlier first) or the one period."""
    measure: str = ""
    """which: the measure the segments are ranked by ("operating income")."""
    period: Period | None = None
    """which: the period ranked (None: the latest printed)."""
    growth: bool = False
    """which: segments ranked by the growth of the measure from the year before `period` (or the earlier
    period the question names) to `period`, not by the measure itself."""
    since: Period | None = None
    """which, by growth: the earlier period the question names ("2020 vs 2019"); None: a year before."""
    among: tuple[str, ...] = ()
    """which, by growth or by a ratio: the segments the question names to choose from ("(Express, Ground, Freight)")."""
    ratio: tuple[str, str] | None = None
    """which, by a ratio: its numerator and denominator, each read per segment ("operating income", "revenues" for
    "which segment earned the highest operating margin"); the ratio printed is read first where a table prints it."""
    every: bool = False
    """compare: the test holds for every year of the span, each year against the one before ("improved
    every year from 2021 through 2023"), not only from the first year to the last."""
    comparison: Comparison | None = None
    """threshold and pair: the yardstick or the other measure, and which side must be higher. A pair's plan
    computes A - B."""
    also: VerdictRequest | None = None
    """compare: a second movement the same question tests ("did EPS fall while long-term debt went up?"): the
    verdict is yes only when both hold."""
    unclear: str = ""
    """Why the question asks for more than the verdict VERA can compute ("did R&D rise though revenue
    fell?" tests two things; "loans as a share of total assets" a ratio VERA read as one item): the
    verdict is then withheld, never given on the wrong figure."""

    @property
    def basis(self) -> str:
        """What the verdict compares, in words ("gross margin, FY2018 vs FY2019")."""
        if self.also is not None:
            return f"{replace(self, also=None).basis}; {self.also.basis}"
        if self.kind == "which":
            growth = " growth" if self.growth else ""
            return f"{self.measure}{growth} by segment" + (f", {self.period.label}" if self.period else "")
        if self.comparison is not None:
            periods = ", ".join(f"FY{p.year}" if p.kind == "year" else p.label for p in self.plan.periods)
            return f"{self.comparison.measure} {self.comparison.words}, {periods}"
        periods = " vs ".join(f"FY{p.year}" if p.kind == "year" else p.label for p in self.plan.periods)
        return f"{self.plan.name}, {periods}"


def read_verdict(question: str) -> VerdictRequest | None:
    """The verdict a question asks for, or None when it is not a yes/no or which-one question over figures. A bar set
    in a sentence of its own for a measure defined in another ("Use A over B, and call it highly levered if that
    exceeds 2x") is read by `questions.yardsticks` when the clause's own reading finds no measure."""
    if asks_rate_of_direction(question):
        return None  # NOTE: "did X go up or down ..., and by what percent?" asks the growth, whose sign says which
    question = _profitable_said(_better_said(line_names_dropped(question)))
    both = _both_movements(question)
    if both is not None:
        return both
    verdict = _read_verdict(question)
    if verdict is not None and _FASTER.search(question):
        # NOTE: "did BCB's total deposits grow faster than its net loans receivable?": two growth rates held against each
        # other; answered as one item's movement it had said yes for a no
        return replace(verdict, unclear=verdict.unclear or (
            "the question compares how fast two items grew, and VERA reads each item's movement, not the two "
            "growth rates against each other"))
    misread = verdict is not None and verdict.kind == "threshold" and (
        bool(verdict.unclear) or bool(_JUDGED_BY.search(verdict.comparison.measure)))
    if verdict is None or misread:
        found = read_yardstick(question)
        if found is not None:
            plan, comparison = found
            plan = _in_bar_unit(plan, comparison)
            return VerdictRequest("threshold", "above" if comparison.above else "below", plan, comparison=comparison,
                                  unclear=_yardstick_unclear(comparison, plan))
    return verdict


_BETTER = re.compile(r"\b(?P<word>better|stronger|worse|weaker)\b", re.I)
_HIGHER_IS_BETTER = re.compile(r"\b(?:margins?|returns?\s+on|ROE|ROA|ROIC|ROCE|growth|interest\s+coverage|"
                               r"coverage\s+ratio)\b", re.I)
"""Measures of which more is better: "was its operating margin better in 2021 than 2020?" asks whether it was higher."""


def _better_said(question: str) -> str:
    """'better'/'stronger' as 'higher' and 'worse'/'weaker' as 'lower', for a measure of which more is better only (a
    better leverage ratio is a lower one)."""
    if not _HIGHER_IS_BETTER.search(question):
        return question
    return _BETTER.sub(lambda m: "higher" if m.group("word").lower() in ("better", "stronger") else "lower", question)


_FASTER = re.compile(r"\b(?:grow|grew|grown|rise|rose|risen|increas\w*|fall|fell|declin\w*|shr[iau]nk\w*)\s+"
                     r"(?:faster|more\s+quickly|more\s+slowly|slower)\s+than\b", re.I)
"""Two movements held against each other ("grow faster than")."""
_PROFITABLE = re.compile(r"\b(?P<aux>was|is|were|has\s+been|have\s+been|remained|stayed)\s+(?P<who>[^?,;]{1,60}?)\s+"
                         r"(?<!more\s)(?<!less\s)(?P<un>un)?profitable\b(?!\s+than\b)", re.I)
"""'Was Incyte profitable ...?' (never "was PBNA more profitable than FLNA": a comparison of two measures)."""


def _profitable_said(question: str) -> str:
    """'Was Incyte profitable in every year from 2020 through 2022?' as its net income's sign ('Was Incyte's net income
    positive ...'); 'unprofitable' as negative."""
    m = _PROFITABLE.search(question)
    if m is None:
        return question
    who = m.group("who").strip()
    owner = {"it": "its", "they": "their", "we": "our"}.get(who.lower(), f"{who}'s")
    said = f"{m.group('aux')} {owner} net income {'negative' if m.group('un') else 'positive'}"
    return question[:m.start()] + said + question[m.end():]


_JUDGED_BY = re.compile(r"\b(?:treat|call|flag|consider|anything|that)\b", re.I)
"""Words of how a measure is judged, read as part of the measure ("interest expense and treat")."""


def _read_verdict(question: str) -> VerdictRequest | None:
    fastest = _which_grew(question) or _which_margin(question)
    if fastest is not None:
        return fastest
    which = WHICH.search(question)
    if which:
        periods, _ = asked_periods(question)
        rank = which.group("rank").lower()
        test = "lowest" if rank in ("lowest", "smallest", "least") else "highest"
        measure = re.sub(r"\s+", " ", which.group("measure")).strip(" ,")
        return VerdictRequest("which", test, measure=measure, period=periods[-1] if periods else None)
    bar = read_bar(question)
    if bar is not None and (_COULD.search(question) or asking_clause(question)):
        # NOTE: the test the question sets wins over the words of its yes/no ("Using the current ratio with 1.0x as
        # the bar, could the company cover its short-term obligations out of current assets?")
        return _compared(bar, question, question)
    clause = asking_clause(question)
    if not clause:
        could = _COULD.search(question)  # "Could it cover its current liabilities with its current assets?"
        comparison = read_comparison(question[could.end():]) if could else None
        return _compared(comparison, question[could.end():], question) if comparison else None
    whole, question = question, clause
    comparison = read_comparison(question)
    if comparison is not None:
        return _compared(comparison, question, whole)
    sign = SIGN.search(question)
    test = sign.group("sign").lower() if sign else "down" if DOWN.search(question) and not UP.search(question) \
        else "up" if UP.search(question) else "changed" if CHANGED.search(question) else ""
    loss = _LOSS_MOVES.search(question) if not test else None
    if loss:  # NOTE: a loss (or a loss margin) that narrows is a signed figure that rises toward zero
        test = "up" if loss.group("move").lower().startswith("narrow") else "down"
    if not test:
        return None
    every = bool(EVERY.search(question))
    plan = _subject_plan(question, one_period=bool(sign), every=every, whole=whole)
    if plan is None:
        return None
    if test == "up" and (plan.unit in LOWER_IS_BETTER or _LOWER_IS_BETTER.search(plan.name)) and re.search(r"\bimprov", question, re.I):
        test = "down"  # NOTE: a loss, expense or efficiency ratio, leverage or days improve by falling
    return VerdictRequest("sign" if sign else "compare", test, plan, every=every and len(plan.periods) > 2,
                          unclear=_unclear(question, plan, bool(sign)))


_COULD = re.compile(r"(?:^|(?<=[.?!:;,])\s+)(?=(?:can|could|would)\b)", re.I)


def _compared(comparison: Comparison, clause: str, whole: str) -> VerdictRequest | None:
    """A threshold or pair verdict: what to compute at the period asked (each year of a span asked of
    'every year'), and why it cannot be judged when the yardstick's unit is not the measure's."""
    test = "above" if comparison.above else "below"
    periods, _ = asked_periods(clause)
    if not periods:
        periods, _ = asked_periods(whole)
    dated = sorted(periods, key=lambda p: (p.year or 0, p.end, p.quarter or 0))
    if not dated:
        return None
    every = bool(EVERY.search(clause)) and len(dated) > 1 and all(p.kind in ("year", "fiscal_year") for p in dated)
    at = _each_year(dated[0], dated[-1]) if every else (dated[-1],)
    if comparison.kind == "pair":
        across = _across_periods(comparison)
        if across is not None:
            return across
        plan = read_plan(f"What is {comparison.measure} minus {comparison.other}?")
        if plan is None or plan.unit != "amount":
            tree = BinOp("-", Item(comparison.measure), Item(comparison.other))
            plan = MetricPlan(f"{comparison.measure} minus {comparison.other}", None, render(tree), "question", tree,
                              "amount", at, False, None, asked_scale(clause))
        plan = replace(plan, periods=at, direction=every)
        return VerdictRequest("pair", test, plan, comparison=comparison, every=every)
    moved = _moved_by(comparison, dated)
    if moved is not None:
        return moved
    plan = read_plan(f"What is {comparison.measure}?")
    if plan is None or plan.over != "at":
        item = comparison.measure if label_terms(comparison.measure) else None
        if item is None:
            return None
        plan = MetricPlan(item, None, item, "library", Item(item), "amount", at, False, None, asked_scale(clause))
    plan = _in_bar_unit(replace(plan, periods=at, direction=every), comparison)
    return VerdictRequest("threshold", test, plan, comparison=comparison, every=every,
                          unclear=_yardstick_unclear(comparison, plan))


_OWN = re.compile(r"^(?:[\w&.-]+['\u2019]s?|its|their|the|in|for|at|of|that|than|same)(?:\s+|$)", re.I)
"""What may stand before a measure said again for another period ("its FY2020 operating margin", "in Q2 2022")."""


def _across_periods(comparison: Comparison) -> VerdictRequest | None:
    """A pair that is one measure at two periods ("Was eBay's Q2 2023 operating margin higher than in Q2 2022?", "Was
    Oracle's FY2021 operating margin higher than its FY2020 operating margin?"): the measure's move between them, as a
    comparison of years or quarters is read; None when the other side names another measure."""
    mine, _ = asked_periods(comparison.measure)
    theirs, _ = asked_periods(comparison.other)
    if len(mine) != 1 or len(theirs) != 1 or mine[0] == theirs[0]:
        return None
    measure, other = _bare(comparison.measure), _bare(comparison.other)
    if not label_terms(measure) or (other and label_terms(other) != label_terms(measure)):
        return None
    plan = read_plan(f"What is {measure}?")
    if plan is None or plan.over != "at":
        return None
    first, last = sorted((mine[0], theirs[0]), key=lambda p: (p.year or 0, p.quarter or 0, p.end))
    later = mine[0] == last
    return VerdictRequest("compare", "up" if comparison.above == later else "down",
                          replace(plan, periods=(first, last), direction=True))


def _bare(text: str) -> str:
    """A measure without its periods and the owner or preposition before it."""
    text = without_periods(text)
    while (m := _OWN.match(text)) is not None and m.end():
        text = text[m.end():]
    return text.strip(" ,")


_MOVED = re.compile(r"^(?:(?P<owner>[\w&.-]+(?:\s+[\w&.-]+){0,2}?)\s+)??(?P<verb>cut|cuts|reduced?|reduces|lowered|lower|"
                    r"decreased?|decreases|shr[au]nk|shrinks?|fell|fall|falls|dropped|drop|drops|declined?|declines|"
                    r"grew|grow|grows|increased?|increases|rose|rise|rises|raised?|raises)\s+(?!by$)(?P<item>.+?)(?:\s+by)?$"
                    r"|^(?P<item2>.+?)\s+(?P<verb2>fell|fall|falls|dropped|drop|drops|declined?|declines|shr[au]nk|shrinks?|"
                    r"decreased?|decreases|grew|grow|grows|increased?|increases|rose|rise|rises)(?:\s+by)?$", re.I)
"""A measure that is a movement ("Westwater cut its total operating expenses by", "revenue grow")."""
_SHRINKS = re.compile(r"^(?:cut|reduc|lower|decreas|shr|fell|fall|drop|declin)", re.I)


def _moved_by(comparison: Comparison, dated: list[Period]) -> VerdictRequest | None:
    """A movement held against a percent ("Did Westwater cut its total operating expenses by more than 30% in 2022
    compared with 2021?", "Did revenue grow more than 10% in 2022?"): the item's growth from the year before (or the
    first year named) to the year asked, against the bar, a cut's bar as a fall (below -30%); None when the measure is
    not a movement or the bar is not a percent."""
    m = _MOVED.match(comparison.measure.strip())
    years = [p.year for p in dated if p.kind in ("year", "fiscal_year") and p.year]
    if m is None or comparison.unit != "percent" or comparison.threshold is None or not years:
        return None
    item = re.sub(r"^(?:its|their|the)\s+", "", (m.group("item") or m.group("item2")).strip(), flags=re.I)
    last, first = max(years), min(years) if len(years) > 1 else max(years) - 1
    plan = read_plan(f"How fast did {item} grow in {last} compared with {first}, in percent?")
    if plan is None or plan.unit != "percent":
        return None
    if plan.over == "at" and len(plan.periods) > 1:
        # NOTE: a growth metric read at each year ("did Greater China net sales drop by more than 15% in fiscal 2019
        # versus fiscal 2018?") is the later year's growth over the year before it; read at both, FY2018's own growth
        # had decided a "no"
        if last - first != 1:
            return None
        plan = replace(plan, periods=plan.periods[-1:], direction=False)
    shrinks = bool(_SHRINKS.match(m.group("verb") or m.group("verb2")))
    above, threshold = comparison.above != shrinks, -comparison.threshold if shrinks else comparison.threshold
    bar = replace(comparison, above=above, threshold=threshold,
                  words=f"{('at least' if above else 'at most') if comparison.inclusive else ('above' if above else 'below')} "
                        f"{threshold:g}%")
    return VerdictRequest("threshold", "above" if bar.above else "below", plan, comparison=bar, growth=True,
                          unclear=_yardstick_unclear(bar, plan))


def _in_bar_unit(plan: MetricPlan, comparison: Comparison) -> MetricPlan:
    """A quotient held against a bar written in percent ("expense ratio - total expenses divided by total revenues -
    below 80%?") is that quotient in percent."""
    return replace(plan, unit="percent") if comparison.unit == "percent" and plan.unit == "ratio" else plan


def _yardstick_unclear(comparison: Comparison, plan: MetricPlan) -> str:
    """Why a yardstick cannot be held against the measure ('' when it can)."""
    unit = comparison.unit
    if unit and unit != plan.unit and not (unit == "ratio" and plan.unit == "ratio"):
        return (f"the yardstick ({comparison.words}) is written as {unit if unit != 'ratio' else 'a multiple'}, "
                f"but {plan.name} is {'an amount' if plan.unit == 'amount' else 'a ' + plan.unit}")
    if not unit and plan.unit == "amount":
        return f"the yardstick ({comparison.words}) states no currency or scale for {plan.name}"
    return ""


_UNITS = r"(?:segments?|business(?:es)?|divisions?|regions?|units?|geograph\w*|markets?|brands?)"
_WHICH_UNIT = re.compile(rf"(?:^|[.?:,]\s+|\s+[-\u2013\u2014]\s+)(?:looking\s+at\s+[^,?]{{2,80}},\s*)?which\s+(?:of\s+(?:the|its)\s+)?"
                         rf"(?:[\w&'\u2019-]+\s+){{0,4}}?{_UNITS}\b|\bamong\s+[^?]{{0,80}}?\b{_UNITS}\b[^?]{{0,80}}?,\s*which\b",
                         re.I)
_RANK_GROWTH = (
    re.compile(r"\b(?:grew|increased|expanded|raised)\s+(?:its\s+|their\s+)?(?P<m>[\w&'\u2019\s-]{2,60}?)\s+(?:the\s+)?"
               r"(?P<rank>fastest|most|quickest|slowest|least)\b", re.I),
    re.compile(r"\b(?:had|has|have|posted|reported|saw|showed|delivered|recorded|achieved|ran)\s+(?:the\s+)?(?P<rank>fastest|highest|strongest|"
               r"quickest|slowest|lowest|weakest|largest|biggest)\s+(?P<m>[\w&'\u2019\s-]{2,60}?)\s+growth\b", re.I),
    re.compile(r"\b(?P<rank>fastest|highest|strongest|slowest|lowest|weakest|largest)\s+growth\s+(?:in|of)\s+(?:its\s+)?"
               r"(?P<m>[\w&'\u2019\s-]{2,60}?)(?=\s+(?:in|for|during|from|between|vs|versus|over)\b|[?,.]|$)", re.I),
    re.compile(r"\b(?:grew|increased)\s+(?:the\s+)?(?P<rank>fastest|most|slowest|least)\b", re.I),
)
"""'which segment grew its franchised revenues fastest', 'which had the fastest revenue growth', 'which
grew revenue the most in percentage terms', 'which grew the fastest'."""


def _which_grew(question: str) -> VerdictRequest | None:
    """A which-one question ranking segments by growth, or None."""
    unit = _WHICH_UNIT.search(question)
    if not unit:
        return None
    rest = question[unit.end():]
    for pattern in _RANK_GROWTH:
        m = pattern.search(rest)
        if not m:
            continue
        measure = re.sub(r"\s+", " ", (m.groupdict().get("m") or "").strip(" ,"))
        measure = _YOY.sub(" ", re.sub(r"^(?:its|their|the)\s+", "", measure, flags=re.I)).strip()
        if not label_terms(measure):
            measure = "revenue"  # NOTE: "which region grew the fastest": a segment's growth is its revenue's
        periods, _ = asked_periods(question)
        dated = sorted(periods, key=lambda p: (p.year or 0, p.end, p.quarter or 0))
        test = "lowest" if m.group("rank").lower() in ("slowest", "lowest", "weakest", "least") else "highest"
        among = _named_segments(question)
        if not among:
            return None  # NOTE: unlisted, a table of products or yields can read as segments: the text answers it
        return VerdictRequest("which", test, measure=measure, period=dated[-1] if dated else None, growth=True,
                              since=dated[0] if len(dated) > 1 else None, among=among)
    return None


_YOY = re.compile(r"\b(?:year[\s-]over[\s-]year|yoy|y/y|reported)\b", re.I)
"""How a growth is measured, not a word of the measure ("year-over-year net sales growth")."""
_RANK_MARGIN = re.compile(r"\b(?P<rank>highest|higher|best|better|strongest|lowest|lower|worst|weakest)\s+"
                          r"(?P<m>(?:[\w-]+\s+){0,2}?margins?)\b|\b(?P<rank2>higher|lower)-margin\b", re.I)
"""'which segment had the highest operating margin', 'the higher operating margin', 'a higher-margin business'."""
_QUOTIENT = re.compile(r"^\s*(?P<a>[^/]+?)\s*(?:/|\bover\b|\bdivided\s+by\b)\s*(?P<b>[^/]+?)\s*$", re.I)
_SEGMENT_WORDS = re.compile(r"\b(?:segment|division|divisional|business|unit)(?:['\u2019]s)?\s+", re.I)


def _which_margin(question: str) -> VerdictRequest | None:
    """A which-one question ranking the segments it lists by a margin ("Among FedEx's three transportation segments
    (Express, Ground, Freight), which had the highest operating margin?"), each segment's margin its own numerator
    over its own denominator (the question's definition, else the library's); None otherwise."""
    m = _RANK_MARGIN.search(question)
    among = _named_segments(question) if m else ()
    if not among or not (_WHICH_UNIT.search(question) or re.search(r"\bwhich\b", question, re.I)):
        return None
    measure = re.sub(r"\s+", " ", m.group("m") or "margin").strip()
    defined = definitions(question)
    body = next(iter(defined.values()), "") if defined else ""
    library = metric_named(measure)
    parts = _QUOTIENT.match(body or (library.formula if library else ""))
    if not parts:
        return None
    numerator, denominator = (_SEGMENT_WORDS.sub("", parts.group(x)).strip(" ()") for x in ("a", "b"))
    periods, _ = asked_periods(question)
    rank = (m.group("rank") or m.group("rank2")).lower()
    test = "lowest" if rank in ("lowest", "lower", "worst", "weakest") else "highest"
    return VerdictRequest("which", test, measure=measure, period=periods[-1] if periods else None, among=among,
                          ratio=(numerator, denominator))


_LISTED = re.compile(r"\((?P<p>[^()]*,[^()]*)\)|:\s*(?P<c>[^:?]*?,[^:?]*?)\s*\??\s*$|"
                     r"^\s*among\s+(?P<a>[^?]*?\b(?:and|or)\b[^?]*?),\s*which\b|"
                     r"\s[-\u2013\u2014]\s+(?P<d>[^?\-\u2013\u2014]*?,[^?\-\u2013\u2014]*?)\s*\??\s*$", re.I)


def _named_segments(question: str) -> tuple[str, ...]:
    """The candidates a question lists ("(Express, Ground, Freight)", ": U.S., International Operated Markets,
    or International Developmental Licensed Markets & Corporate?"), else ()."""
    m = _LISTED.search(question)
    if not m:
        return ()
    text = m.group("p") or m.group("c") or m.group("a") or m.group("d")
    # NOTE: " and " ends a list only in "Among A, B and C, which": inside a list it may join a name ("Food and Beverage")
    joins = r",\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+(?=[^,]*$)" if m.group("a") else r",\s*(?:or\s+|and\s+)?|\s+or\s+"
    parts = [re.sub(r"^\s*(?:or|and)\s+", "", x).strip(" ?") for x in re.split(joins, text)]
    parts = [f"{x} ({_REGIONS[x.lower()]})" if x.lower() in _REGIONS else x for x in parts if x and len(x.split()) <= 8]
    return tuple(parts) if len(parts) >= 2 else ()


_REGIONS = {"apac": "Asia Pacific", "emea": "Europe, Middle East and Africa", "latam": "Latin America"}
"""Regions an analyst lists by their short names, which a segment table may print in words ("APAC": "Asia Pacific"):
a region listed so is either."""


EVERY = re.compile(r"\b(?:every|each)\s+(?:successive\s+|single\s+|fiscal\s+)?(?:year|period)s?(?:[\s-]end)?\b|"
                   r"\byear\s+(?:after|on)\s+year\b|\bconsistently\b|\bsteadily\b|\bin\s+each\s+of\b|"
                   r"\bin\s+both\s+(?:FY\s?|fiscal\s+)?(?:19|20)\d\d\s+and\s+(?:FY\s?|fiscal\s+)?(?:19|20)\d\d\b", re.I)
"""A trend asked of every year of the span, not of its ends."""
_BOTH = re.compile(r"\bin\s+both\s+(?:FY\s?|fiscal\s+)?(?:19|20)\d\d\s+and\b", re.I)
"""'Did it fall in both FY2022 and FY2023?': the change of each year named, from the year before the first."""
_CLAUSE_START = re.compile(r"(?:^|(?<=[.?!:;,])\s+|\s+[-\u2013\u2014]\s+)(?:(?:but|and|so|then|specifically,?)\s+)?"
                           r"(?=(?:is|are|was|were|does|do|did|has|have|had|will)\b)", re.I)
_TRAILING_ASK = re.compile(r"[-\u2013\u2014:]\s*(?P<word>improving|rising|growing|increasing|declining|falling|"
                           r"shrinking|worsening)\s*\?\s*(?P<rest>(?:\([^()]*\)\s*)?)$", re.I)


def asking_clause(question: str) -> str:
    """The yes/no question inside what was asked, from its verb to the end ("For Sonic Automotive, did
    diluted EPS fall in 2022 ...?" -> "did diluted EPS fall in 2022 ...?"; "I'm an equity analyst covering
    COST. Did the operating margin slip ...?"); a pasted trend ("gross margin trend FY2020-FY2022 -
    improving?") reads as "is gross margin improving ...?". '' when the question is not yes/no."""
    starts = [m.end() for m in _CLAUSE_START.finditer(question)]
    if starts:
        return question[starts[-1]:]  # NOTE: the last yes/no asked is the specific one ("Specifically, did ...")
    trailing = _TRAILING_ASK.search(question)
    if trailing:
        return f"is {question[:trailing.start()].strip()} {trailing.group('word')}? {trailing.group('rest')}".strip()
    return ""


_DIVIDED_ASKED = re.compile(rf"{SHARE_OF}|\bover\s+(?:the\s+|its\s+)?(?:total\s+)?[a-z]|\bdivided\s+by\b|\bper\s+cent\s+of\b", re.I)
"""Words that measure a thing as a quotient ("borrowings ... over total stockholders' equity")."""
_RATIO_ASKED = re.compile(rf"{SHARE_OF}|\bratio\b|\bmargins?\b|\bleverage\b|\bper\s+cent\s+of\b|\bshare\s+of\b", re.I)


TWO_MOVEMENTS = "the question tests two movements (one up, one down) that VERA could not read apart"
_JOIN = re.compile(r"\s*,?\s+(?:while|whilst|even\s+though|even\s+as|though|although|whereas|but|and(?:\s+also)?)"
                   r"\s+(?:did\s+|has\s+|have\s+|was\s+|were\s+)?", re.I)
"""Where a yes/no question joins its two movements ("did EPS fall in 2022 while long-term debt went up?")."""


def _both_movements(question: str) -> VerdictRequest | None:
    """'Did R&D rise in 2022 even though net revenue fell?': each movement read as a yes/no of its own over the same
    periods (a period named in one clause or before the question is the other's too); None when the two do not
    read apart, each a comparison of one measure."""
    starts = [m.end() for m in _CLAUSE_START.finditer(question)]
    if not starts:
        return None
    prefix, clause = question[:starts[0]], _KEEP.sub(_kept, question[starts[0]:].rstrip(" ?"))
    both = _BOTH_SUBJECTS.match(clause)
    if both:  # "did revenue and net income both rise in 2022?": each subject's own movement
        requests = [_read_verdict(f"{prefix}{both.group('lead')}{both.group(s)} {both.group('rest')}?") for s in ("a", "b")]
        if all(r is not None and r.kind == "compare" and not r.unclear for r in requests):
            return replace(requests[0], also=requests[1])
        return None
    parts = next(([clause[:m.start()], clause[m.end():]] for m in _JOIN.finditer(clause)
                  if all(_one_movement(p) for p in (clause[:m.start()], clause[m.end():]))), None)
    if parts is None:
        return None
    first, second = parts
    second = re.sub(r"^\s*(?:did|has|have|was|were|is|are)\s+", "", second, flags=re.I)
    first_periods, second_periods = asked_periods(first)[1], asked_periods(second)[1]
    first = f"{first} {' '.join(second_periods)}" if not first_periods else first
    second = f"{second} {' '.join(first_periods)}" if not second_periods else second
    requests = [_read_verdict(f"{prefix}{first}?"), _read_verdict(f"{prefix}did {second}?")]
    if any(r is None or r.kind != "compare" or r.unclear or len({p.year for p in r.plan.periods}) < 2 for r in requests):
        return replace(requests[0], unclear=TWO_MOVEMENTS) if requests[0] is not None else None
    return replace(requests[0], also=requests[1])


_BOTH_SUBJECTS = re.compile(r"^(?P<lead>\s*(?:did|have|has|were|are|was|is)\s+(?:[\w&.-]+['\u2019]s\s+)?)(?P<a>[^?]+?)\s+and\s+"
                            r"(?:its\s+|the\s+)?(?P<b>[^?]+?)\s+both\s+(?P<rest>[^?]+)$", re.I)


_KEEP = re.compile(r"\b(?:keep|kept|continue[sd]?(?:\s+to)?)\s+(?P<verb>\w+?)(?:ing|ed|e)?\s+(?P<obj>[^?,]+?)"
                   r"(?=\s+(?:in|during|from|over|for|through|while|even|though|although|whereas|but|and)\b|$)", re.I)
"""'Did Intel keep increasing R&D spending in 2022 ...': the thing that keeps moving is the subject."""


def _kept(m: re.Match) -> str:
    return f"{m.group('obj')} {m.group('verb')}e"


def _one_movement(clause: str) -> bool:
    """Whether a clause moves one thing one way ("diluted EPS fall in 2022", "its net loss narrow")."""
    return (bool(UP.search(clause)) != bool(DOWN.search(clause))) or (
        not UP.search(clause) and not DOWN.search(clause) and bool(_LOSS_MOVES.search(clause)))


def _unclear(question: str, plan: MetricPlan, sign: bool) -> str:
    """Why the verdict VERA would compute is not the one asked ('' when it is): a question that moves two
    things in opposite directions, or asks about a ratio or margin when VERA read one line item."""
    if not sign and UP.search(question) and DOWN.search(question):
        return TWO_MOVEMENTS
    if not isinstance(plan.tree, Item) and _DIVIDED_ASKED.search(question) and "/" not in render(plan.tree):
        return ("the question measures it as a ratio, but the formula VERA read divides nothing; ask for the ratio "
                "by its definition (for example 'A over B')")
    if isinstance(plan.tree, Item) and _RATIO_ASKED.search(question) and not _RATIO_ASKED.search(plan.name):
        return (f"the question asks about a ratio or margin, but only {plan.name} was read from it; ask for the "
                f"ratio by its definition (for example 'A as a share of B')")
    return ""


def _subject_plan(question: str, one_period: bool, every: bool = False, whole: str = "") -> MetricPlan | None:
    """What the verdict computes: the library metric or defined formula the question names, else the
    line item it names; at one period (sign) or the two it compares. `question` is the clause that asks;
    `whole`, what was asked with it (the periods may be named before it: "uber 2019-2021: did ...")."""
    whole = whole or question
    periods, _ = asked_periods(question)
    if not periods:
        periods, _ = asked_periods(whole)
    subject = _SUBJECT.search(question)
    # NOTE: the subject alone reads as the metric asked ("gross profit on sales as a percentage of net sales"),
    # without the verb around it ("did ... rise each year from 2020 to 2022?")
    own = read_plan(question) if definitions(question) else None  # NOTE: a definition of its own comes first
    lead = whole[:whole.find(question)].strip(" :;,-") if question in whole and whole.find(question) > 0 else ""
    if own is None and lead and subject and re.fullmatch(r"\s*(?:it|they|this|that)\s*", subject.group("subject"), re.I):
        # NOTE: "Tesla automotive gross margin (A less B, divided by A): did it fall ...?": the subject is named before
        own = read_plan(f"What is {lead}?")
    plan = own or (read_plan(f"What is {subject.group('subject')}?") if subject else None) or read_plan(question)
    if plan is not None and len(periods) > len(plan.periods):
        plan = replace(plan, periods=tuple(periods))
    if plan is not None and subject:  # the verdict names what it tests as the question does ("operating margin")
        named = re.sub(r"\s+", " ", _FILLER.sub(" ", re.sub(r"\([^()]*\)", " ", subject.group("subject")))).strip(" ,")
        named = re.sub(r"^.*['\u2019]s?\s+", "", named)  # "McDonald's operating margin" -> "operating margin"
        # NOTE: only when the subject names the measure ("Does AES have an improving ...": the subject is the company)
        shared = label_terms(named) & label_terms(f"{plan.name} {plan.definition}")
        plan = replace(plan, name=named if shared else plan.name)
    if plan is None or plan.over != "at":
        item = _item(question)
        if item is None:
            return None
        plan = MetricPlan(item, None, item, "library", Item(item), "amount", tuple(periods), False, None,
                          asked_scale(question))
    dated = sorted(plan.periods or periods, key=lambda p: (p.year or 0, p.end, p.quarter or 0))
    if not dated:
        return None
    if one_period and every and len(dated) > 1 and all(p.kind in ("year", "fiscal_year") for p in dated):
        # NOTE: "profitable in every year from 2019 through 2021": the sign of each year
        return replace(plan, periods=_each_year(dated[0], dated[-1]), direction=True)
    if one_period:
        return replace(plan, periods=(dated[-1],), direction=False)
    if every and _BOTH.search(question) and len(dated) == 2:
        dated = [shifted(dated[0], 1), *dated]  # NOTE: "did it fall in both FY2022 and FY2023": each against the year before
    compared = (dated[0], dated[-1]) if len(dated) > 1 else (shifted(dated[-1], 1), dated[-1])
    if every and all(p.kind in ("year", "fiscal_year", "instant") for p in compared) \
            and (compared[-1].year or 0) - (compared[0].year or 0) > 1:
        # NOTE: "every year from 2021 through 2023": each year of the span, not its ends only
        compared = _each_year(compared[0], compared[-1])
    return replace(plan, periods=compared, direction=True)


def _each_year(first: Period, last: Period) -> tuple[Period, ...]:
    """Every fiscal year from `first` to `last`, earliest first, each of `last`'s kind."""
    return tuple(shifted(last, n) for n in range(last.year - first.year, -1, -1))


def _item(question: str) -> str | None:
    """The line item a verdict question names ("net income", "GAAP diluted EPS", "total number of
    systemwide restaurants"): a known concept, else the subject's own words."""
    concepts = concepts_in(question)
    if concepts and metric_named(question) is None:
        return concepts[0].name
    found = _SUBJECT.search(question)
    if not found:
        return None
    words = re.sub(r"\s+", " ", _FILLER.sub(" ", found.group("subject"))).strip(" ,")
    return words if label_terms(words) else None
