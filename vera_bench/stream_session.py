"""A session of the app without a browser, for `vera bench ui --sessions`: it speaks Streamlit's own
websocket protocol (BackMsg out, ForwardMsg in, the messages the browser's frontend exchanges) to ask
questions on the Ask page, and times each answer as the server delivers it. Several of these put the
server under the load of several analysts whose browsers run on their own machines, which a benchmark
cannot do with Chromium on the server's own cores."""

from __future__ import annotations

import time


class StreamSession:
    """One session of the app at `url`, on its Ask page; `await open()` first, `await close()` last."""

    def __init__(self, url: str, cookie: str = "", headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.headers = dict(headers or {})
        """Headers to send: a Cookie (a proxy's affinity cookie: which app process the session is on), or
        the user a team proxy signed in (VERA_TRUSTED_USER_HEADER)."""
        if cookie:
            self.headers["Cookie"] = cookie
        self._socket = None
        self._chat_id = ""
        self._fragment_id = ""

    async def open(self, timeout_s: float = 300) -> None:
        """Connect and run the page once, as a browser's first load does; learn the question box's id."""
        import asyncio

        import websockets
        from streamlit.proto.BackMsg_pb2 import BackMsg
        self._socket = await websockets.connect(self.url.replace("http", "ws", 1) + "/_stcore/stream",
                                                subprotocols=["streamlit"], max_size=None,
                                                additional_headers=self.headers or None)
        first = BackMsg()
        first.rerun_script.query_string = ""
        await self._socket.send(first.SerializeToString())
        async with asyncio.timeout(timeout_s):
            while not self._chat_id:
                message = await self._receive()
                kind = message.WhichOneof("type")
                if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                    element = message.delta.new_element
                    if element.WhichOneof("type") == "chat_input":
                        self._chat_id, self._fragment_id = element.chat_input.id, message.delta.fragment_id
                elif kind == "script_finished":
                    raise RuntimeError(f"the Ask page at {self.url} drew no question box")
            await self._until_finished()

    async def ask(self, question: str, timeout_s: float = 300) -> float:
        """Submit a question as the question box does; seconds until the run that answers it has been
        delivered whole (the answer, its citations and its evidence)."""
        import asyncio

        from streamlit.proto.BackMsg_pb2 import BackMsg
        message = BackMsg()
        state = message.rerun_script
        state.fragment_id = self._fragment_id  # the box is in the conversation fragment: only it reruns
        widget = state.widget_states.widgets.add()
        widget.id = self._chat_id
        widget.chat_input_value.data = question
        started = time.perf_counter()
        await self._socket.send(message.SerializeToString())
        async with asyncio.timeout(timeout_s):
            answered = await self._until_finished(heading=question)
        if not answered:
            raise RuntimeError(f"the app's run for {question!r} drew no answer (see the app's log)")
        return time.perf_counter() - started

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()

    async def _until_finished(self, heading: str | None = None) -> bool:
        """Read messages up to the end of the current run; whether a heading reading `heading` came."""
        seen = False
        while True:
            message = await self._receive()
            kind = message.WhichOneof("type")
            if kind == "script_finished":
                return seen
            if heading and kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                element = message.delta.new_element
                # the page escapes Markdown in the question ("?" arrives as "\?")
                seen |= element.WhichOneof("type") == "heading" and element.heading.body.replace("\\", "") == heading

    async def _receive(self):
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
        message = ForwardMsg()
        message.ParseFromString(await self._socket.recv())
        return message
