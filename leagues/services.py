"""Writes of the leagues: making one, joining by its invite link, leaving, the owner's rename,
removal and new link, and the points each closed daily gives (docs/leagues.md).

Limits (settings, stated in docs/leagues.md): members of a league (`LEAGUE_MEMBERS_MAX`),
leagues of a player (`LEAGUES_PER_PLAYER`), leagues made from one address in a day
(`LEAGUE_CREATIONS_PER_ADDRESS`). Each is counted in the database under a lock (the league's
row, the player's row, the address's `infra.locks` lock), so a crowd of requests gets exactly
the limit through.
"""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction

from games import clock
from games.errors import Conflict, Forbidden, Malformed, NotFound
from games.models import Attempt, DailyChallenge, Player
from infra.locks import hold_until_commit
from leaderboards.board import entry_of
from leaderboards.ranking import competition_ranks
from leagues import points
from leagues.models import DailyPoints, League, Membership

NAME_MIN, NAME_MAX = 2, 40
#: The fields of an attempt that a day's points read (`entry_of`: `Attempt.board_seconds`).
RANKED_FIELDS = (
    "id",
    "player_id",
    "status",
    "move_count",
    "foundation_cards",
    "started_at",
    "first_move_at",
    "last_move_at",
    "finished_at",
    "counted_ms",
)
#: An invite code: 12 characters of the URL-safe alphabet (72 bits), as a race's link is a key.
CODE_BYTES = 9


def _name(text: str) -> str:
    name = " ".join(str(text).split())
    if not NAME_MIN <= len(name) <= NAME_MAX or not any(c.isalnum() for c in name):
        raise Malformed(
            f"A league's name has {NAME_MIN} to {NAME_MAX} characters, a letter or digit among "
            "them.",
            code="bad_league_name",
        )
    if any(not c.isprintable() for c in name):
        raise Malformed("A league's name holds printable characters only.", code="bad_league_name")
    return name


def _code() -> str:
    return secrets.token_urlsafe(CODE_BYTES)


def league_not_found() -> NotFound:
    return NotFound("There is no league with that id or invite.", code="league_not_found")


def _locked_player(player: Player) -> Player:
    """The player's row, locked: a player's joins and creations count one after another."""
    locked: Player = Player.objects.select_for_update().get(pk=player.pk)
    return locked


def _check_room_for(player: Player) -> None:
    if Membership.objects.filter(player=player).count() >= settings.LEAGUES_PER_PLAYER:
        raise Conflict(
            f"You are in {settings.LEAGUES_PER_PLAYER} leagues, the most one player may be in: "
            "leave one first.",
            code="leagues_full",
        )


def league_create(*, player: Player, name: str, address: str | None = None) -> League:
    """A new league owned by `player`, who is its first member (409 `leagues_full` past the
    leagues a player may be in, `league_creations_address` past the leagues one address may
    make in a day)."""
    name = _name(name)
    now = clock.now()
    with transaction.atomic():
        _locked_player(player)
        _check_room_for(player)
        if address is not None:
            hold_until_commit("league creations", address)  # the address's makes take turns
            made = League.objects.filter(
                created_address=address, created_at__gte=now - dt.timedelta(days=1)
            )
            if made.count() >= settings.LEAGUE_CREATIONS_PER_ADDRESS:
                raise Conflict(
                    "Too many leagues were made from this address today: try again tomorrow.",
                    code="league_creations_address",
                )
        league: League = League.objects.create(
            name=name, owner=player, invite_code=_code(), created_at=now, created_address=address
        )
        Membership.objects.create(league=league, player=player, joined_at=now)
    return league


def league_join(*, code: str, player: Player) -> tuple[League, bool]:
    """Join the league whose invite code this is (404 for a code retired or never made);
    already a member: the league again, False. 409 `league_full` past its members,
    `leagues_full` past the leagues a player may be in."""
    with transaction.atomic():
        league = League.objects.select_for_update().filter(invite_code=str(code)[:32]).first()
        if league is None:
            raise league_not_found()
        if Membership.objects.filter(league=league, player=player).exists():
            return league, False
        _locked_player(player)
        _check_room_for(player)
        if league.memberships.count() >= settings.LEAGUE_MEMBERS_MAX:
            raise Conflict(
                f"This league has {settings.LEAGUE_MEMBERS_MAX} members, the most it may have.",
                code="league_full",
            )
        try:
            with transaction.atomic():
                Membership.objects.create(league=league, player=player, joined_at=clock.now())
        except IntegrityError:
            return league, False
    return league, True


