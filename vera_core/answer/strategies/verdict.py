"""Verdicts over figures (issue 18): a yes/no or which-one question answered by VERA's comparison of
gated figures, led by the verdict, then the figures, each cited. When a figure cannot be stated (not
printed, or refused by a gate) the verdict is withheld and the answer says why."""

from __future__ import annotations

from dataclasses import replace

from vera_core.answer.compose import Piece
from vera_core.answer.contract import PeriodResult, Verdict
from vera_core.answer.figures.cells import CellFinder
from vera_core.answer.figures.metric_answer import metric_evidence
from vera_core.answer.figures.segments import SegmentFigure, segment_figures
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.strategies.search import company_of, search, tables_in_scope
from vera_core.questions.spans import shifted
from vera_core.questions.verdict import VerdictRequest, read_verdict
from vera_core.retrieve import iterative
from vera_core.finance.line_items import label_terms
from vera_core.finance.money import money

__all__ = ["SEARCH_TOP_K", "gather"]

SEARCH_TOP_K = 12
"""Chunks one search returns for a verdict (they rank the tables and choose the documents)."""
_TESTS = {"up": ("rose", "did not rise"), "down": ("fell", "did not fall"), "changed": ("changed", "did not change"),
          "positive": ("is positive", "is not positive"), "negative": ("is negative", "is not negative"),
          "above": ("was above", "was not above"), "below": ("was below", "was not below")}


def gather(plan: Plan, services: Services) -> Evidence:
    """The verdict asked, computed from the figures of the documents in scope (else the top hits')."""
    request = plan.request if isinstance(plan.request, VerdictRequest) else read_verdict(plan.question)
    with services.clock.stage("retrieve"):
        hits = search(plan, services, plan.query, top_k=max(plan.top_k, SEARCH_TOP_K))
    searched = Evidence(hits=tuple(hits), hops=1, coverage=iterative.coverage(plan.query, [h.chunk for h in hits]))
    if request is None:  # the router said verdict; a question that no longer reads is no answer
        return replace(searched, empty_message="The verdict asked could not be read from the question.")
    if request.unclear:
        return replace(searched, empty_message=f"No verdict is given: {request.unclear}.", unanswerable=True,
                       verdict=Verdict(basis=request.basis, withheld=request.unclear))
    with services.clock.stage("synthesize"):
        tables = tables_in_scope(plan, services, hits)
        if request.kind == "which":
            return _which(request, CellFinder(tables.grids, tables.chunks, tables.hit_rank), searched)
        result = metric_evidence(request.plan, tables.grids, tables.chunks, tables.hit_rank, services.doc_names(),
                                 company=company_of(services, tables.grids))
    if result.missing:
        why = f"No verdict is given: {result.missing}"
        return replace(searched, calculation=result.calculation, empty_message=why, unanswerable=True,
                       verdict=Verdict(basis=request.basis, withheld=result.missing))
    value, lead = _judged(request, result.calculation)
    if request.also is not None:  # NOTE: two movements asked together: yes only when both hold
        return _both(request, result, value, lead, tables, services, searched)
    return replace(searched, pieces=tuple(result.pieces), calculation=result.calculation, lead=f"{lead} {result.lead}",
                   verdict=Verdict(value=value, basis=request.basis), notices=tuple(result.notices))


def _both(request: VerdictRequest, first, value: str, lead: str, tables, services: Services, searched: Evidence) -> Evidence:
    """The verdict on two movements ("did EPS fall while long-term debt went up?"): each computed from its own cited
    figures; yes when both hold, withheld when either cannot be computed."""
    second = metric_evidence(request.also.plan, tables.grids, tables.chunks, tables.hit_rank, services.doc_names(),
                             company=company_of(services, tables.grids))
    if second.missing:
        return replace(searched, calculation=first.calculation, empty_message=f"No verdict is given: {second.missing}",
                       unanswerable=True, verdict=Verdict(basis=request.basis, withheld=second.missing))
    other_value, other_lead = _judged(request.also, second.calculation)
    yes = value == "yes" and other_value == "yes"
    summary = "Yes: both hold." if yes else "No: not both hold."
    return replace(searched, pieces=tuple(first.pieces) + tuple(second.pieces), calculation=first.calculation,
                   lead=f"{summary} {lead} {other_lead} {first.lead} {second.lead}".strip(),
                   verdict=Verdict(value="yes" if yes else "no", basis=request.basis),
                   notices=tuple(first.notices) + tuple(second.notices))


