"""Check a blind question file's golds against the documents they come from.

    python scripts/blind_check.py QUESTIONS.jsonl [--quiet]

Each line is one question (see SCHEMA.md). The check refuses a gold that does not stand in its file:
- a list item, a pointer's heading, a quote for a document: the text occurs in the Markdown file
  (ignoring case, punctuation, Markdown marks and line breaks);
- a figure or an operand: its `printed` text occurs on its 0-based page of the PDF (spaces ignored),
  and its `value` is the number `printed` shows (parentheses or a minus: negative);
- a figure's gold is its operand's value in the question's scale; a metric's gold is its `formula`
  over the operands (each operand's value times its scale), within rounding; a yes/no verdict's
  `check` over the operands gives the verdict.
It prints one line per refused question (with --quiet: only counts) and exits 1 when any is refused.
"""

from __future__ import annotations

import json
import math
import re
import sys
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
EXTRA = [ROOT / "data" / "blind" / name for name in ("policies-extra-dev", "policies-extra-holdout", "policies-r3-dev",
                                                   "policies-r3-holdout", "policies-r4-dev", "policies-r4-holdout",
                                                   "policies-r5-holdout", "policies-r6-holdout", "policies-r7-holdout",
                                                   "policies-r8-holdout", "policies-r9-holdout", "policies-r10-holdout",
                                                   "policies-r11-holdout")]
KINDS = {"docs", "list", "pointer", "figure", "metric", "verdict", "people", "remark", "slide"}
UNITS = {"usd", "usd_per_share", "percent", "ratio", "days", "count", "shares", "times", "years"}


def norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


@lru_cache(maxsize=None)
def find_file(name: str) -> Path | None:
    stem = name.rsplit(".", 1)[0] if name.lower().endswith((".md", ".pdf")) else name
    for root in [CORPUS, *EXTRA]:
        if not root.exists():
            continue
        for path in root.rglob(f"{stem}.*"):
            if path.suffix.lower() in (".md", ".pdf"):
                return path
    return None


@lru_cache(maxsize=None)
def markdown_text(path: Path) -> str:
    return norm(path.read_text(encoding="utf-8", errors="replace"))


@lru_cache(maxsize=None)
def markdown_headings(path: Path) -> tuple[str, ...]:
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.match(r"\s{0,3}#{1,6}\s+(.*)", line)
        if m:
            out.append(norm(m.group(1)))
        elif re.match(r"\s*(\*\*|__)[^*_]+(\*\*|__)\s*:?\s*$", line):  # a bold line used as a heading
            out.append(norm(line))
        elif re.match(r"^\s*title:\s*(.+)$", line):
            out.append(norm(line.split(":", 1)[1]))
    return tuple(out)


@lru_cache(maxsize=None)
def pdf_all(path: Path) -> str:
    import pymupdf

    with pymupdf.open(path) as doc:
        return "".join(norm(page.get_text()).replace(" ", "") for page in doc)


def squash(text: str) -> str:
    return norm(text).replace(" ", "")


def check_ir(q: dict, kind: str) -> list[str]:
    """people / remark / slide questions over investor-relations PDFs."""
    errs: list[str] = []
    if q.get("expect") == "abstain":
        if not q.get("why_abstain"):
            errs.append("an abstain question says why (why_abstain)")
        if not find_file(q.get("doc_name", "")) and q.get("doc_name"):
            errs.append(f"doc_name {q.get('doc_name')!r} not found")
        return errs
    if kind == "people":
        doc = find_file(q.get("doc_name", ""))
        if doc is None:
            return [f"doc_name {q.get('doc_name')!r} not found"]
        people = q.get("required_people") or []
        if not people:
            errs.append("a people question needs required_people")
        text = pdf_all(doc)
        for person in people:
            if not person.get("name"):
                errs.append(f"person without a name: {person}")
                continue
            for key in ("name", "firm"):
                if person.get(key) and squash(person[key]) not in text:
                    errs.append(f"{key} {person[key]!r} is not printed in {doc.name}")
        return errs
    if kind == "remark":
        turns = q.get("turns") or []
        if not turns:
            return ["a remark question needs turns"]
        for turn in turns:
            doc = find_file(turn.get("doc_name") or q.get("doc_name", ""))
            if doc is None:
                errs.append(f"turn's document not found: {turn}")
                continue
            for key in ("speaker", "page_index", "quote"):
                if key not in turn:
                    errs.append(f"turn lacks {key!r}: {turn}")
            if errs:
                continue
            page = squash(pdf_page_text(doc, int(turn["page_index"])))
            if len(squash(turn["quote"])) < 25:
                errs.append(f"quote too short to identify the turn: {turn['quote']!r}")
            elif squash(turn["quote"]) not in page:
                errs.append(f"quote is not on page_index {turn['page_index']} of {doc.name}: {turn['quote'][:60]!r}")
            if squash(turn["speaker"]) not in pdf_all(doc):
                errs.append(f"speaker {turn['speaker']!r} is not printed in {doc.name}")
        return errs
    doc = find_file(q.get("doc_name", ""))
    if doc is None:
        return [f"doc_name {q.get('doc_name')!r} not found"]
    pages = q.get("gold_pages") or []
    if not pages:
        errs.append("a slide question needs gold_pages")
    quote = q.get("quote", "")
    if len(squash(quote)) < 8:
        errs.append("a slide question needs a quote of the slide's text")
    elif pages and not any(squash(quote) in squash(pdf_page_text(doc, int(i))) for i in pages):
        errs.append(f"quote is on none of gold_pages of {doc.name}: {quote[:60]!r}")
    return errs


