"""The races REST API (docs/api.md, "Races"): each endpoint's answer and its clear errors."""

from __future__ import annotations

import datetime as dt

import pytest

from games import clock, services
from games.models import Attempt
from races import services as races
from races.models import Race
from tests.games import factories
from tests.races.conftest import after_countdown, client_of, play_line

pytestmark = pytest.mark.django_db(transaction=True)


def test_make_join_ready_and_race_over_rest(alice, past_daily, monkeypatch):
    maker = client_of(alice)
    made = maker.post(
        "/api/races/", {"game": "masterpiece", "date": past_daily.date.isoformat(), "capacity": 2}
    )
    assert made.status_code == 201, made.content
    code = made.json()["code"]
    assert made.json()["you"] == {
        "in_race": True, "name": "alice", "named": True, "gone": False, "ready": False,
        "host": True, "attempt_id": None, "replays": False,
    }  # fmt: skip
    guest = client_of()  # nothing but the link: a guest is made
    assert guest.get(f"/api/races/{code}/").json()["you"]["named"] is False
    joined = guest.post(f"/api/races/{code}/join/")
    assert joined.status_code == 201 and joined.json()["you"]["in_race"]
    assert joined.json()["you"]["named"] is False  # "Guest 123456": the lobby offers a name
    assert guest.post(f"/api/races/{code}/join/").status_code == 200
    third = client_of().post(f"/api/races/{code}/join/")
    assert third.status_code == 409 and third.json()["code"] == "race_full"
    assert maker.post(f"/api/races/{code}/ready/", {"ready": True}).status_code == 200
    ready = guest.post(f"/api/races/{code}/ready/", {"ready": True}, format="json")
    assert ready.json()["status"] == "racing" and ready.json()["starts_at"]
    early = guest.post(f"/api/races/{code}/attempt/")
    assert early.status_code == 409 and early.json()["code"] == "countdown"
    after_countdown(monkeypatch, Race.objects.get(code=code))
    state = guest.post(f"/api/races/{code}/attempt/")
    assert state.status_code == 201 and state.json()["ranked"] is False
    assert not Attempt.objects.get(pk=state.json()["id"]).ranked
    replays = guest.get(f"/api/races/{code}/replays/")
    assert replays.status_code == 409 and replays.json()["code"] == "race_not_over"
    guest.post(f"/api/attempts/{state.json()['id']}/resign/")
    assert [r["name"] for r in guest.get(f"/api/races/{code}/replays/").json()] == [
        guest.get(f"/api/races/{code}/").json()["you"]["name"]
    ]