def _judged(request: VerdictRequest, calc) -> tuple[str, str]:
    """("yes"/"no", the lead sentence) from the computed figures."""
    if request.comparison is not None:
        return _measured(request, calc)
    yes_words, no_words = _TESTS[request.test]
    if request.kind == "sign" and len(calc.results) > 1:  # every year of the span
        signs = [(r, r.result > 0 if request.test == "positive" else r.result < 0) for r in calc.results]
        yes = all(ok for _, ok in signs)
        path = ", ".join(f"{r.period} {r.rounded}" for r, _ in signs)
        broken = next((f" (not in {r.period})" for r, ok in signs if not ok), "")
        return ("yes" if yes else "no"), (f"{'Yes' if yes else 'No'}: {request.plan.name} "
                                          f"{yes_words if yes else no_words} in every year{broken}: {path}.")
    if request.kind == "sign":
        value = calc.result
        yes = value > 0 if request.test == "positive" else value < 0
        return ("yes" if yes else "no"), f"{'Yes' if yes else 'No'}: {request.plan.name} {yes_words if yes else no_words} " \
                                         f"({calc.rounded}, {calc.period})."
    first, last = calc.results[0], calc.results[-1]
    if request.every and len(calc.results) > 2:  # every year against the one before it
        steps = list(zip(calc.results, calc.results[1:]))
        held = [_holds(request.test, a.result, b.result) for a, b in steps]
        yes = all(held)
        path = ", ".join(f"{r.period} {r.rounded}" for r in calc.results)
        broken = next((f" (not from {a.period} to {b.period})" for (a, b), ok in zip(steps, held) if not ok), "")
        return ("yes" if yes else "no"), (f"{'Yes' if yes else 'No'}: {request.plan.name} "
                                          f"{yes_words if yes else no_words} every year{broken}: {path}.")
    yes = _holds(request.test, first.result, last.result)
    return ("yes" if yes else "no"), (f"{'Yes' if yes else 'No'}: {request.plan.name} {yes_words if yes else no_words} "
                                      f"from {first.period} ({first.rounded}) to {last.period} ({last.rounded}).")


def _measured(request: VerdictRequest, calc) -> tuple[str, str]:
    """A threshold (the measure against the yardstick) or a pair (A - B against zero), at each period
    computed: yes only when every period passes; the lead names the period that fails."""
    comparison = request.comparison
    yardstick = comparison.threshold if request.kind == "threshold" else 0.0
    # NOTE: a growth or mean over years states one result; its yearly values are its operands, not what is held
    # against the yardstick
    whole = request.plan is not None and request.plan.over != "at"
    results = ([] if whole else calc.results) or [PeriodResult(period=calc.period, result=calc.result,
                                                                rounded=calc.rounded or "")]
    passed = [(r, _passes(r.result, yardstick, comparison.above, comparison.inclusive)) for r in results]
    yes = all(ok for _, ok in passed)
    failed = next((r for r, ok in passed if not ok), None)
    when = f" (not in {failed.period})" if failed is not None and len(passed) > 1 else ""
    if request.kind == "threshold":
        path = ", ".join(f"{r.period} {r.rounded}" for r in results)
        return ("yes" if yes else "no"), (f"{'Yes' if yes else 'No'}: {request.plan.name} was "
                                          f"{'' if yes else 'not '}{comparison.words}{when}: {path}.")
    side = ("at least as large as" if comparison.above else "at most") if comparison.inclusive else \
        ("larger than" if comparison.above else "smaller than")
    path = "; ".join(f"{r.period}: {comparison.measure} minus {comparison.other} = {r.rounded}" for r in results)
    return ("yes" if yes else "no"), (f"{'Yes' if yes else 'No'}: {comparison.measure} was {'' if yes else 'not '}"
                                      f"{side} {comparison.other}{when}. {path}.")


