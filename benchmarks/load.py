"""The daily-rollover spike: many players start the new day's dailies at the same moment.

Run: `.venv/bin/python benchmarks/load.py [--players 300] [--moves 10] [--runs 1]`.

The compose-like setup on loopback: PostgreSQL, Redis and three uvicorn processes, on ports,
a database (`patience_load`) and a redis-server of this benchmark's own (another benchmark may
run beside it: it is slower, never wiped). The servers'
game clock (games/clock.py) runs ahead so that it reads 23:59:<60 - lead> UTC once they are up
(`CLOCK_OFFSET_SECONDS`, the same offset in every process; nothing else in the process is
slowed); today's and tomorrow's dailies are scheduled first. `--faketime` moves the servers'
whole clock with libfaketime instead (Debian package `faketime`, `FAKETIME="+<offset>"`, the
monotonic clock left alone), as a cross-check: it costs every call that reads the time.
The day rolls over while the benchmark waits. Half a second after the servers' midnight, every
player at once (players spread round-robin over the processes): `POST /api/players/`,
`GET /api/dailies/` (which must list the new date), `POST /api/dailies/<game>/<new date>/
attempts/` (games alternate), `--moves` moves of the daily's certificate line over REST, then
`POST /api/attempts/<id>/resign/`. Every request is timed; an error is any non-2xx answer, a
transport error, or a dailies list that still shows the old day.

`--socket` plays as the browser does: after the start, the player opens the attempt's play
socket (`ws/play/<id>/`, counted as a request: the handshake and the state it answers with),
sends its moves and its resignation over it, then closes it.

The servers' CPU is also given in empty requests (`GET /api/bench/empty/`, an endpoint of the
benchmark's settings alone: Django's answer to a request that does nothing), as many as the
spike made, at the same concurrency, through the same servers after it: what a request of
the spike costs on this machine whatever the machine's speed that hour.

Afterwards `manage.py verify_attempts` replays every finished ranked attempt's stored history
against the bench database: its "checked N, failed K" line is printed.

`--lockstep` measures the servers' CPU per request kind: the same players and requests, but
step by step (every player's guest, then every player's dailies list, then every start, each
move, the resignations), the servers' CPU read when a step's answers are all in and the
servers have gone quiet (what they do after the answers, the events after commit, counts with
the step). The steps' latencies are not the spike's: run it without `--lockstep` for those.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import (  # noqa: E402
    BENCH_SETTINGS,
    EMPTY_PATH,
    POSTGRES_3,
    Servers,
    machine,
    median,
    percentile,
    profile_start,
    profile_stop,
    table,
)

from tests.support import RedisServer  # noqa: E402

TIMEOUT = 60.0
DATABASE = "patience_load"
BASE_PORT = 18430


class Stats:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.first = float("inf")
        self.last = 0.0

    def note(self, kind: str, began: float) -> None:
        now = time.perf_counter()
        self.times[kind].append(now - began)
        self.first = min(self.first, began)
        self.last = max(self.last, now)


class Lockstep:
    """Steps every player takes together (`--lockstep`): a player waits in `turn(step)` until
    the step is open; `done(step)` says its request of the step is answered, `leave()` that it
    takes no more steps (it finished, or met an error). Without `--lockstep`, every step is
    open from the start."""

    def __init__(self, players: int, on: bool) -> None:
        self.players = players
        self.open = -1 if on else 10**9
        self.opened = asyncio.Condition()
        self.answered: dict[int, int] = defaultdict(int)
        self.left = 0
        self.changed = asyncio.Event()

    async def turn(self, step: int) -> None:
        async with self.opened:
            await self.opened.wait_for(lambda: self.open >= step)

    def done(self, step: int) -> None:
        self.answered[step] += 1
        self.changed.set()

    def leave(self) -> None:
        self.left += 1
        self.changed.set()

    async def run(self, step: int) -> None:
        """Open `step` and wait until every player still playing has answered it or left."""
        async with self.opened:
            self.open = step
            self.opened.notify_all()
        while self.answered[step] + self.left < self.players:
            self.changed.clear()
            await self.changed.wait()


async def player(
    url: str,
    index: int,
    new_day: str,
    lines: dict,
    moves: int,
    go: asyncio.Event,
    stats: Stats,
    steps: Lockstep,
    socket: bool,
) -> None:
    try:
        await play(url, index, new_day, lines, moves, go, stats, steps, socket)
    finally:
        steps.leave()


async def play(
    url: str,
    index: int,
    new_day: str,
    lines: dict,
    moves: int,
    go: asyncio.Event,
    stats: Stats,
    steps: Lockstep,
    socket: bool,
) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as client:
        await go.wait()
        step = iter(range(10**9))

        async def in_turn(made: Callable[[], Awaitable[Any]]) -> Any:
            """One step of the player's: its turn (`--lockstep`), then the request `made`."""
            this = next(step)
            await steps.turn(this)
            try:
                return await made()
            finally:
                steps.done(this)

        async def call(kind: str, method: str, path: str, body: dict | None = None):
            return await in_turn(lambda: request(kind, method, path, body))

        async def request(kind: str, method: str, path: str, body: dict | None = None):
            began = time.perf_counter()
            try:
                answer = await client.request(method, path, json=body)
            except httpx.HTTPError as exc:
                stats.errors.append(f"{kind} {type(exc).__name__}")
                return None
            stats.note(kind, began)
            if answer.status_code >= 300:
                stats.errors.append(f"{kind} {answer.status_code} {answer.text[:60]}")
                return None
            return answer.json()

        if await call("guest", "POST", "/api/players/", {}) is None:
            return
        listing = await call("dailies", "GET", "/api/dailies/")
        if listing is None:
            return
        rows = listing if isinstance(listing, list) else listing.get("results", listing)
        dates = {row["date"] for row in rows}
        if dates != {new_day}:
            stats.errors.append(f"dailies list shows {sorted(dates)}, not {new_day}")
            return
        game = ("munger", "masterpiece")[index % 2]
        state = await call("start", "POST", f"/api/dailies/{game}/{new_day}/attempts/", {})
        if state is None:
            return
        attempt, seq = state["id"], state["seq"]
        if socket:
            await play_socket(client, url, attempt, seq, lines[game][:moves], stats, in_turn)
            return
        for token in lines[game][:moves]:
            answer = await call(
                "move", "POST", f"/api/attempts/{attempt}/moves/", {"seq": seq, "move": token}
            )
            if answer is None:
                return
            seq += 1
        await call("resign", "POST", f"/api/attempts/{attempt}/resign/", {})