@lru_cache(maxsize=None)
def pdf_page_text(path: Path, index: int) -> str:
    import pymupdf

    with pymupdf.open(path) as doc:
        return doc[index].get_text() if 0 <= index < doc.page_count else ""


@lru_cache(maxsize=None)
def pdf_page(path: Path, index: int) -> str:
    import pymupdf

    with pymupdf.open(path) as doc:
        if not 0 <= index < doc.page_count:
            return ""
        return re.sub(r"\s+", "", doc[index].get_text())


def printed_value(printed: str) -> float | None:
    negative = "(" in printed or re.search(r"(^|[^\w])[-\u2212\u2013]\s*[$\d]", printed) is not None
    digits = re.findall(r"\d[\d,]*\.?\d*", printed)
    if not digits:
        return None
    value = float(digits[0].replace(",", ""))
    return -value if negative else value


def close(a: float, b: float, unit: str) -> bool:
    if a == b:
        return True
    if abs(a - b) <= 0.006 * max(abs(a), abs(b)):  # a gold rounded by its writer
        return True
    return unit in ("percent", "ratio", "days", "times", "years", "usd_per_share") and abs(a - b) <= 0.051


def check_operand(doc: Path, op: dict) -> list[str]:
    errs = []
    for key in ("name", "printed", "value", "page_index"):
        if key not in op:
            errs.append(f"operand lacks {key!r}: {op}")
    if errs:
        return errs
    page = pdf_page(doc, int(op["page_index"]))
    if not page:
        return [f"operand {op['name']}: page_index {op['page_index']} is not a page of {doc.name}"]
    shown = re.sub(r"\s+", "", str(op["printed"]))
    core = re.sub(r"[()$\u2212\-]", "", shown)
    if shown not in page and core not in page:
        errs.append(f"operand {op['name']}: {op['printed']!r} is not on page_index {op['page_index']} of {doc.name}")
    value = printed_value(str(op["printed"]))
    if value is not None and not math.isclose(abs(value), abs(float(op["value"])), rel_tol=1e-9):
        errs.append(f"operand {op['name']}: value {op['value']} is not the number printed {op['printed']!r}")
    return errs


def operand_env(q: dict) -> dict[str, float]:
    return {op["name"]: float(op["value"]) * float(op.get("scale", 1) or 1) for op in q.get("operands", [])}


def safe_eval(expr: str, env: dict[str, float]):
    if re.search(r"__|import|lambda|open|exec|eval", expr):
        raise ValueError("formula may use only arithmetic, names, abs, min, max, round, pow, sqrt")
    allowed = {"abs": abs, "min": min, "max": max, "round": round, "pow": pow, "sqrt": math.sqrt,
               "all": all, "any": any}
    return eval(expr, {"__builtins__": {}}, {**allowed, **env})  # noqa: S307 - arithmetic over the writer's operands


