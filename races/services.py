"""Writes of races (docs/api.md, "Races"): making one, joining, leaving, getting ready, starting,
each racer's attempt, their progress as they play, and the rematch.

Every change of the race locks the race's row, changes what it changes, gives the race its
next version and, after commit, sends `race_changed` with the race's public view at that version
(`races.selectors.race_public`): the live side sends it on as it is. A racer's move is not a
change of the race: it writes the racer's own row and their own next version, and after commit
sends `racers_progressed` with that racer's figures alone (`racers_moved`).

A race on no deal of the maker's choice takes one of the races' own supply of certified deals
(`race_deals_ensure` keeps it topped up, on the solve queue, apart from the dailies' spares),
else a past daily's deal.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import random
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, transaction

from games import clock, fairplay, scheduling, services
from games.engine.solver import candidate_seconds
from games.errors import Conflict, Forbidden, Malformed, ServiceError
from games.models import Attempt, DailyChallenge, Deal, GameName, Player
from games.selectors import daily_get, game_check
from games.signals import send_now, send_on_commit
from games.state import position
from races import selectors
from races.codes import code_new
from races.models import COUNTDOWN_SECONDS, LIFETIME, RACERS_MAX, RACERS_MIN, Race, Racer
from races.signals import race_changed, race_deals_wanted, racers_progressed


class Gone(ServiceError):
    status, code = 410, "gone"


# -- the deal ----------------------------------------------------------------------------------


def _past_dailies(game: str) -> list[DailyChallenge]:
    """The game's published dailies whose ranked play is over, most recent first."""
    now = clock.now()
    return [
        d
        for d in DailyChallenge.objects.select_related("deal")
        .filter(game=game, published=True, date__lt=clock.today())
        .order_by("-date")[:400]
        if not d.ranked_play_open(now)
    ]


def _fresh_deal(game: str, used: set[int]) -> tuple[Deal, DailyChallenge | None]:
    """A deal none of `used`: one of the races' own supply (`selectors.race_deals_ready`),
    else a past daily's deal at random; never a spare of the scheduler (those keep tomorrow's
    daily certain). Either way the supply is topped up (`race_deals_wanted`): after commit when
    a race took one of its deals, at once when there was none (a refusal rolls back this
    transaction, and what it would have sent after its commit)."""
    deal = (
        selectors.race_deals_ready(game=game)
        .exclude(pk__in=used)
        .select_for_update(skip_locked=True)
        .first()
    )
    if deal is not None:
        send_on_commit(race_deals_wanted, game=game)
        return deal, None
    send_now(race_deals_wanted, game=game)
    dailies = [d for d in _past_dailies(game) if d.deal_id not in used]
    if not dailies:
        raise _no_deal(game)
    daily = random.choice(dailies)
    return daily.deal, daily


def _no_deal(game: str) -> Conflict:
    """409 `no_deal`: neither a deal of the races' supply nor a past daily. When a supply is
    kept (`RACE_DEALS`), deals for races are on their way."""
    title = GameName(game).label
    if settings.RACE_DEALS > 0:
        detail = (
            f"No {title} deal is ready to race on yet: new deals for races are being dealt and "
            "proven winnable. Please try again in a minute."
        )
    else:
        detail = (
            f"There is no {title} deal to race on yet: no deal for races, and no past daily "
            "whose day is over."
        )
    return Conflict(detail, code="no_deal")


#: Solves of new deals for races asked of the solve queue at once, per game: the dailies' par
#: proofs, on the same queue, wait behind no more than these.
TOP_UP_BATCH = 2


