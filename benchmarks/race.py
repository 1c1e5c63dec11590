"""Races under load: R races of P players at once, each player moving every `--every` seconds on
the play socket, each watching their race on the race socket (docs/performance.md, "Races").

Against PostgreSQL + Redis with two server processes (`_servers.py`; players spread over the
processes round-robin, so the players of one race sit on both). Each race is made over REST on
a past daily (made for the run with the deal of the day's daily, which it replaces), joined,
started; after the countdown each player takes their attempt, opens `ws/race/<code>/` (a ping
every 25 s, as the browser sends) and `ws/play/<attempt>/`, and plays the deal's certificate,
one move every `--every` seconds (2 by default) from a random offset. Measured:

- progress latency: from a player sending move n to each opponent's race socket first showing
  that player at n moves, in a whole view or in their progress (all clients are in this one
  process: one clock);
- events: the race sockets' messages after the snapshot (whole views and progress);
- gaps: versions a race socket skipped, of the race's (a view's version more than one past the
  last) or of a racer's (a progress version more than one past the last seen of that racer);
- errors: HTTP answers other than 2xx, socket error messages, sockets closed under a player,
  server log errors;
- the servers' CPU per move, against a plain socket move in the same run: first the same
  players (the same guests, spread over the processes the same way) play the same deal for the
  same time at the same pace in practice (`POST /api/practice/` with the deal's seed: no race,
  no race socket), then the races are made and played. Each phase's server CPU (both processes,
  from /proc) is read from the moment every socket of the phase is open and has its first
  message (the setup over REST and the sockets' handshakes and snapshots are left out) until
  the last socket is done, and divided by that phase's moves. `--profile DIR` records py-spy
  over each phase.

    .venv/bin/python benchmarks/race.py --races 100 --players 4 --seconds 60 --every 2
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
    profile_start,
    profile_stop,
    table,
)

TIMEOUT = 30.0
GAME = "masterpiece"
#: Requests of the setup (guests, attempts, races) in flight at once.
SETUP_AT_ONCE = 50
#: A race socket sends a ping this often, as the browser does: a silent socket is closed.
HEARTBEAT_SECONDS = 25.0


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


async def watch(racer: Racer, code: str, others: list[Racer], stats: Stats, phase: Phase) -> None:
    """The racer's race socket: the first time each opponent shows n moves (in a whole view or
    in their progress), the latency from that opponent's sending move n."""
    seen: dict[str, int] = {}
    headers = {"Origin": racer.url}

    def shown(name: str, moves: int, now: float) -> None:
        other = next((o for o in others if o.name == name), None)
        if other is None or moves <= seen.get(name, 0):
            return
        for n in range(seen.get(name, 0) + 1, moves + 1):
            if n in other.sent:
                stats.latencies.append(now - other.sent[n])
        seen[name] = moves

    arrived = False
    try:
        async with connect(
            ws_url(racer.url, f"/ws/race/{code}/"), additional_headers=headers
        ) as ws:
            race = json.loads(await ws.recv())["race"]
            last = race["version"]
            names = {r["id"]: r["name"] for r in race["racers"]}
            versions = {r["id"]: r["version"] for r in race["racers"]}
            arrived = True
            await phase.ready()
            end = phase.end + 3
            pinged = time.perf_counter()
            while time.perf_counter() < end:
                if time.perf_counter() - pinged >= HEARTBEAT_SECONDS:  # as the browser does
                    await ws.send('{"type":"ping"}')
                    pinged = time.perf_counter()
                wait = min(end, pinged + HEARTBEAT_SECONDS) - time.perf_counter()
                try:
                    text = await asyncio.wait_for(ws.recv(), max(0.1, wait))
                except TimeoutError:
                    continue
                now = time.perf_counter()
                message = json.loads(text)
                if message.get("type") == "progress":
                    stats.events += 1
                    row = message["racer"]
                    held = versions.get(row["id"], 0)
                    if row["version"] > held + 1:
                        stats.gaps += row["version"] - held - 1
                    versions[row["id"]] = max(held, row["version"])
                    shown(names.get(row["id"], ""), row["moves"], now)
                    continue
                if message.get("type") != "event":
                    continue
                stats.events += 1
                version = message["race"]["version"]
                if version > last + 1:
                    stats.gaps += version - last - 1
                last = max(last, version)
                for row in message["race"]["racers"]:
                    names[row["id"]] = row["name"]
                    versions[row["id"]] = max(versions.get(row["id"], 0), row["version"])
                    shown(row["name"], row["moves"], now)
    except Exception as exc:  # a socket closed under the racer
        stats.errors.append(f"race socket: {type(exc).__name__}")
    finally:
        if not arrived:
            phase.absent()


