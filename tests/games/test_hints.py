"""Hints (games/services/hints.py, POST /api/attempts/<id>/hint/): practice only, never a
hidden card, bounded in time, counted on the attempt, throttled."""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid

import pytest

from games import services
from games.api import throttles
from games.engine import deal, game_class
from games.engine.cards import TEXT
from games.engine.solver import DECIDE, SOLVED, Budget, decide, rules_for
from games.models import Attempt
from tests.games import factories
from tests.games.test_api import assert_error, client_of

CARD = re.compile(r"\b[A2-9TJQK][SHDC]\b")


@pytest.fixture(autouse=True)
def fresh_throttles(monkeypatch):
    monkeypatch.setattr(
        throttles.ScopeThrottle, "cache_format", f"throttle_{uuid.uuid4().hex}_%(scope)s_%(ident)s"
    )


@pytest.fixture(autouse=True)
def roomy_budget(settings):
    """Searches within a wall-clock budget: room enough on a loaded machine (the one test of
    the budget sets its own)."""
    settings.HINT_SECONDS = {"munger": 30.0, "masterpiece": 30.0}


def ask(client, attempt_id: int):
    return client.post(f"/api/attempts/{attempt_id}/hint/")


def practice(player, game: str = "masterpiece", seed: int = 1) -> Attempt:
    attempt, _ = services.attempt_start_practice(player=player, game=game, seed=seed)
    return attempt


def state_of(client, attempt_id: int) -> dict:
    response = client.get(f"/api/attempts/{attempt_id}/")
    assert response.status_code == 200
    return response.json()


def test_a_practice_hint_is_a_legal_move_and_counts(alice):
    attempt = practice(alice)
    client = client_of(alice)
    before = state_of(client, attempt.pk)
    assert before["hints_open"] is True and before["hints"] == 0

    response = ask(client, attempt.pk)

    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["status"] == "move" and answer["seq"] == 0 and answer["hints"] == 1
    assert {k: answer[k] for k in ("move", "card", "count")} in before["moves"]
    assert answer["undo"] is None
    after = state_of(client, attempt.pk)
    assert after["hints"] == 1 and after["seq"] == 0  # nothing played
    summary = client.get("/api/players/me/attempts/").json()["results"][0]
    assert summary["hints"] == 1
    played = client.post(
        f"/api/attempts/{attempt.pk}/moves/", {"seq": 0, "move": answer["move"]}, format="json"
    )
    assert played.status_code == 200
    assert played.json()["hints"] == 1  # a move keeps the count


def test_a_munger_hint_names_no_card_the_player_cannot_see(alice):
    attempt = practice(alice, "munger", 11)
    client = client_of(alice)
    view = json.dumps(state_of(client, attempt.pk)["view"])
    seen = set(CARD.findall(view))
    hidden = set(TEXT) - seen
    assert hidden  # Munger deals cards face down and keeps a stock

    answer = ask(client, attempt.pk).json()

    assert answer["status"] == "move"
    assert not set(CARD.findall(json.dumps(answer))) & hidden
    assert set(answer) == {
        "attempt",
        "seq",
        "status",
        "detail",
        "move",
        "card",
        "count",
        "undo",
        "hints",
    }


def _lost_history(seed: int) -> list[str]:
    """Masterpiece seed `seed` played by its last legal move each time until no win is left."""
    game = game_class("masterpiece").from_deal(deal("masterpiece", seed))
    history = []
    while decide(rules_for(game, DECIDE), Budget(10)).status == SOLVED:
        move = game.legal_moves()[-1]
        game.push(move)
        history.append(move.text)
    return history


@pytest.mark.slow
def test_a_lost_position_gets_how_many_moves_to_undo(alice):
    attempt = practice(alice)
    history = _lost_history(1)
    for seq, token in enumerate(history):
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=token)

    answer = ask(client_of(alice), attempt.pk).json()

    assert answer["status"] == "undo" and answer["move"] is None
    assert 1 <= answer["undo"] <= len(history) and answer["hints"] == 1


def test_a_deal_with_no_win_says_so_and_counts_nothing(alice):
    attempt = practice(alice, "masterpiece", factories.UNSOLVABLE_SEEDS["masterpiece"][0])

    answer = ask(client_of(alice), attempt.pk).json()

    assert answer["status"] == "no_win" and answer["hints"] == 0
    assert Attempt.objects.get(pk=attempt.pk).hints == 0


def test_a_search_out_of_time_answers_no_hint_in_time(alice, settings):
    settings.HINT_SECONDS = {**settings.HINT_SECONDS, "masterpiece": 0.0}
    attempt = practice(alice, seed=4)  # a deal no hint of this test run has found a line for

    answer = ask(client_of(alice), attempt.pk).json()

    assert answer["status"] == "timeout" and "in time" in answer["detail"]
    assert answer["move"] is None and answer["hints"] == 0


