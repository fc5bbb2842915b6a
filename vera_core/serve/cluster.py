"""`vera serve`: N Streamlit processes and the store's ingestion workers behind nginx, watched and
restarted, stopped together.

Every app process shares one cookie secret (a session's XSRF cookie, set by whichever process served
its first page, is checked by the process holding its websocket) and the store's settings (the
`VERA_*` environment). Each process is checked at `/_stcore/health`; one that exits or stops
answering is started again, and nginx sends its sessions to the others meanwhile (a session reconnects
to a fresh state there, as after a restart)."""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from vera_core.config import VeraSettings
from vera_core.errors import VeraError
from vera_core.serve.nginx import ProxyPlan, Sticky, nginx_config, prepare_run_dir
from vera_core.serve.ports import APP_DIR, free_port

log = logging.getLogger("vera.serve")

HEALTH_PERIOD_S = 5.0
HEALTH_FAILURES = 3
"""An app process failing this many checks in a row is restarted."""
START_TIMEOUT_S = 180.0


class ServeError(VeraError):
    """`vera serve` cannot start: a missing program, or a store several processes cannot share."""


@dataclass
class Managed:
    """One child process the supervisor keeps running."""

    name: str
    command: list[str]
    env: dict[str, str]
    log_path: Path
    health_url: str | None = None
    process: subprocess.Popen | None = None
    failures: int = 0
    restarts: int = 0

    def start(self) -> None:
        with open(self.log_path, "ab") as out:
            self.process = subprocess.Popen(self.command, cwd=APP_DIR, env=self.env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def healthy(self) -> bool:
        if self.health_url is None:
            return self.alive()
        try:
            with urllib.request.urlopen(self.health_url, timeout=3) as response:
                return response.status == 200
        except OSError:
            return False

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> None:
        if not self.alive():
            return
        try:
            os.killpg(self.process.pid, sig)
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        except ProcessLookupError:
            pass


@dataclass
class Cluster:
    """The processes of one `vera serve`."""

    settings: VeraSettings
    processes: int
    port: int
    host: str = "127.0.0.1"
    workers: int = 1
    sticky: Sticky = "cookie"
    apps: list[Managed] = field(default_factory=list)
    ingest_workers: list[Managed] = field(default_factory=list)
    proxy: Managed | None = None

    @property
    def run_dir(self) -> Path:
        return self.settings.resolved_data_dir() / "serve"

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def check(self) -> str:
        """The nginx program; raises ServeError naming what is missing."""
        if self.processes > 1 and not (self.settings.database_url and self.settings.chroma_url):
            missing = [name for name, value in (("VERA_DATABASE_URL", self.settings.database_url),
                                                ("VERA_CHROMA_URL", self.settings.chroma_url)) if not value]
            raise ServeError(
                f"vera serve --processes {self.processes} needs a team store: set {' and '.join(missing)} "
                "(PostgreSQL and a Chroma server). The embedded SQLite catalog and Chroma store take one "
                "app process; see docs/deploy.md.")
        nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
        if nginx is None:
            raise ServeError("vera serve runs the app behind nginx, which is not installed: "
                             "apt-get install nginx (Debian's package; its service need not run).")
        return nginx

    def start(self) -> None:
        """Start the app processes and workers, wait until every app answers, then start nginx."""
        nginx = self.check()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **_settings_env(self.settings), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32)}
        upload_mb = int(self.settings.max_file_mb) + 1
        for i in range(self.processes):
            port = free_port()
            self.apps.append(Managed(
                f"app {i + 1}", [sys.executable, "-m", "streamlit", "run", str(APP_DIR / "app.py"),
                                 "--server.port", str(port), "--server.address", "127.0.0.1",
                                 "--server.headless", "true", "--server.fileWatcherType", "none",
                                 "--server.maxUploadSize", str(upload_mb), "--browser.gatherUsageStats", "false"],
                env, self.run_dir / f"app-{i + 1}.log", health_url=f"http://127.0.0.1:{port}/_stcore/health"))
        for i in range(self.workers):
            self.ingest_workers.append(Managed(f"worker {i + 1}", [sys.executable, "-m", "vera_core.cli.main", "worker"],
                                               env, self.run_dir / f"worker-{i + 1}.log"))
        for child in self.ingest_workers + self.apps:
            child.start()
        self._wait_healthy()
        plan = ProxyPlan(self.host, self.port, tuple(a.health_url.split("/")[2] for a in self.apps), self.run_dir,
                         max_body_mb=upload_mb, sticky=self.sticky)
        prepare_run_dir(self.run_dir)
        conf = self.run_dir / "nginx.conf"
        conf.write_text(nginx_config(plan), encoding="utf-8")
        tested = subprocess.run([nginx, "-t", "-q", "-p", str(self.run_dir), "-c", str(conf)], capture_output=True,
                                text=True)
        if tested.returncode != 0:
            raise ServeError(f"nginx refused the configuration {conf}: {tested.stderr.strip()}")
        self.proxy = Managed("nginx", [nginx, "-p", str(self.run_dir), "-c", str(conf), "-g", "daemon off;"], env,
                             self.run_dir / "nginx.out", health_url=f"{self.url}/_stcore/health")
        self.proxy.start()
        self._wait_healthy([self.proxy])

    def _wait_healthy(self, children: list[Managed] | None = None) -> None:
        waiting = list(children or self.apps)
        deadline = time.monotonic() + START_TIMEOUT_S
        while waiting:
            for child in list(waiting):
                if not child.alive():
                    raise ServeError(f"{child.name} exited with {child.process.returncode} while starting; "
                                     f"see {child.log_path}")
                if child.healthy():
                    waiting.remove(child)
            if waiting and time.monotonic() > deadline:
                raise ServeError(f"{', '.join(c.name for c in waiting)} did not answer within "
                                 f"{START_TIMEOUT_S:g} s; see {self.run_dir}")
            time.sleep(0.2)

    def watch_once(self) -> None:
        """One round of checks: restart an app that exited or failed its health checks, a worker that
        exited; nginx gone ends the serve."""
        if self.proxy is not None and not self.proxy.alive():
            raise ServeError(f"nginx exited with {self.proxy.process.returncode}; see {self.run_dir / 'error.log'}")
        for child in self.apps + self.ingest_workers:
            child.failures = 0 if child.healthy() else child.failures + 1
            if not child.alive() or child.failures >= HEALTH_FAILURES:
                log.warning("%s %s; starting it again", child.name,
                            "exited" if not child.alive() else "stopped answering its health checks")
                child.stop()
                child.failures = 0
                child.restarts += 1
                child.start()

    def serve_forever(self) -> None:
        while True:
            time.sleep(HEALTH_PERIOD_S)
            self.watch_once()

    def stop(self) -> None:
        """nginx first (no new requests), then the apps, then the workers (their jobs are released)."""
        if self.proxy is not None:
            self.proxy.stop(signal.SIGQUIT)
        for child in self.apps + self.ingest_workers:
            child.stop()


def _settings_env(settings: VeraSettings) -> dict[str, str]:
    """The settings as `VERA_*` variables, for the child processes (paths made absolute)."""
    env = {}
    for name, value in settings.model_dump(mode="json", exclude_unset=True).items():
        env[f"VERA_{name.upper()}"] = str(value)
    env["VERA_DATA_DIR"] = str(settings.resolved_data_dir())
    if settings.files_dir is not None:
        env["VERA_FILES_DIR"] = str(settings.resolved_files_dir())
    return env
