"""`vera eval FILE.jsonl`: page recall@1/3/5, figure match, grounding distribution and latency on a
questions file in the FinanceBench format (doc_name, question, answer, evidence[].page_index 0-based)."""

from __future__ import annotations

import json
import re
import statistics
import sys
from pathlib import Path

from vera_core.cli.eval_calls import CALL_KINDS, people_found
from vera_core.questions.figure import read_request
from vera_core.cli.eval_judge import judge, per_template
from vera_core.cli.eval_lists import doc_stem, list_coverage, list_table
from vera_core.answer.numbers import find_numbers
from vera_core.questions.metric import read_plan
from vera_core.config import VeraSettings
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.workspace import Workspace

FIGURE_TOLERANCE = 0.01
"""Analysts round; a gold figure matches an answer figure within 1% (at any of the usual scales)."""
PERCENT_POINTS = 0.05
"""A gold percentage written to one decimal ("decreased by 1.7%") matches the exact result it rounds (1.739)."""


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return round(ordered[index], 1)


def figures_match(gold_text: str, answer_text: str) -> bool | None:
    """None when the gold answer has no figure; else whether any gold figure is in the answer."""
    gold = [m for m in find_numbers(gold_text) if not m.is_year]
    if not gold:
        return None
    ours = [m for m in find_numbers(answer_text) if not m.is_year]
    for g in gold:
        for a in ours:
            if g.is_percent != a.is_percent:
                continue
            for scale in (1, 1e3, 1e6, 1e9, 1e-3, 1e-6, 1e-9):
                x, y = abs(g.value), abs(a.value) * scale
                if x == y or (max(x, y) > 0 and abs(x - y) <= FIGURE_TOLERANCE * max(x, y)):
                    return True
    return False


def gold_figure(gold_text: str, question: str) -> tuple[float, bool] | None:
    """The gold answer's figure in units (its own scale word, else the unit the question asks), and
    whether it is a percentage; None when the gold answer states no figure. A company's name that
    reads like a figure ("3M": a digit and a bare scale letter, no currency) is not its figure."""
    gold = [m for m in find_numbers(gold_text) if not m.is_year and not _a_name(m)]
    if not gold:
        return None
    first = gold[0]
    if first.is_percent:
        return first.value, True
    scale = 1.0 if first.scale not in (None, 1.0) else (read_request(question).scale or 1.0)
    return abs(first.value) * scale, False


def _a_name(mention) -> bool:
    return mention.currency is None and not mention.is_percent and re.fullmatch(r"\d[A-Za-z]", mention.text) is not None


def answer_accuracy(gold: tuple[float, bool], answer) -> tuple[bool, bool]:
    """(states the gold figure within 1%, states another figure as the answer). The figures an answer
    gives are its `figures` (read from cells, in the unit asked); an extractive answer without them
    states the gold figure when its quoted text holds it, and states no figure of its own."""
    value, percent = gold
    stated = stated_values(answer)
    if not stated:
        return False, False
    right = any(p == percent and (abs(v - value) <= FIGURE_TOLERANCE * max(abs(v), abs(value))
                                  or percent and abs(v - value) <= PERCENT_POINTS) for v, p in stated)
    return right, not right


def stated_values(answer) -> list[tuple[float, bool]]:
    """The figures an answer gives as its answer, in units (percentages in percent): its cell figures
    and its calculation's result (each period's, for a direction question)."""
    out = [(abs(f.value) * (1.0 if f.unit == "%" else f.scale), f.unit == "%") for f in answer.figures]
    calc = getattr(answer, "calculation", None)
    if calc is not None and calc.result is not None:
        results = [r.result for r in calc.results] or [calc.result]
        if calc.direction and len(results) > 1:  # a direction answer also states the change
            results.append(results[-1] - results[0])
        out += [(abs(r), calc.unit == "percent") for r in results]
    return out


def is_computed(question: str, answer) -> bool:
    """A question whose gold figure is computed (a metric), not printed."""
    return answer.intent.type == "metric" or read_plan(question) is not None


