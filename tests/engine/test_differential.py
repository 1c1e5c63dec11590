"""Differential tests: the engine against the independent reference in tests/engine/reference.py.

The reference was written from the rules alone (docs/rules.md states them). For each game and many
seeds a seeded random player plays a game; at every position the reference's verdict (legal
move list, move count, foundation count, win flag) must equal the engine's. Now and then the
player undoes, or offers a malformed or illegal token, which both sides must reject at the same
index. At the end the whole replay verdict is compared.

The random player is biased (foundation moves; in Masterpiece auxiliary-row and cellar moves) so
that games reach foundation building in both directions and the cellar-out rule. Won positions
come from a small depth-first solver run on the reference (for a few fixed seeds that it solves
quickly) and from hand-built deals. Every failure message names the game, the seed or deal and
the history, so it reproduces with `replay(game, deal, history)`.
"""

from __future__ import annotations

import copy
import random
import sys

import pytest

from games.engine import deal, replay
from tests.engine.reference import (
    GAMES,
    MP_DESTINATIONS,
    MP_SOURCES,
    MUNGER_DESTINATIONS,
    MUNGER_SOURCES,
    ReferenceGame,
    reference_legal_moves,
    reference_replay,
    reference_verdict_of,
)

SEEDS = range(40)
MAX_MOVES = 150

SOURCES = {"munger": MUNGER_SOURCES, "masterpiece": MP_SOURCES}
DESTINATIONS = {"munger": MUNGER_DESTINATIONS, "masterpiece": MP_DESTINATIONS}
# Malformed tokens the random player offers (index checked in every random game).
MALFORMED = ["Z9>Q", "", "T1", "t1>t2", "m1>c", "M9>M1", "T8>F", "F>T1", "U>U", "u", "W>R", "C>A1"]
# Tokens with no or several '>': checked by their own test, so that one engine fault there does
# not stop the random games from looking for others.
MALFORMED_SHAPES = [">", "T1>>T2", "S>W S>W", ">F", "T1>", "S>W>F", "U U"]


# ---------------------------------------------------------------------------------------------
# Comparison helpers
# ---------------------------------------------------------------------------------------------


def engine_verdict(game: str, deal_string: str, history: list[str]) -> dict:
    r = replay(game, deal_string, history)
    texts = [m.text for m in r.game.legal_moves()]
    return {
        "valid": r.valid,
        "won": r.won,
        "moves": r.moves,
        "foundation_cards": r.foundation_cards,
        # Not re-sorted: docs/rules.md says the list is sorted as plain strings, so order counts.
        "legal": texts,
        "error_index": None if r.error is None else r.error.index,
    }


def describe(game: str, seed: object, deal_string: str, history: list[str]) -> str:
    shown = " ".join(repr(t) if " " in t or not t else t for t in history)
    return f"\ngame={game} seed={seed}\ndeal={deal_string}\nhistory ({len(history)} tokens)={shown}"


def assert_same(game: str, seed: object, deal_string: str, history: list[str], ref: dict) -> None:
    eng = engine_verdict(game, deal_string, history)
    if ref != eng:
        diffs = {k: (ref[k], eng[k]) for k in ref if ref[k] != eng[k]}
        pytest.fail(
            f"engine and reference disagree {{key: (reference, engine)}}: {diffs}"
            + describe(game, seed, deal_string, history),
            pytrace=False,
        )


def check_prefixes(game: str, seed: object, deal_string: str, history: list[str]) -> int:
    """Compare every prefix of `history` (played incrementally on the reference)."""
    g = ReferenceGame(game, deal_string)
    assert_same(game, seed, deal_string, [], reference_verdict_of(g))
    for n, token in enumerate(history, start=1):
        assert g.play(token), f"reference rejects {token!r}" + describe(
            game, seed, deal_string, history[:n]
        )
        assert_same(game, seed, deal_string, history[:n], reference_verdict_of(g))
    return len(history) + 1


# ---------------------------------------------------------------------------------------------
# Random games
# ---------------------------------------------------------------------------------------------


def bad_token(game: str, rng: random.Random, legal: list[str], can_undo: bool) -> str:
    """A malformed token, an undo of nothing, or a well-formed move that is illegal here."""
    if not can_undo and rng.random() < 0.3:
        return "U"
    if rng.random() < 0.4:
        return rng.choice(MALFORMED)
    for _ in range(50):
        token = f"{rng.choice(SOURCES[game])}>{rng.choice(DESTINATIONS[game])}"
        if token not in legal:
            return token
    return "Z9>Q"


