"""The race pages: making a race, a race's page, the entry points, in each language."""

from __future__ import annotations

import json
import re

import pytest

from races import services as races
from tests.races.conftest import client_of

pytestmark = pytest.mark.django_db


def test_a_races_page_and_an_unknown_one(alice, past_daily):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    page = client_of().get(f"/challenge/{race.code}/")
    assert page.status_code == 200
    assert f'data-code="{race.code}"' in page.content.decode()
    assert client_of().get("/challenge/zzzzzzzzzz/").status_code == 404


def test_the_entry_points_lead_to_the_challenge_form(past_daily):
    client = client_of()
    assert 'href="/challenge/"' in client.get("/").content.decode()
    archive = client.get(f"/archive/?month={past_daily.date:%Y-%m}").content.decode()
    assert f"/challenge/?game=masterpiece&amp;date={past_daily.date.isoformat()}" in archive
    form = client.get(f"/challenge/?game=masterpiece&date={past_daily.date.isoformat()}")
    assert f'value="{past_daily.date.isoformat()}"' in form.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Join the race"), ("fr", "Rejoindre la course"), ("ru", "Присоединиться к гонке")],
)
def test_the_race_words_in_each_language(alice, past_daily, language, words):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    page = client_of().get(f"/challenge/{race.code}/", HTTP_ACCEPT_LANGUAGE=language)
    block = re.search(
        r'<script id="strings" type="application/json">(.*?)</script>', page.content.decode()
    )
    assert block and json.loads(block.group(1))["race_join"] == words
