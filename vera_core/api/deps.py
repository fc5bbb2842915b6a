"""What every route of the API shares: the store's state, who is asking, their view of the store, their question
engine, and a time limit on the work a request does. Routes take these as FastAPI dependencies."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.concurrency import run_in_threadpool

from vera_core.access.scope import scoped
from vera_core.ingest.desk import IngestDesk
from vera_core.query import QueryEngine
from vera_core.store.access import AccessError, AccessStore, Principal
from vera_core.store.jobs import JobQueue
from vera_core.workspace import Workspace

__all__ = ["ApiError", "ApiState", "Caller", "MIB", "State", "bearer", "not_found"]

MIB = 1024 * 1024
ENGINES = 64
"""Question engines kept, one per set of readable documents (the oldest goes first)."""


class ApiError(Exception):
    """An answer other than 200: its status, message and the request field at fault."""

    def __init__(self, status: int, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.field = status, message, field


def not_found(what: str) -> ApiError:
    return ApiError(404, f"No {what} here, or not one your token may read.")


def bearer(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None for any other (Basic, a bare token)."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


@dataclass
class ApiState:
    """One store as the API serves it."""

    ws: Workspace
    timeout_s: float
    access: AccessStore = field(init=False)
    desk: IngestDesk = field(init=False)
    queue: JobQueue = field(init=False)
    _engines: dict[frozenset | None, QueryEngine] = field(init=False, default_factory=dict)
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.access = AccessStore(self.ws.catalog)
        self.desk = IngestDesk(self.ws)
        self.queue = JobQueue(self.ws.catalog)

    @property
    def max_bytes(self) -> int:
        return int(self.ws.settings.max_file_mb * MIB)

    def view(self, who: Principal) -> Workspace:
        """The store as `who` may read it."""
        return scoped(self.ws, self.access.readable(who))

    def engine_for(self, who: Principal) -> QueryEngine:
        """The question engine over what `who` may read (shared by callers who read the same documents)."""
        readable = self.access.readable(who)
        with self._lock:
            engine = self._engines.get(readable)
            if engine is None:
                engine = self._engines[readable] = QueryEngine(scoped(self.ws, readable))
                if len(self._engines) > ENGINES:
                    self._engines.pop(next(iter(self._engines)))
        return engine

    async def bounded(self, call, *args):
        """`call(*args)` in a worker thread, cut off with 504 after `timeout_s` (a question writes nothing, an upload's
        job is queued in one transaction: nothing is left half written)."""
        try:
            return await asyncio.wait_for(run_in_threadpool(call, *args), timeout=self.timeout_s)
        except TimeoutError:
            raise ApiError(504, f"The request took longer than {self.timeout_s:g} s and was cut off; nothing was "
                                "written. Narrow it (filters.doc_ids) or ask again.") from None


def _state(request: Request) -> ApiState:
    return request.app.state.vera


State = Annotated[ApiState, Depends(_state)]


def _principal(state: State, authorization: Annotated[str | None, Header()] = None) -> Principal:
    try:
        return state.access.authenticate(bearer(authorization))
    except AccessError as exc:
        raise ApiError(401, str(exc), "Authorization") from None


Caller = Annotated[Principal, Depends(_principal)]
"""Who is asking: their token's user and collections (401 without a valid token on a store with users)."""
