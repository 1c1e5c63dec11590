"""Hypothesis fuzzing of the play endpoints through the Django test client.

Random JSON bodies (and bodies that are not JSON), seqs, move tokens, attempt ids and player
cookies, sent to the move, finish and state endpoints of a live attempt: never a server error,
every refusal a 4xx in the API's error shape (`{"code", "detail"}`), an illegal move never
stored, a refused request stores nothing, and the stored history always replays valid from the
deal. The examples share one database transaction (the attempt goes on from one to the next).
Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from games import services
from games.engine import GAMES, replay
from games.identity import COOKIE_NAME
from games.models import Attempt
from games.state import position
from tests.games import factories

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db,
    # WhiteNoise says so for each new test client when collectstatic has not run: harmless here.
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


ALL_TOKENS = sorted({token for cls in GAMES.values() for token in cls.MOVES} | {"U"})
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@pytest.fixture
def world(db) -> dict[str, Any]:
    daily = factories.daily("munger")
    alice, bob = factories.player("alice"), factories.player("bob")
    ranked, _ = services.attempt_start(player=alice, daily=daily)
    practice, _ = services.attempt_start_practice(player=alice, game="masterpiece", seed=17)
    return {
        "attempts": [ranked.pk, practice.pk],
        "tokens": {
            "alice": services.player_token_issue(player=alice),
            "bob": services.player_token_issue(player=bob),
        },
    }


#: What a Cookie header can carry (HTTP headers are bytes; servers decode them as latin-1).
COOKIE_TEXT = st.text(
    st.characters(min_codepoint=33, max_codepoint=126, exclude_characters=';,"\\'), max_size=70
)
SEQS = st.one_of(
    st.tuples(st.just("next")),
    st.tuples(st.just("offset"), st.integers(-3, 3)),
    st.tuples(st.just("value"), st.one_of(st.integers(), json_values)),
)
MOVES = st.one_of(
    st.tuples(st.just("legal"), st.integers(0, 10**6)),
    st.tuples(st.just("value"), st.one_of(st.sampled_from(ALL_TOKENS), st.text(max_size=10))),
    st.tuples(st.just("value"), json_values),
)


def body_for(data: st.DataObject, next_seq: int, legal: list[str]) -> bytes:
    """A request body. Everything is drawn whatever the attempt's state (Hypothesis needs the
    same draws on every run), then resolved against the state."""
    kind = data.draw(st.sampled_from(["good", "fields", "json", "raw"]), label="kind")
    pick = data.draw(st.integers(0, 10**6))
    seq_kind = data.draw(SEQS, label="seq")
    move_kind = data.draw(MOVES, label="move")
    drop = data.draw(st.sampled_from([None, None, None, "seq", "move"]), label="drop")
    extra = data.draw(st.one_of(st.none(), st.tuples(st.text(max_size=5), json_values)))
    any_json = data.draw(json_values, label="json")
    raw = data.draw(st.binary(max_size=40), label="raw")
    if kind == "raw":
        return raw
    if kind == "json":
        return json.dumps(any_json).encode()
    if kind == "good" and legal:
        return json.dumps({"seq": next_seq, "move": legal[pick % len(legal)]}).encode()
    seq = {"next": lambda: next_seq, "offset": lambda: next_seq + seq_kind[-1]}.get(
        seq_kind[0], lambda: seq_kind[-1]
    )()
    move = legal[move_kind[1] % len(legal)] if move_kind[0] == "legal" and legal else move_kind[-1]
    body: dict[str, Any] = {"seq": seq, "move": move}
    if drop:
        body.pop(drop)
    if extra is not None:
        body[extra[0]] = extra[1]
    return json.dumps(body).encode()


def check_error_shape(response: Any) -> dict[str, Any]:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    answer = response.json()
    assert isinstance(answer.get("code"), str) and answer["code"]
    assert isinstance(answer.get("detail"), str) and answer["detail"]
    return answer


@settings(
    max_examples=150,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_requests_to_the_play_endpoints(world, data):
    attempt_id = data.draw(
        st.sampled_from([*world["attempts"], 999_999_999, 10**17]), label="attempt"
    )
    who = data.draw(st.sampled_from(["alice", "alice", "alice", "bob", "garbage", None]))
    endpoint = data.draw(st.sampled_from(["moves"] * 6 + ["finish", "state"]), label="endpoint")
    before = Attempt.objects.filter(pk=attempt_id).first()
    legal: list[str] = []
    next_seq = 0
    if before is not None:
        game = position(before)
        legal = [m.text for m in game.legal_moves()] + (["U"] if game.can_undo else [])
        next_seq = before.next_seq
    body = body_for(data, next_seq, legal)
    garbage = data.draw(COOKIE_TEXT, label="garbage cookie")
    content_type = data.draw(st.sampled_from(["application/json"] * 5 + ["text/plain"]))

    client = Client()
    if who == "garbage":
        client.cookies[COOKIE_NAME] = garbage
    elif who is not None:
        client.cookies[COOKIE_NAME] = world["tokens"][who]
    path = f"/api/attempts/{attempt_id}/"
    if endpoint == "state":
        response = client.get(path)
    else:
        response = client.post(path + f"{endpoint}/", data=body, content_type=content_type)

    assert response.status_code < 500, response.content[:500]
    event(f"{endpoint} {response.status_code}")
    after = Attempt.objects.filter(pk=attempt_id).first()
    if response.status_code >= 400:
        answer = check_error_shape(response)
        if answer["code"] == "illegal_move":
            assert response.status_code == 422 and isinstance(answer["legal"], list)
        if before is not None:
            assert after.moves == before.moves  # a refusal stores nothing
    elif endpoint == "moves":
        sent = json.loads(body)
        answer = response.json()
        assert who == "alice" and before is not None
        if answer["replayed"]:
            assert sent["seq"] < before.next_seq and before.moves[sent["seq"]] == sent["move"]
            assert after.moves == before.moves
        else:
            assert sent["seq"] == before.next_seq and sent["move"] in legal
            assert after.moves == [*before.moves, sent["move"]]
    if after is not None:
        verdict = replay(after.game, after.deal_string, after.moves)
        assert verdict.valid and after.move_count == after.next_seq == len(after.moves)
