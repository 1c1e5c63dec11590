"""Writes of the games app: every change to deals, dailies, players and attempts goes here.

Functions are keyword-only and named `noun_verb`. Contended rows are locked
(`select_for_update`). Effects on other parts of the project run after commit, through the
signals of `games.signals`, which carry ids: this module never calls a listener itself.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from games import clock, fairplay, names, signals
from games.engine import MalformedError, game_class, replay
from games.engine.cards import TEXT
from games.engine.errors import IllegalMoveError
from games.engine.solver import SolveResult, solve
from games.errors import Conflict, Forbidden, IllegalMove, Malformed, NotFound
from games.models import (
    DISPLAY_NAME_MAX,
    DISPLAY_NAME_MIN,
    Attempt,
    DailyChallenge,
    Deal,
    Player,
    PlayerToken,
    ReviewDecision,
    display_name_validator,
    seed_text,
)
from games.selectors import game_check
from games.state import AttemptState, attempt_state, position

MOVE_TOKEN_MIN, MOVE_TOKEN_MAX = 1, 8  # "U" .. the longest token, "FC>T7" or "M8>M1", is 5
HISTORY_MAX = 5000  # moves per attempt; no real game comes near

#: Seconds the solver may think about one deal when asked without a limit, and at most.
DEFAULT_SOLVE_SECONDS = 60
MAX_SOLVE_SECONDS = 600

#: A claim older than this is taken to be from a worker that died (beyond the hard limit).
STALE_CLAIM = dt.timedelta(minutes=30)


# -- deals -----------------------------------------------------------------------------------


def deal_create(
    *,
    game: str,
    seed: int | None = None,
    deal_string: str | None = None,
    notes: str = "",
    dealt_by_scheduler: bool = False,
) -> Deal:
    """A new candidate deal from a seed or a pasted deal string (exactly one), validated by the
    engine. The same layout twice is refused."""
    game_check(game)
    if (seed is None) == (deal_string is None):
        raise Malformed("Give either a seed or a deal string.", code="seed_or_deal")
    try:
        cls = game_class(game)
        text = cls.deal_for_seed(seed) if seed is not None else deal_string
        cls.from_deal(text)  # type: ignore[arg-type]
    except MalformedError as exc:
        raise Malformed(f"This is not a {game} deal: {exc}", code="bad_deal") from None
    existing = Deal.objects.filter(game=game, deal_string=text).first()
    if existing is not None:
        raise Conflict(
            f"This deal exists already ({existing}).", code="deal_exists", deal_id=existing.pk
        )
    try:
        with transaction.atomic():
            return Deal.objects.create(
                game=game,
                seed=seed_text(seed),
                deal_string=text,
                notes=notes,
                dealt_by_scheduler=dealt_by_scheduler,
            )
    except IntegrityError:  # created meanwhile by someone else
        raise Conflict("This deal exists already.", code="deal_exists") from None


def deal_request_solve(*, deal: Deal, time_limit: float | None = None) -> Deal:
    """Ask the background solver for this deal (`deal_solve_requested` after commit). A deal
    being solved is left alone (unless its claim is stale: the worker died), and an approved
    deal keeps its certificate."""
    if deal.curation == Deal.Curation.APPROVED:
        raise Conflict("This deal is approved; its certificate stays.", code="deal_approved")
    working = Q(
        solver_status=Deal.SolverStatus.SOLVING, solve_started_at__gte=clock.now() - STALE_CLAIM
    )
    updated = (
        Deal.objects.filter(pk=deal.pk)
        .exclude(working)
        .exclude(curation=Deal.Curation.APPROVED)
        .update(solver_status=Deal.SolverStatus.PENDING, solve_requested_at=clock.now())
    )
    if updated:
        signals.send_on_commit(signals.deal_solve_requested, deal_id=deal.pk, time_limit=time_limit)
    deal.refresh_from_db()
    return deal


def deal_claim_for_solving(*, deal_id: int) -> bool:
    """Claim a pending deal for one solver run with a conditional UPDATE, so that a second
    delivery of the same task finds nothing to claim and does nothing."""
    now = clock.now()
    stale = Q(solver_status=Deal.SolverStatus.SOLVING, solve_started_at__lt=now - STALE_CLAIM)
    claimed = (
        Deal.objects.filter(pk=deal_id)
        .filter(Q(solver_status=Deal.SolverStatus.PENDING) | stale)
        .exclude(curation=Deal.Curation.APPROVED)
        .update(solver_status=Deal.SolverStatus.SOLVING, solve_started_at=now)
    )
    return bool(claimed)


def deal_solve(
    *, deal_id: int, time_limit: float | None = None, par_time: float | None = None
) -> str:
    """Claim a pending deal, solve it here and store the result: what the `solve_deal` task,
    the `solve_deal` command and the scheduler run. Returns the stored solver status, or
    "skipped" when the deal was not there to claim (claimed or decided already).

    When a Celery task's soft time limit interrupts the solver, the deal is stored as unknown
    and `SoftTimeLimitExceeded` goes on up, so that a longer job (the scheduler) stops too.
    """
    if not deal_claim_for_solving(deal_id=deal_id):
        return "skipped"
    deal = Deal.objects.get(pk=deal_id)
    seconds = min(time_limit or DEFAULT_SOLVE_SECONDS, MAX_SOLVE_SECONDS)
    try:
        result = solve(deal.game, deal.deal_string, time_limit=seconds, par_time=par_time)
    except SoftTimeLimitExceeded:
        stopped = SolveResult(Deal.SolverStatus.UNKNOWN, stats={"stopped_by": "task time limit"})
        deal_store_solution(deal_id=deal_id, result=stopped)
        raise
    return deal_store_solution(deal_id=deal_id, result=result).solver_status


def deal_store_solution(*, deal_id: int, result: Any) -> Deal:
    """Store a solver result; a certificate is kept only if the replay verifier accepts it."""
    with transaction.atomic():
        deal = Deal.objects.select_for_update().get(pk=deal_id)
        status = result.status
        certificate: list[str] = []
        if status == Deal.SolverStatus.SOLVED:
            verdict = replay(deal.game, deal.deal_string, result.moves)
            if verdict.valid and verdict.won:
                certificate = list(result.moves)
            else:  # never trust a line the verifier refuses
                status = Deal.SolverStatus.UNKNOWN
        deal.solver_status = status
        deal.certificate = certificate
        deal.par = len(certificate) if certificate else None
        deal.difficulty = result.difficulty if certificate else None
        deal.solver_stats = result.stats
        deal.solved_at = clock.now()
        deal.save()
        return deal


def deal_approve(*, deal: Deal, by: Any = None, system: bool = False) -> Deal:
    if not deal.is_certified:
        raise Conflict(
            "Only a solved deal with a certificate can be approved.", code="not_certified"
        )
    return _curate(deal, Deal.Curation.APPROVED, by=by, system=system)


def deal_reject(*, deal: Deal, by: Any = None) -> Deal:
    if deal.dailies.exists():
        raise Conflict(
            "This deal is scheduled; unschedule it before rejecting it.", code="deal_scheduled"
        )
    return _curate(deal, Deal.Curation.REJECTED, by=by, system=False)


def _curate(deal: Deal, curation: str, *, by: Any, system: bool) -> Deal:
    deal.curation = curation
    deal.curated_by = by
    deal.curated_at = clock.now()
    deal.chosen_by_system = system
    deal.save(update_fields=["curation", "curated_by", "curated_at", "chosen_by_system"])
    return deal


def deal_set_notes(*, deal: Deal, notes: str) -> Deal:
    """The curators' notes on a deal (free text); nothing else changes."""
    deal.notes = notes.strip()
    deal.save(update_fields=["notes"])
    return deal


