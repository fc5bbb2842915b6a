"""`vera worker`: work the store's ingestion queue in the foreground (the app starts one itself)."""

from __future__ import annotations

import logging
import os
import signal

from vera_core.config import VeraSettings
from vera_core.ingest.worker import IngestWorker
from vera_core.ingest.worker_process import store_lock
from vera_core.workspace import Workspace


def _stop(signum, _frame) -> None:
    """SIGTERM (systemd, `kill`, a container stop) ends the worker as Ctrl-C does: its reading and
    embedding processes are stopped, its jobs released to the next worker."""
    raise SystemExit(128 + signum)


def run(args, settings: VeraSettings) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    signal.signal(signal.SIGTERM, _stop)
    if args.nice:
        os.nice(args.nice)
    data_dir = settings.resolved_data_dir()
    with store_lock(settings) as mine:
        if not mine:
            print(f"A worker already writes to {data_dir}; nothing to do.")
            return 0
        if args.threads:  # NOTE: the app's worker leaves the other core to the questions asked meanwhile
            import torch
            torch.set_num_threads(args.threads)
            settings = settings.model_copy(update={"embed_workers": 1})
        ws = Workspace(settings, batch=True)
        try:
            IngestWorker(ws, parse_workers=args.workers or 1).run(until_idle=args.until_idle, parent=args.parent,
                                                                 idle_exit_s=args.idle_exit)
        finally:
            ws.close_embedder()
    return 0
