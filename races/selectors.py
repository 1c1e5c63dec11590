"""Reads of races: the public view every racer and onlooker sees (also each live event), what
one player sees of their own place, and the race's results."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from games import clock
from games.errors import Conflict, Forbidden, NotFound
from games.models import Attempt, DailyChallenge, Deal, Player
from games.names import is_reserved, name_key
from games.selectors import attempt_get, daily_running_on, line_positions
from games.services import STALE_CLAIM
from leaderboards.ranking import competition_ranks, entry, order_key
from races.codes import code_valid
from races.models import Race, Racer


def race_get(*, code: str) -> Race:
    """The race of `code`, or 404 `race_not_found`."""
    race: Race | None = (
        Race.objects.select_related("deal", "daily", "maker").filter(code=code).first()
        if code_valid(code)
        else None
    )
    if race is None:
        raise NotFound("There is no race with this code.", code="race_not_found")
    return race


# -- the deals a race may use --------------------------------------------------------------------


def daily_race_check(daily: DailyChallenge) -> None:
    """A daily's deal is raced once its ranked play is over: never while it runs (409
    `daily_running`), so that nobody races a line through a deal still played for the boards."""
    if daily.ranked_play_open():
        raise Conflict(
            "Today's daily is still being played for the boards: challenge a friend on a past "
            "day's deal, or on a fresh one.",
            code="daily_running",
        )


def daily_raceable(daily: DailyChallenge) -> bool:
    """Whether `daily`'s deal may be raced now (`daily_race_check`)."""
    return not daily.ranked_play_open()


def attempt_deal(*, attempt_id: int, player: Player) -> tuple[Deal, DailyChallenge | None]:
    """The deal of one of the player's games, when a race may use it: a daily's once its ranked
    play is over (`daily_race_check`), or a certified deal played in practice (409
    `not_certified` for any other: a race is always on a deal proven winnable), but not the
    deal of a daily still played for the boards (`games.selectors.daily_running_on`), however
    the practice came by it. The attempt of another player is 404, as everywhere."""
    attempt = attempt_get(attempt_id=attempt_id, player=player)
    if attempt.daily is not None:
        daily_race_check(attempt.daily)
        return attempt.daily.deal, attempt.daily
    seed = int(attempt.seed) if attempt.seed and attempt.seed.isdigit() else None
    running = daily_running_on(game=attempt.game, deal_string=attempt.deal_string, seed=seed)
    if running is not None:
        daily_race_check(running)
    for deal in Deal.objects.filter(game=attempt.game, deal_string=attempt.deal_string):
        if deal.certificate:
            return deal, None
    raise Conflict(
        "Only a deal proven winnable is raced, and this one is not: challenge a friend on a "
        "past day's deal, or on a fresh one.",
        code="not_certified",
    )


def attempt_race_offer(*, attempt_id: int, player: Player) -> dict[str, Any]:
    """Whether the player may challenge friends on the deal of this game of theirs, and why
    not (`attempt_deal`): what the end of a game offers."""
    try:
        attempt_deal(attempt_id=attempt_id, player=player)
    except Conflict as refusal:
        return {"raceable": False, "reason": refusal.code}
    return {"raceable": True, "reason": None}


# -- the races' supply of deals --------------------------------------------------------------------


def race_deals_ready(*, game: str) -> QuerySet[Deal]:
    """The races' own supply of `game`, ready to race, oldest first: deals dealt for races
    (`Deal.Curation.RACES`: never a daily, never one of the scheduler's spares), certified, and
    in no race yet (each is raced once)."""
    return (
        Deal.objects.certified()
        .filter(game=game, curation=Deal.Curation.RACES)
        .exclude(pk__in=Race.objects.values("deal_id"))
        .order_by("pk")
    )


def _recent() -> tuple[Q, Q]:
    """(solve under way, solve lost) for deals: a request or a claim younger than
    `STALE_CLAIM` is under way; an older one, pending or claimed, was lost with its message or
    its worker."""
    since = clock.now() - STALE_CLAIM
    pending = Q(solver_status=Deal.SolverStatus.PENDING)
    solving = Q(solver_status=Deal.SolverStatus.SOLVING)
    under_way = (pending & Q(solve_requested_at__gte=since)) | (
        solving & Q(solve_started_at__gte=since)
    )
    return under_way, (pending | solving) & ~under_way


def race_deals_solving(*, game: str) -> QuerySet[Deal]:
    """Deals for races of `game` whose solve was asked for lately and is not done yet (on the
    solve queue, or being solved)."""
    under_way, _ = _recent()
    return Deal.objects.filter(game=game, curation=Deal.Curation.RACES).filter(under_way)


