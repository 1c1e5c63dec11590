"""The embedded SQLite backend queues a process's writers on one lock (config/sqlite/base.py):
held from BEGIN to the commit or rollback, never left held, and never waited on for ever."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from config.sqlite import base
from games.models import Player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the embedded SQLite backend only"),
]


def test_the_lock_is_held_for_a_transaction_and_released_by_its_commit():
    with transaction.atomic():
        Player.objects.create(display_name="alice")
        held = base._WRITERS.locked()

    assert held and not base._WRITERS.locked()


def test_a_rollback_releases_it_too():
    with pytest.raises(RuntimeError), transaction.atomic():
        Player.objects.create(display_name="bob")
        raise RuntimeError("the view failed")

    assert not base._WRITERS.locked()
    assert not Player.objects.filter(display_name="bob").exists()


def test_a_second_writer_waits_for_the_first_to_commit():
    order: list[str] = []
    first_began = threading.Event()

    def second() -> None:
        first_began.wait()
        with transaction.atomic():
            order.append("second began")
        connection.close()

    thread = threading.Thread(target=second)
    thread.start()
    with transaction.atomic():
        first_began.set()
        thread.join(timeout=0.3)  # it cannot begin while this transaction holds the lock
        order.append("first commits")
    thread.join(timeout=5)

    assert order == ["first commits", "second began"]


def test_a_lock_not_had_within_the_busy_timeout_is_gone_without(settings, monkeypatch):
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "timeout", 0.05)
    base._WRITERS.acquire()  # as if another thread never let go
    try:
        with transaction.atomic():
            Player.objects.create(display_name="carol")
    finally:
        base._WRITERS.release()

    assert Player.objects.filter(display_name="carol").exists()
