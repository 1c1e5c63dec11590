"""The public pages: the home page, the two rules pages, and the API schema."""

import pytest
from django.urls import reverse


def test_home_page_names_both_games_and_links_to_their_rules(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Patience Daily</title>" in html
    assert "Munger" in html
    assert "Masterpiece" in html
    assert "Шедевр" in html
    assert 'href="/rules/munger/"' in html
    assert 'href="/rules/masterpiece/"' in html


@pytest.mark.parametrize(
    ("game", "name", "words"),
    [
        ("munger", "Munger", ["reserve", "stock", "waste", "King"]),
        ("masterpiece", "Masterpiece", ["cellar", "auxiliary", "main row", "Ace"]),
    ],
)
def test_rules_page_explains_the_game(client, game, name, words):
    response = client.get(reverse("frontend:rules", kwargs={"game": game}))

    assert response.status_code == 200
    html = response.content.decode()
    assert f"How to play {name}" in html
    for word in words:
        assert word in html
    assert "You win when" in html


def test_rules_page_of_an_unknown_game_is_404(client):
    response = client.get("/rules/klondike/")

    assert response.status_code == 404


def test_pages_are_read_only(client):
    response = client.post("/")

    assert response.status_code == 405


def test_api_schema_is_an_openapi_document(client):
    response = client.get(reverse("api-schema"), {"format": "json"})

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Patience Daily API"


def test_api_docs_page_answers(client):
    response = client.get(reverse("api-docs"))

    assert response.status_code == 200
    # Swagger UI comes from our own static files, so the docs work without the internet.
    page = response.content.decode()
    assert "swagger-ui-dist" in page and "cdn" not in page.lower()


def test_api_docs_assets_are_served(client):
    page = client.get(reverse("api-docs")).content.decode()
    bundle = next(
        part.split('"')[0] for part in page.split('src="')[1:] if "swagger-ui-bundle" in part
    )
    assert client.get(bundle).status_code == 200
