"""The OpenAPI schema and the server agree where schemathesis found them apart: each case
below is a request the schema called valid and the server refused, or the other way round.
(tests/abuse/test_schema.py runs schemathesis itself against a live server.)"""

from __future__ import annotations

import re

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

from games.engine import GAMES, new_game
from games.engine.deals import SEED_MAX
from games.identity import COOKIE_NAME
from games.models import Attempt
from games.services import player_token_issue
from tests.games import factories

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(tmp_path_factory, django_db_blocker):
    out = tmp_path_factory.mktemp("schema") / "schema.yml"
    with django_db_blocker.unblock():
        call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    return yaml.safe_load(out.read_text())


def parameter(schema, path: str, name: str) -> dict:
    found = [p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == name]
    assert len(found) == 1, found
    return found[0]["schema"]


def client_with_player() -> APIClient:
    client = APIClient()
    client.cookies[COOKIE_NAME] = player_token_issue(player=factories.player("Sam"))
    return client


def assert_invalid(response) -> None:
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"


def test_every_request_body_refuses_unknown_fields_in_the_schema_too(schema):
    components = schema["components"]["schemas"]
    bodies = [
        media["schema"]["$ref"].rsplit("/", 1)[-1]
        for operations in schema["paths"].values()
        for operation in operations.values()
        for media in operation.get("requestBody", {}).get("content", {}).values()
    ]
    assert {"MoveInput", "PracticeInput", "PlayerCreate", "LoginInput"} <= set(bodies)
    assert all(components[name]["additionalProperties"] is False for name in bodies)
    assert_invalid(APIClient().post("/api/players/", {"display_name": "Sam", "fields": {}}))


@pytest.mark.parametrize(
    ("path", "name", "low", "high"),
    [
        ("/api/leaderboards/all-time/", "limit", 1, 100),
        ("/api/leaderboards/{game}/{date}/", "limit", 1, 100),
        ("/api/leaderboards/{game}/{date}/", "offset", 0, 10**9),
        ("/api/players/me/attempts/", "page_size", 1, 100),
    ],
)
def test_numbers_in_queries_have_the_bounds_the_server_keeps(schema, path, name, low, high):
    bounds = parameter(schema, path, name)
    assert (bounds["type"], bounds["minimum"], bounds.get("maximum")) == ("integer", low, high)


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "limit=", "game=", "game=chess"])
def test_the_all_time_board_refuses_what_the_schema_refuses(query):
    assert_invalid(APIClient().get(f"/api/leaderboards/all-time/?{query}"))


def test_an_empty_game_is_refused_by_the_stats_too():
    client = client_with_player()
    assert_invalid(client.get("/api/players/me/stats/?game="))
    assert_invalid(client.get("/api/players/Sam/stats/?game="))
    assert client.get("/api/players/me/stats/?game=munger").status_code == 200


@pytest.mark.parametrize("page_size", ["null", "0", "101", "", "-1", "2.0"])
def test_a_page_size_out_of_its_range_is_400_not_the_default(page_size):
    assert_invalid(client_with_player().get(f"/api/players/me/attempts/?page_size={page_size}"))


def test_a_page_size_in_range_is_kept(schema):
    client = client_with_player()
    for seed in (1, 2, 3):
        assert client.post("/api/practice/", {"game": "munger", "seed": seed}).status_code == 201
    body = client.get("/api/players/me/attempts/?page_size=2").json()
    assert (body["count"], len(body["results"])) == (3, 2)
    assert parameter(schema, "/api/players/me/attempts/", "page")["minimum"] == 1


def test_the_seed_is_an_unsigned_64_bit_number_in_the_schema_and_the_server(schema):
    seed = schema["components"]["schemas"]["PracticeInput"]["properties"]["seed"]
    assert "format" not in seed  # int64 is signed: 2**63 and above would be "invalid"
    assert (seed["minimum"], seed["maximum"]) == (0, SEED_MAX)
    client = client_with_player()

    assert (
        client.post("/api/practice/", {"game": "masterpiece", "seed": SEED_MAX}).status_code == 201
    )
    refused = client.post(
        "/api/practice/", {"game": "masterpiece", "seed": SEED_MAX + 1}, format="json"
    )
    assert_invalid(refused)
    assert Attempt.objects.count() == 1


def test_the_move_pattern_takes_every_move_of_each_game_and_no_garbage(schema):
    move = schema["components"]["schemas"]["MoveInput"]["properties"]["move"]
    pattern = re.compile(move["pattern"])
    for name in GAMES:
        game = new_game(name, seed=1)
        legal = [m.to_text() for m in game.legal_moves()]
        assert legal and all(pattern.fullmatch(token) for token in [*legal, "U"]), name
    for garbage in ("0000000", "T3>", ">T5", "T3>T5>T6", "u", "M1>M1 "):
        assert not pattern.fullmatch(garbage), garbage
