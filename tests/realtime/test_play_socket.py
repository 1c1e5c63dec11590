"""The play socket, ws/play/<attempt>/: the twin of the REST move endpoint (realtime/play.py).

Two clients in most tests: the one who should receive gets the state, the one who should not
gets nothing.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games.engine.errors import REFUSALS
from games.identity import COOKIE_NAME
from games.models import Attempt
from realtime import pushes as live
from realtime import sockets
from tests.realtime.conftest import (
    a_daily,
    a_player,
    an_attempt,
    close_all,
    nothing_more,
    receive,
    refused_with,
    socket,
)

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def rest_state(token: str, attempt_id: int) -> dict:
    client = APIClient()
    client.cookies[COOKIE_NAME] = token
    return client.get(f"/api/attempts/{attempt_id}/").json()


@database_sync_to_async
def rest_move(token: str, attempt_id: int, seq: int, move: str) -> dict:
    client = APIClient()
    client.cookies[COOKIE_NAME] = token
    return client.post(f"/api/attempts/{attempt_id}/moves/", {"seq": seq, "move": move}).json()


@database_sync_to_async
def stored(attempt_id: int) -> tuple[list[str], int]:
    attempt = Attempt.objects.get(pk=attempt_id)
    return attempt.moves, attempt.next_seq


async def alice_playing():
    alice, token = await a_player("alice")
    daily = await a_daily()
    attempt = await an_attempt(alice, daily)
    return daily, attempt, token


def same_state(a: dict, b: dict) -> bool:
    ignore = {"elapsed_seconds", "clock_left_seconds", "revealed", "replayed"}
    return {k: v for k, v in a.items() if k not in ignore} == {
        k: v for k, v in b.items() if k not in ignore
    }


async def test_the_player_connects_and_first_gets_the_full_state():
    _, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)

    connected, _ = await tab.connect()
    first = await receive(tab)

    assert connected and first["type"] == "state"
    assert same_state(first["state"], await rest_state(token, attempt.pk))
    assert first["state"]["version"] == first["state"]["seq"] == 0
    await close_all(tab)


@pytest.mark.parametrize("who", ["stranger", "nobody", "unknown attempt"])
async def test_only_the_attempts_player_may_connect(who):
    _, attempt, _ = await alice_playing()
    _, bobs_token = await a_player("bob")
    path = f"/ws/play/{attempt.pk + (1000 if who == 'unknown attempt' else 0)}/"
    tab = socket(path, None if who == "nobody" else bobs_token)

    code = await refused_with(tab)

    assert code == sockets.CLOSE_NOT_FOUND  # the same for all: no id is told apart


async def test_a_socket_from_another_origin_is_refused():
    _, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token, origin=b"http://evil.example")

    assert await refused_with(tab) == sockets.CLOSE_FORBIDDEN


async def test_a_move_answers_the_state_rest_answers_and_a_second_tab_sees_it():
    daily, attempt, token = await alice_playing()
    bob, bobs_token = await a_player("bob")
    bobs_attempt = await an_attempt(bob, daily)
    tab, second, bobs = (
        socket(f"/ws/play/{attempt.pk}/", token),
        socket(f"/ws/play/{attempt.pk}/", token),
        socket(f"/ws/play/{bobs_attempt.pk}/", bobs_token),
    )
    for s in (tab, second, bobs):
        assert (await s.connect())[0]
        await receive(s)
    move = daily.deal.certificate[0]

    await tab.send_json_to({"type": "move", "seq": 0, "move": move})
    answer = await receive(tab)
    pushed = await receive(second)

    assert answer["type"] == "state" and answer["state"]["seq"] == 1
    assert same_state(answer["state"], await rest_state(token, attempt.pk))
    assert pushed["state"]["seq"] == 1 and same_state(pushed["state"], answer["state"])
    assert await nothing_more(tab)  # the group's copy of its own move is not sent twice
    assert await nothing_more(bobs)  # bob's socket hears nothing of alice's game
    await close_all(tab, second, bobs)


@pytest.mark.optimisation
async def test_old_database_connections_are_closed_by_the_database_work_alone(monkeypatch):
    """A message is handed to its handler with no trip to the database thread first
    (Channels' `aclose_old_connections`): the database work closes the connections that are
    too old around itself (`database_sync_to_async`), and the move is stored."""
    import channels.consumer
    import channels.db

    trips, closes = [], []
    closing = channels.db.close_old_connections

    async def trip() -> None:
        trips.append(1)

    def close(**kwargs) -> None:
        closes.append(1)
        closing(**kwargs)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", trip)
    monkeypatch.setattr(channels.db, "close_old_connections", close)
    daily, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    assert (await tab.connect())[0]
    await receive(tab)
    before = len(closes)

    await tab.send_json_to({"type": "move", "seq": 0, "move": daily.deal.certificate[0]})
    answer = await receive(tab)

    assert answer["state"]["seq"] == 1
    assert (await stored(attempt.pk))[1] == 1
    assert trips == []
    assert len(closes) - before >= 2  # before and after the move's own database call
    await close_all(tab)


async def test_a_move_made_over_rest_reaches_the_socket():
    daily, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)

    await rest_move(token, attempt.pk, 0, daily.deal.certificate[0])
    pushed = await receive(tab)

    assert pushed["state"]["seq"] == 1 and pushed["state"]["moves_played"] == 1
    await close_all(tab)


async def test_bad_moves_are_errors_that_change_nothing():
    daily, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    state = (await receive(tab))["state"]
    illegal = next(m for m in ["M1>M2", "M2>M3", "C>F", "M1>F", "M3>M4"] if m not in state["legal"])

    await tab.send_json_to({"type": "move", "seq": 5, "move": daily.deal.certificate[0]})
    wrong_seq = await receive(tab)
    await tab.send_json_to({"type": "move", "seq": 0, "move": illegal})
    refused = await receive(tab)
    await tab.send_json_to({"type": "move", "seq": 0, "move": "Z9>Q"})
    malformed = await receive(tab)
    await tab.send_to(text_data="not json")
    not_json = await receive(tab)

    assert (wrong_seq["type"], wrong_seq["code"], wrong_seq["expected_seq"]) == (
        "error",
        "wrong_seq",
        0,
    )
    assert refused["code"] == "illegal_move" and "rule" in refused["detail"]
    assert refused["reason"] in REFUSALS and isinstance(refused["facts"], dict)
    assert malformed["code"] == "malformed_move"
    assert not_json["code"] == "malformed"
    assert await stored(attempt.pk) == ([], 0)
    await close_all(tab)


async def test_the_same_seq_twice_is_answered_again_and_stored_once():
    daily, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)
    move = daily.deal.certificate[0]

    await tab.send_json_to({"type": "move", "seq": 0, "move": move})
    first = await receive(tab)
    await tab.send_json_to({"type": "move", "seq": 0, "move": move})
    again = await receive(tab)

    assert again["state"]["replayed"] is True and again["state"]["seq"] == first["state"]["seq"]
    assert await stored(attempt.pk) == ([move], 1)
    await close_all(tab)


async def test_a_reconnect_resyncs_and_nothing_is_lost():
    daily, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)
    await tab.send_json_to({"type": "move", "seq": 0, "move": daily.deal.certificate[0]})
    await receive(tab)
    await tab.disconnect()  # the connection drops

    await rest_move(token, attempt.pk, 1, daily.deal.certificate[1])  # played elsewhere meanwhile
    back = socket(f"/ws/play/{attempt.pk}/", token)
    await back.connect()
    first = await receive(back)
    await back.send_json_to({"type": "resync", "version": 1})
    resynced = await receive(back)

    assert first["state"]["version"] == resynced["state"]["version"] == 2
    assert first["state"]["moves_played"] == 2
    await close_all(back)


@pytest.mark.parametrize("where", ["play", "daily"])
async def test_a_deeply_nested_message_is_refused_and_the_socket_goes_on(where):
    """2,000 levels of JSON in 4 KB made the decoder raise RecursionError, which killed the
    socket (an unhandled error in the consumer)."""
    daily, attempt, token = await alice_playing()
    path = (
        f"/ws/play/{attempt.pk}/"
        if where == "play"
        else (f"/ws/daily/{daily.game}/{daily.date.isoformat()}/")
    )
    tab = socket(path, token)
    await tab.connect()
    await receive(tab)

    for nested in ("[" * 2000 + "]" * 2000, '{"type": "move", "move": ' + "[" * 2000):
        assert len(nested) <= sockets.MAX_MESSAGE_BYTES
        await tab.send_to(text_data=nested)
        refused = await receive(tab)
        assert (refused["type"], refused["code"]) == ("error", "malformed")
    await tab.send_json_to({"type": "ping"})

    assert (await receive(tab))["type"] == "pong"
    await close_all(tab)


async def test_a_message_holding_nul_is_refused_and_changes_nothing():
    daily, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)

    await tab.send_json_to({"type": "move", "seq": 0, "move": daily.deal.certificate[0] + "\x00"})
    refused = await receive(tab)
    await tab.send_json_to({"type": "resign", "x\x00": 1})
    refused_key = await receive(tab)

    assert (refused["code"], refused_key["code"]) == ("malformed", "malformed")
    assert "NUL" in refused["detail"]
    assert await stored(attempt.pk) == ([], 0)
    assert (await rest_state(token, attempt.pk))["status"] == "playing"
    await close_all(tab)


async def test_the_message_budget_refuses_and_counts_then_recovers(monkeypatch, settings):
    _, attempt, token = await alice_playing()
    clock = [1000.0]
    monkeypatch.setattr(sockets.time, "monotonic", lambda: clock[0])
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)

    for _ in range(settings.SOCKET_BUDGET_MESSAGES):
        await tab.send_json_to({"type": "ping"})
        assert (await receive(tab))["type"] == "pong"
    await tab.send_json_to({"type": "ping"})
    refused = await receive(tab)
    await tab.send_json_to({"type": "ping"})
    refused_again = await receive(tab)
    clock[0] += sockets.BUDGET_SECONDS  # the window moves on
    await tab.send_json_to({"type": "ping"})
    after = await receive(tab)

    assert refused["code"] == "rate_limited" and refused["retry_after"] > 0
    assert refused_again["refused"] == 2
    assert after["type"] == "pong"
    await close_all(tab)


async def test_a_silent_connection_is_closed_and_leaves_its_group(monkeypatch):
    daily, attempt, token = await alice_playing()
    monkeypatch.setattr(sockets.JsonSocket, "idle_seconds", 0.2)
    monkeypatch.setattr(sockets.JsonSocket, "idle_check_seconds", 0.05)
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)

    closed = await tab.receive_output(timeout=3)

    assert closed == {"type": "websocket.close", "code": sockets.CLOSE_IDLE}
    await rest_move(token, attempt.pk, 0, daily.deal.certificate[0])
    assert await nothing_more(tab)


def first_arguments(monkeypatch, name: str) -> list:
    """The first argument of each call of `realtime.pushes.<name>`, which still does its work."""
    seen: list = []
    real = getattr(live, name)

    def spy(first, *rest):
        seen.append(first)
        return real(first, *rest)

    monkeypatch.setattr(live, name, spy)
    return seen


@pytest.fixture
def pushes(monkeypatch) -> list[str]:
    """The groups the live pushes send states to: the signal's listener's (a change made
    elsewhere) and a socket's own."""
    seen: list[str] = []
    real = live.group_send_async

    async def spy(group, message):
        if message["type"] == "attempt.state":
            seen.append(group)
        return await real(group, message)

    monkeypatch.setattr(live, "group_send_async", spy)
    return seen


@database_sync_to_async
def open_tabs(attempt_id: int) -> set[str]:
    return live.tabs().members(attempt_id)


@pytest.mark.optimisation
async def test_a_move_of_the_only_open_tab_is_not_pushed_back_to_it(pushes):
    daily, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)
    assert len(await open_tabs(attempt.pk)) == 1

    await tab.send_json_to({"type": "move", "seq": 0, "move": daily.deal.certificate[0]})
    assert (await receive(tab))["state"]["seq"] == 1

    assert pushes == []  # nobody else listens: no group message
    second = socket(f"/ws/play/{attempt.pk}/", token)
    await second.connect()
    await receive(second)
    await tab.send_json_to({"type": "move", "seq": 1, "move": daily.deal.certificate[1]})
    assert (await receive(tab))["state"]["seq"] == 2
    # A second tab hears it: pushed by the first once it knows of the second, or in the first's
    # answer to the second's greeting (when the move came first).
    assert (await receive(second))["state"]["seq"] == 2
    assert pushes in ([], [live.attempt_group(attempt.pk)])
    await close_all(tab, second)


