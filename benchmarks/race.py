"""Races under load: R races of P players at once, each player moving every second on the play
socket, each watching their race on the race socket (docs/performance.md, "Races").

Against PostgreSQL + Redis with two server processes (`_servers.py`; players spread over the
processes round-robin, so the players of one race sit on both). Each race is made over REST on
a past daily (made for the run from the day's certified deal), joined, started; after the
countdown each player takes their attempt, opens `ws/race/<code>/` and `ws/play/<attempt>/`,
and plays the deal's certificate, one move a second from a random offset. Measured:

- progress latency: from a player sending move n to each opponent's race socket first showing
  that player at n moves (all clients are in this one process: one clock);
- gaps: versions a race socket skipped (the version of an event more than one past the last);
- errors: HTTP answers other than 2xx, socket error messages, sockets closed under a player,
  server log errors.

    .venv/bin/python benchmarks/race.py --races 250 --players 4 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import (  # noqa: E402
    POSTGRES_2,
    Servers,
    machine,
    median,
    percentile,
    table,
)

TIMEOUT = 30.0
GAME = "masterpiece"


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    gaps: int = 0
    events: int = 0
    moves: int = 0
    round_trips: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass
class Racer:
    url: str
    client: httpx.AsyncClient
    name: str = ""
    attempt: int = 0
    #: When this racer sent each move, by the number of moves it makes.
    sent: dict[int, float] = field(default_factory=dict)


def ws_url(url: str, path: str) -> str:
    return url.replace("http://", "ws://") + path


async def call(racer: Racer, path: str, stats: Stats, body: dict | None = None) -> dict | None:
    try:
        answer = await racer.client.post(path, json=body or {})
    except httpx.HTTPError as exc:
        stats.errors.append(f"{path.split('/')[-2]}: {type(exc).__name__}")
        return None
    if answer.status_code >= 300:
        stats.errors.append(f"{path.split('/')[-2]} {answer.status_code}")
        return None
    return answer.json()


async def watch(racer: Racer, code: str, others: list[Racer], stats: Stats, end: float) -> None:
    """The racer's race socket: the first time each opponent shows n moves, the latency from
    that opponent's sending move n."""
    seen: dict[str, int] = {}
    headers = {"Origin": racer.url}
    try:
        async with connect(
            ws_url(racer.url, f"/ws/race/{code}/"), additional_headers=headers
        ) as ws:
            last = json.loads(await ws.recv())["race"]["version"]
            while time.perf_counter() < end:
                try:
                    text = await asyncio.wait_for(ws.recv(), max(0.1, end - time.perf_counter()))
                except TimeoutError:
                    break
                now = time.perf_counter()
                message = json.loads(text)
                if message.get("type") != "event":
                    continue
                stats.events += 1
                version = message["race"]["version"]
                if version > last + 1:
                    stats.gaps += version - last - 1
                last = max(last, version)
                for row in message["race"]["racers"]:
                    other = next((o for o in others if o.name == row["name"]), None)
                    if other is None or row["moves"] <= seen.get(row["name"], 0):
                        continue
                    for n in range(seen.get(row["name"], 0) + 1, row["moves"] + 1):
                        if n in other.sent:
                            stats.latencies.append(now - other.sent[n])
                    seen[row["name"]] = row["moves"]
    except Exception as exc:  # a socket closed under the racer
        stats.errors.append(f"race socket: {type(exc).__name__}")


async def play(racer: Racer, line: list[str], stats: Stats, end: float) -> None:
    headers = {
        "Origin": racer.url,
        "Cookie": f"patience_player={racer.client.cookies.get('patience_player')}",
    }
    try:
        async with connect(
            ws_url(racer.url, f"/ws/play/{racer.attempt}/"), additional_headers=headers
        ) as ws:
            await ws.recv()  # the state
            await asyncio.sleep(random.random())
            for seq, token in enumerate(line):
                if time.perf_counter() >= end - 2:
                    break
                began = time.perf_counter()
                racer.sent[seq + 1] = began
                await ws.send(json.dumps({"type": "move", "seq": seq, "move": token}))
                answer = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if answer.get("type") != "state":
                    stats.errors.append(f"move: {answer.get('code')}")
                    break
                stats.moves += 1
                stats.round_trips.append(time.perf_counter() - began)
                await asyncio.sleep(max(0.0, began + 1.0 - time.perf_counter()))
    except Exception as exc:
        stats.errors.append(f"play socket: {type(exc).__name__}")