def _passes(value: float, yardstick: float, above: bool, inclusive: bool) -> bool:
    if inclusive:
        return value >= yardstick if above else value <= yardstick
    return value > yardstick if above else value < yardstick


def _holds(test: str, before: float, after: float) -> bool:
    return {"up": after > before, "down": after < before, "changed": after != before}[test]


def _which(request: VerdictRequest, finder: CellFinder, searched: Evidence) -> Evidence:
    if request.growth:
        return _fastest(request, finder, searched)
    if request.ratio is not None:
        return _by_ratio(request, finder, searched)
    figures = segment_figures(request.measure, request.period, finder)
    if not figures:
        period = f" for {request.period.label}" if request.period else ""
        why = (f"No table in scope prints {request.measure} for two or more segments{period}, so no segment can be "
               f"named.")
        return replace(searched, empty_message=f"No verdict is given: {why}", unanswerable=True,
                       verdict=Verdict(basis=request.basis, withheld=why))
    ordered = sorted(figures, key=lambda f: f.cell.value * f.cell.scale, reverse=request.test == "highest")
    best = ordered[0]
    period = best.cell.period.label if best.cell.period else best.cell.header
    others = ", ".join(f"{f.name} {_amount(f)}" for f in ordered[1:])
    lead = (f"{best.name}: it had the {request.test} {request.measure} of the {len(ordered)} segments, {period}, "
            f"{_amount(best)}" + (f" (then {others})." if others else "."))
    return replace(searched, pieces=tuple(_piece(f, request.measure) for f in ordered), lead=lead,
                   verdict=Verdict(value=best.name, basis=request.basis))


def _fastest(request: VerdictRequest, finder: CellFinder, searched: Evidence) -> Evidence:
    """The segment whose measure grew most (or least) from the earlier period to the later: each segment's
    figure at both, from the segment tables, each cited; withheld unless two segments print both and every segment
    listed is found."""
    if not request.among:
        why = ("the question names no segments to choose from, and VERA ranks growth only among the segments a "
               "question lists (a table of products or yields can read as segments)")
        return replace(searched, empty_message=f"No verdict is given: {why}.", unanswerable=True,
                       verdict=Verdict(basis=request.basis, withheld=why))
    listed = lambda name: _listed(name, request.among)  # noqa: E731
    now = segment_figures(request.measure, request.period, finder, listed)
    latest = next((f.cell.period for f in now if f.cell.period is not None), None)
    before_period = request.since or (shifted(latest, 1) if latest is not None else None)
    before = {f.name: f for f in segment_figures(request.measure, before_period, finder, listed)} if before_period else {}
    paired = [(f, before[f.name]) for f in now if f.name in before and before[f.name].cell.value
              and before[f.name].cell.value > 0 and before[f.name].cell is not f.cell]
    if len(paired) < 2:
        why = (f"No table in scope prints {request.measure} for two or more segments in both periods compared, so no "
               f"segment's growth can be ranked.")
        return replace(searched, empty_message=f"No verdict is given: {why}", unanswerable=True,
                       verdict=Verdict(basis=request.basis, withheld=why))
    # NOTE: "americas, europe or APAC": a ranking without one of the segments listed would name the wrong one
    unfound = [name for name in request.among if not any(_listed(f.name, (name,)) for f, _ in paired)]
    if unfound:
        why = (f"No table in scope prints {request.measure} in both periods compared for {' or '.join(unfound)}, one of "
               f"the segments listed (found: {', '.join(f.name for f, _ in paired)}), so the segments cannot be ranked.")
        return replace(searched, empty_message=f"No verdict is given: {why}", unanswerable=True,
                       verdict=Verdict(basis=request.basis, withheld=why))
    growth = [(f, b, (f.cell.value * f.cell.scale) / (b.cell.value * b.cell.scale) - 1) for f, b in paired]
    growth.sort(key=lambda x: x[2], reverse=request.test == "highest")
    best, best_before, rate = growth[0]
    then = best_before.cell.period.label if best_before.cell.period else best_before.cell.header
    when = best.cell.period.label if best.cell.period else best.cell.header
    others = ", ".join(f"{f.name} {g * 100:+.1f}%" for f, _, g in growth[1:])
    word = "fastest" if request.test == "highest" else "slowest"
    lead = (f"{best.name}: its {request.measure} grew {word} of the {len(growth)} segments, {rate * 100:+.1f}% "
            f"({_amount(best_before)} in {then} to {_amount(best)} in {when})" + (f"; then {others}." if others else "."))
    pieces = tuple(p for f, b, _ in growth for p in (_piece(b, request.measure), _piece(f, request.measure)))
    return replace(searched, pieces=pieces, lead=lead, verdict=Verdict(value=best.name, basis=request.basis))


