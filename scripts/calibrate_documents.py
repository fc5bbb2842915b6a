#!/usr/bin/env python
"""Calibrate the document-coverage thresholds (vera_core/answer/strategies/documents.py) on the
bundled sample policies: for each probe topic, the best passage of every policy (its share of the
topic's concepts and its cosine to the topic), and for a grid of thresholds how many (topic, policy)
pairs the decision rule gets right. The probes are written from the policies' content, in words
the policies do not all use, and each names the policies that address it.

Usage: .venv/bin/python scripts/calibrate_documents.py [--data-dir DIR]   (ingests data/samples when missing)
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np

from vera_core.answer.strategies import documents
from vera_core.answer.topics import coverage, passages, read_topic
from vera_core.config import VeraSettings
from vera_core.ingest.service import Ingestor
from vera_core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]
PROBES: dict[str, set[str]] = {
    "Which policies address encryption of data at rest?":
        {"acceptable_use_policy", "data_protection_policy", "mobile_device_policy"},
    "Which policies require multi-factor authentication?": {"information_security_policy"},
    "Which policies address working from home?": {"remote_working_policy"},
    "Which policies cover laptop theft?": {"mobile_device_policy"},
    "Which policies address phishing?": {"acceptable_use_policy", "incident_response_policy"},
    "Which policies set limits for client entertainment?": {"expense_policy"},
    "Which policies mention a legal hold?": {"data_retention_policy"},
    "Which policies address transfers of personal data outside the EEA?": {"data_protection_policy"},
    "Which policies set recovery time objectives?": {"business_continuity_policy"},
    "Which policies address password rules?": {"information_security_policy", "acceptable_use_policy"},
    "Which policies address encryption of data in transit?": {"remote_working_policy"},
    "Which policies address shredding paper records?": {"data_retention_policy"},
    "Which policies address screen locking?": {"mobile_device_policy", "remote_working_policy"},
    "Which policies address disciplinary action for breaches?": {"information_security_policy"},
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=None)
    args = ap.parse_args()
    settings = VeraSettings(data_dir=args.data_dir) if args.data_dir else VeraSettings()
    ws = Workspace(settings)
    ingestor = Ingestor(ws)
    for path in sorted((ROOT / "data" / "samples").iterdir()):
        if path.suffix == ".md":
            ingestor.ingest_file(path)
    policies = [d for d in ws.catalog.documents() if d.format == "markdown"]
    rows = []  # (question, policy, addresses, [(lexical, cosine) of every passage])
    for question, expected in PROBES.items():
        topic = read_topic(question)
        vector = np.asarray(ws.embedder.get_query_embedding(topic.text))
        for doc in policies:
            found = passages(ws.doc_chunks(doc.doc_id))
            vectors = np.asarray(ws.embedder.encode([p.text for p in found]))
            scored = [(coverage(p, topic), float(v @ vector)) for p, v in zip(found, vectors)]
            rows.append((question, doc.stem, doc.stem in expected, scored))
    print(f"{'addresses':>9} {'lexical':>7} {'cosine':>6}  policy / question (best lexical, best cosine)")
    for question, stem, truth, scored in sorted(rows, key=lambda r: (not r[2], r[1])):
        lex, cos = max(s[0] for s in scored), max(s[1] for s in scored)
        if truth or lex >= 0.5 or cos >= 0.4:
            print(f"{truth!s:>9} {lex:7.2f} {cos:6.3f}  {stem} / {question}")
    print("\nthresholds (pair cosine, dense cosine): correct pairs, false positives, false negatives")
    best = None
    for pair, dense in itertools.product([0.35, 0.40, 0.45, 0.50, 0.55, 0.60],
                                         [0.55, 0.60, 0.62, 0.65, 0.70, 0.75]):
        decided = [(truth, any(lex >= 1.0 or (lex >= 0.5 and cos >= pair) or cos >= dense for lex, cos in scored))
                   for _, _, truth, scored in rows]
        fp = sum(1 for t, d in decided if d and not t)
        fn = sum(1 for t, d in decided if t and not d)
        print(f"  {pair:.2f} {dense:.2f}: {len(rows) - fp - fn}/{len(rows)}, fp {fp}, fn {fn}")
        if best is None or (fp + fn, fp) < best[0]:
            best = ((fp + fn, fp), pair, dense)
    print(f"fewest errors (false positives first): pair {best[1]:.2f}, dense {best[2]:.2f}; "
          f"in use: pair {documents.PAIR_COSINE:.2f}, dense {documents.DENSE_COSINE:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
