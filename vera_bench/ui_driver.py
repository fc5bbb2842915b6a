"""Drive the app's Ask page with Playwright (browser tests, `vera bench ui`, the README screenshot):
what a person does, and the moment they see the result."""

from __future__ import annotations

import time

VIEWER_IMAGE = '[data-testid="stImage"] img'
"""The page viewer's picture (the only image on the Ask page)."""

IDLE = """() => !document.querySelector('[data-testid="stStatusWidgetRunningIcon"], [data-stale="true"]')"""
"""True once the script run has finished drawing: no running icon and no element left over from the
previous run (Streamlit marks those stale until the new run redraws or removes them)."""

CARD_END = "Verification, retrieval and timings"
"""The last line of the latest answer's card (components/answer_card.py's details expander)."""


def wait_until_idle(page, timeout_s: float = 120) -> None:
    """Wait for the app's script run to finish, so a widget clicked next is not replaced under the
    pointer by the rest of the run (an open dropdown closes when its selectbox is redrawn)."""
    page.wait_for_function(IDLE, timeout=timeout_s * 1000, polling=100)


def viewer_screenshot(page, path, timeout_s: float = 30) -> None:
    """A screenshot of the viewer's page image saved at `path`. Streamlit may swap the image
    element while it is being shot (a rerun redraws it): shoot the new one then."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            page.locator(VIEWER_IMAGE).first.screenshot(path=str(path))
            return
        except Exception as error:  # playwright's Error: "Element is not attached to the DOM"
            if "not attached" not in str(error) or time.monotonic() > deadline:
                raise
            page.wait_for_timeout(250)


class AskPage:
    """The Ask page of a running app, in one Playwright page."""

    def __init__(self, page, url: str) -> None:
        self.page = page
        self.url = url
        self.asked = 0
        """Questions asked in this browser session (the app numbers them)."""

    def open(self, timeout_s: float = 240) -> None:
        """Load the app and wait until the question box is usable (first start loads the samples)."""
        self.page.goto(self.url)
        self.page.get_by_test_id("stChatInputTextArea").wait_for(timeout=timeout_s * 1000)
        wait_until_idle(self.page, timeout_s)

    def ask(self, question: str, timeout_s: float = 120) -> float:
        """Type a question, press Enter; seconds until its answer card is shown."""
        self.asked += 1
        box = self.page.get_by_test_id("stChatInputTextArea")
        box.fill(question)
        started = time.perf_counter()
        box.press("Enter")
        self.page.get_by_text(f"Question {self.asked} of this session", exact=True).wait_for(timeout=timeout_s * 1000)
        self.page.locator("h3", has_text=question).first.wait_for(timeout=timeout_s * 1000)
        elapsed = time.perf_counter() - started
        wait_until_idle(self.page, timeout_s)
        self._drawn_card(question, timeout_s)
        return elapsed

    def scope_to(self, doc_name: str, attempts: int = 3) -> None:
        """Limit the next questions to one document (the sidebar's document scope)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        select = self.page.get_by_test_id("stMultiSelect").first
        for attempt in range(attempts):
            # NOTE: a rerun that redraws the sidebar while its list is open (the page's first run still
            # drawing, a live ingest status) closes the list and drops the click: choose again, as a
            # person would on seeing no chip
            last = attempt == attempts - 1
            select.click()
            try:
                # NOTE: the list can close before its option is drawn (a rerun): open it again, as a person would
                self.page.get_by_role("option", name=doc_name).click(timeout=None if last else 15_000)
            except PlaywrightTimeout:
                self.page.keyboard.press("Escape")
                wait_until_idle(self.page)
                continue
            self.page.keyboard.press("Escape")
            try:
                select.get_by_text(doc_name).wait_for(timeout=None if last else 10_000)
                break
            except PlaywrightTimeout:
                wait_until_idle(self.page)
        wait_until_idle(self.page)

    def clear_scope(self) -> None:
        """All documents in scope again."""
        select = self.page.get_by_test_id("stMultiSelect").first
        select.get_by_role("button", name="Clear all").click()
        select.get_by_role("button", name="Clear all").wait_for(state="detached")
        wait_until_idle(self.page)

    def citation_button(self, n: int):
        """Citation n of the latest answer (its button's key is cite-<answer index>-<n>)."""
        return self.page.locator(f".st-key-cite-{self.asked - 1}-{n} button").first

    def click_citation(self, n: int, timeout_s: float = 30) -> float:
        """Click citation n of the latest answer; seconds until the viewer shows its highlighted page."""
        started = time.perf_counter()
        self.citation_button(n).click()
        self.page.wait_for_function(
            """([selector, n]) => {
                const section = [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
                    .some(c => c.innerText.endsWith(`[${n}] highlighted`));
                if (section) return true;  // a Markdown citation: its section, no page image
                const img = document.querySelector(selector);
                if (!img || !img.complete || img.naturalWidth === 0) return false;
                const caption = img.closest('[data-testid="stImage"]')?.parentElement?.innerText || '';
                return caption.includes(`[${n}] selected`);
            }""", arg=[VIEWER_IMAGE, n], timeout=timeout_s * 1000)
        elapsed = time.perf_counter() - started
        wait_until_idle(self.page, timeout_s)
        return elapsed

    def card_text(self, question: str, timeout_s: float = 60) -> str:
        """Text of the answer card headed by `question` (the innermost block holding its heading),
        once the whole card is drawn."""
        return self._drawn_card(question, timeout_s)

    def _drawn_card(self, question: str, timeout_s: float) -> str:
        """The card's text once it holds its last line (the details' expander), as a reader waits
        for it; the card as it stands when `timeout_s` runs out (the caller's assertion then shows it).
        NOTE: on a slow machine the card's heading can be drawn, and the run be idle, a moment before
        the rest of the card is, and a rerun can draw the card again from its heading (CI at 7da53fa
        and at df5e607 read a card holding only its heading): the card itself is read again until
        it is whole, not any block around it that holds the line."""
        deadline = time.monotonic() + timeout_s
        while True:
            text = self._card(question).last.inner_text()
            if CARD_END in text or time.monotonic() > deadline:
                return text
            self.page.wait_for_timeout(200)

    def _card(self, question: str):
        """The blocks holding the heading `question` (the last is the card itself)."""
        heading = self.page.locator("h3", has_text=question)
        return self.page.locator('[data-testid="stVerticalBlock"]', has=heading)

    def viewer_caption(self) -> str:
        return self.page.locator('[data-testid="stImage"]').first.locator("xpath=..").inner_text()
