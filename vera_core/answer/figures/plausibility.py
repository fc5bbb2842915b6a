"""Never an absurd figure: a computed result is checked before it is stated.

A result VERA computes stands on its operands, so a wrong one comes from a misread: a formula that lost
its denominator, a per-share cell read as an amount, an operand in another scale, a sign read from a
dash. Each check below catches one of those by what the result is, not by which filing it came from:

- **Dimensions.** Every operand carries a dimension (an amount of money, money per share, a share count,
  a pure number for a percentage cell), and the formula combines them: a percent, ratio or days result
  must come out a pure number, an amount a sum of money. Adding a per-share figure to an amount, or a
  margin whose formula is an amount, is refused.
- **Stocks and flows.** A balance at a date is never added to a flow over a period (a cash-flow row read
  for a balance-sheet item); two balances added have one sign (a deduction row read for one is refused).
- **Bounds of the kind.** A margin or a part of revenue within +/-1000%, any percentage or growth within
  +/-10,000%, a ratio within +/-1000, days within 0..3,650, years within 0..1,000. Beyond them the operands are misread.
- **Scale.** A result in the scale of its operands: a ratio of two amounts is a pure number, never an
  amount (the dimension check), and its size is bounded by its kind. A misread scale of one operand (a
  thousandfold) is the figure gates' to catch (`gates.py`: a table without its own scale must agree with
  the same figure under an explicit legend).

A refusal names what failed; the operands read are cited, and no result is stated.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from vera_core.questions.expression import Avg, BinOp, Chg, Item, Node, Num

__all__ = ["Dim", "implausible"]

MARGIN_BOUND = 1000.0
"""A margin, a cost or spend as a share of revenue, a tax or payout rate: percent, either sign."""
PERCENT_BOUND = 10_000.0
"""Any other percentage or growth rate: percent, either sign (a hundredfold rise is +9,900%)."""
RATIO_BOUND = 1000.0
DAYS_BOUND = 3650.0
YEARS_BOUND = 1000.0
"""A number of years (how long a balance lasts at a rate of use) is never negative."""
_PART_OF_REVENUE = re.compile(r"\bmargin\b|\bas\s+a\s+(?:%|percent(?:age)?)\s+of\b|\b%\s+of\b|\bpercent(?:age)?\s+of\b|"
                              r"\b(?:tax|payout|retention)\s+(?:rate|ratio)\b", re.I)


@dataclass(frozen=True)
class Dim:
    """The dimension of a quantity: powers of money and of shares ((1, 0) an amount, (1, -1) per share,
    (0, 1) a share count, (0, 0) a pure number)."""

    money: float = 0.0
    shares: float = 0.0

    def __add__(self, other: Dim) -> Dim:
        return Dim(self.money + other.money, self.shares + other.shares)

    def __sub__(self, other: Dim) -> Dim:
        return Dim(self.money - other.money, self.shares - other.shares)


AMOUNT, PER_SHARE, SHARES, PURE = Dim(1, 0), Dim(1, -1), Dim(0, 1), Dim(0, 0)
_SHARE_COUNT = re.compile(r"\bshares?\b(?!.*\bper\b)|\bshare\s+count\b", re.I)


def _operand_dim(operand) -> Dim:
    cell = operand.cell
    if cell.unit == "%":
        return PURE
    if cell.unit == "per_share":
        return PER_SHARE
    label = operand.candidate.label.row_label if operand.candidate is not None else ""
    if _SHARE_COUNT.search(label) and not re.search(r"\$|\bamount|\bvalue|\bequity|\bcapital|\bdividend|\bcompensation",
                                                     label, re.I):
        return SHARES
    return AMOUNT


class _Mismatch(ValueError):
    pass


def _flow(operand) -> bool | None:
    """Whether an operand is a flow over a period (income, cash flow) rather than a stock at a date
    (balance sheet); None when its table is neither."""
    period = operand.cell.period
    if period is not None and period.kind == "instant":  # NOTE: a column dated "November 30, 2022": a balance
        return False
    if period is not None and period.kind in ("months", "fiscal_year", "quarter") or (period and period.months):
        return True
    statement = operand.candidate.grid.statement if operand.candidate is not None else ""
    return True if statement in ("income", "cash_flow") else False if statement == "balance" else None


def _bind(node: Node, operands: Sequence) -> dict[int, tuple]:
    """Each leaf of the formula (an item, an average, a change; by `id`) with the operands `evaluate` read
    for it, in its reading order (left first; an average or a change reads two)."""
    queue = list(operands)
    bound: dict[int, tuple] = {}

    def walk(n: Node) -> None:
        if isinstance(n, Item):
            bound[id(n)] = tuple(queue[:1])
            del queue[:1]
        elif isinstance(n, (Avg, Chg)):
            bound[id(n)] = tuple(queue[:2])
            del queue[:2]
        elif isinstance(n, BinOp):
            walk(n.left)
            walk(n.right)

    walk(node)
    return bound


def stocks_and_flows(node: Node, operands: Sequence) -> str:
    """Why a formula adds or subtracts a balance at a date and a flow over a period (a cash-flow row read
    for a balance-sheet item: "repayments of long-term borrowings" for long-term borrowings), '' when it
    does not. Ratios of the two (returns, turnovers) are fine."""
    bound = _bind(node, operands)

    def walk(n: Node) -> bool | None | str:
        if isinstance(n, Num):
            return None
        if not isinstance(n, BinOp):
            read = bound.get(id(n), ())
            if isinstance(n, Chg):
                return True  # NOTE: a balance's change over a year is a flow
            return _flow(read[0]) if read else None
        left, right = walk(n.left), walk(n.right)
        if isinstance(left, str):
            return left
        if isinstance(right, str):
            return right
        if n.op in "+-":
            if left is not None and right is not None and left != right:
                return "it adds or subtracts a balance at a date and a flow over a period"
            return left if left is not None else right
        return None

    found = walk(node)
    return found if isinstance(found, str) else ""


def negative_in_sum(node: Node, operands: Sequence) -> str:
    """Why a sum of two items is not to be trusted: one of them, not a flow, was read negative while the
    other is positive (a deduction row, "less current portion" or a repayment, read for a balance that
    is added), '' otherwise."""
    bound = _bind(node, operands)

    def walk(n: Node):
        if isinstance(n, (Num, Chg)):  # NOTE: a change may be negative
            return None
        if not isinstance(n, BinOp):
            read = bound.get(id(n), ())
            return read[0] if read else None
        left, right = walk(n.left), walk(n.right)
        if n.op == "+" and left is not None and right is not None and not isinstance(left, str) \
                and not isinstance(right, str):
            signs = (left.value < 0, right.value < 0)
            if signs[0] != signs[1]:
                negative = left if signs[0] else right
                if _flow(negative) is not True:
                    return f"{negative.name} was read negative ({negative.cell.printed}) in a sum of amounts"
        for side in (left, right):
            if isinstance(side, str):
                return side
        return None

    found = walk(node)
    return found if isinstance(found, str) else ""


def dimension(node: Node, operands: Sequence) -> Dim:
    """The dimension of a formula whose operands were read in `evaluate`'s order. Raises `_Mismatch`
    when it adds or subtracts quantities of different dimensions."""
    bound = _bind(node, operands)

    def walk(n: Node) -> Dim:
        if isinstance(n, Num):
            return PURE
        if not isinstance(n, BinOp):
            read = bound.get(id(n), ())
            return _operand_dim(read[0]) if read else AMOUNT
        left, right = walk(n.left), walk(n.right)
        if n.op in "+-":
            if isinstance(n.left, Num) and n.left.value == 0 or isinstance(n.right, Num):
                return left if not isinstance(n.left, Num) else right
            if left != right:
                raise _Mismatch(f"it adds or subtracts {_words(left)} and {_words(right)}")
            return left
        return left + right if n.op == "*" else left - right

    return walk(node)


def _words(dim: Dim) -> str:
    return {AMOUNT: "an amount", PER_SHARE: "a per-share figure", SHARES: "a share count", PURE: "a ratio"}.get(
        dim, "mixed units")


def implausible(name: str, unit: str, over: str, tree: Node, results: Sequence[tuple[str, float, Sequence]],
                final: float | None = None) -> str | None:
    """Why a computed metric is not to be stated, or None when it is plausible. `results` are the
    per-period (period words, value as shown, operands); `final` the aggregate (a mean, growth or change)
    when the metric is taken over several periods."""
    for period, value, operands in results:
        if not math.isfinite(value):
            return f"the result for {period} is not a finite number"
        try:
            dim = dimension(tree, operands)
        except _Mismatch as exc:
            return f"the formula read for {name} is not consistent: {exc}"
        mixed = stocks_and_flows(tree, operands) or negative_in_sum(tree, operands) or one_cell_twice(operands)
        if mixed:
            return f"the formula read for {name} is not consistent: {mixed}"
        if unit in ("percent", "ratio", "days", "years") and over != "growth" and dim != PURE:
            return (f"{name} is a {unit}, but the formula read gives {_words(dim)} (a part of the definition, such "
                    f"as its denominator, was not read)")
        if unit == "amount" and dim not in (AMOUNT, PER_SHARE) and over != "growth":
            return f"{name} is an amount, but the formula read gives {_words(dim)}"
        why = _out_of_bounds(name, unit, value, over)
        if why and over != "growth":
            return f"{name} for {period} would be {why}"
    if final is not None and over in ("mean", "growth", "change"):
        why = _out_of_bounds(name, "percent" if over == "growth" else unit, final, over)
        if why:
            return f"{name} would be {why}"
    return None


def one_cell_twice(operands: Sequence) -> str:
    """Two different items of the formula read from one cell (a segment's revenue row read for its operating
    income too): the result would be 100% or 0 whatever the filing says."""
    seen: dict[tuple, str] = {}
    for operand in operands:
        if operand.candidate is None:
            continue
        key = (operand.candidate.chunk.chunk_id, operand.cell.row, operand.cell.col)
        name = operand.name.lower()
        if key in seen and seen[key] != name:
            return f"{seen[key]} and {name} were read from the same cell"
        seen.setdefault(key, name)
    return ""


def _out_of_bounds(name: str, unit: str, value: float, over: str) -> str:
    if unit == "percent":
        bound = MARGIN_BOUND if _PART_OF_REVENUE.search(name) and over != "growth" else PERCENT_BOUND
        if abs(value) > bound:
            return f"{value:,.1f}%, beyond the +/-{bound:,.0f}% a {_kind(name, over)} can plausibly reach"
    elif unit == "ratio" and abs(value) > RATIO_BOUND:
        return f"{value:,.2f}, beyond the +/-{RATIO_BOUND:,.0f} a ratio can plausibly reach"
    elif unit == "days" and not 0 <= value <= DAYS_BOUND:
        return f"{value:,.1f} days, outside 0 to {DAYS_BOUND:,.0f}"
    elif unit == "years" and not 0 <= value <= YEARS_BOUND:
        return f"{value:,.1f} years, outside 0 to {YEARS_BOUND:,.0f}"
    return ""


def _kind(name: str, over: str) -> str:
    return "growth rate" if over == "growth" else "margin or share" if _PART_OF_REVENUE.search(name) else "percentage"
