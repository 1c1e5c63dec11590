"""Play too close to perfect to be human is reviewed: a ranked win that wasted almost no move
(the rule `accuracy`, from the deal's proven par, as the win ends) is held, whatever its order
and pace; a win found its own way is not. A win that would enter its day's top 100 then gets
the solver's distance after each of its moves measured off the request path
(`services.attempt_check_perfection`): the reviewer's evidence, which can only tighten the
rule's bound; the measure runs once, and never on a result an admin approved."""

from __future__ import annotations

import math
import random

import pytest
from django.urls import reverse

from benchmarks import fairplay as bench
from benchmarks.fairplay import Recorded, timed
from games import fairplay, services, signals
from games.models import Attempt
from leaderboards import receivers
from tests.fairplay.lines import wandering

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def human_paced(line: list[str], seed: int = 3) -> Recorded:
    """`line` at a person's pace: a long first look, then log-normal gaps around 2.5 s."""
    rng = random.Random(seed)
    return timed(line, 25_000, lambda _: int(rng.lognormvariate(math.log(2500), 0.7)))


@pytest.fixture
def proven(dailies):
    """Today's Masterpiece daily, its par proven shortest (as the workers do before the day)."""
    daily = dailies("masterpiece")
    deal = services.deal_prove_par(deal_id=daily.deal_id, time_limit=60)
    assert deal.par_optimal
    daily.refresh_from_db()
    return daily


def on_board(attempt: Attempt) -> bool:
    return Attempt.objects.filter(pk=attempt.pk).on_board().exists()


@pytest.fixture
def reordered(proven) -> list[str]:
    """A shortest line of the proven daily that is not the solver's."""
    deal = proven.deal
    line = bench.reordered("masterpiece", deal.deal_string, deal.certificate)
    assert len(line) == deal.par and line[: len(line) // 4] != deal.certificate[: len(line) // 4]
    return line


def test_the_solvers_own_line_at_a_persons_pace_is_held_when_it_ends(proven, play):
    bot = play(proven, human_paced(list(proven.deal.certificate)))
    assert bot.status == Attempt.Status.WON and bot.review == Attempt.Review.HELD
    assert [r["rule"] for r in bot.held_reasons] == ["accuracy"]  # no timing rule trips
    assert not on_board(bot)


def test_a_shortest_line_in_another_order_is_held_as_it_ends_then_measured(
    proven, reordered, play, admin_client
):
    bot = play(proven, human_paced(reordered))
    assert bot.status == Attempt.Status.WON and bot.review == Attempt.Review.HELD
    assert [r["rule"] for r in bot.held_reasons] == ["accuracy"]  # the timing rules see a person
    assert not on_board(bot) and "100.0% accuracy" in bot.held_reasons[0]["detail"]

    checked = services.attempt_check_perfection(attempt_id=bot.pk)

    assert checked.review == Attempt.Review.HELD and not on_board(checked)
    assert [r["rule"] for r in checked.held_reasons] == ["accuracy"]  # not twice
    measured = checked.perfection
    assert measured["misses"] == 0 and measured["start"] == proven.deal.par
    assert measured["moves"] == proven.deal.par
    page = admin_client.get(reverse("admin:games_heldattempt_change", args=[bot.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="pd-perfection"' in html and "moves that brought the win one closer" in html


def test_a_win_found_its_own_way_is_not_held(proven, reordered, play):
    line = wandering("masterpiece", proven.deal.deal_string, reordered)
    person = play(proven, human_paced(line, seed=11))
    assert person.status == Attempt.Status.WON and person.review == Attempt.Review.NONE

    checked = services.attempt_check_perfection(attempt_id=person.pk)

    assert checked.review == Attempt.Review.NONE and on_board(checked)
    measured = checked.perfection
    wasted = fairplay.RULES_BY_NAME["accuracy"].for_game("masterpiece")
    assert measured["misses"] >= 2 and fairplay.most_misses(measured) >= wasted * len(line)


def test_the_measure_runs_once_and_never_after_an_approval(proven, reordered, play, admin_user):
    bot = play(proven, human_paced(reordered))
    services.attempt_review_approve(attempt=bot, by=admin_user, note="a strong player")

    again = services.attempt_check_perfection(attempt_id=bot.pk)

    assert again.review == Attempt.Review.APPROVED and on_board(again)
    assert again.perfection is None  # never measured once decided
    assert [r["rule"] for r in again.held_reasons] == ["accuracy"]  # kept for the record


def test_a_win_held_for_its_accuracy_is_sent_to_the_check(
    proven, reordered, play, django_capture_on_commit_callbacks
):
    """The reviewer's evidence: a held win is off the board, so no rank sends it."""
    asked: list[int] = []

    def record(sender, attempt_id, **kwargs):
        asked.append(attempt_id)

    signals.perfection_check_requested.connect(record, dispatch_uid="test-perfection-held")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            bot = play(proven, human_paced(reordered))
    finally:
        signals.perfection_check_requested.disconnect(dispatch_uid="test-perfection-held")

    assert bot.review == Attempt.Review.HELD and asked == [bot.pk]


def test_a_win_that_would_enter_the_top_is_sent_to_the_check(
    proven, reordered, play, monkeypatch, django_capture_on_commit_callbacks
):
    asked: list[int] = []

    def record(sender, attempt_id, **kwargs):
        asked.append(attempt_id)

    line = wandering("masterpiece", proven.deal.deal_string, reordered)
    signals.perfection_check_requested.connect(record, dispatch_uid="test-perfection")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            top = play(proven, human_paced(line))
            loser = play(proven, human_paced(list(proven.deal.certificate[:30])), resign=True)
        monkeypatch.setattr(receivers, "PERFECTION_TOP", 0)  # no rank is high enough
        with django_capture_on_commit_callbacks(execute=True):
            later = play(proven, human_paced(line, seed=5))
    finally:
        signals.perfection_check_requested.disconnect(dispatch_uid="test-perfection")

    assert top.pk in asked
    assert loser.pk not in asked and later.pk not in asked


def test_a_partly_settled_win_counts_its_unsettled_moves_as_wrong_turns():
    # A strong player's 99 net moves from a distance of 70: the budget settled 31, all closer.
    measured = {"moves": 99, "decided": 31, "misses": 0, "start": 70}
    assert fairplay.most_misses(measured) == 29  # at most 99 - 70, though 68 are unsettled


def test_a_shortest_line_has_no_miss_however_little_of_it_was_settled():
    # The line is as long as the deal's distance: no move can have been a wrong turn.
    measured = {"moves": 80, "decided": 12, "misses": 0, "start": 80}
    assert fairplay.most_misses(measured) == 0
    # Without the deal's distance, the unsettled moves count.
    assert fairplay.most_misses({**measured, "start": None}) == 68
