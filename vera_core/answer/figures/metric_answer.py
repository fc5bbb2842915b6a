"""The metric strategy: a plan -> the result, rounded as asked, followed by the calculation with
each operand's value and citation ("FY2018 fixed asset turnover ratio: 3.72. Calculation: 32,765 /
((8,738 + 8,866) / 2) = 3.72"). An operand that cannot be found is named with where VERA looked, and
no result is stated."""

from __future__ import annotations

import re
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field, replace

from vera_core.answer.compose import Piece
from vera_core.answer.contract import Calculation, CalculationOperand, FigureCell, PeriodResult
from vera_core.answer.figures.figure_answer import names_loss
from vera_core.answer.figures.plausibility import implausible
from vera_core.answer.figures.resolve import CellResolver, MissingOperand, Operand, evaluate, period_words
from vera_core.answer.figures.unread import Read, unread_word
from vera_core.questions.library import metric_named
from vera_core.finance.line_items import concepts_in, label_terms
from vera_core.questions.expression import Avg, BinOp, Chg, Item, Node, Num, items, joined, render
from vera_core.questions.metric import MetricPlan, printed_first
from vera_core.records import ChunkRecord, TableGrid
from vera_core.finance.statements import STATEMENT_NAMES
from vera_core.finance.money import half_up, money, unit_words

DEFAULT_DIGITS = {"percent": 1, "ratio": 2, "days": 1, "years": 1, "amount": 0}



def significant(value: float) -> float:
    """A result kept to 12 significant digits (a small ratio keeps its precision; float noise goes)."""
    return float(f"{value:.12g}")


@dataclass
class MetricEvidence:
    """The strategy's output: the lead sentence, one cited piece per operand, the calculation."""

    lead: str = ""
    pieces: list[Piece] = field(default_factory=list)
    calculation: Calculation | None = None
    missing: str = ""
    """Set when abstaining: what is missing and where VERA looked."""
    notices: list[str] = field(default_factory=list)
    """A row Claude proposed for an operand, or why it could not be asked."""
    found: list[Piece] = field(default_factory=list)
    """When abstaining: the operands read before the missing one, cited (a question about causes shows them)."""
    implausible: bool = False
    """The result was computed but failed the plausibility gate (`plausibility.py`): `found` holds every
    operand read, and the answer cites them under `missing` instead of stating a result."""


def metric_evidence(plan: MetricPlan, grids: Mapping[str, Sequence[TableGrid]], chunks: Mapping[str, ChunkRecord],
                    hit_rank: Mapping[str, int], doc_names: Mapping[str, str], propose=None,
                    company: Container[str] = frozenset(), question: str = "") -> MetricEvidence:
    """The calculation of `plan` over the grids in scope; `propose` (LLM modes) names the row of an
    operand VERA finds no row for (see `CellResolver`); `company`: the registrant's name words, never a
    qualifier of an operand; `question` as asked, for the last check (`unread.py`)."""
    def resolver(tree: Node, picker) -> CellResolver:
        return CellResolver(grids, chunks, hit_rank, picker, doc_names, plan.qualifier, company,
                            uses_as_amounts=plan.unit == "years", siblings=[i.phrase for i in items(tree)])

    own = printed_first(plan, question)
    if own is not None:  # NOTE: a printed measure inside a formula ("free cash flow as a % of net income") is its row
        tree, metrics = own
        resolve = resolver(tree, None)
        evidence = _metric_evidence(replace(plan, tree=tree), grids, doc_names, resolve, question, company)
        if not evidence.missing and not evidence.implausible and _named_rows(resolve.found, metrics):
            evidence.notices = list(dict.fromkeys(resolve.notices))
            return evidence
    resolve = resolver(plan.tree, propose)
    evidence = _metric_evidence(plan, grids, doc_names, resolve, question, company)
    evidence.notices = list(dict.fromkeys(resolve.notices))
    whole = _whole_named(plan, question) if evidence.missing else None
    if whole is not None:
        # NOTE: "META FY24 capex (PP&E purchases + finance lease principal), $bn?" of a deck that prints "Capital
        # Expenditures" and not its parts: the line the question names, as printed, when its parts cannot be read
        alone = resolver(whole, None)
        printed = _metric_evidence(replace(plan, tree=whole, definition=f"{whole.phrase}, as printed"), grids, doc_names,
                                   alone, question, company)
        rows = [label_terms(op.candidate.label.row_label) for op in alone.found]
        # NOTE: the row is the line named whole ("Capital Expenditures"), never one of the parts the question adds up
        if not printed.missing and not printed.implausible and rows and all(_names_whole(r, whole.phrase) for r in rows) \
                and not any(label_terms(i.phrase) <= r for i in items(plan.tree) for r in rows):
            printed.notices = [f"The question adds up {plan.definition}; those lines are not printed for the period, and "
                               f"the document prints {whole.phrase} itself (cited), which is stated as printed."]
            return printed
    return evidence


