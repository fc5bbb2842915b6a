"""Collect the blind writers' question files into data/blind/: the dev sets VERA is tuned on and the
held-back sets measured once at the end (issue 25). Prints counts only: the held-back questions and
their golds are not to be read while VERA is tuned.

    python scripts/blind_collect.py SOURCE_DIR

SOURCE_DIR holds one folder per writer (w1 ... w6) with its JSONL files, and the writers' own policy
documents in policies-extra-dev/ and policies-extra-holdout/. Every question must pass
scripts/blind_check.py; a refused one stops the collection.

Which documents are held back was drawn before any question was written (random.Random(25) over the
new filings: a third of the 14 dev3 10-Ks and of the 6 new releases) and is fixed here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "blind"
HOLDOUT_FILINGS = frozenset({"ALPHABET_2023_10K", "HCAHEALTHCARE_2022_10K", "INCYTE_2022_10K", "SAFEANDGREEN_2022_10K",
                             "WESTWATER_2022_10K", "EBAY_2023Q1_RELEASE", "META_2024Q3_RELEASE"})
"""Filings held back: their questions are measured once, at the end."""
OTHER_KIND = ["Aurora_Annual_Report_2024"]
"""A document of another kind in every policy store (a "which policies" answer must not cite it)."""
POLICY_FILES = {
    "acme-datica.jsonl": "policies-dev.jsonl",
    "tailscale.jsonl": "policies-holdout.jsonl",
    "extra-dev.jsonl": "extra-dev.jsonl",
    "extra-holdout.jsonl": "extra-holdout.jsonl",
}


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main(source: Path) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for folder in ("policies-extra-dev", "policies-extra-holdout"):
        target = OUT / folder
        if (source / folder).is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source / folder, target)
    sets: dict[str, list[dict]] = {}
    for writer in sorted(p for p in source.iterdir() if p.is_dir() and p.name.startswith("w")):
        for path in sorted(writer.glob("*.jsonl")):
            questions = read(path)
            if path.name in POLICY_FILES:
                for q in questions:
                    if q["kind"] in ("docs", "pointer"):
                        q.setdefault("other_docs", OTHER_KIND)
                sets.setdefault(POLICY_FILES[path.name], []).extend(questions)
            elif path.name == "filings.jsonl":
                for q in questions:
                    name = "filings-holdout.jsonl" if q["doc_name"] in HOLDOUT_FILINGS else "filings-dev.jsonl"
                    sets.setdefault(name, []).append(q)
            else:
                print(f"skipped {path} (not a known question file)")
    for name, questions in sorted(sets.items()):
        path = OUT / name
        path.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in questions), encoding="utf-8")
        checked = subprocess.run([sys.executable, str(ROOT / "scripts" / "blind_check.py"), str(path), "--quiet"],
                                 capture_output=True, text=True)
        writers = sorted({q["writer"] for q in questions})
        print(f"{name}: {len(questions)} questions by {', '.join(writers)}; check: {checked.stdout.strip().splitlines()[-1]}")
        if checked.returncode:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/blind")))
