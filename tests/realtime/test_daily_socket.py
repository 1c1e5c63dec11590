"""The daily socket, ws/daily/<game>/<date>/: anyone watches a board live; events are
coalesced and versioned, and a reconnecting watcher gets what it missed (realtime/boards.py).
"""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from games import fairplay, services
from realtime import boards as live
from realtime import sockets
from tests.games import factories
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


@pytest.fixture(autouse=True)
def fresh_store(monkeypatch):
    """A store of marks and versions of this test's own (the database's ids may repeat between
    tests): in Redis under a prefix of its own, removed afterwards."""
    if settings.REDIS_URL:
        store = live.RedisStore(settings.REDIS_URL, prefix=f"live-test-{uuid.uuid4().hex}")
    else:
        store = live.LocalStore()
    monkeypatch.setattr(live.store, "instance", store)
    yield store
    if settings.REDIS_URL:
        keys = list(store.redis.scan_iter(f"{store.prefix}:*"))
        if keys:
            store.redis.delete(*keys)


@database_sync_to_async
def play(attempt_id: int, player, moves: list[str], start: int = 0) -> None:
    for seq, move in enumerate(moves, start):
        services.attempt_play(attempt_id=attempt_id, player=player, seq=seq, move=move)


@database_sync_to_async
def yesterday_daily():
    import datetime as dt

    from games import clock

    return factories.daily("munger", clock.today() - dt.timedelta(days=1))


async def watcher(daily) -> tuple:
    tab = socket(f"/ws/daily/{daily.game}/{daily.date.isoformat()}/")
    connected, _ = await tab.connect()
    assert connected
    return tab, await receive(tab)


