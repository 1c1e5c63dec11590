"""The race socket, ws/race/<code>/: a snapshot from the database, then each change of the race
as a versioned event through the channel layer, in version order; a resync gets a new snapshot
(realtime/race.py)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

from games import clock, services
from races import services as races
from races.models import Race
from realtime import race as live
from realtime.race import REORDER_SECONDS, race_group
from realtime.watchers import watchers
from tests.games import factories
from tests.realtime.conftest import close_all, nothing_more, receive, refused_with, socket

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def a_race(game: str = "masterpiece") -> tuple[Race, list]:
    """A race between alice and bob on a past daily, started, its countdown over."""
    daily = factories.daily(game, clock.today() - dt.timedelta(days=2))
    alice, bob = factories.player("alice"), factories.player("bob")
    race = races.race_make(player=alice, game=game, date=daily.date)
    races.race_join(code=race.code, player=bob)
    return race, [alice, bob]


@database_sync_to_async
def start_and_play(race: Race, players: list, moves: int, monkeypatch) -> None:
    races.race_start(code=race.code, player=players[0])
    race.refresh_from_db()
    moment = race.starts_at + dt.timedelta(seconds=1)
    monkeypatch.setattr(clock, "now", lambda: moment)
    attempt, _ = races.race_attempt(code=race.code, player=players[0])
    for seq, token in enumerate(race.deal.certificate[:moves]):
        services.attempt_play(attempt_id=attempt.pk, player=players[0], seq=seq, move=token)


@database_sync_to_async
def join(race: Race, name: str) -> None:
    races.race_join(code=race.code, player=factories.player(name))


async def test_a_watcher_gets_a_snapshot_then_every_change_in_order(monkeypatch):
    race, players = await a_race()
    watcher = socket(f"/ws/race/{race.code}/")
    assert (await watcher.connect())[0]
    snapshot = await receive(watcher)
    assert snapshot["type"] == "snapshot" and snapshot["race"]["version"] == 2
    assert [r["name"] for r in snapshot["race"]["racers"]] == ["alice", "bob"]
    alice_id = snapshot["race"]["racers"][0]["id"]
    await start_and_play(race, players, 3, monkeypatch)
    # The start and alice's attempt change the race: versions 3 and 4, the whole view.
    events = [await receive(watcher) for _ in range(2)]
    assert [(e["type"], e["race"]["version"]) for e in events] == [("event", 3), ("event", 4)]
    assert events[-1]["race"]["racers"][0]["status"] == "playing"
    # Her three moves change only her: her figures alone, at her versions 1 to 3.
    moves = [await receive(watcher) for _ in range(3)]
    assert all(set(m) == {"type", "racer"} and m["type"] == "progress" for m in moves)
    assert [(m["racer"]["id"], m["racer"]["version"], m["racer"]["moves"]) for m in moves] == [
        (alice_id, 1, 1),
        (alice_id, 2, 2),
        (alice_id, 3, 3),
    ]
    assert set(moves[-1]["racer"]) == {
        "id", "version", "moves", "foundation_cards", "foundations", "seconds"
    }  # fmt: skip
    assert await nothing_more(watcher)
    await close_all(watcher)


async def test_a_resync_after_a_reconnect_gets_the_race_as_it_is(monkeypatch):
    race, players = await a_race()
    first = socket(f"/ws/race/{race.code}/")
    await first.connect()
    seen = (await receive(first))["race"]["version"]
    await close_all(first)
    await join(race, "carol")  # missed while away
    again = socket(f"/ws/race/{race.code}/")
    await again.connect()
    snapshot = await receive(again)
    assert snapshot["race"]["version"] == seen + 1
    await again.send_json_to({"type": "resync", "version": seen})
    resync = await receive(again)
    assert resync["type"] == "snapshot" and "carol" in [r["name"] for r in resync["race"]["racers"]]
    await close_all(again)


#: The live side's listeners, called as the signals call them (from a thread).
push_event, push_progress = sync_to_async(live.push_event), sync_to_async(live.push_progress)


def as_changed(race_id: int, view: dict) -> dict:
    return {"race_id": race_id, "version": view["version"], "event": view}


async def test_an_event_ahead_of_its_predecessor_waits_for_it():
    race, _ = await a_race()
    watcher = socket(f"/ws/race/{race.code}/")
    await watcher.connect()
    view = (await receive(watcher))["race"]
    later = {**view, "version": view["version"] + 2}
    earlier = {**view, "version": view["version"] + 1}
    for changed in (later, earlier, earlier):
        await push_event(None, **as_changed(race.pk, changed))
    got = [(await receive(watcher))["race"]["version"] for _ in range(2)]
    assert got == [view["version"] + 1, view["version"] + 2]
    assert await nothing_more(watcher)  # the one sent twice went out once
    await close_all(watcher)


def progress(racer: dict, version: int) -> dict:
    return {**{k: racer[k] for k in PROGRESS}, "version": version, "moves": version}


PROGRESS = ("id", "version", "moves", "foundation_cards", "foundations", "seconds")


async def test_a_racers_progress_goes_out_in_their_own_order_never_twice():
    race, _ = await a_race()
    watcher = socket(f"/ws/race/{race.code}/")
    await watcher.connect()
    view = (await receive(watcher))["race"]
    alice, bob = view["racers"]
    # Bob's second move comes ahead of his first; alice's line is her own.
    await push_progress(None, progress=[(race.pk, progress(bob, 2)), (race.pk, progress(alice, 1))])
    await push_progress(None, progress=[(race.pk, progress(bob, 1))])
    await push_progress(None, progress=[(race.pk, progress(bob, 1))])
    got = [(await receive(watcher))["racer"] for _ in range(3)]
    assert [(r["id"], r["version"]) for r in got] == [
        (alice["id"], 1),
        (bob["id"], 1),
        (bob["id"], 2),
    ]
    assert got[0] == progress(alice, 1)  # her figures as the signal carried them
    assert await nothing_more(watcher)
    # A view that names alice at her version 3 covers her progress up to it.
    named = {**view, "version": view["version"] + 1}
    named["racers"] = [{**alice, "version": 3}, {**bob, "version": 2}]
    await push_event(None, **as_changed(race.pk, named))
    assert (await receive(watcher))["race"]["version"] == named["version"]
    await push_progress(
        None, progress=[(race.pk, progress(alice, 3)), (race.pk, progress(alice, 4))]
    )
    assert (await receive(watcher))["racer"]["version"] == 4
    assert await nothing_more(watcher)
    await close_all(watcher)


async def test_a_progress_whose_predecessor_never_comes_goes_out_after_a_wait():
    race, _ = await a_race()
    watcher = socket(f"/ws/race/{race.code}/")
    await watcher.connect()
    view = (await receive(watcher))["race"]
    alice = view["racers"][0]
    await push_progress(None, progress=[(race.pk, progress(alice, 2))])
    assert await nothing_more(watcher, wait=REORDER_SECONDS / 2)  # waits for version 1 ...
    assert (await receive(watcher))["racer"]["version"] == 2  # ... then goes out: a skip
    await close_all(watcher)


async def test_two_sockets_of_one_process_share_one_member_of_the_races_group():
    race, _ = await a_race()
    sockets = [socket(f"/ws/race/{race.code}/") for _ in range(2)]
    for s in sockets:
        await s.connect()
    views = [(await receive(s))["race"] for s in sockets]
    feed = watchers().feeds[race_group(race.pk)]  # one channel of the layer for both
    assert len(feed.members) == 2 and feed.channel
    await push_progress(None, progress=[(race.pk, progress(views[0]["racers"][0], 1))])
    assert [(await receive(s))["racer"]["version"] for s in sockets] == [1, 1]
    await close_all(*sockets)


async def test_an_unknown_race_is_refused_with_4404():
    assert await refused_with(socket("/ws/race/zzzzzzzzzz/")) == 4404
    assert await refused_with(socket("/ws/race/not-a-code/")) == 4404


async def test_nothing_of_a_munger_opponents_table_goes_out(monkeypatch):
    race, players = await a_race("munger")
    watcher = socket(f"/ws/race/{race.code}/")
    await watcher.connect()
    await receive(watcher)
    await start_and_play(race, players, 12, monkeypatch)
    for _ in range(14):
        message = await receive(watcher)
        cards = set(re.findall(r'"([2-9TJQKA][CDHS])"', str(message).replace("'", '"')))
        racers = message["race"]["racers"] if "race" in message else [message["racer"]]
        tops = {f["top"] for r in racers for f in r["foundations"]}
        assert cards <= tops  # a card named anywhere is a foundation's top card
    await close_all(watcher)