@pytest.mark.optimisation
async def test_a_rest_move_with_no_tab_open_pushes_nothing_and_closed_tabs_leave(pushes):
    daily, attempt, token = await alice_playing()
    await rest_move(token, attempt.pk, 0, daily.deal.certificate[0])
    assert pushes == []

    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)
    await rest_move(token, attempt.pk, 1, daily.deal.certificate[1])
    assert (await receive(tab))["state"]["seq"] == 2
    await close_all(tab)

    assert await open_tabs(attempt.pk) == set()
    await rest_move(token, attempt.pk, 2, daily.deal.certificate[2])
    assert len(pushes) == 1


async def test_when_the_open_tabs_cannot_be_read_the_push_goes_out(pushes, monkeypatch):
    daily, attempt, token = await alice_playing()

    def unreachable(attempt_id):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(live.tabs(), "members", unreachable)
    await rest_move(token, attempt.pk, 0, daily.deal.certificate[0])

    assert pushes == [live.attempt_group(attempt.pk)]


async def test_a_long_open_socket_registers_again_at_a_heartbeat(monkeypatch):
    """The registry of open sockets expires unused; a socket that stays open renews its place
    at a heartbeat once `TABS_REFRESH_SECONDS` have passed."""
    daily, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)
    registered = first_arguments(monkeypatch, "tab_opened")
    await tab.send_json_to({"type": "ping"})
    assert (await receive(tab))["type"] == "pong"
    assert registered == []  # too soon

    monkeypatch.setattr(live, "TABS_REFRESH_SECONDS", 0)
    await tab.send_json_to({"type": "ping"})
    assert (await receive(tab))["type"] == "pong"
    assert registered == [attempt.pk]
    assert len(await open_tabs(attempt.pk)) == 1
    await close_all(tab)


