"""A held result is silent everywhere until an admin approves it: no live feed line, no count,
no board row (the board's rule, `AttemptQuerySet.on_board`, is the only one used)."""

from __future__ import annotations

import random

import pytest

from benchmarks.fairplay import human_game, instant_bot
from games import selectors as games_selectors
from games import services
from games.models import Attempt
from leaderboards import selectors as boards
from realtime import boards as live
from tests.fairplay.lines import own_line

pytestmark = pytest.mark.django_db


def test_a_held_win_is_in_no_feed_line_count_or_row_until_approved(dailies, play, admin_user):
    daily = dailies("masterpiece")
    deal = daily.deal
    bot = play(daily, instant_bot(random.Random(1), deal.certificate))
    human = play(
        daily, human_game(random.Random(3), "masterpiece", deal.deal_string, own_line(daily))
    )
    assert bot.review == Attempt.Review.HELD and bot.status == Attempt.Status.WON

    event = live.update_for(daily.pk, {bot.pk, human.pk})
    snapshot_feed = boards.race_feed(daily=daily)
    summary = games_selectors.daily_summary(daily=daily, player=None)

    names = {line["player"] for line in event["feed"]} | {r["player"] for r in snapshot_feed}
    assert bot.player.display_name not in names
    assert human.player.display_name in names
    assert bot.pk not in {r["attempt_id"] for r in event["board"]["top"]}
    assert summary["winners"] == (1 if human.status == Attempt.Status.WON else 0)

    services.attempt_review_approve(attempt=bot, by=admin_user)
    event = live.update_for(daily.pk, {bot.pk})
    assert [line["player"] for line in event["feed"]] == [bot.player.display_name]
