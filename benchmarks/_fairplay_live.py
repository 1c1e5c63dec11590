"""The fair-play benchmark's pass through the real services (benchmarks/fairplay.py).

One embedded server process (SQLite, in-memory layer, tasks inline), a fresh database with
the real today's and tomorrow's certified dailies. The game clock (`CLOCK_OFFSET_SECONDS`)
puts the server a few minutes before the end of today (D), so the day rolls over in a short
run; the server is restarted on the same database with the clock moved on, as a player who
keeps a tab open would meet it:

1. **D, 23:54** (six minutes before midnight): every kind plays today's daily of both games
   at once, over REST and over the play socket, in real time (the server stamps every move):
   instant, 200 ms rhythm, the solver's line at a person's pace (and at 2 s), with detours,
   honest games (the model's, chosen among those that end within the day), a bot parked at
   51 of 52 cards, and a rollover bot that opens its ranked attempt and plays a few moves.
2. **D+1, 00:01** (within the grace): the rollover bot asks for D's solution (it must still be
   hidden) and may still move.
3. **D+1, 00:06**: D's ranked play has ended. The rollover bot fetches the solution, now
   public, and tries it on its ranked attempt (refused: `409 day_over`), then goes on in
   practice and wins there. The first request runs the day's end (`daily_close`), which checks
   the parked bots again. On D+1's dailies, whose stored par is made an unproven, longer line
   first, an under-par bot plays the shortest line known.

Then each attempt's `review` and held reasons are read from the database, and its place on
its day's public board from `GET /api/leaderboards/<game>/<date>/`.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect

from benchmarks._honest import SKILLS, honest_game
from benchmarks._servers import EMBEDDED, Servers
from benchmarks.fairplay import (
    FAST_HUMAN,
    HUMAN_PACE_MS,
    SLOW_PACE_MS,
    Recorded,
    human_game,
    instant_bot,
    paced_bot,
    pct,
    rhythm_bot,
    table,
)

TIMEOUT = 60.0
PORT = 18660
#: Seconds of day D left when the first pass starts: room for the slowest kind (2 s a move).
DAY_LEFT = 360
TRANSPORTS = ("rest", "socket")
SOLVER_JOBS_OFF = {"SOLVER_JOBS": "off"}


@dataclass
class Client:
    """One browser: its cookies, its attempt, its socket when it plays over one."""

    url: str
    transport: str
    http: httpx.AsyncClient = field(init=False)
    attempt: int = 0
    seq: int = 0
    errors: list[str] = field(default_factory=list)
    ws: Any = None
    heartbeat: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.http = httpx.AsyncClient(base_url=self.url, timeout=TIMEOUT)

    async def start(self, game: str, date: str) -> dict[str, Any]:
        answer = await self.http.post("/api/players/", json={})
        answer.raise_for_status()
        answer = await self.http.post(f"/api/dailies/{game}/{date}/attempts/", json={})
        answer.raise_for_status()
        state = answer.json()
        self.attempt, self.seq = state["id"], state["seq"]
        if self.transport == "socket":
            cookie = self.http.cookies.get("patience_player")
            self.ws = await connect(
                self.url.replace("http://", "ws://") + f"/ws/play/{self.attempt}/",
                origin=self.url,  # type: ignore[arg-type]
                additional_headers={"Cookie": f"patience_player={cookie}"},
                open_timeout=TIMEOUT,
                ping_interval=None,
            )
            first = json.loads(await self.ws.recv())
            assert first.get("type") == "state", first
            self.heartbeat = asyncio.create_task(self._beat())
        return state

    async def _beat(self) -> None:
        """A ping every 20 s, as the play page sends: a silent socket is closed after 60 s."""
        while self.ws is not None:
            await asyncio.sleep(20)
            if self.ws is not None:
                await self.ws.send('{"type": "ping"}')

    async def send(self, body: dict[str, Any], path: str) -> tuple[int, dict[str, Any]]:
        """A move, finish or resign over this client's transport: (HTTP-like status, body)."""
        if self.ws is not None:
            await self.ws.send(json.dumps({"type": path, **body}))
            answer = {"type": "pong"}
            while answer.get("type") == "pong":  # the heartbeat's answers
                answer = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
            if answer.get("type") == "state":
                return 200, answer["state"]
            return 409 if answer.get("code") == "day_over" else 400, answer
        route = {"move": "moves", "finish": "finish", "resign": "resign"}[path]
        response = await self.http.post(f"/api/attempts/{self.attempt}/{route}/", json=body)
        return response.status_code, response.json()

    async def play(self, recorded: Recorded, began: float, *, resign: bool = False) -> None:
        """Each token at its recorded time after `began` (the attempt's start); a trailing
        batch at one time as one `finish`, as the page's finish button does."""
        moves, times = recorded.moves, recorded.times
        while self.seq < len(moves):
            await asyncio.sleep(max(0.0, began + times[self.seq] / 1000 - time.monotonic()))
            rest = times[self.seq :]
            if self.seq > 0 and len(rest) > 1 and len(set(rest)) == 1:
                status, state = await self.send({"seq": self.seq}, "finish")
            else:
                status, state = await self.send({"seq": self.seq, "move": moves[self.seq]}, "move")
            if status != 200:
                self.errors.append(f"{status} {state.get('code')}")
                return
            self.seq = state["seq"]
        if resign:
            status, state = await self.send({}, "resign")
            if status != 200:
                self.errors.append(f"resign {status} {state.get('code')}")

    async def hang_up(self) -> None:
        """Close the socket (the day's play is over; later requests go over REST)."""
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            self.heartbeat = None
        if self.ws is not None:
            ws, self.ws = self.ws, None
            await ws.close()

    async def close(self) -> None:
        await self.hang_up()
        await self.http.aclose()


