"""`vera serve`: the app as several Streamlit processes behind nginx, with the store's ingestion
workers, until Ctrl-C or SIGTERM."""

from __future__ import annotations

import logging
import signal

from vera_core.config import VeraSettings
from vera_core.errors import VeraError
from vera_core.serve.cluster import Cluster


class _Stopped(Exception):
    """SIGTERM: stop everything and exit 0, as after Ctrl-C (a service manager's normal stop)."""


def _stop(signum, _frame) -> None:
    raise _Stopped


def run(args, settings: VeraSettings) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.processes < 1 or args.workers < 0:
        raise VeraError("vera serve needs --processes 1 or more and --workers 0 or more.")
    signal.signal(signal.SIGTERM, _stop)
    cluster = Cluster(settings, processes=args.processes, port=args.port, host=args.host, workers=args.workers,
                      sticky=args.sticky)
    try:
        cluster.start()
        apps = ", ".join(a.health_url.split("/")[2] for a in cluster.apps)
        print(f"VERA on {cluster.url}: {len(cluster.apps)} app process(es) ({apps}), "
              f"{len(cluster.ingest_workers)} ingestion worker(s), sticky by {args.sticky}; "
              f"logs and nginx.conf in {cluster.run_dir}", flush=True)
        cluster.serve_forever()
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        cluster.stop()
    return 0