@database_sync_to_async
def a_practice(player) -> Attempt:
    from games import services

    # Not seed 1, today's daily's (`a_daily`): no practice shows a running daily's cards.
    return services.attempt_start_practice(player=player, game="masterpiece", seed=4)[0]


async def test_a_hint_message_answers_the_rest_hint_and_only_in_practice(settings):
    settings.HINT_SECONDS = {"munger": 30.0, "masterpiece": 30.0}  # room on a loaded machine
    daily, ranked, token = await alice_playing()
    alice = await database_sync_to_async(lambda: ranked.player)()
    practice = await a_practice(alice)
    on_practice, on_ranked = (
        socket(f"/ws/play/{practice.pk}/", token),
        socket(f"/ws/play/{ranked.pk}/", token),
    )
    for s in (on_practice, on_ranked):
        assert (await s.connect())[0]
        await receive(s)

    await on_practice.send_json_to({"type": "hint"})
    await on_ranked.send_json_to({"type": "hint"})
    hint = await receive(on_practice, timeout=40)
    refused = await receive(on_ranked, timeout=40)

    assert hint["type"] == "hint" and hint["hint"]["status"] == "move"
    assert hint["hint"]["seq"] == 0 and hint["hint"]["hints"] == 1
    state = await rest_state(token, practice.pk)
    assert hint["hint"]["move"] in state["legal"] and state["hints"] == 1
    assert refused["type"] == "error" and refused["code"] == "hints_ranked"
    assert (await rest_state(token, ranked.pk))["hints"] == 0
    await close_all(on_practice, on_ranked)


