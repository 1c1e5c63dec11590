"""Services of the games app: play against the server, and every bad input refused with
nothing changed."""

from __future__ import annotations

import datetime as dt
import threading
from functools import partial

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction

from games import clock, selectors, services
from games.engine import new_game
from games.errors import Conflict, IllegalMove, Malformed, NotFound
from games.models import Attempt, DailyChallenge, Deal
from games.state import AttemptState, attempt_state
from tests.games import factories

pytestmark = pytest.mark.django_db


def snapshot(attempt: Attempt) -> tuple:
    attempt.refresh_from_db()
    return (
        list(attempt.moves),
        attempt.next_seq,
        attempt.status,
        attempt.move_count,
        attempt.foundation_cards,
        attempt.finished_at,
    )


# -- starting --------------------------------------------------------------------------------


def test_todays_daily_is_ranked_and_starting_again_resumes_it(alice) -> None:
    daily = factories.daily()
    attempt, created = services.attempt_start(player=alice, daily=daily)
    assert created and attempt.ranked and attempt.status == "playing"
    assert attempt.deal_string == daily.deal.deal_string and attempt.started_at <= clock.now()
    again, created_again = services.attempt_start(player=alice, daily=daily)
    assert again.pk == attempt.pk and not created_again


def test_a_past_daily_is_practice_and_a_future_one_does_not_exist(alice) -> None:
    past = factories.daily(date=clock.today() - dt.timedelta(days=3))
    attempt, _ = services.attempt_start(player=alice, daily=past)
    assert not attempt.ranked
    future = factories.daily(date=clock.today() + dt.timedelta(days=1))
    with pytest.raises(NotFound):
        services.attempt_start(player=alice, daily=future)
    assert not Attempt.objects.filter(daily=future).exists()


def test_practice_resumes_until_finished_then_starts_afresh(alice) -> None:
    past = factories.daily(date=clock.today() - dt.timedelta(days=1))
    first, _ = services.attempt_start(player=alice, daily=past)
    assert services.attempt_start(player=alice, daily=past)[0].pk == first.pk
    services.attempt_resign(attempt_id=first.pk, player=alice)
    second, created = services.attempt_start(player=alice, daily=past)
    assert created and second.pk != first.pk


def test_one_ranked_attempt_per_player_and_daily_is_a_database_rule(alice) -> None:
    daily = factories.daily()
    services.attempt_start(player=alice, daily=daily)
    with pytest.raises(IntegrityError), transaction.atomic():
        Attempt.objects.create(
            player=alice,
            game=daily.game,
            daily=daily,
            deal_string=daily.deal.deal_string,
            ranked=True,
            started_at=clock.now(),
        )


def test_practice_on_any_seed(alice) -> None:
    attempt, created = services.attempt_start_practice(player=alice, game="munger", seed=42)
    assert created and not attempt.ranked and attempt.daily is None
    assert services.attempt_start_practice(player=alice, game="munger", seed=42)[0] == attempt
    with pytest.raises(Malformed):
        services.attempt_start_practice(player=alice, game="munger", seed=-1)
    with pytest.raises(NotFound):
        services.attempt_start_practice(player=alice, game="chess", seed=1)


# -- playing ---------------------------------------------------------------------------------


def test_playing_the_certificate_wins_and_is_verified(alice) -> None:
    daily = factories.daily("munger")
    attempt, _ = services.attempt_start(player=alice, daily=daily)
    answer = None
    for seq, move in enumerate(daily.deal.certificate):
        answer = services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=move)
    assert answer is not None
    attempt.refresh_from_db()
    assert attempt.status == "won" and attempt.verified and attempt.finished_at
    assert attempt.move_count == attempt.next_seq == len(daily.deal.certificate)
    assert attempt.foundation_cards == 52 and answer.attempt.status == "won"


def test_a_move_answers_the_new_view_the_revealed_cards_and_the_legal_moves(alice) -> None:
    attempt, _ = services.attempt_start_practice(player=alice, game="munger", seed=1)
    answer = services.attempt_play(attempt_id=attempt.pk, player=alice, seq=0, move="S>W")
    expected = new_game("munger", seed=1)
    cards = expected.push("S>W")
    assert answer.revealed == [str(expected.deal_cards[35])]  # the first stock card
    assert len(cards) == 1
    assert answer.view == expected.view()
    assert answer.legal == [m.text for m in expected.legal_moves()]
    assert answer.can_undo and not answer.replayed
    assert snapshot(attempt)[:2] == (["S>W"], 1)


