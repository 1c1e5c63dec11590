"""Today's deal stays secret during its day: nothing shows a card of a daily whose ranked play
is open (`DailyChallenge.ranked_until`) but a player's own ranked game. No practice of it by
its date (the grace after midnight), by its seed in either game, or by its deal; no move in a
practice of it kept from before; no race on it. Each refusal is 409 with a code of its own and
says when the deal opens for practice (docs/fair-play.md, "One person, one row")."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from games import services
from games.errors import Conflict
from games.identity import COOKIE_NAME
from games.models import RANKED_GRACE, Attempt
from races import selectors as race_selectors
from tests.games import factories

pytestmark = pytest.mark.django_db

DAY = dt.date(2030, 1, 7)
MIDNIGHT = dt.datetime(2030, 1, 8, tzinfo=dt.UTC)


def client_of(player) -> APIClient:
    client = APIClient()
    client.cookies[COOKIE_NAME] = services.player_token_issue(player=player)
    return client


def practise(client: APIClient, game: str, seed: int):
    return client.post("/api/practice/", {"game": game, "seed": seed}, format="json")


def refused(answer, code: str = "daily_running") -> dict:
    assert answer.status_code == 409, answer.content
    body = answer.json()
    assert body["code"] == code
    assert "opens for practice once its day is over" in body["detail"]
    return body


def test_practice_on_the_seed_of_todays_daily_is_refused_in_either_game(dailies, fake_clock):
    """The same seed deals the same deck in both games: a Masterpiece practice of a Munger
    daily's seed would show every card of it face up."""
    munger = dailies("munger")
    seed = int(munger.deal.seed)
    client = APIClient()

    same_game = practise(client, "munger", seed)
    other_game = practise(client, "masterpiece", seed)
    another_seed = practise(client, "munger", seed + 1000)

    body = refused(same_game)
    assert body["ranked_until"] == "2030-01-08T00:05:00Z"
    assert "2030-01-08 00:05 UTC" in body["detail"]
    refused(other_game)
    assert another_seed.status_code == 201
    assert not Attempt.objects.filter(seed=str(seed)).exists()

    fake_clock.set(MIDNIGHT + RANKED_GRACE)  # its day is over
    assert practise(client, "munger", seed).status_code == 201
    assert practise(client, "masterpiece", seed).status_code == 201


def test_a_deal_is_compared_as_cards_not_only_as_a_seed(dailies):
    daily = dailies("munger")
    player = factories.player("racer")

    with pytest.raises(Conflict) as no_seed:
        services.attempt_start_on_deal(
            player=player, game="munger", deal_string=daily.deal.deal_string, seed=None
        )

    assert no_seed.value.code == "daily_running"
    assert not Attempt.objects.filter(deal_string=daily.deal.deal_string).exists()


def test_the_grace_after_midnight_shows_yesterdays_deal_only_to_its_ranked_players(db, fake_clock):
    fake_clock.set(dt.datetime(2030, 1, 7, 23, 0, tzinfo=dt.UTC))
    daily = factories.daily("munger", DAY)
    alice, bob = factories.player("alice"), factories.player("bob")
    hers, _ = services.attempt_start(player=alice, daily=daily)
    services.attempt_resign(attempt_id=hers.pk, player=alice)
    path = f"/api/dailies/munger/{DAY.isoformat()}/attempts/"
    fake_clock.set(MIDNIGHT + dt.timedelta(minutes=2))

    stranger = client_of(bob).post(path)
    her_own = client_of(alice).post(path)

    refused(stranger)
    assert her_own.status_code == 200 and her_own.json()["id"] == hers.pk
    assert her_own.json()["ranked"] is True
    assert not Attempt.objects.filter(daily=daily, ranked=False).exists()

    fake_clock.set(MIDNIGHT + RANKED_GRACE)
    practice = client_of(bob).post(path)
    assert practice.status_code == 201 and practice.json()["ranked"] is False


def test_a_practice_of_a_running_daily_kept_from_before_takes_no_move(dailies, fake_clock):
    """Practice of today's deal is no longer started; one started before the rule (or a ranked
    game that linking an account made practice) turns up no more cards until the day is
    over, then goes on."""
    daily = dailies("munger")
    player = factories.player("prober")
    kept = Attempt.objects.create(
        player=player,
        game="munger",
        daily=daily,
        seed=daily.deal.seed,
        deal_string=daily.deal.deal_string,
        ranked=False,
        started_at=fake_clock.at,
    )
    client = client_of(player)
    move = daily.deal.certificate[0]

    answer = client.post(f"/api/attempts/{kept.pk}/moves/", {"seq": 0, "move": move})
    finish = client.post(f"/api/attempts/{kept.pk}/finish/", {"seq": 0})
    hint = client.post(f"/api/attempts/{kept.pk}/hint/")

    body = refused(answer)
    assert "revealed" not in body and "view" not in body
    refused(finish)
    assert hint.status_code == 409 and hint.json()["code"] == "hints_not_yet"
    assert Attempt.objects.get(pk=kept.pk).moves == []

    fake_clock.set(MIDNIGHT + RANKED_GRACE)
    later = client.post(f"/api/attempts/{kept.pk}/moves/", {"seq": 0, "move": move})
    assert later.status_code == 200 and later.json()["moves_played"] == 1


def test_no_race_on_a_running_dailys_deal_through_a_practice_of_it(dailies, fake_clock):
    """A practice on no daily whose deal is today's (kept from before the rule) does not make a
    race on it: the race would show the deal to every racer."""
    daily = dailies("masterpiece")
    player = factories.player("maker")
    kept = Attempt.objects.create(
        player=player,
        game="masterpiece",
        seed=daily.deal.seed,
        deal_string=daily.deal.deal_string,
        ranked=False,
        started_at=fake_clock.at,
        foundation_cards=4,
    )

    with pytest.raises(Conflict) as running:
        race_selectors.attempt_deal(attempt_id=kept.pk, player=player)

    assert running.value.code == "daily_running"
    fake_clock.set(MIDNIGHT + RANKED_GRACE)
    deal, _ = race_selectors.attempt_deal(attempt_id=kept.pk, player=player)
    assert deal.pk == daily.deal_id
