"""Per-user state of the app (`st.session_state`): the session's answers and what the viewer shows."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from vera_core.answer.contract import Answer, Citation

ANSWERS = "vera_answers"
VIEWER = "vera_viewer"


@dataclass(frozen=True)
class ViewerTarget:
    """What the page viewer shows."""

    answer: int
    """Index of the answer in the session's answers."""
    citation: int
    """The selected citation's number n (its [n] marker)."""
    page: int | None
    """1-based PDF page shown (the citation's page until the user pages); None for Markdown."""


def answers() -> list[Answer]:
    """The session's answers, oldest first."""
    return st.session_state.setdefault(ANSWERS, [])


def add_answer(answer: Answer) -> None:
    """Keep a new answer and point the viewer at its first citation."""
    answers().append(answer)
    if answer.citations:
        select_citation(len(answers()) - 1, answer.citations[0].n)
    else:
        st.session_state.pop(VIEWER, None)


def viewer() -> ViewerTarget | None:
    return st.session_state.get(VIEWER)


def selected() -> tuple[Answer, Citation] | None:
    """The answer and citation the viewer shows, if any."""
    target = viewer()
    if target is None or target.answer >= len(answers()):
        return None
    answer = answers()[target.answer]
    cite = next((c for c in answer.citations if c.n == target.citation), None)
    return (answer, cite) if cite else None


def select_citation(answer_index: int, n: int) -> None:
    """Point the viewer at citation n of an answer, on the citation's own page."""
    answer = answers()[answer_index]
    cite = next(c for c in answer.citations if c.n == n)
    st.session_state[VIEWER] = ViewerTarget(answer_index, n, cite.page)


def show_page(page: int) -> None:
    """Page the viewer to another page of the selected document (the selection stays)."""
    target = viewer()
    if target is not None:
        st.session_state[VIEWER] = ViewerTarget(target.answer, target.citation, page)
