"""The shape of an answer follows its evidence: a question the router left to semantic search is tried as the
figure or metric of a row the filings in scope print under its own label, and that answer is kept when it
states its figure; otherwise the semantic answer stands.

"What mortgage notes payable did the company show on its balance sheet at December 31, 2015?" names no frame the
router reads, but "Mortgage notes payable" is a row of the balance sheet: the figure strategy answers it, with
every gate a figure answer has (the qualifier around the label, the period, the unit). A trial that states nothing
(a missing period, a refused cell) leaves no trace: the question is answered as it was routed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from vera_core.answer.figures.counterfactual import COUNTERFACTUAL_ASKED, WOULD_HAVE, counterfactual_figure, without_asked
from vera_core.answer.figures.guidance_range import asks_guided_range, guided_range, item_subject, midpoint, range_pieces
from vera_core.answer.figures.printed_rate import rate_at, rate_at_period, rate_change, rate_change_periods
from vera_core.answer.figures.row_labels import ACRONYM, named_rows
from vera_core.answer.strategies.guidance_moves import guidance_move
from vera_core.answer.strategies.implied import IMPLIED_ASKED, implied_quarter
from vera_core.answer.figures.sentence_figure import sentence_figure, stated_piece
from vera_core.answer.units import run_on, split_units
from vera_core.records import ChunkRecord
from vera_core.answer.strategies import figure, metric
from vera_core.answer.strategies.base import Evidence, Plan, Services, Strategy
from vera_core.answer.strategies.search import company_of, search, tables_in_scope
from vera_core.documents.identity import Identity, dated_by_company
from vera_core.finance.line_items import COUNT_BASIS, label_sequence, label_terms
from vera_core.finance.money import currency_in
from vera_core.questions.expression import Item
from vera_core.questions.figure import FigureRequest, asked_periods, read_request
from vera_core.questions.metric import MetricPlan, without_periods
from vera_core.questions.row_asks import asked_of_row, asks_amount, asks_count

__all__ = ["RATE_RULE", "ROW_RULES", "SENTENCE_RULE", "TRIAL_TOP_K", "change_unanswered", "compared_unanswered",
           "gather_in_shape"]

TRIAL_TOP_K = 8
"""Keyword hits that choose the documents whose rows a trial reads, when the question is not scoped."""
ROW_RULES = {"figure": "figure:row-named", "metric": "metric:row-named"}
"""The rule an answer tried in another shape carries (`Intent.rule`)."""
RATE_RULE = "metric:printed-rate"
"""The rule of a printed rate's move between two quarters (`figures.printed_rate`)."""
_TRIED_FROM = ("semantic:default", "semantic:numeric-kpi")
_RATE_AT_FROM = ("metric:library",)
"""A quarter's growth the metric reader would compute over the year-ago quarter: a printed rate, where a row prints it."""
RATE_AT_RULE = "figure:printed-rate"
"""The rule of a printed rate read at the quarter asked (`figures.printed_rate.rate_at`)."""
SENTENCE_RULE = "figure:sentence"
"""The rule of a figure a sentence states and no table prints (`figures.sentence_figure`)."""
SENTENCE_NOTICE = "No table prints this figure: it is read from the sentence that states it, for the period asked."
FIGURE_ITEM_RULE = "figure:line-item"
LIBRARY_RULE = "metric:library"
_SENTENCE_FROM = _TRIED_FROM + (FIGURE_ITEM_RULE,)


