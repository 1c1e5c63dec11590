"""Play throughput and latency: N concurrent guests play today's certified dailies.

Run: `.venv/bin/python benchmarks/play.py [--players 200] [--undos 3] [--runs 3]
[--configs embedded,postgres] [--transports socket,rest,empty]`.

Each player is a new guest (`POST /api/players/`, then `POST /api/dailies/<game>/<today>/
attempts/`) playing the daily's certificate line (the winning line stored with the deal; players
alternate the two games) with `--undos` undos at seeded random places (play a move, `U`, play it
again), to the win. All players start their moves at the same moment, one move at a time each
(send, wait for the answer, send the next), either over the play socket (`ws/play/<id>/`: a
`move` message, answered by the new `state`) or over REST (`POST /api/attempts/<id>/moves/`),
spread round-robin over the configuration's server processes.

Two configurations: the embedded default (SQLite, in-memory channel layer, one process) and
PostgreSQL + Redis with two processes. The baseline is a `ping` -> `pong` round trip on the same
play sockets in the same run (every `--ping-every` moves): the project has no echo consumer, and
a ping touches neither the database nor the channel layer, so it measures the server's WebSocket
path and the event loop under the same load. Errors: any non-2xx answer, error message,
disconnect or timeout (a player stops at its first error). Prints one row per run and the
medians, and the CPU seconds used by the servers and by this client during the moves.

The floor of the server's CPU, in the same run and through the same servers: the `empty`
transport, as many requests as there were moves, `GET /api/bench/empty/` (an endpoint of the
benchmark servers' settings only, benchmarks/_settings.py: Django's whole middleware stack and a
JSON `{}`, no database, cache or channel layer) from each player's kept-alive connection, one
at a time each, paced as the moves are. Each phase's server CPU is read from /proc for every
server process before and after it; the summary gives CPU per move and per empty request, and
their ratio.
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
    BENCH_SETTINGS,
    EMBEDDED,
    EMPTY_PATH,
    POSTGRES_2,
    Servers,
    Setup,
    machine,
    median,
    percentile,
    profile_start,
    profile_stop,
    self_cpu_seconds,
    table,
)

from games.engine import GAMES  # noqa: E402

TIMEOUT = 30.0  # seconds any single answer may take before it counts as an error
CONFIGS = {"embedded": EMBEDDED, "postgres": POSTGRES_2}


def line_with_undos(
    game: str, deal: str, certificate: list[str], undos: int, seed: int, moves: int = 0
):
    """The certificate with `undos` detours (move, U, move again), checked with the engine;
    with `moves`, the detours fall within the first `moves` tokens."""
    rng = random.Random(seed)
    span = len(certificate) - 1
    if moves:
        span = min(span, max(1, moves - 2 * undos))
    places = set(rng.sample(range(span), min(undos, span)))
    tokens: list[str] = []
    for i, move in enumerate(certificate):
        tokens.append(move)
        if i in places:
            tokens += ["U", move]
    position = GAMES[game].from_deal(deal)
    for token in tokens:
        position.push(token)
    assert position.is_won(), "the certificate does not win"
    return tokens


@dataclass
class Result:
    times: list[float] = field(default_factory=list)  # seconds per move round trip
    pings: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)  # guest + attempt, seconds
    resent: int = 0  # requests sent again after a kept-alive connection was closed (`post`)


@dataclass
class Player:
    url: str
    game: str
    date: str
    tokens: list[str]
    client: httpx.AsyncClient | None = None
    attempt: int = 0
    seq: int = 0
    pace: float = 0.0  # seconds between two moves of this player (0: at once)


class Pacer:
    """A player's move times: one every `pace` seconds from a random offset (or at once)."""

    def __init__(self, pace: float, url: str, attempt: int) -> None:
        self.pace = pace
        self.next = time.perf_counter() + random.Random(f"{url}{attempt}").random() * pace

    async def wait(self) -> None:
        if self.pace:
            await asyncio.sleep(max(0.0, self.next - time.perf_counter()))
            self.next += self.pace


#: What a request meets when the server closed its kept-alive connection just as it was reused
#: (uvicorn closes a connection idle for 5 s; players wait idle for the others to start).
STALE_CONNECTION = (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError)


async def post(client: httpx.AsyncClient, url: str, body: dict, result: Result) -> httpx.Response:
    """POST as a browser does: a request that met a kept-alive connection closed under it is
    sent once more on a new connection (harmless here: starting resumes, and a move's seq makes
    a repeated move answer as the first time). Counted in `Result.resent`."""
    try:
        return await client.post(url, json=body)
    except STALE_CONNECTION:
        result.resent += 1
        return await client.post(url, json=body)