@pytest.mark.parametrize(
    ("seq", "move", "error", "code"),
    [
        (0, "Z9>Q", Malformed, "malformed_move"),
        (0, "T1>T2>T3", Malformed, "malformed_move"),
        (0, "x" * 100, Malformed, "malformed_move"),
        (0, "", Malformed, "malformed_move"),
        (0, "T1>T2", IllegalMove, "illegal_move"),
        (0, "U", IllegalMove, "illegal_move"),
        (1, "S>W", Conflict, "wrong_seq"),
        (-1, "S>W", Malformed, "malformed_seq"),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(alice, seq, move, error, code) -> None:
    attempt, _ = services.attempt_start_practice(player=alice, game="munger", seed=1)
    before = snapshot(attempt)
    with pytest.raises(error) as info:
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=move)
    assert info.value.code == code and info.value.detail
    assert snapshot(attempt) == before


def test_an_illegal_move_says_why_and_lists_the_legal_ones(alice) -> None:
    attempt, _ = services.attempt_start_practice(player=alice, game="munger", seed=1)
    with pytest.raises(IllegalMove) as info:
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=0, move="T1>T2")
    assert "T1>T2" in info.value.detail and "rule" in info.value.detail
    assert info.value.extra["legal"] == ["R>F", "S>W", "T3>T5", "T6>T5"]


def test_the_same_seq_sent_again_answers_the_same_and_stores_nothing_twice(alice) -> None:
    attempt, _ = services.attempt_start_practice(player=alice, game="munger", seed=1)
    first = services.attempt_play(attempt_id=attempt.pk, player=alice, seq=0, move="S>W")
    services.attempt_play(attempt_id=attempt.pk, player=alice, seq=1, move="S>W")
    again = services.attempt_play(attempt_id=attempt.pk, player=alice, seq=0, move="S>W")
    assert again.replayed and again.view == first.view and again.revealed == first.revealed
    assert snapshot(attempt)[:2] == (["S>W", "S>W"], 2)
    with pytest.raises(Conflict) as info:  # a different move for a stored seq
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=0, move="R>F")
    assert info.value.code == "seq_taken" and info.value.extra["expected_seq"] == 2


def test_someone_elses_attempt_is_as_unknown_as_no_attempt(alice, bob) -> None:
    """Another player's attempt answers exactly as an id that does not exist: nobody learns
    which attempt ids exist."""
    attempt, _ = services.attempt_start_practice(player=alice, game="masterpiece", seed=1)
    before = snapshot(attempt)
    answers = []
    for attempt_id in (attempt.pk, attempt.pk + 1000):
        acts = (
            partial(services.attempt_play, attempt_id=attempt_id, player=bob, seq=0, move="M5>M7"),
            partial(services.attempt_resign, attempt_id=attempt_id, player=bob),
            partial(selectors.attempt_get, attempt_id=attempt_id, player=bob),
        )
        for act in acts:
            with pytest.raises(NotFound) as info:
                act()
            answers.append((info.value.code, info.value.detail))
    assert len(set(answers)) == 1
    assert snapshot(attempt) == before


def play_until_blocked(attempt: Attempt, player) -> AttemptState:
    """Play the first legal move until no card move is left."""
    game = new_game(attempt.game, deal=attempt.deal_string)
    seq = 0
    state = attempt_state(attempt)
    while state.legal:
        move = game.legal_moves()[0].text
        game.push(move)
        state = services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
        seq += 1
    return state


def test_a_dead_end_does_not_end_the_attempt_undo_and_resign_remain(alice) -> None:
    # Masterpiece seed 19 leaves no card move within a few moves of first-legal-move play.
    attempt, _ = services.attempt_start_practice(player=alice, game="masterpiece", seed=19)
    state = play_until_blocked(attempt, alice)
    assert state.blocked and state.can_undo and not state.legal
    attempt.refresh_from_db()
    assert attempt.status == "playing" and attempt.finished_at is None
    undone = services.attempt_play(
        attempt_id=attempt.pk, player=alice, seq=attempt.next_seq, move="U"
    )
    assert not undone.blocked and undone.legal
    assert undone.attempt.move_count == attempt.move_count + 1  # undo counts as a move
    resigned = services.attempt_resign(attempt_id=attempt.pk, player=alice)
    assert resigned.attempt.status == "resigned" and resigned.attempt.verified
    assert not resigned.can_undo and not resigned.blocked


def test_resign_ends_the_attempt_once(alice) -> None:
    attempt, _ = services.attempt_start_practice(player=alice, game="munger", seed=5)
    services.attempt_play(attempt_id=attempt.pk, player=alice, seq=0, move="S>W")
    resigned = services.attempt_resign(attempt_id=attempt.pk, player=alice).attempt
    assert resigned.status == "resigned" and resigned.verified and resigned.finished_at
    with pytest.raises(Conflict):
        services.attempt_resign(attempt_id=attempt.pk, player=alice)