def race_deals_lost(*, game: str) -> QuerySet[Deal]:
    """Deals for races of `game` whose solve was asked for long ago and never came (the task
    lost with a broker, the worker dead), oldest first: to be asked for again."""
    _, lost = _recent()
    return Deal.objects.filter(game=game, curation=Deal.Curation.RACES).filter(lost).order_by("pk")


# -- what a racer may not read while racing --------------------------------------------------------


def racing_on_deal(*, player_id: int, game: str, deal_string: str) -> bool:
    """Whether the player is a racer (present or gone: a racer may come back) in a race on this
    deal that runs: from its start until it is over (`Race.Status.RACING`)."""
    return bool(
        Racer.objects.filter(
            player_id=player_id,
            race__status=Race.Status.RACING,
            race__deal__game=game,
            race__deal__deal_string=deal_string,
        ).exists()
    )


def solution_refuse(daily: DailyChallenge, player: Player | None) -> None:
    """No solver's line of a deal to its racers while their race runs (409 `solution_race`):
    one of `games.selectors.solution_refusals`, for the line of a past daily being raced."""
    if player is None or player.pk is None:
        return
    if racing_on_deal(player_id=player.pk, game=daily.game, deal_string=daily.deal.deal_string):
        raise Conflict(
            "You are racing on this deal: its solver's line is shown to you once the race is over.",
            code="solution_race",
        )


def analysis_refuse(attempt: Attempt) -> None:
    """No analysis of a game on a deal the player is racing while the race runs (409
    `analysis_race`), whichever game of theirs it is: one of
    `games.services.analysis.analysis_refusals`."""
    if racing_on_deal(
        player_id=attempt.player_id, game=attempt.game, deal_string=attempt.deal_string
    ):
        raise Conflict(
            "You are racing on this deal: the analysis opens once the race is over.",
            code="analysis_race",
        )


# -- races ---------------------------------------------------------------------------------------


def racers_of(race: Race) -> QuerySet[Racer]:
    return race.racers.select_related("player", "attempt").order_by("joined_at", "pk")


def host_of(race: Race, racers: list[Racer]) -> Racer | None:
    """Who may start the race: its maker while present, else the first present racer to have
    joined (the maker leaving does not stall the lobby)."""
    present = [r for r in racers if not r.gone]
    for racer in present:
        if racer.player_id == race.maker_id:
            return racer
    return present[0] if present else None


def racer_status(racer: Racer) -> str:
    """waiting (no attempt yet), playing, won or resigned."""
    if racer.attempt is None:
        return "waiting"
    return str(racer.attempt.status)


def counts_in_results(racer: Racer) -> bool:
    """A racer's result is in the race's results: finished, verified by its replay and not
    disqualified. A result the fair-play checks held is listed too, marked `held`, but ranks
    nobody (`results`)."""
    attempt = racer.attempt
    return (
        attempt is not None
        and attempt.is_finished
        and attempt.verified
        and not attempt.disqualified
    )


def results(racers: list[Racer]) -> list[dict[str, Any]]:
    """The finished results in the boards' order (`leaderboards.ranking`: wins first, by fewer
    moves, then less time; then the others by more cards on the foundations, fewer moves, less
    time), ties sharing a rank. A result held by the fair-play checks (`Racer.held_reasons`)
    stays in its place in that order, marked `held` with no rank: the others are ranked as a
    board ranks them, without it (a held result is off the boards until a reviewer approves
    it), so it neither vanishes nor takes a place from anyone."""
    by_attempt: dict[int, Racer] = {}
    entries = []
    for racer in racers:
        if not counts_in_results(racer):
            continue
        attempt = racer.attempt
        assert attempt is not None
        by_attempt[attempt.pk] = racer
        entries.append(
            entry(
                attempt_id=attempt.pk,
                won=attempt.status == Attempt.Status.WON,
                moves=attempt.move_count,
                play_seconds=attempt.play_seconds(),
                foundation_cards=attempt.foundation_cards,
                finished_ms=int(attempt.finished_at.timestamp() * 1000)
                if attempt.finished_at
                else None,
            )
        )
    held = {e.attempt_id for e in entries if by_attempt[e.attempt_id].held_reasons}
    ranks = {
        e.attempt_id: rank
        for rank, e in competition_ranks([e for e in entries if e.attempt_id not in held])
    }
    return [
        {
            "id": by_attempt[e.attempt_id].pk,
            "rank": ranks.get(e.attempt_id),
            "held": e.attempt_id in held,
            "name": by_attempt[e.attempt_id].player.display_name,
            "won": e.won,
            "moves": e.moves,
            "seconds": e.seconds,
            "foundation_cards": e.foundation_cards,
        }
        for e in sorted(entries, key=order_key)
    ]


