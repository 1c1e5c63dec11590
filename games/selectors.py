"""Reads of the games app: what the API, admin, pages and other apps show. Keyword-only, no
writes, and no import of `services` (writes may read; reads never write)."""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, QuerySet

from games import clock, errors
from games.engine import game_class
from games.errors import NotFound, attempt_not_found
from games.models import WIN, Analysis, Attempt, DailyChallenge, GameName, Player
from infra.addresses import address_or_none, network56_of, network_of
from infra.prepared import PreparedListRead, PreparedRead

#: A published daily by game and date, with its deal (every start reads it; SQL built once).
_DAILY_READ: PreparedRead[DailyChallenge] = PreparedRead(
    lambda game, date: DailyChallenge.objects.select_related("deal").filter(
        game=game, date=date, published=True
    ),
    slots=("\x00game", dt.date(1, 1, 1)),
)
#: The published dailies of a date, with their deals, in game order (every list reads them).
_DAILIES_READ: PreparedRead[DailyChallenge] = PreparedRead(
    lambda date: (
        DailyChallenge.objects.select_related("deal")
        .filter(date=date, published=True)
        .order_by("game")
    ),
    slots=(dt.date(1, 1, 1),),
)


def game_check(game: str) -> str:
    """`game` if it names a game, else 404 `unknown_game`."""
    if game not in GameName.values:
        raise NotFound(
            f"There is no game called {game[:40]!r}: play {' or '.join(GameName.values)}.",
            code="unknown_game",
        )
    return game


def daily_get(*, game: str, date: dt.date) -> DailyChallenge:
    """The published daily of `game` on `date`; a future one does not exist for players."""
    game_check(game)
    if date > clock.today():
        raise NotFound("There is no such daily yet.", code="daily_not_found")
    daily = _DAILY_READ.first(game, date)
    if daily is None:
        raise NotFound(f"There is no {game} daily on {date.isoformat()}.", code="daily_not_found")
    return daily


def dailies_today() -> list[DailyChallenge]:
    """Today's published dailies, one per game that has one, in game order."""
    return _DAILIES_READ.all(clock.today())


def dailies_between(*, start: dt.date, end: dt.date) -> list[DailyChallenge]:
    """Published dailies from `start` to `end` included, never beyond today (the archive)."""
    end = min(end, clock.today())
    return list(
        DailyChallenge.objects.select_related("deal")
        .filter(date__gte=start, date__lte=end, published=True)
        .order_by("date", "game")
    )


def board_attempts(*, daily: DailyChallenge) -> QuerySet[Attempt]:
    """The attempts that count on a daily's board (`AttemptQuerySet.on_board`)."""
    return Attempt.objects.filter(daily=daily).on_board()


def ranked_attempt(*, daily: DailyChallenge, player: Player | None) -> Attempt | None:
    """The player's ranked attempt at a daily, if any."""
    if player is None or player.pk is None:
        return None
    return Attempt.objects.filter(daily=daily, player=player, ranked=True).first()


# -- who may start a daily still played for the boards ----------------------------------------


def dailies_running() -> list[DailyChallenge]:
    """The dailies whose ranked play is open (`DailyChallenge.ranked_play_open`): today's, and
    yesterday's during the grace after midnight. Nothing shows their cards but a player's own
    ranked game (docs/fair-play.md)."""
    today, now = clock.today(), clock.now()
    dailies = DailyChallenge.objects.select_related("deal").filter(
        date__gte=today - dt.timedelta(days=1), date__lte=today
    )
    return [daily for daily in dailies if daily.ranked_play_open(now)]


def daily_running_on(
    *, game: str, deal_string: str, seed: int | None = None
) -> DailyChallenge | None:
    """The daily still played for the boards (`dailies_running`) whose cards a game of `game`
    on `deal_string` would show, or None: the same deal of the same game, or, given the seed
    it was dealt from, the deal that seed gives in the daily's game. The same seed shuffles the
    same deck in every game (docs/deals.md): a Masterpiece practice of a Munger daily's seed
    shows every card of it face up."""
    for daily in dailies_running():
        if daily.game == game and daily.deal.deal_string == deal_string:
            return daily
        if seed is not None and game_class(daily.game).deal_for_seed(seed) == (
            daily.deal.deal_string
        ):
            return daily
    return None