def test_verification_replays_the_stored_history(alice) -> None:
    daily = factories.daily("masterpiece")
    attempt, _ = services.attempt_start(player=alice, daily=daily)
    for seq, move in enumerate(daily.deal.certificate):
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=move)
    attempt.refresh_from_db()
    assert services.attempt_verify(attempt=attempt)
    # Someone edits the stored history behind the server's back: verification fails.
    Attempt.objects.filter(pk=attempt.pk).update(moves=[*attempt.moves[:-1], "M1>M2"])
    attempt.refresh_from_db()
    assert not services.attempt_verify(attempt=attempt)
    attempt.refresh_from_db()
    assert attempt.verified is False


def test_disqualify_needs_a_reason_and_keeps_the_record(alice) -> None:
    attempt, _ = services.attempt_start_practice(player=alice, game="munger", seed=1)
    staff = User.objects.create_user("admin", is_staff=True)
    with pytest.raises(Malformed):
        services.attempt_disqualify(attempt=attempt, by=staff, reason="  ")
    services.attempt_disqualify(attempt=attempt, by=staff, reason="bot")
    attempt.refresh_from_db()
    assert attempt.disqualified and attempt.disqualified_reason == "bot"
    assert attempt.disqualified_by == staff and Attempt.objects.filter(pk=attempt.pk).exists()


# -- the day boundary ------------------------------------------------------------------------


def test_the_day_changes_at_midnight_utc(alice, bob, travel) -> None:
    monday = dt.date(2026, 11, 30)
    travel(dt.datetime(2026, 11, 30, 23, 59, 59))
    today = factories.daily("masterpiece", monday)
    tomorrow = factories.daily("masterpiece", monday + dt.timedelta(days=1))
    assert clock.today() == monday
    attempt, _ = services.attempt_start(player=alice, daily=today)
    assert attempt.ranked
    with pytest.raises(NotFound):
        services.attempt_start(player=alice, daily=tomorrow)

    travel(dt.datetime(2026, 12, 1, 0, 0, 0))
    assert clock.today() == monday + dt.timedelta(days=1)
    with pytest.raises(Conflict) as refused:  # its ranked play runs until 00:05
        services.attempt_start(player=bob, daily=today)
    assert refused.value.code == "daily_running"
    fresh, _ = services.attempt_start(player=bob, daily=tomorrow)
    assert fresh.ranked
    travel(dt.datetime(2026, 12, 1, 0, 5, 0))
    late, _ = services.attempt_start(player=bob, daily=today)
    assert not late.ranked  # yesterday's daily is practice now


# -- deals and the schedule ------------------------------------------------------------------


def test_deals_are_created_from_a_seed_or_a_valid_string_once() -> None:
    deal = services.deal_create(game="munger", seed=7)
    assert deal.solver_status == "pending" and deal.curation == "candidate"
    with pytest.raises(Conflict):
        services.deal_create(game="munger", deal_string=deal.deal_string)
    with pytest.raises(Malformed) as info:
        services.deal_create(game="munger", deal_string="AC 2C")
    assert "52" in info.value.detail
    with pytest.raises(Malformed):
        services.deal_create(
            game="masterpiece", deal_string=deal.deal_string if deal.deal_string[0] != "A" else "x"
        )
    with pytest.raises(Malformed):
        services.deal_create(game="munger")
    assert Deal.objects.count() == 1


def test_only_approved_certified_deals_are_scheduled() -> None:
    candidate = factories.certified_deal("masterpiece", approve=False)
    with pytest.raises(Conflict):
        services.daily_schedule(game="masterpiece", date=clock.today(), deal=candidate)
    with pytest.raises(Conflict):
        services.deal_approve(deal=services.deal_create(game="munger", seed=3))
    approved = services.deal_approve(deal=candidate)
    with pytest.raises(Malformed):
        services.daily_schedule(game="munger", date=clock.today(), deal=approved)
    with pytest.raises(Conflict):
        services.daily_schedule(
            game="masterpiece", date=clock.today() - dt.timedelta(days=1), deal=approved
        )
    assert not DailyChallenge.objects.exists()
    daily = services.daily_schedule(game="masterpiece", date=clock.today(), deal=approved)
    assert daily.deal == approved


