"""The games REST API (docs/api.md): its shape and the play protocol.

Every bad input is answered with its status and stable code, and changes nothing.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from games import clock, services
from games.api import throttles
from games.api.parsers import BoundedJSONParser
from games.engine import game_class, replay
from games.engine.cards import TEXT
from games.engine.errors import REFUSALS
from games.engine.solver import safe_foundation_moves
from games.errors import TooLarge
from games.identity import COOKIE_NAME
from games.models import Attempt, Player
from games.state import position
from tests.fairplay.lines import own_line
from tests.games import factories

# -- helpers ---------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def fresh_throttles(monkeypatch):
    """Each test counts its requests afresh. Throttle keys get a namespace of their own rather
    than clearing the cache: under Redis the cache shares a server with Celery's broker."""
    monkeypatch.setattr(
        throttles.ScopeThrottle, "cache_format", f"throttle_{uuid.uuid4().hex}_%(scope)s_%(ident)s"
    )


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def client_of(player: Player | None = None, **kwargs) -> APIClient:
    """A client (a browser, a device) holding `player`'s cookie, or no cookie."""
    client = APIClient(**kwargs)
    if player is not None:
        client.cookies[COOKIE_NAME] = services.player_token_issue(player=player)
    return client


def start(client: APIClient, daily) -> dict:
    response = client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/")
    assert response.status_code in (200, 201), response.content
    return response.json()


def move(client: APIClient, attempt_id: int, seq: int, token: str, **extra):
    return client.post(f"/api/attempts/{attempt_id}/moves/", {"seq": seq, "move": token, **extra})


def stored(attempt_id: int) -> tuple:
    """What a bad request must leave as it was."""
    attempt = Attempt.objects.get(pk=attempt_id)
    return (list(attempt.moves), attempt.next_seq, attempt.status, attempt.finished_at)


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    return body


@pytest.fixture
def today_daily(db):
    return factories.daily("masterpiece")


@pytest.fixture
def alice_client(alice):
    return client_of(alice)


@pytest.fixture
def bob_client(bob):
    return client_of(bob)


@pytest.fixture
def alice_playing(alice_client, today_daily):
    """Alice's ranked attempt at today's Masterpiece daily, one certificate move in."""
    state = start(alice_client, today_daily)
    first = today_daily.deal.certificate[0]
    assert move(alice_client, state["id"], 0, first).status_code == 200
    return state["id"]


# -- the happy path --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_guest_plays_todays_daily_to_a_verified_win_and_then_sees_par(today_daily, monkeypatch):
    browser = client_of()
    # A person's pace (games/fairplay.py holds machine-speed results): the clock moves on by a
    # few irregular seconds before each move, the first after reading the deal.
    start, elapsed = clock.now(), [0.0]
    monkeypatch.setattr(clock, "now", lambda: start + dt.timedelta(seconds=elapsed[0]))

    response = browser.post(f"/api/dailies/masterpiece/{today_daily.date}/attempts/")

    assert response.status_code == 201
    assert COOKIE_NAME in response.cookies
    state = response.json()
    assert state["game"] == "masterpiece"
    assert state["date"] == today_daily.date.isoformat()
    assert state["ranked"] is True
    assert state["status"] == "playing"
    assert (state["seq"], state["moves_played"]) == (0, 0)
    assert state["legal"] == sorted(state["legal"]) and state["legal"]
    assert state["par"] is None
    assert state["verified"] is False
    assert state["first_move_at"] is None and state["finished_at"] is None
    assert "deal" not in state

    listing = browser.get("/api/dailies/").json()
    assert listing == [
        {
            "game": "masterpiece",
            "date": today_daily.date.isoformat(),
            "difficulty": today_daily.deal.difficulty,
            "players": 0,  # opening the deal is not playing it
            "winners": 0,
            "par": None,  # nor whether it is proven, while it is hidden
            "par_proven": None,
            "par_lower_bound": None,
            "your_attempt": {"id": state["id"], "status": "playing", "ranked": True},
        }
    ]

    # A winning line of its own (the solver's moves in another order, with detours): a line as
    # short as the par is held as a solver's.
    line = own_line(today_daily)
    for seq, token in enumerate(line):
        elapsed[0] += 8.0 if seq == 0 else 1.5 + (seq * 7919 % 31) / 10
        assert token in state["legal"]
        response = move(browser, state["id"], seq, token)
        assert response.status_code == 200, response.content
        state = response.json()
        assert state["seq"] == seq + 1
        assert state["replayed"] is False

    assert state["status"] == "won"
    assert state["verified"] is True
    assert state["foundation_cards"] == 52
    assert state["legal"] == []
    assert state["par"] == today_daily.deal.par
    assert state["finished_at"] is not None
    assert state["elapsed_seconds"] >= 0
    attempt = Attempt.objects.get(pk=state["id"])
    assert attempt.moves == line
    assert attempt.verified and attempt.review == Attempt.Review.NONE

    detail = browser.get(f"/api/attempts/{state['id']}/").json()
    assert detail["status"] == "won" and detail["par"] == today_daily.deal.par
    summary = browser.get(f"/api/dailies/masterpiece/{today_daily.date}/").json()
    assert (summary["players"], summary["winners"]) == (1, 1)
    assert summary["par"] == today_daily.deal.par
    assert summary["par_proven"] == today_daily.deal.par_optimal


