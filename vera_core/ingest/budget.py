"""Reading a file under a time and memory budget: the parse runs in a reading process of its own
(spawned clean, reused from file to file), limited to `parse_memory_mb` above what it holds at start
and waited on for at most `parse_timeout_s`. A file that exceeds either is refused with a
`ParseBudgetError` naming it and the fix; the reading process is then replaced, and the worker and
every other file go on. One hostile file (a YAML "billion laughs", a PDF built to make the parser
spin) costs the queue at most its budget, never the machine.

A light module on purpose: the reading process imports the parsers only (no llama-index, no torch)."""

from __future__ import annotations

import logging
import os
import resource
import time
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from vera_core.errors import ParseBudgetError, VeraError
from vera_core.processes import worker_context

if TYPE_CHECKING:
    from vera_core.ingest.source import SourceFile
    from vera_core.records import ParsedDocument

__all__ = ["ParseBudget", "parse_source"]

log = logging.getLogger("vera.parse")
START_TIMEOUT_S = 60.0
"""How long a new reading process may take to import the parsers and say it is ready."""


def parse_source(source: SourceFile) -> ParsedDocument:
    """Parse an already validated file with the parser for its format (in this process, no budget)."""
    from vera_core.ingest.markdown import parse_markdown
    from vera_core.ingest.pdf import parse_pdf
    return parse_pdf(source) if source.format == "pdf" else parse_markdown(source)


class ParseBudget:
    """One reading process with a time and memory budget; `parse` is called from one thread at a time."""

    def __init__(self, timeout_s: float, memory_mb: int) -> None:
        self.timeout_s = timeout_s
        self.memory_mb = memory_mb
        self._process = None
        self._conn: Connection | None = None
        self._deadline = 0.0

    def parse(self, source: SourceFile) -> ParsedDocument:
        """The parsed file; raises the parser's `VeraError` for a bad file, `ParseBudgetError` when it
        takes longer than the budget or more memory (or the reading process dies)."""
        self.submit(source)
        return self.result(source)

    def submit(self, source: SourceFile) -> None:
        """Hand a file to the reading process (collect it with `result`)."""
        self._ready().send(source)
        self._deadline = time.monotonic() + self.timeout_s

    def result(self, source: SourceFile) -> ParsedDocument:
        """The file handed over last, parsed, or the error that refuses it (see `parse`)."""
        conn = self._conn
        if conn is None or not conn.poll(max(0.0, self._deadline - time.monotonic())):
            self.close()
            raise ParseBudgetError(
                f"{source.name!r} took longer than {self.timeout_s:g} s to read, so it was stopped and not "
                f"ingested. If it is a genuine document, split it, or raise VERA_PARSE_TIMEOUT_S.")
        try:
            result = conn.recv()
        except (EOFError, OSError):
            self.close()
            raise ParseBudgetError(
                f"Reading {source.name!r} stopped the reading process (it used more than "
                f"{self.memory_mb} MiB, or crashed), so it was not ingested. If it is a genuine document, "
                f"split it, or raise VERA_PARSE_MEMORY_MB.") from None
        if isinstance(result, _OutOfMemory):
            self.close()
            raise ParseBudgetError(
                f"Reading {source.name!r} needed more than the {self.memory_mb} MiB allowed, so it was not "
                f"ingested. If it is a genuine document, split it, or raise VERA_PARSE_MEMORY_MB.")
        if isinstance(result, BaseException):
            raise result
        return result

    def close(self) -> None:
        """Stop the reading process (the next `parse` starts a new one)."""
        process, self._process = self._process, None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if process is not None and process.is_alive():
            process.kill()
        if process is not None:
            process.join(timeout=5)

    def _ready(self) -> Connection:
        if self._process is not None and self._process.is_alive() and self._conn is not None:
            return self._conn
        self.close()
        ctx = worker_context()
        ours, theirs = ctx.Pipe()
        process = ctx.Process(target=_serve, args=(theirs, self.memory_mb), daemon=True, name="vera-parse")
        process.start()
        theirs.close()
        if not ours.poll(START_TIMEOUT_S) or ours.recv() != "ready":
            process.kill()
            raise VeraError("The reading process did not start; check the installation (`make test`).")
        self._process, self._conn = process, ours
        return ours

    def __del__(self) -> None:  # pragma: no cover - best effort at interpreter exit
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass


class _OutOfMemory:
    """Sent back when a parse raised MemoryError (the process then exits: its heap may be torn)."""


def _serve(conn: Connection, memory_mb: int) -> None:
    """The reading process: import the parsers, fix the memory limit, then parse what arrives.

    It never returns through the interpreter's shutdown: near its memory limit even printing a
    traceback raises MemoryError again, and a process stuck on its way out holds the pipe open
    until the parent's time budget runs out. So every way out is `os._exit`, and the reply to a
    MemoryError is pickled before the limit is set (sending it needs no new memory)."""
    import pickle

    out_of_memory = pickle.dumps(_OutOfMemory())
    try:
        from vera_core.ingest.markdown import parse_markdown  # noqa: F401 - imported before the limit
        from vera_core.ingest.pdf import parse_pdf  # noqa: F401
        _limit_memory(memory_mb)
        conn.send("ready")
        while True:
            reply = _parse_one(conn)
            if reply is None:
                conn.send_bytes(out_of_memory)
                break
            conn.send(reply)
    except MemoryError:  # pickling a reply: the parse's garbage is gone, the reply is small
        try:
            conn.send_bytes(out_of_memory)
        except BaseException:  # noqa: BLE001 - the parent then reads a closed pipe
            pass
    except (EOFError, OSError, KeyboardInterrupt):  # the parent went away or stopped us
        pass
    os._exit(0)


def _parse_one(conn: Connection) -> object | None:
    """The reply to the next file (its parse or its error), or None when the parse ran out of memory.

    The MemoryError is dropped before anything is sent: its traceback holds the parse's frames."""
    source = conn.recv()
    try:
        return parse_source(source)
    except MemoryError:
        pass
    except VeraError as exc:
        return exc
    except Exception as exc:  # noqa: BLE001 - a parser bug on one file must not stop the queue
        return VeraError(f"{source.name!r} could not be read: {type(exc).__name__}: {exc}")
    return None


def _limit_memory(memory_mb: int) -> None:
    """Address space capped at what the process maps now plus `memory_mb`."""
    try:
        with open("/proc/self/statm") as statm:
            mapped = int(statm.read().split()[0]) * resource.getpagesize()
    except OSError:  # not Linux: no baseline to add to
        mapped = 0
    limit = mapped + memory_mb * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
