"""The metric library: definitions read from `vera_core/data/metrics.md`, the one source the code and the
documentation share (a metric is added there, not here)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from vera_core.data import DATA_DIR

LIBRARY_FILE = DATA_DIR / "metrics.md"
UNITS = ("percent", "ratio", "days", "amount")


@dataclass(frozen=True)
class MetricDef:
    """One library metric."""

    key: str
    name: str
    aliases: tuple[str, ...]
    formula: str
    """Over line items, `+ - * /`, parentheses, `avg(x)` and `prior(x)`."""
    unit: str
    """percent, ratio, days or amount."""
    printed: bool = False
    """Companies print it themselves (a non-GAAP measure such as free cash flow): read where printed,
    computed only when the question defines it or no table prints it."""


@lru_cache(maxsize=1)
def library(path: Path = LIBRARY_FILE) -> tuple[MetricDef, ...]:
    """Every `### key` section of the library file, in order."""
    text = path.read_text(encoding="utf-8")
    out = []
    for block in re.split(r"^### ", text, flags=re.M)[1:]:
        key, _, body = block.partition("\n")
        fields = dict(re.findall(r"^- (\w+):\s*(.+?)\s*$", body, flags=re.M))
        missing = {"name", "aliases", "formula", "unit"} - set(fields)
        if missing or fields["unit"] not in UNITS:
            raise ValueError(f"{path}: metric {key.strip()!r} lacks {sorted(missing)} or has a bad unit")
        out.append(MetricDef(key.strip(), fields["name"], tuple(a.strip() for a in fields["aliases"].split(",")),
                             fields["formula"], fields["unit"], fields.get("printed", "").lower() == "yes"))
    return tuple(out)


def metric_named(question: str) -> MetricDef | None:
    """The library metric a question names: of overlapping aliases the one ending last, then the
    longest ("unadjusted EBITDA % margin" is the margin, not EBITDA)."""
    best: tuple[tuple[int, int], MetricDef] | None = None
    lowered = question.lower()
    for metric in library():
        for alias in metric.aliases:
            m = re.search(rf"(?<![\w-]){re.escape(alias.lower())}(?![\w-])", lowered)
            if m and (best is None or (m.end(), len(alias)) > best[0]):
                best = ((m.end(), len(alias)), metric)
    return best[1] if best else None