def gather_in_shape(plan: Plan, routed: Strategy, services: Services) -> tuple[Plan, Evidence]:
    """The evidence of a row's figure or metric when the question is semantic, asks for an amount and names a
    printed row, and that answer states its figure; else `routed`'s evidence for `plan`."""
    if plan.intent.rule in _TRIED_FROM + (metric.TEXT_RULE,) and rate_change_periods(plan.question):
        tried = _rate_change(plan, services)  # NOTE: a printed rate's move between two quarters, in points
        if tried is not None:
            return tried
    if plan.intent.rule in _TRIED_FROM + _RATE_AT_FROM and rate_at_period(plan.question):
        tried = _rate_at(plan, services)  # NOTE: "APAC ad impressions growth y/y, Q2 2025": the rate the deck prints
        if tried is not None:
            return tried
    if asks_guided_range(plan.question) and plan.intent.type in ("figure", "semantic", "metric"):
        moved = guidance_move(plan, services)  # NOTE: "by how much did the midpoint ... move between the two releases?"
        if moved is not None:
            return moved
        tried = _guided_range(plan, services)  # NOTE: "What range did Salesforce give for full-year fiscal 2024 revenue?"
        if tried is not None:
            return tried
    if IMPLIED_ASKED.search(plan.question) and plan.intent.type in ("figure", "metric", "semantic"):
        tried = implied_quarter(plan, services)  # NOTE: "what net income ... does that imply for Q2 FY2023?"
        if tried is not None:
            return tried
    if COUNTERFACTUAL_ASKED.search(plan.question):
        # NOTE: "What would diluted EPS have been excluding that charge?": the level a sentence says it would have
        # reached, never the reported figure a table prints
        return _counterfactual(plan, services)
    counted = asks_count(plan.question)
    asked = asks_amount(plan.question) or counted
    if plan.intent.type == "semantic" and plan.intent.rule in _TRIED_FROM and asked \
            and asked_periods(plan.question)[0]:  # NOTE: a row's figure is always of a period; none named, no trial
        tried = _row_named(plan, services, counted)
        if tried is not None:
            return tried
    evidence = routed(plan, services)
    request = plan.request
    if plan.intent.rule == FIGURE_ITEM_RULE and asked and not _states(evidence) and not evidence.unanswerable \
            and isinstance(request, FigureRequest) and not request.concepts and request.item_terms \
            and asked_periods(plan.question)[0]:
        # NOTE: "DAP for Q3 2025, in billions?": an item no vocabulary knows, named by a row's own label (its acronym),
        # where the line-item reading found none; only a row that carries every word of the item read ("royalty income
        # ... from franchisees" is no "Franchised margins" row, "long-term debt" no "Short-term debt")
        tried = _row_named(plan, services, counted)
        if tried is not None and all(request.item_terms <= _label_words(f.row_label) for f in tried[1].figures):
            return tried
    if plan.intent.rule == LIBRARY_RULE and isinstance(request, MetricPlan) and request.metric is None \
            and isinstance(request.tree, Item) and not _states(evidence):
        # NOTE: "Meta's DAP growth year over year in Q3 2025": an item no vocabulary knows, grown between two quarters,
        # named by a row's own label (its acronym) where the line-item reading found none; only a row that carries
        # every word of the item
        tried = _row_named(plan, services, counted)
        item = label_terms(request.tree.phrase)
        rows = [o.row_label for o in tried[1].calculation.operands] if tried is not None and tried[1].calculation else []
        if rows and item and all(item <= _label_words(row) for row in rows):
            return tried
    if plan.intent.rule in _SENTENCE_FROM and (asked or plan.intent.type == "figure") and not _states(evidence) \
            and not evidence.unanswerable:
        stated = _sentence_figure(plan, services)
        if stated is not None:
            return stated
    return plan, evidence


def change_unanswered(plan: Plan, evidence: Evidence) -> Evidence:
    """The evidence as it stands, unless a question that asks a change in percent ("FoA rev 2Q25 q/q % chg") is answered
    with a level: the level is cited, and no figure is stated."""
    if plan.intent.type != "figure" or not _CHANGE_ASKED.search(plan.question) or not evidence.figures \
            or any(f.unit == "%" for f in evidence.figures):
        return evidence
    said = ("No figure is stated: the question asks a change in percent, and VERA read a level (cited below), not the "
            "change asked.")
    return replace(evidence, figures=(), lead=said, empty_message=said)


_CHANGE_ASKED = re.compile(r"(?:%|\bpercent(?:age)?)\s*(?:chg|change|growth|increase|decrease|decline|rise|drop)\b|"
                           r"\b(?:qoq|q/q|yoy|y/y)\s*(?:%|chg|change|growth)|\bgrowth\s+(?:rate\s+)?(?:yoy|y/y|qoq|q/q)\b", re.I)
"""A change asked in percent ("q/q % chg", "% growth", "y/y growth"): a level never answers it."""


