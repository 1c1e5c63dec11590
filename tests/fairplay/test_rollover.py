"""Ranked play belongs to its day (`DailyChallenge.ranked_until`: the end of the daily's UTC day
plus `RANKED_GRACE`): after it, nothing can improve a ranked result, and the solver's line is
served only once no ranked attempt of the daily can move. Tested with the clock at the grace's
edges."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from games import services
from games.errors import Conflict
from games.identity import COOKIE_NAME
from games.models import RANKED_GRACE, Attempt
from games.state import attempt_state
from tests.games import factories

pytestmark = pytest.mark.django_db

DAY = dt.date(2030, 1, 7)
MIDNIGHT = dt.datetime(2030, 1, 8, tzinfo=dt.UTC)


@pytest.fixture
def late_game(fake_clock):
    """Alice's ranked Munger game of DAY, begun at 23:50 with three moves played."""
    fake_clock.set(dt.datetime(2030, 1, 7, 23, 50, tzinfo=dt.UTC))
    daily = factories.daily("munger", DAY)
    alice = factories.player("alice")
    attempt, _ = services.attempt_start(player=alice, daily=daily)
    for seq, move in enumerate(daily.deal.certificate[:3]):
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=move)
    return daily, alice, attempt


def test_ranked_play_ends_with_the_grace_after_midnight(late_game):
    daily, _, _ = late_game
    assert daily.ranked_until == MIDNIGHT + RANKED_GRACE
    assert daily.ranked_play_open(MIDNIGHT + RANKED_GRACE - dt.timedelta(microseconds=1))
    assert not daily.ranked_play_open(MIDNIGHT + RANKED_GRACE)


def test_a_game_begun_before_midnight_goes_on_through_the_grace(late_game, fake_clock):
    daily, alice, attempt = late_game
    fake_clock.set(MIDNIGHT + RANKED_GRACE - dt.timedelta(seconds=1))

    resumed, created = services.attempt_start(player=alice, daily=daily)
    state = services.attempt_play(
        attempt_id=attempt.pk, player=alice, seq=3, move=daily.deal.certificate[3]
    )

    assert (resumed.pk, created, resumed.ranked) == (attempt.pk, False, True)
    assert state.attempt.move_count == 4 and not state.day_over


@pytest.mark.parametrize("action", ["move", "finish", "resign"])
def test_after_the_grace_a_ranked_attempt_changes_no_more(late_game, fake_clock, action):
    daily, alice, attempt = late_game
    fake_clock.set(MIDNIGHT + RANKED_GRACE)
    before = Attempt.objects.get(pk=attempt.pk)

    with pytest.raises(Conflict) as refused:
        if action == "move":
            services.attempt_play(
                attempt_id=attempt.pk, player=alice, seq=3, move=daily.deal.certificate[3]
            )
        elif action == "finish":
            services.attempt_finish(attempt_id=attempt.pk, player=alice, seq=3)
        else:
            services.attempt_resign(attempt_id=attempt.pk, player=alice)

    assert refused.value.code == "day_over"
    assert refused.value.extra["continue_as_practice"] is True
    after = Attempt.objects.get(pk=attempt.pk)
    assert (after.moves, after.status, after.move_count) == (
        before.moves,
        before.status,
        before.move_count,
    )


def test_a_move_sent_again_after_the_grace_answers_as_the_first_time(late_game, fake_clock):
    daily, alice, attempt = late_game
    fake_clock.set(MIDNIGHT + dt.timedelta(hours=1))

    again = services.attempt_play(
        attempt_id=attempt.pk, player=alice, seq=2, move=daily.deal.certificate[2]
    )

    assert again.replayed


def test_the_state_says_the_day_is_over_and_lists_no_move(late_game, fake_clock):
    _, _, attempt = late_game
    fake_clock.set(MIDNIGHT + RANKED_GRACE)

    state = attempt_state(Attempt.objects.select_related("daily").get(pk=attempt.pk))

    assert state.day_over and state.legal == [] and state.moves == [] and not state.can_undo