_BEFORE_DEFINITION = re.compile(r"\s+(?:for|in|of|during|at)\b.*$", re.I)


def _whole_named(plan: MetricPlan, question: str) -> Item | None:
    """The line a question names right before the sum in parentheses that defines it ("capex (PP&E purchases + finance
    lease principal)"), as an item; None for any other definition."""
    if plan.source != "question" or not isinstance(plan.tree, BinOp) or plan.tree.op != "+" \
            or not re.search(rf"\(\s*{re.escape(plan.definition)}\s*\)", question):
        return None
    name = _BEFORE_DEFINITION.sub("", plan.name).strip()
    return Item(name) if label_terms(name) else None


def _names_whole(row: frozenset[str], phrase: str) -> bool:
    """Whether a row's label names the line itself: every word of it, or of its concept's own name ("Capital
    Expenditures" for "capex")."""
    concepts = concepts_in(phrase)
    return label_terms(phrase) <= row or any(label_terms(c.name) <= row for c in concepts)


def _named_rows(operands: Sequence[Operand], metrics) -> bool:
    """Every printed measure of the formula read from a row that prints its whole name ("Free cash flow"), never a row
    that only shares its words ("Net cash flow ..."): else the formula is computed from its own items."""
    names = {m.name.lower(): label_terms(m.name) for m in metrics}
    return all(label_terms(op.candidate.label.row_label) >= names[op.name] for op in operands if op.name in names)