@pytest.mark.optimisation
def test_an_event_reads_the_daily_its_numbers_its_rows_and_its_feed_in_four_queries():
    """Players, winners, playing now and the index's check come from one aggregate of the
    board's rows; the daily's game and date from a read whose SQL is built once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    daily = factories.daily("munger")
    moved = []
    for name in ("alice", "bob"):
        player = factories.player(name)
        attempt, _ = services.attempt_start(player=player, daily=daily)
        for seq, move in enumerate(daily.deal.certificate[:2]):
            services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
        moved.append(attempt.pk)
    live.update_for(daily.pk, {moved[0]})  # with Redis: the index is built once

    with CaptureQueriesContext(connection) as queries:
        event = live.update_for(daily.pk, {moved[0]})

    assert event is not None and (event["game"], event["date"]) == ("munger", str(daily.date))
    assert event["counts"] == {"players": 2, "winners": 0} and event["playing_now"] == 2
    assert event["board"]["total"] == 2 and len(event["board"]["top"]) == 2
    assert [row["moves"] for row in event["feed"]] == [2]
    assert len(queries) == 4


async def test_anyone_may_watch_and_first_gets_a_snapshot():
    daily = await a_daily()

    tab, first = await watcher(daily)

    assert first["type"] == "snapshot" and first["version"] == 0
    assert first["board"] == {"top": [], "total": 0}
    assert first["playing_now"] == 0 and first["feed"] == []
    await close_all(tab)


async def test_a_process_is_one_member_of_a_dailys_group_whatever_its_watchers(
    monkeypatch, flusher
):
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    calls: list[str] = []
    for name in ("group_add", "group_discard"):
        real = getattr(layer, name)

        async def spy(group, channel, real=real, name=name):
            calls.append(name)
            await real(group, channel)

        monkeypatch.setattr(layer, name, spy)
    daily = await a_daily()
    alice, _ = await a_player("alice")
    attempt = await an_attempt(alice, daily)

    crowd = await asyncio.gather(*(watcher(daily) for _ in range(4)))  # arriving together
    assert calls == ["group_add"]
    await play(attempt.pk, alice, daily.deal.certificate[:1])
    events = [await receive(tab) for tab, _ in crowd]
    assert {(e["type"], e["version"]) for e in events} == {("update", 1)}

    await close_all(*(tab for tab, _ in crowd))
    for _ in range(50):
        if calls[-1] == "group_discard":
            break
        await asyncio.sleep(0.02)
    assert calls == ["group_add", "group_discard"]  # the last one out left the group

    late, snapshot = await watcher(daily)
    assert calls[-1] == "group_add" and snapshot["version"] == 1
    await play(attempt.pk, alice, daily.deal.certificate[1:2], start=1)
    assert (await receive(late))["version"] == 2
    await close_all(late)


async def test_a_refresh_is_the_board_as_it_stands_now_a_left_game_included(flusher, monkeypatch):
    """ "Playing now" and a row's `left` change with time alone: a page on a quiet board asks
    for a refresh now and then, and gets a snapshot read at that moment."""
    import datetime as dt

    from games import clock

    daily = await a_daily()
    alice, _ = await a_player("alice")
    attempt = await an_attempt(alice, daily)
    tab, _ = await watcher(daily)
    await play(attempt.pk, alice, daily.deal.certificate[:1])
    update = await receive(tab)
    assert update["playing_now"] == 1 and update["board"]["top"][0]["left"] is False

    later = clock.now() + dt.timedelta(minutes=11)
    monkeypatch.setattr(clock, "now", lambda: later)
    await tab.send_json_to({"type": "refresh"})
    snapshot = await receive(tab)

    assert snapshot["type"] == "snapshot" and snapshot["version"] == update["version"]
    assert snapshot["playing_now"] == 0 and snapshot["board"]["top"][0]["left"] is True
    await close_all(tab)


async def test_watchers_are_served_without_a_session_and_players_with_one(monkeypatch):
    from channels.sessions import InstanceSessionWrapper

    sent_through_a_session = []
    original = InstanceSessionWrapper.send

    async def counted(self, message):
        sent_through_a_session.append(message["type"])
        return await original(self, message)

    monkeypatch.setattr(InstanceSessionWrapper, "send", counted)
    daily = await a_daily()
    alice, token = await a_player("alice")
    attempt = await an_attempt(alice, daily)

    tab, _ = await watcher(daily)
    assert sent_through_a_session == []

    player_tab = socket(f"/ws/play/{attempt.pk}/", token)
    connected, _ = await player_tab.connect()
    await receive(player_tab)
    assert connected and "websocket.send" in sent_through_a_session
    await close_all(tab, player_tab)


@pytest.mark.parametrize("path", ["/ws/daily/chess/2026-01-01/", "/ws/daily/munger/2999-01-01/"])
async def test_an_unknown_game_or_a_future_day_is_refused(path):
    tab = socket(path)

    assert await refused_with(tab) == sockets.CLOSE_NOT_FOUND


async def test_a_move_reaches_the_days_watchers_and_no_one_else(flusher):
    daily = await a_daily()
    other_day = await yesterday_daily()
    alice, _ = await a_player("alice")
    attempt = await an_attempt(alice, daily)
    (mine, _), (second, _), (elsewhere, _) = (
        await watcher(daily),
        await watcher(daily),
        await watcher(other_day),
    )

    await play(attempt.pk, alice, daily.deal.certificate[:1])
    event = await receive(mine)
    same = await receive(second)

    assert event["type"] == "update" and event["version"] == 1 and same == event
    assert event["feed"] == [
        {
            "player": "alice",
            "moves": 1,
            "undos": 0,
            "foundation_cards": event["feed"][0]["foundation_cards"],
            "status": "playing",
        }
    ]
    assert event["board"]["total"] == 1 and event["board"]["top"][0]["player"] == "alice"
    assert event["playing_now"] == 1
    # The day's counters beside the board go with it: they never contradict it.
    assert event["counts"] == {"players": 1, "winners": 0}
    assert not any(code in str(event) for code in daily.deal.deal_string.split())
    assert await nothing_more(elsewhere)
    await close_all(mine, second, elsewhere)


@pytest.mark.slow
async def test_many_moves_are_coalesced_into_a_few_versioned_events(monkeypatch, flusher):
    monkeypatch.setattr(live, "COALESCE_SECONDS", 4.0)  # 20 moves fit in one window
    # Twenty moves at once are a bot's pace, and fair play would hold the attempt (and so keep
    # it out of the feed) from its tenth move; this test is about coalescing, not pace.
    monkeypatch.setattr(fairplay, "MIN_MOVES_UNFINISHED", 10**6)
    daily = await a_daily()
    alice, _ = await a_player("alice")
    attempt = await an_attempt(alice, daily)
    tab, _ = await watcher(daily)
    line = daily.deal.certificate[:20]

    await play(attempt.pk, alice, line)  # 20 moves at once
    events = [await receive(tab, timeout=10)]
    while events[-1]["feed"][0]["moves"] < 20:
        events.append(await receive(tab, timeout=10))

    # The first move's event at once, the rest at the end of its window (one more window if
    # the moves outlasted it on a slow machine).
    assert 1 <= len(events) <= 3
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert await nothing_more(tab, wait=0.5)
    await close_all(tab)


@pytest.mark.slow
async def test_a_quiet_boards_change_goes_out_at_once_and_a_busy_boards_waits(monkeypatch, flusher):
    monkeypatch.setattr(live, "COALESCE_SECONDS", 4.0)  # a window long enough to tell apart
    daily = await a_daily()
    alice, _ = await a_player("alice")
    attempt = await an_attempt(alice, daily)
    tab, _ = await watcher(daily)
    line = daily.deal.certificate
    await asyncio.sleep(4.5)  # the flusher has looked once and found nothing to send

    await play(attempt.pk, alice, line[:1])
    first = await receive(tab, timeout=2)  # at once, not at the end of a window
    await play(attempt.pk, alice, line[1:2], start=1)
    held_back = await nothing_more(tab, wait=1.5)  # within the window of the first
    second = await receive(tab, timeout=8)

    assert first["version"] == 1 and first["feed"][0]["moves"] == 1
    assert held_back
    assert second["version"] == 2 and second["feed"][0]["moves"] == 2
    await close_all(tab)


async def test_a_reconnecting_watcher_gets_what_it_missed_or_a_snapshot(monkeypatch, flusher):
    daily = await a_daily()
    alice, _ = await a_player("alice")
    attempt = await an_attempt(alice, daily)
    tab, _ = await watcher(daily)
    line = daily.deal.certificate
    for seq in range(3):  # three windows, three events
        await play(attempt.pk, alice, line[seq : seq + 1], start=seq)
        assert (await receive(tab))["version"] == seq + 1

    back = socket(f"/ws/daily/{daily.game}/{daily.date.isoformat()}/")
    await back.connect()
    await receive(back)  # its snapshot
    await back.send_json_to({"type": "resync", "version": 1})
    missed = [await receive(back), await receive(back)]
    monkeypatch.setattr(live, "EVENT_LOG", 1)
    await back.send_json_to({"type": "resync", "version": 3})
    up_to_date = await nothing_more(back)

    assert [e["version"] for e in missed] == [2, 3] and missed[0]["type"] == "update"
    assert up_to_date
    await close_all(tab, back)


async def test_a_watcher_too_far_behind_gets_a_snapshot(fresh_store, flusher):
    daily = await a_daily()
    alice, _ = await a_player("alice")
    attempt = await an_attempt(alice, daily)
    tab, _ = await watcher(daily)
    for seq in range(2):
        await play(attempt.pk, alice, daily.deal.certificate[seq : seq + 1], start=seq)
        await receive(tab)
    # The log kept only the newest event: version 1 is gone.
    log = fresh_store.log(daily.pk)
    if settings.REDIS_URL:
        fresh_store.redis.ltrim(fresh_store._key(daily.pk, "log"), -1, -1)
    else:
        fresh_store.logs[daily.pk] = type(fresh_store.logs[daily.pk])(log[-1:], maxlen=1)

    await tab.send_json_to({"type": "resync", "version": 0})
    answer = await receive(tab)

    assert answer["type"] == "snapshot" and answer["version"] == 2
    await close_all(tab)


@pytest.mark.redis
@pytest.mark.optimisation
def test_a_mark_waits_in_its_process_until_its_flusher_sends_them_all_at_once(
    fresh_store, monkeypatch
):
    """A move's mark costs no Redis command; the marking process's next claim writes every
    mark it holds in one round trip, and from then on any process's flusher finds them."""
    other_process = live.RedisStore(settings.REDIS_URL, prefix=fresh_store.prefix)
    commands: list[int] = []
    real = fresh_store.redis.pipeline

    def pipeline(*args, **kwargs):
        pipe = real(*args, **kwargs)
        execute = pipe.execute
        pipe.execute = lambda *a, **k: commands.append(len(pipe.command_stack)) or execute(*a, **k)
        return pipe

    monkeypatch.setattr(fresh_store.redis, "pipeline", pipeline)
    for attempt_id in (11, 12, 13):
        fresh_store.mark(7, attempt_id)
    fresh_store.mark(8, 21)
    assert commands == [] and other_process.claim_all() == {}

    fresh_store.send_marks()
    assert commands == [6]  # per daily: its pending attempts, their expiry, the dirty mark
    assert other_process.claim_all() == {7: {11, 12, 13}, 8: {21}}


