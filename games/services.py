"""Writes of the games app: every change to deals, dailies, players and attempts goes here.

Functions are keyword-only and named `noun_verb`. Contended rows are locked
(`select_for_update`); effects on other systems run after commit.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from games import clock
from games.engine import Game, MalformedError, game_class, replay
from games.engine.cards import TEXT
from games.engine.errors import IllegalMoveError
from games.errors import Conflict, Forbidden, IllegalMove, Malformed, NotFound
from games.models import (
    DISPLAY_NAME_MAX,
    DISPLAY_NAME_MIN,
    Attempt,
    DailyChallenge,
    Deal,
    GameName,
    Player,
    display_name_validator,
    seed_text,
)

MOVE_TOKEN_MAX = 8  # the longest token, "FC>T7" or "M8>M1", has 5 characters
HISTORY_MAX = 5000  # moves per attempt; no real game comes near


# -- deals -----------------------------------------------------------------------------------


def game_check(game: str) -> str:
    if game not in GameName.values:
        raise NotFound(f"There is no game called {game!r}: play munger or masterpiece.",
                       code="unknown_game")  # fmt: skip
    return game


def deal_create(
    *, game: str, seed: int | None = None, deal: str | None = None, notes: str = ""
) -> Deal:
    """A new candidate deal from a seed or a pasted deal string (exactly one), validated by the
    engine. The same layout twice is refused."""
    game_check(game)
    if (seed is None) == (deal is None):
        raise Malformed("Give either a seed or a deal string.", code="seed_or_deal")
    try:
        cls = game_class(game)
        text = cls.deal_for_seed(seed) if seed is not None else deal
        cls.from_deal(text)  # type: ignore[arg-type]
    except MalformedError as exc:
        raise Malformed(f"This is not a {game} deal: {exc}", code="bad_deal") from None
    existing = Deal.objects.filter(game=game, deal=text).first()
    if existing is not None:
        raise Conflict(f"This deal exists already ({existing}).", code="deal_exists",
                       deal_id=existing.pk)  # fmt: skip
    try:
        with transaction.atomic():
            return Deal.objects.create(
                game=game, seed=seed_text(seed), deal=text,
                notes=notes,
            )  # fmt: skip
    except IntegrityError:  # created meanwhile by someone else
        raise Conflict("This deal exists already.", code="deal_exists") from None


def deal_request_solve(*, deal: Deal, time_limit: float | None = None) -> Deal:
    """Ask the background solver for this deal; the task is sent after commit. A deal being
    solved is left alone (unless its claim is stale: the worker died), and an approved deal
    keeps its certificate."""
    from games.tasks import solve_deal

    if deal.curation == Deal.Curation.APPROVED:
        raise Conflict("This deal is approved; its certificate stays.", code="deal_approved")
    working = Q(solver_status=Deal.SolverStatus.SOLVING,
                solve_started_at__gte=clock.now() - STALE_CLAIM)  # fmt: skip
    updated = (
        Deal.objects.filter(pk=deal.pk)
        .exclude(working)
        .exclude(curation=Deal.Curation.APPROVED)
        .update(solver_status=Deal.SolverStatus.PENDING, solve_requested_at=clock.now())
    )
    if updated:
        deal_id = deal.pk
        transaction.on_commit(lambda: solve_deal.delay(deal_id, time_limit))
    deal.refresh_from_db()
    return deal


#: A claim older than this is taken to be from a worker that died (beyond the hard limit).
STALE_CLAIM = dt.timedelta(minutes=30)


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


def deal_store_solution(*, deal_id: int, result: Any) -> Deal:
    """Store a solver result; a certificate is kept only if the replay verifier accepts it."""
    with transaction.atomic():
        deal = Deal.objects.select_for_update().get(pk=deal_id)
        status = result.status
        certificate: list[str] = []
        if status == Deal.SolverStatus.SOLVED:
            verdict = replay(deal.game, deal.deal, result.moves)
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
    if not deal.certificate or deal.solver_status != Deal.SolverStatus.SOLVED:
        raise Conflict("Only a solved deal with a certificate can be approved.",
                       code="not_certified")  # fmt: skip
    return _curate(deal, Deal.Curation.APPROVED, by=by, system=system)


def deal_reject(*, deal: Deal, by: Any = None) -> Deal:
    if deal.dailies.exists():
        raise Conflict("This deal is scheduled; unschedule it before rejecting it.",
                       code="deal_scheduled")  # fmt: skip
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
        raise Conflict("Only an approved deal with a certificate can be scheduled.",
                       code="not_schedulable")  # fmt: skip
    if date < clock.today():
        raise Conflict("That day is over; its daily cannot change.", code="day_over")
    with transaction.atomic():
        daily = DailyChallenge.objects.select_for_update().filter(game=game, date=date).first()
        if daily is None:
            return DailyChallenge.objects.create(game=game, date=date, deal=deal, scheduled_by=by)
        if daily.deal_id == deal.pk or not replace:
            return daily
        if daily.attempts.exists():
            raise Conflict("People have played this daily already; it cannot change.",
                           code="daily_played")  # fmt: skip
        daily.deal = deal
        daily.scheduled_by = by
        daily.save(update_fields=["deal", "scheduled_by", "updated_at"])
        return daily


def daily_unschedule(*, daily: DailyChallenge) -> None:
    with transaction.atomic():
        daily = DailyChallenge.objects.select_for_update().get(pk=daily.pk)
        if daily.attempts.exists():
            raise Conflict("People have played this daily already; it cannot be removed.",
                           code="daily_played")  # fmt: skip
        daily.delete()


# -- players ---------------------------------------------------------------------------------


def player_create_guest() -> Player:
    """A new guest with a generated display name ("Guest 4821"), which they may change."""
    for _ in range(20):
        name = f"Guest {secrets.randbelow(900_000) + 100_000}"
        try:
            with transaction.atomic():
                return Player.objects.create(display_name=name)
        except IntegrityError:
            continue
    raise Conflict("Could not find a free guest name; try again.", code="busy")  # pragma: no cover


def player_rename(*, player: Player, display_name: str) -> Player:
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
    if name.lower().startswith("guest ") and name.lower() != player.display_name.lower():
        raise Malformed("Names starting with 'Guest ' are kept for new players.",
                        code="bad_display_name")  # fmt: skip
    if Player.objects.filter(display_name__iexact=name).exclude(pk=player.pk).exists():
        raise Conflict("Someone already plays under that name.", code="display_name_taken")
    try:
        with transaction.atomic():
            player.display_name = name
            player.save(update_fields=["display_name", "last_seen_at"])
    except IntegrityError:
        raise Conflict(
            "Someone already plays under that name.", code="display_name_taken"
        ) from None
    return player


def player_link_user(*, player: Player, user: Any) -> Player:
    """Attach an account to this player, or, if the account has a player already, move this
    guest's attempts to it (where they do not clash) and answer that player, so streaks follow
    the person across devices."""
    with transaction.atomic():
        existing = Player.objects.select_for_update().filter(user=user).first()
        if existing is None:
            player.user = user
            player.save(update_fields=["user", "last_seen_at"])
            return player
        if existing.pk == player.pk:
            return player
        taken = set(existing.attempts.filter(ranked=True).values_list("challenge_id", flat=True))
        for attempt in player.attempts.select_for_update():
            if attempt.ranked and attempt.challenge_id in taken:
                continue  # the account played this daily already; the guest's stays behind
            attempt.player = existing
            attempt.save(update_fields=["player"])
        return existing


# -- attempts --------------------------------------------------------------------------------


@dataclass
class PlayAnswer:
    """What a move (or a start) answers: the new state for the player's screen."""

    attempt: Attempt
    view: dict[str, Any]
    legal: list[str]
    revealed: list[str] = field(default_factory=list)
    can_undo: bool = False
    replayed: bool = False  # True when this answers a seq sent before (nothing stored)