def compared_unanswered(plan: Plan, evidence: Evidence) -> Evidence:
    """The evidence as it stands, unless a question of how two figures compare ("How much more did Meta spend on capex in
    the first nine months of 2025 than in the whole of 2024?") is answered with the figures themselves: they are no
    answer to how much more; they are cited, and no figure is stated."""
    if plan.intent.type != "figure" or not _COMPARED.search(plan.question) or not evidence.figures:
        return evidence
    # NOTE: "how much better did the actual come in than the outlook?" answered with one figure (the outlook): only a
    # figure printed as the difference itself ("increased by", a change row) answers with one
    if len({f.period for f in evidence.figures}) < 2 and (len(evidence.figures) > 1 or _A_CHANGE.search(
            f"{evidence.figures[0].row_label} {evidence.figures[0].line_item}") or not _AGAINST.search(plan.question)):
        return evidence
    said = ("No figure is stated: the question asks how two figures compare, and VERA read them (cited below) but not "
            "the comparison asked; the difference is not computed.")
    return replace(evidence, figures=(), lead=said, empty_message=said)


_COMPARED = re.compile(r"\bhow\s+much\s+(?:more|less|higher|lower|bigger|smaller|larger|greater|better|worse)\b[^?]*"
                       r"\b(?:than|come\s+in|came\s+in|beat)\b|\bbeat\s+the\b|\b(?:above|below)\s+the\s+(?:top|bottom|high|low)\b|"
                       r"\b(?:exceed|outstrip|surpass)\w*\b|\bdifference\s+between\b|\bby\s+how\s+much\b", re.I)
"""A question that asks how two figures compare: two figures stated side by side do not answer it."""
_AGAINST = re.compile(r"\bhow\s+much\s+(?:better|worse|more|less|higher|lower|above|below)\b|\bbeat\b|\bexceed\w*|"
                      r"\b(?:above|below)\s+the\s+(?:top|bottom|high|low)\b|\bdifference\s+between\b", re.I)
"""A comparison of two figures a single figure never answers unless it prints the difference itself."""
_A_CHANGE = re.compile(r"\b(?:change|increase|decrease|growth|difference|variance|beat|above|below|vs\.?|versus)\b", re.I)
"""A row that prints a difference itself ("Change", "Increase (decrease)"): one figure of it answers a comparison."""


def _row_named(plan: Plan, services: Services, counted: bool) -> tuple[Plan, Evidence] | None:
    """The plan and evidence of the figure or metric of a row the question names by its label (`_row_plan`), when that
    answer states its figure from a row the question names; else None."""
    row = _row_plan(plan, services, counted)
    if row is None:
        return None
    tried, label = row
    evidence = (figure.gather if tried.intent.type == "figure" else metric.gather)(tried, services)
    return (tried, evidence) if _states(evidence) and _of_row_named(tried, evidence, label) else None


def _sentence_figure(plan: Plan, services: Services) -> tuple[Plan, Evidence] | None:
    """A quarter's (or a date's) figure that a sentence states and no row answers ("Headcount was 72,404 as of
    September 30, 2024"), when every sentence read that states it agrees (`figures.sentence_figure`)."""
    periods, words = asked_periods(plan.question)
    if len(periods) != 1 or periods[0].kind not in ("quarter", "instant"):
        return None
    hits = search(plan, services, plan.query, top_k=TRIAL_TOP_K)
    doc_ids = list(dict.fromkeys(h.chunk.doc_id for h in hits))
    identities = identities_of(services, doc_ids)
    # NOTE: a sentence the chunk's end cuts ("... delivered $341 million of") is read on into the next chunk
    units = [u for h in hits if h.chunk.kind != "table" for u in run_on(split_units(h.chunk), _following(services, h.chunk))]
    found, _ = sentence_figure(plan.question, periods[0], words, company_of(services, doc_ids).words, units, identities)
    if found is None:
        return None
    piece, record = stated_piece(found, services.doc_names().get(found.unit.chunk.doc_id, found.unit.chunk.doc_id))
    intent = plan.intent.model_copy(update={"type": "figure", "rule": SENTENCE_RULE, "numeric": True})
    return replace(plan, intent=intent), Evidence(hits=tuple(hits), pieces=(piece,), figures=(record,),
                                                  notices=(SENTENCE_NOTICE,))


def identities_of(services: Services, doc_ids: Sequence[str]) -> dict[str, Identity]:
    """The identities of the documents, each undated one dated on its company's fiscal calendar as the store's other
    documents of it print (`documents.identity.dated_by_company`: Meta's decks print no quarter end)."""
    identities = {doc_id: Identity.from_dict(doc.identity) for doc_id in doc_ids
                  if (doc := services.ws.catalog.document(doc_id)) is not None and doc.identity}
    if all(i.period_end for i in identities.values()):
        return identities
    return dated_by_company(identities, (Identity.from_dict(d.identity) for d in services.ws.catalog.documents()
                                         if d.identity))


