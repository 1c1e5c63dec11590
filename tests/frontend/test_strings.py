"""The play page's string catalogue: every word the game screen's scripts ask for exists, in
every language of the site, with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from frontend.templatetags.frontend import frontend_strings
from frontend.views import SITE_LANGUAGE_CODES

GAME_SCRIPTS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "game"
# t("key"), t('key') or t(`key`) with a literal key; `rank_${...}`-style keys are checked below.
KEY = re.compile(r"""\bt\(\s*["'`]([a-z_]+)["'`]""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def keys_used() -> set[str]:
    used: set[str] = set()
    for script in GAME_SCRIPTS.glob("*.js"):
        text = "\n".join(
            line for line in script.read_text().splitlines() if not line.lstrip().startswith("//")
        )
        used |= set(KEY.findall(text))
    return used


def catalogue(language: str) -> dict[str, str]:
    with translation.override(language):
        return frontend_strings()


def test_every_key_the_game_scripts_use_is_in_the_catalogue():
    used = keys_used()
    assert used, f"no t(...) call found under {GAME_SCRIPTS}"

    assert used <= set(catalogue("en")), sorted(used - set(catalogue("en")))


def test_card_words_for_every_rank_and_suit():
    english = catalogue("en")

    for rank in "A23456789TJQK":
        assert english[f"rank_{rank}"]
    for suit in "CDHS":
        assert english[f"suit_{suit}"]


@pytest.mark.parametrize("language", [code for code in SITE_LANGUAGE_CODES if code != "en"])
def test_translations_keep_the_placeholders(language):
    english, other = catalogue("en"), catalogue(language)

    assert set(other) == set(english)
    for key, text in english.items():
        assert sorted(PLACEHOLDER.findall(other[key])) == sorted(PLACEHOLDER.findall(text)), key
