"""The nginx configuration in front of several Streamlit processes.

Streamlit keeps a session's state in the process that holds its websocket, and serves the session's
images and uploads from that process too: every request of a browser session must reach one process.
`cookie` affinity (the default) pins a browser by a cookie nginx sets on its first response, so the
analysts behind one office NAT or VPN address still spread over the processes; `ip` is nginx's
`ip_hash` (the first three octets of an IPv4 address: one office, one process). See docs/decisions.md."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Sticky = Literal["cookie", "ip"]
AFFINITY_COOKIE = "vera_affinity"
UPSTREAM_HEADER = "X-Vera-Upstream"
"""Response header naming the app process (host:port) that answered: for operators and tests."""


@dataclass(frozen=True)
class ProxyPlan:
    """What the proxy listens on and where it sends requests."""

    listen_host: str
    listen_port: int
    upstreams: tuple[str, ...]
    """App processes as host:port."""
    run_dir: Path
    """Where the configuration, logs, pid file and request buffers live."""
    max_body_mb: int
    """Largest request body (an upload) accepted, in MiB."""
    sticky: Sticky = "cookie"


def nginx_config(plan: ProxyPlan) -> str:
    """The whole nginx.conf for `plan` (run with `nginx -p run_dir -c nginx.conf`)."""
    run = plan.run_dir
    if plan.sticky == "ip":
        balance, cookie = "ip_hash;", ""
    else:
        balance = "hash $vera_affinity consistent;"
        cookie = (f'            add_header Set-Cookie "{AFFINITY_COOKIE}=$vera_affinity; Path=/; HttpOnly; '
                  'SameSite=Lax" always;\n')
    servers = "".join(f"        server {u} max_fails=2 fail_timeout=5s;\n" for u in plan.upstreams)
    temp = "".join(f"    {name}_temp_path {run / 'tmp' / name};\n"
                   for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""# Written by `vera serve`; regenerated at each start.
worker_processes 1;
pid {run / 'nginx.pid'};
error_log {run / 'error.log'} warn;
events {{ worker_connections 1024; }}

http {{
    access_log {run / 'access.log'};
{temp}
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    # a browser's affinity: its cookie, else a new random key (set on the response, kept from then on)
    map $cookie_{AFFINITY_COOKIE} $vera_affinity {{ '' $request_id; default $cookie_{AFFINITY_COOKIE}; }}

    upstream vera_app {{
        {balance}
{servers}    }}

    server {{
        listen {plan.listen_host}:{plan.listen_port};
        client_max_body_size {plan.max_body_mb}m;

        location / {{
            proxy_pass http://vera_app;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 1d;
            proxy_send_timeout 1d;
            proxy_buffering off;
            proxy_request_buffering off;
            proxy_next_upstream error timeout http_502 http_503;
{cookie}            add_header {UPSTREAM_HEADER} $upstream_addr always;
        }}
    }}
}}
"""


def prepare_run_dir(run_dir: Path) -> None:
    """The folders nginx writes to. Run as root, nginx's workers run as `nobody`: the request-buffer
    folders are theirs."""
    import os
    import pwd
    for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        path = run_dir / "tmp" / name
        path.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(path, nobody.pw_uid, nobody.pw_gid)


def affinity_keys(url: str, processes: int, tries: int = 200) -> list[str]:
    """One affinity cookie value per app process behind the proxy at `url` (found by asking which
    process answers each candidate): for benchmarks and tests that spread sessions evenly."""
    import urllib.request
    found: dict[str, str] = {}
    for i in range(tries):
        request = urllib.request.Request(f"{url}/_stcore/health", headers={"Cookie": f"{AFFINITY_COOKIE}=key{i}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            found.setdefault(response.headers[UPSTREAM_HEADER], f"key{i}")
        if len(found) == processes:
            break
    return [found[u] for u in sorted(found)]