def _following(services: Services, chunk: ChunkRecord) -> ChunkRecord | None:
    """The chunk after `chunk` in its document, or None."""
    chunks = services.ws.doc_chunks(chunk.doc_id)
    at = next((i for i, c in enumerate(chunks) if c.chunk_id == chunk.chunk_id), None)
    return chunks[at + 1] if at is not None and at + 1 < len(chunks) else None


GUIDED_RULE = "figure:guidance-range"
GUIDED_NOTICE = "A range management guided to, as the sentence states it: a forecast, not a reported figure."
MAX_GUIDED_DOCS = 4
"""Documents whose every sentence is read for a guided range (the scope's, else the best hits')."""


def _guided_range(plan: Plan, services: Services) -> tuple[Plan, Evidence] | None:
    """The range (or the end of it asked) a sentence of the documents in scope guides to for the item and period asked
    (`figures.guidance_range`), when one period is asked and the sentences agree."""
    periods, words = asked_periods(plan.question)
    if not periods or len(periods) > 2:
        return None
    hits = search(plan, services, plan.query, top_k=TRIAL_TOP_K)
    doc_ids = list(plan.intent.doc_scope or dict.fromkeys(h.chunk.doc_id for h in hits))[:MAX_GUIDED_DOCS]
    identities = identities_of(services, doc_ids)
    units = [u for d in doc_ids for c in services.ws.doc_chunks(d) if c.kind != "table" for u in split_units(c)]
    company = company_of(services, doc_ids).words
    # NOTE: "the fourth-quarter 2024 revenue outlook Meta gave with its Q3 2024 results": of two periods named, the one
    # a guided range is stated for, when only one of them has one
    found = [f for period in periods if (f := guided_range(plan.question, period, words, company, units, identities))]
    if len(found) != 1:
        return None
    found = found[0]
    doc_name = services.doc_names().get(found.unit.chunk.doc_id, found.unit.chunk.doc_id)
    subject = item_subject(plan.question, words, company)
    if found.end == "mid":
        lead, pieces, calculation = midpoint(found, doc_name, subject)
        intent = plan.intent.model_copy(update={"type": "metric", "rule": GUIDED_RULE, "numeric": True})
        return replace(plan, intent=intent), Evidence(hits=tuple(hits), pieces=tuple(pieces), lead=lead,
                                                      calculation=calculation, notices=(GUIDED_NOTICE,))
    pieces, records = range_pieces(found, doc_name, subject)
    intent = plan.intent.model_copy(update={"type": "figure", "rule": GUIDED_RULE, "numeric": True})
    return replace(plan, intent=intent), Evidence(hits=tuple(hits), pieces=tuple(pieces), figures=tuple(records),
                                                  notices=(GUIDED_NOTICE,))


def _counterfactual(plan: Plan, services: Services) -> tuple[Plan, Evidence]:
    """What the item asked would have been without something, as a sentence of the documents in scope states it
    (`figures.counterfactual`); else no figure, and the answer says where it looked."""
    periods, _ = asked_periods(plan.question)
    hits = search(plan, services, plan.query, top_k=TRIAL_TOP_K)
    scope = services.doc_ids(plan)
    doc_ids = scope if len(scope) <= MAX_COUNTERFACTUAL_DOCS else list(dict.fromkeys(h.chunk.doc_id for h in hits))
    identities = identities_of(services, doc_ids)
    units = [u for doc_id in doc_ids for c in services.ws.doc_chunks(doc_id) if c.kind != "table"
             and WOULD_HAVE.search(c.text) for u in split_units(c)]
    found = counterfactual_figure(plan.question, periods[0], company_of(services, doc_ids).words, units,
                                  identities)[0] if len(periods) == 1 else None
    names = services.doc_names()
    if found is None:
        printed = _printed_without(plan, services)
        if printed is not None:
            return printed
        where = ", ".join(names.get(d, d) for d in doc_ids[:MAX_COUNTERFACTUAL_DOCS])
        return plan, Evidence(hits=tuple(hits), empty_message=(
            "No figure is stated: the question asks what a figure would have been without an item, and no sentence of "
            f"{where} states that level for the period asked{'' if len(periods) == 1 else ' (name one period)'}. The "
            "reported figure is not its answer."))
    piece, record = stated_piece(found, names.get(found.unit.chunk.doc_id, found.unit.chunk.doc_id))
    intent = plan.intent.model_copy(update={"type": "figure", "rule": COUNTERFACTUAL_RULE, "numeric": True})
    return replace(plan, intent=intent), Evidence(hits=tuple(hits), pieces=(piece,), figures=(record,),
                                                  notices=(COUNTERFACTUAL_NOTICE,))


