"""Fair-play figures: how often the checks of games/fairplay.py hold honest games (false holds)
and catch each kind of cheating, per game and per rule, and whether a cheat that escapes them
would have reached the top of its day's board.

Run: `.venv/bin/python benchmarks/fairplay.py [--games 20] [--honest 9] [--seed 2026]
[--game munger] [--only KIND] [--no-servers] [--dump FILE]`.

Two passes:

1. **The checks** (no database, no server): each game is a move list with the server's
   per-move times (ms since the deal was shown), played on real certified deals, and judged by
   `games.fairplay.check` as the services judge it (`Judge`, the one place that calls the
   rules): a win with its perfection measure (`fairplay.perfection`), a resignation as it
   ends, a game left unfinished as the day's end judges it. Every game is drawn from a seeded
   RNG and the solver runs on node budgets, so the games are the same on every run (the
   perfection measure has a time budget, `--perfection-seconds`, as in production: on a
   loaded machine a Munger measure may settle fewer moves). For each deal the honest games
   make a board (ranked as `leaderboards.ranking` ranks), and each cheat is placed on it: would
   it have reached the top 10?
2. **The services** (`--no-servers` skips it): kinds played over REST and over the play
   socket against a real server process (benchmarks/_fairplay_live.py), in real time, each
   simulated person from an address of its own, with the day rolled over by the game clock's
   `CLOCK_OFFSET_SECONDS`; the attempts' `review`, held reasons and place on the board are read
   back. It adds the kinds only a server can show: practice recon of Munger's hidden cards and
   the best of many guests from one address.

The deals (`certified`): the first line `decide` finds (node budget), the solve's line (that
line shortened with what is left of the solve's node budget) and the proof's (shortened again
on a bigger budget: the certificate when shorter, proven shortest when the search finished).
Both stored lines are `Deal.solver_lines`, as production keeps them.

The players:

- **honest LEVEL PACE** (benchmarks/_honest.py): a heuristic player that finds its own line,
  knowing only what a player sees (Munger's hidden cards are guessed, never read), at four
  levels (novice, average, strong, expert) and three paces (slow, normal, fast, quick stock
  flips included); it slips, takes detours back, gets stuck and undoes, and gives up
  (resigns, or leaves the game unfinished). Its wins give the false-hold rate on wins, its
  resignations and unfinished games the false-hold rate on losses, and its games make the
  boards the cheats are placed on.
- **instant**: the solver's line, 20-80 ms to the first move, 5-40 ms a move.
- **200 ms rhythm / 1 s rhythm**: the solver's line on a timer with a few ms of jitter.
- **solver line, human pace**: log-normal gaps, median 0.6 s (Munger) or 0.8 s (Masterpiece),
  a person's reading time first; **solver line, 2 s pace**: the same at a 2 s median.
- **solver line, detours**: the solver's line at a person's tempo with detours undone, pauses
  and the server's finish.
- **solver line, reordered**: as detours, on the solver's line with six pairs of neighbouring
  moves that commute swapped, the first near its start.
- **parked 51/52**: the solver's line played instantly but for its last move, never finished.
- **under par**: the shortest line known, played at a person's pace, when the stored par is a
  longer line that was never proven (`par_proven` false).

The careful cheaters, each at a person's pace (a reading time of 3-12 s, then log-normal gaps
of a median drawn from 1-3 s), so that no timing rule sees them: the point is the line.

- **own line, other budget**: the shipped solver's own `shorten` run from the first line
  `decide` finds, with a node budget the stored lines were not made with (`OWN_BUDGETS`): a
  winning line near the par that is not one of the stored lines (the deals' table says how
  many first moves it shares with them).
- **reordered own line**: that line with six pairs of commuting moves swapped.
- **random opening then solver**: 3-12 random legal moves, then the shortest line the solver
  finds from there (node budget).
- **near-par, wasted moves kept**: the certificate with 1-6 harmless wasted moves inserted and
  never undone (a card moved there and back as two moves, a move of the line made the long
  way round, or one move the rest of the line does not mind), the first within its first
  five moves: a cheater who pays a few moves to look less perfect.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._honest import (  # noqa: E402
    FAST_HUMAN,
    HUMAN,
    PACES,
    SKILLS,
    Played,
    Skill,
    Tempo,
    honest_game,
    human_gap,
)
from games import fairplay  # noqa: E402
from games.engine import GAMES, deal  # noqa: E402
from games.engine.solver import DECIDE, SOLVED, Budget, certify, distance, rules_for  # noqa: E402
from games.engine.solver.par import shorten  # noqa: E402
from games.engine.solver.rules import EXACT  # noqa: E402
from games.engine.solver.search import beam, decide  # noqa: E402
from leaderboards import ranking  # noqa: E402

__all__ = ["FAST_HUMAN", "HUMAN", "Tempo", "human_gap"]

#: Deals each game's figures are played on, each certified on node budgets (`certified`: about
#: a second a Masterpiece deal, 5-15 s a Munger deal, and as much again for the own lines).
#: Each deal's par is proven shortest within `PROOF_NODES`, as the workers prove a daily's before
#: its day (docs/solver.md: every Munger deal of the solver's table within ten minutes): a par
#: that is only the best line found would make honest wins look perfect.
SEEDS = {"masterpiece": [1, 4, 9, 12, 17], "munger": [11, 33, 74, 95, 9]}
#: Median gap of the human-paced solver line per game (what a careful cheater would pick:
#: above the pace floors).
HUMAN_PACE_MS = {"munger": 600, "masterpiece": 800}
SLOW_PACE_MS = 2000


@dataclass(frozen=True)
class Recorded:
    """A played game: its tokens and the server's ms since the deal was shown, per token."""

    moves: list[str]
    times: list[int]

    @property
    def gaps(self) -> list[int]:
        return [b - a for a, b in zip(self.times, self.times[1:], strict=False)]


def _lognormal(rng: random.Random, median: float, sigma: float) -> float:
    return median * math.exp(rng.gauss(0, sigma))