async def start(player: Player, result: Result) -> bool:
    player.client = httpx.AsyncClient(base_url=player.url, timeout=TIMEOUT)
    began = time.perf_counter()
    try:
        answer = await post(player.client, "/api/players/", {}, result)
        if answer.status_code != 201 and answer.status_code != 200:
            result.errors.append(f"players {answer.status_code}")
            return False
        answer = await post(
            player.client, f"/api/dailies/{player.game}/{player.date}/attempts/", {}, result
        )
        if answer.status_code not in (200, 201):
            result.errors.append(f"attempts {answer.status_code} {answer.text[:80]}")
            return False
    except httpx.HTTPError as exc:
        result.errors.append(f"start {type(exc).__name__}")
        return False
    result.starts.append(time.perf_counter() - began)
    state = answer.json()
    player.attempt, player.seq = state["id"], state["seq"]
    return True


async def play_rest(player: Player, go: asyncio.Event, result: Result) -> None:
    assert player.client is not None
    await go.wait()
    pacer = Pacer(player.pace, player.url, player.attempt)
    for token in player.tokens:
        await pacer.wait()
        began = time.perf_counter()
        try:
            answer = await post(
                player.client,
                f"/api/attempts/{player.attempt}/moves/",
                {"seq": player.seq, "move": token},
                result,
            )
        except httpx.HTTPError as exc:
            result.errors.append(f"move {type(exc).__name__}")
            return
        took = time.perf_counter() - began
        if answer.status_code != 200 or answer.json().get("version") != player.seq + 1:
            result.errors.append(f"move {answer.status_code} {answer.text[:80]}")
            return
        result.times.append(took)
        player.seq += 1


async def play_empty(player: Player, go: asyncio.Event, result: Result) -> None:
    """As many empty requests as the player has moves, one at a time (the CPU floor)."""
    assert player.client is not None
    await go.wait()
    pacer = Pacer(player.pace, player.url, player.attempt)
    for _ in player.tokens:
        await pacer.wait()
        began = time.perf_counter()
        try:
            answer = await player.client.get(EMPTY_PATH)
        except httpx.HTTPError as exc:
            result.errors.append(f"empty {type(exc).__name__}")
            return
        if answer.status_code != 200:
            result.errors.append(f"empty {answer.status_code} {answer.text[:80]}")
            return
        result.times.append(time.perf_counter() - began)


async def play_socket(
    player: Player, go: asyncio.Event, ready: list[int], result: Result, ping_every: int
) -> None:
    assert player.client is not None
    cookie = player.client.cookies.get("patience_player")
    uri = player.url.replace("http://", "ws://") + f"/ws/play/{player.attempt}/"
    try:
        async with connect(
            uri,
            origin=player.url,
            additional_headers={"Cookie": f"patience_player={cookie}"},
            open_timeout=TIMEOUT,
            ping_interval=None,
            close_timeout=2,
        ) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            if first.get("type") != "state":
                result.errors.append(f"connect {first.get('code')}")
                return
            ready[0] += 1
            await go.wait()
            pacer = Pacer(player.pace, player.url, player.attempt)
            for i, token in enumerate(player.tokens):
                await pacer.wait()
                if ping_every and i % ping_every == ping_every - 1:
                    began = time.perf_counter()
                    await ws.send('{"type":"ping"}')
                    answer = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                    if answer.get("type") != "pong":
                        result.errors.append(f"ping {answer.get('code')}")
                        return
                    result.pings.append(time.perf_counter() - began)
                began = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "seq": player.seq, "move": token}))
                answer = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                took = time.perf_counter() - began
                if answer.get("type") != "state" or answer["state"]["version"] != player.seq + 1:
                    result.errors.append(f"move {answer.get('type')} {answer.get('code')}")
                    return
                result.times.append(took)
                player.seq += 1
    except (OSError, TimeoutError, Exception) as exc:  # disconnects, refusals, timeouts
        result.errors.append(f"socket {type(exc).__name__}: {str(exc)[:60]}")