@pytest.mark.django_db
def test_a_second_device_with_the_same_cookie_resumes_the_same_attempt(
    alice, alice_playing, today_daily
):
    phone = client_of(alice)

    response = phone.post(f"/api/dailies/masterpiece/{today_daily.date}/attempts/")

    assert response.status_code == 200
    state = response.json()
    assert state["id"] == alice_playing
    assert state["seq"] == 1
    assert Attempt.objects.filter(player=alice).count() == 1


@pytest.mark.django_db
def test_the_attempt_detail_shows_the_position_legal_moves_and_times(alice_client, alice_playing):
    state = alice_client.get(f"/api/attempts/{alice_playing}/").json()

    assert state["id"] == alice_playing
    assert state["seq"] == state["moves_played"] == 1
    assert state["can_undo"] is True
    assert state["view"]["game"] == "masterpiece"
    assert state["first_move_at"] is not None
    assert set(state) >= {"started_at", "finished_at", "elapsed_seconds", "verified", "par"}


@pytest.mark.django_db
def test_resigning_ends_the_attempt_as_resigned(alice_client, alice_playing):
    response = alice_client.post(f"/api/attempts/{alice_playing}/resign/")

    assert response.status_code == 200
    assert response.json()["status"] == "resigned"
    assert response.json()["par"] is not None  # finished: par is shown
    assert response.json()["can_undo"] is False and response.json()["blocked"] is False
    assert Attempt.objects.get(pk=alice_playing).status == "resigned"


@pytest.mark.django_db
def test_practice_on_a_seed_is_never_ranked_and_resumes(alice_client):
    response = alice_client.post("/api/practice/", {"game": "munger", "seed": 11})

    assert response.status_code == 201
    state = response.json()
    assert (state["ranked"], state["date"], state["par"]) == (False, None, None)
    again = alice_client.post("/api/practice/", {"game": "munger", "seed": 11})
    assert again.status_code == 200 and again.json()["id"] == state["id"]


@pytest.mark.django_db
def test_practice_without_a_seed_picks_a_random_one(alice, alice_client):
    response = alice_client.post("/api/practice/", {"game": "masterpiece"})

    assert response.status_code == 201
    attempt = Attempt.objects.get(pk=response.json()["id"])
    assert attempt.player == alice and attempt.seed is not None and not attempt.ranked
    assert "seed" not in response.json()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "seed": 1},
        {"game": "munger", "seed": -1},
        {"game": "munger", "seed": 2**64},
        {"game": "munger", "seed": "11"},
        {"seed": 11},
    ],
)
def test_practice_with_a_bad_game_or_seed_is_400(alice_client, body):
    response = alice_client.post("/api/practice/", body)

    assert_error(response, 400, "invalid")
    assert not Attempt.objects.exists()


# -- bad moves: the answer, and nothing changed ----------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("token", ["X9>Q", "T3>T5", "M1M2", "m1>m2", " M1>F"])
def test_a_malformed_move_is_400_and_stores_nothing(alice_client, alice_playing, token):
    before = stored(alice_playing)

    response = move(alice_client, alice_playing, 1, token)

    assert_error(response, 400, "malformed_move")
    assert stored(alice_playing) == before


@pytest.mark.django_db
def test_a_move_token_longer_than_8_characters_is_400(alice_client, alice_playing):
    before = stored(alice_playing)

    response = move(alice_client, alice_playing, 1, "M1>F" * 3)

    body = assert_error(response, 400, "invalid")
    assert "move" in body["fields"]
    assert stored(alice_playing) == before


