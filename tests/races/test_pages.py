"""The race pages: making a race, a race's page, the entry points, in each language."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from games import clock
from races import services as races
from tests.frontend.test_strings import PLACEHOLDER, keys_used
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


RACE_SCRIPTS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "race"


def race_strings(page) -> dict:
    block = re.search(
        r'<script id="strings" type="application/json">(.*?)</script>', page.content.decode()
    )
    assert block
    strings: dict = json.loads(block.group(1))
    return strings


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_every_word_the_race_scripts_say_is_in_the_pages_strings_translated(
    alice, past_daily, language
):
    race = races.race_make(player=alice, game="masterpiece", date=past_daily.date)
    english = race_strings(client_of().get(f"/challenge/{race.code}/"))
    strings = race_strings(
        client_of().get(f"/challenge/{race.code}/", HTTP_ACCEPT_LANGUAGE=language)
    )
    used = keys_used(*sorted(RACE_SCRIPTS.glob("*.js")))

    assert {"race_rematch_ready", "race_name_label", "race_not_ready_mark"} <= used
    assert used <= set(strings), sorted(used - set(strings))
    for key in sorted(k for k in strings if k.startswith("race_")):
        assert sorted(PLACEHOLDER.findall(strings[key])) == sorted(
            PLACEHOLDER.findall(english[key])
        ), key
        if language != "en":
            assert strings[key] != english[key], (language, key)


@pytest.mark.parametrize(
    ("days", "refused"),
    [(0, "running"), (1, "future"), (-2, None)],
    ids=["today", "tomorrow", "past"],
)
def test_a_day_whose_deal_may_not_be_raced_is_said_so_and_the_form_offers_a_fresh_deal(
    days, refused
):
    day = clock.today() + dt.timedelta(days=days)
    page = client_of().get(f"/challenge/?game=masterpiece&date={day.isoformat()}")
    html = page.content.decode()
    assert page.context["refused"] == (refused or "")
    assert ('data-testid="race-date-refused"' in html) == bool(refused)
    assert (f'name="date" value="{day.isoformat()}"' in html) == (refused is None)