def _metric_evidence(plan: MetricPlan, grids: Mapping[str, Sequence[TableGrid]], doc_names: Mapping[str, str],
                     resolve: CellResolver, question: str = "", company: Container[str] = frozenset()) -> MetricEvidence:
    results: list[tuple[str, float, str, list[Operand]]] = []
    defined = ("the question's definition" if plan.source == "question" else "library definition") + f": {plan.definition}"
    for period in plan.periods or ():
        try:
            value, operands = evaluate(plan.tree, period, resolve)
        except MissingOperand as missing:
            searched = ", ".join(doc_names.get(d, d) for d in grids) or "no document"
            text = (f"{plan.name} for {period_words(period)} cannot be computed: {missing.refused} No result is stated."
                    if missing.refused else
                    f"{plan.name} for {period_words(period)} cannot be computed: {missing} is not printed in the "
                    f"statements or notes of {searched} (searched every table's rows, with the usual names of the "
                    f"line item). No result is stated.")
            found, _ = _operands([("", 0.0, "", resolve.found)])
            return MetricEvidence(missing=text, found=found, calculation=Calculation(
                metric=plan.name, definition=plan.definition, source=plan.source, expression=render(plan.tree),
                unit=plan.unit, period=period_words(period), missing=[str(missing)]))
        except ZeroDivisionError as exc:
            return MetricEvidence(missing=f"{plan.name} cannot be computed: {exc}.")
        grown = plan.metric.unit if plan.metric else "amount" if isinstance(plan.tree, Item) else None
        shown = value * 100 if plan.unit == "percent" and (plan.over != "growth" or grown == "percent") else value
        # NOTE: a growth of a line item or of an amount metric (free cash flow): each year's value is an amount, not
        # a percentage
        each = replace(plan, unit=grown, digits=None, scale=None) if plan.over == "growth" and grown else plan
        results.append((period_words(period), shown, _rounded(shown, each, operands), operands))
    if not results:
        return MetricEvidence(missing=f"{plan.name}: the question names no period and none could be chosen.")
    read = [tuple((op.candidate.chunk.chunk_id, op.cell.row, op.cell.col) for op in ops) for _, _, _, ops in results]
    if len(set(read)) < len(read):
        # NOTE: two periods asked that resolve to the same cells ("Q1 fiscal 2024 (three months ended April 30, 2023)"
        # read as two periods) would compare a figure with itself
        same = [p for (p, _, _, _), key in zip(results, read) if read.count(key) > 1]
        found, _ = _operands(results)
        return MetricEvidence(missing=f"{plan.name}: {' and '.join(dict.fromkeys(same))} read the same figures, so "
                                      f"nothing is compared; name the two periods apart.", found=found)
    why = implausible(plan.name, plan.unit, plan.over, plan.tree, [(p, v, ops) for p, v, _, ops in results]) \
        or _two_lines(results, question) \
        or (_more_than_whole(plan, results) if plan.part_of_whole else None) \
        or _unread(plan, question, grids, results, company)
    if why:
        return _implausible(plan, why, results)
    if plan.over != "at":
        return _aggregate(plan, results, defined)
    period, value, rounded, operands = results[-1]
    expression = _with_values(plan.tree, list(operands)) + \
        f" = {_plain(value / 100 if plan.unit == 'percent' else value, plan, operands)}"
    lead = f"{period} {plan.name}: {rounded} ({defined}). Calculation: {expression}."
    direction = None
    if plan.direction and len(results) > 1:
        first, last = results[0], results[-1]
        direction = "improved" if last[1] > first[1] else "declined" if last[1] < first[1] else "unchanged"
        change = last[1] - first[1]
        delta = (("+" if change >= 0 else "") + _rounded(change, plan, operands)) if plan.unit == "amount" else \
            f"{change:+.{DEFAULT_DIGITS[plan.unit] if plan.digits is None else plan.digits}f}" + \
            (" percentage points" if plan.unit == "percent" else "")
        steps = "; ".join(f"{p}: {r}" for p, _, r, _ in results)
        calculation = "" if isinstance(plan.tree, Item) else f" Calculation for {last[0]}: {expression}."
        lead = (f"{plan.name} {_verb(direction, plan)} from {first[2]} in {first[0]} to {last[2]} in {last[0]} "
                f"({delta}; {defined}). {steps}.{calculation}")
    pieces, records = _operands(results)
    calculation = Calculation(metric=plan.name, definition=plan.definition, source=plan.source, expression=expression,
                              result=significant(value), rounded=rounded, unit=plan.unit, period=period,
                              operands=records, direction=direction,
                              results=[PeriodResult(period=p, result=significant(v), rounded=r) for p, v, r, _ in results]
                              if plan.direction else [])
    return MetricEvidence(lead=lead, pieces=pieces, calculation=calculation)


