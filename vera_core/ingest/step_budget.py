"""The budget of the work a worker does on one file in its own process, after the reading process has
parsed it: chunking, grids, facts and the keyword index. The same limits as reading
(`parse_timeout_s`, `parse_memory_mb`), checked between bounded steps: the chunker checks every few
dozen pieces, so that no single step reads more than a paragraph's worth. A file over budget raises
`ParseBudgetError` naming it and the fix; the caller removes what was half written and the queue goes on."""

from __future__ import annotations

import resource
import time

from vera_core.errors import ParseBudgetError

__all__ = ["StepBudget", "resident_mb"]


def resident_mb() -> float:
    """This process's resident memory now, in MiB (0 where /proc is not there)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * resource.getpagesize() / 2**20
    except OSError:
        return 0.0


class StepBudget:
    """Time left and memory allowed for one file's steps; `check()` between steps raises when either is spent."""

    def __init__(self, name: str, timeout_s: float, memory_mb: float) -> None:
        self.name = name
        self.timeout_s = timeout_s
        self.memory_mb = memory_mb
        self.deadline = time.monotonic() + timeout_s
        self.baseline_mb = resident_mb()

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            raise ParseBudgetError(
                f"{self.name!r} took longer than {self.timeout_s:g} s to read and index, so it was stopped and not "
                f"ingested. If it is a genuine document, split it, or raise VERA_PARSE_TIMEOUT_S.")
        if resident_mb() - self.baseline_mb > self.memory_mb:
            raise ParseBudgetError(
                f"Indexing {self.name!r} needed more than the {self.memory_mb:g} MiB allowed, so it was not "
                f"ingested. If it is a genuine document, split it, or raise VERA_PARSE_MEMORY_MB.")