@dataclass
class Entry:
    game: str
    kind: str
    transport: str
    date: str
    recorded: Recorded
    client: Client = field(init=False)
    attempt: int = 0
    resign: bool = False
    note: str = ""


def _honest_in_time(seed: str, game: str, deal: str, limit_s: float) -> tuple[Recorded, str]:
    """An honest game of the strong model that ends within `limit_s` seconds (a win if one
    does), and how it ends."""
    rng = random.Random(seed)
    fallback = None
    for _ in range(12):
        played = honest_game(rng, game, deal, SKILLS[-1])
        if played.times[-1] / 1000 < limit_s:
            if played.won:
                return Recorded(played.moves, played.times), played.outcome
            fallback = fallback or (Recorded(played.moves, played.times), played.outcome)
    assert fallback is not None, "no honest game short enough"
    return fallback


def _makers(
    rng: random.Random, game: str, deal: str, line: list[str]
) -> dict[str, Callable[[], Recorded]]:
    pace = HUMAN_PACE_MS[game]
    return {
        "instant": lambda: instant_bot(rng, line),
        "200 ms rhythm": lambda: rhythm_bot(rng, line),
        f"solver line, {pace / 1000:g} s pace": lambda: paced_bot(rng, line, pace),
        "solver line, 2 s pace": lambda: paced_bot(rng, line, SLOW_PACE_MS),
        "solver line, detours (fast)": lambda: human_game(rng, game, deal, line, FAST_HUMAN),
        "parked 51/52": lambda: instant_bot(rng, line[:-1]),
    }


def plan_first_pass(url: str, dailies: list[dict], day_left: float) -> list[Entry]:
    """Every kind's game on day D's dailies, made before the servers start (the honest model
    takes a while to find a game that ends within the day)."""
    entries: list[Entry] = []
    for daily in dailies:
        game, line, deal = daily["game"], daily["certificate"], daily["deal"]
        rng = random.Random(f"live-{game}")
        for transport in TRANSPORTS:
            for kind, make in _makers(rng, game, deal, line).items():
                recorded = make()
                if recorded.times[-1] / 1000 > day_left - 30:
                    continue  # would not end within the day: left out rather than cut
                entries.append(Entry(game, kind, transport, daily["date"], recorded))
            honest, outcome = _honest_in_time(
                f"live-honest-{game}-{transport}", game, deal, day_left - 30
            )
            entries.append(
                Entry(game, f"honest strong ({outcome})", transport, daily["date"], honest)
            )
            entries[-1].resign = outcome == "resigned"
            rollover = paced_bot(rng, line[:12], HUMAN_PACE_MS[game])
            entries.append(Entry(game, "rollover", transport, daily["date"], rollover))
    for entry in entries:
        entry.client = Client(url, entry.transport)
    return entries


async def play_all(entries: list[Entry]) -> None:
    """Every entry's game at once, each move at its time."""
    await asyncio.gather(*(_run(entry) for entry in entries))
    for entry in entries:
        await entry.client.hang_up()


async def _run(entry: Entry) -> None:
    try:
        state = await entry.client.start(entry.game, entry.date)
        entry.attempt = state["id"]
        if not state["ranked"]:
            entry.client.errors.append("not ranked")
            return
        await entry.client.play(entry.recorded, time.monotonic(), resign=entry.resign)
    except Exception as exc:  # a refusal or a dropped socket: reported, the others go on
        entry.client.errors.append(f"{type(exc).__name__}: {str(exc)[:80]}")