def _aggregate(plan: MetricPlan, results: list[tuple[str, float, str, list[Operand]]], defined: str) -> MetricEvidence:
    """A metric over several years: the mean of the yearly values, or the growth or change from the
    first year to the last, with each year's value and operands cited."""
    first, last = results[0], results[-1]
    steps = "; ".join(f"{p}: {r}" for p, _, r, _ in results)
    if plan.over == "mean":
        value = sum(v for _, v, _, _ in results) / len(results)
        expression = f"({' + '.join(_plain(v / 100 if plan.unit == 'percent' else v, plan) for _, v, _, _ in results)})" \
                     f" / {len(results)} = {_plain(value / 100 if plan.unit == 'percent' else value, plan)}"
    elif plan.over == "growth":
        # NOTE: "how much wider was the Reality Labs operating loss": a loss asked as such grows with its size
        size = first[1] < 0 and last[1] < 0 and names_loss(label_terms(plan.name))
        if first[1] <= 0 and not size:
            return MetricEvidence(missing=f"{plan.name} from {first[0]} to {last[0]} is not meaningful: {first[0]} is "
                                          f"{first[2]}, not a positive base. {steps}. No result is stated.")
        base, end = (abs(first[1]), abs(last[1])) if size else (first[1], last[1])
        amounts = replace(plan, unit="amount", digits=None, scale=None)
        years = (plan.periods[-1].year or 0) - (plan.periods[0].year or 0) if plan.compound else 1
        if plan.compound and years <= 0:
            return MetricEvidence(missing=f"{plan.name}: the years compounded over could not be read. No result is stated.")
        value = ((end / base) ** (1 / years) - 1) * 100
        ratio = f"{_rounded(end, amounts, last[3])} / {_rounded(base, amounts, first[3])}"
        if size:
            steps += f". The loss's size grows: {ratio.replace(' / ', ' against ')}"
        expression = (f"({ratio}) ^ (1 / {years}) - 1 = " if plan.compound else f"{ratio} - 1 = ") + \
            _plain(value / 100, plan)
    else:
        # NOTE: "by how much did the Reality Labs operating loss widen from Q1 2024 to Q2 2024": a loss named as such
        # changes by its size (3,846 to 4,488: 642), as its growth does
        size = first[1] < 0 and last[1] < 0 and names_loss(label_terms(plan.name))
        start, end = (abs(first[1]), abs(last[1])) if size else (first[1], last[1])
        if plan.fall_asked and end < start:
            # NOTE: "How many fewer employees ... at the end of Q1 2023 than at the end of Q4 2022?": the size of the fall
            value = start - end
            expression = f"{_plain(start, plan)} - {_plain(end, plan)} = {_plain(value, plan)} (a fall)"
        else:
            value = end - start
            expression = f"{_plain(end, plan)} - {_plain(start, plan)} = {_plain(value, plan)}"
        if size:
            expression += " (the loss's size)"
    why = implausible(plan.name, plan.unit, plan.over, plan.tree, [], final=value)
    if why:
        return _implausible(plan, why, results)
    rounded = _rounded(value, plan, last[3])
    span = f"{first[0]} to {last[0]}"
    fell = plan.over == "change" and plan.fall_asked and "(a fall)" in expression
    name = f"{plan.name} (a fall, stated as its size)" if fell else plan.name
    # NOTE: a rate's change is in points ("1.5 percentage points"), never a growth of 1.5%
    shown = f"{rounded[:-1].rstrip()} percentage points" if plan.over == "change" and plan.unit == "percent" \
        and rounded.endswith("%") else rounded
    lead = f"{name}, {span}: {shown} ({defined}). {steps}. Calculation: {expression}."
    pieces, records = _operands(results)
    calculation = Calculation(metric=plan.name, definition=plan.definition, source=plan.source, expression=expression,
                              result=significant(value), rounded=rounded, unit=plan.unit, period=span, operands=records,
                              aggregate=plan.over,
                              results=[PeriodResult(period=p, result=significant(v), rounded=r) for p, v, r, _ in results])
    return MetricEvidence(lead=lead, pieces=pieces, calculation=calculation)


def _implausible(plan: MetricPlan, why: str, results: list[tuple[str, float, str, list[Operand]]]) -> MetricEvidence:
    """No result: the computed one failed the plausibility gate; the operands read are cited."""
    found, _ = _operands(results)
    text = (f"{plan.name} is not stated: {why}. The figures read are cited below so that you can check them; "
            f"no result is stated.")
    span = results[0][0] if len(results) == 1 else f"{results[0][0]} to {results[-1][0]}"
    return MetricEvidence(missing=text, found=found, implausible=True, calculation=Calculation(
        metric=plan.name, definition=plan.definition, source=plan.source, expression=render(plan.tree),
        unit=plan.unit, period=span, missing=[f"plausibility: {why}"]))