# -- the daily schedule ----------------------------------------------------------------------


def daily_schedule(
    *, game: str, date: dt.date, deal: Deal, by: Any = None, replace: bool = True
) -> DailyChallenge:
    """Put `deal` on `date` for `game`, replacing the deal planned there if nobody has played
    it yet. Only approved deals with a certificate can be scheduled. With `replace=False` a day
    that has a daily keeps it and that daily is returned (the scheduler never overrides)."""
    game_check(game)
    if deal.game != game:
        raise Malformed(f"{deal} is not a {game} deal.", code="wrong_game")
    if not deal.is_schedulable:
        raise Conflict(
            "Only an approved deal with a certificate can be scheduled.", code="not_schedulable"
        )
    if date < clock.today():
        raise Conflict("That day is over; its daily cannot change.", code="day_over")
    with transaction.atomic():
        daily = DailyChallenge.objects.select_for_update().filter(game=game, date=date).first()
        if daily is None:
            daily = DailyChallenge.objects.create(game=game, date=date, deal=deal, scheduled_by=by)
            signals.send_on_commit(signals.daily_scheduled, daily_id=daily.pk)
            return daily
        if daily.deal_id == deal.pk or not replace:
            return daily
        if daily.attempts.exists():
            raise Conflict(
                "People have played this daily already; it cannot change.", code="daily_played"
            )
        daily.deal = deal
        daily.scheduled_by = by
        daily.save(update_fields=["deal", "scheduled_by", "updated_at"])
        signals.send_on_commit(signals.daily_scheduled, daily_id=daily.pk)
        return daily


