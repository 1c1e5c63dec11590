"""infra/prepared.py: reads and writes whose SQL is built once. `Attempt.objects.shown` (the
attempt a move works on, with its daily and deal) and the player cookie's token read give what
the ORM's own queries give; the guarded writes write what `save()` writes."""

from __future__ import annotations

import datetime as dt
import json
import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import Count
from django.db.models.signals import post_save, pre_save
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games import identity, services
from games.models import BIGINT_MAX, Attempt, DailyChallenge, Player, PlayerToken
from infra.prepared import PreparedInsert, PreparedRead, PreparedUpdate
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


def played(daily_attempt: bool, name: str = "alice", daily=None) -> Attempt:
    """A daily's attempt with three moves played (times and all), or a practice one."""
    player = factories.player(name)
    if not daily_attempt:
        return services.attempt_start_practice(player=player, game="munger", seed=7)[0]
    daily = daily or factories.daily()
    attempt, _ = services.attempt_start(player=player, daily=daily)
    for seq, move in enumerate(daily.deal.certificate[:3]):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
    return attempt


@pytest.mark.parametrize("daily_attempt", [True, False], ids=["daily", "practice"])
@pytest.mark.optimisation
def test_it_reads_what_the_orm_reads_with_the_daily_and_deal_in_one_query(daily_attempt):
    attempt = played(daily_attempt)
    with transaction.atomic():
        expected = orm_read(attempt.pk)
        with CaptureQueriesContext(connection) as queries:
            got = Attempt.objects.shown(attempt.pk)
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
    for pk in (attempt.pk + 1000, BIGINT_MAX + 1, -1):
        assert Attempt.objects.shown(pk) is None
    assert Attempt.objects.shown(attempt.pk).pk == attempt.pk


#: A locking read, as a start reads a player's ranked attempt.
LOCKED = PreparedRead(
    lambda pk: Attempt.objects.select_for_update(of=("self",)).filter(pk=pk), slots=(-4242,)
)


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_needs_a_transaction():
    attempt = played(True)
    with pytest.raises(TransactionManagementError):
        LOCKED.first(attempt.pk)


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
            LOCKED.first(attempt.pk)
            order.append("other read")
        connection.close()

    thread = threading.Thread(target=other)
    thread.start()
    with transaction.atomic():
        LOCKED.first(attempt.pk)
        locked.set()
        thread.join(0.5)  # it waits on the lock
        order.append("first commits")
    thread.join(5)
    assert order == ["first commits", "other read"]


@pytest.mark.django_db(transaction=True)
def test_it_is_shared_by_threads_each_on_its_own_connection():
    attempt = played(True)
    seen: list[int] = []

    def read() -> None:
        with transaction.atomic():
            seen.append(LOCKED.first(attempt.pk).pk)
        connection.close()

    with transaction.atomic():
        assert LOCKED.first(attempt.pk).pk == attempt.pk
    for _ in range(2):
        thread = threading.Thread(target=read)
        thread.start()
        thread.join(10)
    assert seen == [attempt.pk, attempt.pk]


def test_a_cookies_token_is_read_with_its_player_and_a_revoked_one_is_not():
    guest = services.player_create_guest(display_name="Rosa")
    raw = services.player_token_issue(player=guest)
    expected = PlayerToken.objects.select_related("player").get(key_hash=PlayerToken.hash(raw))

    with CaptureQueriesContext(connection) as queries:
        found = identity._TOKEN_READ.first(PlayerToken.hash(raw))
        player = found.player
    assert len(queries) == 1
    assert values(found) == values(expected) and values(player) == values(expected.player)
    assert identity.player_for(user=None, cookies={identity.COOKIE_NAME: raw}).player == guest

    services.player_token_revoke(raw=raw)
    assert identity._TOKEN_READ.first(PlayerToken.hash(raw)) is None
    assert identity.player_for(user=None, cookies={identity.COOKIE_NAME: raw}).player is None


def test_more_than_one_row_is_an_error_and_the_value_must_be_the_one_parameter():
    services.player_create_guest(display_name="Ann")
    services.player_create_guest(display_name="Bea")
    every = PreparedRead(lambda pk: Player.objects.filter(pk__gte=pk), slots=(-1,))
    with pytest.raises(Player.MultipleObjectsReturned):
        every.first(0)
    fixed = PreparedRead(lambda pk: Player.objects.filter(pk=1), slots=(-1,))
    with pytest.raises(ValueError):
        fixed.first(1)


