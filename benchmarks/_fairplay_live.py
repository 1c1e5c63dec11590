"""The fair-play benchmark's pass through the real services (benchmarks/fairplay.py).

One embedded server process (SQLite, in-memory layer, tasks inline), a fresh database with
the real today's and tomorrow's certified dailies. The game clock (`CLOCK_OFFSET_SECONDS`)
puts the server a few minutes before the end of today (D), so the day rolls over in a short
run; the server is restarted on the same database with the clock moved on, as a player who
keeps a tab open would meet it:

1. **D, 23:53** (seven minutes before midnight): every kind plays today's daily of both games
   at once, over REST and over the play socket, in real time (the server stamps every move):
   instant, 200 ms rhythm, the solver's line at a person's pace (and at 2 s), with detours,
   honest games (the model's, chosen among those that end within the day), a bot parked at
   51 of 52 cards, and a rollover bot that opens its ranked attempt and plays a few moves.
   Two cheats that only a server can show play too:
   - **practice recon** (Munger): a guest opens the daily ranked (its cookie keeps the
     attempt); a new guest of the same browser (its device cookie kept), then of a new
     browser at the same address, asks for the daily, to play it in practice, or however the
     server lets it, and learns the hidden cards from each move's answer (`probe`: the stock
     drawn and put back, then the solver's line on a deal sampled from what is known); then
     the ranked attempt is won with a reordered line of the cheater's own, at a person's pace;
   - **best of N from one address**: `BEST_OF` guests, cookies cleared between, start the
     daily one after the other from one address; every ranked attempt the server gives is
     played with a line of its own (random opening, then the solver) and the best is kept.
   What the server answered each start is in the notes (a refusal, 409, is the service's
   success), and which rows reach the board unheld in the summary.
2. **D+1, 00:01** (within the grace): the rollover bot asks for D's solution (it must still be
   hidden) and may still move.
3. **D+1, 00:06**: D's ranked play has ended. The rollover bot fetches the solution, now
   public, and tries it on its ranked attempt (refused: `409 day_over`), then goes on in
   practice and wins there. The first request runs the day's end (`daily_close`), which checks
   the parked bots again. On D+1's dailies, whose stored par is made an unproven, longer line
   first, an under-par bot plays the shortest line known.

Then each attempt's `review` and held reasons are read from the database, and its place on
its day's public board from `GET /api/leaderboards/<game>/<date>/`.

Each simulated person connects from a loopback address of its own, in a /24 of its own
(`new_address`: 127.A.B.C, bound as the client's local address), so the server's limits per
address and per network (`RANKED_STARTS_PER_ADDRESS`, `..._NETWORK`, at production's values
here: `SERVER_ENV`) see one person per address; the best-of-N guests and the practice recon's
browsers share one, as one person's would.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import itertools
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect

from benchmarks._honest import STRONG, honest_game
from benchmarks._servers import EMBEDDED, Servers
from benchmarks.fairplay import (
    FAST_HUMAN,
    HUMAN_PACE_MS,
    SLOW_PACE_MS,
    Deal,
    Recorded,
    human_game,
    instant_bot,
    opening_then_solver,
    paced_bot,
    pct,
    rhythm_bot,
    shuffle_line,
    table,
)
from games.engine import GAMES
from games.engine.cards import RANKS, SUITS
from games.engine.solver import DECIDE, EXACT, SOLVED, Budget, rules_for
from games.engine.solver.search import beam, decide

TIMEOUT = 60.0
PORT = 18660
#: Seconds of day D left when the first pass starts: room for the slowest kind (2 s a move)
#: and for the practice recon (a probe, then a line at a person's pace).
DAY_LEFT = 420
TRANSPORTS = ("rest", "socket")
#: The servers: no solver jobs in their threads (run below as a worker would), and the ranked
#: attempts an address and a network may start at a daily as production has them (the
#: benchmark servers' raised limits left out): the best-of-N kind meets them; every other
#: person comes from an address and a /24 of its own (`new_address`).
SERVER_ENV = {
    "SOLVER_JOBS": "off",
    "RANKED_STARTS_PER_ADDRESS": "",
    "RANKED_STARTS_PER_NETWORK": "",
    "RANKED_STARTS_PER_NETWORK56": "",
}
#: Guests from one address in the best-of-N kind (past the household's ranked attempts).
BEST_OF = 6
#: The careful cheaters' median gap in this pass (ms): a person's pace that fits in the day.
CAREFUL_MS = (1000, 1500)


_people = itertools.count()


def new_address() -> str:
    """A loopback address of a simulated person's own, in a /24 of its own (127.A.B.C: the
    whole of 127/8 is this machine's), so that the server's limits per address and per network
    see one person per address, as they would on the Internet."""
    n = next(_people)
    return f"127.{20 + n // 250}.{n % 250}.{2 + n % 7}"


@dataclass
class Client:
    """One browser: its cookies, its attempt, its socket when it plays over one, and the
    address it connects from (`new_address` unless it shares one)."""

    url: str
    transport: str
    address: str = field(default_factory=new_address)
    http: httpx.AsyncClient = field(init=False)
    attempt: int = 0
    seq: int = 0
    errors: list[str] = field(default_factory=list)
    ws: Any = None
    heartbeat: asyncio.Task[None] | None = None
    #: The server's answer to the start: HTTP status, and the refusal's code or "ranked" /
    #: "practice".
    answered: str = ""

    def __post_init__(self) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=self.address)
        self.http = httpx.AsyncClient(base_url=self.url, timeout=TIMEOUT, transport=transport)

    async def try_start(self, game: str, date: str, *, new_player: bool = True) -> dict | None:
        """Start (or resume) this browser's attempt at a daily: its state, or None when the
        server refused it (`answered` says how)."""
        if new_player:
            answer = await self.http.post("/api/players/", json={})
            answer.raise_for_status()
        answer = await self.http.post(f"/api/dailies/{game}/{date}/attempts/", json={})
        body = answer.json()
        if answer.status_code >= 400:
            self.answered = f"{answer.status_code} {body.get('code', '')}".strip()
            return None
        self.answered = f"{answer.status_code} {'ranked' if body['ranked'] else 'practice'}"
        self.attempt, self.seq = body["id"], body["seq"]
        return body

    async def start(self, game: str, date: str) -> dict[str, Any]:
        state = await self.try_start(game, date)
        if state is None:
            raise RuntimeError(f"start refused: {self.answered}")
        if self.transport == "socket":
            cookie = self.http.cookies.get("patience_player")
            self.ws = await connect(
                self.url.replace("http://", "ws://") + f"/ws/play/{self.attempt}/",
                origin=self.url,  # type: ignore[arg-type]
                additional_headers={"Cookie": f"patience_player={cookie}"},
                open_timeout=TIMEOUT,
                ping_interval=None,
                local_addr=(self.address, 0),
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
    #: A row that is part of a cheat but not its result (a probe): reported, not counted.
    probe: bool = False
    #: Played by its group's coroutine (practice recon, best of N), not by `play_all`.
    grouped: bool = False


def _honest_in_time(seed: str, game: str, deal: str, limit_s: float) -> tuple[Recorded, str]:
    """An honest game of the strong model that ends within `limit_s` seconds (a win if one
    does), and how it ends."""
    rng = random.Random(seed)
    fallback = None
    for _ in range(12):
        played = honest_game(rng, game, deal, STRONG)
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


def plan_first_pass(
    url: str, dailies: list[dict], day_left: float
) -> tuple[list[Entry], list[Callable[[], Awaitable[None]]]]:
    """Every kind's game on day D's dailies, made before the servers start (the honest model
    takes a while to find a game that ends within the day), and the kinds that play as a
    group (practice recon, best of N from one address)."""
    entries: list[Entry] = []
    groups: list[Callable[[], Awaitable[None]]] = []
    for daily in dailies:
        found, group = best_of_n(url, daily)
        entries += found
        groups.append(group)
        if daily["game"] == "munger":
            found, group = practice_recon(url, daily)
            entries += found
            groups.append(group)
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
        if not hasattr(entry, "client"):
            entry.client = Client(url, entry.transport)
    return entries, groups


async def play_all(
    entries: list[Entry], groups: Sequence[Callable[[], Awaitable[None]]] = ()
) -> None:
    """Every entry's game at once, each move at its time (a group's entries by the group)."""
    await asyncio.gather(
        *(_run(entry) for entry in entries if not entry.grouped),
        *(group() for group in groups),
    )
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


# -- cheats that need a server: best of N from one address, practice recon -----------------


def _light_deal(daily: dict) -> Deal:
    """The fields of a `Deal` the line makers read, from a daily the servers serve."""
    line = list(daily["certificate"])
    return Deal(daily["game"], 0, daily["deal"], line, [line], False, 0, line, len(line))


def careful(rng: random.Random, line: Sequence[str]) -> Recorded:
    """A line at a careful cheater's pace (`CAREFUL_MS`), a reading time first."""
    return paced_bot(rng, line, rng.uniform(*CAREFUL_MS))


