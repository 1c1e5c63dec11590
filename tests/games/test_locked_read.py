"""`Attempt.objects.locked_for_play`: the attempt a move works on, read with its daily and deal
by SQL built once per thread, and the same as the ORM's own query gives."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import BIGINT_MAX, Attempt
from tests.games import factories

pytestmark = pytest.mark.django_db


def orm_read(pk: int) -> Attempt | None:
    return (
        Attempt.objects.select_for_update(of=("self",))
        .select_related("daily__deal")
        .filter(pk=pk)
        .first()
    )


def values(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def played(daily_attempt: bool) -> Attempt:
    """A daily's attempt with three moves played (times and all), or a practice one."""
    player = factories.player("alice")
    if not daily_attempt:
        return services.attempt_start_practice(player=player, game="munger", seed=7)[0]
    daily = factories.daily()
    attempt, _ = services.attempt_start(player=player, daily=daily)
    for seq, move in enumerate(daily.deal.certificate[:3]):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
    return attempt


@pytest.mark.parametrize("daily_attempt", [True, False], ids=["daily", "practice"])
def test_it_reads_what_the_orm_reads_with_the_daily_and_deal_in_one_query(daily_attempt):
    attempt = played(daily_attempt)
    with transaction.atomic():
        expected = orm_read(attempt.pk)
        with CaptureQueriesContext(connection) as queries:
            got = Attempt.objects.locked_for_play(attempt.pk)
            daily = got.daily  # read with it, not afterwards
            deal = daily.deal if daily else None
    assert len(queries) == 1
    assert values(got) == values(expected)
    if daily_attempt:
        assert values(daily) == values(expected.daily)
        assert values(deal) == values(expected.daily.deal)
        assert isinstance(deal.certificate, list) and deal.certificate  # JSON decoded
    else:
        assert daily is None
    assert isinstance(got.moves, list) and len(got.move_times) == len(got.moves)
    assert len(got.moves) == (3 if daily_attempt else 0)
    assert not got._state.adding and got._state.db == "default"


def test_an_unknown_or_impossible_id_is_no_attempt():
    attempt = played(True)
    with transaction.atomic():
        assert Attempt.objects.locked_for_play(attempt.pk + 1000) is None
        assert Attempt.objects.locked_for_play(BIGINT_MAX + 1) is None
        assert Attempt.objects.locked_for_play(-1) is None
        assert Attempt.objects.locked_for_play(attempt.pk).pk == attempt.pk  # same SQL again


@pytest.mark.django_db(transaction=True)
def test_it_needs_a_transaction():
    attempt = played(True)
    with pytest.raises(TransactionManagementError):
        Attempt.objects.locked_for_play(attempt.pk)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_row_stays_locked_until_the_transaction_ends():
    """A second transaction's locking read waits for the first to commit."""
    attempt = played(True)
    order: list[str] = []
    locked = threading.Event()

    def other() -> None:
        locked.wait(5)
        with transaction.atomic():
            Attempt.objects.locked_for_play(attempt.pk)
            order.append("other read")
        connection.close()

    thread = threading.Thread(target=other)
    thread.start()
    with transaction.atomic():
        Attempt.objects.locked_for_play(attempt.pk)
        locked.set()
        thread.join(0.5)  # it waits on the lock
        order.append("first commits")
    thread.join(5)
    assert order == ["first commits", "other read"]
