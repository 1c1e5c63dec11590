"""Fair-play figures: how often the checks of games/fairplay.py hold honest games (false holds)
and catch each kind of cheating, per game and per rule.

Run: `.venv/bin/python benchmarks/fairplay.py [--games 60] [--seed 2026] [--no-servers]`.

Two passes:

1. **The checks** (no database, no server): each game is a move list with the server's
   per-move times (ms since the deal was shown), played on real certified deals, and judged by
   `games.fairplay.check` as the services judge it: a win with its perfection profile
   (`fairplay.perfection`, the distance to a win after each net move), a resignation as it
   ends, a game left unfinished as the day's end judges it. Every game is drawn from a seeded
   RNG and the solver runs on node budgets, so the table is the same on every run (the
   perfection profile has a time budget, `--perfection-seconds`, as in production: on a
   loaded machine a Munger profile may decide fewer moves).
2. **The services** (`--no-servers` skips it): the same kinds played over REST and over the
   play socket against a real server process (benchmarks/_fairplay_live.py), in real time,
   with the day rolled over by the game clock's `CLOCK_OFFSET_SECONDS`; the attempts' `review`
   and held reasons and their place on the board are read back.

The players:

- **honest average / honest strong** (benchmarks/_honest.py): a heuristic player that finds
  its own line, sometimes plays a plausible worse move, takes detours back, gets stuck and
  undoes, and gives up (resigns, or leaves the game unfinished); log-normal think times,
  reading time and pauses. Its wins are the false-hold rate on wins, its resignations and
  unfinished games the false-hold rate on losses.
- **instant**: the solver's line, 20-80 ms to the first move, 5-40 ms a move.
- **200 ms rhythm / 1 s rhythm**: the solver's line on a timer with a few ms of jitter.
- **solver line, human pace**: log-normal gaps, median 0.6 s (Munger) or 0.8 s (Masterpiece),
  a person's reading time first; **solver line, 2 s pace**: the same at a 2 s median.
- **solver line, detours**: the solver's line at a person's tempo with detours undone, pauses
  and the server's finish (the "human" of the earlier figures: it plays the solver's line).
- **solver line, reordered**: as detours, on the solver's line with six pairs of neighbouring
  moves that commute swapped, the first near its start (the same win in another order, which
  the comparison with the solver's line cannot see).
- **parked 51/52**: the solver's line played instantly but for its last move, never finished
  (judged as the day's end judges it).
- **under par**: the shortest line known, played at a person's pace, when the stored par is a
  longer line that was never proven (`par_proven` false).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._honest import (  # noqa: E402
    FAST_HUMAN,
    HUMAN,
    SKILLS,
    Played,
    Skill,
    Tempo,
    honest_game,
    human_gap,
)
from games import fairplay  # noqa: E402
from games.engine import GAMES, deal  # noqa: E402

__all__ = ["FAST_HUMAN", "HUMAN", "Tempo", "human_gap"]

#: Deals each game's figures are played on (each certified by the solver in a second or two).
SEEDS = {"masterpiece": [1, 4, 9, 12, 17], "munger": [11, 13, 33, 74, 95]}
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


# -- the deals --------------------------------------------------------------------------------


@dataclass
class Deal:
    """A certified deal: its certificate (the shortest line the node budget found), whether
    that par is proven shortest, and the length of a longer winning line, never proven (the
    stored par of the under-par kind: the first line the solver found)."""

    game: str
    seed: int
    text: str
    line: list[str]
    proven: bool
    unproven_par: int

    @property
    def par(self) -> int:
        return len(self.line)


def certified(game: str, seed: int) -> Deal:
    """A deal and its lines, solved with node budgets (not time), so that the lines, and so
    the table, are the same on every machine."""
    from games.engine.solver import DECIDE, Budget, rules_for, solve
    from games.engine.solver.search import decide

    text = deal(game, seed)
    result = solve(game, text, time_limit=None, node_limit=50_000, par_time=1000)
    assert result.status == "solved" and result.par, (game, seed, result.status)
    par = result.par
    first = decide(rules_for(GAMES[game].from_deal(text), DECIDE), Budget(None, 50_000))
    proven = bool(result.stats.get("par_optimal"))
    return Deal(game, seed, text, list(result.moves), proven, max(len(first.line), par + 2))


# -- judging ----------------------------------------------------------------------------------


@dataclass
class Verdict:
    reasons: list[dict[str, str]]
    perfection: dict[str, Any] | None = None
    outcome: str = "won"
    moves: int = 0
    net: int = 0
    par: int = 0
    #: A win left unjudged: the kind's share of perfection measures was spent (`--profiled`).
    skipped: bool = False


class Unjudged(Exception):
    """No perfection measure left for this kind: the win is not judged."""


@dataclass
class Judge:
    """Runs the checks as the services do, with each distinct win's perfection profile
    computed once (the solver-line kinds replay one net line per deal), and at most `limit`
    new measures per kind (`start_kind`): a win past that is left unjudged."""

    seconds: float
    limit: int
    measured: int = 0
    cache: dict[tuple[str, str, tuple[str, ...]], dict[str, Any] | None] = field(
        default_factory=dict
    )

    def perfection(self, d: Deal, moves: Sequence[str]) -> dict[str, Any] | None:
        key = (d.game, d.text, tuple(fairplay.net_line(moves)))
        if key not in self.cache:
            if self.measured >= self.limit:
                raise Unjudged
            self.measured += 1
            self.cache[key] = fairplay.perfection(
                d.game,
                d.text,
                list(moves),
                par=d.par if d.proven else None,
                time_limit=self.seconds,
            )
        return self.cache[key]

    def __call__(
        self, d: Deal, moves: Sequence[str], times: Sequence[int], *, won: bool, par: int
    ) -> Verdict:
        try:
            profile = self.perfection(d, moves) if won else None
        except Unjudged:
            return Verdict([], None, skipped=True)
        reasons = fairplay.check(d.game, moves, times, d.line, won=won, par=par, perfection=profile)
        return Verdict(reasons, profile, moves=len(moves), net=len(fairplay.net_line(moves)))


#: A kind of player: makes one game on a deal; the verdict says how it ended.
Kind = Callable[[random.Random, Deal, Judge], Verdict]


def _honest(skill: Skill) -> Kind:
    def play(rng: random.Random, d: Deal, judge: Judge) -> Verdict:
        game: Played = honest_game(rng, d.game, d.text, skill)
        verdict = judge(d, game.moves, game.times, won=game.won, par=d.par)
        verdict.outcome, verdict.par = game.outcome, d.par
        verdict.moves, verdict.net = len(game.moves), len(fairplay.net_line(game.moves))
        return verdict

    return play


def _on_line(make: Callable[[random.Random, Deal], Recorded]) -> Kind:
    def play(rng: random.Random, d: Deal, judge: Judge) -> Verdict:
        recorded = make(rng, d)
        verdict = judge(d, recorded.moves, recorded.times, won=True, par=d.par)
        verdict.par = d.par
        return verdict

    return play


def _parked(rng: random.Random, d: Deal, judge: Judge) -> Verdict:
    bot = instant_bot(rng, d.line[:-1])
    verdict = judge(d, bot.moves, bot.times, won=False, par=d.par)
    verdict.outcome, verdict.par = "unfinished", d.par
    return verdict


def _under_par(rng: random.Random, d: Deal, judge: Judge) -> Verdict:
    bot = paced_bot(rng, d.line, SLOW_PACE_MS)
    verdict = judge(d, bot.moves, bot.times, won=True, par=d.unproven_par)
    verdict.par = d.unproven_par
    return verdict


def shuffled(rng: random.Random, d: Deal, swaps: int = 6) -> list[str]:
    """The solver's line with `swaps` pairs of neighbouring moves that commute swapped, the
    first near its start: the same win in another order, as a cheater who hides the line from
    a comparison with the solver's plays it."""
    line = list(d.line)
    spots = [0, *sorted(rng.sample(range(1, len(line) - 1), swaps - 1))]
    for at in spots:
        try:
            line = reordered(d.game, d.text, line, at=at)
        except ValueError:
            break
    return line