def daily_unschedule(*, daily: DailyChallenge) -> None:
    with transaction.atomic():
        daily = DailyChallenge.objects.select_for_update().get(pk=daily.pk)
        if daily.attempts.exists():
            raise Conflict(
                "People have played this daily already; it cannot be removed.",
                code="daily_played",
            )
        daily.delete()


# -- players ---------------------------------------------------------------------------------

#: How often a player's `last_seen_at` is written at most (a visit is not worth a write each).
SEEN_EVERY = dt.timedelta(minutes=10)


def player_create_guest(*, display_name: str | None = None) -> Player:
    """A new guest, under `display_name` when given (checked like a rename), else a generated
    one ("Guest 482113") that they may change later."""
    if display_name is not None:
        name, key = _name_checked(display_name)
        try:
            with transaction.atomic():
                return Player.objects.create(
                    display_name=name, name_key=key, last_seen_at=clock.now()
                )
        except IntegrityError:
            raise _name_taken() from None
    for _ in range(20):
        name = f"{names.GUEST_PREFIX}{secrets.randbelow(900_000) + 100_000}"
        try:
            with transaction.atomic():
                return Player.objects.create(
                    display_name=name, name_key=names.name_key(name), last_seen_at=clock.now()
                )
        except IntegrityError:
            continue
    raise Conflict("Could not find a free guest name; try again.", code="busy")  # pragma: no cover


def _name_taken() -> Conflict:
    return Conflict(
        "That name is taken, or looks too much like one that is.", code="display_name_taken"
    )


def _name_checked(display_name: str, player: Player | None = None) -> tuple[str, str]:
    """The cleaned name and its key, or `Malformed`; see games/names.py for what is refused."""
    name = " ".join(str(display_name).split())
    if not DISPLAY_NAME_MIN <= len(name) <= DISPLAY_NAME_MAX:
        raise Malformed(
            f"A display name has {DISPLAY_NAME_MIN} to {DISPLAY_NAME_MAX} characters.",
            code="bad_display_name",
        )
    try:
        display_name_validator(name)
    except ValidationError as exc:
        raise Malformed(exc.messages[0], code="bad_display_name") from None
    if names.mixes_scripts(name):
        raise Malformed("Use the letters of one alphabet in a name.", code="bad_display_name")
    key = names.name_key(name)
    if names.is_reserved(key) and (player is None or key != player.name_key):
        raise Malformed(
            f"Names starting with '{names.GUEST_PREFIX.strip()}' are kept for new players.",
            code="bad_display_name",
        )
    return name, key


def player_rename(*, player: Player, display_name: str) -> Player:
    name, key = _name_checked(display_name, player)
    if Player.objects.filter(name_key=key).exclude(pk=player.pk).exists():
        raise _name_taken()
    try:
        with transaction.atomic():
            player.display_name = name
            player.name_key = key
            player.save(update_fields=["display_name", "name_key"])
    except IntegrityError:
        raise _name_taken() from None
    return player


def player_seen(*, player: Player) -> None:
    """Note a visit: `last_seen_at`, written at most every `SEEN_EVERY`."""
    now = clock.now()
    if player.last_seen_at is None or now - player.last_seen_at >= SEEN_EVERY:
        Player.objects.filter(pk=player.pk).update(last_seen_at=now)
        player.last_seen_at = now


