"""A play socket flooded with messages: what it costs the server, and where it stops.

Run: `.venv/bin/python benchmarks/socket_flood.py [--messages 95000] [--postgres]`.

One server process (the embedded configuration, or PostgreSQL + Redis with `--postgres`), one
guest with a practice attempt, one play socket. The client sends `--messages` pings as fast as
it can without reading an answer, then reads until the socket closes. Printed: how long the
sending took, the close code, and the server process's CPU seconds from the socket's opening
to its close (from /proc). A connection refused more than `realtime.sockets.FLOOD_REFUSALS`
times in 20 s is closed with 4429 (docs/realtime.md), so the server stops reading a flood
after about 150 messages instead of answering every one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import EMBEDDED, Servers, Setup, cpu_seconds, machine  # noqa: E402


def practice(base: str) -> tuple[int, str]:
    """A new guest's practice attempt: its id and the guest's cookie token."""
    request = urllib.request.Request(
        f"{base}/api/practice/",
        data=json.dumps({"game": "masterpiece", "seed": 7}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        body = json.loads(answer.read())
        cookie = answer.headers.get("Set-Cookie", "")
    token = cookie.split("patience_player=", 1)[1].split(";", 1)[0]
    return body["id"], token


def flood(base: str, pid: int, messages: int) -> str:
    attempt, token = practice(base)
    headers = {"Origin": base, "Cookie": f"patience_player={token}"}
    url = base.replace("http", "ws", 1) + f"/ws/play/{attempt}/"
    with connect(url, additional_headers=headers, open_timeout=30, ping_interval=None) as socket:
        socket.recv(timeout=30)  # the first state
        before, start, sent, code = cpu_seconds(pid), time.monotonic(), 0, None
        try:
            for _ in range(messages):
                socket.send('{"type": "ping"}')
                sent += 1
            sending = time.monotonic() - start
            while True:
                socket.recv(timeout=60)
        except ConnectionClosed as closed:
            sending = time.monotonic() - start
            code = closed.rcvd.code if closed.rcvd is not None else None
        except TimeoutError:
            sending = time.monotonic() - start
    time.sleep(0.5)
    used = cpu_seconds(pid) - before
    return (
        f"sent {sent:,} of {messages:,} pings in {sending:.2f} s; close code {code}; "
        f"server CPU {used:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--messages", type=int, default=95_000)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL + Redis")
    args = parser.parse_args()
    setup = Setup("PostgreSQL + Redis, 1 process", True, 1) if args.postgres else EMBEDDED
    print(f"{setup.name}; {machine()}")
    with Servers(setup, quiet=True) as servers:
        print(flood(servers.urls[0], servers.pids()[0], args.messages))


if __name__ == "__main__":
    main()