#: The ranked attempt at a daily from a device (at most one: a constraint), its id alone.
_DEVICE_READ: PreparedRead[Attempt] = PreparedRead(
    lambda daily_id, device: Attempt.objects.filter(
        daily_id=daily_id, ranked=True, device=device
    ).only("id"),
    slots=(-4245, "\x00device"),
)


def daily_device_played(*, daily: DailyChallenge, device: str) -> bool:
    """Whether a ranked attempt at `daily` came from the device `device` (the hash of a
    browser's device cookie; "" for none)."""
    return bool(device) and _DEVICE_READ.first(daily.pk, device) is not None


@dataclass(frozen=True)
class AddressCounts:
    """The ranked attempts at one daily from one client address's household (the address; an
    IPv6 /64, since a home's devices each take addresses of their own in it and change them),
    its network (/24 or /64) and its IPv6 /56 (0 for IPv4), accounts' included."""

    household: int
    network: int
    network56: int

    @property
    def full(self) -> bool:
        """Whether a new guest from there is past the limits (`RANKED_STARTS_PER_ADDRESS`,
        `RANKED_STARTS_PER_NETWORK`, `RANKED_STARTS_PER_NETWORK56`)."""
        return (
            self.household >= settings.RANKED_STARTS_PER_ADDRESS
            or self.network >= settings.RANKED_STARTS_PER_NETWORK
            or self.network56 >= settings.RANKED_STARTS_PER_NETWORK56
        )


def daily_address_counts(*, daily_id: int, address: str | None) -> AddressCounts | None:
    """`AddressCounts` of `address` at the daily `daily_id`, from the addresses the attempts
    keep (one query, on an index); None when `address` is no IP address."""
    known = address_or_none(address)
    if known is None:
        return None
    network, wide = network_of(known), network56_of(known)
    ranked = Attempt.objects.filter(daily_id=daily_id, ranked=True)
    if wide:
        counted = ranked.filter(client_network56=wide).aggregate(
            network56=Count("id"), network=Count("id", filter=Q(client_network=network))
        )
        return AddressCounts(counted["network"], counted["network"], counted["network56"])
    counted = ranked.filter(client_network=network).aggregate(
        network=Count("id"), household=Count("id", filter=Q(client_address=known))
    )
    return AddressCounts(counted["household"], counted["network"], 0)


def daily_start_check(
    *, daily: DailyChallenge, player: Player | None, device: str, address: str | None
) -> None:
    """Raise the refusal that a start of `daily` by this visitor would meet now
    (`services.attempt_start`), if any: 409 `daily_running` (a past day still in its grace,
    without a ranked game of theirs), `daily_played_here` (the browser has the daily's ranked
    row as another player), `daily_address_full` (a guest past the address's limits). The
    play page says it in words instead of drawing a table; the start counts again, under its
    lock."""
    if not daily.ranked_play_open() or ranked_attempt(daily=daily, player=player) is not None:
        return
    if daily.date != clock.today():
        raise errors.daily_running(daily.ranked_until)
    if daily_device_played(daily=daily, device=device):
        raise errors.daily_played_here(daily.ranked_until)
    if player is None or player.user_id is None:
        counts = daily_address_counts(daily_id=daily.pk, address=address)
        if counts is not None and counts.full:
            raise errors.daily_address_full(daily.ranked_until)


#: A player's attempts at some dailies, latest first (SQL built once per length of the list, up
#: to four dailies: a day's list, a daily's page).
_ATTEMPTS_AT_READ: PreparedListRead[Attempt] = PreparedListRead(
    lambda player_id, daily_ids: _player_attempts(player_id).filter(daily_id__in=daily_ids),
    slots=(-4301,),
    most=4,
)


def attempts_at_dailies(
    *, dailies: list[DailyChallenge], player: Player | None
) -> dict[int, Attempt]:
    """The player's attempt at each of `dailies` that they played, by daily id: their ranked
    attempt, else their latest practice of it."""
    if player is None or player.pk is None or not dailies:
        return {}
    attempts = _ATTEMPTS_AT_READ.all(player.pk, ids=[daily.pk for daily in dailies])
    found: dict[int, Attempt] = {}
    for attempt in attempts:  # latest first
        daily_id = attempt.daily_id
        assert daily_id is not None
        current = found.get(daily_id)
        if current is None or (attempt.ranked and not current.ranked):
            found[daily_id] = attempt
    return found


