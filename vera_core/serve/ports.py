"""What serving the app needs of this machine: a free port for each process, and the folder that holds `app.py`."""

from __future__ import annotations

import socket
from pathlib import Path

APP_DIR = Path(__file__).resolve().parents[2]
"""The checkout the app runs from: `app.py`, `app_pages/` and `components/` live here."""


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