def reordered(game: str, deal_string: str, line: Sequence[str], *, at: int = 0) -> list[str]:
    """`line` with its first pair of neighbouring moves from index `at` on that can be played
    in either order to the same position swapped: the same win, another line (what a person
    who finds the moves in their own order plays, or a cheater who shuffles a solver's)."""
    moves = list(line)
    position = GAMES[game].from_deal(deal_string)
    for token in moves[:at]:
        position.push(token)
    for index in range(at, len(moves) - 1):
        first, second = moves[index], moves[index + 1]
        straight = position.copy()
        straight.push(first)
        straight.push(second)
        swapped = position.copy()
        if first != second and swapped.is_legal(second):
            swapped.push(second)
            if swapped.is_legal(first):
                swapped.push(first)
                if swapped == straight:
                    moves[index], moves[index + 1] = second, first
                    return moves
        position.push(first)
    raise ValueError("no two neighbouring moves of the line commute")


def human_game(
    rng: random.Random, game: str, deal_string: str, line: Sequence[str], tempo: Tempo = HUMAN
) -> Recorded:
    """`line` (the solver's) played to the end at a person's `tempo`: detours undone, pauses,
    and the finishing line played by the server (one request, one time) when it chooses to."""
    position = GAMES[game].from_deal(deal_string)
    finish = rng.random() < tempo.finish_p
    moves: list[str] = []
    times: list[int] = []
    now = int(rng.uniform(*tempo.read_s) * 1000)
    previous: str | None = None

    def play(token: str) -> None:
        nonlocal now, previous
        if moves:
            now += human_gap(rng, tempo, token, previous)
        position.push(token)
        moves.append(token)
        times.append(now)
        previous = token

    for index, token in enumerate(line):
        if finish and index >= len(line) // 2:
            rest = position.finishing_line()
            if rest:
                now += human_gap(rng, tempo, "finish", previous)
                for step in rest:
                    position.push(step)
                    moves.append(step)
                    times.append(now)
                break
        if moves and rng.random() < tempo.detour_p:
            other = [m.text for m in position.legal_moves() if m.text != token]
            if other:
                play(rng.choice(other))
                play("U")
        play(token)
    assert position.is_won(), "a game on the solver's line ends won"
    return Recorded(moves, times)


def timed(line: Sequence[str], first: int, gaps: Callable[[int], int]) -> Recorded:
    """`line` played with the first move at `first` ms and gap `gaps(i)` before move i."""
    times = [first]
    for index in range(1, len(line)):
        times.append(times[-1] + max(0, gaps(index)))
    return Recorded(list(line), times)


def instant_bot(rng: random.Random, line: Sequence[str]) -> Recorded:
    return timed(line, rng.randint(20, 80), lambda _: rng.randint(5, 40))


def rhythm_bot(rng: random.Random, line: Sequence[str], period: int = 200) -> Recorded:
    return timed(line, period + rng.randint(0, 10), lambda _: period + int(rng.gauss(0, 4)))


def random_delay_bot(rng: random.Random, line: Sequence[str]) -> Recorded:
    return timed(line, rng.randint(150, 450), lambda _: rng.randint(150, 450))


def resampling_bot(
    rng: random.Random, line: Sequence[str], recorded: Recorded, *, read: bool = False
) -> Recorded:
    """Gaps drawn from a recorded human game's gaps; with `read`, a human's reading time
    first (the patient bot), else a first move after one drawn gap."""
    gaps = [g for g in recorded.gaps if g > 0]
    first = int(rng.uniform(*HUMAN.read_s) * 1000) if read else rng.choice(gaps)
    return timed(line, first, lambda _: rng.choice(gaps))


def paced_bot(rng: random.Random, line: Sequence[str], median_ms: float) -> Recorded:
    """The solver's line at a person's pace: a reading time of 3-12 s, then log-normal gaps of
    median `median_ms` (sigma 0.5: a person's spread, above every pace floor)."""
    return timed(
        line,
        int(rng.uniform(3, 12) * 1000),
        lambda _: max(150, int(_lognormal(rng, median_ms, 0.5))),
    )


#: The careful cheaters' pace: each game's median gap drawn from this range (ms).
CHEAT_PACE_MS = (1000, 3000)


def careful_bot(rng: random.Random, line: Sequence[str]) -> Recorded:
    """A line at a person's pace, as a careful cheater types it: a reading time first, then
    log-normal gaps of a median drawn from `CHEAT_PACE_MS`."""
    return paced_bot(rng, line, rng.uniform(*CHEAT_PACE_MS))


# -- the deals --------------------------------------------------------------------------------

#: Nodes of the solve that makes a deal's first stored line: `decide`, then `shorten` with
#: what is left (as `solver.solve(node_limit=...)` shares it), and of the proof after it.
SOLVE_NODES = 50_000
PROOF_NODES = 1_000_000
#: A cheater's own runs of the shipped solver, none with a budget the stored lines were made
#: with: `shorten` from the first line `decide` finds on these node budgets, and `beam` (the
#: search `shorten` widens) at these widths and weights, on `OWN_BEAM_NODES`.
OWN_BUDGETS = (10_000, 30_000, 80_000)
OWN_BEAMS = ((50, 1.0), (50, 2.0), (150, 1.0), (150, 2.0), (400, 1.0), (400, 2.0))
OWN_BEAM_NODES = 400_000
#: The own lines kept per deal: the shortest that are not under the stored par (a careful
#: cheater does not trip `under_par`), then those that are.
OWN_LINES = 3
#: Nodes of the solver's look from a random opening (the "random opening then solver" kind).
OPENING_NODES = 40_000


@dataclass(frozen=True)
class OwnLine:
    """A cheater's own line: what run of the solver gave it (`how`), the line, and how many
    first moves it shares with the certificate and, at most, with any stored line."""

    how: str
    line: list[str]
    prefix: int
    stored_prefix: int