def attempt_at_daily(*, daily: DailyChallenge, player: Player | None) -> Attempt | None:
    """The player's attempt at a daily: their ranked attempt, else their latest practice of
    it; None when they have not played it."""
    return attempts_at_dailies(dailies=[daily], player=player).get(daily.pk)


def daily_counts(*, daily: DailyChallenge) -> dict[str, int]:
    """How many played a daily ranked (at least one move) and how many of them won: the
    counters of its page and of its live board (realtime/boards.py), one count for both."""
    return dailies_counts(dailies=[daily])[daily.pk]


#: (daily id, players, winners) of each of some dailies that has a player (SQL built once per
#: length of the list, up to four dailies).
_COUNTS_READ: PreparedListRead[Attempt] = PreparedListRead(
    lambda daily_ids: (
        Attempt.objects.filter(daily_id__in=daily_ids)
        .on_board()
        .started()
        .order_by()
        .values("daily_id")
        .annotate(players=Count("id"), winners=Count("id", filter=WIN))
        .values_list("daily_id", "players", "winners")
    ),
    most=4,
)


def dailies_counts(*, dailies: Sequence[DailyChallenge]) -> dict[int, dict[str, int]]:
    """`daily_counts` of each of `dailies`, by daily id, in one query."""
    counts = {daily.pk: {"players": 0, "winners": 0} for daily in dailies}
    for daily_id, players, winners in _COUNTS_READ.rows(ids=list(counts)):
        counts[daily_id] = {"players": players, "winners": winners}
    return counts


def daily_summary(*, daily: DailyChallenge, player: Player | None) -> dict[str, Any]:
    """What a daily shows: its difficulty, how many played (at least one move) and won, and
    its par once the player has finished their ranked attempt or the day is over; and the
    player's `attempt` at it (`attempt_at_daily`)."""
    return daily_summaries(dailies=[daily], player=player)[0]


def daily_summaries(
    *, dailies: Sequence[DailyChallenge], player: Player | None
) -> list[dict[str, Any]]:
    """`daily_summary` of each of `dailies`, in their order: two queries whatever their number
    (the counts, and the player's attempts at them)."""
    counts = dailies_counts(dailies=dailies)
    attempts = attempts_at_dailies(dailies=list(dailies), player=player)
    summaries = []
    for daily in dailies:
        attempt = attempts.get(daily.pk)  # their ranked attempt whenever they have one
        finished = attempt is not None and attempt.ranked and attempt.is_finished
        shown = daily.par_shown(finished=finished)
        summaries.append(
            {
                "game": daily.game,
                "date": daily.date,
                "difficulty": daily.deal.difficulty,
                **counts[daily.pk],
                "par": daily.deal.par if shown else None,
                "par_proven": daily.deal.par_optimal if shown else None,
                "par_lower_bound": daily.deal.par_lower_bound if shown else None,
                "attempt": attempt,
            }
        )
    return summaries


def attempt_par(*, attempt: Attempt) -> int | None:
    """A daily's par as this attempt's player may see it (never for a random practice)."""
    daily = attempt.daily
    if daily is None or not daily.par_shown(finished=attempt.is_finished):
        return None
    return daily.deal.par


def attempt_get(*, attempt_id: int, player: Player) -> Attempt:
    attempt = Attempt.objects.shown(attempt_id)
    if attempt is None or attempt.player_id != player.pk:
        raise attempt_not_found()
    return attempt


def player_attempts(*, player: Player) -> QuerySet[Attempt]:
    return _player_attempts(player.pk)


def _player_attempts(player_id: int) -> QuerySet[Attempt]:
    """A player's attempts with their dailies, latest first."""
    return (
        Attempt.objects.filter(player_id=player_id).select_related("daily").order_by("-started_at")
    )


def player_stats(*, player: Player) -> dict[str, Any]:
    played = Attempt.objects.filter(player=player).on_board().started()
    return {"dailies_played": played.count(), "dailies_won": played.wins().count()}


#: `player_stats` of a player who has played nothing.
NO_STATS: dict[str, Any] = {"dailies_played": 0, "dailies_won": 0}


