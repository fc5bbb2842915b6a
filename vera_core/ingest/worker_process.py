"""The store's writer lock and the background ingestion worker's process: whether one runs, and starting
one (`vera worker`). A light module: the app asks it on every page run, and it imports none of the
ingestion machinery (the worker itself is `worker.py`)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from vera_core.config import VeraSettings

__all__ = ["LOCK_FILE", "PID_FILE", "start_worker_process", "store_lock", "worker_running", "writer_lock"]

LOCK_FILE = "writer.lock"


@contextmanager
def writer_lock(data_dir: Path, *, wait: bool = False) -> Iterator[bool]:
    """The store's writer lock (an flock on `<store>/writer.lock`); yields whether it was acquired.
    The lock dies with its process, so a killed worker never blocks the next one."""
    data_dir.mkdir(parents=True, exist_ok=True)
    handle = open(data_dir / LOCK_FILE, "a+")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            acquired = True
        except BlockingIOError:
            acquired = False
        yield acquired
    finally:
        if acquired:
            fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


@contextmanager
def store_lock(settings: VeraSettings) -> Iterator[bool]:
    """The right to work the store's queue; yields whether this process has it. On a team store
    (PostgreSQL) every process has it: workers on any host claim jobs row by row (SKIP LOCKED) and keep
    them with heartbeats. On the embedded store, one process at a time: the writer lock."""
    if settings.team_store:
        yield True
        return
    with writer_lock(settings.resolved_data_dir()) as mine:
        yield mine


PID_FILE = "worker.pid"
_started: dict[str, subprocess.Popen] = {}
_starting = threading.Lock()


def worker_running(data_dir: Path) -> bool:
    """Whether some process holds the store's writer lock (a worker, or a `vera ingest` at work), or a
    worker was started and is still loading (it takes the lock once its imports are done)."""
    with writer_lock(data_dir) as acquired:
        if not acquired:
            return True
    started = _started.get(str(data_dir))
    if started is not None and started.poll() is None:
        return True
    return _starting_elsewhere(data_dir)


def _starting_elsewhere(data_dir: Path) -> bool:
    """A worker another process started, still alive but not holding the lock yet (its pid file)."""
    try:
        pid = int((data_dir / PID_FILE).read_text().strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="ignore")
    except (OSError, ValueError):
        return False
    return "vera_core.cli.main" in cmdline and "worker" in cmdline and str(data_dir) in cmdline


def start_worker_process(settings: VeraSettings, *, parent: int | None = None, nice: int = 10,
                         idle_exit_s: float | None = None, threads: int = 0) -> subprocess.Popen | None:
    """Start `vera worker` for the store in the background, unless one already runs. With `parent`,
    the worker stops once that process is gone and the queue is empty; with `idle_exit_s`, after that
    long with nothing to do. `nice` lowers its CPU priority so that questions asked meanwhile come
    first; `threads` > 0 embeds in-process on that many threads (the app's worker takes one core).
    Its output goes to `<store>/worker.log`."""
    data_dir = settings.resolved_data_dir()
    with _starting:  # NOTE: sessions rerun concurrently; only one may start the store's worker
        if worker_running(data_dir):
            return None
        process = _spawn(settings, data_dir, parent, nice, idle_exit_s, threads)
        _started[str(data_dir)] = process
        (data_dir / PID_FILE).write_text(str(process.pid))
        return process


def _spawn(settings: VeraSettings, data_dir: Path, parent: int | None, nice: int,
           idle_exit_s: float | None, threads: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "vera_core.cli.main", "--data-dir", str(data_dir), "worker", "--nice", str(nice)]
    if threads:
        command += ["--threads", str(threads)]
    if parent is not None:
        command += ["--parent", str(parent)]
    if idle_exit_s is not None:
        command += ["--idle-exit", str(idle_exit_s)]
    with open(data_dir / "worker.log", "ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=str(Path(__file__).resolve().parents[2]), env=_child_env(settings))


def _child_env(settings: VeraSettings) -> dict[str, str]:
    env = dict(os.environ)
    env["VERA_DATA_DIR"] = str(settings.resolved_data_dir())
    return env
