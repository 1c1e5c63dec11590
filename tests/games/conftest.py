"""Fixtures of the games tests: named players and travel in time."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

import pytest

from games import clock
from tests.games import factories


@pytest.fixture
def alice(db):
    return factories.player("alice")


@pytest.fixture
def bob(db):
    return factories.player("bob")


@pytest.fixture
def travel(monkeypatch) -> Iterator[Callable[[dt.datetime], None]]:
    """`travel(datetime)` sets the server clock (aware or naive UTC) until the test ends."""

    def go(when: dt.datetime) -> None:
        moment = when if when.tzinfo else when.replace(tzinfo=dt.UTC)
        monkeypatch.setattr(clock, "now", lambda: moment)

    yield go
