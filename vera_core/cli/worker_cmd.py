"""`vera worker`: work the store's ingestion queue in the foreground (the app starts one itself)."""

from __future__ import annotations

import logging
import os

from vera_core.config import VeraSettings
from vera_core.ingest.worker import IngestWorker
from vera_core.ingest.worker_process import store_lock
from vera_core.process_stop import SIGTERM_EXIT, exit_now, stop_promptly_on_sigterm
from vera_core.workspace import Workspace


def run(args, settings: VeraSettings) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # NOTE: SIGTERM (systemd, `kill`, a container stop) ends the worker within 2 s at any stage: its reading and
    # embedding processes are closed, its jobs released to the next worker (or reclaimed by it)
    stop_promptly_on_sigterm()
    try:
        return _work(args, settings)
    except SystemExit as stop:
        if stop.code != SIGTERM_EXIT:
            raise
        exit_now(SIGTERM_EXIT)  # NOTE: the interpreter's own teardown took ~1.7 s more (threads, atexit hooks)
    return SIGTERM_EXIT


def _work(args, settings: VeraSettings) -> int:
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
