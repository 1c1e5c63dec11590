"""Live fan-out: how fast one board change reaches N watchers of a daily, beside bare Redis.

Run: `.venv/bin/python benchmarks/fanout.py [--watchers 1000] [--events 5] [--runs 3]`.

PostgreSQL + Redis, two server processes. N watchers connect to `ws/daily/<game>/<today>/`
(round-robin over the processes) and read their snapshot. Then, `--events` times, one guest
plays one move of the daily's certificate over REST; from the moment the move's answer returned,
each watcher's delivery time of the resulting `update` event is taken. A gap is a watcher that
missed the event (none within `--wait` seconds) or saw a version other than its last + 1.

Daily events are coalesced: the server's flusher sends at most one event per daily every
`leaderboards.live.COALESCE_SECONDS` (0.25 s), but a board that was quiet gets its event at once
(the process that marks the change wakes its flusher). The moves here are a second or more
apart, so each is such a first change. The table gives the delivery from the move's answer
("from the move") and from the first watcher's receipt of the same event ("after send": the
fan-out proper: group_send, Redis, N consumers and N socket writes, and this client reading N
sockets).

The baseline, in the same run against the same Redis: a bare `channels_redis` layer in this
process, N `new_channel()` + `group_add`, one `group_send` of a payload as large as the real
event, N `receive`s; delivery from the group_send call, and the time to the last receipt.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time
from pathlib import Path

import httpx
from channels_redis.core import RedisChannelLayer
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import (  # noqa: E402
    POSTGRES_2,
    REDIS_KEY_PREFIX,
    REDIS_URL,
    Servers,
    machine,
    median,
    percentile,
    table,
)

TIMEOUT = 60.0


class Watcher:
    def __init__(self, uri: str, origin: str) -> None:
        self.uri, self.origin = uri, origin
        self.version = -1  # the snapshot's version, then the last update's
        self.updates: list[tuple[float, int]] = []  # (receipt time, version)
        self.ready = asyncio.Event()
        self.error = ""

    async def run(self, stop: asyncio.Event) -> None:
        try:
            async with connect(
                self.uri,
                origin=self.origin,
                open_timeout=TIMEOUT,
                ping_interval=None,
                close_timeout=1,
                max_size=2**22,
            ) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if first.get("type") != "snapshot":
                    self.error = f"first message {first.get('type')} {first.get('code')}"
                    return
                self.version = int(first["version"])
                self.ready.set()
                keepalive = asyncio.create_task(self._keepalive(ws))
                reader = asyncio.create_task(self._read(ws))
                await stop.wait()
                keepalive.cancel()
                reader.cancel()
        except Exception as exc:  # refused, dropped, timed out
            self.error = f"{type(exc).__name__}: {str(exc)[:60]}"
        finally:
            self.ready.set()

    async def _read(self, ws) -> None:
        try:
            async for raw in ws:
                now = time.perf_counter()
                message = json.loads(raw)
                if message.get("type") == "update":
                    self.updates.append((now, int(message["version"])))
                elif message.get("type") == "error":
                    self.error = f"error {message.get('code')}"
            self.error = f"closed by the server ({ws.close_code})"
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.error = f"dropped: {type(exc).__name__}"

    async def _keepalive(self, ws) -> None:  # the server closes sockets silent for 60 s
        while True:
            await asyncio.sleep(20)
            await ws.send('{"type":"ping"}')


async def bare_layer(watchers: int, payload: dict, events: int) -> tuple[list[float], list[float]]:
    """Per-receipt delays and times to the last receipt (seconds) of a bare group_send."""
    layer = RedisChannelLayer(
        hosts=[{"address": REDIS_URL, "max_connections": 1000}], prefix="benchbare"
    )
    names = [await layer.new_channel() for _ in range(watchers)]
    gate = asyncio.Semaphore(100)

    async def add(name: str) -> None:
        async with gate:
            await layer.group_add("bare", name)

    await asyncio.gather(*(add(n) for n in names))
    delays: list[float] = []
    lasts: list[float] = []
    text = json.dumps(payload)  # as the server sends an event: encoded once, as text
    try:
        for _ in range(events):

            async def receive(name: str) -> float:
                await layer.receive(name)
                return time.perf_counter()

            tasks = [asyncio.create_task(receive(n)) for n in names]
            await asyncio.sleep(0.2)
            began = time.perf_counter()
            await layer.group_send("bare", {"type": "daily.event", "version": 1, "text": text})
            done = await asyncio.wait_for(asyncio.gather(*tasks), TIMEOUT)
            delays += [t - began for t in done]
            lasts.append(max(done) - began)
            await asyncio.sleep(0.3)
        await asyncio.gather(*(layer.group_discard("bare", n) for n in names))
    finally:
        await layer.close_pools()
    return delays, lasts


async def one_run(servers: Servers, daily: dict, args: argparse.Namespace) -> dict:
    urls = servers.urls
    # The mover: a guest with an attempt at the daily, started before anyone watches.
    mover = httpx.AsyncClient(base_url=urls[0], timeout=TIMEOUT)
    await mover.post("/api/players/", json={})
    answer = await mover.post(f"/api/dailies/{daily['game']}/{daily['date']}/attempts/", json={})
    answer.raise_for_status()
    attempt, seq = answer.json()["id"], answer.json()["seq"]

    stop = asyncio.Event()
    watchers = [
        Watcher(
            urls[i % len(urls)].replace("http://", "ws://")
            + f"/ws/daily/{daily['game']}/{daily['date']}/",
            urls[i % len(urls)],
        )
        for i in range(args.watchers)
    ]
    gate = asyncio.Semaphore(50)

    async def connect_one(w: Watcher) -> None:
        async with gate:
            task = asyncio.create_task(w.run(stop))
            await w.ready.wait()
        await task

    began = time.perf_counter()
    tasks = [asyncio.create_task(connect_one(w)) for w in watchers]
    await asyncio.wait_for(asyncio.gather(*(w.ready.wait() for w in watchers)), 300)
    connected = time.perf_counter() - began
    await asyncio.sleep(1.0)  # let any window opened before the watchers close

    incl: list[float] = []  # from the move's answer
    after: list[float] = []  # from the first receipt of the same event
    missed = jumps = 0
    last_event: dict = {}
    for _ in range(args.events):
        token = daily["certificate"][seq]
        answer = await mover.post(
            f"/api/attempts/{attempt}/moves/", json={"seq": seq, "move": token}
        )
        answered = time.perf_counter()
        if answer.status_code != 200:
            raise RuntimeError(f"the mover's move failed: {answer.status_code} {answer.text[:200]}")
        seq += 1
        marks = {id(w): len(w.updates) for w in watchers}
        deadline = answered + args.wait
        while time.perf_counter() < deadline:
            if all(len(w.updates) > marks[id(w)] or w.error for w in watchers):
                break
            await asyncio.sleep(0.01)
        received = []
        for w in watchers:
            new = w.updates[marks[id(w)] :]
            if not new:
                missed += 1
            elif new[0][1] != w.version + 1:
                jumps += 1
            if new:
                received.append(new[0][0])
                w.version = new[-1][1]
        if received:
            first = min(received)
            incl += [t - answered for t in received]
            after += [t - first for t in received]
        await asyncio.sleep(max(0.0, answered + 1.0 - time.perf_counter()))
    with contextlib.suppress(Exception):
        last_event = await _last_event(servers, daily)
    errors = sum(1 for w in watchers if w.error)
    kinds = sorted({w.error for w in watchers if w.error})[:3]
    if kinds:
        print(f"#   watcher errors: {kinds}", file=sys.stderr)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
    await mover.aclose()
    delays, lasts = await bare_layer(args.watchers, last_event or {"pad": "x" * 2000}, args.events)
    return {
        "watchers": args.watchers,
        "connected_s": connected,
        "errors": errors,
        "events": args.events,
        "deliveries": len(incl),
        "gaps": missed + jumps,
        "missed": missed,
        "jumps": jumps,
        "incl_p50": percentile(incl, 50) * 1000,
        "incl_p95": percentile(incl, 95) * 1000,
        "incl_p99": percentile(incl, 99) * 1000,
        "after_p50": percentile(after, 50) * 1000,
        "after_p95": percentile(after, 95) * 1000,
        "after_p99": percentile(after, 99) * 1000,
        "bare_p50": percentile(delays, 50) * 1000,
        "bare_p95": percentile(delays, 95) * 1000,
        "bare_p99": percentile(delays, 99) * 1000,
        "bare_last": median(lasts) * 1000,
        "event_bytes": len(json.dumps(last_event)),
    }


async def _last_event(servers: Servers, daily: dict) -> dict:
    """The daily's last event from the Redis log (the bare layer sends one as large)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        raw = await client.lindex(f"{REDIS_KEY_PREFIX}:live:daily:{daily['id']}:log", -1)
    finally:
        await client.aclose()
    if not raw:  # the bare layer's payload would be empty: a comparison of nothing
        raise RuntimeError(f"no event of daily {daily['id']} in the servers' Redis log")
    return json.loads(raw)