def race_deals_ensure(*, game: str, target: int | None = None, batch: int = TOP_UP_BATCH) -> int:
    """Top up the races' own supply of `game` toward `target` deals ready to race (the
    `RACE_DEALS` setting), a few at a time: while fewer than `batch` of its solves are under
    way, new candidates are dealt as the scheduler deals its own and solved by the `solve_deal`
    task on the solve queue (`scheduling.race_candidate_request`), a solve that was lost is
    asked for again first, and solves under way count as deals to come. Never takes or deals a
    spare of the scheduler. Returns how many solves it asked for: 0 when the supply is full or
    `batch` solves are under way (the `ensure_race_deals` task; with eager Celery the solves
    run inline, so whoever calls it again gets the next few)."""
    game_check(game)
    target = settings.RACE_DEALS if target is None else target
    ready = selectors.race_deals_ready(game=game).count()
    solving = selectors.race_deals_solving(game=game).count()
    room = min(target - ready - solving, batch - solving)
    if room <= 0:
        return 0
    asked = 0
    for lost in selectors.race_deals_lost(game=game)[:room]:
        services.deal_request_solve(deal=lost, time_limit=candidate_seconds(game))
        asked += 1
    while asked < room:
        scheduling.race_candidate_request(game)  # None: a seed dealt before, not tried again
        asked += 1
    return asked


def _racing_daily(game: str, date: dt.date) -> DailyChallenge:
    """A past daily to race on: never one whose ranked play still runs."""
    daily = daily_get(game=game, date=date)
    selectors.daily_race_check(daily)
    return daily


# -- changes -----------------------------------------------------------------------------------


def _locked(code: str) -> Race:
    found = selectors.race_get(code=code)
    race: Race = (
        Race.objects.select_for_update(of=("self",))
        .select_related("deal", "daily", "maker")
        .get(pk=found.pk)
    )
    return race


def _changed(race: Race) -> None:
    """Give the race its next version and, after commit, tell the live side, with the public
    view at this version."""
    race.version += 1
    race.save(update_fields=["version", "status", "started_at", "starts_at", "finished_at"])
    event = selectors.race_public(race)
    send_on_commit(race_changed, race_id=race.pk, code=race.code, version=race.version, event=event)


def _check_open(race: Race) -> None:
    if clock.now() >= race.expires_at and race.status == Race.Status.LOBBY:
        raise Gone("This race's link has expired (a week after it was made).", code="race_expired")


def _check_lobby(race: Race) -> None:
    _check_open(race)
    if race.status != Race.Status.LOBBY:
        raise Conflict("This race has started already.", code="race_started")


def _racer(race: Race, player: Player | None) -> Racer:
    racer = selectors.racer_of(race=race, player=player)
    if racer is None:
        raise Forbidden("You are not in this race: join it first.", code="not_in_race")
    return racer


def _present(race: Race) -> list[Racer]:
    return [r for r in selectors.racers_of(race) if not r.gone]


def _capacity_check(capacity: object) -> int:
    if isinstance(capacity, bool) or not isinstance(capacity, int):
        raise Malformed("capacity is a whole number of players.", code="bad_capacity")
    if not RACERS_MIN <= capacity <= RACERS_MAX:
        raise Malformed(f"A race has {RACERS_MIN} to {RACERS_MAX} players.", code="bad_capacity")
    return capacity


def _new_race(
    *,
    maker: Player,
    game: str,
    deal: Deal,
    daily: DailyChallenge | None,
    capacity: int,
    rematch_of: Race | None = None,
) -> Race:
    now = clock.now()
    for _ in range(5):
        try:
            with transaction.atomic():
                race: Race = Race.objects.create(
                    code=code_new(),
                    game=game,
                    deal=deal,
                    daily=daily,
                    maker=maker,
                    capacity=capacity,
                    created_at=now,
                    expires_at=now + LIFETIME,
                    rematch_of=rematch_of,
                )
            return race
        except IntegrityError:  # a code drawn twice (or a rematch made at this very moment)
            if rematch_of is not None:
                raise
    raise RuntimeError("no free race code after five draws")