def test_unknown_and_bad_input_are_clear_errors(alice, past_daily, today_daily):
    client = client_of(alice)
    assert client.get("/api/races/nosuchcode/").json()["code"] == "race_not_found"
    assert client.post("/api/races/nosuchcode/join/").status_code == 404
    running = client.post(
        "/api/races/", {"game": "masterpiece", "date": today_daily.date.isoformat()}
    )
    assert running.status_code == 409 and running.json()["code"] == "daily_running"
    bad = client.post("/api/races/", {"game": "masterpiece", "capacity": 9}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    made = client.post("/api/races/", {"game": "masterpiece", "date": past_daily.date.isoformat()})
    code = made.json()["code"]
    stranger = client_of()
    assert stranger.post(f"/api/races/{code}/ready/", {"ready": True}).json()["code"] == (
        "not_in_race"
    )
    assert client.post(f"/api/races/{code}/start/").json()["code"] == "too_few_racers"
    assert stranger.get(f"/api/races/{code}/replays/").status_code == 403
    assert Race.objects.count() == 1


def test_the_race_api_is_in_the_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for path in ("", "join/", "leave/", "ready/", "start/", "attempt/", "rematch/", "replays/"):
        assert f"/api/races/{{code}}/{path}" in paths
    assert "/api/races/" in paths and "/api/races/offer/{attempt_id}/" in paths


def test_the_end_of_a_game_offers_a_race_on_its_deal_when_a_race_may_use_it(
    alice, bob, past_daily, today_daily
):
    past, _ = services.attempt_start(player=alice, daily=past_daily)
    today, _ = services.attempt_start(player=alice, daily=today_daily)
    certified = services.attempt_start_on_deal(
        player=alice,
        game="masterpiece",
        deal_string=past_daily.deal.deal_string,
        seed=None,
    )
    unproven, _ = services.attempt_start_practice(player=alice, game="masterpiece", seed=987654)
    client = client_of(alice)

    def offer(attempt):
        answer = client.get(f"/api/races/offer/{attempt.pk}/")
        assert answer.status_code == 200, answer.content
        return answer.json()

    assert offer(past) == {"raceable": True, "reason": None}
    assert offer(certified) == {"raceable": True, "reason": None}
    assert offer(today) == {"raceable": False, "reason": "daily_running"}
    assert offer(unproven) == {"raceable": False, "reason": "not_certified"}
    assert client_of(bob).get(f"/api/races/offer/{past.pk}/").status_code == 404

    made = client.post("/api/races/", {"game": "masterpiece", "attempt": past.pk})
    assert made.status_code == 201 and made.json()["daily"] == past_daily.date.isoformat()
    assert Race.objects.get(code=made.json()["code"]).deal_id == past_daily.deal_id
    fresh = client.post("/api/races/", {"game": "masterpiece", "attempt": certified.pk})
    assert fresh.status_code == 201 and fresh.json()["daily"] is None
    refused = client.post("/api/races/", {"game": "masterpiece", "attempt": today.pk})
    assert refused.status_code == 409 and refused.json()["code"] == "daily_running"
    refused = client.post("/api/races/", {"game": "masterpiece", "attempt": unproven.pk})
    assert refused.status_code == 409 and refused.json()["code"] == "not_certified"
    theirs = client_of(bob).post("/api/races/", {"game": "masterpiece", "attempt": past.pk})
    assert theirs.status_code == 404


def test_replays_show_each_finished_game_as_its_racer_saw_it(alice, bob, monkeypatch):
    daily = factories.daily("munger", clock.today() - dt.timedelta(days=2))
    race = races.race_make(player=alice, game="munger", date=daily.date)
    races.race_join(code=race.code, player=bob)
    races.race_start(code=race.code, player=alice)
    after_countdown(monkeypatch, race)
    mine, _ = races.race_attempt(code=race.code, player=alice)
    theirs, _ = races.race_attempt(code=race.code, player=bob)
    line = daily.deal.certificate[:12]
    play_line(mine.pk, alice, line)
    services.attempt_resign(attempt_id=mine.pk, player=alice)
    alice_client, bob_client = client_of(alice), client_of(bob)
    assert alice_client.get(f"/api/races/{race.code}/").json()["you"]["replays"]
    assert not bob_client.get(f"/api/races/{race.code}/").json()["you"]["replays"]
    assert bob_client.get(f"/api/races/{race.code}/replays/").status_code == 409

    replays = alice_client.get(f"/api/races/{race.code}/replays/").json()
    assert [(r["name"], r["status"], r["moves"]) for r in replays] == [("alice", "resigned", 12)]
    replay = replays[0]
    assert set(replay) == {"name", "status", "moves", "start", "steps"}  # never the deal
    assert [s["move"] for s in replay["steps"]] == line
    for view in [replay["start"], *(s["view"] for s in replay["steps"])]:
        for column in view["tableau"]:
            assert all(c["card"] is None for c in column if not c["face_up"])
    assert replay["start"]["stock"]["known"] == []  # the stock stays face down
    services.attempt_resign(attempt_id=theirs.pk, player=bob)
    assert [r["name"] for r in bob_client.get(f"/api/races/{race.code}/replays/").json()] == [
        "alice",
        "bob",
    ]


def test_looking_races_up_by_code_is_throttled_per_address(settings, alice, past_daily):
    # A race's code is its key: one address trying codes by the hundred is stopped, and so is
    # one asking for the replays of codes it guesses.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "races_ip": "5/min",
        },
    }
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    guesser = client_of()
    answers = [
        guesser.get(f"/api/races/{code}/", REMOTE_ADDR="203.0.113.50").status_code
        for code in ["AAAAAAAA", "BBBBBBBB", race.code, "CCCCCCCC", "DDDDDDDD", race.code]
    ]
    replays = guesser.get(f"/api/races/{race.code}/replays/", REMOTE_ADDR="203.0.113.50")
    elsewhere = client_of().get(f"/api/races/{race.code}/", REMOTE_ADDR="198.51.100.50")

    assert answers == [404, 404, 200, 404, 404, 429]
    assert replays.status_code == 429 and replays.json()["code"] == "throttled"
    assert elsewhere.status_code == 200


def test_a_held_win_is_listed_under_review_and_its_racer_named_in_the_results(
    alice, bob, past_daily, monkeypatch
):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    races.race_join(code=race.code, player=bob)
    races.race_start(code=race.code, player=alice)
    after_countdown(monkeypatch, race)
    mine, _ = races.race_attempt(code=race.code, player=alice)
    theirs, _ = races.race_attempt(code=race.code, player=bob)
    play_line(mine.pk, alice, past_daily.deal.certificate, human=False)  # held: too fast
    play_line(theirs.pk, bob, past_daily.deal.certificate[:1])
    services.attempt_resign(attempt_id=theirs.pk, player=bob)

    answer = client_of(bob).get(f"/api/races/{race.code}/").json()
    ids = {r["name"]: r["id"] for r in answer["racers"]}
    assert [
        {k: r[k] for k in ("id", "name", "rank", "held", "won")} for r in answer["results"]
    ] == [
        {"id": ids["alice"], "name": "alice", "rank": None, "held": True, "won": True},
        {"id": ids["bob"], "name": "bob", "rank": 1, "held": False, "won": False},
    ]
    assert answer["status"] == "over" and answer["par"] == past_daily.deal.par
