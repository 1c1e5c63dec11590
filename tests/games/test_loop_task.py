"""One task of this process's event loop (infra/loop_task.py): started once per loop, handed
work from other threads, stopped after a bounded drain."""

from __future__ import annotations

import asyncio
import threading

from infra.loop_task import LoopTask


async def collect(queue: asyncio.Queue[int], seen: list[int]) -> None:
    while True:
        seen.append(await queue.get())
        queue.task_done()


def collector(seen: list[int], **kwargs) -> LoopTask[asyncio.Queue[int]]:
    return LoopTask("collector", asyncio.Queue, lambda queue: collect(queue, seen), **kwargs)


async def test_work_handed_from_another_thread_runs_in_the_tasks_loop():
    seen: list[int] = []
    task = collector(seen, drain=asyncio.Queue.join, drain_seconds=5)
    task.start()
    loops: list[asyncio.AbstractEventLoop] = []

    def hand_from_a_thread() -> None:
        for n in range(3):
            assert task.hand(
                lambda queue, n=n: (loops.append(asyncio.get_running_loop()), queue.put_nowait(n))
            )

    thread = threading.Thread(target=hand_from_a_thread)
    thread.start()
    await asyncio.to_thread(thread.join)
    await task.stop()  # drains what was handed
    assert seen == [0, 1, 2] and loops == [asyncio.get_running_loop()] * 3
    assert not task.hand(lambda queue: queue.put_nowait(9)) and task.task is None


async def test_a_second_start_in_the_same_loop_keeps_the_running_task():
    task = collector([])
    task.start()
    first = task.task
    task.start()
    assert task.task is first and first is not None and not first.done()
    await task.stop()
    assert first.cancelled()


async def test_the_stop_waits_for_the_drain_no_longer_than_its_deadline():
    async def stuck(queue: asyncio.Queue[int]) -> None:
        await asyncio.Event().wait()  # never takes what it is handed

    task = LoopTask("stuck", asyncio.Queue, stuck, drain=asyncio.Queue.join, drain_seconds=0.2)
    task.start()
    assert task.hand(lambda queue: queue.put_nowait(1))
    await asyncio.sleep(0)
    running = task.task
    async with asyncio.timeout(5):  # 0.2 s of drain, then the cancellation
        await task.stop()
    assert running is not None and running.cancelled()


def test_without_a_running_task_nothing_is_handed():
    task = collector([])
    assert not task.hand(lambda queue: queue.put_nowait(1))