def _position(attempt: Attempt, upto: int | None = None) -> Game:
    """The authoritative position: the attempt's deal with its stored history replayed."""
    moves = attempt.moves if upto is None else attempt.moves[:upto]
    result = replay(attempt.game, attempt.deal, moves)
    if not result.valid or result.game is None:  # stored histories are always valid
        raise RuntimeError(f"attempt {attempt.pk} holds an invalid history: {result.error}")
    return result.game


def attempt_answer(attempt: Attempt, *, upto: int | None = None, revealed: list[str] | None = None,
                   replayed: bool = False) -> PlayAnswer:  # fmt: skip
    game = _position(attempt, upto)
    return PlayAnswer(
        attempt=attempt, view=game.view(), legal=[m.text for m in game.legal_moves()],
        revealed=revealed or [], can_undo=game.can_undo, replayed=replayed,
    )  # fmt: skip


def _dealt_foundation_cards(game: str, deal: str) -> int:
    """Cards on the foundations before any move (Masterpiece's four Aces)."""
    return game_class(game).from_deal(deal).foundation_cards


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
            .filter(player=player, challenge=daily, ranked=ranked)
            .order_by("-started_at")
        )
        # A ranked attempt is resumed whatever its state; practice resumes only unfinished play.
        attempt = (found if ranked else found.filter(status=Attempt.Status.PLAYING)).first()
        if attempt is not None:
            return attempt, False
        try:
            with transaction.atomic():
                attempt = Attempt.objects.create(
                    player=player, game=daily.game, challenge=daily, seed=daily.deal.seed,
                    deal=daily.deal.deal, ranked=ranked, started_at=clock.now(),
                    foundation_cards=_dealt_foundation_cards(daily.game, daily.deal.deal),
                )  # fmt: skip
        except IntegrityError:  # the same player started it at the same moment elsewhere
            return Attempt.objects.get(player=player, challenge=daily, ranked=True), False
        return attempt, True


