"""Template helpers of the site: the play page's string catalogue, language names.

`frontend_strings(request)` is the one place that translates what the game screen's scripts
show: card and pile names, actions, statuses and messages. The play page puts it in the page as
`{% frontend_strings_json %}` (a `<script type="application/json" id="strings">` block) and its
modules read it from there. Placeholders are written `{name}` for the scripts to fill in.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

register = template.Library()

RANK_CODES = "A23456789TJQK"
SUIT_CODES = "CDHS"


def _ranks() -> dict[str, str]:
    names = [
        pgettext("rank", "Ace"),
        pgettext("rank", "Two"),
        pgettext("rank", "Three"),
        pgettext("rank", "Four"),
        pgettext("rank", "Five"),
        pgettext("rank", "Six"),
        pgettext("rank", "Seven"),
        pgettext("rank", "Eight"),
        pgettext("rank", "Nine"),
        pgettext("rank", "Ten"),
        pgettext("rank", "Jack"),
        pgettext("rank", "Queen"),
        pgettext("rank", "King"),
    ]
    return {f"rank.{code}": name for code, name in zip(RANK_CODES, names, strict=True)}


def _suits() -> dict[str, str]:
    names = [
        pgettext("suit", "clubs"),
        pgettext("suit", "diamonds"),
        pgettext("suit", "hearts"),
        pgettext("suit", "spades"),
    ]
    return {f"suit.{code}": name for code, name in zip(SUIT_CODES, names, strict=True)}


def frontend_strings(request: Any = None) -> dict[str, str]:
    """The game screen's strings in the active language (the request's, set by the view)."""
    return {
        **_ranks(),
        **_suits(),
        # "{rank} of {suit}": the Ten of spades, le Dix de pique, Десятка пик.
        "card": _("{rank} of {suit}"),
        "card.face_down": _("face-down card"),
        "card.none": _("no card"),
        "pile.column": pgettext("pile", "column"),
        "pile.column_n": pgettext("pile", "Column {n}"),
        "pile.reserve": pgettext("pile", "reserve"),
        "pile.waste": pgettext("pile", "waste"),
        "pile.stock": pgettext("pile", "stock"),
        "pile.stock_count": _("{count} cards in the stock"),
        "pile.cellar": pgettext("pile", "cellar"),
        "pile.foundation": pgettext("pile", "foundation"),
        "pile.foundation_of": _("foundation of {suit}"),
        "pile.main_row": pgettext("pile", "main row"),
        "pile.main_row_n": pgettext("pile", "Main row {n}"),
        "pile.auxiliary_row": pgettext("pile", "auxiliary row"),
        "pile.auxiliary_row_n": pgettext("pile", "Auxiliary row {n}"),
        "pile.empty": _("empty"),
        "action.draw": pgettext("action", "Draw"),
        "action.undo": pgettext("action", "Undo"),
        "action.resign": pgettext("action", "Resign"),
        "action.hint": pgettext("action", "Hint"),
        "action.new_game": pgettext("action", "New game"),
        "action.play_again": pgettext("action", "Play again"),
        "action.to_foundation": _("Move to the foundation"),
        "action.select": _("Select {card}"),
        "action.move": _("Move {card} to {pile}"),
        "action.cancel": _("Cancel"),
        "status.playing": _("In progress"),
        "status.won": _("Won"),
        "status.stuck": _("Stuck"),
        "status.abandoned": _("Resigned"),
        "label.moves": _("Moves"),
        "label.time": _("Time"),
        "label.par": _("Par"),
        "label.practice": _("Practice"),
        "label.daily": _("Daily"),
        "message.won": _("You won in {moves} moves!"),
        "message.stuck": _("No move is left: the game is over."),
        "message.illegal": _("That move is not allowed: {reason}"),
        "message.rule": _("rule {n}"),
        "message.offline": _("The server cannot be reached. Your last move was not saved."),
        "message.throttled": _("Too many moves at once: please slow down."),
        "message.not_found": _("There is no daily for this day."),
        "message.confirm_resign": _("Give up this game? It will count as played."),
        "message.revealed": _("{card} is turned face up"),
    }


@register.simple_tag(takes_context=True)
def frontend_strings_json(context: template.Context) -> SafeString:
    """The catalogue as `<script type="application/json" id="strings">`."""
    return json_script(frontend_strings(context.get("request")), "strings")


@register.simple_tag
def site_languages() -> list[tuple[str, str]]:
    from frontend.views import SITE_LANGUAGES

    return SITE_LANGUAGES