def race_make(
    *,
    player: Player,
    game: str,
    date: dt.date | None = None,
    attempt_id: int | None = None,
    capacity: int = RACERS_MAX,
) -> Race:
    """A new race on a past daily's deal (`date`), on the deal of one of the player's games
    (`attempt_id`: `selectors.attempt_deal`) or on a fresh deal, for `capacity` players; its
    maker is in it."""
    game_check(game)
    capacity = _capacity_check(capacity)
    if date is not None and attempt_id is not None:
        raise Malformed("Give a date or an attempt, not both.", code="invalid")
    daily: DailyChallenge | None
    with transaction.atomic():
        if attempt_id is not None:
            deal, daily = selectors.attempt_deal(attempt_id=attempt_id, player=player)
            if deal.game != game:
                raise Malformed(f"That game was not {game}.", code="invalid")
        elif date is not None:
            daily = _racing_daily(game, date)
            deal = daily.deal
        else:
            deal, daily = _fresh_deal(game, set())
        race = _new_race(maker=player, game=game, deal=deal, daily=daily, capacity=capacity)
        Racer.objects.create(race=race, player=player, joined_at=race.created_at)
        _changed(race)
        return race


def race_join(*, code: str, player: Player) -> tuple[Race, bool]:
    """Join a race, or come back to it (a racer who left). Returns (race, joined now)."""
    with transaction.atomic():
        race = _locked(code)
        racer = selectors.racer_of(race=race, player=player)
        if racer is not None:
            if not racer.gone:
                return race, False
            if race.status == Race.Status.LOBBY:
                _check_open(race)
                _room_check(race)
            racer.gone = False
            racer.save(update_fields=["gone"])
            _changed(race)
            return race, False
        _check_lobby(race)
        _room_check(race)
        Racer.objects.create(race=race, player=player, joined_at=clock.now())
        _changed(race)
        return race, True


def _room_check(race: Race) -> None:
    if len(_present(race)) >= race.capacity:
        raise Conflict(f"This race is full ({race.capacity} players).", code="race_full")


def race_leave(*, code: str, player: Player) -> Race:
    """Leave: shown as gone (in the lobby the place is free again); the race goes on without
    the racer, who may come back. The maker leaving hands the start to the next racer."""
    with transaction.atomic():
        race = _locked(code)
        racer = _racer(race, player)
        if racer.gone:
            return race
        racer.gone, racer.ready = True, False
        racer.save(update_fields=["gone", "ready"])
        if race.status == Race.Status.LOBBY:
            _start_if_all_ready(race)
        else:
            _over_if_done(race)
        _changed(race)
        return race


def race_ready(*, code: str, player: Player, ready: bool) -> Race:
    """Say you are ready (or not); the race starts when every racer present is ready."""
    with transaction.atomic():
        race = _locked(code)
        _check_lobby(race)
        racer = _racer(race, player)
        if racer.gone:
            raise Conflict("You left this race: join it again first.", code="racer_gone")
        if racer.ready == ready:
            return race
        racer.ready = ready
        racer.save(update_fields=["ready"])
        _start_if_all_ready(race)
        _changed(race)
        return race


def race_start(*, code: str, player: Player) -> Race:
    """The host (the maker, or the next racer when the maker left) starts the countdown."""
    with transaction.atomic():
        race = _locked(code)
        _check_lobby(race)
        racer = _racer(race, player)
        host = selectors.host_of(race, list(selectors.racers_of(race)))
        if host is None or host.pk != racer.pk:
            raise Forbidden("Only the race's maker starts it.", code="not_host")
        if len(_present(race)) < RACERS_MIN:
            raise Conflict(f"A race needs at least {RACERS_MIN} players.", code="too_few_racers")
        _start(race)
        _changed(race)
        return race


def _start_if_all_ready(race: Race) -> None:
    present = _present(race)
    if len(present) >= RACERS_MIN and all(r.ready for r in present):
        _start(race)


def _start(race: Race) -> None:
    """The countdown begins. Whoever left the lobby gave their place up: they are no racers of
    this race, and may no more join it than a newcomer."""
    race.racers.filter(gone=True).delete()
    now = clock.now()
    race.status = Race.Status.RACING
    race.started_at = now
    race.starts_at = now + dt.timedelta(seconds=COUNTDOWN_SECONDS)


