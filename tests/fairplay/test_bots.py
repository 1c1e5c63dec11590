"""Bots and human-like players on a certified daily, through the real services, with the
server's clock stepped between moves: the bots are held for review, the people ranked.

The players are those of benchmarks/fairplay.py (which measures the rates over many games):
human-like games read the deal 5-30 s, think a few seconds a move with a long tail, pause
10-60 s now and then, run through obvious foundation moves fast, undo, and often let the
server play the finishing line.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmarks.fairplay import (
    FAST_HUMAN,
    HUMAN,
    human_game,
    instant_bot,
    paced_bot,
    random_delay_bot,
    reordered,
    resampling_bot,
    rhythm_bot,
)
from games import fairplay, services
from games.models import Attempt, Deal
from tests.fairplay.conftest import START
from tests.fairplay.lines import own_line
from tests.games import factories

pytestmark = pytest.mark.django_db

GAMES = ["masterpiece", "munger"]


def rules(attempt: Attempt) -> set[str]:
    return {reason["rule"] for reason in attempt.held_reasons}


def on_board(attempt: Attempt) -> bool:
    return Attempt.objects.filter(daily=attempt.daily).on_board().filter(pk=attempt.pk).exists()


def assert_held(attempt: Attempt) -> None:
    assert attempt.status == Attempt.Status.WON and attempt.verified
    assert attempt.review == Attempt.Review.HELD
    assert not on_board(attempt)
    assert Attempt.objects.held().filter(pk=attempt.pk).exists()


def assert_ranked(attempt: Attempt) -> None:
    assert attempt.status == Attempt.Status.WON and attempt.verified
    assert attempt.review == Attempt.Review.NONE, attempt.held_reasons
    assert attempt.held_reasons == []
    assert on_board(attempt)


@pytest.mark.parametrize("game", GAMES)
def test_an_instant_certificate_bot_is_held(dailies, play, game: str) -> None:
    daily = dailies(game)
    attempt = play(daily, instant_bot(random.Random(1), daily.deal.certificate))
    assert_held(attempt)
    assert {"too_fast", "instant_first_move", "certificate_at_machine_speed"} <= rules(attempt)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_fixed_200_ms_rhythm_bot_is_held(dailies, play, game: str) -> None:
    daily = dailies(game)
    attempt = play(daily, rhythm_bot(random.Random(2), daily.deal.certificate))
    assert_held(attempt)
    assert "machine_rhythm" in rules(attempt)


def test_a_random_delay_bot_is_held_for_its_pace(dailies, play) -> None:
    daily = dailies("masterpiece")
    attempt = play(daily, random_delay_bot(random.Random(3), daily.deal.certificate))
    assert_held(attempt)
    assert "too_fast" in rules(attempt) and "machine_rhythm" not in rules(attempt)


def test_a_quick_first_move_alone_holds_nothing(dailies, play) -> None:
    """A person's obvious first move can come at once: with a person's way and gaps after it,
    the game is ranked (a bot that did this on a solver's line is held for the line)."""
    daily = dailies("masterpiece")
    line = own_line(daily)
    recorded = human_game(random.Random(4), "masterpiece", daily.deal.deal_string, line)
    bot = resampling_bot(random.Random(5), line, recorded)
    bot.times[:] = [t - bot.times[0] + 300 for t in bot.times]  # its first move at 0.3 s
    assert_ranked(play(daily, bot))
    solver = human_game(
        random.Random(4), "masterpiece", daily.deal.deal_string, daily.deal.certificate
    )
    solver.times[:] = [t - solver.times[0] + 300 for t in solver.times]
    assert rules(play(daily, solver)) == {"instant_first_move", "accuracy"}


def test_a_patient_bot_with_human_gaps_is_not_held(dailies, play) -> None:
    """The limit docs/fair-play.md states: a bot that reads for as long as a person and
    draws its gaps from a human game is, for the board, a good player."""
    daily = dailies("masterpiece")
    line = own_line(daily)
    recorded = human_game(random.Random(4), "masterpiece", daily.deal.deal_string, line)
    attempt = play(daily, resampling_bot(random.Random(6), line, recorded, read=True))
    assert_ranked(attempt)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_human_like_games_are_ranked(dailies, play, game: str, seed: int) -> None:
    daily = dailies(game)
    rng = random.Random(seed)
    recorded = human_game(rng, game, daily.deal.deal_string, own_line(daily), HUMAN)
    assert 5_000 <= recorded.times[0] <= 30_000
    attempt = play(daily, recorded)
    assert_ranked(attempt)


@pytest.mark.parametrize("game", GAMES)
def test_a_fast_human_like_game_on_much_of_the_solvers_line_is_ranked(dailies, play, game) -> None:
    """A fast player who finds 70% of the solver's line from its start, then their own way."""
    daily = dailies(game)
    deal = daily.deal
    line = own_line(daily, at=int(0.7 * len(deal.certificate)))
    recorded = human_game(random.Random(21), game, deal.deal_string, line, FAST_HUMAN)
    attempt = play(daily, recorded)
    assert_ranked(attempt)
    assert fairplay.Play(
        game, attempt.moves, attempt.move_times, deal.certificate
    ).certificate_prefix >= (
        fairplay.CERTIFICATE_SHARE * len(deal.certificate)
    )  # certificate_at_machine_speed looked at it


@pytest.mark.slow
def test_the_human_like_games_undo_pause_and_let_the_server_finish(dailies, play) -> None:
    """What the human-like games above are made of, checked on the stored attempts."""
    daily = dailies("masterpiece")
    deal = daily.deal
    attempts = [
        play(daily, human_game(random.Random(s), "masterpiece", deal.deal_string, own_line(daily)))
        for s in range(11, 17)
    ]
    gaps = [b - a for x in attempts for a, b in zip(x.move_times, x.move_times[1:], strict=False)]
    assert any("U" in a.moves for a in attempts)
    assert any(g >= 10_000 for g in gaps)  # pauses
    assert any(0 < g < 1000 for g in gaps)  # fast streaks
    assert any(a.move_times[-1] == a.move_times[-2] for a in attempts)  # finished by the server
    assert all(a.review == Attempt.Review.NONE for a in attempts)


def test_a_bot_that_resigns_is_held_too(dailies, play) -> None:
    daily = dailies("munger")
    bot = instant_bot(random.Random(7), daily.deal.certificate[:30])
    attempt = play(daily, bot, resign=True)
    assert attempt.status == Attempt.Status.RESIGNED and attempt.verified
    assert attempt.review == Attempt.Review.HELD and not on_board(attempt)


def test_practice_is_never_held(db, fake_clock) -> None:
    daily = factories.daily("masterpiece", START.date() - dt.timedelta(days=1))
    player = factories.player("practiser")
    attempt, _ = services.attempt_start(player=player, daily=daily)
    assert not attempt.ranked
    for seq, move in enumerate(daily.deal.certificate):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.WON and attempt.review == Attempt.Review.NONE


def test_the_hold_costs_no_query(dailies, fake_clock, monkeypatch) -> None:
    """The checks read the daily's certificate, which the verifier has loaded already."""
    daily = dailies("masterpiece")
    line = daily.deal.certificate
    counts = []
    for name, hook in (("checked", fairplay.hold_if_implausible), ("unchecked", lambda a: [])):
        monkeypatch.setattr(fairplay, "hold_if_implausible", hook)
        player = factories.player(name)
        attempt, _ = services.attempt_start(player=player, daily=daily)
        for seq, move in enumerate(line[:-1]):
            services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
        with CaptureQueriesContext(connection) as queries:
            services.attempt_play(
                attempt_id=attempt.pk, player=player, seq=len(line) - 1, move=line[-1]
            )
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert Attempt.objects.get(player__display_name="checked").review == Attempt.Review.HELD


def test_the_solvers_line_is_still_held_after_a_players_win_lowered_the_par(dailies, play):
    daily = dailies("masterpiece")
    deal = daily.deal
    solver = list(deal.certificate)
    assert deal.solver_lines == [solver]
    # A player's win (the same moves in another order) below a par that was not a floor.
    Deal.objects.filter(pk=deal.pk).update(par=len(solver) + 4, par_optimal=False)
    mine = reordered("masterpiece", deal.deal_string, solver)
    lowered = services.deal_lower_par(deal_id=deal.pk, line=mine)
    assert lowered is not None and lowered.certificate != solver
    assert lowered.solver_lines == [solver]  # a player's line is not the solver's
    daily.refresh_from_db()

    bot = play(daily, human_game(random.Random(8), "masterpiece", deal.deal_string, solver))
    parked = play(daily, paced_bot(random.Random(9), solver[:-6], 2000))

    assert "accuracy" in rules(bot)  # as short as the par: a win is accuracy's
    assert_held(bot)
    assert "solver_line" in rules(parked)  # the solver's line, parked short of the end
    assert parked.review == Attempt.Review.HELD and not on_board(parked)
