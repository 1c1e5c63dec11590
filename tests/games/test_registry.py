"""Every registered game has every part the project needs (docs/engine.md, "Adding a game").

A game joins the project through `games.engine.registry.GAMES`; this walks that table and
checks each part a game needs elsewhere, so that a third game missing one fails here rather
than being drawn, judged or shown as another game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games import fairplay
from games.admin.board import DRAWINGS, board, locations
from games.engine import GAMES, deal, new_game, replay
from games.engine.cards import TEXT
from games.engine.solver import RULES, candidate_seconds, rules_class
from games.models import GameName

ROOT = Path(__file__).resolve().parents[2]
GAME_NAMES = sorted(GAMES)


def test_the_games_are_registered_once_under_their_names():
    assert GAME_NAMES == ["masterpiece", "munger"]
    assert all(cls.name == name for name, cls in GAMES.items())
    assert sorted(GameName.values) == GAME_NAMES


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_engine_deals_plays_and_replays_the_game(game):
    cls = GAMES[game]
    text = deal(game, 7)
    position = new_game(game, deal=text)

    assert cls.title and isinstance(cls.native_title, str)
    assert cls.SOURCES and cls.DESTINATIONS and cls.EXAMPLE
    assert position.foundation_cards >= 0 and position.legal_moves()
    first = position.legal_moves()[0].text
    assert replay(game, text, [first]).valid


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_solver_has_rules_and_a_budget_for_the_game(game):
    assert rules_class(game) is RULES[game]
    assert RULES[game].GAME is GAMES[game]
    assert candidate_seconds(game) > 0


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_fair_play_rule_has_a_threshold_for_the_game(game):
    for rule in fairplay.RULES:
        assert rule.for_game(game) >= 0, rule.name


def test_a_game_without_a_threshold_is_a_clear_error():
    with pytest.raises(LookupError, match="too_fast has no threshold for 'klondike'"):
        fairplay.RULES[0].for_game("klondike")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_admin_draws_the_game_as_itself_with_every_card(game):
    drawn = board(new_game(game, seed=3))

    assert game in DRAWINGS and drawn["game"] == game
    # A new deal has at most one card on each foundation: every card is drawn, once.
    assert sorted(locations(drawn)) == sorted(TEXT)


def test_a_game_the_admin_cannot_draw_is_an_error_not_another_game(monkeypatch):
    position = new_game("masterpiece", seed=3)
    monkeypatch.delitem(DRAWINGS, "masterpiece")

    with pytest.raises(LookupError, match="cannot draw 'masterpiece'"):
        board(position)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_site_has_the_games_table_and_rules_page(game):
    assert (ROOT / f"frontend/static/frontend/game/{game}.js").is_file()
    assert (ROOT / f"frontend/templates/frontend/rules/{game}.html").is_file()
    assert (ROOT / f"games/templates/admin/games/board_{game}.html").is_file()