def choose(game: str, rng: random.Random, legal: list[str]) -> str:
    """A biased random pick among the legal moves."""
    to_foundation = [m for m in legal if m.endswith(">F")]
    if to_foundation and rng.random() < 0.6:
        return rng.choice(to_foundation)
    if game == "masterpiece":
        # Empty the auxiliary rows (which opens the cellar), and use the cellar.
        from_aux = [m for m in legal if m.startswith("A") and not m.endswith(">C")]
        if from_aux and rng.random() < 0.6:
            return rng.choice(from_aux)
        cellar_out = [m for m in legal if m.startswith("C>")]
        if cellar_out and rng.random() < 0.5:
            return rng.choice(cellar_out)
        # Mostly avoid wasting the game on cellar shuffles.
        builds = [m for m in legal if not m.endswith(">C")]
        if builds and rng.random() < 0.7:
            return rng.choice(builds)
    else:
        # Munger: mostly leave the foundations alone and prefer tableau play over drawing.
        tableau = [m for m in legal if m.startswith(("T", "R", "W")) and not m.endswith(">F")]
        if tableau and rng.random() < 0.5:
            return rng.choice(tableau)
        not_back = [m for m in legal if not m.startswith("F")]
        if not_back and rng.random() < 0.8:
            return rng.choice(not_back)
    return rng.choice(legal)


def play_random_game(game: str, seed: int) -> dict:
    """Play one seeded random game, comparing at every step. Returns coverage facts."""
    rng = random.Random(f"{game}-{seed}")
    deal_string = deal(game, seed)
    ref = ReferenceGame(game, deal_string)
    history: list[str] = []
    seen = {
        "positions": 0,
        "rejections": 0,
        "directions": set(),
        "cellar_out_open": False,
        "max_foundation": 0,
    }
    while len(history) < MAX_MOVES:
        ref_now = reference_verdict_of(ref)
        assert_same(game, seed, deal_string, history, ref_now)
        seen["positions"] += 1
        legal = ref_now["legal"]
        seen["max_foundation"] = max(seen["max_foundation"], ref_now["foundation_cards"])
        if game == "masterpiece":
            if ref.state["direction"]:
                seen["directions"].add(ref.state["direction"])
            rows = ref.state["rows"]
            if ref.state["cellar"] and not (rows["A1"] and rows["A2"]):
                seen["cellar_out_open"] = True
        can_undo = bool(ref.undo_stack)

        # Now and then a token to reject, which must fail at this index on both sides.
        if rng.random() < 0.06:
            token = bad_token(game, rng, legal, can_undo)
            attempt = history + [token]
            assert not copy.deepcopy(ref).play(token), f"reference accepts bad token {token!r}"
            assert_same(game, seed, deal_string, attempt, reference_verdict_of(ref, len(history)))
            seen["rejections"] += 1
            continue

        if not legal and not can_undo:
            break
        undo = not legal or (can_undo and rng.random() < 0.06)
        token = "U" if undo else choose(game, rng, legal)
        assert ref.play(token), f"reference refuses its own move {token}"
        history.append(token)

    # The whole history, replayed from scratch on both sides.
    final = reference_replay(game, deal_string, history)
    assert final == reference_verdict_of(ref)
    assert_same(game, seed, deal_string, history, final)
    return seen


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.parametrize("game", ["munger", "masterpiece"])
def test_random_games_agree(game: str) -> None:
    positions = rejections = cellar_out = best = 0
    directions: set[str] = set()
    for seed in SEEDS:
        seen = play_random_game(game, seed)
        positions += seen["positions"]
        rejections += seen["rejections"]
        directions |= seen["directions"]
        cellar_out += seen["cellar_out_open"]
        best = max(best, seen["max_foundation"])
    print(
        f"\n{game}: {len(SEEDS)} seeds, {positions} positions and {rejections} rejected tokens "
        f"compared; best foundation {best}; directions {sorted(directions)}; "
        f"games with the cellar-out rule open {cellar_out}"
    )
    # The bias must actually reach the interesting rules, or the comparison proves little.
    if game == "masterpiece":
        assert directions == {"up", "down"}, directions
        assert cellar_out > 0
        assert best > 4
    else:
        assert best > 8


@pytest.mark.parametrize("game", ["munger", "masterpiece"])
@pytest.mark.parametrize("token", MALFORMED_SHAPES + MALFORMED)
def test_malformed_token_rejected_at_its_index(game: str, token: str) -> None:
    d = deal(game, 0)
    first = reference_legal_moves(game, d, [])[0]
    for history in ([token], [first, token], [first, "U", token]):
        assert_same(game, 0, d, history, reference_replay(game, d, history))


