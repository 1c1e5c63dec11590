"""Writes of attempts: starting, playing (one locked row, an idempotent seq, the result verified by
a full replay), finishing, resigning, verifying, disqualifying."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from games import clock, errors, fairplay, signals
from games.engine import Game, MalformedError, game_class, replay
from games.engine.cards import TEXT
from games.engine.errors import IllegalMoveError
from games.engine.moves import UNDO_TEXT
from games.errors import Conflict, IllegalMove, Malformed, NotFound, attempt_not_found
from games.fairplay import net_line
from games.models import (
    BIGINT_MAX,
    BIGINT_MIN,
    Attempt,
    DailyChallenge,
    Player,
    Standing,
    counted_ms,
    seed_text,
)
from games.selectors import (
    daily_address_counts,
    daily_device_played,
    daily_running_on,
    game_check,
)
from games.services.deals import deal_lower_par
from games.state import AttemptState, attempt_state, position
from infra.addresses import address_or_none, network56_of, network_of
from infra.locks import hold_until_commit
from infra.metrics import counts_refused_moves
from infra.prepared import PreparedInsert, PreparedRead

MOVE_TOKEN_MIN, MOVE_TOKEN_MAX = 1, 8  # "U" .. the longest token, "FC>T7" or "M8>M1", is 5
HISTORY_MAX = 5000  # moves per attempt; no real game comes near


# -- attempts --------------------------------------------------------------------------------

#: A player's ranked attempt at a daily, locked (every start reads it; SQL built once).
_RANKED_READ: PreparedRead[Attempt] = PreparedRead(
    lambda player_id, daily_id: Attempt.objects.select_for_update().filter(
        player_id=player_id, daily_id=daily_id, ranked=True
    ),
    slots=(-4241, -4243),
)


def _dealt_foundation_cards(game: str, deal_string: str) -> int:
    """Cards on the foundations before any move (Masterpiece's four Aces)."""
    return game_class(game).from_deal(deal_string).foundation_cards


def attempt_start(
    *,
    player: Player,
    daily: DailyChallenge,
    device: str = "",
    address: str | None = None,
) -> tuple[Attempt, bool]:
    """Start, or resume, this player's attempt at a daily: ranked today, practice on a past
    day once its ranked play is over; a future daily is not found. A ranked attempt begun
    before midnight is resumed while its ranked play lasts (`DailyChallenge.ranked_until`);
    after it, an unfinished one is returned as it stood (its state says `day_over`), or the
    practice the player went on with from it. Returns (attempt, created).

    Nothing shows the cards of a daily still played for the boards but the player's own ranked
    game: no practice of it. One ranked attempt per daily per player, and per device (the
    browser's device cookie, as `device`): a browser that has played today's daily as another
    player (an account, then a guest after logging out) is refused it (409
    `daily_played_here`), as is a guest past the daily's ranked attempts from `address`'s
    household or networks (`_address_admits`: 409 `daily_address_full`; a player with an
    account is not refused so, and counts there all the same); a past day still in the grace
    after midnight is refused to whoever has no ranked game at it (409 `daily_running`).
    `address` is the client's, kept with the attempt (with its networks) for the limits and
    the review of held results."""
    today = clock.today()
    if daily.date > today or not daily.published:
        raise NotFound("There is no such daily yet.", code="daily_not_found")
    ranked = daily.date == today
    if not ranked:
        own = Attempt.objects.filter(player=player, daily=daily, ranked=True).first()
        if own is not None and daily.ranked_play_open():
            return own, False  # their own ranked game, whatever its state, through the grace
        if own is not None and own.status == Attempt.Status.PLAYING:
            # Its day ended while it was played: it is shown as it stood (`day_over`), never
            # replaced silently by a practice; going on in practice is the player's choice
            # (`attempt_continue_as_practice`), which is then resumed.
            going_on = own.continuations.filter(status=Attempt.Status.PLAYING).first()
            return going_on or own, False
        if daily.ranked_play_open():
            raise errors.daily_running(daily.ranked_until)
    with transaction.atomic():
        if ranked:
            attempt = _RANKED_READ.first(player.pk, daily.pk)  # resumed whatever its state
            if attempt is not None:
                return attempt, False
            if daily_device_played(daily=daily, device=device):
                raise errors.daily_played_here(daily.ranked_until)
            if not _address_admits(daily, address) and player.user_id is None:
                raise errors.daily_address_full(daily.ranked_until)
        else:
            attempt = (
                Attempt.objects.select_for_update()
                .filter(player=player, daily=daily, ranked=False, status=Attempt.Status.PLAYING)
                .order_by("-started_at")
                .first()
            )
            if attempt is not None:
                return attempt, False
        try:
            with transaction.atomic():
                attempt = _new_attempt(player, daily, ranked, device, address)
        except IntegrityError:  # the same player, or device, started it at this very moment
            theirs = Attempt.objects.filter(player=player, daily=daily, ranked=True).first()
            if theirs is not None:
                return theirs, False
            raise errors.daily_played_here(daily.ranked_until) from None
        signals.send_on_commit(
            signals.attempt_started,
            attempt_id=attempt.pk,
            daily_id=daily.pk,
            standing=attempt.standing(),
        )
        return attempt, True


#: The insert of every start at a daily (SQL built once).
_NEW_ATTEMPT: PreparedInsert[Attempt] = PreparedInsert(Attempt)


def _address_admits(daily: DailyChallenge, address: str | None) -> bool:
    """Whether one more guest's ranked attempt at `daily` may start from `address`: at most
    `RANKED_STARTS_PER_ADDRESS` from its household (the address; an IPv6 /64),
    `RANKED_STARTS_PER_NETWORK` from its network (/24, /64) and `RANKED_STARTS_PER_NETWORK56`
    from an IPv6 /56, accounts' attempts counted (`selectors.daily_address_counts`), so that
    one person clearing cookies cannot keep the best of many rows while a household still
    plays. Counted in the database, which stores every attempt with its address, so the limit
    holds whatever else is down; starts from one network at one daily (one /56 for IPv6)
    queue for the count (a transaction lock on PostgreSQL; SQLite's writers already take
    turns), so that a crowd of them gets exactly the limit through. Every ranked start with an
    address takes the lock, an account's too: its row counts for the guests after it."""
    known = address_or_none(address)
    if known is None:
        return True
    hold_until_commit("ranked starts", daily.pk, network56_of(known) or network_of(known))
    counts = daily_address_counts(daily_id=daily.pk, address=known)
    return counts is None or not counts.full


def _new_attempt(
    player: Player, daily: DailyChallenge, ranked: bool, device: str, address: str | None
) -> Attempt:
    known_address = address_or_none(address)
    return _NEW_ATTEMPT.create(
        player=player,
        game=daily.game,
        daily=daily,
        seed=daily.deal.seed,
        deal_string=daily.deal.deal_string,
        ranked=ranked,
        started_at=clock.now(),
        foundation_cards=_dealt_foundation_cards(daily.game, daily.deal.deal_string),
        device=device,
        client_address=known_address,
        client_network=network_of(known_address) if known_address else "",
        client_network56=network56_of(known_address) if known_address else "",
    )


def _running_check(game: str, deal_string: str, seed: int | None = None) -> None:
    """409 `daily_running` for a practice that would show the cards of a daily still played
    for the boards (`selectors.daily_running_on`: its deal, or its seed in any game)."""
    running = daily_running_on(game=game, deal_string=deal_string, seed=seed)
    if running is not None:
        raise errors.daily_running(running.ranked_until)


def attempt_start_practice(*, player: Player, game: str, seed: int) -> tuple[Attempt, bool]:
    """Practice on any seed (never ranked); resumes an unfinished practice of the same seed.
    Not on the deal of a daily whose ranked play is open, whatever the game (409
    `daily_running`): that deal opens for practice once its day is over."""
    game_check(game)
    try:
        text = game_class(game).deal_for_seed(seed)
    except MalformedError as exc:
        raise Malformed(str(exc), code="bad_seed") from None
    _running_check(game, text, seed)
    existing = Attempt.objects.filter(
        player=player,
        game=game,
        daily__isnull=True,
        seed=seed_text(seed),
        status=Attempt.Status.PLAYING,
    ).first()
    if existing is not None:
        return existing, False
    attempt = Attempt.objects.create(
        player=player,
        game=game,
        seed=seed_text(seed),
        deal_string=text,
        ranked=False,
        started_at=clock.now(),
        foundation_cards=_dealt_foundation_cards(game, text),
    )
    signals.send_on_commit(signals.attempt_started, attempt_id=attempt.pk, daily_id=None)
    return attempt, True


def attempt_start_on_deal(
    *, player: Player, game: str, deal_string: str, seed: str | None
) -> Attempt:
    """A new practice attempt (never ranked, on no daily) on a given certified deal, for the
    apps that hand players a deal of their own choosing (a race between friends): always a new
    attempt, which the caller links to what it belongs to. Never on the deal of a daily whose
    ranked play is open (409 `daily_running`; the races refuse those deals before)."""
    game_check(game)
    _running_check(game, deal_string, int(seed) if seed and seed.isdigit() else None)
    attempt = Attempt.objects.create(
        player=player,
        game=game,
        seed=seed,
        deal_string=deal_string,
        ranked=False,
        started_at=clock.now(),
        foundation_cards=_dealt_foundation_cards(game, deal_string),
    )
    signals.send_on_commit(signals.attempt_started, attempt_id=attempt.pk, daily_id=None)
    return attempt


def _attempt_locked(attempt_id: int, player: Player) -> Attempt:
    """The attempt, locked for this transaction; 404 when unknown or someone else's."""
    if not BIGINT_MIN <= attempt_id <= BIGINT_MAX:  # no row has it (and the database refuses it)
        raise attempt_not_found()
    attempt = (
        Attempt.objects.select_for_update(of=("self",))
        .select_related("daily__deal")
        .filter(pk=attempt_id)
        .first()
    )
    if attempt is None or attempt.player_id != player.pk:
        raise attempt_not_found()
    return attempt


def finished_error(attempt: Attempt) -> Conflict:
    """What a finished attempt answers to anything that would change it."""
    return Conflict(
        f"This attempt is over ({attempt.status}).",
        code="attempt_finished",
        expected_seq=attempt.next_seq,
    )


def _check_practice_open(attempt: Attempt) -> None:
    """A practice of a daily whose ranked play is open (none is started now; one kept from
    before, or a ranked game that linking made practice, `player_link_user`) takes no move
    until it is over (409 `daily_running`): no move but a ranked game's turns up a card of a
    daily still played for the boards."""
    daily = attempt.daily
    if not attempt.ranked and daily is not None and daily.ranked_play_open():
        raise errors.daily_running(daily.ranked_until)


def _check_ranked_open(attempt: Attempt) -> None:
    """A ranked attempt moves no more once its daily's ranked play is over (`Attempt.day_over`):
    nothing done after the day can improve a ranked result."""
    if attempt.day_over():
        assert attempt.daily is not None
        until = attempt.daily.ranked_until.strftime("%H:%M UTC")
        raise Conflict(
            f"This daily's day is over (ranked play ended at {until}): your result stays as it "
            "was. You can go on from here in practice.",
            code="day_over",
            expected_seq=attempt.next_seq,
            continue_as_practice=True,
        )


def _check_move_input(seq: Any, move: Any) -> None:
    if not isinstance(move, str) or not MOVE_TOKEN_MIN <= len(move) <= MOVE_TOKEN_MAX:
        raise Malformed("A move is one token such as T3>T5, M1>F or U.", code="malformed_move")
    _check_seq(seq)


def _check_seq(seq: Any) -> None:
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise Malformed("seq is the move's index in the history, from 0.", code="malformed_seq")


def _record(attempt: Attempt, token: str, now: dt.datetime) -> None:
    """Append one checked move to the attempt's history, with its server time."""
    attempt.moves = [*attempt.moves, token]
    millis = int((now - attempt.started_at).total_seconds() * 1000)
    attempt.move_times = [*attempt.move_times, max(0, millis)]
    attempt.counted_ms = counted_ms(attempt.move_times)
    attempt.undo_count = attempt.moves.count(UNDO_TEXT)
    attempt.next_seq += 1
    attempt.move_count = attempt.next_seq
    attempt.first_move_at = attempt.first_move_at or now
    attempt.last_move_at = now


class KeptGame:
    """An attempt and its position, kept between moves by whoever plays it over and over (a play
    socket): a move then needs no read, only its write (`Attempt.store_move`), whose guard
    finds out when anything else changed the attempt meanwhile (another tab, a request, an
    admin); the move is then played again from the row as it stands. Empty until the first
    state is shown or move played; emptied by anything that goes wrong."""

    __slots__ = ("attempt", "game")

    def __init__(self) -> None:
        self.attempt: Attempt | None = None
        self.game: Game | None = None

    def keep(self, attempt: Attempt, game: Game) -> None:
        self.attempt, self.game = attempt, game

    def take(self, attempt_id: int, player: Player) -> tuple[Attempt, Game] | None:
        """The kept attempt and position when they are `attempt_id`'s, emptied meanwhile: given
        back by `keep` once a move is stored, so an error leaves nothing half-played here."""
        attempt, game = self.attempt, self.game
        self.attempt = self.game = None
        if attempt is None or game is None or attempt.pk != attempt_id:
            return None
        if attempt.player_id != player.pk:
            return None
        return attempt, game


class _Moved(Exception):
    """The attempt changed since it was read: the move's guarded write stored nothing."""


#: How many times a move is played again from a fresh read when another writer changed the
#: attempt first (two tabs racing over the same moves settle in one or two).
PLAY_TRIES = 5


@counts_refused_moves(errors.ServiceError)
def attempt_play(
    *,
    attempt_id: int,
    player: Player,
    seq: int,
    move: str,
    origin: str | None = None,
    kept: KeptGame | None = None,
) -> AttemptState:
    """Check one move against the authoritative position and store it.

    `seq` is the move's index in the history. Sending a stored `seq` again with the same move
    answers as the first time and stores nothing; any other `seq` is refused with the one
    expected. A finished attempt takes no more moves. A win ends the attempt; a position with
    no card move does not (the state says `blocked`: undo or resign). `origin` says who asked
    (games/signals.py): it rides along with the signals.

    No lock is taken (`_guarded`): the attempt is read (or taken from `kept`, where the caller
    keeps it between moves), the move checked, and one guarded statement appends it
    (`Attempt.store_move`). A move costs one round trip to the database with `kept`, two
    without. A winning move, which also verifies, judges and may lower the deal's par, is one
    transaction.
    """
    _check_move_input(seq, move)
    return _guarded(
        attempt_id, player, kept, lambda attempt, game: _play_once(attempt, game, seq, move, origin)
    )


def _guarded(
    attempt_id: int,
    player: Player,
    kept: KeptGame | None,
    once: Callable[[Attempt, Game | None], tuple[AttemptState, Game | None]],
) -> AttemptState:
    """`once(attempt, game)` on the attempt as read (or as `kept`, with its position), whose
    guarded write raises `_Moved` when another writer changed the attempt first: then it is
    done again from the row as it now stands, so two tabs, or a tab and a request, never both
    store the same change. A refusal by a kept copy, which may be stale, is judged again on
    the row too."""
    for _ in range(PLAY_TRIES):
        found = kept.take(attempt_id, player) if kept is not None else None
        if found is None:
            attempt, game = _attempt_read(attempt_id, player), None
        else:
            attempt, game = found
        try:
            state, game = once(attempt, game)
        except _Moved:
            continue
        except errors.ServiceError:
            if found is not None:
                continue
            raise
        if kept is not None and game is not None:
            kept.keep(attempt, game)
        return state
    raise Conflict(
        "This attempt is being changed from elsewhere; try again.",
        code="seq_taken",
        expected_seq=_attempt_read(attempt_id, player).next_seq,
    )


def _attempt_read(attempt_id: int, player: Player) -> Attempt:
    """The attempt as it stands, with its daily and deal, unlocked; 404 when unknown or
    someone else's."""
    attempt = Attempt.objects.shown(attempt_id)
    if attempt is None or attempt.player_id != player.pk:
        raise attempt_not_found()
    return attempt


def _play_once(
    attempt: Attempt, game: Game | None, seq: int, move: str, origin: str | None
) -> tuple[AttemptState, Game | None]:
    """`attempt_play` on one read of the attempt (`game`: its position, when kept): the state,
    and the position to keep. Raises `_Moved` when the write finds the attempt changed."""
    if seq < attempt.next_seq:
        if attempt.moves[seq] != move:
            raise Conflict(
                f"Move {seq} was {attempt.moves[seq]}, not {move}.",
                code="seq_taken",
                expected_seq=attempt.next_seq,
            )
        return _answer_again(attempt, seq), game
    _check_ranked_open(attempt)
    _check_practice_open(attempt)
    _check_next(attempt, seq)
    game = game if game is not None else position(attempt)
    try:
        cards = game.push(move)
    except MalformedError as exc:
        raise Malformed(f"{move!r} is not a move: {exc.reason}", code="malformed_move") from None
    except IllegalMoveError as exc:
        raise IllegalMove(
            f"{move} is not allowed here: {exc.reason}",
            reason=exc.code,
            facts=exc.facts,
            legal=[m.text for m in game.legal_moves()],
        ) from None
    guard = attempt.guard()
    now = clock.now()
    _record(attempt, move, now)
    attempt.foundation_cards = game.foundation_cards
    _judge_and_store(attempt, game, now, lambda: attempt.store_move(guard))
    state = attempt_state(attempt, game, revealed=_codes(cards))
    _announce_move(attempt, state.revealed, origin, state.view["foundations"])
    return state, game


def _judge_and_store(
    attempt: Attempt, game: Game | None, now: dt.datetime, write: Callable[[], bool]
) -> None:
    """Judge the attempt as it now stands (`_judge`) and store it by `write`, its guarded write;
    raise `_Moved` when that stored nothing. A win (`game` won) ends here and is one
    transaction: the deal's par as it stands now judges it, and a par it lowered is rolled back
    with a write that found the attempt changed."""
    if game is None or not game.is_won():
        _judge(attempt)
        if not write():
            raise _Moved
        return
    with transaction.atomic():
        if attempt.daily is not None:
            attempt.daily.deal.refresh_from_db()
        _end_if_won(attempt, game, now)
        _judge(attempt)
        if not write():
            raise _Moved


def _check_next(attempt: Attempt, seq: int) -> None:
    if seq > attempt.next_seq:
        raise Conflict(
            f"Expected move {attempt.next_seq}, got {seq}.",
            code="wrong_seq",
            expected_seq=attempt.next_seq,
        )
    if attempt.is_finished:
        raise finished_error(attempt)
    if attempt.next_seq >= HISTORY_MAX:
        raise Conflict("This attempt has too many moves.", code="history_full")


def _end_if_won(attempt: Attempt, game: Any, now: dt.datetime) -> None:
    if game.is_won():
        attempt.status = Attempt.Status.WON
        attempt.finished_at = now
        _verify(attempt)


def _judge(attempt: Attempt) -> None:
    """The fair-play checks on a ranked attempt as it now stands (games/fairplay.py), and on a
    win the rule that needs a count of the service's (`_hold_if_shared_address`); a win
    under the par shows the par was not a floor: the deal takes the win's line as its par, and
    a new proof is asked for. A win held for its accuracy gets the solver's distance after each
    of its moves measured off the request path: the reviewer's evidence."""
    reasons = fairplay.hold_if_implausible(attempt)
    _hold_if_shared_address(attempt)
    rules = {reason["rule"] for reason in reasons}
    if attempt.daily is not None and "under_par" in rules:
        deal_lower_par(deal_id=attempt.daily.deal_id, line=net_line(attempt.moves))
    if attempt.status == Attempt.Status.WON and "accuracy" in rules:
        signals.send_on_commit(signals.perfection_check_requested, attempt_id=attempt.pk)


def _hold_if_shared_address(attempt: Attempt) -> None:
    """The rule `shared_address` (games/fairplay.py) on a verified ranked win that no admin has
    decided, with the figure it needs: the ranked attempts at its daily from its household
    (`selectors.daily_address_counts`: one query, for a win from a known address only). A win
    from an address with more of them than a household may start as guests is held, beside
    any reason it had, and the review lists its siblings."""
    if not (
        attempt.ranked
        and attempt.status == Attempt.Status.WON
        and attempt.verified
        and not attempt.disqualified
        and attempt.review != Attempt.Review.APPROVED
        and attempt.client_address
        and attempt.daily_id is not None
    ):
        return
    counts = daily_address_counts(daily_id=attempt.daily_id, address=attempt.client_address)
    if counts is None:
        return
    rule = fairplay.RULES_BY_NAME["shared_address"]
    detail = rule.check(
        fairplay.Play(
            attempt.game,
            attempt.moves,
            attempt.move_times,
            won=True,
            address_attempts={
                "attempts": counts.household,
                "household": settings.RANKED_STARTS_PER_ADDRESS,
            },
        )
    )
    if detail is None:
        return
    held = attempt.held_reasons if attempt.review == Attempt.Review.HELD else []
    attempt.review = Attempt.Review.HELD
    attempt.held_reasons = [*held, {"rule": rule.name, "detail": detail}]


def _announce_move(
    attempt: Attempt, revealed: list[str], origin: str | None, foundations: list[dict[str, Any]]
) -> None:
    """After commit: the move (and the end, after a win), with the attempt's standing as
    committed, the cards the move turned face up and the foundations as they now stand."""
    standing = attempt.standing()
    signals.send_on_commit(
        signals.move_played,
        attempt_id=attempt.pk,
        daily_id=attempt.daily_id,
        seq=attempt.next_seq - 1,
        revealed=list(revealed),
        standing=standing,
        foundations=[dict(f) for f in foundations],
        origin=origin,
    )
    if attempt.is_finished:
        _announce_end(attempt, standing, origin)


def _announce_end(attempt: Attempt, standing: Standing, origin: str | None) -> None:
    signals.send_on_commit(
        signals.attempt_finished,
        attempt_id=attempt.pk,
        daily_id=attempt.daily_id,
        status=attempt.status,
        standing=standing,
        origin=origin,
    )


def attempt_finish(
    *,
    attempt_id: int,
    player: Player,
    seq: int,
    origin: str | None = None,
    kept: KeptGame | None = None,
) -> AttemptState:
    """Play the finishing line for the player: when every card left can reach the foundations
    by foundation moves alone, the server plays those moves, each stored and counted like any
    other. `seq` is the next seq the player's screen knows (so a stale screen is refused).
    Guarded as a move is (`_guarded`), in one transaction with the win's verdict."""
    _check_seq(seq)
    return _guarded(
        attempt_id, player, kept, lambda attempt, game: _finish_once(attempt, game, seq, origin)
    )


def _finish_once(
    attempt: Attempt, game: Game | None, seq: int, origin: str | None
) -> tuple[AttemptState, Game]:
    if seq < attempt.next_seq:
        raise Conflict(
            f"Expected move {attempt.next_seq}, got {seq}.",
            code="wrong_seq",
            expected_seq=attempt.next_seq,
        )
    _check_ranked_open(attempt)
    _check_practice_open(attempt)
    _check_next(attempt, seq)
    game = game if game is not None else position(attempt)
    line = game.finishing_line()
    if not line:
        raise Conflict(
            "Not every card left can go straight to the foundations yet.",
            code="not_finishable",
            expected_seq=attempt.next_seq,
        )
    if attempt.next_seq + len(line) > HISTORY_MAX:
        raise Conflict("This attempt has too many moves.", code="history_full")
    guard = attempt.guard()
    now = clock.now()
    for token in line:
        game.push(token)
        _record(attempt, token, now)
    attempt.foundation_cards = game.foundation_cards
    _judge_and_store(attempt, game, now, lambda: attempt.store(guard))
    state = attempt_state(attempt, game)
    _announce_move(attempt, [], origin, state.view["foundations"])
    return state, game


def _codes(cards: tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in cards]


def _answer_again(attempt: Attempt, seq: int) -> AttemptState:
    """The answer to move `seq` as it was first given: the position right after it."""
    before = position(attempt, seq)
    cards = before.push(attempt.moves[seq])
    return attempt_state(attempt, before, revealed=_codes(cards), replayed=True)


def attempt_resign(
    *,
    attempt_id: int,
    player: Player,
    origin: str | None = None,
    kept: KeptGame | None = None,
) -> AttemptState:
    """The player gives up: the attempt ends as resigned, verified like any other, and keeps
    its cards on foundations. Guarded as a move is (`_guarded`)."""
    return _guarded(
        attempt_id, player, kept, lambda attempt, game: _resign_once(attempt, game, origin)
    )


def _resign_once(
    attempt: Attempt, game: Game | None, origin: str | None
) -> tuple[AttemptState, Game | None]:
    if attempt.is_finished:
        raise finished_error(attempt)
    _check_ranked_open(attempt)
    guard = attempt.guard()
    now = clock.now()
    attempt.status = Attempt.Status.RESIGNED
    attempt.finished_at = now
    _verify(attempt)
    _judge_and_store(attempt, game, now, lambda: attempt.store(guard))
    _announce_end(attempt, attempt.standing(), origin)
    return attempt_state(attempt, game), game


def attempt_continue_as_practice(*, attempt_id: int, player: Player) -> tuple[Attempt, bool]:
    """Go on in practice from where a ranked attempt stood when its day ended: a practice
    attempt of the same daily with the same moves (verified by replaying them), resumed if
    the player made it already. Only for a ranked attempt whose day is over while it was being
    played (`Attempt.day_over`); the ranked attempt itself stays as it was. Returns (practice,
    created)."""
    with transaction.atomic():
        ranked = _attempt_locked(attempt_id, player)
        if not ranked.day_over():
            raise Conflict(
                "Only a ranked game whose day ended while it was played goes on in practice.",
                code="not_day_over",
            )
        found = ranked.continuations.filter(status=Attempt.Status.PLAYING).first()
        if found is not None:
            return found, False
        result = replay(ranked.game, ranked.deal_string, ranked.moves)
        if not result.valid:  # stored histories are always valid
            raise RuntimeError(f"attempt {ranked.pk} holds an invalid history: {result.error}")
        now = clock.now()
        practice = Attempt.objects.create(
            player=player,
            game=ranked.game,
            daily=ranked.daily,
            seed=ranked.seed,
            deal_string=ranked.deal_string,
            ranked=False,
            moves=list(ranked.moves),
            move_times=list(ranked.move_times),
            counted_ms=ranked.counted_ms,
            undo_count=ranked.undo_count,
            next_seq=ranked.next_seq,
            move_count=ranked.move_count,
            foundation_cards=result.foundation_cards,
            started_at=ranked.started_at,
            first_move_at=ranked.first_move_at,
            last_move_at=now,
            continued_from=ranked,
        )
        signals.send_on_commit(
            signals.attempt_started,
            attempt_id=practice.pk,
            daily_id=practice.daily_id,
            standing=practice.standing(),
        )
    return practice, True


def _verify(attempt: Attempt) -> bool:
    """Recompute the result by replaying the whole stored history from the deal string (the
    daily's own deal for a daily), and compare it with what is stored."""
    try:
        result = replay(attempt.game, attempt.deal_string, attempt.moves)
    except MalformedError:
        result = None
    dealt = attempt.daily is None or attempt.daily.deal.deal_string == attempt.deal_string
    ok = (
        result is not None
        and dealt
        and result.valid
        and result.moves == attempt.move_count
        and result.foundation_cards == attempt.foundation_cards
        and result.won == (attempt.status == Attempt.Status.WON)
    )
    attempt.verified = ok
    attempt.verified_at = clock.now()
    return ok


def attempt_verify(*, attempt: Attempt) -> bool:
    """Re-verify a stored result (the `verify_attempts` command); saves the verdict."""
    ok = _verify(attempt)
    attempt.save(update_fields=["verified", "verified_at"])
    if attempt.ranked:
        signals.send_on_commit(
            signals.attempt_changed, attempt_id=attempt.pk, daily_id=attempt.daily_id
        )
    return ok


def attempt_disqualify(*, attempt: Attempt, by: Any, reason: str) -> Attempt:
    if not reason.strip():
        raise Malformed("Say why the attempt is disqualified.", code="reason_required")
    attempt.disqualified = True
    attempt.disqualified_reason = reason.strip()
    attempt.disqualified_by = by
    attempt.disqualified_at = clock.now()
    attempt.save(
        update_fields=["disqualified", "disqualified_reason", "disqualified_by", "disqualified_at"]
    )
    signals.send_on_commit(
        signals.attempt_changed, attempt_id=attempt.pk, daily_id=attempt.daily_id
    )
    return attempt