def _shares(rows: list[dict]) -> dict:
    n = len(rows)
    share = (lambda key: round(sum(1 for r in rows if r[key]) / n, 4) if n else None)
    return {"questions": n, "correct": share("correct"), "wrong_stated": share("wrong"), "abstained": share("abstained")}


def _judged(rows: list[dict]) -> dict:
    """Outcomes of typed-gold questions: by kind (figure, metric, verdict; figure and metric together),
    the abstentions expected, and per template."""
    def shares(part: list[dict]) -> dict:
        n = len(part)
        return {"questions": n, **{k: (round(sum(r["outcome"] == k for r in part) / n, 4) if n else None)
                                   for k in ("correct", "wrong", "abstained")}}
    return {"figure_and_metric": shares([r for r in rows if r["kind"] in ("figure", "metric")]),
            **{kind: shares([r for r in rows if r["kind"] == kind])
               for kind in ("figure", "metric", "verdict", "people", "remark", "slide")},
            "expect_abstain": shares([r for r in rows if r["expect"] == "abstain"]),
            "per_template": per_template(rows),
            **({"per_writer": per_template([{**r, "template": r["writer"]} for r in rows])}
               if any(r.get("writer") for r in rows) else {})}


def ensure_documents(ws: Workspace, folders: list[Path], names: list[str]) -> None:
    """Ingest the questions' documents when missing, from the first of `folders` (searched with their
    subfolders) that holds a PDF or Markdown file of that name."""
    present = {d.stem for d in ws.catalog.documents()}
    missing = [n for n in names if n not in present]
    ingestor = Ingestor(ws)
    for name in missing:
        found = [p for folder in folders for p in sorted(folder.rglob(f"{name}.*")) if p.suffix.lower() in (".pdf", ".md")]
        path = found[0] if found else folders[0] / f"{name}.pdf"
        print(f"ingesting {path.name} ...", file=sys.stderr)
        result = ingestor.ingest_file(path)
        if result.status == "failed":
            raise SystemExit(f"vera eval: cannot ingest {path}: {result.error}")


def question_documents(questions: list[dict]) -> list[str]:
    """Every document a question names: its own, and those its gold requires, accepts or rules out."""
    names = {doc_stem(q["doc_name"]) for q in questions if q.get("doc_name")}
    for q in questions:
        for key in ("required_docs", "accept_docs", "other_docs"):
            names.update(doc_stem(d) for d in q.get(key, []))
    return sorted(names)


def _question_documents(q: dict) -> list[str]:
    """The documents a question is asked of: its own, and those its gold's operands or turns are read from (a change
    from one quarter's release to the next, what a CFO said on each of four calls), as a user would select them."""
    named = [q.get("doc_name", "")] + [part.get("doc_name", "") for key in ("operands", "turns") for part in q.get(key) or []
                                       if isinstance(part, dict)]
    return list(dict.fromkeys(doc_stem(n) for n in named if n))


def typed(question: dict) -> bool:
    """Whether a question has a typed gold, judged correct, wrong or abstained: it says what it expects, or it is a
    question about a call, a release's people or a deck's slide (a slide question written without `expect` expects
    its answer)."""
    return "expect" in question or question.get("kind") in CALL_KINDS