def best_of_n(url: str, daily: dict) -> tuple[list[Entry], Callable[[], Awaitable[None]]]:
    """`BEST_OF` guests from one address, cookies cleared between (a browser of its own
    each), one after the other start today's daily ranked; the bot plays every attempt it got
    with a line of its own (a random opening, then the solver: each another line) and keeps
    the best. What the server answered each start, and which rows reach the board unheld."""
    game, rng = daily["game"], random.Random(f"live-best-of-{daily['game']}")
    d = _light_deal(daily)
    address = new_address()
    entries = []
    for index in range(BEST_OF):
        line, k = opening_then_solver(rng, d)
        entry = Entry(
            game, f"best of {BEST_OF}, one address", "rest", daily["date"], careful(rng, line)
        )
        entry.client = Client(url, "rest", address=address)
        entry.grouped = True
        entry.note = f"#{index + 1}: {k} random moves, {len(line)} moves"
        entries.append(entry)

    async def run() -> None:
        playing = []
        for entry in entries:  # one after the other, as one person clearing cookies does
            try:
                state = await entry.client.try_start(game, entry.date)
            except Exception as exc:
                entry.client.errors.append(f"{type(exc).__name__}: {str(exc)[:80]}")
                continue
            entry.note += f"; start: {entry.client.answered}"
            if state is not None and state["ranked"]:
                entry.attempt = state["id"]
                playing.append(entry)
        await asyncio.gather(*(_play(entry) for entry in playing))
        won = [e for e in playing if not e.client.errors]
        if won:
            best = min(won, key=lambda e: len(e.recorded.moves))
            best.note += "; the best kept"

    return entries, run


