"""Fixtures of the races tests: players, a past daily whose day is over, today's daily, and a
race played to its end."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import clock, services
from games.identity import COOKIE_NAME
from games.models import Player
from races import services as races
from tests.games import factories
from tests.games.conftest import alice, bob  # noqa: F401 (fixtures)


@pytest.fixture
def carol(db):
    return factories.player("carol")


@pytest.fixture
def past_daily(db):
    """A masterpiece daily two days ago: its ranked play is over."""
    return factories.daily("masterpiece", clock.today() - dt.timedelta(days=2))


@pytest.fixture
def today_daily(db):
    return factories.daily("masterpiece")


def client_of(player: Player | None = None) -> APIClient:
    client = APIClient()
    if player is not None:
        client.cookies[COOKIE_NAME] = services.player_token_issue(player=player)
    return client


class Clock:
    """The server clock, set and moved on by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, moment: dt.datetime) -> None:
        self.moment = moment
        monkeypatch.setattr(clock, "now", lambda: self.moment)

    def tick(self, seconds: float) -> None:
        self.moment += dt.timedelta(seconds=seconds)


#: The clock of the last `after_countdown`: `play_line` moves it on at a person's pace.
CLOCKS: dict[str, Clock] = {}


def after_countdown(monkeypatch: pytest.MonkeyPatch, race: Any) -> Clock:
    """The server clock past the race's countdown."""
    race.refresh_from_db()
    CLOCKS["now"] = Clock(monkeypatch, race.starts_at + dt.timedelta(seconds=1))
    return CLOCKS["now"]


def started(monkeypatch, past_daily, *players: Player, capacity: int = 8):
    """A race on `past_daily` made by the first player, joined by the others, started, the
    countdown over."""
    race = races.race_make(
        player=players[0], game="masterpiece", date=past_daily.date, capacity=capacity
    )
    for p in players[1:]:
        races.race_join(code=race.code, player=p)
    races.race_start(code=race.code, player=players[0])
    after_countdown(monkeypatch, race)
    return race


def play_line(
    attempt_id: int, player: Player, line: list[str], *, start: int = 0, human: bool = True
) -> Any:
    """Play `line`; `human`: a person's pace (a look at the deal first, then gaps of one to
    five seconds that vary as a person's do), else every move at the same moment."""
    state = None
    for seq, token in enumerate(line, start=start):
        if human:
            CLOCKS["now"].tick(3.0 if seq == 0 else 1.0 + (seq * 2654435761 % 4000) / 1000)
        state = services.attempt_play(attempt_id=attempt_id, player=player, seq=seq, move=token)
    return state