def evaluate(ws: Workspace, questions: list[dict], scope: str, top_k: int) -> dict:
    engine = QueryEngine(ws)
    stems = {d.stem: d.doc_id for d in ws.catalog.documents()}
    hits = {1: 0, 3: 0, 5: 0}
    figures: list[bool] = []
    accuracy: list[tuple[bool, bool]] = []
    split: dict[str, list[dict]] = {"printed": [], "computed": []}
    labels = {"grounded": 0, "partial": 0, "ungrounded": 0}
    lists = {"items": [0, 0, 0], "docs": [0, 0, 0]}  # found, required, questions
    extra_docs = other_kind = 0
    listed_rows: list[dict] = []
    scores, latency, per_question = [], [], []
    judged: list[dict] = []  # questions with typed golds (`expect`): one outcome each
    paged = 0  # questions with gold pages: recall is over these only
    for q in questions:
        docs = _question_documents(q) if scope == "doc" else []
        answer = engine.answer(q["question"], docs=docs, mode="deterministic", top_k=top_k)
        gold = {(stems.get(doc_stem(q.get("doc_name", ""))), e["page_index"] + 1) for e in q.get("evidence", [])}
        ranked = list(zip(answer.retrieval.ranked_docs, answer.retrieval.ranked_pages))
        found = {k: any(r in gold for r in ranked[:k]) for k in hits} if gold else {k: None for k in hits}
        for k, ok in found.items():
            hits[k] += bool(ok)
        paged += bool(gold)
        figure = figures_match(q.get("answer") or "", answer.answer)
        if figure is not None:
            figures.append(figure)
        gold_value = None if typed(q) else gold_figure(q.get("answer") or "", q["question"])
        correct = wrong = outcome = None
        if typed(q):
            outcome = judge(q, answer)
            judged.append({"template": q.get("template", "?"), "kind": q.get("kind", "figure"), "outcome": outcome,
                           "expect": q.get("expect", "answer"), "writer": q.get("writer", "")})
        elif gold_value is not None:
            correct, wrong = answer_accuracy(gold_value, answer)
            correct = correct or (not stated_values(answer) and bool(figure))
            accuracy.append((correct, wrong))
            split["computed" if is_computed(q["question"], answer) else "printed"].append(
                {"correct": correct, "wrong": wrong, "abstained": not correct and not wrong})
        listed = {**list_coverage(q, answer), **people_found(q, answer)}
        if listed:
            listed_rows.append({"template": q.get("template", "?"), "writer": q.get("writer", ""), "listed": dict(listed)})
        unexpected = listed.pop("unexpected_docs", None)
        if unexpected is not None:
            extra_docs += unexpected[0]
        other = listed.pop("other_kind_docs", None)
        if other is not None:
            other_kind += other[0]
        for key, (got, of) in listed.items():
            lists.setdefault(key, [0, 0, 0])
            lists[key][0] += got
            lists[key][1] += of
            lists[key][2] += 1
        labels[answer.verification.label] += 1
        scores.append(answer.verification.grounding_score)
        latency.append(answer.timings_ms.total)
        per_question.append({"id": q.get("id"), "recall@5": found[5], "figure_match": figure,
                             "grounding": answer.verification.grounding_score, "intent": answer.intent.type,
                             "figure_correct": correct, "wrong_stated": wrong,
                             **({"template": q.get("template"), "outcome": outcome} if outcome else {}),
                             **({"writer": q["writer"]} if q.get("writer") else {}),
                             "answer": answer.answer[:300],
                             **({"verdict": answer.verdict.value} if answer.verdict else {}),
                             "figures": [f"{f.value:g} {f.unit} x{f.scale:g}" for f in answer.figures],
                             **{f"required_{k}_found": f"{got}/{of}" for k, (got, of) in listed.items()},
                             **({"unexpected_docs": unexpected[0]} if unexpected is not None else {}),
                             **({"other_kind_docs": other[0]} if other is not None else {}),
                             "ms": answer.timings_ms.total})
    return {
        "questions": len(questions), "scope": scope,
        "page_recall": {str(k): round(v / paged, 4) if paged else None for k, v in hits.items()},
        "page_questions": paged,
        "figure_match": round(sum(figures) / len(figures), 4) if figures else None,
        "answer_accuracy": {
            "figure_questions": len(accuracy),
            "stated_correct": round(sum(c for c, _ in accuracy) / len(accuracy), 4) if accuracy else None,
            "wrong_stated": round(sum(w for _, w in accuracy) / len(accuracy), 4) if accuracy else None,
            "printed": _shares(split["printed"]), "computed": _shares(split["computed"]),
        },
        "lists": {k: {"questions": q_n, "required": of, "found": got, "share": round(got / of, 4) if of else None,
                      **({"unexpected": extra_docs, "other_kind": other_kind} if k == "docs" else {})}
                  for k, (got, of, q_n) in lists.items()},
        **({"lists_per_template": list_table(listed_rows)} if any("template" in q for q in questions) and listed_rows
           else {}),
        **({"lists_per_writer": list_table([{**r, "template": r["writer"]} for r in listed_rows])}
           if any(r["writer"] for r in listed_rows) else {}),
        "grounding": {**labels, "mean": round(statistics.fmean(scores), 4) if scores else 0.0},
        **({"judged": _judged(judged)} if judged else {}),
        "latency_ms": {"p50": percentile(latency, 50), "p95": percentile(latency, 95)},
        "per_question": per_question,
    }