async def play(racer: Racer, line: list[str], stats: Stats, phase: Phase) -> None:
    headers = {
        "Origin": racer.url,
        "Cookie": f"patience_player={racer.client.cookies.get('patience_player')}",
    }
    arrived = False
    try:
        async with connect(
            ws_url(racer.url, f"/ws/play/{racer.attempt}/"), additional_headers=headers
        ) as ws:
            await ws.recv()  # the state
            arrived = True
            await phase.ready()
            await asyncio.sleep(random.random() * phase.every)
            for seq, token in enumerate(line):
                if time.perf_counter() >= phase.end - 2:
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
                await asyncio.sleep(max(0.0, began + phase.every - time.perf_counter()))
    except Exception as exc:
        stats.errors.append(f"play socket: {type(exc).__name__}")
    finally:
        if not arrived:
            phase.absent()


class Phase:
    """The moment every socket of a phase is open and has its first message, and the servers'
    CPU from then: each socket waits at `ready()` (one that could not open says `absent()`);
    the last to come reads the CPU and lets everyone go, and the play ends `seconds` later;
    meanwhile each player moves every `every` seconds."""

    def __init__(
        self,
        servers: Servers,
        parties: int,
        args: argparse.Namespace,
        label: str,
    ) -> None:
        self.servers, self.parties = servers, parties
        self.seconds, self.every, self.profile = args.seconds, args.every, args.profile
        self.label = label
        self.arrived = 0
        self.go = asyncio.Event()
        self.cpu_before = float("nan")
        self.spies: list = []
        self.end = float("inf")

    def absent(self, parties: int = 1) -> None:
        self.arrived += parties
        if self.arrived >= self.parties and not self.go.is_set():
            self.spies = profile_start(self.servers, self.profile, self.label)
            self.cpu_before = self.servers.cpu_seconds()
            self.end = time.perf_counter() + self.seconds
            self.go.set()

    async def ready(self) -> None:
        self.absent()
        await self.go.wait()

    def done(self) -> float:
        """The servers' CPU seconds since every socket was ready."""
        cpu = self.servers.cpu_seconds() - self.cpu_before
        profile_stop(self.spies)
        return cpu


async def practice(
    racer: Racer,
    seed: int,
    line: list[str],
    stats: Stats,
    phase: Phase,
    gate: asyncio.Semaphore,
) -> None:
    """The plain phase of one player: a practice of the deal (no race), played as a race is."""
    async with gate:
        state = await call(racer, "/api/practice/", stats, {"game": GAME, "seed": seed})
    if state is None:
        phase.absent()
        return
    racer.attempt = state["id"]
    await play(racer, line, stats, phase)


async def race(
    racers: list[Racer],
    date: str,
    line: list[str],
    stats: Stats,
    made: asyncio.Barrier,
    phase: Phase,
    gate: asyncio.Semaphore,
) -> None:
    """One race: made, joined and started over REST, then each racer's play and race sockets
    (two parties of the phase each)."""
    async with gate:
        answer = await call(
            racers[0], "/api/races/", stats, {"game": GAME, "date": date, "capacity": len(racers)}
        )
        code = answer["code"] if answer else None
        for racer in racers[1:]:
            if code:
                await call(racer, f"/api/races/{code}/join/", stats)
    await made.wait()
    playing = False
    try:
        if code is None or await call(racers[0], f"/api/races/{code}/start/", stats) is None:
            return
        await asyncio.sleep(5.2)  # the countdown
        for racer in racers:
            state = await call(racer, f"/api/races/{code}/attempt/", stats)
            if state is None:
                return
            racer.attempt = state["id"]
        try:
            view = (await racers[0].client.get(f"/api/races/{code}/")).json()
        except httpx.HTTPError as exc:
            stats.errors.append(f"view: {type(exc).__name__}")
            return
        names = [r["name"] for r in view["racers"]]
        for racer, name in zip(racers, names, strict=True):
            racer.name = name
            racer.sent = {}  # the plain phase's moves are not this race's
        playing = True
    finally:
        if not playing:  # the others do not wait for this race's sockets
            phase.absent(2 * len(racers))
    assert code is not None
    await asyncio.gather(
        *(watch(r, code, [o for o in racers if o is not r], stats, phase) for r in racers),
        *(play(r, line, stats, phase) for r in racers),
    )