async def one_run(
    servers: Servers, dailies: list[dict], transport: str, args: argparse.Namespace, run: int
) -> dict:
    result = Result()
    players = []
    for i in range(args.players):
        daily = dailies[i % len(dailies)]
        tokens = line_with_undos(
            daily["game"],
            daily["deal"],
            daily["certificate"],
            args.undos,
            seed=run * 100003 + i,
            moves=args.moves,
        )
        if args.moves:
            tokens = tokens[: args.moves]
        url = servers.urls[i % len(servers.urls)]
        players.append(
            Player(url=url, game=daily["game"], date=daily["date"], tokens=tokens, pace=args.pace)
        )
    # Guests and attempts first (not timed as moves), a bounded number at a time.
    gate = asyncio.Semaphore(50)

    async def gated_start(p: Player) -> bool:
        async with gate:
            return await start(p, result)

    if transport == "empty":  # no guest, no attempt: nothing but the requests
        for i, p in enumerate(players):
            p.client = httpx.AsyncClient(base_url=p.url, timeout=TIMEOUT)
            p.attempt = i
        started = [True] * len(players)
    else:
        started = await asyncio.gather(*(gated_start(p) for p in players))
    players = [p for p, ok in zip(players, started, strict=True) if ok]
    go = asyncio.Event()
    ready = [0]
    if transport == "socket":
        tasks = [
            asyncio.create_task(play_socket(p, go, ready, result, args.ping_every)) for p in players
        ]
        deadline = time.monotonic() + 60
        while ready[0] + len(result.errors) < len(players) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
    elif transport == "empty":
        tasks = [asyncio.create_task(play_empty(p, go, result)) for p in players]
    else:
        tasks = [asyncio.create_task(play_rest(p, go, result)) for p in players]
    spies = profile_start(servers, args.profile, f"{transport}-{run}")
    cpu_before = servers.cpu_seconds()
    client_before = self_cpu_seconds()
    began = time.perf_counter()
    go.set()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.max_seconds)
    elapsed = time.perf_counter() - began
    server_cpu = servers.cpu_seconds() - cpu_before
    client_cpu = self_cpu_seconds() - client_before
    profile_stop(spies)
    await asyncio.gather(*(p.client.aclose() for p in players if p.client is not None))
    return {
        "transport": transport,
        "players": len(players),
        "moves": len(result.times),
        "moves_s": len(result.times) / elapsed,
        "p50": percentile(result.times, 50) * 1000,
        "p99": percentile(result.times, 99) * 1000,
        "errors": len(result.errors) + args.players - len(players),
        "error_kinds": sorted(set(result.errors))[:5],
        "resent": result.resent,
        "ping_p50": percentile(result.pings, 50) * 1000,
        "ping_p99": percentile(result.pings, 99) * 1000,
        "start_p50": percentile(result.starts, 50) * 1000,
        "server_cpu": server_cpu,
        "client_cpu": client_cpu,
        "elapsed": elapsed,
    }


def fmt(row: dict) -> list[str]:
    ping = "-" if row["transport"] != "socket" else f"{row['ping_p50']:.1f} / {row['ping_p99']:.1f}"
    return [
        row["transport"],
        str(row["players"]),
        str(row["moves"]),
        f"{row['moves_s']:.0f}",
        f"{row['p50']:.1f}",
        f"{row['p99']:.1f}",
        str(row["errors"]),
        ping,
        f"{row['server_cpu']:.1f} / {row['client_cpu']:.1f} / {row['elapsed']:.1f}",
    ]


HEADER = [
    "transport",
    "players",
    "moves",
    "moves/s",
    "p50 ms",
    "p99 ms",
    "errors",
    "ping p50 / p99 ms",
    "CPU s server / client / wall",
]


async def bench(setup: Setup, args: argparse.Namespace) -> list[dict]:
    rows = []
    with Servers(setup, extra_env=BENCH_SETTINGS) as servers:
        dailies = servers.dailies()
        assert {d["game"] for d in dailies} == {"munger", "masterpiece"}, dailies
        for run in range(1, args.runs + 1):
            for transport in args.transports:
                row = await one_run(servers, dailies, transport, args, run)
                row["run"] = run
                rows.append(row)
                print(f"# {setup.name} run {run}: " + " | ".join(fmt(row)), file=sys.stderr)
                if row["error_kinds"]:
                    print(f"#   errors: {row['error_kinds']}", file=sys.stderr)
                if row["resent"]:
                    print(f"#   sent again on a new connection: {row['resent']}", file=sys.stderr)
        errors = servers.server_errors()
        if errors:
            print(f"# server log errors: {errors}\n{servers.log_tail(15)}", file=sys.stderr)
    return rows


