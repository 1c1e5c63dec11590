"""The player's view: what a player may see, and nothing more (docs/rules.md, "What the player
sees"; docs/engine.md, "The player's view")."""

from __future__ import annotations

import json

from games.engine import Masterpiece, Munger, deal, new_game
from games.engine.cards import TEXT

MUNGER_1 = deal("munger", 1).split()
# Deal positions (0-based) of Munger's hidden cards: passes 1 and 3, and the stock.
HIDDEN_AT_START = [MUNGER_1[i] for i in [*range(0, 7), *range(14, 21), *range(35, 52)]]


def test_new_munger_view_has_no_hidden_card_code_anywhere() -> None:
    shown = json.dumps(new_game("munger", seed=1).view())
    for code in HIDDEN_AT_START:
        assert code not in shown
    visible = [MUNGER_1[i] for i in [*range(7, 14), *range(21, 35)]]
    for code in visible:
        assert code in shown


def test_munger_view_shapes() -> None:
    view = new_game("munger", seed=1).view()
    assert view["game"] == "munger"
    assert view["stock"] == {"count": 17, "known": []}
    assert view["tableau"][0] == [
        {"card": None, "face_up": False},
        {"card": MUNGER_1[7], "face_up": True},
        {"card": None, "face_up": False},
        {"card": MUNGER_1[21], "face_up": True},
    ]
    assert view["reserve"] == MUNGER_1[28:35]
    assert view["waste"] == []
    assert [f["count"] for f in view["foundations"]] == [0, 0, 0, 0]
    assert view["foundation_cards"] == 0


def test_full_view_shows_all_52() -> None:
    shown = json.dumps(new_game("munger", seed=1).view(full=True))
    assert all(code in shown for code in TEXT)


def test_drawn_card_is_revealed_and_stays_known_after_undo() -> None:
    game = new_game("munger", seed=1)
    first = MUNGER_1[35]
    assert game.push("S>W") == (TEXT.index(first),)
    assert game.view()["waste"] == [first]
    game.push("U")
    # Back on the stock, face down, but the player has seen it (docs/rules.md, "What the
    # player sees").
    assert game.view()["stock"] == {"count": 17, "known": [first]}
    assert MUNGER_1[36] not in json.dumps(game.view())


def test_flipped_card_is_revealed_and_stays_known_after_undo() -> None:
    game = new_game("munger", seed=1)  # T3's top TH fits on T5's JS; under it lies 7H
    under = MUNGER_1[16]
    revealed = game.push("T3>T5")
    assert [TEXT[c] for c in revealed] == [under]
    assert game.view()["tableau"][2][-1] == {"card": under, "face_up": True}
    game.push("U")
    assert game.view()["tableau"][2][2] == {"card": under, "face_up": False}
    # The card under it is still unknown.
    assert game.view()["tableau"][2][0] == {"card": None, "face_up": False}


def test_undone_move_reveals_nothing_new() -> None:
    game = new_game("munger", seed=1)
    game.push("R>F")
    assert game.push("U") == ()


def test_masterpiece_view_shows_everything() -> None:
    game = new_game("masterpiece", seed=1)
    view = game.view()
    shown = json.dumps(view)
    assert all(code in shown for code in TEXT)
    cards = deal("masterpiece", 1).split()
    assert [f["top"] for f in view["foundations"]] == cards[:4]
    assert view["main_rows"][0] == cards[4:9]
    assert view["auxiliary_rows"] == [cards[44:48], cards[48:52]]
    assert view["cellar"] is None and view["direction"] is None
    assert view == game.view(full=True)


def test_views_are_json_and_render_draws_them() -> None:
    for game in (Munger.from_seed(5), Masterpiece.from_seed(5)):
        json.dumps(game.view())
        assert game.title in game.render()
    hidden = Munger.from_seed(1).render(player=True)
    assert "##" in hidden and MUNGER_1[0] not in hidden.split()
    assert f"*{MUNGER_1[0]}" in Munger.from_seed(1).render()
