"""A racer's move never waits for the race's update: the move hands the attempt to the process's
race updater (races/progress.py), which writes the racer's progress in a thread of its own and
sends their versioned progress event after commit."""

from __future__ import annotations

import asyncio
import datetime as dt
import threading

import pytest
from channels.db import database_sync_to_async

from games import clock, services
from races import progress
from races import services as races
from tests.games import factories
from tests.realtime.conftest import close_all, receive, socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
async def updater():
    """This test's event loop runs the race updater, as a server's lifespan does."""
    progress.updater.start()
    yield
    await progress.updater.stop()


@database_sync_to_async
def a_practice() -> tuple[int, object, list[str]]:
    """A practice on a certified deal, on no daily (as a racer's attempt is)."""
    daily = factories.daily("masterpiece", clock.today() - dt.timedelta(days=2))
    player = factories.player("alice")
    attempt = services.attempt_start_on_deal(
        player=player, game="masterpiece", deal_string=daily.deal.deal_string, seed=None
    )
    return attempt.pk, player, daily.deal.certificate


async def test_the_move_is_answered_while_the_race_update_still_runs(updater, monkeypatch):
    attempt_id, player, line = await a_practice()
    started, release = threading.Event(), threading.Event()
    seen: list[tuple[int, int]] = []

    def slow_update(moves):
        started.set()
        release.wait(10)
        seen.extend((move.attempt_id, move.moves) for move in moves)
        return len(moves)

    monkeypatch.setattr(races, "racers_moved", slow_update)
    play = database_sync_to_async(services.attempt_play)
    state = await play(attempt_id=attempt_id, player=player, seq=0, move=line[0])
    assert state.attempt.move_count == 1  # answered ...
    assert await asyncio.to_thread(started.wait, 10)  # ... while the update runs, held
    assert seen == []
    state = await play(attempt_id=attempt_id, player=player, seq=1, move=line[1])
    assert state.attempt.move_count == 2 and seen == []
    release.set()
    await progress.updater.stop()  # finishes what it holds
    assert seen == [(attempt_id, 1), (attempt_id, 2)]


async def test_racers_moves_reach_the_race_socket_in_versions_without_gaps(updater, monkeypatch):
    daily = await database_sync_to_async(factories.daily)(
        "masterpiece", clock.today() - dt.timedelta(days=2)
    )

    @database_sync_to_async
    def a_race():
        alice, bob = factories.player("alice"), factories.player("bob")
        race = races.race_make(player=alice, game="masterpiece", date=daily.date)
        races.race_join(code=race.code, player=bob)
        races.race_start(code=race.code, player=alice)
        race.refresh_from_db()
        moment = race.starts_at + dt.timedelta(seconds=1)
        monkeypatch.setattr(clock, "now", lambda: moment)
        attempt, _ = races.race_attempt(code=race.code, player=alice)
        return race, alice, attempt

    race, alice, attempt = await a_race()
    watcher = socket(f"/ws/race/{race.code}/")
    assert (await watcher.connect())[0]
    mine = (await receive(watcher))["race"]["racers"][0]
    play = database_sync_to_async(services.attempt_play)
    for seq, token in enumerate(daily.deal.certificate[:4]):
        state = await play(attempt_id=attempt.pk, player=alice, seq=seq, move=token)
        racer = (await receive(watcher, timeout=10))["racer"]
        assert (racer["id"], racer["version"]) == (mine["id"], mine["version"] + 1)
        mine = racer
        assert mine["moves"] == seq + 1
        assert mine["foundations"] == races.picture(state.view["foundations"])
    await close_all(watcher)


def test_moves_of_one_attempt_that_waited_together_make_one_update():
    f1, f2 = ({"suit": "S", "top": "AS", "count": 1},), ({"suit": "S", "top": "2S", "count": 2},)
    one, two, other = (
        races.RacerMove(1, moves=1, foundation_cards=1, seconds=1.0, foundations=f1),
        races.RacerMove(1, moves=2, foundation_cards=2, seconds=2.0, foundations=f2),
        races.RacerMove(2, moves=6, foundation_cards=1, seconds=9.0, foundations=f1),
    )
    assert progress.merged([one, other, two]) == [two, other]
    assert progress.merged([two, one]) == [two]  # an older move that came late: the later one
    # An end among them: the end alone (the update reads the attempt as committed).
    end = progress.End(1)
    assert progress.merged([one, end, two]) == [end]
