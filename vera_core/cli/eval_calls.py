"""Judging the questions about calls, releases and decks (`people`, `remark`, `slide`; data/blind/briefs/
SCHEMA.md): a person named (and their firm), a remark cited on its turn's page, a slide cited."""

from __future__ import annotations

import re

from vera_core.answer.contract import Answer
from vera_core.transcripts.speakers import name_key

__all__ = ["CALL_KINDS", "judge_call", "people_found"]

CALL_KINDS = ("people", "remark", "slide")


def _named(answer: Answer) -> set[str]:
    """The people an answer names ('Jeremy Barnum (CFO ...)', '- GLENN SCHORR (Evercore)', '... [1] Jamie Dimon (')."""
    names = re.findall(r"(?m)(?:^- |^|\. |\] )([A-Z][\w.'\u2019-]+(?:\s+(?:(?:von|van|de|der|den|da|di|du|del|le|la)\s+)?"
                       r"[A-Z][\w.'\u2019-]+){1,3})\s*\(", answer.answer)  # NOTE: "James von Moltke"
    # NOTE: an operator is named by first name only ("Krista (operator)")
    operators = re.findall(r"(?m)(?:^- |^|\. |\] )([A-Z][a-z]+)\s*\(operator\)", answer.answer)
    return {name_key(n) for n in names + [n for n in operators if n != "Operator"]}


def _firm_in(firm: str, text: str) -> bool:
    squash = lambda s: re.sub(r"[^a-z]", "", s.lower())  # noqa: E731
    return squash(firm)[:6] in squash(text)


def people_found(question: dict, answer: Answer) -> dict[str, tuple[int, int]]:
    """{"people": (named, required), "firms": (named with their firm, required with a firm)} of a people question."""
    if question.get("kind") != "people" or question.get("expect") == "abstain":
        return {}
    named = _named(answer)
    lines = {name_key(line.split(" (")[0].lstrip("- ")): line for line in answer.answer.splitlines()}
    people = question.get("required_people", [])
    found = [p for p in people if name_key(p["name"]) in named]
    firms = [p for p in people if p.get("firm")]
    firm_ok = [p for p in firms if name_key(p["name"]) in named
               and _firm_in(p["firm"], lines.get(name_key(p["name"]), answer.answer))]
    return {"people": (len(found), len(people)), **({"firms": (len(firm_ok), len(firms))} if firms else {})}


def judge_call(question: dict, answer: Answer) -> str:
    """correct / wrong / abstained. An answer with no citation abstains; a question to be declined is
    correct when nothing is cited."""
    cited = answer.citations
    if question.get("expect") == "abstain":
        return "wrong" if cited else "correct"
    if not cited:
        return "abstained"
    kind = question["kind"]
    if kind == "people":
        named, required = people_found(question, answer)["people"]
        extra = _named(answer) - {name_key(p["name"]) for p in question.get("required_people", [])}
        return "correct" if required and named == required and not extra else "wrong"
    if kind == "remark":  # NOTE: each call asked answered on one of its gold turns (a turn's page)
        wanted: dict[str, set[int]] = {}
        for turn in question["turns"]:
            wanted.setdefault(turn.get("doc_name") or question["doc_name"], set()).add(turn["page_index"] + 1)
        on = [any(_stem(c.doc_name) == doc and _shown_on(c) & pages for c in cited) for doc, pages in wanted.items()]
        return "correct" if all(on) else "wrong"
    pages = {i + 1 for i in question.get("gold_pages", [])}
    return "correct" if any(_stem(c.doc_name) == question["doc_name"] and _shown_on(c) & pages for c in cited) else "wrong"


def _shown_on(citation) -> set[int]:
    """The pages a citation shows: its page and every page its highlight covers (a sentence that runs overleaf)."""
    return {citation.page, *(p.page for p in citation.polygons)}


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0] if name.lower().endswith((".pdf", ".md")) else name
