"""Each dominance and pruning of the solver, on a hand-built position where it applies: it does
what it says, and the search with it reaches the same verdict (deciding) or the same shortest
distance (par and distance searches) as the plain search without any (docs/solver.md,
"Dominances and their proofs"). Then the same comparison, and a brute-force one that uses only
the engine, on random near-finished positions of real deals."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from games.engine import Card, Game, Masterpiece, Munger
from games.engine.solver import DECIDE, EXACT, PLAIN, rules_for
from games.engine.solver.masterpiece import RM
from games.engine.solver.munger import FT, HIDDEN, SEQ, TT, WF, WT, MungerRules, twin_normal
from games.engine.solver.search import Budget, decide
from tests.engine.positions import masterpiece_position, munger_position
from tests.engine.solving import WINNABLE, brute_distance, exact_distance, near_the_end, winnable


def steps(game: Munger | Masterpiece, mode: str, *, settled: bool = True) -> list[tuple]:
    """The candidate steps of the position in solver mode `mode` (after the forced moves, or
    before them)."""
    rules = rules_for(game, mode)
    state = rules.root()[0] if settled else rules.state_of(game)
    return rules.steps(state)


def forced(game: Munger | Masterpiece, mode: str) -> list[str]:
    """The forced moves the solver plays at once in the position."""
    return rules_for(game, mode).root()[1]


# -- Munger: safe foundation moves ---------------------------------------------------------


def munger_endgame() -> Munger:
    """8H on the waste could go up or onto either black 9; every card above is in a run."""
    return munger_position(
        F="8C 8D 7H 8S",
        W="8H",
        T1="KD QS JH TS 9H",
        T2="KC QH JC TH 9C",
        T3="KS QD JS TD 9S",
        T4="KH QC JD TC 9D",
    )


def test_a_safe_card_goes_up_at_once_and_that_costs_no_move() -> None:
    game = munger_endgame()
    assert "W>F" in forced(game, EXACT)
    assert forced(game, PLAIN) == []
    assert {(WT, 0, 1), (WT, 0, 2)} <= set(steps(game, PLAIN))  # 8H onto 9C or 9S
    assert exact_distance(game, EXACT) == exact_distance(game, PLAIN) == 21


def test_a_safe_foundation_card_is_never_pulled_down() -> None:
    # Every 9 is up, and each is safe there: pulling one onto a red or black 10 only costs.
    game = munger_position(
        F="9C 9D 9H 9S",
        T1="KD QC JH TS",
        T2="KC QH JS TD",
        T3="KH QS JD TC",
        T4="KS QD JC TH",
    )
    assert not [s for s in steps(game, EXACT, settled=False) if s[0] == FT]
    assert [s for s in steps(game, PLAIN, settled=False) if s[0] == FT]
    assert exact_distance(game, EXACT) == exact_distance(game, PLAIN) == 16


def test_a_stock_step_never_draws_past_a_safe_card() -> None:
    # Drawn in this order: QD, then TC (safe: it goes up), then KS.
    game = munger_position(
        F="9C 9D 9H 9S",
        S="KS TC QD",
        T1="KD QS JH TS",
        T2="KC QH JS TD",
        T3="KH JD",
        T4="JC TH",
    )
    exact = steps(game, EXACT, settled=False)
    assert (WF, 2) in exact and not [s for s in exact if s[0] in (WF, WT) and s[1] >= 3]
    assert [s for s in steps(game, PLAIN, settled=False) if s[0] == WT and s[1] == 3]
    assert exact_distance(game, EXACT) == exact_distance(game, PLAIN)


# -- Munger: deciding only -----------------------------------------------------------------


def test_a_reversible_foundation_move_is_forced_only_when_deciding() -> None:
    # TH can go up and lies on JS, which it fits: one pull-down would bring it back. It is not
    # safe (the spades are only at 8).
    game = munger_position(
        F="9C 6D 9H 8S",
        T1="QD JS TH",
        T2="KC QH JC TD 9S 8D",
        T3="KH QC JD TS 9D",
        T4="KD QS JH TC",
        T5="KS",
        W="7D",
    )
    assert forced(game, DECIDE)[0] == "T1>F"
    assert forced(game, EXACT)[0] != "T1>F"
    assert winnable(game, DECIDE) == winnable(game, PLAIN)


#: Seed 13 of Munger a few moves in: 2H is up, and 3S, which it fits, tops T1.
PULL_DOWN = (
    "munger; F - - 2H -; T1 *2S 4H *5H 9C 8D 7S 6D 5C 4D 3S; T2 *AD QH *QC KD QS; "
    "T3 *3H KH KS QD JS; T4 7H; T5 *6S 9S TS 9D 8C 7D; T6 *JC TD 5S; T7 *8S 9H *5D 3D 2C; "
    "R 4S 3C AS 6H KC; W; S JD AC 7C TH 4C 8H TC 2D 6C JH"
)


def test_when_deciding_a_pulled_down_card_comes_with_what_covers_it() -> None:
    # Pulled onto 3S, 2H would go straight back up when deciding (it fits there), so it is
    # offered only with a card put on it: AS after nine draws.
    game = Munger.from_text(PULL_DOWN)
    deciding = steps(game, DECIDE)
    assert (SEQ, ((FT, 2, 0), (WT, 9, 0))) in deciding
    assert not [s for s in deciding if s[0] == FT]
    assert all(s[1][0][0] == FT for s in deciding if s[0] == SEQ)
    assert (FT, 2, 0) in steps(game, EXACT)
    assert winnable(game, DECIDE) == winnable(game, PLAIN)


def test_part_of_a_run_moves_only_to_uncover_a_card_that_goes_up_when_deciding() -> None:
    # T1 holds TH 9C 8D 7S; 8D 7S could move onto 9S, leaving 9C, which cannot go up.
    game = munger_position(
        F="5C 5D 9H 5S",
        T1="TH 9C 8D 7S",
        T2="TD 9S",
        T3="KH QC JD TC 9D 8C 7D 6C",
        T4="KD QS JH TS",
        T5="KS QH JS",
        T6="KC QD",
        R="8S 7C 6S 6D",
    )
    partial = (TT, 0, 1, 2)
    assert partial not in steps(game, DECIDE, settled=False)
    assert partial in steps(game, EXACT, settled=False)
    assert partial in steps(game, PLAIN, settled=False)
    assert winnable(game, DECIDE) == winnable(game, PLAIN)


# -- Munger: symmetry ----------------------------------------------------------------------


def test_a_king_led_run_at_the_bottom_stays_and_only_the_first_empty_column_is_offered() -> None:
    game = munger_position(
        F="9C 9D 9H 9S",
        T1="KD QC JH TS",
        T2="KC QH JS",
        T3="*TD KS QD JC TH",
        T4="KH QS JD TC",
    )
    exact = steps(game, EXACT, settled=False)
    plain = steps(game, PLAIN, settled=False)
    at_bottom = [(TT, i, j, 0) for i in (0, 1, 3) for j in (4, 5, 6)]
    assert set(at_bottom) <= set(plain) and not set(at_bottom) & set(exact)
    assert (TT, 2, 4, 1) in exact and (TT, 2, 5, 1) not in exact  # the first empty column, T5
    assert {(TT, 2, 5, 1), (TT, 2, 6, 1)} <= set(plain)
    assert exact_distance(game, EXACT) == exact_distance(game, PLAIN)


def twins(on: str) -> Munger:
    """8D 7C on 9S with 9C a bare column top (`on="S"`), or the other way round."""
    rest = dict(
        F="6C 7D 8H 8S",
        T3="KC QH JC TH",
        T4="KD QS JD TS 9H 8C",
        T5="KS QD",
        T6="QC JH TC 9D",
        T7="JS TD",
    )
    if on == "S":
        return munger_position(T1="KH 9S 8D 7C", T2="9C", **rest)
    return munger_position(T1="KH 9S", T2="9C 8D 7C", **rest)


def test_runs_on_twin_cards_share_one_key_when_deciding() -> None:
    on_spade, on_club = twins("S"), twins("C")
    assert on_spade.is_legal("T1>T2") and on_club.is_legal("T2>T1")
    deciding = [rules_for(g, DECIDE) for g in (on_spade, on_club)]
    states = [r.state_of(r.game) for r in deciding]
    assert deciding[0].key(states[0]) == deciding[1].key(states[1])
    exact = [rules_for(g, EXACT) for g in (on_spade, on_club)]
    assert exact[0].key(states[0]) != exact[1].key(states[1])
    # Runs go onto the lower-numbered twin: 8D 7C onto 9C (and JC TH onto QD).
    normal = twin_normal(states[0][0])
    assert normal == twin_normal(states[1][0])
    assert bytes(Card.from_text(c) for c in ["9C", "8D", "7C"]) in normal
    assert winnable(on_spade, DECIDE) == winnable(on_spade, PLAIN)


# -- Munger: dead positions ----------------------------------------------------------------

#: Stock out, and TH (reserve) and the TD run (over JC, over AH and AD) each need a black
#: Jack: JS is under TH, JC under the TD run. Neither can ever move, nor can anything under.
DEADLOCK = (
    "munger; F 2C - - 2S; T1; T2 KH QC JD TS 9D 8C 7H 6C 5D; T3; "
    "T4 *QS 9C 8H 7C 6H 5C 4H 3S 2H; T5 8S 7D 6S 5H 4S 3D; T6 9H; T7 *AD AH JC TD 9S 8D 7S; "
    "R QH JS 4D TH 3C KD; W 5S KC 4C JH 3H 2D 6D QD TC KS; S"
)


def test_a_deadlock_is_seen_as_dead() -> None:
    game = Munger.from_text(DEADLOCK)
    rules = rules_for(game, DECIDE)
    assert rules.dead(rules.state_of(game))
    assert decide(rules, Budget(None)).status == "unsolvable"


def test_a_winnable_position_is_never_dead() -> None:
    for seed in WINNABLE["munger"]:
        rules = rules_for(Munger.from_seed(seed), EXACT)
        assert not rules.dead(rules.root()[0])


class Undying(MungerRules):
    """Deciding rules without the dead-position test: the oracle for it."""

    def dead(self, state: object) -> bool:
        return False


@pytest.mark.parametrize("seed", [2, 4, 7, 12])
def test_every_position_seen_as_dead_in_a_real_search_is_lost(seed: int) -> None:
    game = Munger.from_seed(seed)
    rules = rules_for(game, DECIDE)
    seen_dead = []
    test = rules.dead

    def dead(state: object) -> bool:
        verdict = test(state)
        if verdict:
            seen_dead.append(state)
        return verdict

    rules.dead = dead  # type: ignore[method-assign]
    decide(rules, Budget(60))
    assert len(seen_dead) >= 10
    oracle = Undying(game, DECIDE)
    for state in seen_dead[:: max(1, len(seen_dead) // 25)]:
        assert decide(oracle, Budget(60), start=state).status == "unsolvable"


class Watchful(MungerRules):
    """Deciding rules that run the dead-position test after every step."""

    QUIET_STEPS = frozenset()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [9, 10, 15, 17])
def test_skipping_the_dead_test_after_quiet_steps_keeps_the_verdict(seed: int) -> None:
    game = Munger.from_seed(seed)
    assert MungerRules.QUIET_STEPS
    calls = []
    verdicts = []
    for rules in (rules_for(game, DECIDE), Watchful(game, DECIDE)):
        test = rules.dead
        count = [0]

        def dead(state: object, test=test, count=count) -> bool:  # type: ignore[no-untyped-def]
            count[0] += 1
            return test(state)

        rules.dead = dead  # type: ignore[method-assign]
        verdicts.append(decide(rules, Budget(60)).status)
        calls.append(count[0])
    assert verdicts[0] == verdicts[1] != "unknown"
    assert calls[0] < calls[1]  # fewer tests, same verdict


@pytest.mark.slow
@pytest.mark.parametrize("seed", [6, 10])
def test_the_munger_caches_answer_as_a_fresh_computation_does(seed: int) -> None:
    # The key's columns part, the dead test's and the lower bound's column facts are kept by
    # columns: along a real search, each answer equals that of rules that never saw another
    # state.
    game = Munger.from_seed(seed)
    rules = rules_for(game, DECIDE)
    states = []
    children = rules.children

    def kept(state: object) -> list:
        found = children(state)  # type: ignore[arg-type]
        states.extend(child for _, child, _ in found)
        return found

    rules.children = kept  # type: ignore[method-assign]
    decide(rules, Budget(None, node_limit=3000))
    assert len(states) >= 1000
    verdicts = set()
    for state in states[::10]:
        fresh = rules_for(game, DECIDE)
        columns, tail = state
        assert rules.key(state) == b"\xff".join([*sorted(twin_normal(columns)), tail])
        assert rules.key(state) == fresh.key(state)
        verdicts.add(rules.dead(state))
        assert rules.dead(state) == fresh.dead(state)
        assert rules.steps(state) == fresh.steps(state)
        assert rules.lower_bound(state) == fresh.lower_bound(state)
    assert verdicts == {True, False}


# -- Masterpiece ---------------------------------------------------------------------------


def test_a_safe_masterpiece_card_goes_up_at_once_and_that_costs_no_move() -> None:
    # Building up; TC is free on M1 and no club waits in an auxiliary row: it goes up, and so
    # do JC, QC and KC after it. TD, TH and TS are not safe (KD and JD, QH, KS wait there).
    text = masterpiece_position(
        F="9C 9D 9H 9S",
        D="up",
        M1="JC TC",
        M2="QD TD",
        M3="KH JH TH",
        M4="QS TS",
        M5="KC QC",
        M6="JS",
        A1="KD JD",
        A2="KS QH",
    )
    game = Masterpiece.from_text(text)
    assert forced(game, EXACT) == ["M1>F", "M1>F", "M5>F", "M5>F"]
    assert forced(game, PLAIN) == []
    assert exact_distance(game, EXACT) == exact_distance(game, PLAIN)


def test_only_the_first_empty_main_row_is_offered_and_a_lone_card_stays() -> None:
    text = masterpiece_position(
        F="QC QD QH QS",
        D="up",
        M1="KC",
        M2="KD",
        A1="KH",
        A2="KS",
    )
    game = Masterpiece.from_text(text)
    exact = steps(game, EXACT, settled=False)
    plain = steps(game, PLAIN, settled=False)
    into_empty = [s for s in plain if s[0] == RM and s[2] >= 2]
    assert len({s[2] for s in into_empty}) > 1  # plain: every empty row
    assert {s[2] for s in exact if s[0] == RM} == {2}  # the first empty row, M3
    assert (RM, 0, 2) not in exact  # a lone KC stays where it is
    assert exact_distance(game, EXACT) == exact_distance(game, PLAIN) == 6


# -- everything at once, on near-finished positions ----------------------------------------


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_the_end(back=(2, 12), picks=4))
def test_shortest_distances_agree_with_the_plain_search_and_brute_force(game: Game) -> None:
    exact = exact_distance(game, EXACT)
    assert exact == exact_distance(game, PLAIN)
    brute = brute_distance(game, 16)
    assert brute == exact or (brute is None and (exact is None or exact > 16))
    assert winnable(game, DECIDE) == (exact is not None)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_the_end(back=(12, 30), picks=4))
def test_deeper_distances_agree_with_the_plain_search(game: Game) -> None:
    assert exact_distance(game, EXACT) == exact_distance(game, PLAIN, node_limit=4_000_000)


def test_hidden_cards_are_marked_in_the_state() -> None:
    rules = rules_for(Munger.from_seed(1), EXACT)
    columns = rules.state_of(rules.game)[0]
    assert all(column[0] >= HIDDEN and column[1] < HIDDEN for column in columns)