def test_store_writes_the_fields_play_changes_as_save_does():
    """Two copies of one attempt, changed alike in every field play changes: one saved by the
    ORM, the other stored; read back, the two rows agree field by field."""
    first = Attempt.objects.get(pk=played(True).pk)  # as stored, its three moves
    second = Attempt.objects.get(pk=played(True, "bob", first.daily).pk)  # a twin to compare
    guard = second.guard()
    now = first.started_at.replace(microsecond=123456)
    for attempt in (first, second):
        attempt.moves = [*attempt.moves, "U"]
        attempt.move_times = [10, 20, 30, 4321]  # the whole history is written
        attempt.counted_ms = 4321
        attempt.undo_count = 1
        attempt.next_seq = attempt.move_count = 4
        attempt.foundation_cards = 7
        attempt.status = Attempt.Status.RESIGNED
        attempt.first_move_at = attempt.last_move_at = attempt.finished_at = now
        attempt.verified_at = None
        attempt.verified = True
        attempt.review = Attempt.Review.HELD
        attempt.held_reasons = [{"rule": "r", "value": 1.5, "detail": "é ✓"}]
    first.save(update_fields=Attempt.PLAY_FIELDS)
    with CaptureQueriesContext(connection) as queries:
        assert second.store(guard)
    assert len(queries) == 1 and queries[0]["sql"].startswith("UPDATE")

    def row(attempt: Attempt) -> dict:
        fresh = values(Attempt.objects.get(pk=attempt.pk))
        return {name: fresh[name] for name in Attempt.PLAY_FIELDS}

    assert row(second) == row(first)
    assert Attempt.objects.get(pk=second.pk).move_times[-1] == 4321
    second.held_reasons = []
    assert not second.store(guard)  # the row moved on since the guard was taken
    assert Attempt.objects.get(pk=second.pk).held_reasons == first.held_reasons


@pytest.mark.optimisation
def test_a_move_is_appended_and_written_as_save_does_unless_the_row_changed_first():
    """`store_move` sends the move and its time, not the history, and writes the other play
    fields as `save()` would; a guard the row no longer holds writes nothing."""
    first = Attempt.objects.get(pk=played(True).pk)  # as stored, its three moves
    second = Attempt.objects.get(pk=played(True, "bob", first.daily).pk)
    guard = second.guard()
    for attempt in (first, second):
        attempt.moves = [*attempt.moves, "U"]
        attempt.move_times = [*attempt.move_times, 4321]
        attempt.counted_ms, attempt.undo_count = 4321, 1
        attempt.next_seq = attempt.move_count = 4
        attempt.review = Attempt.Review.HELD
        attempt.held_reasons = [{"rule": "r", "value": 1.5, "detail": "é ✓"}]
        attempt.first_move_at = attempt.last_move_at = first.started_at
    first.save(update_fields=Attempt.PLAY_FIELDS)
    with CaptureQueriesContext(connection) as queries:
        assert second.store_move(guard)
    [update] = queries
    assert update["sql"].startswith("UPDATE")
    assert not any(json.dumps(move) in update["sql"] for move in first.moves[:3])  # not resent

    def row(attempt: Attempt) -> dict:
        fresh = values(Attempt.objects.get(pk=attempt.pk))
        fresh["move_times"] = fresh["move_times"][3:]  # the twins' first three differ
        return {name: fresh[name] for name in Attempt.PLAY_FIELDS}

    assert row(second) == row(first)
    second.moves = [*second.moves, "U"]
    assert not second.store_move(guard)  # the row moved on since the guard was taken
    assert Attempt.objects.get(pk=second.pk).moves == first.moves


def test_store_writes_nothing_but_the_fields_play_changes():
    attempt = Attempt.objects.get(pk=played(True).pk)
    attempt.disqualified_reason = "not written by play"
    attempt.hints = 3
    assert attempt.store(attempt.guard())
    fresh = Attempt.objects.get(pk=attempt.pk)
    assert (fresh.disqualified_reason, fresh.hints) == ("", 0)