def cpu_row(
    label: str, stats: Stats, seconds: float, cpu: float, plain: float | None
) -> list[object]:
    """A phase's moves and its servers' CPU per move (and against a plain move's)."""
    per_move = cpu / stats.moves * 1000 if stats.moves else float("nan")
    ratio = f"{per_move / plain:.2f}x" if plain else "-"
    return [
        label,
        stats.moves,
        f"{stats.moves / seconds:.0f}",
        f"{median(stats.round_trips) * 1000:.0f}",
        f"{cpu:.1f}",
        f"{per_move:.2f}",
        ratio,
    ]


async def bench(args: argparse.Namespace) -> None:
    with Servers(POSTGRES_2, base_port=args.port) as servers:
        today = servers.dailies()
        past, seed = servers.django(
            "import datetime as dt\n"
            "from games import clock\n"
            "from games.models import DailyChallenge\n"
            f"d = DailyChallenge.objects.get(game='{GAME}', date=clock.today())\n"
            "p = DailyChallenge.objects.create(game=d.game, date=d.date - dt.timedelta(days=2),"
            " deal=d.deal)\n"
            "seed = int(d.deal.seed)\n"
            # The deal of a daily still played for the boards takes no practice or race (its
            # cards would show): today's daily of the game gives its deal to the past one.
            "d.delete()\n"
            "print(json.dumps([p.date.isoformat(), seed]))"
        )
        line = next(d["certificate"] for d in today if d["game"] == GAME)
        urls = servers.urls
        players = args.races * args.players
        racers = [
            Racer(
                urls[i % len(urls)],
                httpx.AsyncClient(base_url=urls[i % len(urls)], timeout=TIMEOUT),
            )
            for i in range(players)
        ]
        gate = asyncio.Semaphore(SETUP_AT_ONCE)
        plain, raced = Stats(), Stats()
        try:
            plain_cpu = float("nan")
            if not args.no_plain:
                phase = Phase(servers, players, args, "plain")
                await asyncio.gather(*(practice(r, seed, line, plain, phase, gate) for r in racers))
                plain_cpu = phase.done()
                # Fresh connections (the same guests): the plain phase's kept-alive ones have
                # been idle for the whole phase, and the servers close idle ones.
                for racer in racers:
                    used, racer.client = (
                        racer.client,
                        httpx.AsyncClient(
                            base_url=racer.url, timeout=TIMEOUT, cookies=racer.client.cookies
                        ),
                    )
                    await used.aclose()
            phase = Phase(servers, 2 * players, args, "race")
            began = time.perf_counter()
            await asyncio.gather(
                *(
                    race(
                        racers[i * args.players : (i + 1) * args.players],
                        past,
                        line,
                        raced,
                        made,
                        phase,
                        gate,
                    )
                    for made in [asyncio.Barrier(args.races)]
                    for i in range(args.races)
                )
            )
            race_cpu = phase.done()
            wall = time.perf_counter() - began
        finally:
            await asyncio.gather(*(r.client.aclose() for r in racers))
        errors = servers.server_errors()
    lat = [x * 1000 for x in raced.latencies]
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
                    players,
                    raced.moves,
                    f"{raced.moves / args.seconds:.0f}",
                    f"{median(raced.round_trips) * 1000:.0f}",
                    raced.events,
                    len(lat),
                    f"{median(lat):.0f}",
                    f"{percentile(lat, 95):.0f}",
                    f"{percentile(lat, 99):.0f}",
                    raced.gaps,
                    len(raced.errors),
                    errors,
                    f"{race_cpu:.0f}",
                ]
            ],
        )
    )
    print()
    plain_ms = plain_cpu / plain.moves * 1000 if plain.moves else None
    rows = [] if args.no_plain else [cpu_row("plain", plain, args.seconds, plain_cpu, None)]
    rows.append(cpu_row("race", raced, args.seconds, race_cpu, plain_ms))
    header = ["phase", "moves", "moves/s", "move p50 ms", "server CPU s", "CPU ms/move", "/ plain"]
    print(table(header, rows))
    for label, stats in (("plain", plain), ("race", raced)):
        if stats.errors:
            kinds: dict[str, int] = {}
            for e in stats.errors:
                kinds[e] = kinds.get(e, 0) + 1
            print(f"# {label} errors: {kinds}")
    print(f"# race phase wall {wall:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=250)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0, help="of play, per player")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between a player's moves")
    parser.add_argument("--port", type=int, default=18460, help="the first server's port")
    parser.add_argument(
        "--no-plain", action="store_true", help="skip the plain phase (no CPU to compare with)"
    )
    parser.add_argument("--profile", metavar="DIR", help="py-spy the servers into DIR")
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