_SAME_LINE_WORDS = label_terms("total net gross reported consolidated")
"""Words two printings of one line may differ by ("Total revenue", "Revenue")."""


def _two_lines(results: list[tuple[str, float, str, list[Operand]]], question: str) -> str | None:
    """Why no result is stated when one operand of the formula was read from two different lines in two periods ("revenue"
    as "Total Revenue" at Q4 2023 and "Communications Revenue" at Q3 2023): a change or growth of one line compares its
    own two figures. Two printings of a line that differ by a word the question writes, or a generic one, are one."""
    asked = label_terms(question)
    labels: dict[str, dict[frozenset[str], str]] = {}
    for _, _, _, operands in results:
        for op in operands:
            words = label_terms(op.candidate.label.row_label) - _SAME_LINE_WORDS
            labels.setdefault(op.name.lower(), {})[words] = f"{op.candidate.label.row_label} ({period_words(op.period)})"
    for name, read in labels.items():
        forms = list(read)
        for a in forms:
            for b in forms:
                if (a - b) - asked:
                    return f"{name} was read from two different lines, {' and '.join(read.values())}, so the two are not compared"
    return None


def _unread(plan: MetricPlan, question: str, grids: Mapping[str, Sequence[TableGrid]],
            results: list[tuple[str, float, str, list[Operand]]], company: Container[str]) -> str | None:
    """Why no result is stated when the question puts a word on an operand that its row lacks and another row
    carries (`unread.py`): the metric's own words and each operand's usual names are the question's item."""
    operands = [op for _, _, _, ops in results for op in ops]
    # NOTE: a metric the question defines itself ("ROA is defined as ...") keeps the library's names of it too
    known = plan.metric or metric_named(plan.name)
    names = (plan.name, *((known.name, *known.aliases) if known else ()))
    explained = label_terms(" ".join(names)) | (label_terms(plan.definition) if plan.source != "question" else frozenset())
    for op in operands:
        for concept in concepts_in(op.name)[:1]:
            explained |= concept.words
    read = [Read(op.candidate.grid, op.candidate.label, op.cell) for op in operands]
    measure = label_terms(known.name) if known else label_terms(plan.name)
    return unread_word(question, read, grids, explained, company, measure) or None


def _more_than_whole(plan: MetricPlan, results: list[tuple[str, float, str, list[Operand]]]) -> str | None:
    """Why a part of a whole ("what proportion of the debt was non-recourse") is not stated: over 100% of positive
    amounts, the formula read is not the part over its whole."""
    if plan.over != "at":
        return None
    whole = 100.0 if plan.unit == "percent" else 1.0
    for period, shown, _, operands in results:
        if shown > whole * 1.0001 and all(op.value > 0 for op in operands):
            return (f"{plan.name} for {period} would be {shown:,.1f}{'%' if plan.unit == 'percent' else ''}, more than the "
                    f"whole the question asks a part of (the formula read is not the part over its whole)")
    return None


def _operands(results: list[tuple[str, float, str, list[Operand]]]) -> tuple[list[Piece], list[CalculationOperand]]:
    """One cited piece and one record per distinct cell the calculation read, in reading order."""
    pieces, records = [], []
    seen: set[tuple[str, int, int]] = set()
    for _, _, _, used in results:
        for op in used:
            key = (op.candidate.chunk.chunk_id, op.cell.row, op.cell.col)
            if key in seen:
                continue
            seen.add(key)
            pieces.append(_operand_piece(op))
            records.append(_operand_record(op))
    return pieces, records