def fmt(row: dict) -> list[str]:
    return [
        str(row["watchers"]),
        f"{row['connected_s']:.1f}",
        f"{row['deliveries']}/{row['watchers'] * row['events']}",
        f"{row['gaps']} ({row['missed']} missed, {row['jumps']} jumps)",
        str(row["errors"]),
        f"{row['incl_p50']:.0f} / {row['incl_p95']:.0f} / {row['incl_p99']:.0f}",
        f"{row['after_p50']:.0f} / {row['after_p95']:.0f} / {row['after_p99']:.0f}",
        f"{row['bare_p50']:.0f} / {row['bare_p95']:.0f} / {row['bare_p99']:.0f}",
        f"{row['bare_last']:.0f}",
    ]


HEADER = [
    "watchers",
    "connect s",
    "delivered",
    "gaps",
    "errors",
    "from the move p50/p95/p99 ms",
    "after send p50/p95/p99 ms",
    "bare layer p50/p95/p99 ms",
    "bare last ms",
]


async def bench(args: argparse.Namespace) -> list[dict]:
    rows = []
    with Servers(POSTGRES_2) as servers:
        dailies = servers.dailies()
        for run in range(1, args.runs + 1):
            daily = dailies[(run - 1) % len(dailies)]
            row = await one_run(servers, daily, args)
            row["run"], row["game"] = run, daily["game"]
            rows.append(row)
            print(f"# run {run} {daily['game']}: " + " | ".join(fmt(row)), file=sys.stderr)
        errors = servers.server_errors()
        if errors:
            print(f"# server log errors: {errors}\n{servers.log_tail(15)}", file=sys.stderr)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--events", type=int, default=5, help="board changes per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--wait", type=float, default=5.0, help="seconds to wait for an event")
    args = parser.parse_args()
    print(machine())
    print(
        f"{args.watchers} watchers over {POSTGRES_2.name}, {args.events} board changes per run, "
        f"{args.runs} runs (games alternate); one line per run, then the medians\n"
    )
    try:
        import uvloop

        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    rows = runner(bench(args))
    out = [[f"{r['run']} {r['game']}", *fmt(r)] for r in rows]
    med = {k: median([r[k] for r in rows]) for k in rows[0] if isinstance(rows[0][k], (int, float))}
    med["watchers"], med["events"] = args.watchers, args.events
    med["deliveries"] = int(median([r["deliveries"] for r in rows]))
    worst = max(rows, key=lambda r: r["gaps"])
    med["gaps"], med["missed"], med["jumps"] = worst["gaps"], worst["missed"], worst["jumps"]
    med["errors"] = int(max(r["errors"] for r in rows))
    out.append(["median", *fmt(med)])
    print(table(["run", *HEADER], out))
    print(
        f"\n(gaps and errors in the median row: the worst run; event size "
        f"{int(med['event_bytes'])} bytes; {machine()})"
    )


if __name__ == "__main__":
    main()
