"""The site's vocabulary: how the pages name games, difficulties and results.

The games themselves come from the engine's registry (`games.engine.GAMES`): their names, their
titles and the title in the game's own language. What the site adds is text of its own: each
game's one-line summary, and the words for difficulties and results. The translations of the
titles live in the catalogues under the context "game" (a test walks every registered game and
checks that each has them, with a summary and a rules page).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from games.engine import GAMES
from games.models import Attempt


@dataclass(frozen=True)
class GamePage:
    """How the site presents one game: its URL name, display names and a one-line summary."""

    slug: str
    name: Any  # lazily translated
    native_name: str
    summary: Any  # lazily translated


#: One line per game, shown on the home page under its name.
SUMMARIES: dict[str, Any] = {
    "munger": gettext_lazy(
        "A tight Canfield-style patience: half-hidden tableau columns, a visible reserve "
        "and a single pass through the stock."
    ),
    "masterpiece": gettext_lazy(
        "An open patience where every card is visible from the start: build rows by suit "
        "and use the one-card cellar wisely."
    ),
}

#: Every registered game, in the registry's order.
GAME_PAGES: dict[str, GamePage] = {
    name: GamePage(
        slug=name,
        name=pgettext_lazy("game", cls.title),
        native_name=cls.native_title,
        summary=SUMMARIES[name],
    )
    for name, cls in GAMES.items()
}

DIFFICULTY_WORDS = {
    1: gettext_lazy("Very easy"),
    2: gettext_lazy("Easy"),
    3: gettext_lazy("Medium"),
    4: gettext_lazy("Hard"),
    5: gettext_lazy("Very hard"),
}

STATUS_WORDS = {
    Attempt.Status.PLAYING: gettext_lazy("In progress"),
    Attempt.Status.WON: gettext_lazy("Won"),
    Attempt.Status.RESIGNED: gettext_lazy("Resigned"),
}

#: A text mark per status, so a result never relies on colour alone.
STATUS_MARKS = {Attempt.Status.PLAYING: "…", Attempt.Status.WON: "✓", Attempt.Status.RESIGNED: "✗"}

#: A board's word for an unfinished game its player has left (no move for a while: the row's
#: `left`, leaderboards.board.PLAYING_WINDOW); a next move makes it "In progress" again.
LEFT_WORD = pgettext_lazy("a board's unfinished game, no move for a while", "Left")


def difficulty_info(level: int | None) -> dict[str, Any] | None:
    """A difficulty of 1 to 5 as words and pips (filled and empty), or None when unknown."""
    if level is None:
        return None
    return {
        "level": level,
        "word": DIFFICULTY_WORDS.get(level, str(level)),
        "pips": [index < level for index in range(5)],
    }


def review_of(attempt: Attempt) -> str:
    """What the player is told of the fair-play review (docs/fair-play.md): "disqualified"
    (with the reviewer's reason), "held" (under review, off the public board), else ""."""
    if attempt.disqualified:
        return "disqualified"
    return "held" if attempt.review_told and attempt.review == Attempt.Review.HELD else ""


def analysis_info(attempt: Attempt) -> dict[str, Any]:
    """Whether the attempt's move-by-move analysis may be opened now (`available`), else when
    it opens (`opens_at`, ISO, and `opens_text` in UTC, which the page's script says in the
    reader's local time): the attempt state's `analysis`."""
    access = attempt.analysis_access()
    opens = attempt.analysis_opens_at() if access["opens_at"] else None
    return {**access, "opens_text": opens.strftime("%Y-%m-%d %H:%M UTC") if opens else ""}


def result_info(attempt: Attempt | None) -> dict[str, Any] | None:
    """An attempt's result as the pages show it: status in words and as a mark, moves and the
    undos among them, cards on the foundations, what the review says, and whether its
    analysis may be opened (`analysis_info`)."""
    if attempt is None:
        return None
    return {
        "id": attempt.pk,
        "analysis": analysis_info(attempt),
        "status": attempt.status,
        "word": STATUS_WORDS[Attempt.Status(attempt.status)],
        "mark": STATUS_MARKS[Attempt.Status(attempt.status)],
        "moves": attempt.move_count,
        "undos": attempt.undos,
        "foundation_cards": attempt.foundation_cards,
        "ranked": attempt.ranked,
        "review": review_of(attempt),
        "disqualified_reason": attempt.disqualified_reason if attempt.disqualified else "",
    }


def clock_policy() -> str:
    """The clock's rule in words, with the longest pause it counts (`Attempt.MAX_PAUSE_MS`):
    said on the play page before the first move and on the rules pages."""
    seconds = Attempt.MAX_PAUSE_MS // 1000
    return ngettext(
        "The clock counts your playing time, measured by the server: each pause, before your "
        "first move or between two moves, counts for at most %(n)d second, so time away from "
        "the game is not held against you.",
        "The clock counts your playing time, measured by the server: each pause, before your "
        "first move or between two moves, counts for at most %(n)d seconds, so time away from "
        "the game is not held against you.",
        seconds,
    ) % {"n": seconds}


def clock_note() -> str:
    """The clock's rule in short, with the longest pause it counts: said on the play page
    before the first move (`clock_policy` says it at length)."""
    seconds = Attempt.MAX_PAUSE_MS // 1000
    return ngettext(
        "The server keeps the time: a pause, even before your first move, counts for at most "
        "%(n)d second.",
        "The server keeps the time: a pause, even before your first move, counts for at most "
        "%(n)d seconds.",
        seconds,
    ) % {"n": seconds}


def deal_promise() -> str:
    """What every daily deal is promised to be: said on the play page before the first move
    and on the rules pages."""
    return gettext(
        "Every daily deal is proven winnable: before it is published, the server's solver "
        "finds a winning line for it."
    )