async def race(
    urls: list[str],
    index: int,
    players: int,
    date: str,
    line: list[str],
    stats: Stats,
    seconds: float,
    ready: asyncio.Barrier,
) -> None:
    racers = [
        Racer(
            urls[(index * players + i) % len(urls)],
            httpx.AsyncClient(base_url=urls[(index * players + i) % len(urls)], timeout=TIMEOUT),
        )
        for i in range(players)
    ]
    try:
        made = await call(
            racers[0], "/api/races/", stats, {"game": GAME, "date": date, "capacity": players}
        )
        code = made["code"] if made else None
        for racer in racers[1:]:
            if code:
                await call(racer, f"/api/races/{code}/join/", stats)
        await ready.wait()
        if code is None:
            return
        started = await call(racers[0], f"/api/races/{code}/start/", stats)
        if started is None:
            return
        await asyncio.sleep(5.2)  # the countdown
        for racer in racers:
            state = await call(racer, f"/api/races/{code}/attempt/", stats)
            if state is None:
                return
            racer.attempt = state["id"]
        view = (await racers[0].client.get(f"/api/races/{code}/")).json()
        names = [r["name"] for r in view["racers"]]
        for racer, name in zip(racers, names, strict=True):
            racer.name = name
        end = time.perf_counter() + seconds
        await asyncio.gather(
            *(watch(r, code, [o for o in racers if o is not r], stats, end + 3) for r in racers),
            *(play(r, line, stats, end) for r in racers),
        )
    finally:
        for racer in racers:
            await racer.client.aclose()


async def bench(args: argparse.Namespace) -> None:
    with Servers(POSTGRES_2, base_port=args.port) as servers:
        today = servers.dailies()
        past = servers.django(
            "import datetime as dt\n"
            "from games import clock\n"
            "from games.models import DailyChallenge\n"
            f"d = DailyChallenge.objects.get(game='{GAME}', date=clock.today())\n"
            "p = DailyChallenge.objects.create(game=d.game, date=d.date - dt.timedelta(days=2),"
            " deal=d.deal)\n"
            "print(json.dumps(p.date.isoformat()))"
        )
        line = next(d["certificate"] for d in today if d["game"] == GAME)
        stats = Stats()
        cpu_before = servers.cpu_seconds()
        ready = asyncio.Barrier(args.races)
        began = time.perf_counter()
        await asyncio.gather(
            *(
                race(servers.urls, i, args.players, past, line, stats, args.seconds, ready)
                for i in range(args.races)
            )
        )
        wall = time.perf_counter() - began
        cpu = servers.cpu_seconds() - cpu_before
        errors = servers.server_errors()
    lat = [x * 1000 for x in stats.latencies]
    print(f"# {machine()}")
    print(
        f"# {args.races} races x {args.players} players, {args.seconds:g} s of play, "
        f"{POSTGRES_2.name}; certificate of {len(line)} moves"
    )
    print(
        table(
            [
                "races",
                "players",
                "moves",
                "moves/s",
                "move p50 ms",
                "events",
                "latencies",
                "p50 ms",
                "p95 ms",
                "p99 ms",
                "gaps",
                "errors",
                "server errors",
                "server CPU s",
            ],
            [
                [
                    args.races,
                    args.races * args.players,
                    stats.moves,
                    f"{stats.moves / args.seconds:.0f}",
                    f"{median(stats.round_trips) * 1000:.0f}",
                    stats.events,
                    len(lat),
                    f"{median(lat):.0f}",
                    f"{percentile(lat, 95):.0f}",
                    f"{percentile(lat, 99):.0f}",
                    stats.gaps,
                    len(stats.errors),
                    errors,
                    f"{cpu:.0f}",
                ]
            ],
        )
    )
    if stats.errors:
        kinds: dict[str, int] = {}
        for e in stats.errors:
            kinds[e] = kinds.get(e, 0) + 1
        print(f"# errors: {kinds}")
    print(f"# wall {wall:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=250)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0, help="of play, per player")
    parser.add_argument("--port", type=int, default=18460, help="the first server's port")
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