def run(args, settings: VeraSettings) -> int:
    path = Path(args.file)
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.template:
        questions = [q for q in questions if any(q.get("template", "").startswith(t) for t in args.template)]
    ws = Workspace(settings, batch=True)
    ensure_documents(ws, [Path(d) for d in args.documents] if args.documents else [path.parent],
                     question_documents(questions))
    report = evaluate(ws, questions, args.scope, args.top_k)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{report['questions']} questions, scope {report['scope']}")
    if report["page_questions"]:
        print("page recall@1/3/5: " + " / ".join(f"{report['page_recall'][k]:.2f}" for k in ("1", "3", "5"))
              + f" over {report['page_questions']} question{'s' * (report['page_questions'] != 1)} with gold pages")
    else:
        print("page recall@1/3/5: n/a (no question names its gold pages)")
    print(f"figure match: {report['figure_match']}")
    acc = report["answer_accuracy"]
    print(f"answer accuracy ({acc['figure_questions']} questions with a gold figure): stated correctly "
          f"{acc['stated_correct']}, wrong-stated {acc['wrong_stated']}")
    for kind in ("printed", "computed"):
        part = acc[kind]
        print(f"  {kind} figures: {part['questions']} questions, correct {part['correct']}, "
              f"wrong-stated {part['wrong_stated']}, abstained or not stated {part['abstained']}")
    g = report["grounding"]
    for kind, part in report["lists"].items():
        if part["questions"]:
            print(f"required {kind}: {part['found']} of {part['required']} found ({part['share']}) over "
                  f"{part['questions']} questions"
                  + (f"; cited and neither required nor accepted: {part['unexpected']}; of another kind: "
                     f"{part['other_kind']}" if kind == "docs" else ""))
    for key, title in (("lists_per_template", "template"), ("lists_per_writer", "writer")):
        if key not in report:
            continue
        print(f"{title:32} {'n':>4} {'found':>6} {'of':>5} {'share':>6} {'complete':>9} {'unexpected':>11} "
              f"{'other kind':>11}")
        for template, row in report[key].items():
            print(f"{template:32} {row['questions']:>4} {row['found']:>6} {row['required']:>5} {row['share']!s:>6} "
                  f"{row['complete']!s:>9} {row['unexpected_docs']!s:>11} {row['other_kind_docs']!s:>11}")
    if "judged" in report:
        print_judged(report["judged"])
    print(f"grounding: {g['grounded']} grounded, {g['partial']} partial, {g['ungrounded']} ungrounded, mean {g['mean']:.2f}")
    print(f"latency: p50 {report['latency_ms']['p50']} ms, p95 {report['latency_ms']['p95']} ms")
    return 0


def print_judged(judged: dict) -> None:
    """The typed-gold outcomes: by kind, then one row per template."""
    for kind in ("figure_and_metric", "figure", "metric", "verdict", "people", "remark", "slide", "expect_abstain"):
        part = judged.get(kind, {"questions": 0})
        if part["questions"]:
            print(f"{kind.replace('_', ' ')}: {part['questions']} questions, correct {part['correct']:.1%}, "
                  f"wrong-stated {part['wrong']:.1%}, abstained {part['abstained']:.1%}")
    for key, title in (("per_template", "template"), ("per_writer", "writer")):
        if key not in judged:
            continue
        print(f"{title:32} {'n':>4} {'correct':>8} {'wrong':>6} {'abstained':>10}")
        for template, row in judged[key].items():
            print(f"{template:32} {row['questions']:>4} {row['correct']:>8} {row['wrong']:>6} {row['abstained']:>10}")