def attempt_start_practice(*, player: Player, game: str, seed: int) -> tuple[Attempt, bool]:
    """Practice on any seed (never ranked); resumes an unfinished practice of the same seed."""
    game_check(game)
    try:
        text = game_class(game).deal_for_seed(seed)
    except MalformedError as exc:
        raise Malformed(str(exc), code="bad_seed") from None
    existing = Attempt.objects.filter(
        player=player, game=game, challenge__isnull=True, seed=seed_text(seed),
        status=Attempt.Status.PLAYING,
    ).first()  # fmt: skip
    if existing is not None:
        return existing, False
    attempt = Attempt.objects.create(
        player=player, game=game, seed=seed_text(seed), deal=text, ranked=False,
        started_at=clock.now(), foundation_cards=_dealt_foundation_cards(game, text),
    )  # fmt: skip
    return attempt, True


def attempt_play(*, attempt_id: int, player: Player, seq: int, move: str) -> PlayAnswer:
    """Check one move against the authoritative position and store it, in one transaction.

    `seq` is the move's index in the history. Sending a stored `seq` again with the same move
    answers as the first time and stores nothing; any other `seq` is refused with the one
    expected. A finished attempt takes no more moves.
    """
    if not isinstance(move, str) or not move or len(move) > MOVE_TOKEN_MAX:
        raise Malformed("A move is one token such as T3>T5, M1>F or U.", code="malformed_move")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise Malformed("seq is the move's index in the history, from 0.", code="malformed_seq")
    with transaction.atomic():
        attempt = Attempt.objects.select_for_update().filter(pk=attempt_id).first()
        if attempt is None:
            raise NotFound("There is no such attempt.", code="attempt_not_found")
        if attempt.player_id != player.pk:
            raise Forbidden("This attempt is someone else's.", code="not_your_attempt")
        if seq < attempt.next_seq:
            if attempt.moves[seq] != move:
                raise Conflict(
                    f"Move {seq} was {attempt.moves[seq]}, not {move}.", code="seq_taken",
                    expected_seq=attempt.next_seq,
                )  # fmt: skip
            return _answer_again(attempt, seq)
        if seq > attempt.next_seq:
            raise Conflict(f"Expected move {attempt.next_seq}, got {seq}.", code="wrong_seq",
                           expected_seq=attempt.next_seq)  # fmt: skip
        if attempt.is_finished:
            raise Conflict(f"This attempt is over ({attempt.status}).", code="attempt_finished",
                           expected_seq=attempt.next_seq)  # fmt: skip
        if attempt.next_seq >= HISTORY_MAX:
            raise Conflict("This attempt has too many moves.", code="history_full")
        game = _position(attempt)
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
        attempt.moves = [*attempt.moves, move]
        attempt.next_seq += 1
        attempt.move_count = attempt.next_seq
        attempt.foundation_cards = game.foundation_cards
        attempt.first_move_at = attempt.first_move_at or now
        legal = [m.text for m in game.legal_moves()]
        if game.is_won():
            attempt.status = Attempt.Status.WON
        elif not legal:
            attempt.status = Attempt.Status.STUCK
        if attempt.is_finished:
            attempt.finished_at = now
            _verify(attempt)
        attempt.save()
        return PlayAnswer(
            attempt=attempt, view=game.view(), legal=legal,
            revealed=_codes(cards),
            can_undo=game.can_undo,
        )  # fmt: skip


def _codes(cards: tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in cards]


def _answer_again(attempt: Attempt, seq: int) -> PlayAnswer:
    """The answer to move `seq` as it was first given: the position right after it."""
    before = _position(attempt, seq)
    cards = before.push(attempt.moves[seq])
    return PlayAnswer(
        attempt=attempt, view=before.view(), legal=[m.text for m in before.legal_moves()],
        revealed=_codes(cards), can_undo=before.can_undo, replayed=True,
    )  # fmt: skip


def attempt_resign(*, attempt_id: int, player: Player) -> Attempt:
    """The player gives up: the attempt ends as abandoned, verified like any other."""
    with transaction.atomic():
        attempt = Attempt.objects.select_for_update().filter(pk=attempt_id).first()
        if attempt is None:
            raise NotFound("There is no such attempt.", code="attempt_not_found")
        if attempt.player_id != player.pk:
            raise Forbidden("This attempt is someone else's.", code="not_your_attempt")
        if attempt.is_finished:
            raise Conflict(f"This attempt is over ({attempt.status}).", code="attempt_finished")
        attempt.status = Attempt.Status.ABANDONED
        attempt.finished_at = clock.now()
        _verify(attempt)
        attempt.save()
        return attempt


def _verify(attempt: Attempt) -> bool:
    """Recompute the result by replaying the whole stored history from the deal string (the
    daily's own deal for a daily), and compare it with what is stored."""
    try:
        result = replay(attempt.game, attempt.deal, attempt.moves)
    except MalformedError:
        result = None
    dealt = attempt.challenge is None or attempt.challenge.deal.deal == attempt.deal
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
    return ok


def attempt_disqualify(*, attempt: Attempt, by: Any, reason: str) -> Attempt:
    if not reason.strip():
        raise Malformed("Say why the attempt is disqualified.", code="reason_required")
    attempt.disqualified = True
    attempt.disqualified_reason = reason.strip()
    attempt.disqualified_by = by
    attempt.disqualified_at = clock.now()
    attempt.save(update_fields=["disqualified", "disqualified_reason", "disqualified_by",
                                "disqualified_at"])  # fmt: skip
    return attempt
