"""`vera serve` without a browser: the nginx configuration nginx itself accepts (both affinities), a
store several processes cannot share refused by name, and an app process that dies started again
while the proxy keeps answering."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import settings_for
from vera_core.serve.cluster import Cluster, ServeError
from vera_core.serve.nginx import ProxyPlan, nginx_config, prepare_run_dir

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
needs_nginx = pytest.mark.skipif(not Path(NGINX).exists(), reason="needs Debian's nginx (make test installs it)")


@needs_nginx
@pytest.mark.parametrize("sticky", ["cookie", "ip"])
def test_nginx_accepts_the_configuration(tmp_path, sticky):
    plan = ProxyPlan("127.0.0.1", 8600, ("127.0.0.1:9001", "127.0.0.1:9002"), tmp_path, max_body_mb=101,
                     sticky=sticky)
    prepare_run_dir(tmp_path)
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_config(plan))
    tested = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
    assert tested.returncode == 0, tested.stderr
    text = conf.read_text()
    assert "server 127.0.0.1:9001" in text and "server 127.0.0.1:9002" in text
    assert "proxy_set_header Upgrade $http_upgrade" in text and "client_max_body_size 101m" in text
    assert ("ip_hash;" in text) == (sticky == "ip") and ("vera_affinity=" in text) == (sticky == "cookie")


def test_several_processes_on_the_embedded_store_are_refused_naming_the_settings(tmp_path):
    cluster = Cluster(settings_for(tmp_path / "store"), processes=2, port=8600)
    with pytest.raises(ServeError, match="VERA_DATABASE_URL and VERA_CHROMA_URL"):
        cluster.start()
    assert not cluster.apps and not (tmp_path / "store" / "serve").exists()


@needs_nginx
def test_an_app_process_that_dies_is_started_again_behind_the_proxy(tmp_path):
    from vera_bench.app_server import free_port
    cluster = Cluster(settings_for(tmp_path / "store"), processes=1, port=free_port(), workers=0)
    try:
        cluster.start()
        app = cluster.apps[0]
        first = app.process.pid
        app.process.send_signal(signal.SIGKILL)
        app.process.wait()
        cluster.watch_once()
        assert app.restarts == 1 and app.process.pid != first
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{cluster.url}/_stcore/health", timeout=3) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline, "the proxy did not answer again within 120 s"
                time.sleep(0.5)
    finally:
        cluster.stop()
    assert not app.alive() and not cluster.proxy.alive()
