"""Every row a board can show is checked, finished or not: an unfinished ranked attempt after
each of its moves (from `MIN_MOVES_UNFINISHED` on) and once more at its day's end
(`services.daily_close`). A bot parked short of the end is held like a finished one; an honest
game in progress is not; a provisional hold is lifted when the whole finished game passes."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from benchmarks.fairplay import Recorded, human_game, instant_bot, paced_bot, reordered, timed
from games import fairplay, services
from games.models import RANKED_GRACE, Attempt
from tests.fairplay.lines import own_line
from tests.games import factories

pytestmark = pytest.mark.django_db


def on_board(attempt: Attempt) -> bool:
    return Attempt.objects.filter(pk=attempt.pk).on_board().exists()


def parked(recorded: Recorded, short_of_end: int = 1) -> Recorded:
    return Recorded(recorded.moves[:-short_of_end], recorded.times[:-short_of_end])


def test_a_bot_parked_short_of_the_end_is_held_and_off_the_board(dailies, play):
    daily = dailies("masterpiece")
    bot = play(daily, parked(instant_bot(random.Random(1), daily.deal.certificate)))

    assert bot.status == Attempt.Status.PLAYING
    assert bot.review == Attempt.Review.HELD
    assert {r["rule"] for r in bot.held_reasons} >= {"too_fast"}
    assert not on_board(bot)


def test_a_held_player_is_told_only_when_the_game_ends(dailies, play):
    """A bot must not use a hold as an oracle: while the game is played, its state says
    nothing of it; once the game ends, the player is told it is under review."""
    from games.api.serializers import review_shown
    from games.state import attempt_state

    daily = dailies("masterpiece")
    bot = play(daily, parked(instant_bot(random.Random(1), daily.deal.certificate)))
    assert bot.review == Attempt.Review.HELD
    assert review_shown(attempt_state(bot).attempt) == ""

    services.attempt_resign(attempt_id=bot.pk, player=bot.player)
    bot.refresh_from_db()
    assert bot.review == Attempt.Review.HELD and review_shown(bot) == "held"


def test_an_honest_game_in_progress_is_not_held(dailies, play):
    daily = dailies("masterpiece")
    deal = daily.deal
    game = human_game(random.Random(5), "masterpiece", deal.deal_string, own_line(daily))

    half = play(
        daily, Recorded(game.moves[: len(game.moves) // 2], game.times[: len(game.moves) // 2])
    )

    assert half.review == Attempt.Review.NONE and on_board(half)


def test_a_provisional_hold_is_lifted_when_the_whole_game_passes(dailies, play, fake_clock):
    """Ten quick moves after a long look trip the pace floor mid-game; the whole game, played
    at a person's pace after them, trips nothing: the hold goes."""
    daily = dailies("masterpiece")
    line = own_line(daily)
    quick = 10

    def gap(i: int) -> int:
        return 300 if i < quick else 3000 + 997 * (i % 7)

    game = timed(line, first=8000, gaps=gap)
    attempt = play(daily, parked(game, len(line) - quick - 1))
    assert attempt.review == Attempt.Review.HELD

    attempt = play_rest(fake_clock, attempt, game, start=quick + 1)
    assert attempt.status == Attempt.Status.WON
    assert attempt.review == Attempt.Review.NONE and attempt.held_reasons == []
    assert on_board(attempt)


def play_rest(fake_clock, attempt: Attempt, game: Recorded, start: int) -> Attempt:
    """The rest of `game` from move `start`, each move at its recorded time."""
    for seq in range(start, len(game.moves)):
        fake_clock.set(
            attempt.started_at + dt.timedelta(milliseconds=game.times[seq], microseconds=100)
        )
        services.attempt_play(
            attempt_id=attempt.pk, player=attempt.player, seq=seq, move=game.moves[seq]
        )
    return Attempt.objects.get(pk=attempt.pk)


def test_the_days_end_checks_what_was_left_unfinished(dailies, play, fake_clock, monkeypatch):
    daily = dailies("munger")
    # Moves stored without the per-move check (as before it existed): the day's end finds them.
    with monkeypatch.context() as unchecked:
        unchecked.setattr(fairplay, "MIN_MOVES_UNFINISHED", 10**6)
        bot = play(daily, parked(instant_bot(random.Random(2), daily.deal.certificate), 3))
    assert bot.review == Attempt.Review.NONE and on_board(bot)

    fake_clock.set(daily.ranked_until - dt.timedelta(seconds=1))
    assert services.dailies_due_for_closing() == []
    fake_clock.set(daily.ranked_until)
    assert services.dailies_due_for_closing() == [daily.pk]

    assert services.dailies_close_due() == {daily.pk: 1}
    assert services.daily_close(daily_id=daily.pk) is None  # claimed once
    bot.refresh_from_db()
    assert bot.review == Attempt.Review.HELD and not on_board(bot)
    daily.refresh_from_db()
    assert daily.closed_at == daily.ranked_until
    assert daily.ranked_until - RANKED_GRACE == dt.datetime.combine(
        daily.date + dt.timedelta(days=1), dt.time(), dt.UTC
    )


def test_the_days_end_judges_a_parked_line_by_what_it_still_needed(dailies, play, fake_clock):
    """A careful bot parks a shortest line in another order three moves short of the end, at a
    person's pace: no timing rule and no comparison with the solver's line sees it. The day's
    end bounds what it still needed (three moves) and `accuracy` holds it; an honest game left
    unfinished as far along is not."""
    daily = dailies("masterpiece")
    deal = daily.deal
    bot_line = reordered("masterpiece", deal.deal_string, deal.certificate, at=2)[:-3]
    bot = play(daily, paced_bot(random.Random(3), bot_line, 2500))
    honest = play(daily, paced_bot(random.Random(4), own_line(daily)[:-3], 2500))
    assert bot.review == honest.review == Attempt.Review.NONE

    fake_clock.set(daily.ranked_until)
    services.dailies_close_due()

    bot.refresh_from_db()
    honest.refresh_from_db()
    assert [r["rule"] for r in bot.held_reasons] == ["accuracy"] and not on_board(bot)
    assert bot.perfection["remaining"] <= 3
    assert honest.review == Attempt.Review.NONE and on_board(honest)


def test_the_days_end_records_how_the_day_went(dailies, play, fake_clock, admin_client):
    from django.urls import reverse

    daily = dailies("masterpiece")
    deal = daily.deal
    winners = [
        play(daily, human_game(random.Random(s), "masterpiece", deal.deal_string, own_line(daily)))
        for s in (11, 12)
    ]
    loser = human_game(random.Random(13), "masterpiece", deal.deal_string, own_line(daily))
    play(daily, parked(loser, 20))  # stopped 20 moves short: played, not won
    services.attempt_start(player=factories.player("looker"), daily=daily)  # never moved

    fake_clock.set(daily.ranked_until)
    services.dailies_close_due()
    daily.refresh_from_db()

    wins = [a for a in winners if a.status == Attempt.Status.WON]
    assert wins
    assert daily.observed["players"] == 3  # the looker never moved
    assert daily.observed["winners"] == len(wins)
    assert daily.observed["win_rate"] == round(len(wins) / 3, 4)
    assert daily.observed["median_moves_over_par"] is not None
    listed = admin_client.get(reverse("admin:games_dailychallenge_changelist")).content.decode()
    assert f"3 played, {len(wins)} won" in listed