def kinds(game: str) -> dict[str, Kind]:
    pace = HUMAN_PACE_MS[game]
    return {
        **{f"honest {skill.name}": _honest(skill) for skill in SKILLS},
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
    }


# -- the figures -----------------------------------------------------------------------------


def pct(count: int, total: int) -> str:
    return f"{100 * count / total:.1f}%" if total else "-"


def rows_of(game: str, name: str, verdicts: list[Verdict], rules: list[str]) -> list[list[str]]:
    """Table rows for one kind: honest kinds split into wins and losses."""
    groups: list[tuple[str, list[Verdict]]]
    if name.startswith("honest"):
        groups = [
            (f"{name}, wins", [v for v in verdicts if v.outcome == "won"]),
            (f"{name}, losses", [v for v in verdicts if v.outcome != "won"]),
        ]
    else:
        groups = [(name, verdicts)]
    rows = []
    for label, all_of_group in groups:
        group = [v for v in all_of_group if not v.skipped]
        held = sum(bool(v.reasons) for v in group)
        per_rule = [
            pct(sum(any(r["rule"] == rule for r in v.reasons) for v in group), len(group))
            for rule in rules
        ]
        cells = [game, label, str(len(group)), pct(held, len(group))]
        cells += [pct(len(group) - held, len(group)), *per_rule]
        rows.append(cells)
    return rows