def player_link_user(*, player: Player, user: Any) -> Player:
    """Attach an account to this player, or, if the account has a player already, move this
    guest's attempts to it and answer that player, so streaks follow the person across devices.

    One ranked attempt per daily per account, whatever is linked: where both have a ranked
    attempt on the same daily, the one started later becomes practice. The guest's cookie
    tokens are revoked: the guest now lives on as the account's player.
    """
    with transaction.atomic():
        existing = Player.objects.select_for_update().filter(user=user).first()
        if existing is None:
            player.user = user
            player.save(update_fields=["user"])
            return player
        if existing.pk == player.pk:
            return player
        theirs = {a.daily_id: a for a in existing.attempts.select_for_update().filter(ranked=True)}
        for attempt in player.attempts.select_for_update().order_by("pk"):
            kept = theirs.get(attempt.daily_id) if attempt.ranked else None
            if kept is not None:
                if attempt.started_at >= kept.started_at:
                    attempt.ranked = False
                else:
                    kept.ranked = False
                    kept.save(update_fields=["ranked"])
                changed = [attempt.daily_id]
            else:
                changed = [attempt.daily_id] if attempt.ranked else []
            attempt.player = existing
            attempt.save(update_fields=["player", "ranked"])
            for daily_id in changed:
                signals.send_on_commit(
                    signals.attempt_changed, attempt_id=attempt.pk, daily_id=daily_id
                )
        player_tokens_revoke(player=player)
        return existing


def player_token_issue(*, player: Player) -> str:
    """A new cookie token for `player`; only its hash is stored. Returns the raw token."""
    raw = secrets.token_urlsafe(32)
    PlayerToken.objects.create(player=player, key_hash=PlayerToken.hash(raw))
    return raw


def player_token_revoke(*, raw: str) -> None:
    """Make one cookie token worthless (logging out)."""
    PlayerToken.objects.filter(key_hash=PlayerToken.hash(raw), revoked_at__isnull=True).update(
        revoked_at=clock.now()
    )


def player_tokens_revoke(*, player: Player) -> None:
    """Make every cookie token of `player` worthless."""
    PlayerToken.objects.filter(player=player, revoked_at__isnull=True).update(
        revoked_at=clock.now()
    )


def account_create(*, username: str, password: str) -> Any:
    """A new Django user (the caller has validated the username and password)."""
    User = get_user_model()
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise Conflict("That username is taken.", code="username_taken") from None


# -- attempts --------------------------------------------------------------------------------


def _dealt_foundation_cards(game: str, deal_string: str) -> int:
    """Cards on the foundations before any move (Masterpiece's four Aces)."""
    return game_class(game).from_deal(deal_string).foundation_cards


def attempt_start(*, player: Player, daily: DailyChallenge) -> tuple[Attempt, bool]:
    """Start, or resume, this player's attempt at a daily: ranked today, practice on a past
    day; a future daily is not found. Returns (attempt, created)."""
    today = clock.today()
    if daily.date > today or not daily.published:
        raise NotFound("There is no such daily yet.", code="daily_not_found")
    ranked = daily.date == today
    with transaction.atomic():
        found = (
            Attempt.objects.select_for_update()
            .filter(player=player, daily=daily, ranked=ranked)
            .order_by("-started_at")
        )
        # A ranked attempt is resumed whatever its state; practice resumes only unfinished play.
        attempt = (found if ranked else found.filter(status=Attempt.Status.PLAYING)).first()
        if attempt is not None:
            return attempt, False
        try:
            with transaction.atomic():
                attempt = Attempt.objects.create(
                    player=player,
                    game=daily.game,
                    daily=daily,
                    seed=daily.deal.seed,
                    deal_string=daily.deal.deal_string,
                    ranked=ranked,
                    started_at=clock.now(),
                    foundation_cards=_dealt_foundation_cards(daily.game, daily.deal.deal_string),
                )
        except IntegrityError:  # the same player started it at the same moment elsewhere
            return Attempt.objects.get(player=player, daily=daily, ranked=True), False
        signals.send_on_commit(signals.attempt_started, attempt_id=attempt.pk, daily_id=daily.pk)
        return attempt, True