def steps_from(position: Any, tokens: Sequence[str]) -> list[dict[str, Any]]:
    """`line_positions`' steps of a line played from a position (which is not changed)."""
    here = position.copy()
    steps = []
    for token in tokens:
        here.push(token)
        carried = here.last_move_carrying()
        steps.append(
            {
                "move": token,
                "card": carried.card if carried else None,
                "count": carried.count if carried else 1,
                "view": here.view(),
            }
        )
    return steps


def line_positions(
    game: str, deal_string: str, moves: Sequence[str]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A line played from a deal, step by step, for a replay: the deal's first view, then one
    `{"move", "card", "count", "view"}` per move (an undo too), where `card` and `count` say
    what the move carried (as a state's `last_move` does; None for an undo or a draw) and
    `view` is the position after it.

    Every position is the engine's player view, so a replay shows each step as the player saw
    it: Munger's face-down cards and stock stay backs and counts until the line turns them up.
    """
    position = game_class(game).from_deal(deal_string)
    return position.view(), steps_from(position, moves)


#: Refusals that apps above `games` add in their `ready()`: each is called with a daily whose
#: solver's line is asked for and the player asking (None: a visitor with no player), before it
#: is shown, and may refuse with a ServiceError (a race refuses its racers while it runs).
solution_refusals: list[Callable[[DailyChallenge, Player | None], None]] = []


def solution_check(*, daily: DailyChallenge, player: Player | None) -> None:
    """Whether `player` may read `daily`'s solver's line (`daily_solution`): every refusal of
    `solution_refusals` is asked, and the first to refuse raises its ServiceError."""
    for refuse in solution_refusals:
        refuse(daily, player)


def daily_solution(*, daily: DailyChallenge) -> dict[str, Any]:
    """The solver's line of a daily, step by step, for the replay of a day that is over:
    `{"game", "date", "par", "start", "steps"}` (`line_positions` of the deal's certificate).
    Callers must not serve it while its day runs: the fair-play checks count on nobody having
    seen the line (docs/fair-play.md); nor to a player `solution_check` refuses.
    """
    start, steps = line_positions(daily.game, daily.deal.deal_string, daily.deal.certificate)
    return {
        "game": daily.game,
        "date": daily.date.isoformat(),
        "par": daily.deal.par,
        "start": start,
        "steps": steps,
    }


#: What can tie two attempts to one person, in the order a reviewer reads them (`network56`:
#: the same IPv6 /56, a customer's many /64s).
LINKS = ("account", "device", "address", "network", "network56")


def attempts_linked(*, attempt: Attempt, limit: int = 50) -> list[tuple[Attempt, list[str]]]:
    """The other attempts that may be the same person's as `attempt` (for the review of a held
    result): of the same daily, those that share its account, device cookie, address, network
    or IPv6 /56, in the order they started (a probe, then the bot it served); then, of other
    days, those that share its account or device, latest first. Each with what it shares
    (`LINKS`)."""
    user_id = attempt.player.user_id
    same = Q(pk__in=[])
    if user_id is not None:
        same |= Q(player__user_id=user_id)
    if attempt.device:
        same |= Q(device=attempt.device)
    this_daily = Q(pk__in=[])
    if attempt.client_address:
        this_daily |= Q(client_address=attempt.client_address)
    if attempt.client_network:
        this_daily |= Q(client_network=attempt.client_network)
    if attempt.client_network56:
        this_daily |= Q(client_network56=attempt.client_network56)
    found = (
        Attempt.objects.filter(same | (Q(daily_id=attempt.daily_id) & (this_daily | same)))
        .exclude(pk=attempt.pk)
        .select_related("player", "daily")
        .order_by("-started_at")[: limit * 2]
    )
    linked = []
    for other in found:
        shared = [
            link
            for link, holds in (
                ("account", user_id is not None and other.player.user_id == user_id),
                ("device", bool(attempt.device) and other.device == attempt.device),
                (
                    "address",
                    bool(attempt.client_address) and other.client_address == attempt.client_address,
                ),
                (
                    "network",
                    bool(attempt.client_network) and other.client_network == attempt.client_network,
                ),
                (
                    "network56",
                    bool(attempt.client_network56)
                    and other.client_network56 == attempt.client_network56,
                ),
            )
            if holds
        ]
        if other.daily_id != attempt.daily_id:
            shared = [link for link in shared if link in ("account", "device")]
        if shared:
            linked.append((other, shared))
    same_daily = sorted(
        (pair for pair in linked if pair[0].daily_id == attempt.daily_id),
        key=lambda pair: (pair[0].started_at, pair[0].pk),
    )
    other_days = [pair for pair in linked if pair[0].daily_id != attempt.daily_id]
    return (same_daily + other_days)[:limit]


def daily_observed(*, daily: DailyChallenge) -> dict[str, Any]:
    """How a daily went, from its board (`on_board`, started): how many played and won, the
    share of wins, and of the wins the median moves over par and the median time (the time
    that ranks, `Attempt.board_seconds`). What the day's end records beside the solver's
    predicted difficulty."""
    played = list(board_attempts(daily=daily).started())
    wins = [attempt for attempt in played if attempt.status == Attempt.Status.WON]
    par = daily.deal.par
    over = [attempt.move_count - par for attempt in wins] if par is not None else []
    seconds = [attempt.board_seconds() for attempt in wins]
    return {
        "players": len(played),
        "winners": len(wins),
        "win_rate": round(len(wins) / len(played), 4) if played else None,
        "median_moves_over_par": statistics.median(over) if over else None,
        "median_seconds": round(statistics.median(seconds), 1) if seconds else None,
    }


# -- the analysis of a game ---------------------------------------------------------------------


def _carried(position: Any, token: str | None) -> dict[str, Any] | None:
    """`{"move", "card", "count"}` of a move token from a position (what a state's moves say),
    or None for no move."""
    if token is None:
        return None
    step = steps_from(position, [token])[0]
    return {"move": token, "card": step["card"], "count": step["count"]}


def analysis_answer(*, analysis: Analysis) -> dict[str, Any]:
    """What the API answers of an analysis: its status, and once done the report with the
    game's positions as its player saw them (`line_positions`), the solver's moves with the
    cards they carry, and each costly stretch's shorter way on a table of its own (docs/api.md,
    "The analysis of a game"). Callers check first that the attempt may be analysed
    (`services.analysis_check`)."""
    if analysis.status != Analysis.Status.DONE or analysis.report is None:
        answer: dict[str, Any] = {"status": analysis.status}
        if analysis.status == Analysis.Status.FAILED:
            answer["detail"] = "The analysis failed: ask for it again."
        return answer
    attempt = analysis.attempt
    report = analysis.report
    moves = list(attempt.moves)
    start, steps = line_positions(attempt.game, attempt.deal_string, moves)
    positions = [game_class(attempt.game).from_deal(attempt.deal_string)]
    for token in moves:
        positions.append(positions[-1].copy())
        positions[-1].push(token)
    points = []
    for index, (status, distance, lower, upper, best) in enumerate(report["points"]):
        points.append(
            {
                "index": index,
                "status": status,
                "distance": distance,
                "lower": lower,
                "upper": upper,
                "best": _carried(positions[index], best),
            }
        )
    lost_at = report["lost_at"]
    par = report["par"]
    won = attempt.status == Attempt.Status.WON
    return {
        "status": analysis.status,
        "attempt": attempt.pk,
        "game": attempt.game,
        "date": attempt.daily.date.isoformat() if attempt.daily is not None else None,
        "ranked": attempt.ranked,
        "outcome": attempt.status,
        "par": par,
        "par_proven": report["par_proven"],
        "moves": len(moves),
        "over_par": len(moves) - par if won and par is not None else None,
        "start": start,
        "steps": steps,
        "points": points,
        "lost_at": None if lost_at is None else lost_at + 1,
        "winning_move": (
            None if lost_at is None else _carried(positions[lost_at], report["winning_move"])
        ),
        "stretches": [
            {
                "from": s["first"] + 1,
                "to": s["last"] + 1,
                "wasted": s["wasted"],
                "exact": s["exact"],
                "better": {
                    "start": positions[s["first"]].view(),
                    "steps": steps_from(positions[s["first"]], s["line"]),
                },
            }
            for s in report["stretches"]
        ],
        "settled": report["settled"],
        "bounded": sum(1 for p in report["points"] if p[0] == "bounds"),
        "seconds": report["seconds"],
        "budget_seconds": report["budget_seconds"],
        "position_seconds": report["position_seconds"],
        "hidden_cards": attempt.game == "munger",
    }
