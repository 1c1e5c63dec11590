"""A hidden-card walk: no card the player has not seen may appear anywhere, at any moment.

A player plays a whole certified Munger daily on a live server (the certificate, with detours:
draws and other moves taken back with undos), over the play socket and over HTTP, while a
watcher follows the daily socket. At every step the test collects every page (home, play,
board, archive, me, account, rules), every API answer (state, moves, dailies, leaderboards,
stats) and every socket message, and checks that none of them carries the code of a card that
is still unseen by this player at that moment. The engine says which cards those are: the
history replayed on an engine game, minus what it has revealed (a card seen once stays known,
even when an undo turns it face down again or puts it back on the stock).

Codes are matched as whole two-character words (`TS`, `2C`) inside JSON string values and in
HTML, never as parts of other words.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from websockets.sync.client import connect

from games.engine import game_class
from games.engine.cards import TEXT
from tests.faults.live import Client, Server, dailies_ready, ws_headers

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DETOUR_EVERY = 9  # moves of the certificate between two detours


def unseen(deal_string: str, history: list[str]) -> set[str]:
    """The codes of the cards the player has not seen after `history`."""
    game = game_class("munger").from_deal(deal_string)
    for token in history:
        game.push(token)
    return {TEXT[c] for c in range(52) if c not in game.revealed}


def strings(value: Any) -> list[str]:
    """Every string value (and key) in a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def leaks(texts: list[str], hidden: set[str]) -> set[str]:
    if not hidden:
        return set()
    pattern = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(sorted(hidden)) + r")(?![A-Za-z0-9])")
    return {match for text in texts for match in pattern.findall(text)}


class Walk:
    def __init__(self, server: Server, player: Client, daily, attempt_id: int) -> None:
        self.server, self.player, self.daily = server, player, daily
        self.attempt_id = attempt_id
        self.deal = daily.deal.deal_string
        self.history: list[str] = []
        self.looked = 0
        day = daily.date.isoformat()
        self.pages = [
            "/",
            "/play/munger/",
            f"/play/munger/{day}/",
            "/board/",
            f"/board/munger/{day}/",
            "/archive/",
            "/me/",
            "/account/",
            "/rules/munger/",
        ]
        self.api = [
            f"/api/attempts/{attempt_id}/",
            "/api/dailies/",
            f"/api/dailies/munger/{day}/",
            f"/api/leaderboards/munger/{day}/",
            f"/api/leaderboards/munger/{day}/?around=me",
            f"/api/leaderboards/munger/{day}/distribution/",
            "/api/leaderboards/all-time/",
            "/api/players/me/",
            "/api/players/me/attempts/",
            "/api/players/me/stats/",
        ]

    def check(self, what: str, texts: list[str], history: list[str] | None = None) -> None:
        hidden = unseen(self.deal, self.history if history is None else history)
        found = leaks(texts, hidden)
        assert not found, f"{what} shows unseen cards {sorted(found)} at move {len(self.history)}"
        self.looked += 1

    def look_everywhere(self) -> None:
        for path in self.pages:
            status, _, body = self.player.request("GET", path)
            assert status < 500, path
            self.check(path, [body.decode(errors="replace")])
        for path in self.api:
            status, answer = self.player.get(path)
            assert status < 500, path
            self.check(path, strings(answer))

    def check_messages(self, socket, what: str, wait: float = 0.05) -> list[dict]:
        got = []
        while True:
            try:
                message = json.loads(socket.recv(timeout=wait))
            except TimeoutError:
                return got
            got.append(message)
            state = message.get("state")
            upto = self.history[: state["seq"]] if isinstance(state, dict) else None
            self.check(f"{what} {message.get('type')}", strings(message), upto)


@pytest.mark.long
def test_no_unseen_card_shows_anywhere_during_a_whole_game(start_server):
    daily = dailies_ready("munger")
    certificate = list(daily.deal.certificate)
    server = start_server()
    player = server.client()
    status, state = player.post(f"/api/dailies/munger/{daily.date.isoformat()}/attempts/")
    assert status == 201, state
    assert any(card["card"] is None for pile in state["view"]["tableau"] for card in pile)
    assert state["view"]["stock"]["count"] > 0 and not state["view"]["stock"]["known"]
    walk = Walk(server, player, daily, state["id"])
    assert len(unseen(walk.deal, [])) == 31  # 14 face down in the tableau, 17 in the stock
    everything = game_class("munger").from_deal(walk.deal).view(full=True)
    assert leaks(strings(everything), unseen(walk.deal, []))  # the check would catch a leak
    walk.check("the start", strings(state))

    day = daily.date.isoformat()
    with (
        connect(
            server.ws_url(f"/ws/play/{state['id']}/"),
            additional_headers=ws_headers(server, player.token),
            open_timeout=10,
        ) as play,
        connect(
            server.ws_url(f"/ws/daily/munger/{day}/"),
            additional_headers=ws_headers(server, None),
            open_timeout=10,
        ) as watcher,
    ):
        walk.check_messages(play, "play socket", wait=2)
        walk.check_messages(watcher, "daily socket", wait=2)
        undone_draws = 0

        def move(token: str, over_http: bool) -> dict:
            seq = len(walk.history)
            if over_http:
                status, answer = player.post(
                    f"/api/attempts/{state['id']}/moves/", {"seq": seq, "move": token}
                )
                assert status == 200, answer
            else:
                play.send(json.dumps({"type": "move", "seq": seq, "move": token}))
                while True:  # the push of an earlier HTTP move may come first
                    message = json.loads(play.recv(timeout=10))
                    assert message["type"] == "state", message
                    if message["state"]["seq"] == seq + 1:
                        answer = message["state"]
                        break
                    walk.check(f"a push before the answer to {token}", strings(message))
            walk.history.append(token)
            walk.check(f"the answer to {token}", strings(answer))
            walk.check_messages(play, "play socket")
            watcher.send(json.dumps({"type": "ping"}))  # a silent watcher is closed after 60 s
            walk.check_messages(watcher, "daily socket")
            walk.look_everywhere()
            return answer

        for i, token in enumerate(certificate):
            if i % DETOUR_EVERY == DETOUR_EVERY - 1 and not state.get("finishable"):
                detours = [m for m in state["legal"] if m != token]
                if detours:
                    draw = "S>W" if "S>W" in detours else None
                    state = move(draw or detours[-1], over_http=True)
                    state = move("U", over_http=False)
                    undone_draws += draw is not None
            state = move(token, over_http=i % 2 == 0)
        assert state["status"] == "won" and state["verified"]
        walk.check_messages(play, "play socket", wait=1)
        walk.check_messages(watcher, "daily socket", wait=1)
    assert undone_draws >= 1  # a card drawn, then put back on the stock: known from then on
    assert "U" in walk.history and walk.looked > 20 * len(certificate)
