"""Train the learned "which documents address this topic" decision (`vera_core/answer/doc_decision.py`)
on the dev questions in the repo, and print its weights and its recall on each set when trained on the
others (the figure that says how it carries to documents it never saw).

    .venv/bin/python scripts/train_documents_model.py STORE:QUESTIONS [STORE:QUESTIONS ...]

Each STORE is a VERA data dir holding the questions' documents with their vectors (complete), e.g.
    /tmp/pol:data/blind/policies-dev.jsonl /tmp/pol:data/policies-dev/questions.jsonl
    /tmp/extra:data/blind/extra-dev.jsonl
Labels: a document in `required_docs` is 1, one in `accept_docs` is left out, every other searched
document is 0. The sets still held back (HELD_BACK) are never used here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vera_core.answer.doc_decision import FEATURES, features  # noqa: E402
from vera_core.answer.topics import coverage, passages, read_topic  # noqa: E402
from vera_core.cli.eval_lists import doc_stem  # noqa: E402
from vera_core.config import VeraSettings  # noqa: E402
from vera_core.workspace import Workspace  # noqa: E402


HELD_BACK: frozenset[str] = frozenset()
"""The question files still held back (data/blind/README.md; none between rounds: a new round's files go here until
their one measurement). A set measured once is dev from then on and may train the model."""


def rows_for(store: str, questions_file: str) -> list[tuple[list[float], float, str]]:
    if Path(questions_file).name in HELD_BACK:
        raise SystemExit(f"{questions_file} is held back: not for training")
    ws = Workspace(VeraSettings(data_dir=store))
    docs = [d for d in ws.catalog.documents() if d.kind != "filing"]
    questions = [json.loads(x) for x in Path(questions_file).read_text().splitlines() if x.strip()]
    out = []
    for q in (q for q in questions if q.get("template", "").startswith("docs")):
        topic = read_topic(q["question"])
        vector = np.asarray(ws.embedder.get_query_embedding(topic.text), dtype=np.float32)
        cos, lex = {}, {}
        for d in docs:
            ids, matrix = ws.doc_vectors(d.doc_id)
            if ids:
                cos[d.doc_id] = list(matrix @ vector)
            lex[d.doc_id] = max((coverage(p, topic) for p in passages(ws.doc_chunks(d.doc_id))), default=0.0)
        required = {doc_stem(x) for x in q["required_docs"]}
        accepted = {doc_stem(x) for x in q.get("accept_docs", [])}
        for d in docs:
            f = features(cos, lex).get(d.doc_id)
            if f is None or d.stem in accepted - required:
                continue
            out.append((list(f.vector()), 1.0 if d.stem in required else 0.0, q["id"]))
    return out


def fit(rows, l2=0.01, steps=3000, rate=0.5):
    x = np.asarray([r[0] for r in rows])
    y = np.asarray([r[1] for r in rows])
    mean, scale = x.mean(0), x.std(0) + 1e-9
    z = (x - mean) / scale
    w, b = np.zeros(z.shape[1]), 0.0
    weight = np.where(y == 1, (len(y) - y.sum()) / max(1.0, y.sum()), 1.0)  # NOTE: classes weighed equally
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        g = (p - y) * weight
        w -= rate * (z.T @ g / len(y) + l2 * w)
        b -= rate * g.mean()
    return mean, scale, w, b


def recall(model, rows, threshold):
    mean, scale, w, b = model
    p = 1 / (1 + np.exp(-(((np.asarray([r[0] for r in rows]) - mean) / scale) @ w + b)))
    found = sum(1 for r, x in zip(rows, p) if x >= threshold and r[1] == 1)
    extra = sum(1 for r, x in zip(rows, p) if x >= threshold and r[1] == 0)
    return found / max(1, sum(r[1] == 1 for r in rows)), extra


def main(pairs: list[str]) -> int:
    sets = {pair: rows_for(*pair.split(":", 1)) for pair in pairs}
    for held, rows in sets.items():
        model = fit([r for k, v in sets.items() if k != held for r in v])
        for threshold in (0.5, 0.6, 0.7):
            got, extra = recall(model, rows, threshold)
            print(f"{held}: trained on the others, threshold {threshold}: recall {got:.3f}, {extra} documents too many")
    mean, scale, w, b = fit([r for v in sets.values() for r in v])
    print("FEATURES =", FEATURES)
    print("MEAN =", tuple(round(float(v), 4) for v in mean))
    print("SCALE =", tuple(round(float(v), 4) for v in scale))
    print("WEIGHTS =", tuple(round(float(v), 3) for v in w))
    print("BIAS =", round(float(b), 3))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
