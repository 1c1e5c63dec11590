"""The embedded SQLite backend queues a process's writers on one lock (config/sqlite/base.py):
held from BEGIN to the commit or rollback, never left held, and never waited on for ever.

The backend is tested on a SQLite file of each test's own, whatever database the suite runs on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from django.db.utils import ConnectionHandler

from config.sqlite import base


@pytest.fixture
def connect(tmp_path, django_db_blocker) -> Iterator[Callable[..., base.DatabaseWrapper]]:
    """Connections of the embedded backend to one SQLite file (one per thread, as Django's);
    not the test database, so pytest-django's guard is lifted for them."""
    opened: list[base.DatabaseWrapper] = []

    def open_one(timeout: float = 20) -> base.DatabaseWrapper:
        handler = ConnectionHandler(
            {
                "default": {
                    "ENGINE": "config.sqlite",
                    "NAME": str(tmp_path / "writers.sqlite3"),
                    "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": timeout},
                }
            }
        )
        connection = handler["default"]
        opened.append(connection)
        return connection

    with django_db_blocker.unblock():
        yield open_one
    for connection in opened:
        connection.inc_thread_sharing()
        connection.close()
    assert not base._WRITERS.locked()


def begin(connection: base.DatabaseWrapper) -> None:
    """What `transaction.atomic` does first on this backend."""
    connection.ensure_connection()
    connection._start_transaction_under_autocommit()


def test_the_lock_is_held_from_begin_to_commit(connect):
    connection = connect()
    begin(connection)
    connection.cursor().execute("CREATE TABLE t (x integer)")
    held = base._WRITERS.locked()
    connection.commit()

    assert held and not base._WRITERS.locked()


@pytest.mark.parametrize("end", ["rollback", "close"])
def test_a_rollback_or_a_lost_connection_releases_it_too(connect, end):
    connection = connect()
    begin(connection)
    getattr(connection, end)()

    assert not base._WRITERS.locked()


def test_a_second_writer_waits_for_the_first_to_commit(connect):
    order: list[str] = []
    first = connect()
    begin(first)

    def second() -> None:
        other = connect()
        begin(other)
        order.append("second began")
        other.commit()

    thread = threading.Thread(target=second)
    thread.start()
    thread.join(timeout=0.3)  # it cannot begin while the first holds the lock
    order.append("first commits")
    first.commit()
    thread.join(timeout=5)

    assert order == ["first commits", "second began"]


def test_a_lock_not_had_within_the_busy_timeout_is_gone_without(connect):
    connection = connect(timeout=0.05)
    base._WRITERS.acquire()  # as if another thread never let go
    try:
        begin(connection)
        connection.cursor().execute("CREATE TABLE t (x integer)")
        connection.commit()  # must not release the lock it never had
        still_held = base._WRITERS.locked()
    finally:
        base._WRITERS.release()

    assert still_held