@pytest.mark.django_db
def test_an_illegal_move_is_422_with_the_reason_and_the_legal_moves(alice_client, alice_playing):
    state = alice_client.get(f"/api/attempts/{alice_playing}/").json()
    candidates = [m.text for m in game_class("masterpiece").CANDIDATES]
    illegal = next(token for token in candidates if token not in state["legal"])
    before = stored(alice_playing)

    response = move(alice_client, alice_playing, 1, illegal)

    body = assert_error(response, 422, "illegal_move")
    assert illegal in body["detail"]
    assert body["legal"] == state["legal"]
    # Why, as data: the engine's reason code and its facts, for a sentence in any language.
    assert body["reason"] in REFUSALS and set(body["facts"]) >= set(REFUSALS[body["reason"]])
    assert stored(alice_playing) == before


@pytest.mark.django_db
@pytest.mark.parametrize("seq", [2, 7, 10**6])
def test_a_seq_from_the_future_is_409_with_the_expected_seq(alice_client, alice_playing, seq):
    legal = alice_client.get(f"/api/attempts/{alice_playing}/").json()["legal"]
    before = stored(alice_playing)

    response = move(alice_client, alice_playing, seq, legal[0])

    body = assert_error(response, 409, "wrong_seq")
    assert body["expected_seq"] == 1
    assert stored(alice_playing) == before


@pytest.mark.django_db
def test_the_same_seq_sent_again_answers_the_same_and_stores_it_once(
    alice_client, alice_playing, today_daily
):
    first = today_daily.deal.certificate[0]
    before = stored(alice_playing)

    response = move(alice_client, alice_playing, 0, first)

    assert response.status_code == 200
    assert response.json()["replayed"] is True
    assert response.json()["seq"] == 1
    assert stored(alice_playing) == before == ([first], 1, "playing", None)


@pytest.mark.django_db
def test_another_move_at_a_played_seq_is_409_seq_taken(alice_client, alice_playing, today_daily):
    other = next(t for t in ["M1>F", "M2>F", "A1>C"] if t != today_daily.deal.certificate[0])
    before = stored(alice_playing)

    response = move(alice_client, alice_playing, 0, other)

    assert assert_error(response, 409, "seq_taken")["expected_seq"] == 1
    assert stored(alice_playing) == before


@pytest.mark.django_db
def test_someone_elses_attempt_answers_as_an_unknown_one_to_read_play_and_resign(
    bob_client, alice_playing, today_daily
):
    """404 for both: a 403 for another's attempt would tell which ids exist."""
    before = stored(alice_playing)
    token = today_daily.deal.certificate[1]
    answers = []

    for attempt_id in (alice_playing, alice_playing + 1000):
        for response in (
            bob_client.get(f"/api/attempts/{attempt_id}/"),
            move(bob_client, attempt_id, 1, token),
            bob_client.post(f"/api/attempts/{attempt_id}/resign/"),
            bob_client.post(f"/api/attempts/{attempt_id}/continue/"),
        ):
            answers.append(assert_error(response, 404, "attempt_not_found"))
    assert all(answer == answers[0] for answer in answers)
    assert stored(alice_playing) == before


@pytest.mark.django_db
def test_a_visitor_without_a_cookie_cannot_touch_an_attempt_and_gets_no_player(alice_playing):
    stranger = client_of()
    before = stored(alice_playing)
    players = Player.objects.count()

    assert_error(stranger.get(f"/api/attempts/{alice_playing}/"), 404, "attempt_not_found")
    assert_error(move(stranger, alice_playing, 1, "M1>F"), 404, "attempt_not_found")
    assert stored(alice_playing) == before
    assert Player.objects.count() == players


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/attempts/{id}/", "/api/attempts/{id}/resign/"])
def test_an_unknown_attempt_is_404(alice_client, alice_playing, path):
    method = alice_client.get if path.endswith("s/{id}/") else alice_client.post
    response = method(path.format(id=alice_playing + 1000))

    assert_error(response, 404, "attempt_not_found")


@pytest.mark.django_db
def test_an_attempt_id_too_large_for_the_database_is_a_json_404(alice_client):
    response = alice_client.get("/api/attempts/" + "9" * 30 + "/")

    assert_error(response, 404, "not_found")


@pytest.mark.django_db
def test_a_finished_attempt_takes_no_more_moves(alice_client, alice_playing, today_daily):
    alice_client.post(f"/api/attempts/{alice_playing}/resign/")
    before = stored(alice_playing)

    response = move(alice_client, alice_playing, 1, today_daily.deal.certificate[1])

    assert assert_error(response, 409, "attempt_finished")["expected_seq"] == 1
    assert_error(
        alice_client.post(f"/api/attempts/{alice_playing}/resign/"), 409, "attempt_finished"
    )
    assert stored(alice_playing) == before


