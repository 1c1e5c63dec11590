"""Reads of the games app that the pages and the API share: a player's attempt at a daily, and
the solver's line of a daily step by step."""

from __future__ import annotations

import datetime as dt

from games import clock, selectors, services
from games.engine import game_class
from tests.games import factories


def test_your_attempt_at_a_daily_is_the_ranked_one_else_the_latest_practice(alice, bob, travel):
    day = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    travel(day)
    daily = factories.daily("masterpiece", day.date())
    other = factories.daily("munger", day.date())
    ranked, _ = services.attempt_start(player=alice, daily=daily)
    travel(day + dt.timedelta(days=1))
    # The next day the unfinished ranked attempt is shown as it stood; she goes on in practice.
    assert services.attempt_start(player=alice, daily=daily)[0] == ranked
    practice, _ = services.attempt_continue_as_practice(attempt_id=ranked.pk, player=alice)
    bobs, _ = services.attempt_start(player=bob, daily=daily)

    assert practice.pk != ranked.pk and not practice.ranked
    assert selectors.attempt_at_daily(daily=daily, player=alice) == ranked
    assert selectors.attempt_at_daily(daily=daily, player=bob) == bobs
    assert selectors.attempt_at_daily(daily=other, player=alice) is None
    assert selectors.attempt_at_daily(daily=daily, player=None) is None
    found = selectors.attempts_at_dailies(dailies=[daily, other], player=alice)
    assert found == {daily.pk: ranked}


def test_the_solvers_line_replays_the_certificate_as_the_player_sees_it(db):
    daily = factories.daily("munger", clock.today() - dt.timedelta(days=1))

    line = selectors.daily_solution(daily=daily)

    assert (line["game"], line["date"], line["par"]) == (
        "munger",
        daily.date.isoformat(),
        daily.deal.par,
    )
    position = game_class("munger").from_deal(daily.deal.deal_string)
    assert line["start"] == position.view()
    for step in line["steps"]:
        carried = {m.move: m for m in position.legal_moves_carrying()}[step["move"]]
        assert (step["card"], step["count"]) == (carried.card, carried.count)
        position.push(step["move"])
        assert step["view"] == position.view()
    assert [step["move"] for step in line["steps"]] == daily.deal.certificate
    assert position.is_won()
