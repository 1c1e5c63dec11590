"""Live fan-out: how fast one board change reaches N watchers of a daily, beside bare Redis.

Run: `.venv/bin/python benchmarks/fanout.py [--watchers 1000] [--events 5] [--runs 3]
[--clients N] [--wave 1000] [--connecting 50] [--redis-pool 50]`; 10,000 watchers:
`--watchers 10000 --runs 1`.

PostgreSQL + Redis, two server processes. N watchers connect to `ws/daily/<game>/<today>/`
(round-robin over the processes) and read their snapshot. Then, `--events` times, one guest
plays one move of the daily's certificate over REST, `--wait` seconds apart; from the moment the
move's answer returned, each watcher's delivery time of the resulting `update` event is taken. A
gap is a watcher that never got an event's version (missed) or got it out of turn (a jump).

Daily events are coalesced: the server's flusher sends at most one event per daily every
`realtime.boards.COALESCE_SECONDS` (0.25 s), but a board that was quiet gets its event at once
(the process that marks the change wakes its flusher). The moves here are a second or more
apart, so each is such a first change. The table gives the delivery from the move's answer
("from the move") and from the first watcher's receipt of the same event ("after send": the
fan-out proper: group_send, Redis, N consumers and N socket writes, and this client reading N
sockets).

The baseline, in the same run against the same Redis: a bare `channels_redis` layer, N
`new_channel()` + `group_add`, one `group_send` of a payload as large as the real event, N
`receive`s; delivery from the group_send call, and the time to the last receipt.

The servers run through `benchmarks/_gcwatch.py`, which times the garbage collector's pauses:
the table gives each run's collections of 5 ms or more and the longest. `--collector python`
serves `config.asgi` with Python's default collector instead of `config.server`'s tuning.

The watchers, and the bare layer's N channels alike, are split over `--clients` processes
(default: 2 up to 5,000 watchers, then one more per 2,500; 1 for everything in one process): a
thousand watchers are a thousand browsers, and one Python process reading every socket in turn
would add its own queue to the figures. Receipt times are taken on the system's monotonic clock,
which all the processes share. The watchers connect in waves of `--wave` (each wave split over
the clients, the next once every socket of the last has its snapshot), each client opening at
most `--connecting` handshakes at once; each client's bare layer keeps at most `--redis-pool`
Redis connections, and as many group joins and leaves in flight. The connect time is that of
every wave; the servers' resident memory (/proc) is read before the first wave and after the
last, and the table gives the growth per 1,000 watchers (both processes together).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
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


class Client:
    """One client process: its share of the watchers, then of the bare layer's channels; it
    answers the parent's commands over a pipe (`serve`)."""

    def __init__(self, conn) -> None:
        self.conn = conn
        self.watchers: list[Watcher] = []
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task] = []

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            command, payload = await loop.run_in_executor(None, self.conn.recv)
            if command == "quit":
                return
            answer = await getattr(self, command)(**payload)
            self.conn.send(answer)

    async def watch(self, targets: list[tuple[str, str]], connecting: int) -> dict:
        """One wave: `targets` more watchers, at most `connecting` handshakes at once; answers
        when each has its snapshot (or its error)."""
        if not self.watchers:
            self.stop = asyncio.Event()
            self.tasks = []
        wave = [Watcher(uri, origin) for uri, origin in targets]
        self.watchers += wave
        gate = asyncio.Semaphore(connecting)

        async def connect_one(w: Watcher) -> None:
            async with gate:
                task = asyncio.create_task(w.run(self.stop))
                await w.ready.wait()
            await task

        self.tasks += [asyncio.create_task(connect_one(w)) for w in wave]
        await asyncio.wait_for(asyncio.gather(*(w.ready.wait() for w in wave)), 600)
        return {}

    async def report(self) -> list[dict]:
        """Each watcher's snapshot version, updates and error; then every socket closes."""
        found = [
            {"version": w.version, "updates": list(w.updates), "error": w.error}
            for w in self.watchers
        ]
        self.stop.set()
        await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), 120)
        self.watchers, self.tasks = [], []
        return found

    async def bare_join(self, channels: int, pool: int) -> dict:
        """`channels` channels of a bare layer in the group, over at most `pool` connections."""
        self.layer = RedisChannelLayer(
            hosts=[{"address": REDIS_URL, "max_connections": pool}], prefix="benchbare"
        )
        self.names = [await self.layer.new_channel() for _ in range(channels)]
        self.gate = asyncio.Semaphore(pool)  # a call waiting for a connection would fail

        async def add(name: str) -> None:
            async with self.gate:
                await self.layer.group_add("bare", name)

        await asyncio.gather(*(add(n) for n in self.names))
        return {}

    async def bare_arm(self) -> dict:
        """Start a receive on every channel; the parent sends once every client is armed."""

        async def receive(name: str) -> float:
            await self.layer.receive(name)
            return time.perf_counter()

        self.receipts = [asyncio.create_task(receive(n)) for n in self.names]
        await asyncio.sleep(0.2)
        return {}

    async def bare_receipts(self) -> list[float]:
        return list(await asyncio.wait_for(asyncio.gather(*self.receipts), TIMEOUT))

    async def bare_leave(self) -> dict:
        async def discard(name: str) -> None:
            async with self.gate:
                await self.layer.group_discard("bare", name)

        await asyncio.gather(*(discard(n) for n in self.names))
        await self.layer.close_pools()
        return {}