# -- bad bodies ------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, field",
    [
        ({"seq": 1}, "move"),
        ({"move": "M1>F"}, "seq"),
        ({"seq": "1", "move": "M1>F"}, "seq"),
        ({"seq": 1.0, "move": "M1>F"}, "seq"),
        ({"seq": True, "move": "M1>F"}, "seq"),
        ({"seq": -1, "move": "M1>F"}, "seq"),
        ({"seq": 1, "move": 5}, "move"),
        ({"seq": 1, "move": None}, "move"),
        ({"seq": 1, "move": ["M1>F"]}, "move"),
        ({"seq": 1, "move": "M1>F", "player": 2}, "player"),
        ({"seq": 1, "move": "M1>F", "time": 0.1}, "time"),
        ([1, "M1>F"], "non_field_errors"),
        ("M1>F", "non_field_errors"),
    ],
)
def test_a_body_with_missing_extra_or_wrong_typed_fields_is_400(
    alice_client, alice_playing, body, field
):
    before = stored(alice_playing)

    response = alice_client.post(f"/api/attempts/{alice_playing}/moves/", body, format="json")

    body = assert_error(response, 400, "invalid")
    assert field in body["fields"]
    assert stored(alice_playing) == before


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ['{"seq": 1, "move": ', "seq=1&move=M1>F", "", "NaN", "[" * 16_000])
def test_a_body_that_is_not_json_is_400_malformed(alice_client, alice_playing, raw):
    before = stored(alice_playing)

    response = alice_client.post(
        f"/api/attempts/{alice_playing}/moves/", raw, content_type="application/json"
    )

    if raw == "":  # no body at all: the fields are missing
        assert_error(response, 400, "invalid")
    else:
        assert_error(response, 400, "malformed")
    assert stored(alice_playing) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ('{"seq": 1, "move": "\\ud800"}', "invalid"),
        ('{"seq": 1, "move": "M1>F", "\\ud800": 1}', "invalid"),
        ('{"seq": 1, "move": "M1>F\\u0000"}', "malformed"),  # NUL: refused before any view
    ],
)
def test_strings_that_are_not_text_are_400(alice_client, alice_playing, raw, code):
    before = stored(alice_playing)

    response = alice_client.post(
        f"/api/attempts/{alice_playing}/moves/", raw, content_type="application/json"
    )

    assert_error(response, 400, code)
    assert stored(alice_playing) == before


@pytest.mark.django_db
def test_a_form_encoded_body_is_415(alice_client, alice_playing):
    before = stored(alice_playing)

    response = alice_client.post(
        f"/api/attempts/{alice_playing}/moves/",
        "seq=1&move=M1%3EF",
        content_type="application/x-www-form-urlencoded",
    )

    assert_error(response, 415, "unsupported_media_type")
    assert stored(alice_playing) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw",
    [b"x" * 2**20, json.dumps({"seq": 1, "move": "M1>F", "pad": "x" * 2**20}).encode()],
    ids=["junk", "json"],
)
def test_a_1_mib_body_is_413_too_large(alice_client, alice_playing, raw):
    before = stored(alice_playing)

    response = alice_client.post(
        f"/api/attempts/{alice_playing}/moves/", raw, content_type="application/json"
    )

    assert_error(response, 413, "too_large")
    assert stored(alice_playing) == before


@pytest.mark.django_db
def test_a_large_body_is_413_even_where_the_body_is_not_read(alice_client, alice_playing):
    response = alice_client.post(
        f"/api/attempts/{alice_playing}/resign/", b"x" * 2**20, content_type="application/json"
    )

    assert_error(response, 413, "too_large")
    assert Attempt.objects.get(pk=alice_playing).status == "playing"


@pytest.mark.django_db
def test_a_body_of_unknown_length_is_not_read(alice_client, alice_playing):
    """Without Content-Length (chunked), neither Django's WSGI request nor DRF reads the body:
    the request has no fields."""
    before = stored(alice_playing)

    response = alice_client.post(
        f"/api/attempts/{alice_playing}/moves/",
        b"x" * 2**20,
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
    )

    assert_error(response, 400, "invalid")
    assert stored(alice_playing) == before


def test_the_parser_measures_bodies_whose_length_was_understated():
    import io

    with pytest.raises(TooLarge):
        BoundedJSONParser().parse(io.BytesIO(b"[" + b"1," * 10_000 + b"1]"))
    assert BoundedJSONParser().parse(io.BytesIO(b'{"seq": 1}')) == {"seq": 1}


@pytest.mark.django_db
def test_a_body_refused_by_djangos_own_limit_is_413(settings, alice_client, alice_playing):
    settings.API_MAX_BODY_BYTES = 10**6
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100

    response = move(alice_client, alice_playing, 1, "M1>F", pad="x" * 200)

    assert_error(response, 413, "too_large")