async def _play(entry: Entry) -> None:
    try:
        await entry.client.play(entry.recorded, time.monotonic(), resign=entry.resign)
    except Exception as exc:
        entry.client.errors.append(f"{type(exc).__name__}: {str(exc)[:80]}")


#: Munger's face-down places at the deal: (column, index) (docs/rules.md, "Munger").
FACE_DOWN = [(k, i) for k in range(7) for i in (0, 2)]
STOCK_CARDS = 17
ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS]


@dataclass
class Recon:
    """What a probe learnt of a Munger deal from the server's answers: the cards the deal
    shows, each face-down card once turned up (or shown known after an undo), and the stock's
    order as it is drawn."""

    shown: dict[tuple[int, int], str]
    reserve: list[str]
    down: dict[tuple[int, int], str] = field(default_factory=dict)
    stock: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, view: dict[str, Any]) -> Recon:
        shown = {
            (k, i): entry["card"]
            for k, column in enumerate(view["tableau"])
            for i, entry in enumerate(column)
            if entry["face_up"]
        }
        return cls(shown, list(view["reserve"]))

    @property
    def complete(self) -> bool:
        return len(self.down) == len(FACE_DOWN) and len(self.stock) == STOCK_CARDS

    def learn(self, before: dict[str, Any], after: dict[str, Any]) -> dict[int, str]:
        """What the view `after` a move shows that the probe did not know: deal index ->
        card (a face-down card turned up, or shown known; the stock's cards in sight)."""
        new: dict[int, str] = {}
        for k, i in FACE_DOWN:
            if (k, i) in self.down or len(after["tableau"][k]) <= i:
                continue
            now = after["tableau"][k][i]
            was = before["tableau"][k][i] if len(before["tableau"][k]) > i else None
            if now["card"] and (not now["face_up"] or (was is not None and not was["face_up"])):
                self.down[(k, i)] = now["card"]
                new[7 * i + k] = now["card"]
        stock = after["stock"]
        drawn = STOCK_CARDS - stock["count"]
        for offset, card in enumerate(stock["known"]):
            if drawn + offset not in self.stock:
                self.stock[drawn + offset] = new[35 + drawn + offset] = card
        drew = drawn > STOCK_CARDS - before["stock"]["count"]
        if after["waste"] and drew and drawn - 1 not in self.stock:
            self.stock[drawn - 1] = new[35 + drawn - 1] = after["waste"][-1]
        return new

    def cards(self, rng: random.Random | None = None) -> list[str]:
        """The deal's 52 cards in dealing order: what is known, and the rest (with `rng`)
        dealt at random into the places not known yet."""
        cards: list[str | None] = [None] * 52
        for (k, i), card in {**self.shown, **self.down}.items():
            cards[7 * i + k] = card
        cards[28:35] = self.reserve
        for n, card in self.stock.items():
            cards[35 + n] = card
        unknown = sorted(set(ALL_CARDS) - {c for c in cards if c})
        if rng is not None:
            rng.shuffle(unknown)
        fill = iter(unknown)
        return [card or next(fill) for card in cards]