def test_no_hint_in_a_ranked_game(alice):
    daily = factories.daily("masterpiece")
    attempt, _ = services.attempt_start(player=alice, daily=daily)
    assert attempt.ranked
    client = client_of(alice)
    assert state_of(client, attempt.pk)["hints_open"] is False

    assert_error(ask(client, attempt.pk), 409, "hints_ranked")

    assert Attempt.objects.get(pk=attempt.pk).hints == 0


def test_practice_on_a_daily_gets_hints_only_once_its_ranked_play_is_over(alice, travel):
    yesterday = dt.date(2026, 3, 9)
    daily = factories.daily("masterpiece", yesterday)
    travel(dt.datetime(2026, 3, 10, 0, 2))  # the grace after midnight: ranked play goes on
    # No practice of it starts now (409 `daily_running`); one kept from before the rule.
    attempt = Attempt.objects.create(
        player=alice,
        game=daily.game,
        daily=daily,
        seed=daily.deal.seed,
        deal_string=daily.deal.deal_string,
        ranked=False,
        started_at=dt.datetime(2026, 3, 9, 23, 0, tzinfo=dt.UTC),
        foundation_cards=4,
    )
    client = client_of(alice)
    assert state_of(client, attempt.pk)["hints_open"] is False

    body = assert_error(ask(client, attempt.pk), 409, "hints_not_yet")
    assert "00:05 UTC" in body["detail"]

    travel(dt.datetime(2026, 3, 10, 0, 6))
    assert state_of(client, attempt.pk)["hints_open"] is True
    assert ask(client, attempt.pk).json()["status"] == "move"


def test_no_hint_for_a_finished_attempt_or_someone_elses(alice, bob):
    attempt = practice(alice)
    assert_error(ask(client_of(bob), attempt.pk), 404, "attempt_not_found")  # as an unknown one
    assert_error(ask(client_of(alice), 999999), 404, "attempt_not_found")
    services.attempt_resign(attempt_id=attempt.pk, player=alice)
    assert_error(ask(client_of(alice), attempt.pk), 409, "attempt_finished")


def test_hints_are_throttled_per_player(alice, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"hints_player": "1/min"},
    }
    attempt = practice(alice)
    client = client_of(alice)
    assert ask(client, attempt.pk).status_code == 200

    body = assert_error(ask(client, attempt.pk), 429, "throttled")

    assert body["retry_after"] >= 1
    assert Attempt.objects.get(pk=attempt.pk).hints == 1


def test_hints_is_a_post_without_a_body(alice):
    attempt = practice(alice)
    response = client_of(alice).get(f"/api/attempts/{attempt.pk}/hint/")
    assert_error(response, 405, "method_not_allowed")


# -- never nothing ---------------------------------------------------------------------------


def test_a_hint_found_is_remembered_and_the_next_ones_along_it_are_at_once(alice, settings):
    """The first hint searches; a player who follows it gets the next ones from the line it
    found, without a search (even with no time left for one)."""
    attempt = practice(alice)
    client = client_of(alice)
    first = ask(client, attempt.pk).json()
    assert first["status"] == "move"
    settings.HINT_SECONDS = {"munger": 0.0, "masterpiece": 0.0}  # no search can finish now
    answer = first
    for seq in range(5):
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=answer["move"])
        answer = ask(client, attempt.pk).json()
        assert answer["status"] == "move" and answer["seq"] == seq + 1, answer
    assert answer["hints"] == 6


def test_a_search_out_of_time_says_how_far_back_a_win_was_known(alice, settings, travel):
    """On a past daily the certificate is a winning line from the start: off it, with no time
    to search, the hint names the undos back to the last position on it, never nothing."""
    yesterday = dt.date(2026, 3, 9)
    daily = factories.daily("masterpiece", yesterday)
    travel(dt.datetime(2026, 3, 11, 12, 0, tzinfo=dt.UTC))
    attempt, _ = services.attempt_start(player=alice, daily=daily)
    assert not attempt.ranked
    certificate = list(daily.deal.certificate)
    game = game_class("masterpiece").from_deal(daily.deal.deal_string)
    for token in certificate[:3]:
        game.push(token)
    detour = next(m.text for m in game.legal_moves() if m.text != certificate[3])
    for seq, token in enumerate([*certificate[:3], detour]):
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=token)
    settings.HINT_SECONDS = {"munger": 0.0, "masterpiece": 0.0}

    answer = ask(client_of(alice), attempt.pk).json()

    assert answer["status"] == "unsure" and answer["undo"] == 1, answer
    assert "winnable" in answer["detail"] and answer["hints"] == 1


def test_hints_from_known_lines_without_a_database():
    from games.services.hints import hint_from

    text = deal("masterpiece", 1)
    line = ["A1>M2", "M5>M7", "A2>M4"]
    found, new = hint_from("masterpiece", text, line[:2], [line], time_limit=0.0)
    assert (found.status, found.move, new) == ("move", "A2>M4", None)
    found, _ = hint_from("masterpiece", text, ["A1>M2", "U", "A1>M2"], [line], time_limit=0.0)
    assert found.move == "M5>M7"  # an undone move is not the position's
    found, new = hint_from("masterpiece", text, [], [], time_limit=30.0)
    assert found.status == "move" and new is not None and new[0] == found.move