# -- dailies, dates and games ----------------------------------------------------------------


@pytest.mark.django_db
def test_a_future_daily_is_404_to_read_and_to_start(alice_client):
    tomorrow = clock.today() + dt.timedelta(days=1)
    factories.daily("masterpiece", tomorrow)

    assert_error(alice_client.get(f"/api/dailies/masterpiece/{tomorrow}/"), 404, "daily_not_found")
    assert_error(
        alice_client.post(f"/api/dailies/masterpiece/{tomorrow}/attempts/"), 404, "daily_not_found"
    )
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_a_day_without_a_daily_is_404(alice_client):
    response = alice_client.get("/api/dailies/munger/2001-01-01/")

    assert_error(response, 404, "daily_not_found")


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unknown_game_is_404(alice_client, method):
    path = f"/api/dailies/chess/{clock.today()}/" + ("attempts/" if method == "post" else "")

    response = getattr(alice_client, method)(path)

    assert_error(response, 404, "unknown_game")
    assert not Attempt.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("date", ["2026-13-01", "2026-02-30", "yesterday", "20260101", "2026-1-1"])
def test_a_bad_date_is_400(alice_client, today_daily, date):
    assert_error(alice_client.get(f"/api/dailies/masterpiece/{date}/"), 400, "bad_date")
    assert_error(alice_client.post(f"/api/dailies/masterpiece/{date}/attempts/"), 400, "bad_date")
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_a_past_daily_is_practice_with_its_par_shown(alice_client, today_daily):
    last_week = factories.daily("munger", clock.today() - dt.timedelta(days=7))

    summary = alice_client.get(f"/api/dailies/munger/{last_week.date}/").json()
    state = start(alice_client, last_week)

    assert summary["par"] == last_week.deal.par
    assert state["ranked"] is False
    assert state["par"] == last_week.deal.par
    assert [d["game"] for d in alice_client.get("/api/dailies/").json()] == ["masterpiece"]


@pytest.mark.django_db
def test_listing_the_dailies_creates_no_player(today_daily):
    response = client_of().get("/api/dailies/")

    assert response.status_code == 200
    assert response.json()[0]["your_attempt"] is None
    assert COOKIE_NAME not in response.cookies
    assert not Player.objects.exists()


# -- the day boundary ------------------------------------------------------------------------


@pytest.mark.django_db
def test_at_235959_a_daily_is_today_and_at_midnight_it_is_past(travel, alice, bob):
    travel(dt.datetime(2026, 3, 10, 23, 59, 59))
    monday = factories.daily("munger", dt.date(2026, 3, 10))
    tuesday = factories.daily("munger", dt.date(2026, 3, 11))
    alice_client, bob_client = client_of(alice), client_of(bob)

    ranked = start(alice_client, monday)
    assert ranked["ranked"] is True
    assert_error(bob_client.get("/api/dailies/munger/2026-03-11/"), 404, "daily_not_found")
    assert_error(
        bob_client.post("/api/dailies/munger/2026-03-11/attempts/"), 404, "daily_not_found"
    )
    assert [d["date"] for d in bob_client.get("/api/dailies/").json()] == ["2026-03-10"]

    travel(dt.datetime(2026, 3, 11, 0, 0, 0))
    # Monday's ranked play runs until 00:05: no practice of it shows its cards before.
    assert_error(bob_client.post("/api/dailies/munger/2026-03-10/attempts/"), 409, "daily_running")
    assert alice_client.get(f"/api/attempts/{ranked['id']}/").json()["par"] == monday.deal.par
    assert start(bob_client, tuesday)["ranked"] is True
    assert [d["date"] for d in bob_client.get("/api/dailies/").json()] == ["2026-03-11"]
    travel(dt.datetime(2026, 3, 11, 0, 5, 0))
    practice = bob_client.post("/api/dailies/munger/2026-03-10/attempts/")
    assert practice.status_code == 201
    assert practice.json()["ranked"] is False
    assert practice.json()["par"] == monday.deal.par


@pytest.mark.django_db
def test_the_state_names_the_last_card_move_and_forgets_it_after_an_undo(alice_client):
    daily = factories.daily("munger")
    state = start(alice_client, daily)
    assert state["last_move"] is None
    token = daily.deal.certificate[0]
    listed = next(m for m in state["moves"] if m["move"] == token)

    after = move(alice_client, state["id"], 0, token).json()

    assert after["last_move"] == listed
    assert alice_client.get(f"/api/attempts/{state['id']}/").json()["last_move"] == listed
    assert move(alice_client, state["id"], 1, "U").json()["last_move"] is None


