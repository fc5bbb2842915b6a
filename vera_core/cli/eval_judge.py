"""Judging one answer against a question's gold, for question files that carry typed golds (`gold`,
`gold_unit`, `accept`, `verdict`, `expect`; see data/dev2/README.md): correct, wrong-stated or
abstained, and the per-template table `vera eval` prints."""

from __future__ import annotations

import re
from collections import defaultdict

from vera_core.cli.eval_calls import CALL_KINDS, judge_call
from vera_core.answer.contract import Answer

__all__ = ["VERDICT_KIND", "judge", "per_template", "stated"]

TOLERANCE = 0.01
"""A stated figure matches a gold within 1% of the larger (analysts round), or within ABS_POINTS."""
ABS_POINTS = 0.05
"""Percentages, ratios and days also match within this absolute difference (one rounded decimal)."""
VERDICT_KIND = "verdict"
Outcome = str
"""`correct`, `wrong` (a figure or verdict stated that is not the gold) or `abstained`."""


def stated(answer: Answer) -> list[tuple[float, str]]:
    """What the answer states as its answer, signed, with its unit: each cell figure in units
    (`usd`, `usd_per_share`, `percent`, `number` when no currency is printed) and the calculation's result(s) (`percent`, `ratio`, `days`,
    `usd`)."""
    out: list[tuple[float, str]] = []
    for f in answer.figures:
        # NOTE: a figure printed with no currency is a number: an amount in a table that states none, or a count
        unit = "percent" if f.unit == "%" else "usd" if f.unit else "number"
        out.append((f.value * (1.0 if unit == "percent" else f.scale), unit))
    calc = answer.calculation
    if calc is not None and calc.result is not None:
        unit = {"amount": "usd"}.get(calc.unit, calc.unit)
        if calc.unit == "amount" and calc.operands and not any(o.unit for o in calc.operands):
            unit = "number"  # NOTE: a change in a count (headcount, shares) read from cells that print no currency
        yearly = calc.results if calc.direction else []  # an aggregate states its `result`, not its yearly values
        out += [(r.result, unit) for r in yearly] or [(calc.result, unit)]
        if calc.direction and len(yearly) > 1:  # a direction answer also states the change
            out.append((yearly[-1].result - yearly[0].result, unit))
    return out


def _matches(value: float, gold: float, unit: str) -> bool:
    if value == gold:
        return True
    close = abs(value - gold) <= TOLERANCE * max(abs(value), abs(gold))
    return close or (unit in ("percent", "ratio", "times", "days", "years") and abs(value - gold) <= ABS_POINTS)


_SAME_UNIT = ({"usd", "usd_per_share"}, {"ratio", "times"})
"""Units a gold and a stated figure may differ in by name only (a coverage ratio is "times")."""


def _units_agree(stated_unit: str, gold_unit: str) -> bool:
    if stated_unit == "number":
        return gold_unit in ("usd", "usd_per_share", "count", "number", "shares")  # NOTE: a count of shares is a number
    return stated_unit == gold_unit or any({stated_unit, gold_unit} <= same for same in _SAME_UNIT)


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def judge(question: dict, answer: Answer) -> Outcome:
    """Correct, wrong or abstained. An abstention is correct where the question expects one (the
    filing does not print what it asks); a verdict is judged on `answer.verdict`, a figure or metric
    on the values the answer states; a question about a call, a release's people or a deck's slide as
    `eval_calls` judges it."""
    if question.get("kind") in CALL_KINDS:
        return judge_call(question, answer)  # type: ignore[return-value]
    if question.get("kind") == VERDICT_KIND:
        given = answer.verdict.value if answer.verdict is not None else None
        if question.get("verdict") == "withheld":
            return "correct" if given is None else "wrong"
        if given is None:
            return "abstained"
        want, got = _norm(question["verdict"]), _norm(given)
        return "correct" if want == got or (want not in ("yes", "no") and (want in got or got in want)) else "wrong"
    values = stated(answer)
    if question.get("expect") == "abstain":
        return "wrong" if values else "correct"
    if not values:
        return "abstained"
    scale = float(question.get("gold_scale") or 1.0)
    golds = [g * scale for g in [question["gold"], *question.get("accept", [])] if g is not None]
    unit = question.get("gold_unit", "usd")
    ok = any(_units_agree(u, unit) and _matches(v, g, unit) for v, u in values for g in golds)
    return "correct" if ok else "wrong"


def per_template(rows: list[dict]) -> dict[str, dict[str, int]]:
    """{template: {questions, correct, wrong, abstained}} over judged rows (`template`, `outcome`)."""
    table: dict[str, dict[str, int]] = defaultdict(lambda: {"questions": 0, "correct": 0, "wrong": 0, "abstained": 0})
    for row in rows:
        entry = table[row["template"]]
        entry["questions"] += 1
        entry[row["outcome"]] += 1
    return dict(sorted(table.items()))