def test_every_field_play_changes_is_stored():
    """After each kind of play (moves, an undo, a hold, a win, a resignation), the attempt as
    the service left it is the row as stored: play changes no field `store` leaves out."""
    daily = factories.daily()
    line = daily.deal.certificate
    player = factories.player("alice")
    attempt, _ = services.attempt_start(player=player, daily=daily)

    def stored_as_left(state) -> None:
        assert values(Attempt.objects.get(pk=attempt.pk)) == values(state.attempt)

    for seq, move in enumerate([line[0], "U", *line]):
        stored_as_left(
            services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
        )
    assert Attempt.objects.get(pk=attempt.pk).status == Attempt.Status.WON

    other = factories.player("bob")
    resigned, _ = services.attempt_start(player=other, daily=daily)
    attempt = resigned
    player = other
    stored_as_left(services.attempt_play(attempt_id=attempt.pk, player=player, seq=0, move=line[0]))
    stored_as_left(services.attempt_resign(attempt_id=attempt.pk, player=player))


def test_storing_an_attempt_that_is_not_there_writes_nothing():
    attempt = played(True)
    Attempt.objects.filter(pk=attempt.pk).delete()
    assert not attempt.store(attempt.guard())
    assert not Attempt.objects.filter(pk=attempt.pk).exists()  # no INSERT


@pytest.mark.parametrize("signal", [pre_save, post_save], ids=["pre_save", "post_save"])
def test_a_model_with_save_receivers_is_refused_as_its_writes_send_no_signal(signal):
    def heard(**kwargs) -> None:  # pragma: no cover - never sent: that is the point
        pass

    made = PreparedUpdate(Attempt, fields=("hints",))  # before the receiver, whose app was late
    signal.connect(heard, sender=Attempt)
    try:
        with pytest.raises(TypeError, match="pre_save or post_save"):
            PreparedUpdate(Attempt, fields=("hints",))
        with pytest.raises(TypeError, match="pre_save or post_save"):
            PreparedInsert(Attempt)
        with pytest.raises(TypeError, match="pre_save or post_save"):
            made.save(played(True))  # its SQL is first built now
    finally:
        signal.disconnect(heard, sender=Attempt)


def test_the_model_written_by_prepared_writes_has_no_save_receivers():
    assert not pre_save.has_listeners(Attempt) and not post_save.has_listeners(Attempt)


def test_an_update_without_a_guard_of_a_row_not_there_is_an_error():
    attempt = played(True)
    Attempt.objects.filter(pk=attempt.pk).delete()
    update = PreparedUpdate(Attempt, fields=("hints",))
    with pytest.raises(Attempt.DoesNotExist):
        update.save(attempt)
    with pytest.raises(TypeError):
        update.save(attempt, guard=attempt.guard())  # no guard to compare it with
    assert not Attempt.objects.filter(pk=attempt.pk).exists()  # no INSERT


def test_an_insert_makes_the_row_create_makes():
    """A start's insert and the ORM's `create` with the same values: one INSERT, the instance
    as `create` leaves it (its key, its defaults, `auto_now_add` filled in), and rows that
    agree field by field but for the key."""
    daily = factories.daily()
    given = {
        "game": daily.game,
        "daily": daily,
        "seed": daily.deal.seed,
        "deal_string": daily.deal.deal_string,
        "ranked": False,  # two ranked attempts from one device at a daily: a constraint
        "started_at": dt.datetime(2026, 5, 1, 23, 59, 59, 654321, tzinfo=dt.UTC),
        "foundation_cards": 4,
        "device": "d" * 32,
        "client_address": "203.0.113.9",
        "client_network": "203.0.113.0/24",
    }
    made = Attempt.objects.create(player=factories.player("alice"), **given)
    bob = factories.player("bob")
    with CaptureQueriesContext(connection) as queries:
        inserted = PreparedInsert(Attempt).create(player=bob, **given)
    assert len(queries) == 1 and queries[0]["sql"].startswith("INSERT")
    assert inserted.pk is not None and inserted.pk != made.pk
    assert not inserted._state.adding and inserted._state.db == made._state.db

    def without_key_and_player(instance: Attempt) -> dict:
        fields = values(instance)
        del fields["id"], fields["player_id"]
        return fields

    assert without_key_and_player(inserted) == without_key_and_player(made)
    stored = Attempt.objects.get(pk=inserted.pk)
    assert without_key_and_player(stored) == without_key_and_player(Attempt.objects.get(pk=made.pk))
    assert values(stored) == values(inserted)