@pytest.mark.django_db
def test_the_state_lists_the_safe_foundation_moves_among_the_legal_ones(alice_client):
    daily = factories.daily("munger")
    state = start(alice_client, daily)
    seen = 0
    for seq, token in enumerate(daily.deal.certificate):
        attempt = Attempt.objects.get(pk=state["id"])
        assert state["safe_moves"] == safe_foundation_moves(position(attempt))
        assert set(state["safe_moves"]) <= set(state["legal"])
        seen += len(state["safe_moves"])
        state = move(alice_client, state["id"], seq, token).json()
    assert seen, "the winning line met no safe foundation move"
    assert state["status"] == "won" and state["safe_moves"] == []


# -- no hidden card ever leaves the server ---------------------------------------------------


def hidden_codes(attempt: Attempt) -> set[str]:
    """The codes of Munger cards still hidden in the authoritative position: face-down tableau
    cards and the stock (the engine's full view), minus any the player has seen."""
    game = replay(attempt.game, attempt.deal_string, attempt.moves).game
    full = game.view(full=True)
    hidden = {slot["card"] for pile in full["tableau"] for slot in pile if not slot["face_up"]}
    hidden |= set(full["stock"]["known"])  # the full view lists the whole stock
    return hidden - {TEXT[card] for card in game.revealed}


@pytest.mark.django_db
def test_no_munger_payload_carries_a_hidden_card(alice_client):
    daily = factories.daily("munger")
    path = f"/api/dailies/munger/{daily.date}/"
    responses = []

    def scan(response) -> None:
        assert response.status_code < 500
        attempt = Attempt.objects.get(pk=attempt_id)
        hidden = hidden_codes(attempt)
        leaked = {code for code in hidden if code.encode() in response.content}
        assert not leaked, (response.content, leaked)
        responses.append(response)

    first = alice_client.post(path + "attempts/")
    attempt_id = first.json()["id"]
    assert len(hidden_codes(Attempt.objects.get(pk=attempt_id))) == 31
    scan(first)
    scan(alice_client.get(path))
    scan(alice_client.get("/api/dailies/"))
    legal = set(first.json()["legal"])
    for token in [m.text for m in game_class("munger").CANDIDATES if m.text not in legal]:
        scan(move(alice_client, attempt_id, 0, token))  # 422, with the rules' reason
    for seq, token in enumerate(daily.deal.certificate):
        scan(move(alice_client, attempt_id, seq, token))
        scan(alice_client.get(f"/api/attempts/{attempt_id}/"))
        if seq == 10:
            scan(move(alice_client, attempt_id, seq, token))  # replayed
            scan(alice_client.post(path + "attempts/"))  # resumed
    scan(alice_client.get("/api/players/me/"))
    scan(alice_client.get("/api/players/me/attempts/"))

    assert responses[-3].json()["status"] == "won"
    assert {r.status_code for r in responses} == {200, 201, 422}


# -- throttling ------------------------------------------------------------------------------


def rates(settings, **changed: str) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **changed},
    }


@pytest.mark.django_db
def test_a_player_sending_moves_too_fast_is_429(settings, alice_client, alice_playing, today_daily):
    rates(settings, moves_player="2/min")
    certificate = today_daily.deal.certificate
    assert move(alice_client, alice_playing, 1, certificate[1]).status_code == 200
    before = stored(alice_playing)

    response = move(alice_client, alice_playing, 2, certificate[2])

    body = assert_error(response, 429, "throttled")
    assert 55 <= body["retry_after"] <= 60
    assert response["Retry-After"] == str(body["retry_after"])
    assert stored(alice_playing) == before


@pytest.mark.django_db
def test_starts_are_throttled_per_ip_address_whoever_plays(settings, today_daily):
    rates(settings, starts_ip="2/min")
    path = f"/api/dailies/masterpiece/{today_daily.date}/attempts/"

    assert client_of().post(path).status_code == 201
    assert client_of().post(path).status_code == 201
    assert_error(client_of().post(path), 429, "throttled")
    elsewhere = client_of(REMOTE_ADDR="192.0.2.7").post(path)
    assert elsewhere.status_code == 201
    assert Attempt.objects.count() == 3


@pytest.mark.django_db
def test_starts_are_throttled_per_player_whatever_the_address(settings, alice, today_daily):
    rates(settings, starts_player="1/min")
    path = f"/api/dailies/masterpiece/{today_daily.date}/attempts/"

    assert client_of(alice).post(path).status_code == 201
    response = client_of(alice, REMOTE_ADDR="192.0.2.8").post(path)

    assert_error(response, 429, "throttled")


