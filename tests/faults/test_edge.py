"""The edge of the compose deployment (deploy/nginx/patience.conf.template), run for real: nginx
with that configuration in front of a live server, as docker-compose.yml runs it (the test
changes only what a container changes: the ports, the certificate folder, the upstream address).

Through the edge: HTTP is redirected to HTTPS; pages, the API and WebSockets work over TLS; slow
request bodies stay in nginx (the app's only request slot keeps serving others); a client's own
X-Forwarded-For cannot choose the address the app sees (the guests' limit per address holds).
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
import ssl
import subprocess
import threading
import time
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.faults.live import dailies_ready
from tests.support import ROOT, free_port, stop, wait_for_port

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TEMPLATE = ROOT / "deploy/nginx/patience.conf.template"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


class Edge:
    """nginx with the deployment's site configuration, on free ports, in front of the server
    on `upstream_port`."""

    process: subprocess.Popen | None = None

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.http_port, self.https_port = free_port(), free_port()
        self.origin = f"https://127.0.0.1:{self.https_port}"

    def start(self, upstream_port: int) -> Edge:
        tmp = self.tmp
        certs = tmp / "certs"
        certs.mkdir(parents=True)
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
            + ["-subj", "/CN=localhost", "-keyout", str(certs / "privkey.pem")]
            + ["-out", str(certs / "fullchain.pem")],
            check=True,
            capture_output=True,
        )
        site = TEMPLATE.read_text().replace("${SERVER_NAME}", "127.0.0.1")
        site = site.replace("server web:8000;", f"server 127.0.0.1:{upstream_port};")
        site = site.replace("/etc/nginx/certs/", f"{certs}/")
        site = re.sub(r"listen \[::\]:\d+[^;]*;\n", "", site)
        site = re.sub(r"listen 80;", f"listen 127.0.0.1:{self.http_port};", site)
        site = re.sub(r"listen 443 ssl", f"listen 127.0.0.1:{self.https_port} ssl", site)
        site = site.replace(
            "return 301 https://$host$request_uri;",
            f"return 301 https://$host:{self.https_port}$request_uri;",
        )
        (tmp / "site.conf").write_text(site)
        (tmp / "nginx.conf").write_text(
            f"""
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/site.conf;
}}
"""
        )
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.tmp), "-c", str(self.tmp / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.https_port, timeout=20, process=self.process)
        return self

    def stop(self) -> None:
        stop(self.process)

    def https(self, method: str, path: str, headers: dict[str, str] | None = None) -> tuple:
        context = ssl._create_unverified_context()
        conn = http.client.HTTPSConnection(
            "127.0.0.1", self.https_port, context=context, timeout=15
        )
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        conn.close()
        return response.status, dict(response.getheaders()), body


@pytest.fixture
def edge(start_server, tmp_path):
    made: list[Edge] = []

    def start(**server_settings: str) -> Edge:
        front = Edge(tmp_path / f"edge-{len(made)}")
        made.append(front)
        # The site's origin: its host name and, on a port other than 443, the port (as a
        # deployment on another HTTPS_PORT would list it in CSRF_TRUSTED_ORIGINS).
        server = start_server(
            ALLOWED_HOSTS="127.0.0.1",
            CSRF_TRUSTED_ORIGINS=front.origin,
            NUM_PROXIES="1",
            **server_settings,
        )
        return front.start(server.port)

    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install nginx-light; .ci/run does)")
    yield start
    for one in made:
        one.stop()


def test_through_the_edge_http_is_redirected_and_https_serves_pages_api_and_sockets(edge):
    daily = dailies_ready("munger")
    front = edge()

    conn = http.client.HTTPConnection("127.0.0.1", front.http_port, timeout=10)
    conn.request("GET", "/api/dailies/")
    redirect = conn.getresponse()
    assert redirect.status == 301
    assert redirect.getheader("Location") == f"{front.origin}/api/dailies/"
    # The container's health check: plain HTTP from inside, through to a web process.
    conn = http.client.HTTPConnection("127.0.0.1", front.http_port, timeout=10)
    conn.request("GET", "/healthz/")
    assert conn.getresponse().status == 200

    status, headers, body = front.https("GET", "/api/dailies/")
    assert status == 200 and json.loads(body)
    assert front.https("GET", "/")[0] == 200

    context = ssl._create_unverified_context()
    with connect(
        f"wss://127.0.0.1:{front.https_port}/ws/daily/munger/{daily.date.isoformat()}/",
        ssl=context,
        additional_headers={"Origin": front.origin},
    ) as watcher:
        assert json.loads(watcher.recv(timeout=10))["type"] == "snapshot"


def test_slow_bodies_wait_in_the_edge_not_in_the_apps_request_slots(edge):
    dailies_ready("munger")
    front = edge(HTTP_CONCURRENCY="1")
    context = ssl._create_unverified_context()
    stop_sending = threading.Event()
    trickling = threading.Semaphore(0)

    def trickle() -> None:
        raw = socket.create_connection(("127.0.0.1", front.https_port), timeout=30)
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            tls.sendall(
                b"POST /api/practice/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 40\r\n\r\n"
            )
            tls.sendall(b" ")
            trickling.release()
            for _ in range(8):
                if stop_sending.wait(1.0):
                    return
                tls.sendall(b" ")

    trickles = [threading.Thread(target=trickle, daemon=True) for _ in range(10)]
    for t in trickles:
        t.start()
    for _ in trickles:  # every slow body has begun to arrive
        assert trickling.acquire(timeout=15)
    took = []
    for _ in range(4):
        began = time.monotonic()
        assert front.https("GET", "/api/dailies/")[0] == 200
        took.append(time.monotonic() - began)
    stop_sending.set()
    for t in trickles:
        t.join(timeout=15)

    assert max(took) < 2.5, took


def test_a_clients_own_forwarded_for_does_not_choose_its_address(edge):
    dailies_ready("munger")
    front = edge(THROTTLE_GUESTS_IP="2/min", THROTTLE_GUESTS_NET="100/min")
    answers = [
        front.https(
            "POST",
            "/api/players/",
            {"X-Forwarded-For": f"203.0.113.{i}", "Content-Type": "application/json"},
        )[0]
        for i in range(3)
    ]

    assert answers[:2] == [201, 201]
    assert answers[2] == 429