def check(q: dict, seen_ids: set[str]) -> list[str]:
    errs: list[str] = []
    for key in ("id", "writer", "template", "kind", "question"):
        if not q.get(key):
            errs.append(f"missing {key!r}")
    if errs:
        return errs
    if q["id"] in seen_ids:
        errs.append("duplicate id")
    seen_ids.add(q["id"])
    kind = q["kind"]
    if kind not in KINDS:
        return [f"kind {kind!r} is not one of {sorted(KINDS)}"]
    if not q["template"].startswith(kind + ":") and q["template"] != kind:
        errs.append(f"template {q['template']!r} does not start with its kind {kind!r}")
    if kind in ("docs", "list", "pointer"):
        for name in [*q.get("required_docs", []), *q.get("accept_docs", [])]:
            if find_file(name) is None:
                errs.append(f"document {name!r} not found")
        if kind == "docs":
            if not q.get("required_docs"):
                errs.append("a docs question needs required_docs")
            quotes = q.get("quotes", {})
            for name in q.get("required_docs", []):
                path = find_file(name)
                quote = quotes.get(name)
                if not quote:
                    errs.append(f"no quote for required document {name!r}")
                elif path is not None and norm(quote) not in markdown_text(path):
                    errs.append(f"quote for {name!r} is not in the file: {quote[:60]!r}")
        if kind in ("list", "pointer"):
            path = find_file(q.get("doc_name", ""))
            if path is None:
                return errs + [f"doc_name {q.get('doc_name')!r} not found"]
            items = q.get("required_items", [])
            if not items:
                errs.append("no required_items")
            text = markdown_text(path)
            for item in items:
                if not norm(item):
                    errs.append(f"empty item {item!r}")
                elif kind == "list" and norm(item) not in text:
                    errs.append(f"item not in {path.name}: {item[:70]!r}")
                elif kind == "pointer" and not any(norm(item) in h for h in markdown_headings(path)):
                    errs.append(f"pointer heading is not a heading of {path.name}: {item!r}")
            if kind == "list" and len({norm(i) for i in items}) != len(items):
                errs.append("two required items are the same text")
            if kind == "list":
                for i, a in enumerate(items):
                    for b in items[i + 1:]:
                        if norm(a) in norm(b) or norm(b) in norm(a):
                            errs.append(f"item {a[:40]!r} is inside item {b[:40]!r}: each must name one item")
        return errs
    if kind in ("people", "remark", "slide"):
        return errs + check_ir(q, kind)
    doc = find_file(q.get("doc_name", ""))
    if doc is None or doc.suffix.lower() != ".pdf":
        return errs + [f"doc_name {q.get('doc_name')!r} is not a PDF of the corpus"]
    expect = q.get("expect")
    if expect not in ("answer", "abstain"):
        errs.append("expect must be 'answer' or 'abstain'")
    if expect == "abstain":
        if q.get("gold") is not None:
            errs.append("an abstain question has gold null")
        if not q.get("why_abstain"):
            errs.append("an abstain question says why (why_abstain)")
        return errs
    for op in q.get("operands", []):
        own = find_file(op["doc_name"]) if op.get("doc_name") else doc
        errs += check_operand(own, op) if own is not None else [f"operand's doc_name {op['doc_name']!r} not found"]
    if not q.get("operands"):
        errs.append("no operands: every figure the gold rests on is an operand with its page")
        return errs
    env = operand_env(q)
    if kind in ("figure", "metric"):
        unit = q.get("gold_unit")
        if unit not in UNITS:
            errs.append(f"gold_unit {unit!r} is not one of {sorted(UNITS)}")
        gold = q.get("gold")
        if not isinstance(gold, (int, float)):
            return errs + ["gold is not a number"]
        scale = float(q.get("gold_scale", 1) or 1)
        formula = q.get("formula") or (q["operands"][0]["name"] if kind == "figure" and len(q["operands"]) == 1 else None)
        if not formula:
            return errs + ["a metric needs a formula over its operands"]
        try:
            value = float(safe_eval(formula, env))
        except Exception as exc:  # noqa: BLE001 - the writer's formula
            return errs + [f"formula {formula!r} fails: {exc}"]
        if not close(value / scale, float(gold), unit or ""):
            errs.append(f"formula gives {value / scale:.6g} (in the gold's scale), gold is {gold}")
    if kind == "verdict":
        verdict = q.get("verdict")
        if not verdict:
            errs.append("a verdict question needs verdict")
        check_expr = q.get("check")
        if verdict in ("yes", "no"):
            if not check_expr:
                errs.append("a yes/no verdict needs check: an expression over the operands that is true for yes")
            else:
                try:
                    got = bool(safe_eval(check_expr, env))
                except Exception as exc:  # noqa: BLE001
                    return errs + [f"check {check_expr!r} fails: {exc}"]
                if got != (verdict == "yes"):
                    errs.append(f"check gives {'yes' if got else 'no'}, verdict is {verdict}")
    return errs


def main(argv: list[str]) -> int:
    quiet = "--quiet" in argv
    files = [a for a in argv if not a.startswith("--")]
    if not files:
        print(__doc__)
        return 2
    bad = total = 0
    seen: set[str] = set()
    for file in files:
        for n, line in enumerate(Path(file).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            total += 1
            try:
                q = json.loads(line)
            except json.JSONDecodeError as exc:
                bad += 1
                print(f"{file}:{n}: not JSON: {exc}")
                continue
            errs = check(q, seen)
            if errs:
                bad += 1
                if not quiet:
                    print(f"{file}:{n} {q.get('id')}: " + "; ".join(errs))
    print(f"{total} questions, {total - bad} pass, {bad} refused")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