def perfection_row(game: str, name: str, verdicts: list[Verdict]) -> list[str] | None:
    profiles = [v.perfection for v in verdicts if v.perfection is not None]
    wins = [v for v in verdicts if v.outcome == "won" and not v.skipped]
    if not wins:
        return None
    judged = [p for p in profiles if p["moves"] >= fairplay.MIN_MOVES_PERFECTION]
    values = sorted(fairplay.most_misses(p) / p["moves"] for p in judged)
    decided = [p["decided"] / max(1, p["moves"]) for p in profiles]

    def q(share: float) -> str:
        return f"{values[min(len(values) - 1, int(share * len(values)))]:.3f}" if values else "-"

    over = [v.moves - v.par for v in wins]
    net_over = [v.net - v.par for v in wins]
    return [
        game,
        name,
        str(len(wins)),
        f"{statistics.fmean(over):+.1f}",
        f"{statistics.fmean(net_over):+.1f}",
        f"{len(profiles)}",
        f"{statistics.fmean(decided):.0%}" if decided else "-",
        f"{len(judged)}",
        f"{values[0]:.3f}" if values else "-",
        q(0.02),
        q(0.05),
        q(0.5),
    ]


#: too_perfect thresholds the sweep tries (the share of a win's net moves off a shortest way).
SWEEP = (0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.10)


def _trips(v: Verdict, threshold: float, bounded: bool) -> bool:
    """Whether too_perfect at `threshold` holds the win: on the rule's bound
    (`fairplay.most_misses`), or on misses / settled moves alone (at least 30 settled), the
    measure the rule used before, which a partly settled win fools."""
    measured = v.perfection
    if measured is None or measured["moves"] < fairplay.MIN_MOVES_PERFECTION:
        return False
    if bounded:
        return fairplay.most_misses(measured) / measured["moves"] < threshold
    return measured["decided"] >= SETTLED_BEFORE and measured["misses"] / measured["decided"] < (
        threshold
    )


#: The settled moves the earlier measure (misses / settled) needed before it judged a win.
SETTLED_BEFORE = 30