async def play_socket(
    client: httpx.AsyncClient,
    url: str,
    attempt: int,
    seq: int,
    tokens: list[str],
    stats: Stats,
    in_turn: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]],
) -> None:
    """The moves and the resignation over the attempt's play socket."""
    cookie = client.cookies.get("patience_player")
    ws = None

    async def opened() -> dict | None:
        nonlocal ws
        began = time.perf_counter()
        ws = await connect(
            url.replace("http://", "ws://") + f"/ws/play/{attempt}/",
            origin=url,
            additional_headers={"Cookie": f"patience_player={cookie}"},
            open_timeout=TIMEOUT,
            ping_interval=None,
            close_timeout=2,
        )
        first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if first.get("type") != "state":
            stats.errors.append(f"connect {first.get('code')}")
            return None
        stats.note("connect", began)
        return first

    async def asked(kind: str, body: dict, answers: Callable[[dict], bool]) -> dict | None:
        assert ws is not None
        began = time.perf_counter()
        await ws.send(json.dumps({"type": kind, **body}))
        answer = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if answer.get("type") != "state" or not answers(answer["state"]):
            stats.errors.append(f"{kind} {answer.get('type')} {answer.get('code')}")
            return None
        stats.note(kind, began)
        return answer

    def moved(body: dict) -> Awaitable[dict | None]:
        return asked("move", body, lambda state: state["version"] == body["seq"] + 1)

    def resigned() -> Awaitable[dict | None]:
        return asked("resign", {}, lambda state: state["status"] == "resigned")

    try:
        if await in_turn(opened) is None:
            return
        for token in tokens:
            body = {"seq": seq, "move": token}
            if await in_turn(lambda body=body: moved(body)) is None:
                return
            seq += 1
        await in_turn(resigned)
    except Exception as exc:  # disconnects, refusals, timeouts
        stats.errors.append(f"socket {type(exc).__name__}: {str(exc)[:60]}")
    finally:
        if ws is not None:
            await ws.close()


def step_kinds(moves: int, socket: bool) -> list[str]:
    return ["guest", "dailies", "start", *["connect"] * socket, *["move"] * moves, "resign"]


async def quiet(servers: Servers, interval: float = 0.2, idle: float = 0.01) -> None:
    """Wait until the servers use less than `idle` of a core over `interval` seconds."""
    before = servers.cpu_seconds()
    while True:
        await asyncio.sleep(interval)
        now = servers.cpu_seconds()
        if now - before < idle * interval:
            return
        before = now


