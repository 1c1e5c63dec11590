"""The rule `shared_address` (games/fairplay.py): a win from an address that started more ranked
attempts at its daily than a household may as guests (possible through accounts only) waits
for review beside its siblings, which the review page lists with their timings, one after the
other. The count is the service's (`services.attempts._hold_if_shared_address`)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games import fairplay, services
from games.models import Attempt, Player

RULE = fairplay.RULES_BY_NAME["shared_address"]
SCHOOL = "192.0.2.80"


def trips(attempts: int | None, *, won: bool = True, household: int = 4) -> str | None:
    counted = None if attempts is None else {"attempts": attempts, "household": household}
    return RULE.check(fairplay.Play("munger", ["S>W"], [5000], won=won, address_attempts=counted))


def test_the_rule_trips_past_the_households_attempts_on_a_win_only() -> None:
    assert trips(4) is None  # a household's four rows
    detail = trips(5)
    assert detail is not None and "5 ranked attempts" in detail and "household's 4" in detail
    assert trips(9, won=False) is None
    assert trips(None) is None  # not counted: says nothing
    assert set(RULE.threshold) == {"masterpiece", "munger"}
    assert RULE.description and RULE.why and RULE.unit


def test_the_rules_check_says_nothing_of_it_without_the_services_count() -> None:
    reasons = fairplay.check("munger", ["S>W"], [5000], won=True)
    assert "shared_address" not in {reason["rule"] for reason in reasons}


def account(name: str) -> Player:
    user = User.objects.create_user(name, password="a long enough password 1")
    return Player.objects.create(display_name=name, user=user)


def win(daily, player: Player, fake_clock, *, address: str, offset_s: int) -> Attempt:
    """The player's ranked attempt from `address`, started `offset_s` after nine, and won with
    the deal's certificate at an uneven, unhurried pace."""
    start = dt.datetime(2030, 1, 7, 9, 0, tzinfo=dt.UTC) + dt.timedelta(seconds=offset_s)
    fake_clock.set(start)
    attempt, created = services.attempt_start(
        player=player, daily=daily, device=f"{player.pk:064d}", address=address
    )
    assert created and attempt.ranked
    at = start + dt.timedelta(seconds=12)
    for seq, move in enumerate(daily.deal.certificate):
        at += dt.timedelta(milliseconds=1500 + (seq * 977) % 4000)
        fake_clock.set(at)
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
    return Attempt.objects.get(pk=attempt.pk)


def rules(attempt: Attempt) -> set[str]:
    return {reason["rule"] for reason in attempt.held_reasons}


@pytest.mark.slow
def test_a_win_from_an_address_past_a_households_rows_is_held_with_its_siblings(
    settings, dailies, fake_clock, admin_client
) -> None:
    settings.RANKED_STARTS_PER_ADDRESS = 2
    daily = dailies("masterpiece")
    first, second, third = (account(name) for name in ("ann", "ben", "cat"))

    within = win(daily, first, fake_clock, address=SCHOOL, offset_s=0)
    probe, _ = services.attempt_start(player=second, daily=daily, device="b" * 64, address=SCHOOL)
    past = win(daily, third, fake_clock, address=SCHOOL, offset_s=600)

    assert within.status == past.status == Attempt.Status.WON
    assert "shared_address" not in rules(within)  # its one row then: a household
    assert past.review == Attempt.Review.HELD and "shared_address" in rules(past)
    [reason] = [r for r in past.held_reasons if r["rule"] == "shared_address"]
    assert "3 ranked attempts" in reason["detail"]
    assert not Attempt.objects.filter(daily=daily).on_board().filter(pk=past.pk).exists()

    # The review page lists the siblings of the same daily with their timings, in the order
    # they started, this result among them.
    page = admin_client.get(reverse("admin:games_heldattempt_change", args=[past.pk]))
    body = page.content.decode()
    linked = body.split('id="pd-linked"', 1)[1].split("</table>", 1)[0]
    assert "shared_address" in body
    order = [linked.index(str(a)) for a in (within, probe, past)]
    assert order == sorted(order)
    assert "this result" in linked and "address" in linked
    assert "+13.5 s" in linked  # the first move, after the deal was shown
    assert "no move" in linked  # the probe that never moved
    assert "09:00:00" in linked and "09:10:00" in linked  # started
    assert f"{past.move_count} (0 undos)" in linked


def test_approved_or_unverified_wins_and_practice_are_not_counted(dailies, fake_clock) -> None:
    """The hook leaves alone what an admin decided and what never reaches a board, and costs
    no query for a win from no known address."""
    from games.services.attempts import _hold_if_shared_address

    daily = dailies("munger")
    values = {
        "game": "munger",
        "daily": daily,
        "moves": ["S>W"],
        "move_times": [5000],
        "client_address": SCHOOL,
    }
    for fields in (
        {"ranked": False, "verified": True, "status": Attempt.Status.WON},
        {"ranked": True, "verified": False, "status": Attempt.Status.WON},
        {"ranked": True, "verified": True, "status": Attempt.Status.RESIGNED},
        {"ranked": True, "verified": True, "status": "won", "review": "approved"},
        {"ranked": True, "verified": True, "status": "won", "client_address": None},
    ):
        attempt = Attempt(**{**values, **fields})
        _hold_if_shared_address(attempt)
        assert attempt.held_reasons == [] and attempt.review != Attempt.Review.HELD