def race_attempt(*, code: str, player: Player) -> tuple[Attempt, bool]:
    """The player's attempt at the race's deal, made at the first ask after the countdown
    (never ranked: practice to the boards), resumed after. Returns (attempt, created)."""
    with transaction.atomic():
        race = _locked(code)
        racer = _racer(race, player)
        if race.status == Race.Status.LOBBY:
            raise Conflict("This race has not started yet.", code="race_not_started")
        assert race.starts_at is not None
        wait = (race.starts_at - clock.now()).total_seconds()
        if wait > 0:
            raise Conflict(
                "The countdown is still running.", code="countdown", starts_in=round(wait, 3)
            )
        changed = racer.gone
        racer.gone = False
        created = racer.attempt is None
        if created and race.status == Race.Status.OVER:
            raise Conflict("This race is over.", code="race_over")
        if created:
            racer.attempt = services.attempt_start_on_deal(
                player=player,
                game=race.game,
                deal_string=race.deal.deal_string,
                seed=race.deal.seed,
            )
            racer.foundations = _foundations(racer.attempt)
            changed = True
        if changed:
            racer.save(update_fields=["gone", "attempt", "foundations"])
            _changed(race)
        assert racer.attempt is not None
        return racer.attempt, created


def _foundations(attempt: Attempt) -> list[dict[str, object]]:
    """The picture of an attempt's foundations, replayed: per suit, the top card and the count."""
    return picture(position(attempt).view()["foundations"])


def picture(foundations: list[dict[str, object]]) -> list[dict[str, object]]:
    """What a race shows of a view's foundations: per suit, the top card and the count."""
    return [{"suit": f["suit"], "top": f["top"], "count": f["count"]} for f in foundations]


@functools.cache
def _moved_sql(vendor: str) -> str:
    """`racers_moved`'s statement for one racer, in the SQL of the database (quoted by its
    vendor's rules: PostgreSQL and SQLite both take RETURNING)."""
    quote = connection.ops.quote_name
    meta = Racer._meta

    def column(name: str) -> str:
        return str(quote(meta.get_field(name).column))

    version = column("version")
    return (
        f"UPDATE {quote(meta.db_table)} SET {column('foundations')} = %s, {column('moves')} = %s,"
        f" {version} = {version} + 1"
        f" WHERE {column('attempt')} = %s AND {column('moves')} < %s"
        f" RETURNING {column('id')}, {column('race')}, {version}"
    )


@dataclass(frozen=True)
class RacerMove:
    """A move of a racer's attempt, as its signal carries it: the attempt's figures after it
    (`moves` moves, `foundation_cards` home, `seconds` of play, its view's foundations)."""

    attempt_id: int
    moves: int
    foundation_cards: int
    seconds: float
    foundations: tuple[dict[str, object], ...]


def racers_moved(moves: list[RacerMove]) -> int:
    """After moves of racers' attempts have committed (races/progress.py): each racer's
    progress as their move left it, in one statement on the racer's own row: the picture of
    their foundations and their next version (`Racer.version`), unless a later move's progress
    is there already. All of them in one transaction; after its commit `racers_progressed`
    carries each racer's figures at their new version. The races' rows are neither read nor
    locked (a race's version counts its changes, not moves): a move costs its race one row
    update, and the racers of one race never wait for each other. Returns how many were written:
    a move of an attempt in no race writes nothing, nor an older move whose update came after a
    later one's."""
    written = []
    # One move alone commits with its statement (autocommit): one round trip.
    with transaction.atomic() if len(moves) > 1 else contextlib.nullcontext():
        # In one order everywhere: two processes' transactions never hold each other's rows.
        for move in sorted(moves, key=lambda m: m.attempt_id):
            progress = _racer_moved(move)
            if progress is not None:
                written.append(progress)
        if written:
            send_on_commit(racers_progressed, progress=written)
    return len(written)


def _racer_moved(move: RacerMove) -> tuple[int, dict[str, object]] | None:
    shown = picture(list(move.foundations))
    stored = Racer._meta.get_field("foundations").get_db_prep_save(shown, connection=connection)
    with connection.cursor() as cursor:
        cursor.execute(
            _moved_sql(connection.vendor), [stored, move.moves, move.attempt_id, move.moves]
        )
        row = cursor.fetchone()
    if row is None:
        return None
    racer_id, race_id, version = row
    return race_id, {
        "id": racer_id,
        "version": version,
        "moves": move.moves,
        "foundation_cards": move.foundation_cards,
        "foundations": shown,
        "seconds": move.seconds,
    }


