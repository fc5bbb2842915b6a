"""Real servers for the team-store tests: PostgreSQL from Debian's packages (initdb and pg_ctl in a
temporary folder, run as the unprivileged `postgres` user when the tests run as root) and, for the
vectors, `chroma run` from the chromadb package. Each is started once per test session, on a free
loopback port, and stopped at its end; nothing is installed or left behind."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from itertools import count
from pathlib import Path

__all__ = ["ChromaServer", "PostgresServer", "free_port"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name) or ""]
    if not found[-1]:
        raise RuntimeError(f"PostgreSQL's {name} was not found: `make test` installs Debian's postgresql package.")
    return found[-1]


class PostgresServer:
    """A throwaway PostgreSQL cluster; `new_database()` gives each store a database of its own."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="vera-pg-"))
        self.port = free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to Debian's postgres user
            shutil.chown(self.dir, "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]
        data = self.dir / "data"
        self._run(_pg_bin("initdb"), "-D", str(data), "-U", "vera", "--auth=trust", "-E", "UTF8", "--locale=C")
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run(_pg_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(self.dir / "log"), "-w", "start")
        self._names = count(1)

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self._as, *args], capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr or done.stdout}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://vera@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        import psycopg
        name = f"vera_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run([*self._as, _pg_bin("pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


class ChromaServer:
    """`chroma run` on a free loopback port with its data in a temporary folder."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="vera-chroma-"))
        self.port = free_port()
        chroma = Path(sys.executable).with_name("chroma")
        self.process = subprocess.Popen([str(chroma), "run", "--path", str(self.dir), "--host", "127.0.0.1",
                                         "--port", str(self.port)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("`chroma run` did not start") from None
                time.sleep(0.2)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