async def empties(servers: Servers, requests: int, clients: int) -> float:
    """The servers' CPU per empty request (ms): `requests` of them from `clients` clients at
    once, spread over the servers as the spike's players were, each client's one at a time."""
    errors: list[str] = []

    async def client(index: int, count: int) -> None:
        url = servers.urls[index % len(servers.urls)]
        async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as http:
            for _ in range(count):
                answer = await http.get(EMPTY_PATH)
                if answer.status_code != 200:
                    errors.append(f"empty {answer.status_code}")

    await quiet(servers)
    before = servers.cpu_seconds()
    share, extra = divmod(requests, clients)
    await asyncio.gather(*(client(i, share + (i < extra)) for i in range(clients)))
    await quiet(servers)
    if errors:
        raise RuntimeError(f"empty requests failed: {sorted(set(errors))}")
    return (servers.cpu_seconds() - before) / requests * 1000


async def spike(servers: Servers, offset: float, new_day: str, lines: dict, args) -> dict:
    stats = Stats()
    go = asyncio.Event()
    steps = Lockstep(args.players, args.lockstep)
    tasks = [
        asyncio.create_task(
            player(
                servers.urls[i % len(servers.urls)],
                i,
                new_day,
                lines,
                args.moves,
                go,
                stats,
                steps,
                args.socket,
            )
        )
        for i in range(args.players)
    ]
    midnight = dt.datetime.fromisoformat(new_day).replace(tzinfo=dt.UTC).timestamp()
    wait = midnight + 0.5 - (time.time() + offset) if offset else 1.0
    print(f"# the spike begins in {wait:.1f} s", file=sys.stderr)
    if wait > 0:
        await asyncio.sleep(wait)
    cpu_before = servers.cpu_seconds()
    go.set()
    kind_cpu: dict[str, float] = defaultdict(float)
    if args.lockstep:
        await quiet(servers)
        for number, kind in enumerate(step_kinds(args.moves, args.socket)):
            spies = profile_start(servers, args.profile, f"{number:02d}-{kind}")
            before = servers.cpu_seconds()
            await asyncio.wait_for(steps.run(number), timeout=args.max_seconds)
            await quiet(servers)
            kind_cpu[kind] += servers.cpu_seconds() - before
            profile_stop(spies)
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.max_seconds)
    cpu = servers.cpu_seconds() - cpu_before
    every = [t for times in stats.times.values() for t in times]
    elapsed = stats.last - stats.first
    return {
        "players": args.players,
        "requests": len(every),
        "elapsed": elapsed,
        "rps": len(every) / elapsed if elapsed > 0 else float("nan"),
        "p50": percentile(every, 50) * 1000,
        "p99": percentile(every, 99) * 1000,
        "errors": len(stats.errors),
        "error_kinds": sorted(set(stats.errors))[:5],
        "server_cpu": cpu,
        "kinds": {
            kind: (
                len(t),
                percentile(t, 50) * 1000,
                percentile(t, 99) * 1000,
                kind_cpu[kind] / len(t) * 1000 if args.lockstep else float("nan"),
            )
            for kind, t in stats.times.items()
        },
    }


async def bench(args: argparse.Namespace) -> tuple[list[dict], list[str]]:
    rows, verified = [], []
    for run in range(1, args.runs + 1):
        # Tomorrow's daily must exist before the servers' clock reaches it.
        redis = RedisServer().start()
        servers = Servers(
            POSTGRES_3,
            base_port=args.port,
            database=DATABASE,
            redis_url=redis.url,
            days=2,
            pool_size=args.pool_size,
            extra_env=BENCH_SETTINGS,
        )
        today = dt.datetime.now(dt.UTC).date()
        new_day = (today + dt.timedelta(days=0 if args.no_faketime else 1)).isoformat()
        try:
            print(f"# preparing {POSTGRES_3.name} ...", file=sys.stderr, flush=True)
            servers.prepare()
            lines = {d["game"]: d["certificate"] for d in servers.dailies(new_day)}
            assert set(lines) == {"munger", "masterpiece"}, lines
            offset = 0.0
            if not args.no_faketime:
                # The clock reads 23:59:(60 - lead) about when the servers are up.
                target = dt.datetime.fromisoformat(new_day).replace(tzinfo=dt.UTC).timestamp()
                offset = round(target - args.lead - args.startup - time.time(), 3)
                if args.faketime:
                    servers.faketime = f"{offset:+.3f}"
                else:
                    servers.clock_offset = offset
            servers.start()
            row = await spike(servers, offset, new_day, lines, args)
            row["empty_ms"] = await empties(servers, row["requests"], args.players)
            row["run"] = run
            rows.append(row)
            print(f"# run {run}: {fmt(row)}", file=sys.stderr)
            if row["error_kinds"]:
                print(f"#   errors: {row['error_kinds']}", file=sys.stderr)
            errors = servers.server_errors()
            if errors:
                print(f"# server log errors: {errors}\n{servers.log_tail(15)}", file=sys.stderr)
            servers.stop()
            out = servers.manage("verify_attempts").strip().splitlines()
            verified.append(
                f"run {run}: {out[-1]}" + (f" ({len(out) - 1} failures)" * (len(out) > 1))
            )
        finally:
            try:
                servers.__exit__(None, None, None)
            finally:
                redis.stop()
    return rows, verified