def test_the_database_refuses_a_daily_with_an_unapproved_deal() -> None:
    candidate = factories.certified_deal("masterpiece", approve=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyChallenge.objects.create(game="masterpiece", date=clock.today(), deal=candidate)
    daily = factories.daily("masterpiece")
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.filter(pk=daily.deal_id).update(curation="rejected")
    with pytest.raises(Conflict):
        services.deal_reject(deal=daily.deal)


def test_a_played_day_keeps_its_deal(alice) -> None:
    daily = factories.daily("masterpiece")
    other = factories.certified_deal("masterpiece")
    swapped = services.daily_schedule(game="masterpiece", date=daily.date, deal=other)
    assert swapped.deal == other  # nobody played yet: swapping is fine
    services.attempt_start(player=alice, daily=daily)
    with pytest.raises(Conflict):
        services.daily_schedule(
            game="masterpiece", date=daily.date, deal=factories.certified_deal("masterpiece")
        )
    with pytest.raises(Conflict):
        services.daily_unschedule(daily=daily)
    daily.refresh_from_db()
    assert daily.deal == other


# -- players ---------------------------------------------------------------------------------


def test_guests_get_a_name_they_can_change_within_the_rules(alice) -> None:
    guest = services.player_create_guest()
    assert guest.display_name.startswith("Guest ")
    services.player_rename(player=guest, display_name="  Ann   Lee ")
    assert guest.display_name == "Ann Lee"
    for bad in ["a", "x" * 25, "<script>", " ", "Guest 123456", "ALICE", "bad\x00name", "💥💥"]:
        with pytest.raises((Malformed, Conflict)):
            services.player_rename(player=guest, display_name=bad)
    guest.refresh_from_db()
    assert guest.display_name == "Ann Lee"
    services.player_rename(player=guest, display_name="Анна")
    assert guest.display_name == "Анна"


def test_signing_in_keeps_the_person_across_devices(alice) -> None:
    user = User.objects.create_user("ann")
    laptop = services.player_link_user(player=alice, user=user)
    assert laptop == alice and alice.user == user
    phone_guest = services.player_create_guest()
    daily = factories.daily("masterpiece", clock.today() - dt.timedelta(days=1))
    attempt, _ = services.attempt_start(player=phone_guest, daily=daily)
    same = services.player_link_user(player=phone_guest, user=user)
    assert same == alice
    attempt.refresh_from_db()
    assert attempt.player == alice  # the phone's practice moved to the account's player


# -- concurrency -----------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_clients_playing_at_once_keep_one_consistent_history() -> None:
    alice = factories.player("alice")
    attempt, _ = services.attempt_start_practice(player=alice, game="munger", seed=1)
    moves = ["S>W"] * 10
    barrier = threading.Barrier(2)
    outcomes: list[list[str]] = [[], []]

    def client(k: int) -> None:
        try:
            for seq, move in enumerate(moves):
                barrier.wait(timeout=10)
                try:
                    answer = services.attempt_play(
                        attempt_id=attempt.pk, player=alice, seq=seq, move=move
                    )
                    outcomes[k].append("replayed" if answer.replayed else "stored")
                except Conflict as exc:
                    outcomes[k].append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    attempt.refresh_from_db()
    assert attempt.moves == moves and attempt.next_seq == 10
    # Each seq was stored exactly once; the other client got the same answer back.
    for seq in range(10):
        assert sorted([outcomes[0][seq], outcomes[1][seq]]) == ["replayed", "stored"]


def test_the_largest_seeds_are_stored_exactly(alice) -> None:
    # Seeds go up to 2^64 - 1: more than a signed 64-bit column, and SQLite rounds decimals.
    for seed in (2**64 - 1, 2**63 + 12345, 10**15 + 1):
        deal = services.deal_create(game="masterpiece", seed=seed)
        deal.refresh_from_db()
        assert (
            deal.seed == str(seed) and deal.deal_string == new_game("masterpiece", seed=seed).deal
        )
        attempt, _ = services.attempt_start_practice(player=alice, game="munger", seed=seed)
        attempt.refresh_from_db()
        assert attempt.seed == str(seed)


def test_verification_refuses_a_daily_attempt_whose_deal_was_swapped(alice) -> None:
    daily = factories.daily("masterpiece")
    attempt, _ = services.attempt_start(player=alice, daily=daily)
    assert services.attempt_verify(attempt=attempt)
    Attempt.objects.filter(pk=attempt.pk).update(deal_string=new_game("masterpiece", seed=99).deal)
    attempt.refresh_from_db()
    assert not services.attempt_verify(attempt=attempt)
    Attempt.objects.filter(pk=attempt.pk).update(deal_string="garbage")
    attempt.refresh_from_db()
    assert not services.attempt_verify(attempt=attempt)


def test_solve_now_restarts_a_deal_whose_worker_died(
    travel, django_capture_on_commit_callbacks
) -> None:
    deal = services.deal_create(game="munger", seed=5)
    Deal.objects.filter(pk=deal.pk).update(solver_status="solving", solve_started_at=clock.now())
    with django_capture_on_commit_callbacks() as sent:
        services.deal_request_solve(deal=deal)
    assert sent == [] and Deal.objects.get(pk=deal.pk).solver_status == "solving"
    travel(clock.now() + services.STALE_CLAIM + dt.timedelta(seconds=1))
    with django_capture_on_commit_callbacks() as sent:
        services.deal_request_solve(deal=deal)
    assert len(sent) == 1 and Deal.objects.get(pk=deal.pk).solver_status == "pending"