@dataclass
class Deal:
    """A certified deal: its certificate (the shortest line the node budgets found), every
    line the solver gave for it (`solver_lines`: the solve's, and the proof's when shorter),
    whether that par is proven shortest and the proof's lower bound, the first line `decide`
    found, and the length of a longer winning line, never proven (the stored par of the
    under-par kind)."""

    game: str
    seed: int
    text: str
    line: list[str]
    lines: list[list[str]]
    proven: bool
    lower_bound: int
    first: list[str]
    unproven_par: int
    own: list[OwnLine] = field(default_factory=list)

    @property
    def par(self) -> int:
        return len(self.line)


def _shortened(start: Any, line: list[str], nodes: int) -> Any:
    """`shorten` on a node budget only (no clock: the same line on every machine)."""
    return shorten(start, list(line), time_limit=None, node_limit=max(0, nodes))


def certified(game: str, seed: int) -> Deal:
    """A deal and its lines, solved with node budgets (not time), so that the lines, and so
    the games, are the same on every machine."""
    text = deal(game, seed)
    start = GAMES[game].from_deal(text)
    first = decide(rules_for(start, DECIDE), Budget(None, SOLVE_NODES))
    assert first.status == SOLVED and first.line, (game, seed, first.status)
    solved = _shortened(start, first.line, SOLVE_NODES - first.nodes)
    proof = _shortened(start, solved.line, PROOF_NODES)
    lines = [list(solved.line)]
    if len(proof.line) < len(solved.line):
        lines.append(list(proof.line))
    for line in lines:
        certify(start, line)
    par = len(lines[-1])
    return Deal(
        game,
        seed,
        text,
        lines[-1],
        lines,
        bool(proof.optimal),
        proof.lower_bound,
        list(first.line),
        max(len(first.line), par + 2),
    )


def common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def own_lines(d: Deal) -> list[OwnLine]:
    """The cheater's own lines of a deal (made once): the shipped solver run with budgets of
    the cheater's own (`OWN_BUDGETS`, `OWN_BEAMS`), keeping the winning lines that are none of
    the stored ones, shortest first but not under the stored par while others are not
    (`OWN_LINES` of them)."""
    if not d.own:
        start = GAMES[d.game].from_deal(d.text)
        found: dict[tuple[str, ...], str] = {}
        for budget in OWN_BUDGETS:
            line = _shortened(start, d.first, budget).line
            found.setdefault(tuple(line), f"shorten {budget // 1000}k")
        rules = rules_for(start, EXACT)
        for width, weight in OWN_BEAMS:
            outcome = beam(
                rules, Budget(None, OWN_BEAM_NODES), width=width, upper=len(d.first), weight=weight
            )
            if outcome.line:
                found.setdefault(tuple(outcome.line), f"beam {width}/{weight:g}")
        stored = {tuple(line) for line in d.lines}
        new = sorted(
            (line for line in found if line not in stored and wins(d.game, d.text, line)),
            key=lambda line: (len(line) < d.par, len(line), found[line]),
        )
        for line in new[:OWN_LINES]:
            shared = max(common_prefix(line, other) for other in d.lines)
            d.own.append(OwnLine(found[line], list(line), common_prefix(line, d.line), shared))
        assert d.own, f"no own line of {d.game} {d.seed} is new"
    return d.own


def wins(game: str, text: str, line: Sequence[str]) -> bool:
    position = GAMES[game].from_deal(text)
    try:
        for token in line:
            position.push(token)
    except Exception:
        return False
    return position.is_won()


def opening_then_solver(rng: random.Random, d: Deal) -> tuple[list[str], int]:
    """`k` (3-12) random legal moves, each one a win is still found after (a cheater keeps the
    deal winnable: a random Masterpiece move often is not), then the shortest line the solver
    finds from there on a node budget: the line, and the random moves it begins with."""
    for _ in range(10):
        k = rng.randint(3, 12)
        position = GAMES[d.game].from_deal(d.text)
        opening: list[str] = []
        found = None
        while len(opening) < k:
            legal = [m.text for m in position.legal_moves()]
            rng.shuffle(legal)
            for token in legal[:8]:
                after = position.copy()
                after.push(token)
                look = decide(rules_for(after, DECIDE), Budget(None, OPENING_NODES))
                if look.status == SOLVED:
                    position, found = after, look
                    opening.append(token)
                    break
            else:
                break  # nothing random keeps a win in sight: the solver from here
        if found is None:
            continue
        rest = _shortened(position, found.line, OPENING_NODES).line
        line = opening + list(rest)
        if wins(d.game, d.text, line):
            return line, len(opening)
    raise RuntimeError(f"no random opening of {d.game} {d.seed} wins within the budget")


def _returns(position: Any, first: str) -> list[list[str]]:
    """Pairs [first, back] from `position` that leave it as it was: a card moved there and
    back, two wasted moves."""
    after = position.copy()
    after.push(first)
    pairs = []
    for move in after.legal_moves():
        back = after.copy()
        back.push(move.text)
        if back == position:
            pairs.append([first, move.text])
    return pairs


def _detours(position: Any, first: str, token: str) -> list[list[str]]:
    """Pairs [first, then] from `position` that reach where `token` alone does: a card taken
    the long way round (by the cellar, or another column), one wasted move."""
    target = position.copy()
    target.push(token)
    after = position.copy()
    after.push(first)
    found = []
    for move in after.legal_moves():
        there = after.copy()
        there.push(move.text)
        if there == target:
            found.append([first, move.text])
    return found