def race_public(race: Race) -> dict[str, Any]:
    """What anyone with the link sees of a race, and what each whole-view event carries: the
    lobby, each racer's progress (moves, cards on the foundations and their picture: never a
    card of their table) at the racer's own version (`Racer.version`, that of their progress
    events) and the results. No deal before the race starts, and its par once the race is over
    (no racer still playing learns how short a win can be)."""
    racers = list(racers_of(race))
    host = host_of(race, racers)
    rematch = (
        None
        if race.status == Race.Status.LOBBY
        else Race.objects.filter(rematch_of=race).values_list("code", flat=True).first()
    )
    return {
        "code": race.code,
        "version": race.version,
        "game": race.game,
        "status": race.status,
        "capacity": race.capacity,
        "daily": race.daily.date.isoformat() if race.daily_id and race.daily else None,
        "created_at": race.created_at.isoformat(),
        "expires_at": race.expires_at.isoformat(),
        "starts_at": race.starts_at.isoformat() if race.starts_at else None,
        "finished_at": race.finished_at.isoformat() if race.finished_at else None,
        "racers": [
            {
                "id": r.pk,
                "version": r.version,
                "name": r.player.display_name,
                "maker": r.player_id == race.maker_id,
                "host": host is not None and r.pk == host.pk,
                "ready": r.ready,
                "gone": r.gone,
                "status": racer_status(r),
                "moves": r.attempt.move_count if r.attempt else 0,
                "foundation_cards": r.attempt.foundation_cards if r.attempt else 0,
                "foundations": r.foundations,
                "seconds": round(r.attempt.board_seconds(), 3) if r.attempt else 0.0,
            }
            for r in racers
        ],
        "results": results(racers),
        "par": race.deal.par if race.status == Race.Status.OVER else None,
        "rematch": rematch,
    }


def racer_of(*, race: Race, player: Player | None) -> Racer | None:
    if player is None or player.pk is None:
        return None
    racer: Racer | None = race.racers.select_related("attempt").filter(player=player).first()
    return racer


def race_for(*, race: Race, player: Player | None) -> dict[str, Any]:
    """The public view, and what it is for this player (`you`): whether they are in it, their
    attempt, whether they may start it, and whether their name is one they chose (`named`;
    not a generated guest name: the lobby offers a newcomer to choose one when joining)."""
    view = race_public(race)
    racer = racer_of(race=race, player=player)
    host = host_of(race, list(racers_of(race)))
    view["you"] = {
        "in_race": racer is not None,
        "name": player.display_name if player is not None else None,
        "named": player is not None and not is_reserved(name_key(player.display_name)),
        "gone": racer.gone if racer else False,
        "ready": racer.ready if racer else False,
        "host": racer is not None and host is not None and host.pk == racer.pk,
        "attempt_id": racer.attempt_id if racer else None,
        "replays": replays_open(race, racer),
    }
    view["now"] = clock.now().isoformat()
    return view


def replays_open(race: Race, racer: Racer | None) -> bool:
    """Whether the racers' replays are shown to this viewer: once the race is over, or, to a
    racer, once their own game is finished (a racer still playing never sees a line through
    the deal they play)."""
    mine_done = racer is not None and racer.attempt is not None and racer.attempt.is_finished
    return race.status == Race.Status.OVER or mine_done


def race_replays(*, race: Race, player: Player | None) -> list[dict[str, Any]]:
    """Each finished racer's game, step by step, to replay side by side (`replays_open`): the
    positions each saw (`games.selectors.line_positions`), never a card they had not turned
    up, nor the deal itself."""
    racer = racer_of(race=race, player=player)
    if not replays_open(race, racer):
        if racer is None:
            raise Forbidden("The replays are shown once the race is over.", code="race_not_over")
        raise Conflict("Finish your own game to see the others' replays.", code="race_not_over")
    replays = []
    for r in racers_of(race):
        attempt = r.attempt
        if attempt is None or not attempt.is_finished:
            continue
        start, steps = line_positions(attempt.game, attempt.deal_string, attempt.moves)
        replays.append(
            {
                "id": r.pk,
                "version": r.version,
                "name": r.player.display_name,
                "status": racer_status(r),
                "moves": attempt.move_count,
                "start": start,
                "steps": steps,
            }
        )
    return replays
