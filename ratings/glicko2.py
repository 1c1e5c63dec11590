"""Glicko-2, as Mark Glickman states it in "Example of the Glicko-2 system" (Boston
University): one rating period's update of a rating from the games of that period, in the
paper's steps. Pure Python, no Django: the services of this app give it ratings and results and
store what it returns.

Written here rather than taken from the `glicko2` package (2.1.0): that package's volatility
function reads the player's rating where Glickman's step 5 has the rating deviation, so its
results are wrong for any player not rated exactly 1500 (a player at 2300 against the worked
example's opponents moved up by 800 ends at 2238.5, not 2264.06: tests/ratings/test_glicko2.py
holds both), and it fixes tau on its class. See docs/leagues.md, "Ratings".
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: Glickman's scale between the Glicko scale (1500, 350) and Glicko-2's (0, 2.0148).
SCALE = 173.7178
#: A newcomer: rating 1500, deviation 350, volatility 0.06 (Glickman's suggested values).
INITIAL_RATING = 1500.0
INITIAL_RD = 350.0
INITIAL_VOLATILITY = 0.06
#: The system constant: how much the volatility may change in a period. Glickman suggests 0.3
#: to 1.2; 0.5 (his worked example's) because a player's period here is one game, and a single
#: surprise should not make the rating jumpy for the days after it.
TAU = 0.5
#: The convergence tolerance of the volatility's iteration (Glickman's).
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale: rating, deviation (RD) and volatility."""

    rating: float = INITIAL_RATING
    rd: float = INITIAL_RD
    volatility: float = INITIAL_VOLATILITY


@dataclass(frozen=True)
class Game:
    """One game of the period against an opponent rated `rating` with deviation `rd`: `score`
    1 for a win, 0 for a loss (0.5 a draw, which solitaire never has)."""

    rating: float
    rd: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on Glickman's f."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, games: Iterable[Game], *, tau: float = TAU) -> Rating:
    """`player` after one rating period in which it played `games` (each against its
    opponent's rating at the period's start). No game: only the deviation grows (step 6)."""
    mu = (player.rating - INITIAL_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    inverse_v = 0.0
    scored = 0.0
    for game in games:
        g_j = _g(game.rd / SCALE)
        e_j = _expected(mu, (game.rating - INITIAL_RATING) / SCALE, g_j)
        inverse_v += g_j * g_j * e_j * (1.0 - e_j)
        scored += g_j * (game.score - e_j)
    if inverse_v == 0.0:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    v = 1.0 / inverse_v
    sigma = _volatility(phi, sigma, v * scored, v, tau)
    phi_star2 = phi * phi + sigma * sigma
    phi = 1.0 / math.sqrt(1.0 / phi_star2 + inverse_v)
    mu += phi * phi * scored
    return Rating(SCALE * mu + INITIAL_RATING, SCALE * phi, sigma)


def idle(player: Rating, periods: int, *, most: float = INITIAL_RD) -> Rating:
    """`player` after `periods` rating periods without a game (step 6 each time): the
    deviation grows with the volatility, never past `most` (a player absent long enough is
    as uncertain as a newcomer, no more)."""
    if periods <= 0:
        return player
    phi2 = (player.rd / SCALE) ** 2 + periods * player.volatility**2
    return Rating(player.rating, min(most, SCALE * math.sqrt(phi2)), player.volatility)