def _printed_without(plan: Plan, services: Services) -> tuple[Plan, Evidence] | None:
    """'What would Meta's Q3 2024 revenue have been excluding the foreign exchange effect?', where no sentence states
    it: the row that prints the item without what is left out, by name ("Revenue excluding foreign exchange effect"),
    answers; any other row (the reported revenue, the effect itself) does not."""
    asked = without_asked(plan.question)
    if asked is None:
        return None
    item, without = asked
    periods, texts = asked_periods(plan.question)
    question = f"What was {without_periods(item)} {without}?"
    # NOTE: the periods as the question words them ("For the three months ended September 30, 2024, ..."), not as the
    # words left in the item would read alone
    request = replace(read_request(question), periods=tuple(periods), period_texts=tuple(texts))
    if not request.named_exclusion:
        return None
    intent = plan.intent.model_copy(update={"type": "figure", "rule": FIGURE_ITEM_RULE, "numeric": True})
    tried = replace(plan, question=question, request=request, intent=intent)
    evidence = figure.gather(tried, services)
    if not _states(evidence) or any(label_terms(f.row_label) != request.named_exclusion for f in evidence.figures):
        return None
    return replace(tried, question=plan.question), evidence


COUNTERFACTUAL_RULE = "figure:would-have-been"
COUNTERFACTUAL_NOTICE = ("The question asks what a figure would have been without an item: the answer is the level a "
                         "sentence of the document states, not the reported figure.")
MAX_COUNTERFACTUAL_DOCS = 12
"""A scope of at most this many documents is read whole for the sentence; a wider one, the documents searched first."""


def _of_row_named(plan: Plan, evidence: Evidence, named_label: str) -> bool:
    """Whether a row-named figure was read from a row the question names: a row that adds OTHER_ITEM_WORDS or more
    words the question never writes is another item ("cash and marketable securities" is not "Sales and maturities of
    marketable debt securities" under "Cash flows from investing activities"); a row printing one word more ("Losses
    and LAE incurred related to prior accident years") or one the question names otherwise (a segment's "FLNA") is. A
    row that leaves out a word of the `named_label` the question names is another row ("Additions to property, plant and
    equipment" is not the "Net additions to property, plant and equipment" asked)."""
    request = plan.request
    if not isinstance(request, FigureRequest):
        return True
    if any(label_terms(f.row_label) < label_terms(named_label) for f in evidence.figures):
        return False  # NOTE: a row that is the named label short of a word (a segment's row named "FLNA" reads its own)
    def named(label: str) -> bool:
        acronym = ACRONYM.search(label)  # NOTE: "Meta DAP Q4 2024" names "Family Daily Active People (DAP)"
        return bool(acronym and label_terms(acronym.group(1)) <= request.question_terms) or \
            len(label_terms(COUNT_BASIS.sub("", label)) - request.question_terms) < OTHER_ITEM_WORDS
    return all(named(f.row_label) for f in evidence.figures)


def _label_words(label: str) -> frozenset[str]:
    """A row label's words with its acronym's ("Family Daily Active People (DAP)": "dap" too)."""
    acronym = ACRONYM.search(label)
    return label_terms(label) | (label_terms(acronym.group(1)) if acronym else frozenset())


OTHER_ITEM_WORDS = 2
"""Words a row's label adds to what the question writes that make it another item than the one named."""


def _rate_change(plan: Plan, services: Services) -> tuple[Plan, Evidence] | None:
    """The plan and evidence of a printed rate compared between two quarters in points, when a row prints it."""
    hits = search(plan, services, plan.query, top_k=TRIAL_TOP_K, dense=False)
    tables = tables_in_scope(plan, services, hits)
    found = rate_change(plan.question, tables.grids, tables.chunks, tables.hit_rank, services.doc_names(),
                        company_of(services, tables.grids))
    if found is None:
        return None
    intent = plan.intent.model_copy(update={"type": "metric", "rule": RATE_RULE, "numeric": True})
    evidence = Evidence(hits=tuple(hits), pieces=tuple(found.pieces), lead=found.lead, calculation=found.calculation,
                        notices=(metric.PRINTED_NOTICE,))
    return replace(plan, intent=intent), evidence