def _runner():
    try:
        import uvloop

        return uvloop.run
    except ImportError:
        return asyncio.run


def client_main(conn) -> None:
    _runner()(Client(conn).serve())


class Clients:
    """The client processes, each told the same command with its own share."""

    def __init__(self, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes = []
        self.procs = []
        for _ in range(count):
            parent, child = context.Pipe()
            proc = context.Process(target=client_main, args=(child,), daemon=True)
            proc.start()
            self.pipes.append(parent)
            self.procs.append(proc)

    async def all(self, command: str, shares: list[dict] | None = None) -> list:
        shares = shares or [{} for _ in self.pipes]
        for pipe, share in zip(self.pipes, shares, strict=True):
            pipe.send((command, share))
        loop = asyncio.get_running_loop()
        return await asyncio.gather(*(loop.run_in_executor(None, p.recv) for p in self.pipes))

    def close(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send(("quit", {}))
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()


def split(items: list, parts: int) -> list[list]:
    return [items[i::parts] for i in range(parts)]


async def bare_layer(
    clients: Clients, watchers: int, payload: dict, events: int, pool: int
) -> tuple[list[float], list[float]]:
    """Per-receipt delays and times to the last receipt (seconds) of a bare group_send."""
    count = len(clients.pipes)
    await clients.all(
        "bare_join",
        [{"channels": len(s), "pool": pool} for s in split(list(range(watchers)), count)],
    )
    layer = RedisChannelLayer(hosts=[{"address": REDIS_URL}], prefix="benchbare")
    delays: list[float] = []
    lasts: list[float] = []
    text = json.dumps(payload)  # as the server sends an event: encoded once, as text
    try:
        for _ in range(events):
            await clients.all("bare_arm")
            began = time.perf_counter()
            await layer.group_send("bare", {"type": "daily.event", "version": 1, "text": text})
            done = [t for part in await clients.all("bare_receipts") for t in part]
            delays += [t - began for t in done]
            lasts.append(max(done) - began)
            await asyncio.sleep(0.3)
    finally:
        await clients.all("bare_leave")
        await layer.close_pools()
    return delays, lasts


async def one_run(
    servers: Servers, clients: Clients, daily: dict, args: argparse.Namespace
) -> dict:
    urls = servers.urls
    # The mover: a guest with an attempt at the daily, started before anyone watches.
    mover = httpx.AsyncClient(base_url=urls[0], timeout=TIMEOUT)
    await mover.post("/api/players/", json={})
    answer = await mover.post(f"/api/dailies/{daily['game']}/{daily['date']}/attempts/", json={})
    answer.raise_for_status()
    attempt, seq = answer.json()["id"], answer.json()["seq"]

    targets = [
        (
            urls[i % len(urls)].replace("http://", "ws://")
            + f"/ws/daily/{daily['game']}/{daily['date']}/",
            urls[i % len(urls)],
        )
        for i in range(args.watchers)
    ]
    rss_before = [rss_mib(pid) for pid in servers.pids()]
    began = time.perf_counter()
    for start in range(0, len(targets), args.wave):
        wave = split(targets[start : start + args.wave], len(clients.pipes))
        await clients.all(
            "watch", [{"targets": part, "connecting": args.connecting} for part in wave]
        )
    connected = time.perf_counter() - began
    await asyncio.sleep(1.0)  # let any window opened before the watchers close
    rss_after = [rss_mib(pid) for pid in servers.pids()]

    answered_at: list[float] = []
    for _ in range(args.events):
        token = daily["certificate"][seq]
        answer = await mover.post(
            f"/api/attempts/{attempt}/moves/", json={"seq": seq, "move": token}
        )
        answered = time.perf_counter()
        if answer.status_code != 200:
            raise RuntimeError(f"the mover's move failed: {answer.status_code} {answer.text[:200]}")
        seq += 1
        answered_at.append(answered)
        await asyncio.sleep(max(0.0, answered + args.wait - time.perf_counter()))
    reports = [w for part in await clients.all("report") for w in part]

    # Event k (from 0) is each watcher's update of version snapshot + k + 1.
    incl: list[float] = []  # from the move's answer
    after: list[float] = []  # from the first receipt of the same event
    missed = jumps = 0
    for k, answered in enumerate(answered_at):
        received = []
        for w in reports:
            expected = w["version"] + k + 1
            versions = [v for _, v in w["updates"]]
            if expected in versions:
                received.append(w["updates"][versions.index(expected)][0])
                if versions.index(expected) != k:
                    jumps += 1
            else:
                missed += 1
        if received:
            first = min(received)
            incl += [t - answered for t in received]
            after += [t - first for t in received]
    last_event: dict = {}
    with contextlib.suppress(Exception):
        last_event = await _last_event(servers, daily)
    errors = sum(1 for w in reports if w["error"])
    kinds = sorted({w["error"] for w in reports if w["error"]})[:3]
    if kinds:
        print(f"#   watcher errors: {kinds}", file=sys.stderr)
    await mover.aclose()
    delays, lasts = await bare_layer(
        clients, args.watchers, last_event or {"pad": "x" * 2000}, args.events, args.redis_pool
    )
    return {
        "watchers": args.watchers,
        "connected_s": connected,
        "rss_before": sum(rss_before),
        "rss_after": sum(rss_after),
        "rss_per_1000": (sum(rss_after) - sum(rss_before)) / args.watchers * 1000,
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
        raw = await client.lindex(f"{servers.key_prefix}:live:daily:{daily['id']}:log", -1)
    finally:
        await client.aclose()
    if not raw:  # the bare layer's payload would be empty: a comparison of nothing
        raise RuntimeError(f"no event of daily {daily['id']} in the servers' Redis log")
    return json.loads(raw)


def rss_mib(pid: int) -> float:
    """A process's resident memory, MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def fmt(row: dict) -> list[str]:
    return [
        str(row["watchers"]),
        f"{row['connected_s']:.1f}",
        f"{row['rss_before']:.0f} -> {row['rss_after']:.0f} ({row['rss_per_1000']:.1f})",
        f"{row['deliveries']}/{row['watchers'] * row['events']}",
        f"{row['gaps']} ({row['missed']} missed, {row['jumps']} jumps)",
        str(row["errors"]),
        f"{row['incl_p50']:.0f} / {row['incl_p95']:.0f} / {row['incl_p99']:.0f}",
        f"{row['after_p50']:.0f} / {row['after_p95']:.0f} / {row['after_p99']:.0f}",
        f"{row['bare_p50']:.0f} / {row['bare_p95']:.0f} / {row['bare_p99']:.0f}",
        f"{row['bare_last']:.0f}",
        f"{row['gc_pauses']:.0f} ({row['gc_longest']:.0f})",
    ]


HEADER = [
    "watchers",
    "connect s",
    "server RSS MiB before -> after (per 1,000)",
    "delivered",
    "gaps",
    "errors",
    "from the move p50/p95/p99 ms",
    "after send p50/p95/p99 ms",
    "bare layer p50/p95/p99 ms",
    "bare last ms",
    "collector pauses ≥ 5 ms (longest ms)",
]


async def bench(args: argparse.Namespace) -> list[dict]:
    rows = []
    clients = Clients(args.clients)
    app = {"tuned": "config.server:application", "python": "config.asgi:application"}
    servers = Servers(POSTGRES_2, extra_env={"GCWATCH_APP": app[args.collector]})
    servers.app = "benchmarks._gcwatch:application"
    with servers:
        dailies = servers.dailies()
        for run in range(1, args.runs + 1):
            daily = dailies[(run - 1) % len(dailies)]
            before = len(servers.log_lines("GCPAUSE"))
            row = await one_run(servers, clients, daily, args)
            pauses = [float(line.split()[2]) for line in servers.log_lines("GCPAUSE")[before:]]
            row["gc_pauses"], row["gc_longest"] = len(pauses), max(pauses, default=0.0)
            row["run"], row["game"] = run, daily["game"]
            rows.append(row)
            print(f"# run {run} {daily['game']}: " + " | ".join(fmt(row)), file=sys.stderr)
        errors = servers.server_errors()
        if errors:
            print(f"# server log errors: {errors}\n{servers.log_tail(15)}", file=sys.stderr)
    clients.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--events", type=int, default=5, help="board changes per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--wait", type=float, default=1.5, help="seconds between moves (the events' deadline)"
    )
    parser.add_argument(
        "--clients", type=int, default=0, help="client processes (default: 2, +1 per 2,500 > 5,000)"
    )
    parser.add_argument("--wave", type=int, default=1000, help="watchers connecting per wave")
    parser.add_argument(
        "--connecting", type=int, default=50, help="handshakes in flight per client process"
    )
    parser.add_argument(
        "--redis-pool", type=int, default=50, help="Redis connections per client's bare layer"
    )
    parser.add_argument(
        "--collector",
        choices=["tuned", "python"],
        default="tuned",
        help="the servers' collector: config.server's tuning, or Python's defaults",
    )
    args = parser.parse_args()
    args.clients = args.clients or max(2, -(-args.watchers // 2500))
    print(machine())
    print(
        f"{args.watchers} watchers over {POSTGRES_2.name}, {args.events} board changes per run, "
        f"{args.runs} runs (games alternate), {args.clients} client processes (waves of "
        f"{args.wave}, {args.connecting} handshakes at once each), collector {args.collector}; "
        "one line per run, then the medians\n"
    )
    rows = _runner()(bench(args))
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