# ---------------------------------------------------------------------------------------------
# Won games: a depth-first solver on the reference, for seeds it solves in well under a second
# ---------------------------------------------------------------------------------------------


def move_rank(game: str, state: dict, move: str) -> int:
    """Move ordering for the solver: foundation moves first, pointless-looking moves last."""
    source, dest = move.split(">")
    if dest == "F":
        return 0
    if game == "munger":
        return {"F": 9, "S": 6, "R": 2, "W": 2}.get(source[0], 3)
    if source.startswith("A") and dest.startswith("M"):
        return 1
    if source == "C":
        return 2
    if dest == "C":
        return 5
    if not state["rows"][dest]:
        return 9 if source != "C" and len(state["rows"][source]) == 1 else 4
    return 3


def solve(game: str, deal_string: str, limit: int = 5000) -> list[str] | None:
    """A winning history found by depth-first search on the reference, or None."""
    rules = GAMES[game]
    seen: set[str] = set()
    nodes = 0

    def dfs(state: dict, path: list[str]) -> list[str] | None:
        nonlocal nodes
        nodes += 1
        if nodes > limit:
            return None
        if rules["foundation_cards"](state) == 52:
            return path
        key = repr(state)
        if key in seen:
            return None
        seen.add(key)
        for move in sorted(rules["legal"](state), key=lambda m: move_rank(game, state, m)):
            child = copy.deepcopy(state)
            rules["apply"](child, *move.split(">"))
            found = dfs(child, path + [move])
            if found:
                return found
        return None

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        return dfs(rules["new"](deal_string), [])
    finally:
        sys.setrecursionlimit(old)


# Seeds the solver above wins quickly (found once with it); for Masterpiece, with the first
# foundation card a 2 (up) or a King (down).
SOLVED = [
    pytest.param("munger", 13, marks=pytest.mark.slow),
    pytest.param("munger", 48, marks=pytest.mark.slow),
    ("masterpiece", 16),  # up
    ("masterpiece", 8),  # up
    ("masterpiece", 116),  # down
    ("masterpiece", 86),  # down
]


@pytest.mark.parametrize(("game", "seed"), SOLVED)
def test_solved_games_agree(game: str, seed: int) -> None:
    deal_string = deal(game, seed)
    solution = solve(game, deal_string)
    assert solution is not None, f"the solver no longer wins {game} seed {seed}"
    final = reference_replay(game, deal_string, solution)
    assert final["valid"] and final["won"] and final["foundation_cards"] == 52
    check_prefixes(game, deal_string=deal_string, seed=seed, history=solution)
    # Undo the winning move, redo it, and undo several at the end.
    for tail in (["U"], ["U", solution[-1]], ["U", "U", "U"]):
        history = solution + tail
        assert_same(game, seed, deal_string, history, reference_replay(game, deal_string, history))
    # After a win, anything but U is illegal in Masterpiece (foundation cards never leave).
    if game == "masterpiece":
        assert final["legal"] == []


# ---------------------------------------------------------------------------------------------
# Hand-built positions
# ---------------------------------------------------------------------------------------------

SUIT_ORDER = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def munger_winning_deal() -> tuple[str, list[str]]:
    """A Munger deal and a history that wins it: every card goes straight to a foundation.

    The cards are dealt in the order they become playable (each column from the top down, then
    the reserve from the top down, then the stock in drawing order): clubs A..K first, then
    diamonds, hearts, spades.
    """
    slots: list[int] = []  # 0-based deal positions, in the order their cards are played
    moves: list[str] = []
    for k in range(7):
        slots += [21 + k, 14 + k, 7 + k, k]
        moves += [f"T{k + 1}>F"] * 4
    slots += list(range(34, 27, -1))
    moves += ["R>F"] * 7
    slots += list(range(35, 52))
    moves += ["S>W", "W>F"] * 17
    cards = [""] * 52
    for card, slot in zip(SUIT_ORDER, slots, strict=True):
        cards[slot] = card
    return " ".join(cards), moves


