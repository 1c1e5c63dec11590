"""The Redis channel layer's process channels (realtime/layer.py), on a real Redis.

A socket's receive is cancelled whenever the socket closes, at any point of its wait. The layer
must come out of every such cancellation as it went in: the cancelled receive ends at once,
nothing keeps popping for it, and a receive from another event loop (a health check) works.
Messages sent to a channel and to a group (one at a time, or many groups at once) reach the
right channels of the process, and a Redis that cannot be reached is an error in the waiting
receive, not a hang.
"""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings

from realtime import layer as channel_layer
from realtime.layer import ReaderChannelLayer
from tests.support import RedisServer

pytestmark = pytest.mark.redis


def a_layer(url: str | None = None, **config) -> ReaderChannelLayer:
    base = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    if url is not None:
        base["hosts"] = [url]
    base.update(config)
    layer = ReaderChannelLayer(**base)
    layer.brpop_timeout = 1  # the reader notices that nobody waits within a second
    return layer


async def ends_soon(task: asyncio.Task, within: float = 3.0) -> bool:
    """True when `task` is over within `within` seconds (a deadline, not a pause)."""
    done, _ = await asyncio.wait({task}, timeout=within)
    return task in done


async def nothing_within(layer: ReaderChannelLayer, channel: str, seconds: float = 0.3) -> bool:
    """True when nothing reaches `channel` within `seconds` (the wait is then cancelled)."""
    waiting = asyncio.ensure_future(layer.receive(channel))
    got = await ends_soon(waiting, within=seconds)
    waiting.cancel()
    await ends_soon(waiting)
    return not got


async def test_a_receive_cancelled_at_any_point_ends_at_once_and_leaves_no_reader():
    layer = a_layer()
    for steps in range(30):  # cancel after 0, 1, 2, ... turns of the event loop
        channel = await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(channel))
        for _ in range(steps):
            await asyncio.sleep(0)
        waiting.cancel()

        assert await ends_soon(waiting), f"a receive cancelled after {steps} steps went on"
        assert waiting.cancelled()

    async def no_reader() -> bool:
        while layer.readers_running():
            await asyncio.sleep(0.05)
        return True

    assert await asyncio.wait_for(no_reader(), timeout=5)
    await layer.close_pools()


async def test_after_cancelled_receives_another_event_loop_still_receives():
    layer = a_layer()
    for _ in range(20):
        waiting = asyncio.ensure_future(layer.receive(await layer.new_channel()))
        await asyncio.sleep(0)
        waiting.cancel()
        await ends_soon(waiting)
    still_waiting = asyncio.ensure_future(layer.receive(await layer.new_channel()))
    await asyncio.sleep(0.05)

    def round_trip_in_another_loop() -> dict:
        async def go() -> dict:
            channel = await layer.new_channel()
            await layer.send(channel, {"type": "health.ping"})
            return await asyncio.wait_for(layer.receive(channel), timeout=3)

        return asyncio.run(go())

    assert (await asyncio.to_thread(round_trip_in_another_loop))["type"] == "health.ping"
    still_waiting.cancel()
    await ends_soon(still_waiting)
    await layer.close_pools()


async def test_messages_reach_their_channels_and_groups_each_member():
    layer = a_layer()
    alice, bob, carol = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("board", alice)
    await layer.group_add("board", bob)

    await layer.send(carol, {"type": "to.carol"})
    await layer.group_send("board", {"type": "to.board", "n": 1})

    got = await asyncio.wait_for(
        asyncio.gather(layer.receive(alice), layer.receive(bob), layer.receive(carol)), 5
    )
    assert got == [
        {"type": "to.board", "n": 1},
        {"type": "to.board", "n": 1},
        {"type": "to.carol"},
    ]
    await layer.flush()


@pytest.mark.optimisation
async def test_many_group_sends_at_once_reach_each_member_in_their_order():
    layer = a_layer()
    one, two, alone = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("race.1", one)
    await layer.group_add("race.1", two)
    await layer.group_add("race.2", two)
    await layer.group_add("race.3", alone)
    await layer.group_send_many(
        [
            ("race.1", {"type": "m", "n": 1}),
            ("race.2", {"type": "m", "n": 2}),
            ("race.1", {"type": "m", "n": 3}),
            ("race.9", {"type": "m", "n": 4}),  # nobody in it
        ]
    )

    async def received(channel: str, count: int) -> list[int]:
        return [(await layer.receive(channel))["n"] for _ in range(count)]

    got = await asyncio.wait_for(asyncio.gather(received(one, 2), received(two, 3)), 5)
    assert got == [[1, 3], [1, 2, 3]]
    assert await nothing_within(layer, alone)
    await layer.flush()


async def test_many_group_sends_keep_a_channels_capacity():
    layer = a_layer(capacity=2)
    channel = await layer.new_channel()
    await layer.group_add("race.1", channel)
    await layer.group_send_many([("race.1", {"type": "m", "n": n}) for n in range(3)])
    got = [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(2)]
    assert got == [0, 1]  # the third found the channel full
    assert await nothing_within(layer, channel)
    await layer.flush()


async def test_a_message_sent_between_two_receives_waits_for_the_next_one():
    layer = a_layer()
    channel = await layer.new_channel()
    first = asyncio.ensure_future(layer.receive(channel))
    await layer.send(channel, {"type": "one"})
    assert (await asyncio.wait_for(first, 5))["type"] == "one"

    await layer.send(channel, {"type": "two"})  # nobody waits on the channel right now
    await asyncio.sleep(0.1)

    assert (await asyncio.wait_for(layer.receive(channel), 5))["type"] == "two"
    await layer.flush()


async def test_a_gone_channels_messages_are_dropped_after_a_while(monkeypatch):
    monkeypatch.setattr(channel_layer, "ORPHAN_SECONDS", 0.0)
    layer = a_layer()
    gone, alive = await layer.new_channel(), await layer.new_channel()
    listening = asyncio.ensure_future(layer.receive(alive))
    await layer.send(gone, {"type": "for.nobody"})
    await layer.send(alive, {"type": "hello"})
    await asyncio.wait_for(listening, 5)
    await layer.send(alive, {"type": "again"})  # one more pop: the orphan is swept
    await asyncio.wait_for(layer.receive(alive), 5)

    (reader,) = layer._loop().readers.values()
    assert gone not in reader.queues
    await layer.flush()


async def test_a_redis_that_goes_away_is_an_error_in_the_waiting_receive_then_works_again():
    redis = RedisServer().start()
    try:
        layer = a_layer(redis.url)
        channel = await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.2)  # the reader is in its blocking pop
        redis.stop()

        with pytest.raises(Exception) as raised:
            await asyncio.wait_for(waiting, 20)
        assert not isinstance(raised.value, asyncio.TimeoutError)

        redis = RedisServer(redis.port).start()
        again = asyncio.ensure_future(layer.receive(channel))
        await layer.send(channel, {"type": "back"})
        assert (await asyncio.wait_for(again, 10))["type"] == "back"
        await layer.close_pools()
    finally:
        redis.stop()
