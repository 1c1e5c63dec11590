"""The check every test of the sockets runs under (`database_only_through_its_thread` in
conftest.py): a query is the sockets' only if `database_sync_to_async` makes it."""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async

from tests.realtime.conftest import query_route


def probe() -> str | None:
    def execute() -> str | None:  # where the query would be sent
        return query_route()

    return execute()


async def test_the_route_check_tells_the_database_thread_from_the_others():
    assert await database_sync_to_async(probe)() is None
    assert "not through database_sync_to_async" in (await asyncio.to_thread(probe) or "")
    assert probe() == "on the event loop's thread"


def test_a_sync_tests_own_queries_are_its_own():
    assert probe() is None