async def test_hints_on_the_socket_are_throttled_as_over_rest(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"hints_player": "1/min"},
    }
    alice, token = await a_player("alice")
    practice = await a_practice(alice)
    tab = socket(f"/ws/play/{practice.pk}/", token)
    assert (await tab.connect())[0]
    await receive(tab)

    await tab.send_json_to({"type": "hint"})
    first = await receive(tab, timeout=10)
    await tab.send_json_to({"type": "hint"})
    second = await receive(tab, timeout=10)

    assert first["type"] == "hint"
    assert second["type"] == "error" and second["code"] == "throttled"
    assert second["retry_after"] >= 1
    await close_all(tab)


# -- a socket keeps its attempt between moves: what another writer changed is never lost ----


async def first_state(*tabs) -> None:
    for tab in tabs:
        assert (await tab.connect())[0]
        assert (await receive(tab))["type"] == "state"


async def a_tab_left_behind():
    """Two tabs of one attempt; the first plays the line's first move, which the second hears
    but its copy of the attempt is older: the line, the attempt and the two tabs."""
    daily, attempt, token = await alice_playing()
    line = daily.deal.certificate
    tab, second = (socket(f"/ws/play/{attempt.pk}/", token) for _ in range(2))
    await first_state(tab, second)
    await tab.send_json_to({"type": "move", "seq": 0, "move": line[0]})
    assert (await receive(tab))["state"]["seq"] == 1
    assert (await receive(second))["state"]["seq"] == 1
    return line, attempt, tab, second


async def test_a_tab_left_behind_by_another_plays_on_from_the_attempt_as_it_stands():
    """The second tab kept the attempt as it was before the first tab's move: its next move
    (legal only after that one) is checked against the stored position, not its copy."""
    line, attempt, tab, second = await a_tab_left_behind()
    await second.send_json_to({"type": "move", "seq": 1, "move": line[1]})

    assert (await receive(second))["state"]["seq"] == 2
    assert await stored(attempt.pk) == (line[:2], 2)
    await close_all(tab, second)


