"""Worker processes that start clean: spawned, and never re-running the parent's `__main__` script.

A spawned child first re-runs the file of the parent's `__main__` module (as `__mp_main__`) so that
functions defined there can be unpickled. Under Streamlit, and after an AppTest in a test run,
`__main__` is the app script: every worker would start the app and load the bundled samples into
the store (seen in CI: two workers ingesting at once broke the pool). VERA's workers run functions
of `vera_core` only, so the child is told there is no main script to re-run.
"""

from __future__ import annotations

import sys
import threading
import types
from multiprocessing.context import SpawnContext, SpawnProcess

_swap = threading.Lock()


class _CleanSpawnProcess(SpawnProcess):
    @staticmethod
    def _Popen(process_obj):
        # NOTE: spawn reads sys.modules["__main__"] synchronously while launching the child
        with _swap:
            main = sys.modules["__main__"]
            sys.modules["__main__"] = types.ModuleType("__main__")
            try:
                return SpawnProcess._Popen(process_obj)
            finally:
                sys.modules["__main__"] = main


class CleanSpawnContext(SpawnContext):
    """The spawn start method, minus re-running the parent's main script in each child."""

    Process = _CleanSpawnProcess


def worker_context() -> CleanSpawnContext:
    """The multiprocessing context for VERA's process pools (fork after torch/Chroma threads can
    deadlock, hence spawn)."""
    return CleanSpawnContext()


__all__ = ["CleanSpawnContext", "worker_context"]
