"""Soak: players, watchers and strangers on two server processes for N minutes, through the
app's database connections cut, a Redis restart, a web process killed and started again, and a
quiet PostgreSQL restart.

Run: `.venv/bin/python benchmarks/soak.py [--minutes 10] [--players 8] [--watchers 10]`.

What runs (all on loopback, with services of its own: a `redis-server` on a free port, started,
killed and started again by the script, and a PostgreSQL cluster of its own on a free port
(tests/support.py's `PostgresServer`), holding the database `patience_soak`, made, migrated,
given today's dailies and removed at the end; the shared PostgreSQL and Redis are not touched):

- two uvicorn processes (`python -m config.serving`, production settings, as benchmarks/_servers.py
  starts them) on ports 18470 and 18471;
- `--players` guests playing today's dailies move by move (the certificate line, one move every
  `--pace` seconds), half over REST (`POST /api/attempts/<id>/moves/`), half over the play socket
  (`ws/play/<id>/`); a player that wins starts again as a new guest. A REST move that fails (the
  process killed, a 503) is sent again with the same seq; a play socket that drops is opened
  again, and the state it answers first says whether the last move sent was stored;
- `--watchers` daily-socket watchers connecting, reading for 2-10 s and leaving, again and again;
- a stranger whose handshakes are refused: another site's Origin (4403), an attempt that does not
  exist and an unknown path (4404);
- a health poller asking each process's `/healthz/` every second;
- at 20% of the time PostgreSQL ends every connection of the app (`pg_terminate_backend`, as an
  operator, a failover or `idle_session_timeout` does): no request may fail for it;
- at 40% Redis is killed (SIGKILL) and started again 10 s later on its port, empty;
- at 60% web process 1 is killed (SIGKILL) and started again at once;
- at 80% PostgreSQL is restarted quietly (`pg_ctl restart -m fast`, as for maintenance).

It prints: moves acknowledged (answered 200 or `state` for their seq, or found stored by the
first state after a lost answer) against moves stored in the database (the sum of the attempts'
move counts: they must be equal); the health answers by phase (200 is required whenever the
database and Redis are up, except while the killed process is down and for `GRACE_SECONDS` after
Redis or PostgreSQL answers again); the errors by kind, and those outside the outage windows
(the same windows: there must be none); ERROR lines in the servers' logs; and each server
process's resident memory (RSS) `WARM_SECONDS` after it started and at the end, against the bound
`RSS_BOUND_MIB` of growth.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import Servers, Setup, machine, table  # noqa: E402

from tests.support import PostgresServer, RedisServer  # noqa: E402

SOAK = Setup("PostgreSQL + Redis (own), 2 processes", postgres=True, processes=2)
DATABASE = "patience_soak"
BASE_PORT = 18470
TIMEOUT = 20.0
#: Seconds after Redis answers again during which the health check may still report the
#: channel layer of a process as recovering.
GRACE_SECONDS = 5.0
#: Redis stays down this long.
REDIS_DOWN_SECONDS = 10.0
#: RSS is first read this long after a process started (imports and first requests done).
WARM_SECONDS = 30.0
#: The most a process's RSS may grow between its warm reading and the end.
RSS_BOUND_MIB = 64.0
COOKIE = "patience_player"


@dataclass
class Soak:
    servers: Servers
    dailies: list[dict]
    until: float
    acked: int = 0
    acked_after_loss: int = 0
    errors: Counter = field(default_factory=Counter)
    refused: Counter = field(default_factory=Counter)
    watches: Counter = field(default_factory=Counter)
    health: Counter = field(default_factory=Counter)
    unhealthy: list[str] = field(default_factory=list)
    games: int = 0
    # Phases: when Redis was down, when process 1 was down, when PostgreSQL restarted
    # (monotonic times).
    redis_down: tuple[float, float] = (0.0, 0.0)
    web_down: tuple[float, float] = (0.0, 0.0)
    database_down: tuple[float, float] = (0.0, 0.0)
    #: When the app's connections were ended, and how many there were.
    terminated: tuple[float, int] = (0.0, 0)
    rss_warm: dict[int, float] = field(default_factory=dict)
    #: Every client-side error with its time.
    failures: list[tuple[float, str]] = field(default_factory=list)

    def running(self) -> bool:
        return time.monotonic() < self.until

    def fail(self, kind: str) -> None:
        self.errors[kind] += 1
        self.failures.append((time.monotonic(), kind))

    def outside_outages(self) -> Counter:
        """The errors met while every service was up (none may be)."""
        return Counter(kind for when, kind in self.failures if phase(self, -1, when) == UP)

    def url(self, n: int) -> str:
        return self.servers.urls[n % len(self.servers.urls)]


def ws_url(http: str, path: str) -> str:
    return http.replace("http://", "ws://") + path


async def new_game(soak: Soak, url: str, client: httpx.AsyncClient, daily: dict) -> dict | None:
    client.cookies.clear()
    try:
        answer = await client.post(f"{url}/api/players/", json={})
        if answer.status_code not in (200, 201):
            soak.fail(f"new guest {answer.status_code}")
            return None
        answer = await client.post(
            f"{url}/api/dailies/{daily['game']}/{daily['date']}/attempts/", json={}
        )
        if answer.status_code not in (200, 201):
            soak.fail(f"start {answer.status_code}")
            return None
    except httpx.HTTPError as exc:
        soak.fail(f"start {type(exc).__name__}")
        return None
    return answer.json()


async def player(soak: Soak, n: int, pace: float, over_socket: bool) -> None:
    """A guest playing today's daily to the win, then a new guest, until the time is up."""
    play = play_socket if over_socket else play_rest
    async with httpx.AsyncClient(timeout=TIMEOUT) as client:
        while soak.running():
            url, daily = soak.url(n), soak.dailies[n % len(soak.dailies)]
            state = await new_game(soak, url, client, daily)
            if state is None:
                await asyncio.sleep(1)
            elif await play(soak, client, url, daily["certificate"], state, pace):
                soak.games += 1