def racer_finished(*, attempt_id: int) -> bool:
    """After a racer's attempt has ended (races/progress.py): their progress as committed (a new
    version of it), the fair-play checks on the result (a held one stays out of the race's
    results, as on the boards), and the race's end once every racer is done: a change of the
    race (its row locked, its next version, its whole view after commit). False when the
    attempt is in no race."""
    race_id = Racer.objects.filter(attempt_id=attempt_id).values_list("race_id", flat=True).first()
    if race_id is None:
        return False
    with transaction.atomic():
        race = (
            Race.objects.select_for_update(of=("self",))
            .select_related("deal", "daily")
            .get(pk=race_id)
        )
        # Locked: a late move's progress of the same racer waits, then finds it older.
        racer = (
            Racer.objects.select_for_update(of=("self",))
            .select_related("attempt")
            .get(attempt_id=attempt_id)
        )
        attempt = racer.attempt
        assert attempt is not None
        racer.foundations = _foundations(attempt)
        racer.moves = attempt.move_count
        racer.version += 1
        if attempt.is_finished and attempt.verified:
            racer.held_reasons = fairplay.check(
                attempt.game,
                attempt.moves,
                attempt.move_times,
                race.deal.certificate,
                won=attempt.status == Attempt.Status.WON,
                par=race.deal.par,
                par_proven=bool(race.deal.par_optimal),
                solver_lines=race.deal.solver_lines or [],
            )
        racer.save(update_fields=["foundations", "moves", "version", "held_reasons"])
        if attempt.is_finished:
            _over_if_done(race)
        _changed(race)
    return True


def _over_if_done(race: Race) -> None:
    """The race is over once every racer has finished, or left without playing."""
    if race.status != Race.Status.RACING:
        return
    racers = list(selectors.racers_of(race))
    if all(
        (r.attempt is not None and r.attempt.is_finished) or (r.attempt is None and r.gone)
        for r in racers
    ) and any(r.attempt is not None for r in racers):
        race.status = Race.Status.OVER
        race.finished_at = clock.now()


def race_rematch(*, code: str, player: Player) -> tuple[Race, bool]:
    """A new race with the same people on a new deal, made by whoever asks first once the race
    has started; asked again, the same rematch (the player is in it). Returns (race, created)."""
    with transaction.atomic():
        race = _locked(code)
        _racer(race, player)
        if race.status == Race.Status.LOBBY:
            raise Conflict("This race has not started yet.", code="race_not_started")
        existing = Race.objects.filter(rematch_of=race).first()
        if existing is not None:
            return existing, False
        used = {race.deal_id}
        earlier = race.rematch_of
        while earlier is not None and len(used) < 50:
            used.add(earlier.deal_id)
            earlier = earlier.rematch_of
        deal, daily = _fresh_deal(race.game, used)
        racers = list(selectors.racers_of(race))
        new = _new_race(
            maker=player,
            game=race.game,
            deal=deal,
            daily=daily,
            capacity=max(race.capacity, len(racers)),
            rematch_of=race,
        )
        now = clock.now()
        Racer.objects.bulk_create(
            [
                Racer(
                    race=new,
                    player=r.player,
                    joined_at=now,
                    gone=r.gone and r.player_id != player.pk,
                )
                for r in racers
            ]
        )
        _changed(new)
        _changed(race)  # its view names the rematch
        return new, True


def hint_refuse(attempt: Attempt) -> None:
    """No hints in a race, nor on the deal of a race the player is in while it runs, whatever
    the attempt (`games.services.hints.hint_refusals`): friends race on their own."""
    if Racer.objects.filter(attempt_id=attempt.pk).exists():
        raise Conflict("No hints in a race: every racer plays on their own.", code="hints_race")
    if selectors.racing_on_deal(
        player_id=attempt.player_id, game=attempt.game, deal_string=attempt.deal_string
    ):
        raise Conflict(
            "You are racing on this deal: no hints on it until the race is over.",
            code="hints_race",
        )