def _verb(direction: str, plan: MetricPlan) -> str:
    return {"improved": "rose", "declined": "fell", "unchanged": "was unchanged"}[direction] if plan.unit != "days" \
        else {"improved": "lengthened", "declined": "shortened", "unchanged": "was unchanged"}[direction]


def _rounded(value: float, plan: MetricPlan, operands: list[Operand]) -> str:
    digits = DEFAULT_DIGITS[plan.unit] if plan.digits is None else plan.digits
    if plan.unit == "percent":
        return f"{half_up(value, digits)}%"
    if plan.unit == "ratio":
        return half_up(value, digits)
    if plan.unit in ("days", "years"):
        return f"{half_up(value, digits)} {plan.unit}"
    scale = plan.scale or (operands[0].cell.scale if operands else 1.0)
    currency = operands[0].cell.currency if operands else ""
    shown = value / scale
    digits = plan.digits if plan.digits is not None else (0 if abs(shown) >= 100 else 2)
    return money(shown, currency, scale, digits)


def _plain(value: float, plan: MetricPlan, operands: Sequence[Operand] = ()) -> str:
    """A result as the calculation line shows it: an amount in the scale its operands are printed in ("39,451 million"
    after "39,885 - 434", never 39,451,000,000), a ratio to four places."""
    if plan.unit == "amount":
        return _rounded(value, plan, list(operands))
    return half_up(value, 4).rstrip("0").rstrip(".")


def _printed(op: Operand) -> str:
    scale = 1.0 if op.cell.unit else op.cell.scale
    return half_up(op.value / scale, 0 if float(op.value / scale).is_integer() else 2)


def _with_values(node: Node, operands: list[Operand]) -> str:
    """The formula with each operand's value, in reading order (as `evaluate` read them)."""
    def walk(n: Node) -> str:
        if isinstance(n, Num):
            return f"{n.value:g}"
        if isinstance(n, Item):
            return _printed(operands.pop(0))
        if isinstance(n, Avg):
            a, b = _printed(operands.pop(0)), _printed(operands.pop(0))
            return f"(({a} + {b}) / 2)"
        if isinstance(n, Chg):
            a, b = _printed(operands.pop(0)), _printed(operands.pop(0))
            return f"({a} - {b})"
        left = walk(n.left)  # NOTE: left first: operands are consumed in reading order
        return joined(n, left, walk(n.right))
    return walk(node)


def _operand_piece(op: Operand) -> Piece:
    cand, cell = op.candidate, op.cell
    where = STATEMENT_NAMES.get(cand.grid.statement, cand.grid.title[:60] or "table")
    unit = unit_words(cell.currency, 1.0 if cell.unit else cell.scale)
    label = cand.label.row_label
    item = label if label.lower() == op.name.lower() else f"{op.name[:1].upper()}{op.name[1:]} ({label})"
    text = (f"{item}, {cell.period.label if cell.period else cell.header}: "
            f"{cell.printed}{' in ' + unit if unit else ''} ({where}).")
    regions = tuple(r for r in (cand.label.box, cell.box) if r is not None)
    return Piece(text, cand.chunk, f"{cand.label.row_label} | {cell.header}: {cell.printed}",
                 checked=f"{cand.label.row_label} {cell.header} {cell.printed}", regions=regions,
                 pages=(cell.box.page,) if cell.box else ())


def _operand_record(op: Operand) -> CalculationOperand:
    cell, cand = op.cell, op.candidate
    return CalculationOperand(
        name=op.name, row_label=cand.label.row_label, value=op.value, period=cell.period.label if cell.period else cell.header,
        unit="%" if cell.unit == "%" else cell.currency, printed=cell.printed, statement=cand.grid.statement,
        proposed_by_llm=op.proposed,
        cell=FigureCell(chunk_id=cand.chunk.chunk_id, row=cell.row, col=cell.col, page=cell.box.page if cell.box else None,
                        bbox=[round(v, 2) for v in (cell.box.x0, cell.box.y0, cell.box.x1, cell.box.y1)] if cell.box else None))