async def play_rest(soak: Soak, client, url: str, line: list, state: dict, pace: float) -> bool:
    seq = state["seq"]
    while soak.running() and seq < len(line):
        await asyncio.sleep(pace)
        try:
            answer = await client.post(
                f"{url}/api/attempts/{state['id']}/moves/", json={"seq": seq, "move": line[seq]}
            )
        except httpx.HTTPError as exc:
            soak.fail(f"REST move {type(exc).__name__} (sent again)")
            continue
        if answer.status_code == 200 and answer.json()["version"] == seq + 1:
            soak.acked += 1
            seq += 1
        else:
            soak.fail(f"REST move {answer.status_code} (sent again)")
    return seq >= len(line)


async def play_socket(soak: Soak, client, url: str, line: list, state: dict, pace: float) -> bool:
    seq, sent = state["seq"], None  # sent: the seq of a move whose answer was lost
    while soak.running() and seq < len(line):
        try:
            async with connect(
                ws_url(url, f"/ws/play/{state['id']}/"),
                origin=url,
                additional_headers={"Cookie": f"{COOKIE}={client.cookies.get(COOKIE)}"},
                open_timeout=TIMEOUT,
                close_timeout=2,
            ) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                stored = first["state"]["seq"]
                if sent is not None and stored == sent + 1:
                    soak.acked += 1  # stored, its answer lost with the connection
                    soak.acked_after_loss += 1
                seq, sent = stored, None
                while soak.running() and seq < len(line):
                    await asyncio.sleep(pace)
                    sent = seq
                    await ws.send(json.dumps({"type": "move", "seq": seq, "move": line[seq]}))
                    answer = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                    if answer.get("type") != "state":
                        soak.fail(f"socket move {answer.get('code')}")
                        break
                    if answer["state"]["version"] == seq + 1:
                        soak.acked += 1
                        seq, sent = seq + 1, None
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else None
            soak.fail(f"play socket closed {code} (opened again)")
            await asyncio.sleep(1 + random.random())
        except (OSError, TimeoutError, Exception) as exc:
            soak.fail(f"play socket {type(exc).__name__} (opened again)")
            await asyncio.sleep(1 + random.random())
    return seq >= len(line)


async def watcher(soak: Soak, n: int) -> None:
    rng = random.Random(n)
    while soak.running():
        url, daily = soak.url(n + rng.randrange(2)), soak.dailies[rng.randrange(len(soak.dailies))]
        try:
            async with connect(
                ws_url(url, f"/ws/daily/{daily['game']}/{daily['date']}/"),
                origin=url,
                open_timeout=TIMEOUT,
                close_timeout=2,
            ) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                soak.watches[first.get("type", "?")] += 1
                stay = time.monotonic() + rng.uniform(2, 10)
                while time.monotonic() < stay and soak.running():
                    try:
                        event = json.loads(await asyncio.wait_for(ws.recv(), 1))
                        soak.watches[f"event {event.get('type')}"] += 1
                    except TimeoutError:
                        pass
        except ConnectionClosed as exc:
            soak.watches[f"closed {exc.rcvd.code if exc.rcvd else None}"] += 1
            await asyncio.sleep(1)
        except (OSError, TimeoutError, Exception) as exc:
            soak.fail(f"watcher {type(exc).__name__}")
            await asyncio.sleep(1)


async def close_code(url: str, path: str, origin: str) -> int | None:
    async with connect(ws_url(url, path), origin=origin, open_timeout=TIMEOUT) as ws:
        try:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None
    return None