async def test_two_tabs_playing_the_same_seq_store_one_move():
    """Whichever comes first is stored; the other is refused with the seq it should send."""
    daily, attempt, token = await alice_playing()
    tab, second = (socket(f"/ws/play/{attempt.pk}/", token) for _ in range(2))
    await first_state(tab, second)
    legal = (await rest_state(token, attempt.pk))["legal"]
    sent = {tab: legal[0], second: legal[1]}

    async def refusal(of) -> tuple[object, dict]:
        """The first error the tab hears, or the pong that answers a ping sent to it."""
        while (message := await receive(of, timeout=10))["type"] not in ("error", "pong"):
            pass
        return of, message

    for which, move in sent.items():
        await which.send_json_to({"type": "move", "seq": 0, "move": move})
    waits = [asyncio.create_task(refusal(which)) for which in sent]
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED, timeout=10)
    [(refused, message)] = [wait.result() for wait in done]
    [kept] = [which for which in sent if which is not refused]
    await kept.send_json_to({"type": "ping"})  # it hears no refusal before its pong
    [(_, last)] = [await wait for wait in pending]

    assert message["code"] == "seq_taken" and message["expected_seq"] == 1
    assert last["type"] == "pong"
    assert await stored(attempt.pk) == ([sent[kept]], 1)
    await close_all(tab, second)


@database_sync_to_async
def approve_after_a_hold(attempt_id: int) -> None:
    from django.contrib.auth import get_user_model

    from games import services

    Attempt.objects.filter(pk=attempt_id).update(
        review=Attempt.Review.HELD, held_reasons=[{"rule": "too_fast", "detail": "test"}]
    )
    admin = get_user_model().objects.create_user("admin", is_staff=True)
    services.attempt_review_approve(attempt=Attempt.objects.get(pk=attempt_id), by=admin)


@database_sync_to_async
def review_of(attempt_id: int) -> str:
    return Attempt.objects.get(pk=attempt_id).review


async def test_an_admins_decision_made_between_two_moves_stays():
    """The socket read the attempt before an admin decided on it; its next move writes what
    the move changes, and the decision stays as the admin made it."""
    daily, attempt, token = await alice_playing()
    line = daily.deal.certificate
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await first_state(tab)
    await tab.send_json_to({"type": "move", "seq": 0, "move": line[0]})
    assert (await receive(tab))["state"]["seq"] == 1

    await approve_after_a_hold(attempt.pk)
    await tab.send_json_to({"type": "move", "seq": 1, "move": line[1]})

    assert (await receive(tab))["state"]["seq"] == 2
    assert await review_of(attempt.pk) == Attempt.Review.APPROVED
    assert await stored(attempt.pk) == (line[:2], 2)
    await close_all(tab)


@database_sync_to_async
def status_of(attempt_id: int) -> str:
    return Attempt.objects.get(pk=attempt_id).status


async def test_a_tab_left_behind_resigns_the_attempt_as_it_stands():
    """The second tab kept the attempt from before the first tab's move: its resignation's
    guarded write finds the row changed, and is made again on the row as it stands, the move
    kept."""
    line, attempt, tab, second = await a_tab_left_behind()
    await second.send_json_to({"type": "resign"})

    answer = await receive(second)
    assert answer["state"]["status"] == "resigned" and answer["state"]["seq"] == 1
    assert await stored(attempt.pk) == (line[:1], 1)
    assert await status_of(attempt.pk) == Attempt.Status.RESIGNED
    await close_all(tab, second)


async def test_a_ranked_game_resigned_on_the_socket_is_not_analysed_while_its_day_runs():
    """The state after the resignation says when the analysis opens (the end of the day's
    ranked play), and asking for it is refused until then."""
    daily, attempt, token = await alice_playing()
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    assert (await receive(tab))["state"]["analysis"] == {"available": False, "opens_at": None}
    await tab.send_json_to({"type": "resign"})

    answer = await receive(tab)

    until = daily.ranked_until.isoformat().replace("+00:00", "Z")
    assert answer["state"]["status"] == "resigned"
    assert answer["state"]["analysis"] == {"available": False, "opens_at": until}
    refused = await ask_analysis(token, attempt.pk)
    assert refused["code"] == "analysis_not_yet" and refused["opens_at"] == until
    await close_all(tab)


@database_sync_to_async
def ask_analysis(token: str, attempt_id: int) -> dict:
    client = APIClient()
    client.cookies[COOKIE_NAME] = token
    return client.post(f"/api/attempts/{attempt_id}/analysis/").json()