@pytest.mark.redis
async def test_an_update_made_in_one_process_reaches_a_watcher_of_another():
    """Two channel layers on one Redis stand for two server processes: marks made by one are
    flushed by the other, and the event reaches a watcher attached to the first."""
    from channels_redis.core import RedisChannelLayer

    daily = await a_daily()
    alice, _ = await a_player("alice")
    attempt = await an_attempt(alice, daily)
    other_process = RedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    channel = await other_process.new_channel()
    await other_process.group_add(live.daily_group(daily.pk), channel)

    await play(attempt.pk, alice, daily.deal.certificate[:1])  # marks in Redis
    sent = await live.flush_once()  # this process claims the window and sends
    message = await asyncio.wait_for(other_process.receive(channel), timeout=3)

    assert sent == 1
    assert message["type"] == "daily.event" and message["version"] == 1
    assert json.loads(message["text"])["version"] == 1
    await other_process.group_discard(live.daily_group(daily.pk), channel)
    await other_process.flush()


@pytest.mark.optimisation
async def test_watchers_arriving_together_share_one_snapshot_until_the_board_changes(
    monkeypatch,
):
    """A crowd opening the board at once costs one snapshot per version, not one each; after
    a change (a new version) the next watcher's snapshot is built afresh and holds it."""
    daily = await a_daily()
    built: list[int] = []
    real = live.board_now

    def counted(d):
        built.append(d.pk)
        return real(d)

    monkeypatch.setattr(live, "board_now", counted)
    crowd = [socket(f"/ws/daily/{daily.game}/{daily.date.isoformat()}/") for _ in range(5)]
    for watcher in crowd:
        assert (await watcher.connect())[0]
    snapshots = [await receive(w) for w in crowd]
    assert len(built) == 1 and {s["version"] for s in snapshots} == {0}

    alice, _ = await a_player("alice")
    attempt = await an_attempt(alice, daily)
    await play(attempt.pk, alice, daily.deal.certificate[:1])
    await live.flush_once()
    # The crowd's flusher may have claimed the change first: wait until it is published.
    for _ in range(100):
        if live.store().version(daily.pk) == 1:
            break
        await asyncio.sleep(0.02)
    late = socket(f"/ws/daily/{daily.game}/{daily.date.isoformat()}/")
    assert (await late.connect())[0]
    fresh = await receive(late)

    assert fresh["type"] == "snapshot" and fresh["version"] == 1 and len(built) >= 2
    assert fresh["board"]["total"] == 1
    await close_all(*crowd, late)


async def test_the_flusher_stops_when_cancelled_just_as_it_is_woken(monkeypatch):
    """A cancellation that arrives in the same moment as a wake-up still stops the flusher
    (else closing the event loop would wait for it forever)."""

    async def nothing_to_flush() -> int:
        return 0

    monkeypatch.setattr(live, "flush_once", nothing_to_flush)
    for _ in range(20):
        wake = asyncio.Event()
        flusher = asyncio.create_task(live._flush_forever(wake))
        await asyncio.sleep(0.01)  # waiting for a wake-up
        wake.set()
        await asyncio.sleep(0)  # the wait has its result, the flusher has not run yet
        flusher.cancel()
        done, _ = await asyncio.wait([flusher], timeout=1)
        assert flusher in done and flusher.cancelled()