async def stranger(soak: Soak) -> None:
    daily = soak.dailies[0]
    tries = [
        (
            "another site's page",
            f"/ws/daily/{daily['game']}/{daily['date']}/",
            "http://evil.example",
            4403,
        ),
        ("no such attempt", "/ws/play/99999999/", None, 4404),
        ("no such path", "/ws/nothing/", None, 4404),
    ]
    n = 0
    while soak.running():
        what, path, origin, expected = tries[n % len(tries)]
        url = soak.url(n)
        n += 1
        try:
            code = await close_code(url, path, origin or url)
        except Exception as exc:
            soak.fail(f"stranger {type(exc).__name__}")
            await asyncio.sleep(0.5)
            continue
        soak.refused[f"{what}: {code}"] += 1
        if code != expected:
            soak.fail(f"stranger {what}: {code}, not {expected}")
        await asyncio.sleep(0.5)


UP = "database and Redis up"


def within(window: tuple[float, float], now: float, grace: float) -> bool:
    began, ended = window
    return bool(began) and now >= began and (not ended or now < ended + grace)


def phase(soak: Soak, n: int, now: float) -> str:
    """What was down at `now` for process `n` (-1: for any process)."""
    if within(soak.redis_down, now, GRACE_SECONDS):
        return "Redis down (or just back)"
    if within(soak.database_down, now, GRACE_SECONDS):
        return "PostgreSQL restarting (or just back)"
    if n in (1, -1) and within(soak.web_down, now, GRACE_SECONDS if n == -1 else 0.0):
        return "process 1 killed"
    return UP


async def health_poller(soak: Soak) -> None:
    async with httpx.AsyncClient(timeout=5) as client:
        while soak.running():
            for n, url in enumerate(soak.servers.urls):
                began = time.monotonic()
                try:
                    answer = await client.get(f"{url}/healthz/")
                    outcome = f"{answer.status_code} {answer.json().get('status')}"
                except (httpx.HTTPError, ValueError) as exc:
                    outcome = type(exc).__name__
                when = phase(soak, n, began)
                soak.health[(when, outcome)] += 1
                if when == UP and not outcome.startswith("200 ok"):
                    soak.unhealthy.append(f"{began - soak.until:+.0f} s p{n}: {outcome}")
            await asyncio.sleep(1)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def warm_rss(soak: Soak, n: int) -> None:
    await asyncio.sleep(WARM_SECONDS)
    soak.rss_warm[n] = rss_mib(soak.servers.procs[n].pid)


def say(started: float, what: str) -> None:
    print(f"# {time.monotonic() - started:.0f} s: {what}", file=sys.stderr, flush=True)


async def faults(
    soak: Soak, redis: RedisServer, postgres: PostgresServer, started: float, minutes: float
) -> RedisServer:
    total = minutes * 60
    await asyncio.sleep(max(0.0, started + 0.2 * total - time.monotonic()))
    ended = await asyncio.to_thread(terminate_the_apps_connections, soak.servers)
    soak.terminated = (time.monotonic(), ended)
    say(started, f"PostgreSQL ended the app's {ended} connections")

    await asyncio.sleep(max(0.0, started + 0.4 * total - time.monotonic()))
    say(started, "Redis killed")
    soak.redis_down = (time.monotonic(), 0.0)
    redis.stop()
    await asyncio.sleep(REDIS_DOWN_SECONDS)
    redis = await asyncio.to_thread(RedisServer(redis.port).start)
    soak.redis_down = (soak.redis_down[0], time.monotonic())
    say(started, "Redis back")

    await asyncio.sleep(max(0.0, started + 0.6 * total - time.monotonic()))
    say(started, "process 1 killed")
    soak.web_down = (time.monotonic(), 0.0)
    soak.servers.kill(1)
    await asyncio.to_thread(soak.servers.start_one, 1)
    soak.web_down = (soak.web_down[0], time.monotonic())
    say(started, "process 1 back")
    asyncio.create_task(warm_rss(soak, 1))

    await asyncio.sleep(max(0.0, started + 0.8 * total - time.monotonic()))
    say(started, "PostgreSQL restarting")
    soak.database_down = (time.monotonic(), 0.0)
    await asyncio.to_thread(postgres.restart)
    soak.database_down = (soak.database_down[0], time.monotonic())
    say(started, "PostgreSQL back")
    return redis


def terminate_the_apps_connections(servers: Servers) -> int:
    """End every connection to the soak's database but this one, as the server does."""
    return servers.django(
        "from django.db import connection\n"
        "with connection.cursor() as cursor:\n"
        "    cursor.execute('SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity'\n"
        "        ' WHERE datname = current_database() AND pid <> pg_backend_pid()')\n"
        "    print(json.dumps(cursor.fetchone()[0]))"
    )