def attempt_start_practice(*, player: Player, game: str, seed: int) -> tuple[Attempt, bool]:
    """Practice on any seed (never ranked); resumes an unfinished practice of the same seed."""
    game_check(game)
    try:
        text = game_class(game).deal_for_seed(seed)
    except MalformedError as exc:
        raise Malformed(str(exc), code="bad_seed") from None
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


def _attempt_locked(attempt_id: int, player: Player) -> Attempt:
    """The attempt, locked for this transaction; 404 unknown, 403 someone else's."""
    attempt = Attempt.objects.locked_for_play(attempt_id)
    if attempt is None:
        raise NotFound("There is no such attempt.", code="attempt_not_found")
    if attempt.player_id != player.pk:
        raise Forbidden("This attempt is someone else's.", code="not_your_attempt")
    return attempt


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
    attempt.next_seq += 1
    attempt.move_count = attempt.next_seq
    attempt.first_move_at = attempt.first_move_at or now
    attempt.last_move_at = now


def attempt_play(*, attempt_id: int, player: Player, seq: int, move: str) -> AttemptState:
    """Check one move against the authoritative position and store it, in one transaction.

    `seq` is the move's index in the history. Sending a stored `seq` again with the same move
    answers as the first time and stores nothing; any other `seq` is refused with the one
    expected. A finished attempt takes no more moves. A win ends the attempt; a position with
    no card move does not (the state says `blocked`: undo or resign).
    """
    _check_move_input(seq, move)
    with transaction.atomic():
        attempt = _attempt_locked(attempt_id, player)
        if seq < attempt.next_seq:
            if attempt.moves[seq] != move:
                raise Conflict(
                    f"Move {seq} was {attempt.moves[seq]}, not {move}.",
                    code="seq_taken",
                    expected_seq=attempt.next_seq,
                )
            return _answer_again(attempt, seq)
        _check_next(attempt, seq)
        game = position(attempt)
        try:
            cards = game.push(move)
        except MalformedError as exc:
            raise Malformed(
                f"{move!r} is not a move: {exc.reason}", code="malformed_move"
            ) from None
        except IllegalMoveError as exc:
            raise IllegalMove(
                f"{move} is not allowed here: {exc.reason}",
                legal=[m.text for m in game.legal_moves()],
            ) from None
        now = clock.now()
        _record(attempt, move, now)
        attempt.foundation_cards = game.foundation_cards
        _end_if_won(attempt, game, now)
        attempt.store()
        state = attempt_state(attempt, game, revealed=_codes(cards))
        _announce_move(state)
        return state


def _check_next(attempt: Attempt, seq: int) -> None:
    if seq > attempt.next_seq:
        raise Conflict(
            f"Expected move {attempt.next_seq}, got {seq}.",
            code="wrong_seq",
            expected_seq=attempt.next_seq,
        )
    if attempt.is_finished:
        raise Conflict(
            f"This attempt is over ({attempt.status}).",
            code="attempt_finished",
            expected_seq=attempt.next_seq,
        )
    if attempt.next_seq >= HISTORY_MAX:
        raise Conflict("This attempt has too many moves.", code="history_full")


def _end_if_won(attempt: Attempt, game: Any, now: dt.datetime) -> None:
    if game.is_won():
        attempt.status = Attempt.Status.WON
        attempt.finished_at = now
        _verify(attempt)
        fairplay.hold_if_implausible(attempt)


def _announce_move(state: AttemptState) -> None:
    """After commit: the move (and the end, after a win). The state rides along so that
    listeners in this process need not read it again."""
    attempt = state.attempt
    signals.send_on_commit(
        signals.move_played,
        attempt_id=attempt.pk,
        daily_id=attempt.daily_id,
        seq=attempt.next_seq - 1,
        state=state,
    )
    if attempt.is_finished:
        signals.send_on_commit(
            signals.attempt_finished,
            attempt_id=attempt.pk,
            daily_id=attempt.daily_id,
            status=attempt.status,
            state=state,
        )


