"""A human-like honest player for the fair-play figures (benchmarks/fairplay.py): it finds its
own line, makes mistakes, takes detours back, gets stuck and undoes, and gives up.

The player looks at what a person sees. Each turn it scores the legal moves by what a person
looks for (a card to a foundation, a face-down card turned up, the reserve or an auxiliary
row shortened, the cellar kept free, a column emptied), adds noise, and plays the best one;
now and then a plausible worse one (one of the next best). It never goes back to a position
it has already been in (people do not shuffle a card to and fro), so a game where nothing is
left to try, or where nothing has moved forward for a while, gets it **stuck**: it undoes a
few moves (a person going back to where it went wrong) and tries something else there; after
a few such setbacks it gives up (resigns, or leaves the game unfinished).

Its "intuition" is the solver's, on what a person knows: with the skill's probability a move
is the first move of a winning line the solver finds from here (`decide`, a node budget, never
the shortest line), and when stuck it sometimes goes back as far as a win exists again. That is
what a good player's experience gives; the rest of its moves are its own. Its net line is
therefore neither the solver's certificate nor a shortest line by construction, and its length
over par is measured, not chosen.

**It knows only what a player sees.** Masterpiece is open: the solver is asked on the position
itself. A Munger position hides its face-down tableau cards and the stock's order, which the
solver would read; so the intuition **determinizes** (`determinized`): it deals the cards the
player has not seen (the same set in every sample, sorted, then shuffled by the game's seeded
RNG) into the places the player has not seen, every card seen so far staying where it is
(turned up, drawn, or known from before an undo, as the view shows it: docs/rules.md, "What the
player sees"), and asks `decide` on each of `SAMPLES` such deals. A move is its intuition when
it begins a winning line in most of them; "no win from here" when no sample wins. Nothing else
the player does reads a hidden card either: its scores count face-down cards and never name
them, and the positions it remembers are keyed by what is visible (`visible_key`). Two Munger
deals that differ only in their unseen cards are played move for move alike until a card that
differs is turned up (tests/benchmarks/test_honest_hidden.py).

**Levels and paces.** A `Skill` (novice, average, strong, expert: intuition, slips, noise,
patience) plays at a `Tempo` (`PACES`: slow, normal, fast: reading time, think-time median,
foundation streaks, quick stock flips in Munger), any level at any pace: `honest_game(rng, game,
deal, skill, tempo)`; a skill's own `tempo` is the default.

Every call is seeded and the solver is given node budgets, not time: a game is the same on
every machine. Its times are the server's ms since the deal was shown, from a `Tempo`.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.engine import GAMES
from games.engine.base import Game
from games.engine.cards import TEXT
from games.engine.solver import DECIDE, SOLVED, UNKNOWN, UNSOLVABLE, Budget, rules_for
from games.engine.solver.search import decide

UNDO = "U"
#: Nodes the player's "intuition" may search per look (deterministic, about 0.05-0.3 s).
INTUITION_NODES = 20_000
#: Deals of the unseen cards the Munger intuition looks at (a move must win in most of them).
SAMPLES = 3


@dataclass(frozen=True)
class Tempo:
    """How a person plays: reading time, thinking time per move, and the fast streaks."""

    read_s: tuple[float, float]  # first move after uniform(a, b) seconds
    think_ms: float  # median gap of an ordinary move (log-normal)
    think_sigma: float
    streak_ms: float  # median gap of a foundation move after a foundation move
    draw_ms: float  # median gap of a stock draw after a stock draw (Munger)
    pause_p: float  # chance of a 10-60 s pause before a move
    detour_p: float  # chance of trying another move first, then undoing it
    finish_p: float  # chance of letting the server play the finishing line
    undo_ms: float = 600  # median gap of an undo after an undo (going back)
    #: Median gap of a stock draw after any other move (Munger: a person flips the stock with
    #: one quick click, before looking long); None: an ordinary move's think time.
    flip_ms: float | None = None


HUMAN = Tempo(
    read_s=(5, 30),
    think_ms=2800,
    think_sigma=0.7,
    streak_ms=700,
    draw_ms=550,
    pause_p=0.03,
    detour_p=0.06,
    finish_p=0.6,
)
FAST_HUMAN = Tempo(
    read_s=(2.5, 10),
    think_ms=950,
    think_sigma=0.6,
    streak_ms=420,
    draw_ms=330,
    pause_p=0.01,
    detour_p=0.04,
    finish_p=0.8,
    undo_ms=400,
)
#: The paces of the honest players: a careful reader, an ordinary player (HUMAN), a fast one
#: who clicks through the stock and the obvious moves (FAST_HUMAN's thinking, quicker flips).
SLOW_HUMAN = Tempo(
    read_s=(10, 45),
    think_ms=4500,
    think_sigma=0.7,
    streak_ms=1000,
    draw_ms=800,
    pause_p=0.05,
    detour_p=0.06,
    finish_p=0.5,
    undo_ms=800,
)
QUICK_HUMAN = Tempo(
    read_s=(2.5, 10),
    think_ms=950,
    think_sigma=0.6,
    streak_ms=400,
    draw_ms=260,
    pause_p=0.01,
    detour_p=0.04,
    finish_p=0.8,
    undo_ms=400,
    flip_ms=450,
)
PACES: dict[str, Tempo] = {"slow": SLOW_HUMAN, "normal": HUMAN, "fast": QUICK_HUMAN}


@dataclass(frozen=True)
class Skill:
    """How well a person plays: how often a move comes from experience (the solver's
    intuition), how often a plausible worse move is chosen, how much noise there is in
    judging moves, and how many setbacks it takes before giving up."""

    name: str
    intuition_p: float
    slip_p: float
    noise: float
    patience: int  # stuck spells before giving up (twice as many in Masterpiece: shorter ones)
    stall: int  # moves without progress that count as stuck
    tempo: Tempo
    resign_p: float = 0.7  # giving up: resign (else leave the game unfinished)
    max_moves: int = 500


NOVICE = Skill(
    "novice", intuition_p=0.25, slip_p=0.16, noise=2.0, patience=4, stall=20, tempo=SLOW_HUMAN
)
AVERAGE = Skill(
    "average", intuition_p=0.45, slip_p=0.1, noise=1.5, patience=6, stall=24, tempo=HUMAN
)
STRONG = Skill(
    "strong", intuition_p=0.6, slip_p=0.06, noise=1.0, patience=10, stall=30, tempo=FAST_HUMAN
)
EXPERT = Skill(
    "expert", intuition_p=0.8, slip_p=0.03, noise=0.6, patience=14, stall=36, tempo=QUICK_HUMAN
)
#: The honest players' levels, weakest first.
SKILLS = (NOVICE, AVERAGE, STRONG, EXPERT)


@dataclass
class Played:
    """An honest game: tokens, server ms per token, and how it ended (won, resigned or
    abandoned: left unfinished)."""

    moves: list[str]
    times: list[int]
    outcome: str
    stuck: int = 0
    intuition: int = 0
    undos: int = field(default=0)

    @property
    def won(self) -> bool:
        return self.outcome == "won"


def _lognormal(rng: random.Random, median: float, sigma: float) -> float:
    return median * math.exp(rng.gauss(0, sigma))


def human_gap(rng: random.Random, tempo: Tempo, token: str, previous: str | None) -> int:
    """Milliseconds a person takes before playing `token` after `previous`."""
    if rng.random() < tempo.pause_p:
        return int(rng.uniform(10_000, 60_000))
    if previous is not None and token.endswith(">F") and previous.endswith(">F"):
        gap = _lognormal(rng, tempo.streak_ms, 0.35)
    elif token == "S>W" and previous == "S>W":
        gap = _lognormal(rng, tempo.draw_ms, 0.3)
    elif token == "S>W" and tempo.flip_ms is not None:
        gap = _lognormal(rng, tempo.flip_ms, 0.4)
    elif token == UNDO and previous == UNDO:
        gap = _lognormal(rng, tempo.undo_ms, 0.4)
    else:
        gap = _lognormal(rng, tempo.think_ms, tempo.think_sigma)
    return max(180, int(gap))


# -- what a person sees in a move ------------------------------------------------------------


def _progress(game: Any) -> int:
    """What a person counts as getting on: cards home, face-down cards turned up (Munger),
    auxiliary cards freed (Masterpiece)."""
    score = 2 * game.foundation_cards
    if game.name == "munger":
        score += 14 - sum(bin(h).count("1") for h in game.hidden)
        score -= len(game.reserve) // 2
    else:
        score += 8 - len(game.rows[8]) - len(game.rows[9])
        score -= _buried(game)
    return score


def _buried(game: Any) -> int:
    """Masterpiece: how many cards lie on the next card each foundation takes (for a
    direction not yet fixed, the easier of the 2 and the King)."""
    depth = {}
    for row in game.rows:
        for index, card in enumerate(row):
            depth[card] = len(row) - 1 - index
    total = 0
    for suit, count in enumerate(game.foundation):
        if count == 13:
            continue
        if game.direction == 0:
            ranks = [2, 13]
        else:
            ranks = [count + 1 if game.direction > 0 else 14 - count]
        total += min(depth.get(suit * 13 + rank - 1, 0) for rank in ranks)
    return total


def _score(before: Any, token: str, after: Any) -> float:
    """How much a person likes `token` (played from `before`, giving `after`), from what it
    sees: never a face-down card."""
    source, destination = token.split(">")
    score = 0.0
    if after.foundation_cards > before.foundation_cards:
        score += 10
    elif source.startswith("F"):
        score -= 3  # a foundation card back down
    if before.name == "munger":
        hidden = sum(bin(h).count("1") for h in before.hidden)
        if sum(bin(h).count("1") for h in after.hidden) < hidden:
            score += 8
        if source == "R":
            score += 4
        elif source == "W":
            score += 2
        elif source == "S":
            score += 0.5
        if source.startswith("T") and not after.tableau[int(source[1]) - 1]:
            score += 2
    else:
        if source in ("A1", "A2"):
            score += 5
        if destination == "C":
            score -= 6  # the one free cell: kept for when it is needed
        if source == "C":
            score += 3
        if source.startswith("M") and not after.rows[int(source[1]) - 1]:
            score += 2
        score += 2 * (_buried(before) - _buried(after))
        # A move that leaves nothing (or one thing) to do is seen as such.
        mobility = len(after.legal_moves())
        score += 0.3 * min(mobility, 10) - (8 if mobility == 0 else 2 if mobility == 1 else 0)
    return score


def visible_key(game: Game) -> str:
    """A position as the player sees it, to remember where it has been: Masterpiece's whole
    text; for Munger, face-down cards as `*` and the stock as its count, never their codes."""
    if game.name != "munger":
        return game.to_text()
    munger: Any = game
    parts = [" ".join(map(str, munger.foundation))]
    for column, hidden in zip(munger.tableau, munger.hidden, strict=True):
        parts.append(" ".join("*" if hidden >> i & 1 else TEXT[c] for i, c in enumerate(column)))
    parts.append(" ".join(TEXT[c] for c in munger.reserve))
    parts.append(" ".join(TEXT[c] for c in munger.waste))
    parts.append(str(len(munger.stock)))
    return "; ".join(parts)


def unseen_places(game: Game) -> list[tuple[str, int, int]]:
    """Where a Munger position holds cards the player has not seen: ("T", column, index) for
    a face-down card never turned up, ("S", 0, index) for a stock card never drawn. A card
    seen once (turned up or drawn, then turned back by an undo) is known, as the view shows it.
    Masterpiece: none."""
    if game.name != "munger":
        return []
    munger: Any = game
    known = munger.revealed
    places = [
        ("T", k, i)
        for k, (column, hidden) in enumerate(zip(munger.tableau, munger.hidden, strict=True))
        for i, card in enumerate(column)
        if hidden >> i & 1 and card not in known
    ]
    places += [("S", 0, i) for i, card in enumerate(munger.stock) if card not in known]
    return places


def determinized(game: Game, rng: random.Random) -> Game:
    """A copy of `game` whose unseen cards (`unseen_places`) are dealt again at random among
    those places: what the player knows is the same, the rest is a guess. Only the set of
    unseen cards is read (sorted before the shuffle), never which card lies where, so two
    deals that look alike get the same samples from the same RNG."""
    places = unseen_places(game)
    sample = game.copy()
    if not places:
        return sample
    munger: Any = sample
    piles = {"T": munger.tableau, "S": [munger.stock]}
    cards = sorted(piles[kind][k][i] for kind, k, i in places)
    rng.shuffle(cards)
    for (kind, k, i), card in zip(places, cards, strict=True):
        piles[kind][k][i] = card
    return sample


def _decided(game: Game) -> tuple[str, str | None]:
    """`decide` on a node budget: (status, the first move of the winning line found)."""
    found = decide(rules_for(game, DECIDE), Budget(None, INTUITION_NODES, 500_000))
    return found.status, (found.line[0] if found.status == SOLVED and found.line else None)


def _intuition(game: Game, rng: random.Random) -> tuple[str, str | None]:
    """The solver's verdict from here on what the player knows: (status, a move that begins a
    winning line). An open position is asked as it is; a Munger position with unseen cards on
    `SAMPLES` deals of them (`determinized`): solved when most samples win, with the move most
    of them begin with (None when no move has a majority), unsolvable when none wins."""
    if not unseen_places(game):
        return _decided(game)
    verdicts = [_decided(determinized(game, rng)) for _ in range(SAMPLES)]
    wins = [move for status, move in verdicts if status == SOLVED]
    if 2 * len(wins) > SAMPLES:
        move, votes = Counter(wins).most_common(1)[0]
        return SOLVED, (move if 2 * votes > SAMPLES else None)
    if all(status == UNSOLVABLE for status, _ in verdicts):
        return UNSOLVABLE, None
    return UNKNOWN, None


def honest_game(
    rng: random.Random,
    game_name: str,
    deal_string: str,
    skill: Skill,
    tempo: Tempo | None = None,
) -> Played:
    """One honest game of `deal_string` by a person of `skill` at `tempo` (default: the
    skill's own): moves, server times, outcome. Nothing in it reads a card the player has not
    seen (see the module's docstring)."""
    tempo = tempo or skill.tempo
    game = GAMES[game_name].from_deal(deal_string)
    moves: list[str] = []
    times: list[int] = []
    now = int(rng.uniform(*tempo.read_s) * 1000)
    previous: list[str | None] = [None]
    seen = {visible_key(game)}
    stuck = intuition = undos = 0
    best = _progress(game)
    since_best = 0
    finish = rng.random() < tempo.finish_p

    def play(token: str, gap: int | None = None) -> None:
        nonlocal now
        if moves:
            now += gap if gap is not None else human_gap(rng, tempo, token, previous[0])
        game.push(token)
        moves.append(token)
        times.append(now)
        previous[0] = token

    while not game.is_won():
        if len(moves) >= skill.max_moves:
            return _give_up(rng, skill, moves, times, stuck, intuition, undos)
        if finish and game.foundation_cards >= 26:
            rest = game.finishing_line()
            if rest and moves:
                now += human_gap(rng, tempo, "finish", previous[0])
                for step in rest:
                    game.push(step)
                    moves.append(step)
                    times.append(now)
                break
        fresh = []
        for move in game.legal_moves():
            after = game.copy()
            after.push(move.text)
            if visible_key(after) not in seen:
                fresh.append((move.text, after))
        if not fresh or since_best >= skill.stall:
            stuck += 1
            if stuck > skill.patience * (2 if game_name == "masterpiece" else 1):
                return _give_up(rng, skill, moves, times, stuck, intuition, undos)
            back = _how_far_back(rng, game, skill)
            now += int(_lognormal(rng, 4000, 0.6))  # looking at the dead end
            for i in range(back):
                if not game.can_undo:
                    break
                play(UNDO, None if i else int(_lognormal(rng, 900, 0.4)))
                undos += 1
            best, since_best = _progress(game), 0
            continue
        choice = None
        if rng.random() < skill.intuition_p:
            status, move = _intuition(game, rng)
            if status == SOLVED and move is not None and any(t == move for t, _ in fresh):
                choice = move
                intuition += 1
        if choice is None:
            ranked = sorted(
                fresh,
                key=lambda pair: -(_score(game, pair[0], pair[1]) + rng.gauss(0, skill.noise)),
            )
            pick = 0
            if len(ranked) > 1 and rng.random() < skill.slip_p:
                pick = rng.randint(1, min(3, len(ranked) - 1))
            choice = ranked[pick][0]
        if moves and len(fresh) > 1 and rng.random() < tempo.detour_p:
            other = rng.choice([t for t, _ in fresh if t != choice])
            play(other)
            play(UNDO, int(_lognormal(rng, 1200, 0.5)))
            undos += 1
        play(choice)
        seen.add(visible_key(game))
        progress = _progress(game)
        if progress > best:
            best, since_best = progress, 0
        else:
            since_best += 1
    return Played(moves, times, "won", stuck, intuition, undos)


def _how_far_back(rng: random.Random, game: Game, skill: Skill) -> int:
    """How many moves a stuck person undoes: with intuition, as far as a win exists again
    (plus one or two); else a guess of 2-20."""
    if rng.random() < skill.intuition_p:
        probe = game.copy()
        for k in range(0, 40):
            status, _ = _intuition(probe, rng)
            if status == SOLVED:
                return k + rng.randint(0, 2) if k else rng.randint(1, 4)
            if status != UNSOLVABLE or not probe.can_undo:
                break
            probe.push(UNDO)
    return rng.randint(2, 20)


def _give_up(
    rng: random.Random,
    skill: Skill,
    moves: list[str],
    times: list[int],
    stuck: int,
    intuition: int,
    undos: int,
) -> Played:
    outcome = "resigned" if rng.random() < skill.resign_p else "abandoned"
    return Played(moves, times, outcome, stuck, intuition, undos)