def stored_moves(servers: Servers) -> dict:
    return servers.django(
        "from django.db.models import Count, Sum\n"
        "from games.models import Attempt\n"
        "agg = Attempt.objects.aggregate(moves=Sum('move_count'), attempts=Count('id'))\n"
        "print(json.dumps(agg))"
    )


async def soak_run(args: argparse.Namespace) -> None:
    redis = RedisServer().start()
    postgres = PostgresServer().start()
    servers = Servers(
        SOAK,
        base_port=BASE_PORT,
        database=DATABASE,
        redis_url=redis.url,
        postgres_port=postgres.port,
        quiet=False,
    )
    try:
        with servers:
            dailies = [d for d in servers.dailies() if d["certificate"]]
            started = time.monotonic()
            soak = Soak(servers, dailies, until=started + args.minutes * 60)
            tasks = [asyncio.create_task(warm_rss(soak, n)) for n in range(len(servers.urls))]
            for n in range(args.players):
                tasks.append(asyncio.create_task(player(soak, n, args.pace, n % 2 == 1)))
            tasks += [asyncio.create_task(watcher(soak, n)) for n in range(args.watchers)]
            tasks += [asyncio.create_task(stranger(soak)), asyncio.create_task(health_poller(soak))]
            redis = await faults(soak, redis, postgres, started, args.minutes)
            await asyncio.gather(*tasks)
            rss_end = {n: rss_mib(proc.pid) for n, proc in enumerate(servers.procs)}
            stored = stored_moves(servers)
            log_errors = servers.log_lines("")
            report(soak, args, stored, rss_end, servers, log_errors)
    finally:
        redis.stop()
        postgres.stop()


def report(soak, args, stored, rss_end, servers, log_lines) -> None:
    print(
        f"## Soak: {args.minutes:g} minutes, {args.players} players (half REST, half play "
        f"socket, a move every {args.pace:g} s), {args.watchers} watchers; {machine()}\n"
    )
    equal = "equal" if soak.acked == (stored["moves"] or 0) else "NOT EQUAL"
    print(
        table(
            [
                "moves acknowledged",
                "of which found stored after a lost answer",
                "moves stored",
                "attempts",
                "games won",
                "verdict",
            ],
            [
                [
                    soak.acked,
                    soak.acked_after_loss,
                    stored["moves"] or 0,
                    stored["attempts"],
                    soak.games,
                    equal,
                ]
            ],
        )
    )
    print()
    rows = [[when, outcome, count] for (when, outcome), count in sorted(soak.health.items())]
    print(table(["health: phase", "answer", "count"], rows))
    verdict = "none" if not soak.unhealthy else "; ".join(soak.unhealthy[:10])
    print(f"\nnot 200 ok while the database and Redis were up: {verdict}\n")
    print(table(["watchers", "count"], [[k, v] for k, v in soak.watches.most_common()]))
    print()
    print(
        table(
            ["refused handshakes: close code", "count"],
            [[k, v] for k, v in sorted(soak.refused.items())],
        )
    )
    print()
    print(
        table(
            ["client-side errors (retried)", "count"],
            [[k, v] for k, v in soak.errors.most_common()] or [["none", 0]],
        )
    )
    outside = soak.outside_outages()
    print(
        f"\nPostgreSQL ended the app's {soak.terminated[1]} connections "
        "(no window: nothing may fail for it)"
    )
    verdict = "none" if not outside else ", ".join(f"{k} {v}" for k, v in outside.most_common())
    print(f"errors while every service was up: {verdict}")
    errors = [line for line in log_lines if " ERROR " in line or line.startswith("ERROR:")]
    tracebacks = sum(line.startswith("Traceback") for line in log_lines)
    print(f"\nserver logs: {len(log_lines)} lines, {len(errors)} at ERROR, {tracebacks} tracebacks")
    for line in errors[:12]:
        print(f"    {line[:160]}")
    print()
    rows = []
    for n in sorted(rss_end):
        warm, end = soak.rss_warm.get(n, float("nan")), rss_end[n]
        within = "yes" if end - warm <= RSS_BOUND_MIB else "NO"
        label = f"process {n}" + (" (restarted)" if n == 1 else "")
        rows.append([label, f"{warm:.0f}", f"{end:.0f}", f"{end - warm:+.0f}", within])
    print(
        table(
            [
                "server",
                f"RSS MiB {WARM_SECONDS:.0f} s after start",
                "RSS MiB at end",
                "growth",
                f"within {RSS_BOUND_MIB:.0f} MiB",
            ],
            rows,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--watchers", type=int, default=10)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between two moves")
    args = parser.parse_args()
    asyncio.run(soak_run(args))


if __name__ == "__main__":
    main()