def attempt_finish(*, attempt_id: int, player: Player, seq: int) -> AttemptState:
    """Play the finishing line for the player: when every card left can reach the foundations
    by foundation moves alone, the server plays those moves, each stored and counted like any
    other. `seq` is the next seq the player's screen knows (so a stale screen is refused)."""
    _check_seq(seq)
    with transaction.atomic():
        attempt = _attempt_locked(attempt_id, player)
        if seq < attempt.next_seq:
            raise Conflict(
                f"Expected move {attempt.next_seq}, got {seq}.",
                code="wrong_seq",
                expected_seq=attempt.next_seq,
            )
        _check_next(attempt, seq)
        game = position(attempt)
        line = game.finishing_line()
        if not line:
            raise Conflict(
                "Not every card left can go straight to the foundations yet.",
                code="not_finishable",
                expected_seq=attempt.next_seq,
            )
        if attempt.next_seq + len(line) > HISTORY_MAX:
            raise Conflict("This attempt has too many moves.", code="history_full")
        now = clock.now()
        for token in line:
            game.push(token)
            _record(attempt, token, now)
        attempt.foundation_cards = game.foundation_cards
        _end_if_won(attempt, game, now)
        attempt.store()
        state = attempt_state(attempt, game)
        _announce_move(state)
        return state


def _codes(cards: tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in cards]


def _answer_again(attempt: Attempt, seq: int) -> AttemptState:
    """The answer to move `seq` as it was first given: the position right after it."""
    before = position(attempt, seq)
    cards = before.push(attempt.moves[seq])
    return attempt_state(attempt, before, revealed=_codes(cards), replayed=True)


def attempt_resign(*, attempt_id: int, player: Player) -> AttemptState:
    """The player gives up: the attempt ends as resigned, verified like any other, and keeps
    its cards on foundations."""
    with transaction.atomic():
        attempt = _attempt_locked(attempt_id, player)
        if attempt.is_finished:
            raise Conflict(
                f"This attempt is over ({attempt.status}).",
                code="attempt_finished",
                expected_seq=attempt.next_seq,
            )
        attempt.status = Attempt.Status.RESIGNED
        attempt.finished_at = clock.now()
        _verify(attempt)
        fairplay.hold_if_implausible(attempt)
        attempt.store()
        state = attempt_state(attempt)
        signals.send_on_commit(
            signals.attempt_finished,
            attempt_id=attempt.pk,
            daily_id=attempt.daily_id,
            status=attempt.status,
            state=state,
        )
        return state


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


def _held_locked(attempt: Attempt) -> Attempt:
    """The attempt, locked for this transaction, if it is held for review; else `Conflict`."""
    locked = Attempt.objects.select_for_update().get(pk=attempt.pk)
    if locked.review != Attempt.Review.HELD or locked.disqualified:
        raise Conflict("This result is not held for review (decided already?).", code="not_held")
    return locked


def attempt_review_approve(*, attempt: Attempt, by: Any, note: str = "") -> Attempt:
    """An admin approves a result held by the fair-play checks (games/fairplay.py): ranked
    again, the decision recorded."""
    with transaction.atomic():
        attempt = _held_locked(attempt)
        attempt.review = Attempt.Review.APPROVED
        attempt.save(update_fields=["review"])
        ReviewDecision.objects.create(
            attempt=attempt,
            decision=ReviewDecision.Decision.APPROVED,
            reason=note.strip(),
            decided_by=by,
            decided_at=clock.now(),
        )
    signals.send_on_commit(
        signals.attempt_changed, attempt_id=attempt.pk, daily_id=attempt.daily_id
    )
    return attempt


def attempt_review_disqualify(*, attempt: Attempt, by: Any, reason: str) -> Attempt:
    """An admin disqualifies a result held by the fair-play checks, with a reason the player
    sees (`attempt_disqualify`), the decision recorded; the review is over."""
    with transaction.atomic():
        attempt = _held_locked(attempt)
        attempt_disqualify(attempt=attempt, by=by, reason=reason)
        attempt.review = Attempt.Review.NONE
        attempt.save(update_fields=["review"])
        ReviewDecision.objects.create(
            attempt=attempt,
            decision=ReviewDecision.Decision.DISQUALIFIED,
            reason=attempt.disqualified_reason,
            decided_by=by,
            decided_at=attempt.disqualified_at,
        )
    return attempt
