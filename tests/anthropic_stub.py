"""A local HTTP server that speaks the subset of Anthropic's Messages API VERA uses
(POST /v1/messages), with replies scripted per test. The real `anthropic` client talks to it."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Reply = dict
"""{"text": str} | {"status": int} | {"delay": seconds, ...} | {"raw": str}"""

ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 429: "rate_limit_error",
               500: "api_error", 529: "overloaded_error"}
SOURCE = re.compile(r'<source n="(\d+)"[^>]*>\n(.*?)\n</source>', re.S)


def sources_of(request: dict) -> dict[int, str]:
    """The numbered sources VERA sent in a request, by number."""
    text = request["messages"][0]["content"]
    return {int(n): body for n, body in SOURCE.findall(text)}


def kind_of(request: dict) -> str:
    """Which VERA prompt a request carries: answer, items, expand, extract or audit."""
    system = request.get("system", "")
    for kind, cue in (("items", "List EVERY item"), ("expand", "search keywords"), ("extract", "single figure"),
                      ("audit", "YES or NO"), ("answer", "End EVERY sentence")):
        if cue in system:
            return kind
    return "unknown"


class MessagesStub:
    """Serves scripted replies in order; when the script is empty, `default(request)` answers."""

    def __init__(self, default: Callable[[dict], Reply] | None = None) -> None:
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.script: list[Reply | Callable[[dict], Reply]] = []
        self.default = default or (lambda request: {"text": "NOT FOUND"})
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                stub.requests.append(body)
                stub.headers.append(dict(self.headers))
                step = stub.script.pop(0) if stub.script else stub.default
                reply = step(body) if callable(step) else step
                if reply.get("delay"):
                    time.sleep(reply["delay"])
                if "raw" in reply:
                    return self._send(200, reply["raw"].encode())
                status = reply.get("status", 200)
                if status != 200:
                    error = {"type": "error", "error": {"type": ERROR_TYPES.get(status, "api_error"),
                                                        "message": f"scripted {status}"}}
                    return self._send(status, json.dumps(error).encode())
                message = {"id": f"msg_{len(stub.requests)}", "type": "message", "role": "assistant",
                           "model": body.get("model", ""), "content": [{"type": "text", "text": reply["text"]}],
                           "stop_reason": "end_turn", "stop_sequence": None,
                           "usage": {"input_tokens": len(json.dumps(body)) // 4,
                                     "output_tokens": max(1, len(reply["text"]) // 4)}}
                self._send(200, json.dumps(message).encode())

            def _send(self, status: int, payload: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> MessagesStub:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
