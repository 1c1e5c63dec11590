"""The honest player model of the fair-play figures (benchmarks/_honest.py) finds its own way:
its wins are longer than the par and not the solver's line, it undoes, and it gives up, so the
false-hold rates the benchmark prints are not those of a solver in disguise."""

from __future__ import annotations

import dataclasses
import random
import statistics

from benchmarks._honest import AVERAGE, STRONG, honest_game
from games import fairplay
from games.engine import GAMES, deal
from games.engine.solver import solve


def test_the_honest_model_is_not_optimal_by_construction() -> None:
    text = deal("masterpiece", 9)
    solved = solve("masterpiece", text, time_limit=None, node_limit=5_000)
    assert solved.par is not None
    rng = random.Random(7)
    games = [honest_game(rng, "masterpiece", text, STRONG) for _ in range(3)]
    wins = [fairplay.net_line(g.moves) for g in games if g.won]

    assert wins
    assert statistics.fmean(len(line) for line in wins) > solved.par  # longer than the par
    assert all(line != solved.moves for line in wins)  # not the solver's line
    assert all("U" in g.moves for g in games)  # it undoes


def test_an_honest_game_is_legal_and_timed_like_a_person() -> None:
    text = deal("munger", 33)
    game = honest_game(random.Random(3), "munger", text, AVERAGE)
    position = GAMES["munger"].from_deal(text)
    for token in game.moves:
        position.push(token)  # every token legal where it was played

    assert position.is_won() == game.won
    assert len(game.times) == len(game.moves)
    assert game.times[0] >= AVERAGE.tempo.read_s[0] * 1000  # it read the deal first
    assert all(b >= a for a, b in zip(game.times, game.times[1:], strict=False))


def test_an_honest_player_gives_up() -> None:
    impatient = dataclasses.replace(STRONG, patience=0)
    game = honest_game(random.Random(1), "masterpiece", deal("masterpiece", 17), impatient)

    assert game.outcome in {"resigned", "abandoned"} and not game.won
    assert game.stuck == 1