async def probe(
    client: Client, view: dict[str, Any], rng: random.Random, limit: int = 600
) -> Recon:
    """Learn a Munger deal's hidden cards from the server's answers to an attempt's moves:
    draw the whole stock and put it back (undo: what was seen stays known), then play what
    the solver says on a deal sampled from what is known, sampling again after each card
    that turns up otherwise than sampled, until every face-down card is known."""
    recon = Recon.of(view)
    history: list[str] = []
    current = view

    async def send(token: str) -> dict[int, str] | None:
        nonlocal current
        status, state = await client.send({"seq": client.seq, "move": token}, "move")
        if status != 200:
            client.errors.append(f"probe {token}: {status} {state.get('code', '')}")
            return None
        client.seq = state["seq"]
        learned = recon.learn(current, state["view"])
        current = state["view"]
        history.append(token)
        return learned

    for token in ["S>W"] * STOCK_CARDS + ["U"] * STOCK_CARDS:
        if await send(token) is None:
            return recon
    misses = looks = 0
    while not recon.complete and len(history) < limit and looks < 80:
        looks += 1
        sample = recon.cards(rng)
        mirror = GAMES["munger"].from_deal(" ".join(sample))
        for token in history:
            mirror.push(token)
        look = await asyncio.to_thread(
            decide, rules_for(mirror, DECIDE), Budget(None, 30_000, 500_000)
        )
        if look.status != SOLVED or not look.line:
            misses += 1  # no win seen from here: another sample, or back a few moves
            if misses % 3 == 0:
                for _ in range(rng.randint(1, 3)):
                    if not mirror.can_undo:
                        break
                    mirror.push("U")
                    if await send("U") is None:
                        return recon
            continue
        misses = 0
        for token in look.line:
            learned = await send(token)
            if learned is None:
                return recon
            if any(sample[index] != card for index, card in learned.items()):
                break  # a card turned up otherwise than sampled: look again
    return recon


def practice_recon(url: str, daily: dict) -> tuple[list[Entry], Callable[[], Awaitable[None]]]:
    """Munger's hidden cards learnt through practice: a guest opens today's daily ranked (its
    cookie keeps the attempt); a new guest of the same browser, then of a new browser at the
    same address, asks for the daily to play it in practice (or however the server lets it)
    and learns the hidden cards from each move's answer; then the ranked attempt is won with
    a reordered line of the cheater's own (the shipped solver's beam search on the deal it
    learnt, not a stored line), at a person's pace."""
    game, date = daily["game"], daily["date"]
    rng = random.Random(f"live-recon-{game}")
    address = new_address()
    ranked = Entry(game, "practice recon, reordered own line", "rest", date, Recorded([], []))
    ranked.client = Client(url, "rest", address=address)
    ranked.grouped = True
    probes = []
    for name in ("same browser", "new browser"):
        entry = Entry(game, f"practice recon, probe ({name})", "rest", date, Recorded([], []))
        entry.client = Client(url, "rest", address=address)
        entry.grouped = entry.probe = True
        probes.append(entry)

    async def run() -> None:
        try:
            await _recon(ranked, probes, daily, rng)
        except Exception as exc:
            ranked.client.errors.append(f"{type(exc).__name__}: {str(exc)[:80]}")

    return [ranked, *probes], run


async def _recon(ranked: Entry, probes: list[Entry], daily: dict, rng: random.Random) -> None:
    game, date = daily["game"], daily["date"]
    state = await ranked.client.try_start(game, date)
    if state is None or not state["ranked"]:
        ranked.note = f"ranked start: {ranked.client.answered}"
        return
    ranked.attempt = state["id"]
    same, fresh = probes
    device = [c for c in ranked.client.http.cookies.jar if c.name == "patience_device"]
    for cookie in device:  # the same browser: its device cookie, not its player's
        same.client.http.cookies.jar.set_cookie(cookie)
    recon = None
    for entry in probes:
        seen = await entry.client.try_start(game, date)
        entry.note = f"start: {entry.client.answered}"
        if seen is None:
            continue
        entry.attempt = seen["id"]
        clock = time.monotonic()
        recon = await probe(entry.client, seen["view"], rng)
        entry.note += (
            f"; learnt {len(recon.down)}/{len(FACE_DOWN)} face-down, "
            f"{len(recon.stock)}/{STOCK_CARDS} stock cards in {entry.client.seq} moves, "
            f"{time.monotonic() - clock:.0f} s"
        )
        break
    answers = "; ".join(f"{p.kind.split('(')[1][:-1]}: {p.client.answered}" for p in probes)
    if recon is None or not recon.complete:
        ranked.note = f"{answers}; the deal not learnt: the ranked attempt is left"
        return
    text = " ".join(recon.cards())
    line, how = await asyncio.to_thread(own_line, game, text, [daily["certificate"]])
    line = shuffle_line(rng, game, text, line)
    ranked.recorded = careful(rng, line)
    ranked.note = (
        f"{answers}; deal learnt {'right' if text == daily['deal'] else 'WRONG'}; "
        f"own line {len(line)} ({how}, reordered) where the par is {len(daily['certificate'])}"
    )
    await _play(ranked)


