"""Munger's lower bound on the moves still needed (`MungerRules.lower_bound`, docs/solver.md,
"Munger's lower bound"): what it counts on hand-built positions, and that it never exceeds
the true distance, checked against a brute-force search over the engine's own moves on random
small positions and against the exact search on positions of real deals."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import Game, Munger
from games.engine.solver import EXACT, rules_for
from games.engine.solver.munger import MungerRules, State
from games.engine.solver.search import Budget, best_first
from tests.engine.positions import MUNGER_COLUMNS, RANKS, munger_position
from tests.engine.solving import brute_distance, near_the_end


def bounds(game: Munger) -> tuple[int, int]:
    """The simple bound and the lower bound of a position, forced moves played first."""
    rules = rules_for(game, EXACT)
    state, forced = rules.root()
    assert isinstance(rules, MungerRules)
    return rules.simple_bound(state) + len(forced), rules.lower_bound(state) + len(forced)


def test_each_unit_over_a_lower_card_of_its_suit_costs_a_move() -> None:
    # T1, bottom to top: TD JD 9S KS. JD lies over TD and KS over 9S, and no move can carry
    # both (9S does not fit JD): two moves aside, where the simple bound counts one per column.
    # The reserve's JS over TS costs its move too.
    game = munger_position(
        F="QC 9D QH 8S", T1="TD JD 9S KS", T2="KC", T3="KD QS", T4="KH", R="TS JS QD"
    )
    simple, lower = bounds(game)
    assert lower == simple + 1


def test_two_columns_that_wait_on_each_other_cost_a_move() -> None:
    # KC lies over QD, KD over QC: KC goes up after QC, so after KD leaves; KD after QD, so
    # after KC leaves. One of them must step aside to an empty column first.
    game = munger_position(F="JC JD KH KS", T1="QD KC", T2="QC KD")
    simple, lower = bounds(game)
    assert lower == simple + 1 == 5
    assert brute_distance(game, lower + 2) == lower


def test_a_talon_card_covered_by_a_higher_one_of_its_suit_costs_a_move() -> None:
    # The waste holds 5H; the stock gives 7H, then 4H. 5H waits for 4H, so 7H is drawn onto it
    # and must leave first: 7H steps aside onto 8C (or 5H onto a black 6, but there is none).
    game = munger_position(
        F="7C KD 3H KS",
        W="5H",
        S="4H 7H",
        T1="KH QH JH TH 9H 8H",
        T2="6H",
        T3="8C",
        T4="KC QC JC TC 9C",
    )
    simple, lower = bounds(game)
    assert lower == simple + 1
    assert brute_distance(game, lower + 2) == lower


# -- never more than the truth ---------------------------------------------------------------

SUITS = "CDHS"


@st.composite
def small_positions(draw: st.DrawFn) -> Munger:
    """A position with 5 to 10 cards off the foundations, spread over the columns (some face
    down), the reserve, the waste and the stock."""
    left = draw(
        st.lists(st.integers(min_value=0, max_value=4), min_size=4, max_size=4).filter(
            lambda counts: 5 <= sum(counts) <= 10
        )
    )
    tops = []
    cards = []
    for suit, count in zip(SUITS, left, strict=True):
        tops.append("-" if count == 13 else RANKS[12 - count] + suit)
        cards += [RANKS[r] + suit for r in range(13 - count, 13)]
    cards = draw(st.permutations(cards))
    piles: dict[str, list[str]] = {}
    names = [*MUNGER_COLUMNS[:4], "R", "W", "S"]
    for card in cards:
        piles.setdefault(draw(st.sampled_from(names)), []).append(card)
    columns = {}
    for name in MUNGER_COLUMNS[:4]:
        column = piles.get(name, [])
        hidden = draw(st.lists(st.booleans(), min_size=len(column), max_size=len(column)))
        columns[name] = " ".join(
            ("*" if down and k < len(column) - 1 else "") + card
            for k, (card, down) in enumerate(zip(column, hidden, strict=True))
        )
    return munger_position(
        F=" ".join(tops),
        R=" ".join(piles.get("R", [])),
        W=" ".join(piles.get("W", [])),
        S=" ".join(piles.get("S", [])),
        **columns,
    )


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_the_bound_never_exceeds_the_brute_force_distance(game: Munger) -> None:
    simple, lower = bounds(game)
    assert simple <= lower
    brute = brute_distance(game, lower + 3)
    assume(brute is not None)  # a win within three moves of the bound: it never exceeds it
    assert lower <= brute


class SimpleBound(MungerRules):
    """Munger's rules with the simple bound in the searches (the bound this one improves on)."""

    def lower_bound(self, state: State) -> int:
        return self.simple_bound(state)


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_the_end(back=(10, 24), picks=4, games=("munger",)))
def test_the_bound_never_exceeds_the_exact_distance_on_real_deals(game: Game) -> None:
    rules = SimpleBound(game, EXACT)
    outcome = best_first(rules, Budget(None, 2_000_000), weight=1)
    assert outcome.exhausted
    assume(outcome.status == "solved")  # a lost position has no distance to compare
    assert bounds(game)[1] <= len(outcome.line)
    again = best_first(rules_for(game, EXACT), Budget(None, 2_000_000), weight=1)
    assert again.exhausted and len(again.line) == len(outcome.line)