async def rollover_pass(entries: list[Entry], after_grace: bool) -> None:
    """The rollover bots: ask for the solution, then try to move on the ranked attempt."""
    for entry in entries:
        if entry.kind != "rollover":
            continue
        client = entry.client
        answer = await client.http.get(f"/play/{entry.game}/{entry.date}/solution/")
        served = answer.status_code == 200
        if not after_grace:
            entry.note = "solution hidden in the grace" if not served else "SOLUTION SERVED"
            continue
        if not served:
            entry.note += "; solution not served after the grace"
            continue
        line = [step["move"] for step in answer.json()["steps"]]
        status, body = await client.send({"seq": client.seq, "move": line[client.seq]}, "move")
        entry.note += f"; a ranked move after the grace: {status} {body.get('code', '')}"
        if status == 409:
            answer = await client.http.post(f"/api/attempts/{entry.attempt}/continue/", json={})
            practice = answer.json()
            for seq in range(practice["seq"], len(line)):
                reply = await client.http.post(
                    f"/api/attempts/{practice['id']}/moves/", json={"seq": seq, "move": line[seq]}
                )
                if reply.status_code != 200:
                    break
                practice = reply.json()
            entry.note += (
                f"; practice continuation {practice['status']}, ranked={practice['ranked']}"
            )


def _offset_to(target: dt.datetime, startup: float) -> float:
    return target.timestamp() - time.time() - startup


def run_live(args: argparse.Namespace) -> None:
    asyncio.run(live(args))


async def live(args: argparse.Namespace) -> None:
    today = dt.datetime.now(dt.UTC).date()
    tomorrow = today + dt.timedelta(days=1)
    midnight = dt.datetime.combine(tomorrow, dt.time(), tzinfo=dt.UTC)
    # The solver's jobs (perfection checks, par proofs) are run below as one worker would run
    # them, not in the server's threads, which a restart would cut short.
    servers = Servers(EMBEDDED, base_port=PORT, days=2, quiet=True, extra_env=SOLVER_JOBS_OFF)
    print(f"# services: preparing {EMBEDDED.name} ...", file=sys.stderr, flush=True)
    try:
        servers.prepare()
        dailies = [d for d in servers.dailies(today.isoformat()) if d["game"] in args.game]
        entries = plan_first_pass(servers.urls[0], dailies, DAY_LEFT)
        servers.clock_offset = _offset_to(midnight - dt.timedelta(seconds=DAY_LEFT), 6)
        servers.start()
        print("# services: day D near its end, every kind plays", file=sys.stderr, flush=True)
        await play_all(entries)
        servers.stop()
        servers.clock_offset = _offset_to(midnight + dt.timedelta(minutes=1), 6)
        servers.start()
        await rollover_pass(entries, after_grace=False)
        servers.stop()
        under = _make_par_unproven(servers, tomorrow.isoformat(), args.game)
        servers.clock_offset = _offset_to(midnight + dt.timedelta(minutes=6), 6)
        servers.start()
        await rollover_pass(entries, after_grace=True)
        entries += await _under_par(servers, under)
        _wait_closed(servers, today.isoformat())
        servers.stop()
        measured = _perfection_checks(servers, [e.attempt for e in entries if e.attempt])
        print(f"# services: {measured} perfection measures", file=sys.stderr, flush=True)
        servers.start()
        await _report(servers, entries)
    finally:
        for entry in locals().get("entries", []):
            await entry.client.close()
        servers.__exit__(None, None, None)


def _make_par_unproven(servers: Servers, date: str, games: Sequence[str]) -> list[dict]:
    """D+1's deals get a longer stored par, not proven (the first line the solver found, or
    par + 2): what a Munger deal whose proof never finished looks like."""
    return servers.django(
        "from games.models import DailyChallenge\n"
        "from games.engine.solver import DECIDE, Budget, rules_for\n"
        "from games.engine.solver.search import decide\n"
        "from games.engine import GAMES\n"
        "out = []\n"
        f"for d in DailyChallenge.objects.filter(date='{date}', game__in={list(games)!r})"
        ".select_related('deal'):\n"
        "    deal = d.deal\n"
        "    first = decide(rules_for(GAMES[d.game].from_deal(deal.deal_string), DECIDE),"
        " Budget(None, 50000))\n"
        "    deal.par = max(len(first.line), deal.par + 2)\n"
        "    deal.par_optimal = False\n"
        "    deal.save(update_fields=['par', 'par_optimal'])\n"
        "    out.append({'game': d.game, 'date': d.date.isoformat(), 'par': deal.par,"
        " 'deal': deal.deal_string, 'certificate': list(deal.certificate)})\n"
        "print(json.dumps(out))"
    )


async def _under_par(servers: Servers, dailies: list[dict]) -> list[Entry]:
    entries = []
    for daily in dailies:
        rng = random.Random(f"live-under-{daily['game']}")
        recorded = paced_bot(rng, daily["certificate"], 1000)
        entry = Entry(daily["game"], "under par", "rest", daily["date"], recorded)
        entry.client = Client(servers.urls[0], "rest")
        entry.note = f"stored par {daily['par']} (unproven), line {len(daily['certificate'])}"
        entries.append(entry)
    await play_all(entries)
    return entries