def test_an_insert_that_breaks_a_constraint_is_the_orms_integrity_error():
    """The start's fallback rests on it: a second ranked attempt of a player at a daily."""
    attempt = played(True)
    again = {
        f.name: getattr(attempt, f.name) for f in Attempt._meta.concrete_fields if not f.primary_key
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        PreparedInsert(Attempt).create(**again)
    assert Attempt.objects.filter(player=attempt.player, daily=attempt.daily).count() == 1


def test_an_insert_refuses_a_model_whose_save_it_would_skip():
    with pytest.raises(TypeError, match="save"):
        PreparedInsert(Player)


def test_a_read_by_several_values_keeps_the_querys_constants():
    """`slots`: each stand-in found once among the SQL's parameters, whatever the order the
    ORM puts them in; the query's other parameters stay its constants."""
    daily = factories.daily("munger")
    factories.daily("masterpiece", date=daily.date)
    unpublished = factories.daily("munger", date=daily.date - dt.timedelta(days=1))
    unpublished.published = False
    unpublished.save()
    read = PreparedRead(
        lambda game, date: DailyChallenge.objects.filter(date=date, game=game, published=True),
        slots=("\x00game", dt.date(1, 1, 1)),
    )
    assert read.first("munger", daily.date) == daily
    assert read.first("munger", unpublished.date) is None  # `published` stayed True
    by_date = PreparedRead(
        lambda date: DailyChallenge.objects.filter(date=date).order_by("-game"),
        slots=(dt.date(1, 1, 1),),
    )
    assert [d.game for d in by_date.all(daily.date)] == ["munger", "masterpiece"]
    assert by_date.all(daily.date + dt.timedelta(days=1)) == []
    twins = PreparedRead(lambda a, b: Player.objects.filter(pk__in=[a, b]), slots=(-1, -1))
    with pytest.raises(ValueError):
        twins.first(1, 2)


def test_a_values_list_read_gives_the_rows_the_orm_gives():
    """`rows()`: columns and aggregates, converted as the ORM converts them; a values_list()
    read has no models to give."""
    first = played(True, "alice")
    played(True, "bob", daily=first.daily)
    read = PreparedRead(
        lambda pk: (
            Attempt.objects.filter(daily_id=pk)
            .order_by("pk")
            .values_list("player__display_name", "started_at", "ranked")
        ),
        slots=(-4600,),
    )
    orm = Attempt.objects.filter(daily_id=first.daily_id).order_by("pk")
    assert read.rows(first.daily_id) == list(
        orm.values_list("player__display_name", "started_at", "ranked")
    )
    assert read.rows(-1) == []
    with pytest.raises(TypeError):
        read.all(first.daily_id)


def test_the_dailies_counts_and_a_players_attempts_at_them_are_the_orms():
    """`selectors.dailies_counts` and `attempts_at_dailies` read lists of up to a few dailies
    with SQL built once per length, longer ones by the ORM: the same answers either way, for
    every length and order of the list."""
    from games import selectors

    munger = factories.daily("munger")
    masterpiece = factories.daily("masterpiece", date=munger.date)
    yesterday = factories.daily("munger", date=munger.date - dt.timedelta(days=1))
    alice = played(True, "alice", daily=munger).player
    played(True, "bob", daily=munger)
    played(True, "carol", daily=masterpiece)
    dailies = [masterpiece, yesterday, munger]

    def orm_counts(of):
        found = {d.pk: {"players": 0, "winners": 0} for d in of}
        rows = (
            Attempt.objects.filter(daily__in=of)
            .on_board()
            .started()
            .values("daily_id")
            .annotate(n=Count("id"))
        )
        for row in rows:
            found[row["daily_id"]]["players"] = row["n"]
        return found

    for size in range(len(dailies) + 1):
        of = dailies[:size]
        assert selectors.dailies_counts(dailies=of) == orm_counts(of)
        assert selectors.dailies_counts(dailies=of[::-1]) == orm_counts(of)
        mine = selectors.attempts_at_dailies(dailies=of, player=alice)
        assert {k: a.pk for k, a in mine.items()} == {
            a.daily_id: a.pk for a in Attempt.objects.filter(player=alice, daily__in=of)
        }
    assert selectors.dailies_counts(dailies=[munger])[munger.pk]["players"] == 2
    with pytest.MonkeyPatch.context() as patch:  # a list too long to prepare: the ORM's read
        patch.setattr(selectors._COUNTS_READ, "most", 1)
        patch.setattr(selectors._ATTEMPTS_AT_READ, "most", 1)
        assert selectors.dailies_counts(dailies=dailies) == orm_counts(dailies)
        assert set(selectors.attempts_at_dailies(dailies=dailies, player=alice)) == {munger.pk}
