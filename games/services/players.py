"""Writes of players: guests, names, cookie tokens, accounts."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games import clock, names, signals
from games.errors import Conflict, Malformed
from games.models import (
    DISPLAY_NAME_MAX,
    DISPLAY_NAME_MIN,
    Player,
    PlayerToken,
    display_name_validator,
)

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
    if names.imitates_latin(name):
        raise Malformed(
            "Every letter of that name looks like a Latin one: write it in Latin letters.",
            code="bad_display_name",
        )
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
            player_tokens_revoke(player=player)  # it answers to the account's session now
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
    """Make one cookie token worthless (logging out); the sockets it opened close."""
    live = PlayerToken.objects.filter(key_hash=PlayerToken.hash(raw), revoked_at__isnull=True)
    _revoke(live)


def player_tokens_revoke(*, player: Player) -> None:
    """Make every cookie token of `player` worthless; the sockets they opened close."""
    _revoke(PlayerToken.objects.filter(player=player, revoked_at__isnull=True))


def _revoke(live: Any) -> None:
    with transaction.atomic():
        players = set(live.values_list("player_id", flat=True))
        live.update(revoked_at=clock.now())
    for player_id in sorted(players):
        signals.send_on_commit(signals.player_tokens_revoked, player_id=player_id)


def account_create(*, username: str, password: str) -> Any:
    """A new Django user (the caller has validated the username's characters and the password).

    A username that looks like a taken one is taken: the same in another case ("ADMIN" when
    "admin" exists), and, as for display names, no mixing of scripts nor a name whose every
    letter imitates a Latin one (games/names.py)."""
    User = get_user_model()
    username = User.normalize_username(username)  # NFKC, as create_user stores it
    if names.mixes_scripts(username) or names.imitates_latin(username):
        raise Malformed(
            "Use Latin letters, or the letters of one other alphabet that do not all look "
            "Latin, in a username.",
            code="bad_username",
        )
    taken = Conflict(
        "That username is taken, or looks too much like one that is.", code="username_taken"
    )
    if User.objects.filter(username__iexact=username).exists():
        raise taken
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise taken from None
