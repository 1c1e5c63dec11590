"""Who plays, without sign-up: the player cookie's revocable token, accounts on top of it, and
display names that cannot imitate one another (games/identity.py, games/api/identity.py,
games/names.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services
from games.errors import Conflict, Malformed
from games.identity import COOKIE_MAX_AGE, COOKIE_NAME, player_for
from games.models import Attempt, Player, PlayerToken
from tests.games import factories


def browser(cookie: str | None = None) -> APIClient:
    client = APIClient()
    if cookie is not None:
        client.cookies[COOKIE_NAME] = cookie
    return client


def token_of(player: Player) -> str:
    return services.player_token_issue(player=player)


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def account(player: Player, username: str, password: str = "correct horse b") -> User:
    player.user = User.objects.create_user(username=username, password=password)
    player.save()
    return player.user


# -- becoming a player ---------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("secure", [False, True])
def test_becoming_a_player_creates_one_guest_and_sets_a_token_cookie(secure):
    response = browser().post("/api/players/", {"display_name": "Marie"}, secure=secure)

    assert response.status_code == 201
    guest = Player.objects.get()
    assert guest.display_name == "Marie" and response.json()["display_name"] == "Marie"
    morsel = response.cookies[COOKIE_NAME]
    assert player_for(user=None, cookies={COOKIE_NAME: morsel.value}).player == guest
    assert morsel["httponly"] is True
    assert morsel["samesite"] == "Lax"
    assert bool(morsel["secure"]) is secure  # secure over HTTPS
    assert int(morsel["max-age"]) == COOKIE_MAX_AGE >= 2 * 365 * 24 * 3600
    # Only a hash of the token is stored.
    assert not PlayerToken.objects.filter(key_hash=morsel.value).exists()


@pytest.mark.django_db
def test_becoming_a_player_without_a_name_gives_a_guest_name_and_twice_is_one_player():
    client = browser()
    first = client.post("/api/players/", {}, format="json")
    again = client.post("/api/players/", {"display_name": "Other"}, format="json")

    assert first.status_code == 201 and first.json()["display_name"].startswith("Guest ")
    assert again.status_code == 200 and again.json() == first.json()
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_reading_your_player_creates_no_one():
    response = browser().get("/api/players/me/")

    assert response.status_code == 404 and response.json()["code"] == "no_player"
    assert COOKIE_NAME not in response.cookies
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_the_same_cookie_is_the_same_player_and_is_renewed(alice):
    response = browser(token_of(alice)).get("/api/players/me/")

    assert response.json()["display_name"] == "alice"
    assert Player.objects.count() == 1
    assert COOKIE_NAME in response.cookies


@pytest.mark.django_db
@pytest.mark.parametrize("cookie", ["tampered", "1", "{pk}", "{token}x", "x" * 500])
def test_a_cookie_that_names_no_live_token_is_ignored(alice, cookie):
    cookie = cookie.format(pk=alice.pk, token=token_of(alice))

    response = browser(cookie).get("/api/players/me/")

    assert response.status_code == 404
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_reads_create_no_player_even_with_a_bad_cookie():
    factories.daily("masterpiece")

    for path in ["/api/dailies/", "/api/players/me/attempts/", "/api/players/me/"]:
        response = browser("tampered").get(path)
        assert response.status_code in (200, 404)
        assert COOKIE_NAME not in response.cookies

    assert not Player.objects.exists()


@pytest.mark.django_db
def test_the_player_is_read_from_a_plain_cookie_mapping_as_a_socket_scope_carries_it(alice):
    token = token_of(alice)

    assert player_for(user=None, cookies={COOKIE_NAME: token}).player == alice
    assert player_for(user=None, cookies={}).player is None
    assert player_for(user=None, cookies={COOKIE_NAME: token + "x"}).player is None


@pytest.mark.django_db
def test_a_visit_notes_when_the_player_was_last_seen(alice, travel):
    travel(dt.datetime(2030, 1, 1, 12, 0))
    token = token_of(alice)
    browser(token).get("/api/players/me/")
    alice.refresh_from_db()
    assert alice.last_seen_at == dt.datetime(2030, 1, 1, 12, 0, tzinfo=dt.UTC)

    travel(dt.datetime(2030, 1, 1, 12, 5))  # within ten minutes: not written again
    browser(token).get("/api/players/me/")
    alice.refresh_from_db()
    assert alice.last_seen_at.minute == 0


# -- accounts --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_logged_in_user_plays_as_the_accounts_player_whatever_the_cookie(alice, bob):
    user = account(alice, "alice")
    client = browser(token_of(bob))
    client.force_login(user)

    response = client.get("/api/players/me/")

    assert response.json()["display_name"] == "alice"


@pytest.mark.django_db
def test_logging_in_leaves_a_guest_of_another_account_alone(bob):
    User.objects.create_user(username="alice", password="correct horse b")
    account(bob, "bob", "pw")
    daily = factories.daily("masterpiece")
    bobs = Attempt.objects.create(
        player=bob,
        game="masterpiece",
        daily=daily,
        deal_string=daily.deal.deal_string,
        ranked=True,
        started_at=daily.created_at,
    )
    client = browser(token_of(bob))  # bob logged out without forgetting the cookie

    response = client.post(
        "/api/accounts/login/", {"username": "alice", "password": "correct horse b"}
    )

    assert response.status_code == 200
    assert response.json()["username"] == "alice"
    assert response.json()["display_name"] != "bob"
    bobs.refresh_from_db()
    assert bobs.player == bob
    bob.refresh_from_db()
    assert bob.user.username == "bob"


@pytest.mark.django_db
def test_logging_in_without_a_cookie_uses_the_accounts_player(alice):
    account(alice, "alice")

    response = browser().post(
        "/api/accounts/login/", {"username": "alice", "password": "correct horse b"}
    )

    assert response.json()["display_name"] == "alice"
    assert Player.objects.count() == 1
    token = response.cookies[COOKIE_NAME].value
    assert PlayerToken.objects.get(key_hash=PlayerToken.hash(token)).player == alice


@pytest.mark.django_db
def test_a_guest_logging_out_keeps_their_player(alice):
    client = browser(token_of(alice))

    response = client.post("/api/accounts/logout/")

    assert response.status_code == 204
    assert COOKIE_NAME not in response.cookies
    assert client.get("/api/players/me/").json()["display_name"] == "alice"


@pytest.mark.django_db
def test_after_logging_out_a_kept_cookie_is_worthless(alice):
    account(alice, "alice")
    client = browser()
    login = client.post(
        "/api/accounts/login/", {"username": "alice", "password": "correct horse b"}
    )
    kept = login.cookies[COOKIE_NAME].value

    assert client.post("/api/accounts/logout/").status_code == 204

    thief = browser(kept)
    assert thief.get("/api/players/me/").status_code == 404
    renamed = thief.patch("/api/players/me/", {"display_name": "Mallory"})
    alice.refresh_from_db()
    assert alice.display_name == "alice"
    assert renamed.status_code in (200, 201)  # a new guest at most, never alice
    assert renamed.json()["display_name"] == "Mallory" and renamed.json()["username"] is None


@pytest.mark.django_db
def test_a_guest_cookie_kept_after_linking_to_an_account_is_worthless(alice):
    guest = factories.player("guest")
    account(alice, "alice")
    guest_token = token_of(guest)
    client = browser(guest_token)

    login = client.post(
        "/api/accounts/login/", {"username": "alice", "password": "correct horse b"}
    )
    assert login.json()["display_name"] == "alice"
    client.post("/api/accounts/logout/")

    thief = browser(guest_token)
    assert thief.get("/api/players/me/").status_code == 404
    alice.refresh_from_db()
    assert alice.display_name == "alice"


@pytest.mark.django_db
def test_linking_keeps_one_ranked_attempt_per_daily_the_later_becomes_practice(alice, travel):
    daily = factories.daily("masterpiece")
    account(alice, "alice")
    travel(dt.datetime.combine(daily.date, dt.time(9)))
    theirs, _ = services.attempt_start(player=alice, daily=daily)
    guest = factories.player("guest")
    travel(dt.datetime.combine(daily.date, dt.time(10)))
    later, _ = services.attempt_start(player=guest, daily=daily)

    assert services.player_link_user(player=guest, user=alice.user) == alice

    theirs.refresh_from_db()
    later.refresh_from_db()
    assert theirs.ranked and theirs.player == alice
    assert not later.ranked and later.player == alice
    assert Attempt.objects.filter(player=alice, daily=daily, ranked=True).count() == 1


@pytest.mark.django_db
def test_linking_an_earlier_guest_attempt_keeps_it_ranked_and_demotes_the_accounts(alice, travel):
    daily = factories.daily("masterpiece")
    guest = factories.player("guest")
    travel(dt.datetime.combine(daily.date, dt.time(9)))
    earlier, _ = services.attempt_start(player=guest, daily=daily)
    account(alice, "alice")
    travel(dt.datetime.combine(daily.date, dt.time(10)))
    theirs, _ = services.attempt_start(player=alice, daily=daily)

    services.player_link_user(player=guest, user=alice.user)

    earlier.refresh_from_db()
    theirs.refresh_from_db()
    assert earlier.ranked and earlier.player == alice
    assert not theirs.ranked


# -- display names -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "taken, name",
    [
        ("alice", "ALICE"),  # case
        ("alice", "  alice "),  # spaces
        ("alice", "ａｌｉｃｅ"),  # full-width letters
        ("Ѕаѕһа", "SASHA"),  # Cyrillic letters that look Latin, taken before the rule below
        ("МАХ", "max"),  # Cyrillic capitals, read as the Latin ones
    ],
)
def test_a_name_that_looks_like_a_taken_one_is_taken(bob, taken, name):
    factories.player(taken)
    with pytest.raises(Conflict) as info:
        services.player_rename(player=bob, display_name=name)
    assert info.value.code == "display_name_taken"
    bob.refresh_from_db()
    assert bob.display_name == "bob"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name, why",
    [
        ("Gueѕt 123", "alphabet"),  # a Cyrillic s
        ("Alісe", "alphabet"),
        ("Guest 123", "kept"),
        ("GUEST 55", "kept"),
        ("Guest_123456", "kept"),  # what separates "Guest" from the number does not matter
        ("guest-1", "kept"),
        ("Guest1", "kept"),
        ("МАХ", "Latin letters"),  # all Cyrillic, every letter reads as Latin: "MAX"
        ("Ѕаѕһа", "Latin letters"),
        ("ΑΒΕ", "Latin letters"),  # Greek capitals
    ],
)
def test_reserved_mixed_script_and_look_alike_names_are_refused_with_a_reason(bob, name, why):
    with pytest.raises(Malformed) as info:
        services.player_rename(player=bob, display_name=name)
    assert info.value.code == "bad_display_name" and why in info.value.detail
    bob.refresh_from_db()
    assert bob.display_name == "bob"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Макс", "Саша", "Guesser", "José"])
def test_names_that_only_share_letters_with_latin_ones_are_welcome(bob, name):
    assert services.player_rename(player=bob, display_name=name).display_name == name


@pytest.mark.django_db
@pytest.mark.parametrize(
    "twin, status, code",
    [
        ("ADMIN", 409, "username_taken"),
        ("Admin", 409, "username_taken"),
        ("аdmin", 400, "bad_username"),
    ],
)
def test_a_username_that_looks_like_a_taken_one_is_refused(twin, status, code):
    User.objects.create_user(username="admin", password="correct horse b")

    response = browser().post(
        "/api/accounts/register/", {"username": twin, "password": "correct horse b"}
    )

    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_non_latin_names_are_welcome_and_unique_case_insensitively(bob):
    services.player_rename(player=bob, display_name="Ёжик")
    carol = factories.player("carol")

    with pytest.raises(Conflict):
        services.player_rename(player=carol, display_name="ЁЖИК")
    assert services.player_rename(player=carol, display_name="Ёжик 2").display_name == "Ёжик 2"
