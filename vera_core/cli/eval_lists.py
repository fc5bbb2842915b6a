"""How `vera eval` scores list and document-coverage answers: the required items an answer lists, the
required documents it cites, the documents it cites that it should not (another kind of document, or
one the gold neither requires nor accepts), and a per-template table of the same."""

from __future__ import annotations

import re

__all__ = ["doc_stem", "list_coverage", "list_table", "norm"]


def norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _within(part: str, whole: str) -> bool:
    """`part` is in `whole` as whole words ("public" is not in "not released publicly")."""
    return f" {part} " in f" {whole} "


def _held(wanted: list[str], shown: str, text: str) -> list[str]:
    """The required items a listed item holds; when it holds several, those its name holds, before the details a
    table row adds in parentheses ("Medium (Non-critical functionality loss ...)" is the item "Medium")."""
    held = [w for w in wanted if _within(w, shown) or (shown and _within(shown, w))]
    if len(set(held)) > 1 and text.rstrip().endswith(")") and " (" in text:
        name = norm(text.split(" (", 1)[0])
        named = [w for w in held if _within(w, name) or (name and _within(name, w))]
        return named or held
    return held


def doc_stem(name: str) -> str:
    """A document as a question file names it, as the store names it: no extension, no folder (a gold
    may write "tailscale/vendor" where two policy sets each have a vendor.md)."""
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if name.lower().endswith((".md", ".pdf")) else name


_stem = doc_stem


def list_coverage(question: dict, answer) -> dict[str, tuple[int, int]]:
    """(found, required) for `required_items` and `required_docs`, and (n, 0) counts of what should
    not be cited: `unexpected_docs` (neither required nor in `accept_docs`) and `other_kind_docs` (in
    `other_docs`: documents of another kind, such as a 10-K for a "which policies" question).

    An item counts when one shown item (the answer's items, else its text) holds it, or it holds the
    shown item, as whole words, ignoring case and punctuation, and that shown item holds no other required item: two
    items run together into one are a list read wrong, and count for neither."""
    out: dict[str, tuple[int, int]] = {}
    if question.get("required_items"):
        shown = [norm(i.text) for i in answer.items] or [norm(answer.answer)]
        wanted = [norm(t) for t in question["required_items"]]
        if answer.items:
            holds = [_held(wanted, s, raw.text) for s, raw in zip(shown, answer.items)]
            found = {w for held in holds if len(set(held)) == 1 for w in held}
        else:  # a prose answer (a pointer): its text holds the items
            found = {w for w in wanted if _within(w, shown[0])}
        out["items"] = (len(found), len(wanted))
    cited = {_stem(c.doc_name) for c in answer.citations}
    if question.get("required_docs"):
        wanted_docs = {_stem(d) for d in question["required_docs"]}
        accepted = wanted_docs | {_stem(d) for d in question.get("accept_docs", [])}
        other = {_stem(d) for d in question.get("other_docs", [])}
        out["docs"] = (len(wanted_docs & cited), len(wanted_docs))
        out["unexpected_docs"] = (len(cited - accepted - other), 0)
        out["other_kind_docs"] = (len(cited & other), 0)
    return out


def list_table(rows: list[dict]) -> dict[str, dict]:
    """Per template: questions, required items or documents found of required, questions answered
    complete, and documents cited that should not be."""
    table: dict[str, dict] = {}
    for row in rows:
        t = table.setdefault(row["template"], {"questions": 0, "found": 0, "required": 0, "complete": 0,
                                                "unexpected_docs": 0, "other_kind_docs": 0})
        found = sum(got for key, (got, _) in row["listed"].items() if key in ("items", "docs"))
        required = sum(of for key, (_, of) in row["listed"].items() if key in ("items", "docs"))
        t["questions"] += 1
        t["found"] += found
        t["required"] += required
        t["complete"] += found == required
        t["unexpected_docs"] += row["listed"].get("unexpected_docs", (0, 0))[0]
        t["other_kind_docs"] += row["listed"].get("other_kind_docs", (0, 0))[0]
    for t in table.values():
        t["share"] = round(t["found"] / t["required"], 4) if t["required"] else None
    return dict(sorted(table.items()))
