"""What a racer may not read while their race runs: the solver's line of the raced deal (the past
daily's solution, `games.selectors.solution_refusals`), hints on any game of that deal
(`games.services.hints.hint_refusals`) and the analysis of one
(`games.services.analysis.analysis_refusals`). Others may, and so may the racers once it is
over."""

from __future__ import annotations

import pytest

from games import services
from games.models import Attempt, DailyChallenge, Player
from races import services as races
from tests.games import factories
from tests.races.conftest import client_of, started

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def roomy_budget(settings):
    """A hint searches within a wall-clock budget: room enough on a loaded machine."""
    settings.HINT_SECONDS = {"munger": 30.0, "masterpiece": 30.0}


def solution(daily: DailyChallenge, player: Player | None = None):
    return client_of(player).get(f"/play/{daily.game}/{daily.date.isoformat()}/solution/")


def hint(attempt: Attempt, player: Player):
    return client_of(player).post(f"/api/attempts/{attempt.pk}/hint/")


def practice_of(daily: DailyChallenge, player: Player) -> Attempt:
    attempt, _ = services.attempt_start(player=player, daily=daily)
    assert not attempt.ranked and attempt.hints_open()
    return attempt


def test_a_racer_is_refused_the_raced_dailys_line_while_the_race_runs(
    alice, bob, carol, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob)
    mine, _ = races.race_attempt(code=race.code, player=alice)
    races.race_leave(code=race.code, player=bob)  # gone before playing: may still come back

    for racer in (alice, bob):
        refused = solution(past_daily, racer)
        assert refused.status_code == 409
        assert refused.json()["code"] == "solution_race"
        assert "racing on this deal" in refused.json()["detail"]
    served = solution(past_daily, carol)  # not in the race
    assert served.status_code == 200 and served.json()["steps"]
    assert "Cookie" in served["Vary"]  # whether it is shown depends on who asks
    assert solution(past_daily).status_code == 200  # a visitor with no player

    services.attempt_resign(attempt_id=mine.pk, player=alice)  # the race is over
    for racer in (alice, bob):
        assert solution(past_daily, racer).status_code == 200


def test_a_racer_gets_no_hint_on_the_raced_deal_in_any_game_while_the_race_runs(
    alice, bob, carol, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob)
    practice = practice_of(past_daily, alice)  # a second tab: practice of the same daily
    elsewhere, _ = services.attempt_start_practice(player=alice, game="masterpiece", seed=33)

    refused = hint(practice, alice)
    assert refused.status_code == 409, refused.content
    assert refused.json()["code"] == "hints_race"
    assert "racing on this deal" in refused.json()["detail"]
    assert hint(elsewhere, alice).status_code == 200  # another deal: hints as ever
    assert hint(practice_of(past_daily, carol), carol).status_code == 200  # not in the race

    for racer in (alice, bob):
        attempt, _ = races.race_attempt(code=race.code, player=racer)
        services.attempt_resign(attempt_id=attempt.pk, player=racer)
    answer = hint(practice, alice)  # the race is over
    assert answer.status_code == 200 and answer.json()["status"] == "move"


def test_a_race_on_a_fresh_deal_refuses_hints_on_a_practice_of_its_seed(alice, bob, monkeypatch):
    fresh = factories.certified_deal("masterpiece", approve=False)
    fresh.curation = "races"
    fresh.save(update_fields=["curation"])
    race = races.race_make(player=alice, game="masterpiece")
    assert race.deal_id == fresh.pk
    races.race_join(code=race.code, player=bob)
    races.race_start(code=race.code, player=alice)
    practice, _ = services.attempt_start_practice(
        player=bob, game="masterpiece", seed=int(fresh.seed)
    )

    refused = hint(practice, bob)

    assert refused.status_code == 409 and refused.json()["code"] == "hints_race"


def test_a_racer_gets_no_analysis_of_a_game_on_the_raced_deal_while_the_race_runs(
    alice, bob, carol, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob)
    mine, _ = races.race_attempt(code=race.code, player=alice)
    services.attempt_resign(attempt_id=mine.pk, player=alice)  # alice is done, bob races on
    practice = practice_of(past_daily, carol)
    services.attempt_resign(attempt_id=practice.pk, player=carol)

    refused = client_of(alice).post(f"/api/attempts/{mine.pk}/analysis/")
    assert refused.status_code == 409, refused.content
    assert refused.json()["code"] == "analysis_race"
    assert "racing on this deal" in refused.json()["detail"]
    # Not in the race: analysed as ever.
    assert client_of(carol).post(f"/api/attempts/{practice.pk}/analysis/").status_code == 202

    theirs, _ = races.race_attempt(code=race.code, player=bob)
    services.attempt_resign(attempt_id=theirs.pk, player=bob)  # the race is over
    assert client_of(alice).post(f"/api/attempts/{mine.pk}/analysis/").status_code == 202