def with_wasted_moves(rng: random.Random, d: Deal, line: Sequence[str], count: int) -> list[str]:
    """`line` with `count` harmless wasted moves kept, never undone: a card moved there and
    back (two moves), a move the rest of the line still wins after, or a move of the line made
    the long way round in two (one move); the first within the line's first five moves (a
    comparison with the solver's line from the start then sees little of it, when a spot
    there takes one). Fewer when no spot takes one."""
    moves = list(line)
    wasted = tries = 0
    while wasted < count and tries < 60:
        tries += 1
        early = wasted == 0 and tries <= 20  # the first early, if any spot there takes one
        at = rng.randint(0, 5) if early else rng.randint(0, len(moves) - 1)
        position = GAMES[d.game].from_deal(d.text)
        for token in moves[:at]:
            position.push(token)
        legal = [m.text for m in position.legal_moves()]
        rng.shuffle(legal)
        # (the moves that replace moves[at:at + gone], how many moves of the line they replace)
        edits: list[tuple[list[str], int]] = [([m], 0) for m in legal]
        if at < len(moves):
            edits += [
                (pair, 1)
                for m in legal[:10]
                if m != moves[at]
                for pair in _detours(position, m, moves[at])
            ]
        if count - wasted >= 2:
            edits += [(pair, 0) for m in legal[:8] for pair in _returns(position, m)]
        rng.shuffle(edits)
        for edit, gone in edits[:40]:
            candidate = moves[:at] + edit + moves[at + gone :]
            if wins(d.game, d.text, candidate):
                moves, wasted = candidate, wasted + len(edit) - gone
                break
    return moves


# -- judging ----------------------------------------------------------------------------------


@dataclass
class Verdict:
    """One game and how the checks judged it: the rules it tripped (`reasons`), the win's
    perfection measure, and what the board ranks it by."""

    kind: str
    seed: int
    reasons: list[dict[str, Any]]
    perfection: dict[str, Any] | None = None
    outcome: str = "won"
    moves: int = 0
    net: int = 0
    #: The par the game is judged against (the stored par; the under-par kind's is longer).
    par: int = 0
    #: What the board ranks: whole seconds of play (`Attempt.play_seconds`), cards home.
    seconds: int = 0
    cards: int = 0
    #: A win left unjudged: the kind's share of perfection measures was spent (`--profiled`).
    skipped: bool = False
    #: The rank the game would take on the board of its deal's honest games, and whether that
    #: is in the top 10 (None: honest games, which make the boards).
    rank: int | None = None
    top: bool | None = None
    #: What the kind's maker says of the game (an own line's budget, wasted moves, ...).
    notes: dict[str, Any] = field(default_factory=dict)
    #: What each rule measured of the game, held or not (`Judge.figures`).
    figures: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def held(self) -> bool:
        return bool(self.reasons)


class Unjudged(Exception):
    """No perfection measure left for this kind: the win is not judged."""


#: `Attempt.MAX_PAUSE_MS` (games/models.py): a gap counts for at most a minute of play time.
MAX_PAUSE_MS = 60_000


def play_seconds(times: Sequence[int]) -> int:
    """Whole seconds of play as the boards count them (`Attempt.play_seconds`, finished at
    the last move): the gaps from the deal shown, each up to `MAX_PAUSE_MS`."""
    total, previous = 0, 0
    for moment in times:
        total += min(MAX_PAUSE_MS, max(0, moment - previous))
        previous = moment
    return ranking.whole_seconds(total / 1000)


def cards_home(game: str, text: str, moves: Sequence[str]) -> int:
    position = GAMES[game].from_deal(text)
    for token in moves:
        position.push(token)
    return position.foundation_cards


#: Nodes of the search that bounds what an unfinished game still needs (the day's end's
#: `parked_remaining`, which production gives a few seconds: a node budget here).
REMAINING_NODES = 30_000


