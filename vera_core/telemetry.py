"""Traces and logs: an OpenTelemetry span around each operation (ingestion per document and stage,
each question and its phases, each API request) with VERA's attributes (`vera.operation`,
`vera.document_id`, `vera.document_format`, `vera.grounding_score`, `vera.phase`,
`vera.document_count`), and structured logs with a JSON option.

Exporters: none by default (spans cost a few microseconds and go nowhere), `console`, or `otlp` (gRPC
to `OTEL_EXPORTER_OTLP_ENDPOINT`), set by `VERA_TRACE_EXPORTER`. Tests install their own provider
with an in-memory exporter."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from opentelemetry import trace

TRACER_NAME = "vera"
_configured = False


def tracer() -> trace.Tracer:
    return trace.get_tracer(TRACER_NAME)


@contextmanager
def span(name: str, attributes: Mapping[str, Any] | None = None) -> Iterator[trace.Span]:
    """A span named `name` with `attributes` (None values left out); its status is ERROR when the block
    raises (the exception is recorded and raised on)."""
    with tracer().start_as_current_span(name, attributes={k: v for k, v in (attributes or {}).items()
                                                          if v is not None}) as current:
        yield current


def configure(exporter: str) -> None:
    """Install the process's tracer provider once: `none`, `console` or `otlp`."""
    global _configured
    if _configured or exporter == "none":
        return
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter
    provider = TracerProvider(resource=Resource.create({"service.name": "vera"}))
    if exporter == "console":
        provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    elif exporter == "otlp":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    _configured = True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the trace and span ids, and any `vera.*`
    (or other) fields passed as `extra`."""

    _standard = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
               "message": record.getMessage()}
        context = trace.get_current_span().get_span_context()
        if context.is_valid:
            out["trace_id"], out["span_id"] = f"{context.trace_id:032x}", f"{context.span_id:016x}"
        out.update({k: v for k, v in vars(record).items() if k not in self._standard})
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure_logging(log_format: str, level: int = logging.INFO) -> None:
    """Logs as text (default) or one JSON object a line (`VERA_LOG_FORMAT=json`)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json"
                         else logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
