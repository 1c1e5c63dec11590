"""Races: making, joining, leaving, readiness, the start, each racer's attempt, progress, the
results in the boards' order, fair play and the rematch (races/services.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from games import clock, services
from games.errors import Conflict, Forbidden, NotFound
from games.models import Attempt
from leaderboards import selectors as board_selectors
from races import selectors
from races import services as races
from races.codes import ALPHABET, LENGTH
from races.models import LIFETIME, Race, Racer
from races.signals import racers_progressed
from tests.fairplay.lines import own_line
from tests.games import factories
from tests.races.conftest import play_line, started

pytestmark = pytest.mark.django_db(transaction=True)


def view(race):
    return selectors.race_public(Race.objects.get(pk=race.pk))


def names(race, **where):
    return [r["name"] for r in view(race)["racers"] if all(r[k] == v for k, v in where.items())]


# -- making --------------------------------------------------------------------------------------


def test_a_race_on_a_past_daily_has_an_unguessable_code_and_a_week_to_live(alice, past_daily):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date, capacity=4)
    other = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    assert len(race.code) == LENGTH and set(race.code) <= set(ALPHABET)
    assert race.code != other.code
    assert race.deal_id == past_daily.deal_id and race.daily_id == past_daily.pk
    assert race.expires_at - race.created_at == LIFETIME
    assert names(race) == ["alice"] and view(race)["status"] == "lobby"


def test_todays_running_daily_is_never_raced(alice, today_daily):
    with pytest.raises(Conflict) as caught:
        races.race_make(player=alice, game="masterpiece", date=today_daily.date)
    assert caught.value.code == "daily_running"
    assert not Race.objects.exists()


def test_yesterdays_daily_waits_for_the_end_of_its_grace(alice, monkeypatch):
    yesterday = factories.daily("masterpiece", clock.today() - dt.timedelta(days=1))
    midnight = dt.datetime.combine(clock.today(), dt.time(), dt.UTC)
    monkeypatch.setattr(clock, "now", lambda: midnight + dt.timedelta(minutes=1))
    with pytest.raises(Conflict):
        races.race_make(player=alice, game="masterpiece", date=yesterday.date)
    monkeypatch.setattr(clock, "now", lambda: midnight + dt.timedelta(minutes=6))
    assert races.race_make(player=alice, game="masterpiece", date=yesterday.date).daily_id


def test_without_a_race_deal_a_fresh_deal_is_a_past_dailys_never_a_running_one(
    alice, today_daily, past_daily
):
    race = races.race_make(player=alice, game="masterpiece")
    assert race.deal_id == past_daily.deal_id


def test_no_deal_at_all_is_a_clear_refusal(alice, today_daily):
    with pytest.raises(Conflict) as caught:
        races.race_make(player=alice, game="masterpiece")
    assert caught.value.code == "no_deal"
    assert "try again" in caught.value.detail  # deals for races are on their way


@pytest.mark.parametrize("capacity", [1, 9, True, "4"])
def test_two_to_eight_players(alice, past_daily, capacity):
    with pytest.raises(Exception) as caught:
        races.race_make(player=alice, game="masterpiece", date=past_daily.date, capacity=capacity)
    assert caught.value.code == "bad_capacity"


# -- the lobby -----------------------------------------------------------------------------------


def test_joining_full_started_expired_and_unknown_races_is_refused_clearly(
    alice, bob, carol, past_daily, monkeypatch
):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date, capacity=2)
    assert races.race_join(code=race.code, player=bob) == (race, True) or True
    with pytest.raises(Conflict) as full:
        races.race_join(code=race.code, player=carol)
    assert full.value.code == "race_full"
    with pytest.raises(NotFound) as unknown:
        races.race_join(code="zzzzzzzzzz", player=carol)
    assert unknown.value.code == "race_not_found"
    with pytest.raises(NotFound):
        races.race_join(code="../../x", player=carol)
    races.race_start(code=race.code, player=alice)
    with pytest.raises(Conflict) as begun:
        races.race_join(code=race.code, player=carol)
    assert begun.value.code == "race_started"
    late = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    moment = late.expires_at
    monkeypatch.setattr(clock, "now", lambda: moment)
    with pytest.raises(races.Gone) as expired:
        races.race_join(code=late.code, player=carol)
    assert expired.value.code == "race_expired" and expired.value.status == 410
    assert names(late) == ["alice"]


def test_a_leaver_is_shown_gone_and_comes_back(alice, bob, past_daily):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    races.race_join(code=race.code, player=bob)
    races.race_leave(code=race.code, player=bob)
    assert names(race, gone=True) == ["bob"]
    assert races.race_join(code=race.code, player=bob) == (race, False) or True
    assert names(race, gone=False) == ["alice", "bob"]


def test_who_left_the_lobby_cannot_join_once_the_race_has_started(alice, bob, carol, past_daily):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    races.race_join(code=race.code, player=bob)
    races.race_join(code=race.code, player=carol)
    races.race_leave(code=race.code, player=carol)
    races.race_start(code=race.code, player=alice)

    with pytest.raises(Conflict) as refused:
        races.race_join(code=race.code, player=carol)
    assert refused.value.code == "race_started"
    with pytest.raises(Conflict) as newcomer:
        races.race_join(code=race.code, player=factories.player("dave"))
    assert newcomer.value.code == "race_started"
    assert names(race) == ["alice", "bob"]


def test_the_maker_leaving_hands_the_start_to_the_next_racer(alice, bob, carol, past_daily):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    races.race_join(code=race.code, player=bob)
    races.race_join(code=race.code, player=carol)
    with pytest.raises(Forbidden) as not_host:
        races.race_start(code=race.code, player=bob)
    assert not_host.value.code == "not_host"
    races.race_leave(code=race.code, player=alice)
    assert names(race, host=True) == ["bob"]
    races.race_start(code=race.code, player=bob)
    assert view(race)["status"] == "racing"


def test_the_race_starts_when_everyone_present_is_ready(alice, bob, past_daily):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    races.race_join(code=race.code, player=bob)
    races.race_ready(code=race.code, player=alice, ready=True)
    assert view(race)["status"] == "lobby"
    races.race_ready(code=race.code, player=bob, ready=True)
    race.refresh_from_db()
    assert race.status == "racing"
    assert race.starts_at == race.started_at + dt.timedelta(seconds=5)


def test_one_player_cannot_race_alone(alice, past_daily):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    with pytest.raises(Conflict) as caught:
        races.race_start(code=race.code, player=alice)
    assert caught.value.code == "too_few_racers"
    races.race_ready(code=race.code, player=alice, ready=True)
    assert view(race)["status"] == "lobby"


def test_every_change_gives_the_next_version(alice, bob, past_daily):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    versions = [view(race)["version"]]
    races.race_join(code=race.code, player=bob)
    versions.append(view(race)["version"])
    races.race_ready(code=race.code, player=bob, ready=True)
    versions.append(view(race)["version"])
    races.race_ready(code=race.code, player=bob, ready=True)  # no change: no version
    versions.append(view(race)["version"])
    assert versions == [1, 2, 3, 3]


# -- the race --------------------------------------------------------------------------------------


def test_no_attempt_before_the_countdown_ends(alice, bob, past_daily):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    races.race_join(code=race.code, player=bob)
    with pytest.raises(Conflict) as lobby:
        races.race_attempt(code=race.code, player=alice)
    assert lobby.value.code == "race_not_started"
    races.race_start(code=race.code, player=alice)
    with pytest.raises(Conflict) as counting:
        races.race_attempt(code=race.code, player=alice)
    assert counting.value.code == "countdown" and 0 < counting.value.extra["starts_in"] <= 5


def test_a_racers_attempt_is_practice_linked_to_the_race_and_never_on_the_board(
    alice, bob, carol, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob)
    attempt, created = races.race_attempt(code=race.code, player=alice)
    again, created_again = races.race_attempt(code=race.code, player=alice)
    assert created and not created_again and again.pk == attempt.pk
    assert not attempt.ranked and attempt.deal_string == past_daily.deal.deal_string
    assert attempt.racer.race_id == race.pk
    play_line(attempt.pk, alice, past_daily.deal.certificate)
    assert not Attempt.objects.on_board().filter(pk=attempt.pk).exists()
    board = board_selectors.board_page(daily=past_daily, limit=50, offset=0)
    assert board == []
    with pytest.raises(Forbidden):
        races.race_attempt(code=race.code, player=carol)


def test_progress_shows_moves_and_foundations_and_nothing_of_the_table(
    alice, bob, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob)
    attempt, _ = races.race_attempt(code=race.code, player=alice)
    line = past_daily.deal.certificate
    play_line(attempt.pk, alice, line[:10])
    mine = next(r for r in view(race)["racers"] if r["name"] == "alice")
    attempt.refresh_from_db()
    assert mine["moves"] == 10 and mine["status"] == "playing"
    assert mine["foundation_cards"] == attempt.foundation_cards
    assert sum(f["count"] for f in mine["foundations"]) == attempt.foundation_cards
    assert set(mine) == {
        "id", "version", "name", "maker", "host", "ready", "gone", "status", "moves",
        "foundation_cards", "foundations", "seconds",
    }  # fmt: skip
    assert mine["version"] == 10  # one write of the racer's progress a move


def test_a_move_writes_the_racers_own_progress_and_leaves_the_race_as_it_was(
    alice, bob, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob)
    attempt, _ = races.race_attempt(code=race.code, player=alice)
    before = view(race)
    sent: list[dict] = []

    def heard(sender, progress, **kwargs):
        sent.extend({"race_id": race_id, **racer} for race_id, racer in progress)

    racers_progressed.connect(heard)
    try:
        state = play_line(attempt.pk, alice, past_daily.deal.certificate[:3])
    finally:
        racers_progressed.disconnect(heard)
    after = view(race)
    assert after["version"] == before["version"]  # a move is no change of the race
    mine = next(r for r in after["racers"] if r["name"] == "alice")
    assert [(e["race_id"], e["id"], e["version"], e["moves"]) for e in sent] == [
        (race.pk, mine["id"], n, n) for n in (1, 2, 3)
    ]
    # The last event says what the view says of her, at the same version.
    assert {k: sent[-1][k] for k in mine if k in sent[-1]} == {
        k: mine[k] for k in sent[-1] if k in mine
    }
    assert sent[-1]["foundations"] == races.picture(state.view["foundations"])


def test_a_late_update_of_an_older_move_changes_nothing(alice, bob, past_daily, monkeypatch):
    race = started(monkeypatch, past_daily, alice, bob)
    attempt, _ = races.race_attempt(code=race.code, player=alice)
    play_line(attempt.pk, alice, past_daily.deal.certificate[:4])
    racer = Racer.objects.get(attempt=attempt)
    late = races.racers_moved([races.RacerMove(attempt.pk, 2, 0, 1.0, ())])
    again = Racer.objects.get(attempt=attempt)
    assert late == 0 and (again.version, again.moves, again.foundations) == (
        racer.version,
        4,
        racer.foundations,
    )
    assert races.racers_moved([races.RacerMove(0, 1, 0, 0.0, ())]) == 0  # an attempt in no race


def test_a_finish_is_a_change_of_the_race_and_a_new_version_of_the_racer(
    alice, bob, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob)
    attempt, _ = races.race_attempt(code=race.code, player=alice)
    play_line(attempt.pk, alice, past_daily.deal.certificate[:2])
    before = view(race)
    services.attempt_resign(attempt_id=attempt.pk, player=alice)
    after = view(race)
    mine = next(r for r in after["racers"] if r["name"] == "alice")
    assert after["version"] == before["version"] + 1
    assert mine["status"] == "resigned" and mine["version"] == 3 and mine["moves"] == 2


def test_results_follow_the_boards_rule_and_the_race_ends_when_all_are_done(
    alice, bob, carol, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob, carol)
    # The solver's moves in an order of their own, with detours (a line as short as the par is
    # held as a solver's).
    line = own_line(past_daily)
    attempts = {p: races.race_attempt(code=race.code, player=p)[0] for p in (alice, bob, carol)}
    play_line(attempts[bob].pk, bob, line)  # the par
    play_line(attempts[alice].pk, alice, [line[0], "U", *line])  # two moves more
    services.attempt_resign(attempt_id=attempts[carol].pk, player=carol)
    result = view(race)
    assert [(r["rank"], r["name"], r["won"]) for r in result["results"]] == [
        (1, "bob", True),
        (2, "alice", True),
        (3, "carol", False),
    ]
    assert result["results"][1]["moves"] == len(line) + 2
    assert result["status"] == "over"


def test_a_held_result_is_listed_under_review_in_its_place_and_ranks_nobody(
    alice, bob, carol, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob, carol)
    line = past_daily.deal.certificate
    attempts = {p: races.race_attempt(code=race.code, player=p)[0] for p in (alice, bob, carol)}
    # Alice wins with every move at the same millisecond: faster than any person (the pace
    # rule), so her win is held. Bob resigns after one move; Carol, at a person's pace on a
    # way of her own, after more cards home.
    play_line(attempts[alice].pk, alice, line, human=False)
    play_line(attempts[bob].pk, bob, line[:1])
    services.attempt_resign(attempt_id=attempts[bob].pk, player=bob)
    play_line(attempts[carol].pk, carol, own_line(past_daily)[:30])
    services.attempt_resign(attempt_id=attempts[carol].pk, player=carol)
    racer = Racer.objects.get(attempt=attempts[alice])
    assert racer.held_reasons

    shown = view(race)
    cards = {r["name"]: r["foundation_cards"] for r in shown["results"]}
    assert cards["carol"] > cards["bob"]
    # The held win is in its place (wins first) with no rank; the others ranked as a board
    # ranks them without it: more cards home first.
    assert [(r["name"], r["rank"], r["held"], r["won"]) for r in shown["results"]] == [
        ("alice", None, True, True),
        ("carol", 1, False, False),
        ("bob", 2, False, False),
    ]
    assert shown["results"][0]["moves"] == len(line)
    assert shown["status"] == "over" and shown["par"] == past_daily.deal.par


def test_the_par_is_shown_once_the_race_is_over(alice, bob, past_daily, monkeypatch):
    race = started(monkeypatch, past_daily, alice, bob)
    mine, _ = races.race_attempt(code=race.code, player=alice)
    services.attempt_resign(attempt_id=mine.pk, player=alice)
    assert view(race)["par"] is None  # Bob still plays: how short a win can be stays unsaid
    theirs, _ = races.race_attempt(code=race.code, player=bob)
    services.attempt_resign(attempt_id=theirs.pk, player=bob)
    assert past_daily.deal.par and view(race)["par"] == past_daily.deal.par


def test_a_gone_racer_with_a_game_keeps_the_race_open_for_their_return(
    alice, bob, past_daily, monkeypatch
):
    race = started(monkeypatch, past_daily, alice, bob)
    a, _ = races.race_attempt(code=race.code, player=alice)
    b, _ = races.race_attempt(code=race.code, player=bob)
    races.race_leave(code=race.code, player=bob)
    services.attempt_resign(attempt_id=a.pk, player=alice)
    assert view(race)["status"] == "racing"
    races.race_join(code=race.code, player=bob)
    services.attempt_resign(attempt_id=b.pk, player=bob)
    assert view(race)["status"] == "over"


def test_a_rematch_has_the_same_people_and_a_new_deal(alice, bob, past_daily, monkeypatch):
    other = factories.daily("masterpiece", clock.today() - dt.timedelta(days=3))
    race = started(monkeypatch, past_daily, alice, bob)
    rematch, created = races.race_rematch(code=race.code, player=bob)
    same, created_again = races.race_rematch(code=race.code, player=alice)
    assert created and not created_again and same.pk == rematch.pk
    assert rematch.deal_id == other.deal_id != race.deal_id
    assert names(rematch) == ["alice", "bob"] and rematch.maker_id == bob.pk
    assert view(race)["rematch"] == rematch.code


def test_no_hints_in_a_race(alice, bob, past_daily, monkeypatch):
    race = started(monkeypatch, past_daily, alice, bob)
    attempt, _ = races.race_attempt(code=race.code, player=alice)
    assert attempt.hints_open()  # practice to the games app, but a race says no
    with pytest.raises(Conflict) as caught:
        services.attempt_hint(attempt_id=attempt.pk, player=alice)
    assert caught.value.code == "hints_race"