def cpu_ratios(rows: list[dict]) -> str:
    """Server CPU per move of each transport beside that of an empty request, per run (the
    phases of one run share its servers) and the median of the runs."""
    runs = sorted({r["run"] for r in rows})
    moved = [t for t in ("socket", "rest") if any(r["transport"] == t for r in rows)]
    if not moved or not any(r["transport"] == "empty" for r in rows):
        return ""
    per: dict[str, list[float]] = {t: [] for t in [*moved, "empty"]}
    lines = []
    for run in runs:
        mine = {r["transport"]: r for r in rows if r["run"] == run}
        if "empty" not in mine or not mine["empty"]["moves"]:
            continue
        cells = [str(run)]
        for t in [*moved, "empty"]:
            row = mine.get(t)
            ms = row["server_cpu"] / row["moves"] * 1000 if row and row["moves"] else float("nan")
            per[t].append(ms)
            cells.append(f"{ms:.2f}")
        empty_ms = per["empty"][-1]
        cells += [f"{per[t][-1] / empty_ms:.1f}x" for t in moved]
        lines.append(cells)
    med = {t: median(v) for t, v in per.items()}
    lines.append(
        ["median", *(f"{med[t]:.2f}" for t in [*moved, "empty"])]
        + [f"{med[t] / med['empty']:.1f}x" for t in moved]
    )
    header = ["run", *(f"{t} CPU ms/move" for t in moved), "empty CPU ms/request"]
    header += [f"{t} / empty" for t in moved]
    return table(header, lines)