# -- other methods and paths -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_wrong_method_is_405(alice_client, alice_playing):
    response = alice_client.get(f"/api/attempts/{alice_playing}/moves/")

    assert_error(response, 405, "method_not_allowed")
    assert "POST" in response["Allow"]
    assert_error(alice_client.delete("/api/dailies/"), 405, "method_not_allowed")


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/nothing/", "/api/attempts/abc/", "/api/dailies"])
def test_an_unknown_api_path_is_a_json_404(path):
    response = client_of().get(path)

    assert_error(response, 404, "not_found")


# -- players and accounts --------------------------------------------------------------------


@pytest.mark.django_db
def test_me_shows_the_player_and_their_stats(alice, alice_client, alice_playing):
    me = alice_client.get("/api/players/me/").json()

    assert me["display_name"] == "alice"
    assert me["username"] is None
    assert me["stats"] == {"dailies_played": 1, "dailies_won": 0}
    assert [a["id"] for a in me["recent_attempts"]] == [alice_playing]


@pytest.mark.django_db
def test_me_for_a_new_visitor_creates_no_one_until_asked():
    browser = client_of()
    assert_error(browser.get("/api/players/me/"), 404, "no_player")
    assert not Player.objects.exists()

    response = browser.post("/api/players/", {"display_name": "Zoé"})

    assert response.status_code == 201 and response.json()["display_name"] == "Zoé"
    assert Player.objects.count() == 1
    assert COOKIE_NAME in response.cookies
    assert browser.get("/api/players/me/").json()["display_name"] == "Zoé"


@pytest.mark.django_db
def test_a_player_renames_themselves(alice, alice_client):
    response = alice_client.patch("/api/players/me/", {"display_name": "  Alice  the  Great "})

    assert response.status_code == 200
    assert response.json()["display_name"] == "Alice the Great"
    alice.refresh_from_db()
    assert alice.display_name == "Alice the Great"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"display_name": "bob"}, 409, "display_name_taken"),
        ({"display_name": "BOB"}, 409, "display_name_taken"),
        ({"display_name": "x"}, 400, "invalid"),  # shorter than the schema's minLength
        ({"display_name": "x    "}, 400, "bad_display_name"),  # one letter once collapsed
        ({"display_name": "<script>"}, 400, "bad_display_name"),
        ({"display_name": "Guest 123456"}, 400, "bad_display_name"),
        ({"display_name": "a" * 65}, 400, "invalid"),
        ({"display_name": 12}, 400, "invalid"),
        ({"display_name": "carol", "user": 1}, 400, "invalid"),
    ],
)
def test_a_bad_display_name_is_refused(alice, bob, alice_client, body, status, code):
    assert_error(alice_client.patch("/api/players/me/", body), status, code)
    alice.refresh_from_db()
    assert alice.display_name == "alice"


@pytest.mark.django_db
def test_my_attempts_are_paginated_newest_first(alice, alice_client):
    ids = [
        alice_client.post("/api/practice/", {"game": "masterpiece", "seed": s}).json()["id"]
        for s in range(1, 4)
    ]

    page = alice_client.get("/api/players/me/attempts/?page_size=2").json()

    assert page["count"] == 3
    assert [a["id"] for a in page["results"]] == ids[::-1][:2]
    assert page["next"] is not None
    assert_error(alice_client.get("/api/players/me/attempts/?page=9"), 404, "not_found")