def own_line(game: str, text: str, stored: list[list[str]]) -> tuple[list[str], str]:
    """A line of the cheater's own for a deal: the shipped solver's beam search at a width of
    its choosing, not a stored line."""
    start = GAMES[game].from_deal(text)
    rules = rules_for(start, EXACT)
    for width, weight in ((400, 1.0), (150, 1.0), (400, 2.0), (50, 1.0)):
        outcome = beam(rules, Budget(None, 400_000), width=width, weight=weight)
        if outcome.line and outcome.line not in stored:
            return list(outcome.line), f"beam {width}/{weight:g}"
    raise RuntimeError("no line of the cheater's own")


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
    servers = Servers(EMBEDDED, base_port=PORT, days=2, quiet=True, extra_env=SERVER_ENV)
    print(f"# services: preparing {EMBEDDED.name} ...", file=sys.stderr, flush=True)
    try:
        servers.prepare()
        dailies = [d for d in servers.dailies(today.isoformat()) if d["game"] in args.game]
        entries, groups = plan_first_pass(servers.urls[0], dailies, DAY_LEFT)
        servers.clock_offset = _offset_to(midnight - dt.timedelta(seconds=DAY_LEFT), 6)
        servers.start()
        print("# services: day D near its end, every kind plays", file=sys.stderr, flush=True)
        await play_all(entries, groups)
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
    if "remaining" in measured and "decided" not in measured:
        return f"{measured['remaining']} moves to go"
    if not measured.get("decided"):
        return "none decided"
    value = measured.get("value")
    shown = f"{value:.3f} " if isinstance(value, int | float) else ""
    return f"{shown}({measured.get('misses')}/{measured['decided']})"


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
        board = boards[(entry.game, entry.date)].get(entry.attempt) if entry.attempt else None
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
                "; ".join([entry.note.lstrip("; "), *entry.client.errors]).strip("; "),
            ]
        )
    print("\nThrough the services (one embedded server, REST and the play socket)\n")
    header = ["game", "kind", "over", "status", "moves", "review", "rules", "perfection"]
    header.append("on the board")
    print(table([*header, "notes"], rows))
    pairs = list(zip(defeated, entries, rows, strict=True))
    cheats = [d for d, e, _ in pairs if not e.kind.startswith("honest") and not e.probe]
    honest = [r for _, e, r in pairs if e.kind.startswith("honest")]
    print(f"\ncheats held or kept off the board: {pct(sum(cheats), len(cheats))} of {len(cheats)}")
    unheld = [
        f"{e.game} {e.kind} ({r[8]})"
        for d, e, r in pairs
        if not d and not e.probe and not e.kind.startswith("honest")
    ]
    print(f"cheat results on the board unheld: {len(unheld)}" + (f": {unheld}" if unheld else ""))
    probes = [f"{e.game} {e.kind}: {r[8]}, {r[5]}" for _, e, r in pairs if e.probe and e.attempt]
    print(f"probe rows (a cheat's throwaway attempts): {probes or 'none'}")
    for game in sorted({e.game for e in entries}):
        best = [(e, r) for _, e, r in pairs if e.game == game and e.kind.startswith("best of")]
        if best:
            answers = Counter(e.client.answered or "-" for e, _ in best)
            on = sum(r[8] != "off" and r[5] != "held" for _, r in best)
            print(
                f"{game} best of {len(best)} from one address: starts answered "
                f"{dict(answers)}; rows on the board unheld: {on}"
            )
    print(f"honest games held: {sum(r[5] == 'held' for r in honest)} of {len(honest)}")
    print(f"server log errors: {servers.server_errors()}")