def test_after_the_grace_yesterdays_daily_shows_the_ranked_game_as_it_stood(late_game, fake_clock):
    daily, alice, attempt = late_game
    fake_clock.set(MIDNIGHT + RANKED_GRACE)

    shown, created = services.attempt_start(player=alice, daily=daily)
    practice, _ = services.attempt_continue_as_practice(attempt_id=attempt.pk, player=alice)
    again, created_again = services.attempt_start(player=alice, daily=daily)

    assert (shown.pk, created) == (attempt.pk, False) and attempt_state(shown).day_over
    assert (again.pk, created_again) == (practice.pk, False) and not again.ranked


def test_after_the_grace_a_finished_ranked_game_leaves_room_for_practice(late_game, fake_clock):
    daily, alice, attempt = late_game
    services.attempt_resign(attempt_id=attempt.pk, player=alice)
    fake_clock.set(MIDNIGHT + RANKED_GRACE)

    practice, created = services.attempt_start(player=alice, daily=daily)

    assert created and not practice.ranked and practice.pk != attempt.pk


def test_the_player_goes_on_in_practice_from_where_the_ranked_game_stood(late_game, fake_clock):
    daily, alice, attempt = late_game
    fake_clock.set(MIDNIGHT + RANKED_GRACE + dt.timedelta(minutes=1))

    practice, created = services.attempt_continue_as_practice(attempt_id=attempt.pk, player=alice)
    again, created_again = services.attempt_continue_as_practice(
        attempt_id=attempt.pk, player=alice
    )
    state = services.attempt_play(
        attempt_id=practice.pk, player=alice, seq=3, move=daily.deal.certificate[3]
    )

    assert created and not created_again and again.pk == practice.pk
    assert not practice.ranked and practice.daily_id == daily.pk
    assert practice.moves == daily.deal.certificate[:3] and practice.continued_from_id == attempt.pk
    assert state.attempt.move_count == 4
    ranked = Attempt.objects.get(pk=attempt.pk)
    assert ranked.ranked and ranked.move_count == 3  # the ranked row stays as it was


def test_only_a_ranked_game_caught_by_the_end_of_its_day_goes_on_in_practice(late_game, fake_clock):
    _, alice, attempt = late_game
    with pytest.raises(Conflict) as refused:
        services.attempt_continue_as_practice(attempt_id=attempt.pk, player=alice)
    assert refused.value.code == "not_day_over"


def api_client_of(player) -> APIClient:
    client = APIClient()
    client.cookies[COOKIE_NAME] = services.player_token_issue(player=player)
    return client


def test_over_the_api_a_late_move_is_409_day_over_and_continue_makes_the_practice(
    late_game, fake_clock
):
    daily, alice, attempt = late_game
    client = api_client_of(alice)
    fake_clock.set(MIDNIGHT + RANKED_GRACE)

    refused = client.post(
        f"/api/attempts/{attempt.pk}/moves/",
        {"seq": 3, "move": daily.deal.certificate[3]},
        format="json",
    )
    state = client.get(f"/api/attempts/{attempt.pk}/").json()
    made = client.post(f"/api/attempts/{attempt.pk}/continue/")

    assert refused.status_code == 409 and refused.json()["code"] == "day_over"
    assert state["day_over"] is True and state["legal"] == []
    assert state["ranked_until"] == "2030-01-08T00:05:00Z"
    assert made.status_code == 201 and made.json()["ranked"] is False
    assert made.json()["moves_played"] == 3 and made.json()["legal"]


def test_the_solvers_line_waits_for_the_end_of_ranked_play(late_game, fake_clock, client):
    daily, _, _ = late_game
    url = f"/play/munger/{DAY.isoformat()}/solution/"

    fake_clock.set(MIDNIGHT + dt.timedelta(minutes=1))  # the next day, within the grace
    during = client.get(url)
    fake_clock.set(MIDNIGHT + RANKED_GRACE)
    after = client.get(url)

    assert during.status_code == 404
    assert after.status_code == 200 and after.json()["steps"]