@pytest.mark.django_db
def test_my_attempts_without_a_cookie_is_empty_and_creates_no_player():
    response = client_of().get("/api/players/me/attempts/")

    assert response.json()["count"] == 0
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_registering_keeps_the_guests_attempts_and_logs_in(today_daily):
    browser = client_of()
    state = start(browser, today_daily)
    browser.post(f"/api/attempts/{state['id']}/moves/", {"seq": 0, "move": state["legal"][0]})

    response = browser.post(
        "/api/accounts/register/", {"username": "alice", "password": "correct horse battery"}
    )

    assert response.status_code == 201
    assert response.json()["username"] == "alice"
    assert response.json()["stats"]["dailies_played"] == 1
    user = User.objects.get(username="alice")
    assert Attempt.objects.get(pk=state["id"]).player.user == user
    assert "sessionid" in browser.cookies


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"username": "alice", "password": "123"}, 400, "invalid"),
        ({"username": "al ice!", "password": "correct horse battery"}, 400, "invalid"),
        ({"username": "taken", "password": "correct horse battery"}, 409, "username_taken"),
        ({"username": "alice"}, 400, "invalid"),
    ],
)
def test_a_bad_registration_is_refused(body, status, code):
    User.objects.create_user(username="taken", password="whatever it is")

    assert_error(client_of().post("/api/accounts/register/", body), status, code)
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_logging_in_on_a_second_device_brings_the_accounts_player(today_daily):
    laptop = client_of()
    ranked = start(laptop, today_daily)
    laptop.post("/api/accounts/register/", {"username": "alice", "password": "correct horse b"})
    account_player = Attempt.objects.get(pk=ranked["id"]).player

    phone = client_of()
    practice = phone.post("/api/practice/", {"game": "munger", "seed": 13}).json()
    response = phone.post(
        "/api/accounts/login/", {"username": "alice", "password": "correct horse b"}
    )

    assert response.status_code == 200
    assert response.json()["display_name"] == account_player.display_name
    assert phone.get(f"/api/attempts/{ranked['id']}/").status_code == 200
    assert Attempt.objects.get(pk=practice["id"]).player == account_player
    resumed = phone.post(f"/api/dailies/masterpiece/{today_daily.date}/attempts/")
    assert resumed.status_code == 200 and resumed.json()["id"] == ranked["id"]


@pytest.mark.django_db
def test_a_wrong_password_is_400_and_logs_nobody_in():
    User.objects.create_user(username="alice", password="correct horse b")
    phone = client_of()

    response = phone.post("/api/accounts/login/", {"username": "alice", "password": "wrong"})

    assert_error(response, 401, "bad_credentials")
    assert "sessionid" not in phone.cookies


@pytest.mark.django_db
def test_logging_out_forgets_the_player_on_this_device(today_daily):
    laptop = client_of()
    laptop.post("/api/accounts/register/", {"username": "alice", "password": "correct horse b"})
    mine = start(laptop, today_daily)

    response = laptop.post("/api/accounts/logout/")

    assert response.status_code == 204
    assert response.cookies[COOKIE_NAME].value == ""
    assert_error(laptop.get(f"/api/attempts/{mine['id']}/"), 404, "attempt_not_found")
    assert_error(laptop.get("/api/players/me/"), 404, "no_player")


@pytest.mark.django_db
def test_a_logged_in_user_needs_the_csrf_token_and_a_guest_does_not(today_daily):
    guest = APIClient(enforce_csrf_checks=True)
    path = f"/api/dailies/masterpiece/{today_daily.date}/attempts/"
    assert guest.post(path).status_code == 201  # no token: a guest is known by the cookie only
    state = guest.post(path).json()
    first = today_daily.deal.certificate[0]
    assert move(guest, state["id"], 0, first).status_code == 200

    guest.post("/api/accounts/register/", {"username": "alice", "password": "correct horse b"})
    before = stored(state["id"])

    refused = move(guest, state["id"], 1, today_daily.deal.certificate[1])

    assert_error(refused, 403, "csrf_failed")
    assert stored(state["id"]) == before
    token = guest.cookies["csrftoken"].value
    accepted = guest.post(
        f"/api/attempts/{state['id']}/moves/",
        {"seq": 1, "move": today_daily.deal.certificate[1]},
        HTTP_X_CSRFTOKEN=token,
    )
    assert accepted.status_code == 200


# -- the schema ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_schema_generates_without_warnings_and_lists_every_endpoint(tmp_path):
    out = tmp_path / "schema.yml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))

    schema = yaml.safe_load(out.read_text())
    assert set(schema["paths"]) >= {
        "/api/dailies/",
        "/api/dailies/{game}/{date}/",
        "/api/dailies/{game}/{date}/attempts/",
        "/api/practice/",
        "/api/attempts/{attempt_id}/",
        "/api/attempts/{attempt_id}/moves/",
        "/api/attempts/{attempt_id}/resign/",
        "/api/attempts/{attempt_id}/hint/",
        "/api/players/me/",
        "/api/players/me/attempts/",
        "/api/accounts/register/",
        "/api/accounts/login/",
        "/api/accounts/logout/",
    }
    moves = schema["paths"]["/api/attempts/{attempt_id}/moves/"]["post"]["responses"]
    assert set(moves) == {"200", "400", "403", "404", "409", "413", "422", "429"}
    hint = schema["paths"]["/api/attempts/{attempt_id}/hint/"]["post"]["responses"]
    assert set(hint) == {"200", "403", "404", "409", "413", "429"}
    assert set(schema["paths"]["/api/attempts/{attempt_id}/"]["get"]["responses"]) == {"200", "404"}
    assert "Error" in schema["components"]["schemas"]
    assert client_of().get("/api/schema/").status_code == 200