def fmt(row: dict) -> list[str]:
    return [
        str(row["players"]),
        str(row["requests"]),
        f"{row['elapsed']:.1f}",
        f"{row['rps']:.0f}",
        f"{row['p50']:.0f}",
        f"{row['p99']:.0f}",
        str(row["errors"]),
        f"{row['server_cpu']:.1f}",
        f"{row['server_cpu'] / row['requests'] * 1000:.2f}",
        f"{row['empty_ms']:.2f}",
        f"{row['server_cpu'] / row['requests'] * 1000 / row['empty_ms']:.1f}",
    ]


HEADER = [
    "players",
    "requests",
    "seconds",
    "requests/s",
    "p50 ms",
    "p99 ms",
    "errors",
    "CPU s",
    "CPU ms / request",
    "empty request CPU ms",
    "request / empty",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--moves", type=int, default=10, help="moves per player (default 10)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--lead", type=float, default=10, help="seconds before midnight")
    parser.add_argument("--startup", type=float, default=10, help="expected server start, s")
    parser.add_argument("--max-seconds", type=float, default=600)
    parser.add_argument(
        "--lockstep",
        action="store_true",
        help="every player takes each step together, the servers' CPU read per step: CPU per "
        "request kind (not the spike's latencies)",
    )
    parser.add_argument(
        "--profile", metavar="DIR", help="with --lockstep: py-spy the servers into DIR, by step"
    )
    parser.add_argument(
        "--socket",
        action="store_true",
        help="moves over the attempt's play socket, as the browser makes them (default: REST)",
    )
    parser.add_argument("--port", type=int, default=BASE_PORT, help="the first server's port")
    parser.add_argument("--pool-size", type=int, help="DATABASE_POOL_SIZE (default: settings')")
    parser.add_argument(
        "--no-faketime",
        action="store_true",
        help="no clock change: the spike starts today's dailies at once",
    )
    parser.add_argument(
        "--faketime",
        action="store_true",
        help="move the servers' whole clock with libfaketime (a cross-check) instead of the "
        "game clock's CLOCK_OFFSET_SECONDS",
    )
    args = parser.parse_args()
    print(machine())
    how = "libfaketime" if args.faketime else "CLOCK_OFFSET_SECONDS"
    when = "at once" if args.no_faketime else f"at the servers' midnight + 0.5 s ({how})"
    print(
        f"{args.players} players start the new day's dailies {when} ({POSTGRES_3.name}), "
        f"{args.moves} moves each over {'the play socket' if args.socket else 'REST'}, then "
        f"resign; {args.runs} runs\n"
    )
    try:
        import uvloop

        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    rows, verified = runner(bench(args))
    out = [[str(r["run"]), *fmt(r)] for r in rows]
    if len(rows) > 1:
        med = {k: median([r[k] for r in rows]) for k in rows[0] if isinstance(rows[0][k], float)}
        med.update(players=args.players, requests=int(median([r["requests"] for r in rows])))
        med["errors"] = max(r["errors"] for r in rows)
        out.append(["median", *fmt(med)])
    print(table(["run", *HEADER], out))
    kinds = rows[-1]["kinds"]
    if args.lockstep:
        print("\nBy request kind (last run, step by step): count, p50 / p99 ms, server CPU\n")
        print(
            table(
                ["request", "count", "p50 ms", "p99 ms", "CPU ms / request"],
                [
                    [k, str(n), f"{a:.0f}", f"{b:.0f}", f"{c:.2f}"]
                    for k, (n, a, b, c) in kinds.items()
                ],
            )
        )
    else:
        print("\nBy request kind (last run): count, p50 / p99 ms\n")
        print(
            table(
                ["request", "count", "p50 ms", "p99 ms"],
                [[k, str(n), f"{a:.0f}", f"{b:.0f}"] for k, (n, a, b, _) in kinds.items()],
            )
        )
    print("\nverify_attempts afterwards: " + "; ".join(verified))
    print(f"({machine()})")


if __name__ == "__main__":
    main()
