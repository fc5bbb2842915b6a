"""Stopping a process and its children promptly on SIGTERM, whatever it is doing.

Python runs a signal handler only between two steps of the interpreter in the main thread: a worker
inside one long call (a batch of vectors, a large write) would read SIGTERM only when the call returns.
So the signal is also written to a wake-up pipe at the moment it arrives, and a thread waiting on that
pipe leaves the main thread `grace_s` to finish in order (close its reading and embedding processes,
release its jobs); if it has not, the thread kills the children and ends the process itself. Whatever was cut off
is repaired and resumed by the next worker (`IngestWorker.recover`)."""

from __future__ import annotations

import faulthandler
import logging
import os
import signal
import sys
import threading

__all__ = ["SIGTERM_EXIT", "descendants", "exit_now", "living", "stop_promptly_on_sigterm"]

SIGTERM_EXIT = 128 + signal.SIGTERM
"""The exit status of a process stopped by SIGTERM."""

log = logging.getLogger("vera.worker")


def descendants(pid: int) -> list[int]:
    """The processes started by `pid`, their children too (read from /proc; empty where it is not there)."""
    parents: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def living(pids: list[int]) -> list[int]:
    """Those of `pids` still running: not gone, and not a zombie waiting for its parent to read its exit."""
    alive = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                state = stat.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state != b"Z":
            alive.append(pid)
    return alive


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def exit_now(code: int) -> None:
    """End the process at once, once its logs are written: after an orderly stop, the interpreter's teardown
    (joining library threads, exit hooks) is the slow part, and nothing of VERA's is left to it."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def stop_promptly_on_sigterm(grace_s: float = 1.0) -> None:
    """From now on SIGTERM raises SystemExit in the main thread (the caller ends with `exit_now`); if the process
    has not ended `grace_s` later, its children are killed and it ends without cleaning up. Call from the main
    thread."""
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)

    def _raise(signum, _frame) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _raise)
    signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)

    def _watch() -> None:
        while True:
            try:
                got = os.read(read_fd, 64)
            except OSError:
                return
            if signal.SIGTERM in got:
                break
        # NOTE: a backstop that needs no interpreter: a C thread ends the process even while the interpreter is
        # tearing down (when this thread can no longer run)
        faulthandler.dump_traceback_later(grace_s + 0.4, exit=True, file=_devnull())
        threading.Event().wait(grace_s)  # NOTE: the main thread's own stop closes its pools and releases its jobs
        log.warning("stopped on SIGTERM before finishing in order; the next worker resumes the work")
        _kill(descendants(os.getpid()))
        os._exit(SIGTERM_EXIT)

    threading.Thread(target=_watch, name="vera-sigterm", daemon=True).start()


def _devnull():
    return open(os.devnull, "w")  # noqa: SIM115 - held until the process ends