def accepted(function: Callable[..., Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """The `arguments` that `function` takes: the rules of games/fairplay.py change, and the
    benchmark keeps running on the version in the tree (an argument it does not know yet is
    left out)."""
    parameters = inspect.signature(function).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return arguments
    return {key: value for key, value in arguments.items() if key in parameters}


@dataclass
class Judge:
    """The one place that runs the rules of games/fairplay.py, as the services do: a win with
    its perfection measure (computed once per distinct net line: the solver-line kinds replay
    one per deal; at most `limit` new measures per kind, `start_kind`, a win past that left
    unjudged; none with `seconds` 0, a win judged as it finishes), a resignation as it ends, a
    game left unfinished as the day's end judges it (with what a search says it still needs).

    What the rules are told lives in `perfection_arguments` and `check_arguments`, for every
    kind at once: when the rules take more, add it there. Arguments the rules in the tree do
    not take are left out (`accepted`). `figures` keeps what each rule measured of the game,
    held or not (an accuracy figure, say), where the rules let it be read."""

    seconds: float
    limit: int
    measured: int = 0
    cache: dict[tuple[str, str, tuple[str, ...]], dict[str, Any] | None] = field(
        default_factory=dict
    )

    def perfection_arguments(self, d: Deal) -> dict[str, Any]:
        """What `fairplay.perfection` is told of the deal: its par when proven shortest."""
        return {"par": d.par if d.proven else None, "time_limit": self.seconds}

    def check_arguments(
        self,
        d: Deal,
        moves: Sequence[str],
        *,
        won: bool,
        outcome: str,
        par: int,
        proven: bool,
        perfection: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """What `fairplay.check` is told beside the game, as `fairplay.check_attempt` tells it:
        the deal's stored par and whether it is proven, every line the solver gave, the win's
        measure, and for a game left unfinished what it still needs."""
        return {
            "won": won,
            "par": par,
            "par_proven": proven,
            "remaining": self.remaining(d, moves) if outcome in UNFINISHED else None,
            "perfection": perfection,
            "solver_lines": d.lines,
        }

    def remaining(self, d: Deal, moves: Sequence[str]) -> int | None:
        """A winning line's length from where an unfinished game stands (the day's end's
        search, `services.dailies.parked_remaining`), for games long enough to be judged."""
        if len(moves) < getattr(fairplay, "MIN_MOVES_PERFECTION", 30):
            return None
        found = distance(d.game, d.text, list(moves), time_limit=None, node_limit=REMAINING_NODES)
        return found.upper

    def start_kind(self) -> None:
        self.measured = 0

    def perfection(self, d: Deal, moves: Sequence[str]) -> dict[str, Any] | None:
        if self.seconds <= 0:
            return None
        key = (d.game, d.text, tuple(fairplay.net_line(moves)))
        if key not in self.cache:
            if self.measured >= self.limit:
                raise Unjudged
            self.measured += 1
            self.cache[key] = fairplay.perfection(
                d.game,
                d.text,
                list(moves),
                **accepted(fairplay.perfection, self.perfection_arguments(d)),
            )
        return self.cache[key]

    def figures(
        self, d: Deal, moves: Sequence[str], times: Sequence[int], arguments: dict[str, Any]
    ) -> dict[str, dict[str, float]]:
        """What each rule measured of the game (its numbers), held or not; empty where the
        rules in the tree do not let that be read (`fairplay.Play`, `Rule.measure`)."""
        play_class = getattr(fairplay, "Play", None)
        if play_class is None or not dataclasses.is_dataclass(play_class):
            return {}
        names = {f.name for f in dataclasses.fields(play_class)}
        given = {"game": d.game, "moves": moves, "move_times": times, "certificate": d.line}
        given |= arguments
        try:
            play = play_class(**{key: value for key, value in given.items() if key in names})
        except TypeError:
            return {}
        out: dict[str, dict[str, float]] = {}
        for rule in getattr(fairplay, "RULES", ()):
            try:
                measured = rule.measure(play)
            except Exception:  # a rule the benchmark cannot feed: no figure, not a failure
                measured = None
            if measured:
                out[rule.name] = {
                    key: value
                    for key, value in measured.items()
                    if isinstance(value, int | float) and not isinstance(value, bool)
                }
        return out

    def __call__(
        self,
        d: Deal,
        kind: str,
        moves: Sequence[str],
        times: Sequence[int],
        *,
        won: bool,
        par: int,
        outcome: str | None = None,
        proven: bool | None = None,
    ) -> Verdict:
        """Judge one game: `par` is the stored par it is judged against, `proven` whether that
        par is proven shortest (default: the deal's), `outcome` how a game not won ended
        (resigned, or unfinished: left on the board at the day's end)."""
        outcome = "won" if won else (outcome or "unfinished")
        verdict = Verdict(
            kind,
            d.seed,
            [],
            outcome=outcome,
            moves=len(moves),
            net=len(fairplay.net_line(moves)),
            par=par,
            seconds=play_seconds(times),
            cards=52 if won else cards_home(d.game, d.text, moves),
        )
        try:
            verdict.perfection = self.perfection(d, moves) if won else None
        except Unjudged:
            verdict.skipped = True
            return verdict
        arguments = self.check_arguments(
            d,
            moves,
            won=won,
            outcome=outcome,
            par=par,
            proven=d.proven if proven is None else proven,
            perfection=verdict.perfection,
        )
        arguments = accepted(fairplay.check, arguments)
        verdict.reasons = fairplay.check(d.game, moves, times, d.line, **arguments)
        verdict.figures = self.figures(d, moves, times, arguments)
        return verdict


#: How an honest game not won ends: resigned, or left on the board unfinished.
UNFINISHED = ("unfinished", "abandoned")


# -- the kinds --------------------------------------------------------------------------------

#: A kind of player: makes one game on a deal and has it judged.
Kind = Callable[[random.Random, Deal, Judge, str], Verdict]


def _honest(skill: Skill, tempo: Tempo) -> Kind:
    def play(rng: random.Random, d: Deal, judge: Judge, name: str) -> Verdict:
        game: Played = honest_game(rng, d.game, d.text, skill, tempo)
        return judge(d, name, game.moves, game.times, won=game.won, par=d.par, outcome=game.outcome)

    return play


def _on_line(
    make: Callable[[random.Random, Deal], Recorded | tuple[Recorded, dict[str, Any]]],
) -> Kind:
    """A kind that wins with the recording `make` gives (and what it notes of it)."""

    def play(rng: random.Random, d: Deal, judge: Judge, name: str) -> Verdict:
        made = make(rng, d)
        recorded, notes = made if isinstance(made, tuple) else (made, {})
        verdict = judge(d, name, recorded.moves, recorded.times, won=True, par=d.par)
        verdict.notes = notes
        return verdict

    return play


def _parked(rng: random.Random, d: Deal, judge: Judge, name: str) -> Verdict:
    bot = instant_bot(rng, d.line[:-1])
    return judge(d, name, bot.moves, bot.times, won=False, par=d.par)


def _under_par(rng: random.Random, d: Deal, judge: Judge, name: str) -> Verdict:
    bot = paced_bot(rng, d.line, SLOW_PACE_MS)
    return judge(d, name, bot.moves, bot.times, won=True, par=d.unproven_par, proven=False)


def shuffle_line(
    rng: random.Random, game: str, text: str, line: Sequence[str], swaps: int = 6
) -> list[str]:
    """`line` with `swaps` pairs of neighbouring moves that commute swapped, the first near
    its start: the same win in another order, as a cheater who hides the line from a
    comparison with the solver's plays it."""
    moves = list(line)
    spots = [0, *sorted(rng.sample(range(1, len(moves) - 1), swaps - 1))]
    for at in spots:
        try:
            moves = reordered(game, text, moves, at=at)
        except ValueError:
            break
    return moves


def shuffled(
    rng: random.Random, d: Deal, swaps: int = 6, line: Sequence[str] | None = None
) -> list[str]:
    """`shuffle_line` on a deal's `line` (default: its certificate)."""
    return shuffle_line(rng, d.game, d.text, d.line if line is None else line, swaps)


def _own(rng: random.Random, d: Deal) -> OwnLine:
    return rng.choice(own_lines(d))


def _own_line(rng: random.Random, d: Deal) -> tuple[Recorded, dict[str, Any]]:
    own = _own(rng, d)
    notes = {"how": own.how, "prefix": own.prefix, "stored_prefix": own.stored_prefix}
    return careful_bot(rng, own.line), notes


def _reordered_own(rng: random.Random, d: Deal) -> tuple[Recorded, dict[str, Any]]:
    own = _own(rng, d)
    line = shuffled(rng, d, line=own.line)
    notes = {"how": own.how, "prefix": common_prefix(line, d.line)}
    return careful_bot(rng, line), notes


def _opening(rng: random.Random, d: Deal) -> tuple[Recorded, dict[str, Any]]:
    line, k = opening_then_solver(rng, d)
    return careful_bot(rng, line), {"opening": k, "prefix": common_prefix(line, d.line)}


def _near_par(rng: random.Random, d: Deal) -> tuple[Recorded, dict[str, Any]]:
    line = with_wasted_moves(rng, d, d.line, rng.randint(1, 6))
    notes = {"wasted": len(line) - len(d.line), "prefix": common_prefix(line, d.line)}
    return careful_bot(rng, line), notes


def honest_kinds() -> dict[str, tuple[Skill, str]]:
    """Every honest kind: a level at a pace."""
    return {f"honest {skill.name} {pace}": (skill, pace) for skill in SKILLS for pace in PACES}


def kinds(game: str) -> dict[str, Kind]:
    pace = HUMAN_PACE_MS[game]
    return {
        **{name: _honest(skill, PACES[p]) for name, (skill, p) in honest_kinds().items()},
        "instant": _on_line(lambda rng, d: instant_bot(rng, d.line)),
        "200 ms rhythm": _on_line(lambda rng, d: rhythm_bot(rng, d.line)),
        "1 s rhythm": _on_line(lambda rng, d: rhythm_bot(rng, d.line, 1000)),
        f"solver line, {pace / 1000:g} s pace": _on_line(
            lambda rng, d: paced_bot(rng, d.line, pace)
        ),
        "solver line, 2 s pace": _on_line(lambda rng, d: paced_bot(rng, d.line, SLOW_PACE_MS)),
        "solver line, detours (fast)": _on_line(
            lambda rng, d: human_game(rng, d.game, d.text, d.line, FAST_HUMAN)
        ),
        "solver line, detours": _on_line(
            lambda rng, d: human_game(rng, d.game, d.text, d.line, HUMAN)
        ),
        "solver line, reordered": _on_line(
            lambda rng, d: human_game(rng, d.game, d.text, shuffled(rng, d), HUMAN)
        ),
        "parked 51/52": _parked,
        "under par": _under_par,
        "own line, other budget": _on_line(_own_line),
        "reordered own line": _on_line(_reordered_own),
        "random opening then solver": _on_line(_opening),
        "near-par, wasted moves kept": _on_line(_near_par),
    }


def is_honest(kind: str) -> bool:
    return kind.startswith("honest")


# -- the boards -------------------------------------------------------------------------------

#: The places a cheat must not take unheld.
TOP = 10


def _entry(v: Verdict, attempt_id: int) -> ranking.Entry:
    return ranking.entry(
        attempt_id=attempt_id,
        won=v.outcome == "won",
        moves=v.moves,
        play_seconds=v.seconds,
        foundation_cards=v.cards,
    )


def place_on_boards(verdicts: list[Verdict]) -> None:
    """For each game that is not honest, the rank it would take on the board its deal's honest
    games make (every honest game of the deal, ranked as `leaderboards.ranking` ranks: wins
    first by fewer moves, undos counted, then by time; the rest by cards home), with it alone
    added; `top` when that rank is within `TOP` (ties share a rank)."""
    boards: dict[int, list[ranking.Entry]] = {}
    for index, v in enumerate(verdicts):
        if is_honest(v.kind):
            boards.setdefault(v.seed, []).append(_entry(v, index + 1))
    for index, v in enumerate(verdicts):
        if is_honest(v.kind):
            continue
        mine = _entry(v, index + 1)
        ranked = ranking.competition_ranks([*boards.get(v.seed, []), mine])
        v.rank = next(rank for rank, e in ranked if e.attempt_id == mine.attempt_id)
        v.top = v.rank <= TOP


# -- the figures -----------------------------------------------------------------------------


def pct(count: int, total: int) -> str:
    return f"{100 * count / total:.1f}%" if total else "-"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def rule_names(verdicts: Sequence[Verdict]) -> list[str]:
    """The rules of `fairplay.RULES` in their order, then any other a verdict names."""
    names = [rule.name for rule in getattr(fairplay, "RULES", ())]
    for v in verdicts:
        for reason in v.reasons:
            if reason.get("rule") not in names:
                names.append(str(reason.get("rule")))
    return names


def rows_of(game: str, name: str, verdicts: list[Verdict], rules: list[str]) -> list[list[str]]:
    """Table rows for one kind: honest kinds split into wins and losses."""
    groups: list[tuple[str, list[Verdict]]]
    if is_honest(name):
        groups = [
            (f"{name}, wins", [v for v in verdicts if v.outcome == "won"]),
            (f"{name}, losses", [v for v in verdicts if v.outcome != "won"]),
        ]
    else:
        groups = [(name, verdicts)]
    rows = []
    for label, all_of_group in groups:
        group = [v for v in all_of_group if not v.skipped]
        held = sum(v.held for v in group)
        per_rule = [
            pct(sum(any(r.get("rule") == rule for r in v.reasons) for v in group), len(group))
            for rule in rules
        ]
        cells = [game, label, str(len(group)), pct(held, len(group))]
        cells += [pct(len(group) - held, len(group)), *per_rule]
        rows.append(cells)
    return rows


def quantile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def spread(values: Sequence[float], form: str) -> str:
    """min / 5th percentile / median / max of `values`, or "-"."""
    if not values:
        return "-"
    return " / ".join(
        format(x, form)
        for x in (min(values), quantile(values, 0.05), quantile(values, 0.5), max(values))
    )


#: Names the rules may give a win's accuracy lower bound (the share of its moves that kept
#: the fewest moves to a win from rising, at least), in its measure or a reason's figures.
ACCURACY_KEYS = ("accuracy_lower_bound", "accuracy_low", "accuracy_bound", "accuracy")


def accuracy_of(v: Verdict) -> tuple[float | None, str]:
    """A win's accuracy lower bound and where it came from: the verdict's own figure when the
    rules give one (what a rule measured, `Judge.figures`; the perfection measure; a reason's
    `figures`), else derived from the distance profile (at least 1 - `fairplay.most_misses` /
    moves of its moves brought the win one move closer), else None."""
    sources: list[Any] = [v.figures.get("accuracy", {}), *v.figures.values(), v.perfection or {}]
    for reason in v.reasons:
        sources += [reason.get("figures") or {}, reason]
    for source in sources:
        for key in ACCURACY_KEYS:
            value = source.get(key) if isinstance(source, dict) else None
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value), "verdict"
    most = getattr(fairplay, "most_misses", None)
    if v.perfection and most is not None:
        try:
            return 1 - most(v.perfection) / v.perfection["moves"], "most_misses"
        except (KeyError, TypeError, ZeroDivisionError):
            pass
    return None, ""


def distribution_row(game: str, name: str, verdicts: list[Verdict]) -> list[str] | None:
    """A kind's wins: how far over par (all moves; net line) and their accuracy bound."""
    wins = [v for v in verdicts if v.outcome == "won" and not v.skipped]
    if not wins:
        return None
    accuracies = [accuracy_of(v) for v in wins]
    known = [a for a, _ in accuracies if a is not None]
    sources = sorted({source for a, source in accuracies if a is not None})
    return [
        game,
        name,
        str(len(wins)),
        spread([v.moves - v.par for v in wins], "+d"),
        spread([v.net - v.par for v in wins], "+d"),
        f"{len(known)}",
        spread(known, ".3f"),
        ", ".join(sources) or "-",
    ]


def perfection_row(game: str, name: str, verdicts: list[Verdict]) -> list[str] | None:
    """Today's measure of a kind's wins: how much of their net lines the budget settled."""
    profiles = [v.perfection for v in verdicts if v.perfection is not None]
    wins = [v for v in verdicts if v.outcome == "won" and not v.skipped]
    if not wins:
        return None
    try:
        decided = [p["decided"] / max(1, p["moves"]) for p in profiles]
    except (KeyError, TypeError):
        decided = []
    return [
        game,
        name,
        str(len(wins)),
        f"{len(profiles)}",
        f"{statistics.fmean(decided):.0%}" if decided else "-",
    ]


def top_row(game: str, name: str, verdicts: list[Verdict]) -> list[str]:
    """A cheat kind against its boards: how many would reach the top 10, how many of those
    the checks hold, and the share kept off the top 10 (held, or not in it)."""
    judged = [v for v in verdicts if not v.skipped]
    top = [v for v in judged if v.top]
    held_top = sum(v.held for v in top)
    kept_off = sum(v.held or not v.top for v in judged)
    unheld = len(top) - held_top
    share = kept_off / len(judged) if judged else 1.0
    met = share >= CAUGHT_TARGET and unheld == 0
    return [
        game,
        name,
        str(len(judged)),
        str(len(top)),
        f"{held_top} ({pct(held_top, len(top))})",
        str(unheld),
        pct(kept_off, len(judged)),
        "met" if met else "NOT met",
    ]


#: The targets: a cheat kind held or kept off the top 10 in at least this share of its games
#: (and never in it unheld); honest wins held at most, honest losses held at most.
CAUGHT_TARGET = 0.95
HONEST_WINS_HELD = 0.02
HONEST_LOSSES_HELD = 0.05


def honest_rows(game: str, by_kind: dict[str, list[Verdict]]) -> list[list[str]]:
    """Per level and pace, then all of them: games, wins, and the false holds of wins and of
    losses."""
    rows = []
    groups = [(skill.name, pace, by_kind.get(name, [])) for name, (skill, pace) in _levels()]
    everyone = [v for k, vs in by_kind.items() if is_honest(k) for v in vs]
    for level, pace, verdicts in [*groups, ("all", "all", everyone)]:
        judged = [v for v in verdicts if not v.skipped]
        won = [v for v in judged if v.outcome == "won"]
        lost = [v for v in judged if v.outcome != "won"]
        held_won, held_lost = sum(v.held for v in won), sum(v.held for v in lost)
        cells = [game, level, pace, str(len(verdicts)), pct(len(won), len(judged))]
        cells += [f"{held_won} of {len(won)} ({pct(held_won, len(won))})"]
        cells += [f"{held_lost} of {len(lost)} ({pct(held_lost, len(lost))})"]
        if level == "all":
            ok = held_won <= HONEST_WINS_HELD * len(won) and (
                held_lost <= HONEST_LOSSES_HELD * len(lost)
            )
            cells.append("met" if ok and len(verdicts) >= 100 else "NOT met")
        else:
            cells.append("")
        rows.append(cells)
    return rows


def _levels() -> list[tuple[str, tuple[Skill, str]]]:
    return list(honest_kinds().items())


def outcome_row(game: str, name: str, verdicts: list[Verdict]) -> list[str]:
    counts = {o: sum(v.outcome == o for v in verdicts) for o in ("won", "resigned")}
    left = len(verdicts) - sum(counts.values())
    return [game, name, str(len(verdicts)), pct(counts["won"], len(verdicts))] + [
        pct(counts["resigned"], len(verdicts)),
        pct(left, len(verdicts)),
    ]


def deal_rows(d: Deal) -> list[list[str]]:
    """A deal's stored lines, its par and proof, and the cheater's own lines against them."""
    own = own_lines(d)
    return [
        [
            d.game,
            str(d.seed),
            ", ".join(str(len(line)) for line in d.lines),
            str(d.par),
            "yes" if d.proven else f"no (>= {d.lower_bound})",
            str(len(d.first)),
            ", ".join(f"{len(o.line)} ({o.how})" for o in own),
            ", ".join(f"{o.prefix}/{o.stored_prefix}" for o in own),
        ]
    ]


def dumped(game: str, v: Verdict) -> dict[str, Any]:
    return {
        "game": game,
        "kind": v.kind,
        "seed": v.seed,
        "judged": not v.skipped,
        "outcome": v.outcome,
        "held": v.reasons,
        "moves": v.moves,
        "net": v.net,
        "par": v.par,
        "seconds": v.seconds,
        "cards": v.cards,
        "rank": v.rank,
        "top": v.top,
        "accuracy": accuracy_of(v)[0],
        "figures": v.figures,
        "perfection": v.perfection,
        "notes": v.notes,
    }


def selected(names: Sequence[str], only: Sequence[str] | None) -> list[str]:
    """The kinds to play: all, or those whose name holds one of `only` (honest games are
    always played: they make the boards)."""
    if not only:
        return list(names)
    return [n for n in names if is_honest(n) or any(o in n for o in only)]


def run_checks(args: argparse.Namespace) -> None:
    judge = Judge(args.perfection_seconds, args.profiled)
    results: list[list[str]] = []
    outcomes: list[list[str]] = []
    honest: list[list[str]] = []
    tops: list[list[str]] = []
    spreads: list[list[str]] = []
    perfect: list[list[str]] = []
    deals_table: list[list[str]] = []
    everything: list[dict[str, Any]] = []
    played: list[tuple[str, dict[str, list[Verdict]]]] = []
    for game in args.game:
        clock = time.perf_counter()
        deals = [certified(game, seed) for seed in SEEDS[game]]
        for d in deals:
            deals_table += deal_rows(d)
        print(
            f"# {game}: {len(deals)} deals certified in {time.perf_counter() - clock:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        makers = kinds(game)
        by_kind: dict[str, list[Verdict]] = {}
        for name in selected(list(makers), args.only):
            clock = time.perf_counter()
            rng = random.Random(f"{args.seed}-{game}-{name}")
            judge.start_kind()
            count = args.honest if is_honest(name) else args.games
            by_kind[name] = [
                makers[name](rng, deals[index % len(deals)], judge, name) for index in range(count)
            ]
            print(
                f"# {game} {name}: {count} games in {time.perf_counter() - clock:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        every = [v for vs in by_kind.values() for v in vs]
        place_on_boards(every)
        played.append((game, by_kind))
        for name, verdicts in by_kind.items():
            row = distribution_row(game, name, verdicts)
            if row:
                spreads.append(row)
            row = perfection_row(game, name, verdicts)
            if row:
                perfect.append(row)
            if is_honest(name):
                outcomes.append(outcome_row(game, name, verdicts))
            else:
                tops.append(top_row(game, name, verdicts))
        honest += honest_rows(game, by_kind)
        everything += [dumped(game, v) for v in every]
        cheats = [v for v in every if not is_honest(v.kind) and not v.skipped]
        unheld = sum(bool(v.top) and not v.held for v in cheats)
        print(
            f"# {game}: cheats in the top {TOP} unheld: {unheld} of {len(cheats)}",
            file=sys.stderr,
            flush=True,
        )
    rules = rule_names([v for _, by_kind in played for vs in by_kind.values() for v in vs])
    for game, by_kind in played:
        for name, verdicts in by_kind.items():
            results += rows_of(game, name, verdicts, rules)

    print(f"\n{args.games} games per cheat kind, {args.honest} per honest level and pace")
    print(f"and game, seed {args.seed}, perfection budget {args.perfection_seconds:g} s.\n")
    print("The deals: stored lines (the solve's, the proof's when shorter), par, proven, the")
    print("first line decide found, and the cheater's own lines (shorten on another node")
    print("budget: length; first moves shared with the certificate / with any stored line)\n")
    header = ["game", "seed", "stored lines", "par", "proven", "first line"]
    print(table([*header, "own lines", "shared prefix"], deals_table))
    print("\nHonest players: how their games end\n")
    print(table(["game", "player", "games", "won", "resigned", "left unfinished"], outcomes))
    print("\nHonest players held (false holds), per level and pace; target: wins <= 2%,")
    print("losses <= 5%, over at least 100 games\n")
    header = ["game", "level", "pace", "games", "won", "wins held", "losses held", "target"]
    print(table(header, honest))
    print("\nCheats against the boards: each placed on the board its deal's honest games make;")
    print(f"would it reach the top {TOP}, is it held, and the share kept off (held or not in")
    print(f"the top {TOP}); target: >= {CAUGHT_TARGET:.0%} kept off and none in it unheld\n")
    header = ["game", "kind", "games", f"would reach top {TOP}", "of those held"]
    header += [f"in top {TOP} unheld", "kept off", "target"]
    print(table(header, tops))
    print("\nHeld (% of games), not held, and % tripping each rule (a game may trip several)\n")
    print(table(["game", "kind", "games", "held", "not held", *rules], results))
    print("\nWins: moves over par (all moves; net line) and the accuracy lower bound, each as")
    print("min / 5th pct / median / max; the bound from the verdict when the rules give one,")
    print("else derived from today's measure (1 - most_misses / moves)\n")
    header = ["game", "kind", "wins", "moves over par", "net over par", "with accuracy"]
    print(table([*header, "accuracy lower bound", "from"], spreads))
    print("\nPerfection measures: wins, measures taken, share of net moves the budget settled\n")
    print(table(["game", "kind", "wins", "measured", "settled"], perfect))
    if args.dump:
        Path(args.dump).write_text(json.dumps(everything, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        type=int,
        default=20,
        help="games per cheat kind and game (0: the pass through a real server only)",
    )
    parser.add_argument(
        "--honest",
        type=int,
        default=9,
        help="games per honest level and pace, and game (4 levels x 3 paces)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--game", action="append", choices=sorted(SEEDS), help="one game only (repeatable)"
    )
    parser.add_argument(
        "--only",
        action="append",
        help="only the cheat kinds whose name holds this text (repeatable; honest always)",
    )
    parser.add_argument(
        "--perfection-seconds",
        type=float,
        default=60.0,
        help="time budget of each win's perfection profile (production: 60)",
    )
    parser.add_argument(
        "--profiled",
        type=int,
        default=25,
        help="new perfection measures per game and kind at most (wins past it are not judged)",
    )
    parser.add_argument("--dump", help="write every game's verdict to this JSON file")
    parser.add_argument("--no-servers", action="store_true", help="skip the pass on real servers")
    args = parser.parse_args()
    args.game = args.game or sorted(SEEDS)
    if args.games > 0:
        run_checks(args)
    if not args.no_servers:
        from benchmarks._fairplay_live import run_live

        run_live(args)


if __name__ == "__main__":
    main()
