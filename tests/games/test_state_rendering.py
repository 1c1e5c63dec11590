"""The state every start, move and look answers is rendered by a plan of its serializer
(games/api/serializers.py `PlannedRepresentation`), not by DRF's own machinery: the two give the
same JSON for states of every kind a player meets (both games, practice and daily, before and
after moves and undos, won, resigned, held, disqualified, a ranked day over), and for a move's
answer with what it revealed."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.api.serializers import (
    AttemptStateSerializer,
    MoveAnswerSerializer,
    PlannedRepresentation,
    render_state,
)
from games.models import Attempt
from games.state import AttemptState, attempt_state
from tests.games import factories

pytestmark = pytest.mark.django_db

NAMES = itertools.count()
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
DRF = {"state": AttemptStateSerializer(), "answer": MoveAnswerSerializer()}


def same_json(state: AttemptState, *, answer: bool = False) -> None:
    kind = "answer" if answer else "state"
    planned = json.dumps(render_state(state, answer=answer), sort_keys=True, default=str)
    drf = json.dumps(DRF[kind].to_representation(state), sort_keys=True, default=str)
    assert planned == drf


def random_line(attempt: Attempt, player, moves: int, rng: random.Random) -> AttemptState:
    """Up to `moves` random legal moves (an undo now and then), each answer checked."""
    state = attempt_state(attempt)
    for _ in range(moves):
        choices = list(state.legal) + (["U"] if state.can_undo else [])
        if not choices or state.attempt.is_finished:
            break
        state = services.attempt_play(
            attempt_id=attempt.pk,
            player=player,
            seq=state.attempt.next_seq,
            move=rng.choice(choices),
        )
        same_json(state, answer=True)
        same_json(state)
    return state


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    game=st.sampled_from(["munger", "masterpiece"]),
    seed=st.integers(min_value=1, max_value=10**6),
    moves=st.integers(min_value=0, max_value=25),
    line=st.integers(min_value=0, max_value=2**32),
)
def test_practice_states_render_as_drf_renders_them(game, seed, moves, line, travel) -> None:
    travel(NOW)  # the clock's figures are the same for both renderings
    player = factories.player(f"p{next(NAMES)}")  # examples share the test's database
    attempt, _ = services.attempt_start_practice(player=player, game=game, seed=seed)
    same_json(attempt_state(attempt))
    state = random_line(attempt, player, moves, random.Random(line))
    services.attempt_resign(attempt_id=attempt.pk, player=player)
    same_json(attempt_state(Attempt.objects.get(pk=state.attempt.pk)))


@pytest.mark.parametrize("game", ["munger", "masterpiece"])
def test_daily_states_render_as_drf_renders_them(game, travel) -> None:
    travel(NOW)
    daily = factories.daily(game)
    winner = factories.player("winner")
    attempt, _ = services.attempt_start(player=winner, daily=daily)
    for seq, move in enumerate(daily.deal.certificate):
        state = services.attempt_play(attempt_id=attempt.pk, player=winner, seq=seq, move=move)
        if seq % 10 == 0 or state.attempt.is_finished:
            same_json(state, answer=True)
    assert state.attempt.status == Attempt.Status.WON
    same_json(attempt_state(Attempt.objects.get(pk=attempt.pk)))  # par and all shown
    replayed = services.attempt_play(
        attempt_id=attempt.pk, player=winner, seq=0, move=daily.deal.certificate[0]
    )
    same_json(replayed, answer=True)

    held = Attempt.objects.get(pk=attempt.pk)
    held.review = Attempt.Review.HELD
    held.save()
    same_json(attempt_state(held))
    services.attempt_disqualify(attempt=held, by=None, reason="test")
    same_json(attempt_state(Attempt.objects.get(pk=attempt.pk)))

    late = factories.player("late")
    begun, _ = services.attempt_start(player=late, daily=daily)
    random_line(begun, late, 5, random.Random(1))
    travel(dt.datetime.combine(daily.date + dt.timedelta(days=2), dt.time(12)))
    over = attempt_state(Attempt.objects.get(pk=begun.pk))
    assert over.day_over
    same_json(over)


def test_a_plan_follows_sources_through_mappings_and_renders_none_as_none() -> None:
    plan = PlannedRepresentation(AttemptStateSerializer().fields["moves"].child)
    assert plan({"move": "R>F", "card": None, "count": 1}) == {
        "move": "R>F",
        "card": None,
        "count": 1,
    }