def sweep_rows(game: str, by_kind: dict[str, list[Verdict]]) -> list[list[str]]:
    """For each candidate too_perfect threshold: the share of honest wins and of the solver's
    lines at a person's pace (every paced, detour and reordered kind) that it would hold, on
    misses / settled moves alone and on the rule's bound."""
    honest = [v for k, vs in by_kind.items() if k.startswith("honest") for v in vs]
    paced = [v for k, vs in by_kind.items() if k.startswith("solver line") for v in vs]
    rows = []
    for threshold in SWEEP:
        cells = [game, f"{threshold:.2f}"]
        for bounded in (False, True):
            for group in (honest, paced):
                wins = [v for v in group if v.outcome == "won" and not v.skipped]
                trips = sum(_trips(v, threshold, bounded) for v in wins)
                cells.append(f"{pct(trips, len(wins))} of {len(wins)}")
        rows.append(cells)
    return rows


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def run_checks(args: argparse.Namespace) -> None:
    rules = [rule.name for rule in fairplay.RULES]
    judge = Judge(args.perfection_seconds, args.profiled)
    results: list[list[str]] = []
    perfect: list[list[str]] = []
    outcomes: list[list[str]] = []
    sweep: list[list[str]] = []
    dumped: list[dict[str, Any]] = []
    for game in args.game:
        by_kind: dict[str, list[Verdict]] = {}
        deals = [certified(game, seed) for seed in SEEDS[game]]
        for name, make in kinds(game).items():
            rng = random.Random(f"{args.seed}-{game}-{name}")
            judge.measured = 0
            verdicts = []
            for index in range(args.games):
                verdicts.append(make(rng, deals[index % len(deals)], judge))
            print(f"# {game} {name}: {len(verdicts)} games", file=sys.stderr, flush=True)
            by_kind[name] = verdicts
            dumped += [
                {"game": game, "kind": name, "outcome": v.outcome, "held": v.reasons}
                | {"moves": v.moves, "net": v.net, "par": v.par, "perfection": v.perfection}
                for v in verdicts
                if not v.skipped
            ]
            results += rows_of(game, name, verdicts, rules)
            row = perfection_row(game, name, verdicts)
            if row:
                perfect.append(row)
            if name.startswith("honest"):
                counts = {o: sum(v.outcome == o for v in verdicts) for o in ("won", "resigned")}
                left = len(verdicts) - sum(counts.values())
                outcomes.append(
                    [game, name, str(len(verdicts)), pct(counts["won"], len(verdicts))]
                    + [pct(counts["resigned"], len(verdicts)), pct(left, len(verdicts))]
                )
        sweep += sweep_rows(game, by_kind)
    print(f"\n{args.games} games per kind and game, seed {args.seed}.\n")
    print("Honest players: how their games end\n")
    print(table(["game", "player", "games", "won", "resigned", "left unfinished"], outcomes))
    print("\nHeld (% of games), on the board, and % tripping each rule (a game may trip several)\n")
    print(table(["game", "kind", "games", "held", "on the board", *rules], results))
    print("\nWins: moves over par (all moves; net line), the share of net moves the budget")
    print("settled, and too_perfect's value (at most this share of the net moves did not bring")
    print("the win one move closer: `fairplay.most_misses` / moves)\n")
    print(
        table(
            [
                "game",
                "kind",
                "wins",
                "moves over par",
                "net over par",
                "profiled",
                "decided",
                "judged",
                "min",
                "2nd pct",
                "5th pct",
                "median",
            ],
            perfect,
        )
    )
    print("\ntoo_perfect at other thresholds: the share of wins it would hold, on misses /")
    print("settled moves alone (at least 30 settled) and on the rule's bound\n")
    header = ["game", "threshold", "honest wins (settled only)", "solver lines (settled only)"]
    header += ["honest wins (bound)", "solver lines (bound)"]
    print(table(header, sweep))
    if args.dump:
        Path(args.dump).write_text(json.dumps(dumped, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games per kind and game")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--game", action="append", choices=sorted(SEEDS), help="one game only (repeatable)"
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
    parser.add_argument("--dump", help="write every judged game's verdict to this JSON file")
    parser.add_argument("--no-servers", action="store_true", help="skip the pass on real servers")
    args = parser.parse_args()
    args.game = args.game or sorted(SEEDS)
    run_checks(args)
    if not args.no_servers:
        from benchmarks._fairplay_live import run_live

        run_live(args)


if __name__ == "__main__":
    main()