def _perfection_checks(servers: Servers, ids: list[int]) -> int:
    """The perfection check of every ranked win on its board (what the leaderboards ask the
    workers for, a win in the day's top 100), one after the other as a worker runs them, with
    the production budget. Wins on one net line (the solver-line kinds) share one measure."""
    return int(
        servers.django(
            "from games import fairplay, services\n"
            "from games.models import Attempt\n"
            "measure, memo = fairplay.perfection, {}\n"
            "def once(game, deal, moves, **kw):\n"
            "    key = (game, deal, tuple(fairplay.net_line(moves)))\n"
            "    if key not in memo:\n"
            "        memo[key] = measure(game, deal, moves, **kw)\n"
            "    return memo[key]\n"
            "fairplay.perfection = once\n"
            f"wins = Attempt.objects.filter(pk__in={ids!r}, status='won', ranked=True)\n"
            "for attempt in wins.on_board():\n"
            "    services.attempt_check_perfection(attempt_id=attempt.pk)\n"
            "print(len(memo))",
            timeout=3600,
        )
    )


def _wait_closed(servers: Servers, date: str, deadline_s: float = 120) -> None:
    """Until the day's end has run for D's dailies (the first request after the grace starts
    it; the embedded server checks once a minute)."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        open_ = servers.django(
            "from games.models import DailyChallenge\n"
            f"print(DailyChallenge.objects.filter(date='{date}', closed_at__isnull=True).count())"
        )
        if not open_:
            return
        httpx.get(f"{servers.urls[0]}/api/dailies/", timeout=TIMEOUT)
        time.sleep(2)
    print("# services: the day's end did not run in time", file=sys.stderr)


def _perfection_cell(measured: dict[str, Any] | None) -> str:
    """A win's perfection measure: value (misses of decided net moves), or why none."""
    if not measured:
        return "-"
    if not measured.get("decided"):
        return "none decided"
    return f"{measured['value']:.3f} ({measured['misses']}/{measured['decided']})"


async def _report(servers: Servers, entries: list[Entry]) -> None:
    ids = [e.attempt for e in entries if e.attempt]
    stored = {
        row["id"]: row
        for row in servers.django(
            "from games.models import Attempt\n"
            f"rows = Attempt.objects.filter(pk__in={ids!r})\n"
            "print(json.dumps([{'id': a.pk, 'status': a.status, 'ranked': a.ranked,"
            " 'review': a.review, 'rules': [r['rule'] for r in a.held_reasons],"
            " 'moves': len(a.moves), 'perfection': a.perfection} for a in rows]))"
        )
    }
    # The boards as the API serves them, read through its selector: the API's rows carry no
    # attempt ids (they are their players'), and this report goes by attempt.
    boards: dict[tuple[str, str], dict[int, str]] = {}
    for key in sorted({(entry.game, entry.date) for entry in entries}):
        found = servers.django(
            "from games.models import DailyChallenge\n"
            "from leaderboards import selectors\n"
            f"daily = DailyChallenge.objects.get(game={key[0]!r}, date={key[1]!r})\n"
            "rows = selectors.board_page(daily=daily, limit=100)\n"
            "print(json.dumps({r['attempt_id']: r['status'] for r in rows}))"
        )
        boards[key] = {int(attempt): status for attempt, status in found.items()}
    rows, defeated = [], []
    for entry in entries:
        row = stored.get(entry.attempt, {})
        board = boards[(entry.game, entry.date)].get(entry.attempt)
        # A cheat is defeated when it is held or off the board; a rollover bot when the line
        # it copied never ranks (its row stays as it was when ranked play ended).
        defeated.append(board is None or (entry.kind == "rollover" and board != "won"))
        rows.append(
            [
                entry.game,
                entry.kind,
                entry.transport,
                row.get("status", "-"),
                str(row.get("moves", "-")),
                row.get("review") or "-",
                ", ".join(row.get("rules", [])) or "-",
                _perfection_cell(row.get("perfection")),
                board or "off",
                "; ".join(entry.client.errors) or entry.note.lstrip("; ") or "",
            ]
        )
    print("\nThrough the services (one embedded server, REST and the play socket)\n")
    header = ["game", "kind", "over", "status", "moves", "review", "rules", "perfection"]
    header.append("on the board")
    print(table([*header, "notes"], rows))
    cheats = [d for d, e in zip(defeated, entries, strict=True) if not e.kind.startswith("honest")]
    honest = [r for r, e in zip(rows, entries, strict=True) if e.kind.startswith("honest")]
    print(f"\ncheats held or kept off the board: {pct(sum(cheats), len(cheats))} of {len(cheats)}")
    print(f"honest games held: {sum(r[5] == 'held' for r in honest)} of {len(honest)}")
    print(f"server log errors: {servers.server_errors()}")
