"""Play too perfect to be human is reviewed: a ranked win that would enter its day's top 100 is
measured against shortest play off the request path (`services.attempt_check_perfection`, the
rule `too_perfect`), and held when nearly every move brought the win one move closer. A win
found its own way is not; the measure runs once, and never on a result an admin approved."""

from __future__ import annotations

import math
import random

import pytest
from django.urls import reverse

from benchmarks import fairplay as bench
from benchmarks.fairplay import Recorded, timed
from games import fairplay, services, signals
from games.engine.solver.distance import distance, position
from games.models import Attempt
from leaderboards import receivers

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def human_paced(line: list[str], seed: int = 3) -> Recorded:
    """`line` at a person's pace: a long first look, then log-normal gaps around 2.5 s."""
    rng = random.Random(seed)
    return timed(line, 25_000, lambda _: int(rng.lognormvariate(math.log(2500), 0.7)))


def own_way(game: str, deal_string: str, wanders: int = 5, every: int = 12) -> list[str]:
    """A win that goes its own way now and then, as people play: `every` moves of a shortest
    line, then a legal move off it that keeps a win within reach, `wanders` times; then a
    shortest line to the end."""
    line: list[str] = []
    rng = random.Random(7)
    for _ in range(wanders):
        ahead = distance(game, deal_string, line, time_limit=30).line
        line += ahead[:every]
        here = position(game, deal_string, line)
        choices = [m.text for m in here.legal_moves() if m.text != ahead[every]]
        rng.shuffle(choices)
        keeps_a_win = (
            m for m in choices if distance(game, deal_string, [*line, m], time_limit=5).line
        )
        line.append(next(keeps_a_win, ahead[every]))
    return line + distance(game, deal_string, line, time_limit=30).line


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
    assert [r["rule"] for r in bot.held_reasons] == ["solver_line"]  # no timing rule trips
    assert not on_board(bot)


def test_a_shortest_line_at_a_persons_pace_is_held_with_its_evidence(
    proven, reordered, play, admin_client
):
    bot = play(proven, human_paced(reordered))
    assert bot.status == Attempt.Status.WON and bot.review == Attempt.Review.NONE
    assert on_board(bot)  # the timing rules see a person

    checked = services.attempt_check_perfection(attempt_id=bot.pk)

    assert checked.review == Attempt.Review.HELD and not on_board(checked)
    assert [r["rule"] for r in checked.held_reasons] == ["too_perfect"]
    measured = checked.perfection
    assert measured["misses"] == 0 and measured["start"] == proven.deal.par
    assert measured["moves"] == proven.deal.par
    page = admin_client.get(reverse("admin:games_heldattempt_change", args=[bot.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="pd-perfection"' in html and "moves that brought the win one closer" in html


def test_a_win_found_its_own_way_is_not_held(proven, play):
    deal = proven.deal
    line = own_way("masterpiece", deal.deal_string)
    person = play(proven, human_paced(line, seed=11))
    assert person.status == Attempt.Status.WON

    checked = services.attempt_check_perfection(attempt_id=person.pk)

    assert checked.review == Attempt.Review.NONE and on_board(checked)
    measured = checked.perfection
    assert measured["misses"] >= 2 and measured["value"] >= fairplay.RULES_BY_NAME[
        "too_perfect"
    ].for_game("masterpiece")


def test_the_measure_runs_once_and_never_after_an_approval(proven, reordered, play, admin_user):
    bot = play(proven, human_paced(reordered))
    held = services.attempt_check_perfection(attempt_id=bot.pk)
    services.attempt_review_approve(attempt=held, by=admin_user, note="a strong player")

    again = services.attempt_check_perfection(attempt_id=bot.pk)

    assert again.review == Attempt.Review.APPROVED and on_board(again)
    assert [r["rule"] for r in again.held_reasons] == ["too_perfect"]  # kept for the record


def test_a_win_that_would_enter_the_top_is_sent_to_the_check(
    proven, reordered, play, monkeypatch, django_capture_on_commit_callbacks
):
    asked: list[int] = []

    def record(sender, attempt_id, **kwargs):
        asked.append(attempt_id)

    signals.perfection_check_requested.connect(record, dispatch_uid="test-perfection")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            top = play(proven, human_paced(reordered))
            loser = play(proven, human_paced(list(proven.deal.certificate[:30])), resign=True)
        monkeypatch.setattr(receivers, "PERFECTION_TOP", 0)  # no rank is high enough
        with django_capture_on_commit_callbacks(execute=True):
            later = play(proven, human_paced(reordered, seed=5))
    finally:
        signals.perfection_check_requested.disconnect(dispatch_uid="test-perfection")

    assert top.pk in asked
    assert loser.pk not in asked and later.pk not in asked


def perfection_rules(measured, moves: int = 40) -> list[str]:
    line = ["M1>F"] * moves
    times = list(range(10_000, 10_000 + moves * 3000, 3000))
    return [
        r["rule"] for r in fairplay.check("masterpiece", line, times, won=True, perfection=measured)
    ]


def test_the_rule_judges_wins_of_enough_moves():
    short = {"moves": fairplay.MIN_MOVES_PERFECTION - 1, "decided": 29, "misses": 0, "start": 29}
    enough = {**short, "moves": 30, "decided": 30, "start": 30}
    assert "too_perfect" not in perfection_rules(short)
    assert "too_perfect" in perfection_rules(enough)
    assert "too_perfect" not in perfection_rules(None)


def test_a_partly_settled_honest_win_counts_its_unsettled_moves_as_wrong_turns():
    # A strong player's 99 net moves from a distance of 70: the budget settled 31, all closer.
    measured = {"moves": 99, "decided": 31, "misses": 0, "start": 70}
    assert fairplay.most_misses(measured) == 29  # at most 99 - 70, though 68 are unsettled
    assert "too_perfect" not in perfection_rules(measured, moves=99)


def test_a_shortest_line_is_held_however_little_of_it_was_settled():
    # The line is as long as the deal's distance: no move can have been a wrong turn.
    measured = {"moves": 80, "decided": 12, "misses": 0, "start": 80}
    assert fairplay.most_misses(measured) == 0
    assert "too_perfect" in perfection_rules(measured, moves=80)
    # Without the deal's distance, the unsettled moves count: not held.
    assert "too_perfect" not in perfection_rules({**measured, "start": None}, moves=80)


def test_a_fully_settled_win_is_judged_on_its_misses():
    one = {"moves": 60, "decided": 60, "misses": 1, "start": 59}  # 1.7%
    two = {"moves": 60, "decided": 60, "misses": 2, "start": 58}  # 3.3%
    assert fairplay.most_misses(one) == 1 and fairplay.most_misses(two) == 2
    assert "too_perfect" in perfection_rules(one, moves=60)
    assert "too_perfect" not in perfection_rules(two, moves=60)
