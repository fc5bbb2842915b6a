"""Helpers for AppTest tests of the app: start it on a store, ask, read what the Ask page shows."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[1] / "app.py"
TIMEOUT = 180
"""Seconds for one script run: the first run of a store loads the embedding model."""


def start(monkeypatch, data_dir: Path) -> AppTest:
    """The app on the store at `data_dir`, first run done."""
    monkeypatch.setenv("VERA_DATA_DIR", str(data_dir))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    return at


def ask(at: AppTest, question: str) -> AppTest:
    at.chat_input(key="question").set_value(question).run()
    assert not at.exception, at.exception
    return at


def markdown_texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def unescape(text: str) -> str:
    """Markdown as a reader sees it: backslash escapes and bold markers removed."""
    return text.replace("\\", "").replace("**", "")


def card_field(at: AppTest, label: str) -> str:
    """The value under a card label (Intent, Grounding, Retrieval) of the latest answer."""
    captions = [c.value for c in at.caption]
    assert label in captions, f"no {label!r} field in {captions}"
    # NOTE: each field is a caption then a bold Markdown value in the same column
    for column in at.columns:
        values = [c.value for c in column.caption]
        if values[:1] == [label]:
            return unescape(column.markdown[0].value)
    raise AssertionError(f"field {label!r} not found")


def viewer_caption(at: AppTest) -> str:
    assert at.image, "the page viewer shows no page"
    return at.image[0].captions[0]


def infos(at: AppTest) -> list[str]:
    return [i.value for i in at.info]


def warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]