def breakdown(setup: Setup, players: int, moves: int) -> None:
    """CPU per move of the service call and its after-commit receivers, in this process.

    No server: `services.attempt_play` and `pushes.render` called directly on the configuration's
    database, first with every receiver of `move_played` connected, then without them one by
    one (the receivers are this process's only; nothing is changed in the repository).
    """
    import os

    servers = Servers(setup, quiet=True, extra_env=BENCH_SETTINGS)
    try:
        servers.prepare()
        os.environ.update(servers.env())
        import django

        django.setup()
        from games import clock, services, signals
        from games.models import Attempt, DailyChallenge
        from games.state import attempt_state, position
        from realtime import pushes

        dailies = list(DailyChallenge.objects.filter(date=clock.today()).order_by("game"))

        def measure(label: str) -> list[str]:
            cpu = wall = 0.0
            count = 0
            for i in range(players):
                daily = dailies[i % len(dailies)]
                player = services.player_create_guest()
                attempt, _ = services.attempt_start(player=player, daily=daily)
                for seq, token in enumerate(daily.deal.certificate[:moves]):
                    cpu0, wall0 = time.process_time(), time.perf_counter()
                    state = services.attempt_play(
                        attempt_id=attempt.pk, player=player, seq=seq, move=token
                    )
                    pushes.render(state)
                    cpu += time.process_time() - cpu0
                    wall += time.perf_counter() - wall0
                    count += 1
            return [label, f"{cpu / count * 1000:.1f}", f"{wall / count * 1000:.1f}"]

        def through_socket() -> list[str]:
            """The same moves sent as a browser sends them, through the play socket's consumer
            (the ASGI application and its middleware, the message budget, the throttle's count,
            the hand-over to the database's thread and back, the JSON both ways), in this
            process's own event loop: what a server adds to the service, without the network."""
            from channels.db import database_sync_to_async
            from channels.testing import WebsocketCommunicator

            from config.asgi import application
            from games.identity import COOKIE_NAME

            @database_sync_to_async
            def begin(daily: DailyChallenge) -> tuple[int, str]:
                player = services.player_create_guest()
                attempt, _ = services.attempt_start(player=player, daily=daily)
                return attempt.pk, services.player_token_issue(player=player)

            async def play() -> tuple[float, float, int]:
                cpu = wall = 0.0
                count = 0
                for i in range(players):
                    daily = dailies[i % len(dailies)]
                    attempt_id, cookie = await begin(daily)
                    tab = WebsocketCommunicator(
                        application,
                        f"/ws/play/{attempt_id}/",
                        headers=[
                            (b"origin", b"http://localhost"),
                            (b"host", b"localhost"),
                            (b"cookie", f"{COOKIE_NAME}={cookie}".encode()),
                        ],
                    )
                    assert (await tab.connect())[0]
                    await tab.receive_json_from(timeout=TIMEOUT)
                    for seq, token in enumerate(daily.deal.certificate[:moves]):
                        cpu0, wall0 = time.process_time(), time.perf_counter()
                        await tab.send_json_to({"type": "move", "seq": seq, "move": token})
                        answer = await tab.receive_json_from(timeout=TIMEOUT)
                        cpu += time.process_time() - cpu0
                        wall += time.perf_counter() - wall0
                        assert answer["type"] == "state", answer
                        count += 1
                    await tab.disconnect()
                return cpu, wall, count

            cpu, wall, count = asyncio.run(play())
            label = "all, through the play socket's consumer"
            return [label, f"{cpu / count * 1000:.1f}", f"{wall / count * 1000:.1f}"]

        rows = [measure("all (as shipped)"), through_socket()]
        signals.move_played.disconnect(dispatch_uid="realtime.push.move")
        signals.attempt_finished.disconnect(dispatch_uid="realtime.push.end")
        rows.append(measure("without realtime.pushes.push_state"))
        signals.move_played.disconnect(dispatch_uid="leaderboards.move_played")
        rows.append(measure("and without the leaderboard index update"))
        signals.move_played.receivers = []
        signals.move_played.sender_receivers_cache.clear()
        rows.append(measure("and without any receiver of move_played"))
        print(f"### {setup.name}: CPU per move in one process, {players} players x {moves}\n")
        print(table(["receivers connected", "CPU ms/move", "wall ms/move"], rows))
        attempt = Attempt.objects.select_related("daily__deal").filter(move_count=moves).first()
        parts = []
        for label, fn in (
            (f"position() of a {moves}-move history", lambda: position(attempt)),
            ("attempt_state()", lambda: attempt_state(attempt)),
        ):
            began = time.process_time()
            for _ in range(200):
                fn()
            parts.append([label, f"{(time.process_time() - began) / 200 * 1000:.2f}"])
        state = attempt_state(attempt)
        began = time.process_time()
        for _ in range(200):
            pushes.render(state)
        parts.append(["pushes.render() of the state", f"{(time.process_time() - began) / 0.2:.2f}"])
        print()
        print(table(["piece", "CPU ms"], parts))
        print(f"\n({machine()})")
    finally:
        servers.drop_database()
        servers.tmp.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--undos", type=int, default=3, help="undos per player (default 3)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=0, help="cap the tokens per player (0: all)")
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds between a player's moves (default 0: the next as soon as answered)",
    )
    parser.add_argument("--ping-every", type=int, default=5, help="a ping every N moves")
    parser.add_argument("--configs", default="embedded,postgres")
    parser.add_argument(
        "--transports",
        default="socket,rest,empty",
        help="socket, rest, empty (the CPU floor: empty Django requests)",
    )
    parser.add_argument("--max-seconds", type=float, default=600)
    parser.add_argument("--profile", metavar="DIR", help="py-spy the servers into DIR")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="no servers: CPU per move of the service and its receivers, in this process",
    )
    args = parser.parse_args()
    args.transports = args.transports.split(",")
    if args.breakdown:
        print(machine())
        for name in args.configs.split(","):
            breakdown(CONFIGS[name], players=6, moves=args.moves or 40)
            print()
        return
    print(machine())
    pace = f"a move every {args.pace:g} s each" if args.pace else "each move once answered"
    print(
        f"{args.players} players, certificate lines with {args.undos} undos each, {pace}, "
        f"{args.runs} runs; one line per run, then the medians\n"
    )
    try:
        import uvloop

        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    for name in args.configs.split(","):
        setup = CONFIGS[name]
        rows = runner(bench(setup, args))
        print(f"### {setup.name}\n")
        out = [[str(r["run"]), *fmt(r)] for r in rows]
        for transport in args.transports:
            mine = [r for r in rows if r["transport"] == transport]
            med = {
                k: median([r[k] for r in mine])
                for k in mine[0]
                if isinstance(mine[0][k], (int, float))
            }
            med["transport"] = transport
            med["players"] = int(med["players"])
            med["moves"] = int(med["moves"])
            med["errors"] = int(max(r["errors"] for r in mine))
            out.append(["median", *fmt(med)])
        print(table(["run", *HEADER], out))
        ratios = cpu_ratios(rows)
        if ratios:
            print()
            print(ratios)
        resent = sum(r["resent"] for r in rows)
        print(
            f"\n(errors in the median row: the worst run; requests sent again after the server "
            f"closed a kept-alive connection under them: {resent} in all runs; {machine()})\n",
            flush=True,
        )


if __name__ == "__main__":
    main()