def _rate_at(plan: Plan, services: Services) -> tuple[Plan, Evidence] | None:
    """The plan and evidence of a printed rate read at the quarter asked, when one row prints it."""
    hits = search(plan, services, plan.query, top_k=TRIAL_TOP_K, dense=False)
    tables = tables_in_scope(plan, services, hits)
    found = rate_at(plan.question, tables.grids, tables.chunks, tables.hit_rank, services.doc_names(),
                    company_of(services, tables.grids).words)
    if found is None:
        return None
    intent = plan.intent.model_copy(update={"type": "figure", "rule": RATE_AT_RULE, "numeric": True})
    evidence = Evidence(hits=tuple(hits), pieces=tuple(found.pieces), figures=tuple(found.figures),
                        notices=(metric.PRINTED_NOTICE,))
    return replace(plan, intent=intent), evidence


def _row_plan(plan: Plan, services: Services, counted: bool = False) -> tuple[Plan, str] | None:
    """The plan of the figure or metric the question asks of the longest row label it names, with that label, else
    None; asked how many (`counted`), only a row that prints counts (no currency, no percentages) answers."""
    hits = search(plan, services, plan.query, top_k=TRIAL_TOP_K, dense=False)
    tables = tables_in_scope(plan, services, hits)
    for named in named_rows(plan.question, tables.grids, company_of(services, tables.grids)):
        if counted and not _counts(named.label, tables.grids):
            continue
        if _RATIO_ASKED.search(plan.question) and not _RATIO_ASKED.search(named.label):
            continue  # NOTE: "ORCL hardware segment margin FY21": the "Hardware" row prints revenue, no margin
        request = asked_of_row(plan.question, named)
        if request is None:
            continue
        kind = "figure" if isinstance(request, FigureRequest) else "metric"
        intent = plan.intent.model_copy(update={"type": kind, "rule": ROW_RULES[kind], "numeric": True})
        return replace(plan, intent=intent, request=request), named.label
    return None


_RATIO_ASKED = re.compile(r"\b(?:ratios?|margins?|yields?|(?<!growth\s)rates?)\b", re.I)
"""A ratio asked by name: only a row that names one answers it ("CET1 ratio", "Net interest margin")."""


def _counts(label: str, grids) -> bool:
    """Whether every row printed under `label` prints counts: figures with no currency, percentage or per-share unit.
    Outside the statements, a currency the table only inherits from the document does not make a row that names
    what it counts money ("Active Buyers (1)" in eBay's supplemental data, "(In millions, except percentages)")."""
    named = label_sequence(label)  # NOTE: "Active Buyers" is the row printed "Active Buyers (1)"
    cells = [(g, c) for doc in grids.values() for g in doc if g.status == "parsed" for c in g.cells
             if c.col and c.value is not None and label_sequence(c.row_label) == named]
    counted = bool(_COUNT_NOUN.search(label))
    return bool(cells) and all((not c.currency or counted and not g.statement
                                and not currency_in(" ".join((g.title, *g.header))))
                               and not c.unit and "$" not in c.printed for g, c in cells)


_COUNT_NOUN = re.compile(r"\b(?:buyers?|users?|customers?|subscribers?|members?|accounts?|employees?|headcount|people|"
                         r"persons?|stores?|warehouses?|locations?|branches|clients?|households?|merchants?|sellers?|"
                         r"advertisers?|visitors?|viewers?|guests?|riders?|drivers?|patients?|students?)\b", re.I)
"""Words that name what a row counts: only such a row is read as counts when its table's currency is the document's
(a notes table's "Mac 29,357" prints sales without a "$" and is money, never Macs sold)."""


def _states(evidence: Evidence) -> bool:
    """Whether the evidence states a figure or a computed result, with nothing asked left missing."""
    if evidence.empty_message or evidence.unanswerable or evidence.missing:
        return False
    if evidence.calculation is not None:
        return evidence.calculation.result is not None and not evidence.calculation.missing
    return bool(evidence.figures)