def _owned(league_id: int, player: Player) -> League:
    if player.pk is None:  # a visitor with no player owns no league
        raise league_not_found()
    league: League | None = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None or not league.memberships.filter(player=player).exists():
        raise league_not_found()
    if league.owner_id != player.pk:
        raise Forbidden("Only the league's owner may do that.", code="not_league_owner")
    return league


def league_rename(*, league_id: int, player: Player, name: str) -> League:
    """The owner renames the league."""
    name = _name(name)
    with transaction.atomic():
        league = _owned(league_id, player)
        league.name = name
        league.save(update_fields=["name"])
    return league


def league_new_invite(*, league_id: int, player: Player) -> League:
    """The owner makes a new invite link; the old one stops working at once."""
    with transaction.atomic():
        league = _owned(league_id, player)
        league.invite_code = _code()
        league.save(update_fields=["invite_code"])
    return league


def league_remove_member(*, league_id: int, player: Player, member_id: int) -> None:
    """The owner removes a member (not themselves: they leave instead)."""
    with transaction.atomic():
        league = _owned(league_id, player)
        if member_id == player.pk:
            raise Conflict("The owner leaves rather than removes themselves.", code="owner_remove")
        gone, _ = Membership.objects.filter(league=league, player_id=member_id).delete()
        if not gone:
            raise NotFound("That player is not in this league.", code="member_not_found")


def league_leave(*, league_id: int, player: Player) -> None:
    """Leave a league. An owner who leaves hands it to the member who joined first after
    them; the last member to leave ends it."""
    if player.pk is None:
        raise league_not_found()
    with transaction.atomic():
        league = League.objects.select_for_update().filter(pk=league_id).first()
        if league is None or not league.memberships.filter(player=player).exists():
            raise league_not_found()
        Membership.objects.filter(league=league, player=player).delete()
        heir = league.memberships.order_by("joined_at", "pk").first()
        if heir is None:
            league.delete()
        elif league.owner_id == player.pk:
            league.owner_id = heir.player_id
            league.save(update_fields=["owner"])


def daily_points_compute(*, daily_id: int) -> int:
    """The points a closed daily gives each player whose result counts on its board (held and
    disqualified results do not, `AttemptQuerySet.on_board`), ranked as its board ranks them:
    the day's rows replaced whole, so running it again, or after a held result is approved,
    gives the right rows once. A daily not closed yet gives none. Returns the rows written."""
    daily = DailyChallenge.objects.filter(pk=daily_id, closed_at__isnull=False).first()
    if daily is None:
        return 0
    # What ranking reads, and no more (a field left out would be read row by row).
    counted = (
        Attempt.objects.filter(daily_id=daily.pk, ranked=True)
        .on_board()
        .only(*RANKED_FIELDS)
        .order_by()
    )
    attempts = {a.pk: a for a in counted}
    ranked = competition_ranks(entry_of(a) for a in attempts.values())
    rows = []
    seen: set[int] = set()
    for rank, e in ranked:
        attempt = attempts[e.attempt_id]
        if attempt.player_id in seen:  # one row a player (an account's two guests: the best)
            continue
        seen.add(attempt.player_id)
        rows.append(
            DailyPoints(
                daily=daily,
                player_id=attempt.player_id,
                date=daily.date,
                game=daily.game,
                won=e.won,
                rank=rank,
                players=len(ranked),
                points=points.points(won=e.won, rank=rank, players=len(ranked)),
            )
        )
    with transaction.atomic():
        DailyChallenge.objects.select_for_update().filter(pk=daily.pk).first()
        DailyPoints.objects.filter(daily=daily).delete()
        DailyPoints.objects.bulk_create(rows, batch_size=5000)
    return len(rows)


def daily_points_for_attempt(*, attempt_id: int) -> int:
    """Work a closed daily's points out again after one of its results changed (approved after
    review, disqualified): 0 when the attempt is not of a closed daily."""
    daily_id = (
        Attempt.objects.filter(pk=attempt_id, daily__closed_at__isnull=False)
        .values_list("daily_id", flat=True)
        .first()
    )
    return daily_points_compute(daily_id=daily_id) if daily_id is not None else 0