def test_munger_hand_built_win() -> None:
    deal_string, moves = munger_winning_deal()
    won = reference_replay("munger", deal_string, moves)
    assert won["valid"] and won["won"] and won["foundation_cards"] == 52, won
    # Rule 6: foundation tops may go back to the tableau, so after the win each foundation King
    # may still go to each empty column.
    assert won["legal"] == sorted(f"F{s}>T{k}" for s in "CDHS" for k in range(1, 8))
    almost = reference_replay("munger", deal_string, moves[:-1])
    assert almost["valid"] and not almost["won"] and almost["foundation_cards"] == 51
    assert "W>F" in almost["legal"]
    undone = reference_replay("munger", deal_string, moves + ["U"])
    assert undone["valid"] and not undone["won"] and undone["foundation_cards"] == 51
    check_prefixes("munger", "hand-built", deal_string, moves + ["U", "W>F", "FS>T1", "T1>F"])


def masterpiece_winning_deal(direction: str) -> tuple[str, list[str]]:
    """A Masterpiece deal whose main rows, read from the free card inwards, are in foundation order.

    The 40 main-row cards are the first 40 of the foundation order (clubs, diamonds, hearts, then
    the first spades); the auxiliary rows hold the last 8 spades, which go to a foundation through
    an emptied main row (rule 10 forbids A>F).
    """
    ranks = "23456789TJQK" if direction == "up" else "KQJT98765432"
    sequence = [r + s for s in "CDHS" for r in ranks]
    rows = [list(reversed(sequence[5 * i : 5 * i + 5])) for i in range(8)]  # centre outwards
    a1 = list(reversed(sequence[40:44]))
    a2 = list(reversed(sequence[44:48]))
    cards = ["AC", "AD", "AH", "AS"] + [c for row in rows for c in row] + a1 + a2
    moves: list[str] = []
    for i in range(8):
        moves += [f"M{i + 1}>F"] * 5
    moves += ["A1>M1", "M1>F"] * 4 + ["A2>M1", "M1>F"] * 4
    return " ".join(cards), moves


@pytest.mark.parametrize("direction", ["up", "down"])
def test_masterpiece_hand_built_win(direction: str) -> None:
    deal_string, moves = masterpiece_winning_deal(direction)
    won = reference_replay("masterpiece", deal_string, moves)
    assert won["valid"] and won["won"] and won["foundation_cards"] == 52, won
    assert not reference_replay("masterpiece", deal_string, moves[:40] + ["A1>F"])["valid"]
    check_prefixes("masterpiece", f"hand-built {direction}", deal_string, moves + ["U", "U"])


def test_masterpiece_direction_unset_again_by_undo() -> None:
    # Seed 0's deal with M1's free card made 2C and M2's free card made KD (swapped into place).
    cards = deal("masterpiece", 0).split()
    for slot, card in ((8, "2C"), (13, "KD")):
        other = cards.index(card)
        cards[slot], cards[other] = cards[other], cards[slot]
    d = " ".join(cards)
    assert {"M1>F", "M2>F"} <= set(reference_legal_moves("masterpiece", d, []))
    assert "M2>F" not in reference_legal_moves("masterpiece", d, ["M1>F"])  # up: no King
    assert "M2>F" in reference_legal_moves("masterpiece", d, ["M1>F", "U"])  # unset again
    after_king = reference_replay("masterpiece", d, ["M1>F", "U", "M2>F"])
    assert after_king["valid"] and "M1>F" not in after_king["legal"]  # down: no 2 on an Ace
    for history in (
        ["M1>F"],
        ["M1>F", "U"],
        ["M1>F", "U", "M2>F"],
        ["M1>F", "U", "M2>F", "U", "M1>F"],
        ["M1>F", "M2>F"],
        ["U"],
    ):
        assert_same(
            "masterpiece",
            "seed 0, swapped",
            d,
            history,
            reference_replay("masterpiece", d, history),
        )


def test_munger_undo_turns_revealed_card_back_down() -> None:
    d = deal("munger", 0)
    assert "T7>F" in reference_legal_moves("munger", d, [])
    g = ReferenceGame("munger", d)
    assert g.play("T7>F")
    assert g.state["columns"]["T7"][-1]["up"]  # rule 12: the face-down card under it turned up
    assert g.play("U")
    assert [e["up"] for e in g.state["columns"]["T7"]] == [False, True, False, True]
    for history in (["T7>F"], ["T7>F", "U"], ["T7>F", "U", "U"], ["T7>F", "U", "T7>F"]):
        assert_same("munger", 0, d, history, reference_replay("munger", d, history))


def test_reference_legal_moves_matches_replay() -> None:
    d = deal("munger", 0)
    assert reference_legal_moves("munger", d, []) == reference_replay("munger", d, [])["legal"]
    assert reference_legal_moves("munger", d, []) == ["S>W", "T2>T4", "T4>T1", "T7>F"]
