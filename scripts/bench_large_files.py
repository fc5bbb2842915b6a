"""Large files through a real `vera worker` (issue 27): time to searchable and the worker's peak memory for
one-paragraph Markdown files of 1, 10 and 60 MB and a 60 MB file of ordinary paragraphs, a small file queued
behind each, and how long SIGTERM takes to stop the worker and its children while it embeds.

    .venv/bin/python scripts/bench_large_files.py [--sizes 1,10,60] [--ordinary 60] [--out DIR]

Prints one line a file; nothing is downloaded, the files are written into a temporary folder."""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vera_core.config import VeraSettings  # noqa: E402
from vera_core.process_stop import descendants, living  # noqa: E402
from vera_core.store.jobs import JobQueue  # noqa: E402
from vera_core.workspace import Workspace  # noqa: E402

WORDS = ("the company revenue increased operating margin policy security incident response data retention "
         "employee access control review annual quarterly report board risk management supplier contract").split()


def one_paragraph(path: Path, mb: int) -> Path:
    rng = random.Random(mb)
    with path.open("w", encoding="utf-8") as out:
        out.write("# A very long paragraph\n\n")
        while out.tell() < mb * 1_000_000:  # no line break, no sentence end
            out.write(" ".join(rng.choice(WORDS) for _ in range(110)) + " ")
        out.write("\n")
    return path


def ordinary(path: Path, mb: int) -> Path:
    rng = random.Random(-mb)
    with path.open("w", encoding="utf-8") as out:
        out.write("# A long handbook\n\n")
        i = 0
        while out.tell() < mb * 1_000_000:
            i += 1
            if i % 20 == 0:
                out.write(f"## Section {i // 20}\n\n")
            sentence = " ".join(rng.choice(WORDS) for _ in range(16))
            out.write(f"{sentence.capitalize()}. {sentence.capitalize()}. {' '.join(rng.choice(WORDS) for _ in range(70))}.\n\n")
    return path


def vm(pid: int, field: str) -> float:
    """VmHWM (peak) or VmRSS of a process, in MiB (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run_one(path: Path, folder: Path) -> str:
    settings = VeraSettings(data_dir=folder / f"store-{path.stem}")
    ws = Workspace(settings)
    queue = JobQueue(ws.catalog)
    small = folder / f"after-{path.stem}.md"
    small.write_text("# Travel policy\n\nEmployees book economy class for flights under six hours.\n", encoding="utf-8")
    big_job = queue.enqueue(path.name, str(path))
    small_job = queue.enqueue(small.name, str(small))
    env = dict(os.environ, VERA_DATA_DIR=str(settings.resolved_data_dir()), HF_HUB_OFFLINE="1")
    started = time.monotonic()
    worker = subprocess.Popen([sys.executable, "-m", "vera_core.cli.main", "worker"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = {}
    big = small_at = None
    try:
        while time.monotonic() - started < 600:
            for pid in [worker.pid, *descendants(worker.pid)]:
                peak[pid] = max(peak.get(pid, 0.0), vm(pid, "VmHWM"))
            job = queue.get(big_job)
            if big is None and (job.searchable_at or job.status in ("failed", "done")):
                big = (time.monotonic() - started, job)
            if small_at is None and queue.get(small_job).searchable_at:
                small_at = time.monotonic() - started
            if big and small_at and (queue.get(big_job).stage in ("embedding", "failed", "complete")):
                break
            time.sleep(0.2)
        family = [worker.pid, *descendants(worker.pid)]
        signalled = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        while living(family) and time.monotonic() - signalled < 30:
            time.sleep(0.02)
        stopped = time.monotonic() - signalled
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.wait()
    size = path.stat().st_size / 2**20
    seconds, job = big if big else (float("nan"), queue.get(big_job))
    outcome = "searchable" if job.searchable_at else f"{job.status}: {job.error[:90]}"
    return (f"{path.name:24s} {size:6.1f} MiB  {outcome:10s} in {seconds:6.1f} s ({seconds / size:5.2f} s/MiB), "
            f"{job.chunks} chunks; worker peak {peak.get(worker.pid, 0):6.0f} MiB, its children's peak "
            f"{max([v for p, v in peak.items() if p != worker.pid], default=0):5.0f} MiB; file queued after it "
            f"searchable at {small_at if small_at is not None else float('nan'):6.1f} s; SIGTERM while "
            f"{job.stage}: all {len(family)} processes gone in {stopped:4.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,60", help="one-paragraph file sizes in MB")
    parser.add_argument("--ordinary", default="60", help="ordinary-paragraph file sizes in MB")
    parser.add_argument("--out", default="", help="folder for the files and stores (a temporary one by default)")
    args = parser.parse_args()
    folder = Path(args.out or tempfile.mkdtemp(prefix="vera-bench-large-"))
    folder.mkdir(parents=True, exist_ok=True)
    files = [one_paragraph(folder / f"one-paragraph-{mb}mb.md", mb) for mb in map(int, filter(None, args.sizes.split(",")))]
    files += [ordinary(folder / f"ordinary-{mb}mb.md", mb) for mb in map(int, filter(None, args.ordinary.split(",")))]
    for path in files:
        print(run_one(path, folder), flush=True)


if __name__ == "__main__":
    main()