def _by_ratio(request: VerdictRequest, finder: CellFinder, searched: Evidence) -> Evidence:
    """The listed segment with the highest (or lowest) ratio, each segment's numerator over its own denominator at the
    period asked, every figure cited; withheld unless two listed segments print both and every listed segment found
    on one side is found on the other (a ranking without one of them would name the wrong one)."""
    listed = lambda name: _listed(name, request.among)  # noqa: E731
    numerator, denominator = request.ratio
    sides = [segment_figures(measure, request.period, finder, listed) for measure in (numerator, denominator)]
    index = [{_which_listed(f.name, request.among): f for f in side} for side in sides]
    keys = set(index[0]) | set(index[1])
    paired = [(index[0][k], index[1][k]) for k in keys if k is not None and k in index[0] and k in index[1]
              and index[1][k].cell.value and index[0][k].cell is not index[1][k].cell
              and index[0][k].cell.period == index[1][k].cell.period]
    if len(paired) < 2 or len(paired) < len(keys - {None}):
        why = (f"No table in scope prints both {numerator} and {denominator} for each segment listed at the period asked, "
               f"so no segment's {request.measure} can be ranked.")
        return replace(searched, empty_message=f"No verdict is given: {why}", unanswerable=True,
                       verdict=Verdict(basis=request.basis, withheld=why))
    ratios = [(a, b, (a.cell.value * a.cell.scale) / (b.cell.value * b.cell.scale)) for a, b in paired]
    ratios.sort(key=lambda x: x[2], reverse=request.test == "highest")
    best, best_base, value = ratios[0]
    when = best.cell.period.label if best.cell.period else best.cell.header
    others = ", ".join(f"{a.name} {r * 100:.1f}%" for a, _, r in ratios[1:])
    lead = (f"{best.name}: it had the {request.test} {request.measure} of the {len(ratios)} segments, {when}: "
            f"{value * 100:.1f}% ({_amount(best)} / {_amount(best_base)}; {numerator} over {denominator})"
            + (f"; then {others}." if others else "."))
    pieces = tuple(p for a, b, _ in ratios for p in (_piece(a, numerator), _piece(b, denominator)))
    return replace(searched, pieces=pieces, lead=lead, verdict=Verdict(value=best.name, basis=request.basis))


def _which_listed(name: str, among: tuple[str, ...]) -> int | None:
    """The position of the listed segment a row names, or None."""
    return next((i for i, listed in enumerate(among) if _listed(name, (listed,))), None)


def _listed(name: str, among: tuple[str, ...]) -> bool:
    """Whether a segment row is one the question lists (every word of a listed name, or all of the row's)."""
    row = label_terms(name)
    return any(label_terms(n) and (label_terms(n) <= row or row <= label_terms(n)) for n in among)


def _amount(figure: SegmentFigure) -> str:
    cell = figure.cell
    return money(cell.value, cell.currency, cell.scale, 0 if float(cell.value).is_integer() else 1)


def _piece(figure: SegmentFigure, measure: str) -> Piece:
    cand, cell = figure.candidate, figure.cell
    regions = tuple(r for r in (cand.label.box, cell.box) if r is not None)
    period = cell.period.label if cell.period else cell.header
    return Piece(f"{figure.name}, {measure}, {period}: {cell.printed} ({cand.grid.title[:60] or 'segment table'}).",
                 cand.chunk, f"{cand.label.row_label} | {cell.header}: {cell.printed}",
                 checked=f"{cand.label.row_label} {cell.header} {cell.printed}", regions=regions,
                 pages=(cell.box.page,) if cell.box else ())
