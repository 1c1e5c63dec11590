"""The leagues' pages (frontend/league_pages.py): they answer in every language for anyone,
create no player, are in the site's navigation, and every key their scripts ask for is in the
words they are given, translated with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from frontend.languages import SITE_LANGUAGE_CODES
from frontend.league_pages import league_strings
from games.models import Player

SCRIPTS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "pages"
LEAGUE_SCRIPTS = ["leagues.js", "league.js", "league_join.js", "leaguewords.js", "leagueparts.js"]
KEY = re.compile(r"""\bt\(\s*["'`]([a-z_]+)["'`]""")
QUOTED_KEY = re.compile(r""""(lg_[a-z_]+)\"""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")

pytestmark = pytest.mark.django_db


def keys_used() -> set[str]:
    used: set[str] = set()
    for name in LEAGUE_SCRIPTS:
        text = (SCRIPTS / name).read_text()
        used |= set(KEY.findall(text)) | set(QUOTED_KEY.findall(text))
    return used


@pytest.mark.parametrize(
    "path",
    [
        reverse("frontend:leagues"),
        reverse("frontend:league", args=[12]),
        reverse("frontend:league-join", args=["abcdefghijkl"]),
    ],
)
@pytest.mark.parametrize("language", SITE_LANGUAGE_CODES)
def test_the_leagues_pages_answer_in_every_language_and_make_no_player(client, path, language):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    assert response["Content-Language"] == language
    assert f'href="{reverse("frontend:leagues")}" aria-current="page"' in response.text
    assert 'id="strings"' in response.text and 'id="leagues-config"' in response.text
    assert not Player.objects.exists()


def test_every_key_the_scripts_use_is_in_the_pages_words():
    used, words = keys_used(), league_strings()

    assert len(used) > 40
    assert used <= set(words), sorted(used - set(words))


@pytest.mark.parametrize("language", [code for code in SITE_LANGUAGE_CODES if code != "en"])
def test_the_words_are_translated_and_keep_their_placeholders(language):
    with translation.override("en"):
        english = league_strings()
    with translation.override(language):
        other = league_strings()

    for key, text in english.items():
        forms = text if isinstance(text, dict) else {"other": text}
        theirs = other[key] if isinstance(other[key], dict) else {"other": other[key]}
        for form, translated in theirs.items():
            # A word may be spelt the same ("Points" in French); a sentence may not.
            same = translated == forms.get(form, forms["other"])
            assert not same or " " not in translated, (key, form)
            assert sorted(PLACEHOLDER.findall(translated)) == sorted(
                PLACEHOLDER.findall(forms.get(form, forms["other"]))
            ), (key, form)


def test_the_invite_page_asks_a_newcomer_for_a_name_and_a_player_for_nothing(client):
    from games import services
    from games.identity import COOKIE_NAME

    path = reverse("frontend:league-join", args=["abcdefghijkl"])
    assert 'id="join-name"' in client.get(path).text

    player = Player.objects.create(display_name="Ann")
    client.cookies[COOKIE_NAME] = services.player_token_issue(player=player)
    page = client.get(path).text
    assert 'id="join-name"' not in page and "Ann" in page
