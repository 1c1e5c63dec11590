"""The play page's catalogue: every word its scripts show (card and pile names, actions,
statuses and messages), translated here into the request's language.

The page embeds it as a `<script type="application/json" id="strings">` block (the
`frontend_strings_json` tag) and frontend/static/frontend/game/strings.js reads it from there.
Placeholders are written `{name}` for the scripts to fill in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from frontend.vocabulary import clock_note, clock_policy

#: A number of each plural category the scripts ask for (`Intl.PluralRules`): gettext picks
#: the form of each language for it ("other" is 2: Russian fractions take the form of 2).
PLURAL_SAMPLES = {"one": 1, "few": 2, "many": 5, "other": 2}


def plural_forms(form: Callable[[int], str]) -> dict[str, str]:
    """A plural entry of the catalogue: `form(n)` (an `ngettext` call) for each category of
    `PLURAL_SAMPLES`; the scripts' `t(key, {n})` picks one (common/text.js)."""
    return {category: form(n) for category, n in PLURAL_SAMPLES.items()}


def refusal_sentences() -> dict[str, str]:
    """A sentence per reason an illegal move is refused (`games.engine.errors.REFUSALS`), keyed
    `refusal_<reason>`, its placeholders the refusal's facts in words
    (frontend/static/frontend/game/refusal.js); and the words those facts need."""
    return {
        "refusal_stock_empty": _("The stock is empty, and there is no redeal."),
        "refusal_pile_empty": _("{place}: empty, nothing to take."),
        "refusal_foundation_empty": _(
            "{card} cannot go to its foundation yet: the {suit} foundation starts with the ace."
        ),
        "refusal_foundation_next": _(
            "{card} cannot go to its foundation yet: the {suit} foundation takes the {rank} next."
        ),
        "refusal_foundation_start": _(
            "{card} cannot start a foundation: the first card on an ace is a two (building up) "
            "or a king (building down)."
        ),
        "refusal_column_takes": _("{card} cannot go on {onto}: only a {colour} {rank} goes there."),
        "refusal_nothing_on_ace": _("Nothing goes on an ace ({onto})."),
        "refusal_empty_takes_king": _("{place} is empty: only a king goes there, not {card}."),
        "refusal_no_run": _(
            "No face-up run of {place} starts with the {colour} {rank} that {onto} needs."
        ),
        "refusal_no_king_run": _(
            "No run of {place} starts with a king, and empty {to} takes only a king."
        ),
        "refusal_row_takes": _(
            "{card} cannot go on {onto}: only the {ranks} of its suit goes there."
        ),
        "refusal_cellar_full": _("The cellar already holds {card}: it takes one card."),
        "refusal_cellar_locked": _("{card} stays in the cellar until an auxiliary row is empty."),
        "refusal_aux_to_foundation": _(
            "A card of {place} reaches a foundation only through a main row or the cellar."
        ),
        "refusal_never_placed": _("{place}: no card is ever placed there."),
        "refusal_stock_to_waste_only": _("The stock deals only to the waste."),
        "refusal_foundation_to_tableau_only": _("A foundation card goes back only to a column."),
        "refusal_same_pile": _("A card cannot go back where it is ({place})."),
        "refusal_nothing_to_undo": _("There is no move to undo."),
        "refusal_not_top": _("{card} is covered: only a pile's top card goes to a foundation."),
        "refusal_other": _("That move is not allowed here."),
        "refusal_or": _(" or "),
        "colour_red": _("red"),
        "colour_black": _("black"),
        "direction_up": _("up"),
        "direction_down": _("down"),
    }


def start_refusal_sentences() -> dict[str, str]:
    """A sentence per reason the start of a daily still played for the boards is refused (409,
    games/errors.py), keyed `start_<code>`, `{until}` the end of its ranked play: the play page
    says it instead of drawing a table (the view, and frontend/static/frontend/game/game.js when
    the start itself is refused)."""
    return {
        "start_daily_played_here": _(
            "You have played today’s daily from this browser; it opens for practice once its "
            "day is over ({until})."
        ),
        "start_daily_address_full": _(
            "Today’s daily has been played ranked by as many players from your connection as "
            "it allows. On a shared connection (a school, an office), log in to an account to "
            "play it ranked: each account has its own row. It opens for practice once its day "
            "is over ({until})."
        ),
        "start_daily_running": _(
            "This daily is still being played for the boards: it opens for practice once its "
            "day is over ({until})."
        ),
    }


def frontend_strings(request: Any = None) -> dict[str, Any]:
    """The play page's catalogue (the keys of frontend/static/frontend/game/strings.js) in the
    active language: the request's, which the page view has switched on. Card and pile words are
    lower case, for use inside sentences ("moved seven of hearts to column 3")."""
    return {
        "loading": _("Dealing…"),
        "started": _("Your game has started."),
        "clock_policy": clock_policy(),
        "clock_note": clock_note(),
        "deal_note": _("This daily deal is proven winnable: the server's solver has won it."),
        "par_proven_note": _("Its par, shown at the end, is the fewest moves possible."),
        "rank_note_ranked": _(
            "Ranked: an undo counts as a move, and fewer moves rank higher; a ranked game has "
            "no hints."
        ),
        "rank_note_practice": _(
            "Practice, not ranked: hints are allowed, and your result counts them."
        ),
        "resumed": _("Your game is back where you left it."),
        "moves": _("Moves"),
        "time": _("Time"),
        "par": _("Par"),
        "par_unknown": _("not known yet"),
        "ranked": _("Ranked"),
        "practice": _("Practice, not ranked"),
        "undo": _("Undo (counts as a move)"),
        "undo_short": pgettext("button", "Undo"),
        "undo_cost": _("(counts as a move)"),
        "undo_hint": _("Takes back your last move. The undo itself counts as a move."),
        "hint": _("Hint"),
        "hint_title": _(
            "Shows a move after which a win is still within reach (key H). Practice only; "
            "hints are counted."
        ),
        "hint_move": _("Hint: move {card} from {from} to {place}."),
        "hint_draw": _("Hint: draw from the stock."),
        "hint_undo": _("No win from here: undo {n} moves."),
        "hint_undo_one": _("No win from here: undo the last move."),
        "hint_no_win": _("This deal cannot be won, not even from its start."),
        # The search ran out of time here, but knows the game could still be won {n} moves ago.
        "hint_unsure": plural_forms(
            lambda n: ngettext(
                "Not decided in time. The game could still be won {n} move ago: undo it to be "
                "sure, or play on.",
                "Not decided in time. The game could still be won {n} moves ago: undo them to be "
                "sure, or play on.",
                n,
            )
        ),
        "hint_timeout": _("No hint found in time. Try again after your next move."),
        "hint_throttled": _("Too many hints at once: wait a moment."),
        "hints_used": _("Hints"),
        "finish": _("Finish"),
        "resign": _("Resign"),
        "resign_title": _("Resign this game?"),
        "resign_question": _(
            "Resigning ends this game for good. Your cards on the foundations are kept."
        ),
        "resign_confirm": _("Resign"),
        "resign_cancel": _("Keep playing"),
        "four_colour": _("Four-colour deck"),
        "large_index": _("Large card corners"),
        "auto_move": _("Auto-move safe cards to the foundations"),
        "auto_move_note": _(
            "After each of your moves, cards that can never be needed elsewhere go up one by "
            "one; it stops when you act. Each counts as a move, in ranked games too."
        ),
        "announce_auto": _("Auto-move: {what}"),
        "day_over": _(
            "The day of this ranked game is over: it stays on the board as it stood at your "
            "last move. You can go on from here unranked."
        ),
        "continue_practice": _("Continue unranked"),
        "continued": _("You are playing on unranked, from where your ranked game stood."),
        "blocked": _("No card move left: undo or resign."),
        "board_label": _("{game} table"),
        "keyboard_help": _(
            "Keyboard: Tab to the table, arrow keys to move between piles, Home and End to a "
            "pile's first and last card, Enter or Space to pick up, then arrows and Enter to "
            "put down; Escape cancels. U undoes; S says the position; ? shows the rules and "
            "keys."
        ),
        "target_mark": _("▼ here"),
        "selected": _("Picked up {card}. It can go to: {places}."),
        "selected_no_move": _("Picked up {card}. It has no move right now."),
        "selection_cleared": _("Put back."),
        "other_run": _("Only the run led by {card} can go to {place}."),
        "no_redeal": _("no redeal"),
        "no_redeal_hint": _("The stock is empty: there is no redeal."),
        "stock_label": _("Stock: {n} cards face down. Activate to draw one."),
        "stock_label_one": _("Stock: 1 card face down. Activate to draw it."),
        "stock_empty_label": _("Stock: empty, no redeal"),
        "pile_label": pgettext("pile, in a sentence", "{pile}: {n} cards, top {top}"),
        "pile_label_one": pgettext("pile, in a sentence", "{pile}: 1 card, {top}"),
        "pile_label_empty": pgettext("pile, in a sentence", "{pile}: empty"),
        "foundation_label": _("Foundation of {suit}: {n} cards, top {top}"),
        "foundation_label_one": _("Foundation of {suit}: {top}"),
        "direction_open": _(
            "Foundations: the direction is not fixed yet (a 2 builds up, a King builds down)."
        ),
        # The direction line over Masterpiece's table (a refusal's facts say "up" and "down":
        # `direction_up`, `direction_down`, below).
        "direction_line_up": _("Foundations build up: Ace, 2, 3 … King."),
        "direction_line_down": _("Foundations build down: Ace, King, Queen … 2."),
        "announce_move": _("moved {card} to {place}."),
        "announce_draw": _("drew {card}."),
        "announce_revealed": _("revealed {card}."),
        "announce_undo": _("Took back the last move."),
        "announce_won": _("You won!"),
        "announce_resigned": _("You resigned."),
        "finished": _("Finished: the last cards went to the foundations."),
        "resynced": _("The game changed elsewhere (another tab?): the table is up to date now."),
        "reconnected": _("Connection back: the table is up to date."),
        "network": _("No connection to the server. Trying again…"),
        "throttled": _("Too many moves at once: wait a moment."),
        "error": _("Something went wrong. Reload the page to carry on."),
        "live": _("Live: other tabs of this game follow your moves."),
        "live_lost": _("Live connection lost: moves still work, reconnecting…"),
        "end_won": _("You won!"),
        "end_resigned": _("You resigned."),
        "foundation_cards": _("Cards on the foundations"),
        "share": _("Copy result"),
        "share_native": _("Share result"),
        "share_label": _("Your result, to share"),
        "share_won": _("Patience Daily · {game} · {date} · won in {moves} · {time}"),
        "share_resigned": _("Patience Daily · {game} · {date} · resigned after {moves} · {time}"),
        "undos": _("Undos"),
        "n_moves": plural_forms(lambda n: ngettext("{n} move", "{n} moves", n)),
        "n_undos": plural_forms(lambda n: ngettext("{n} undo", "{n} undos", n)),
        "n_hints": plural_forms(lambda n: ngettext("{n} hint", "{n} hints", n)),
        "no_undo": _("no undo"),
        "n_cards": plural_forms(lambda n: ngettext("{n} card", "{n} cards", n)),
        "copied": _("Copied"),
        "shared": _("Shared"),
        "copy_manually": _("Selected: press Ctrl+C (or ⌘C) to copy."),
        "home_link": _("Back to today’s games"),
        "end_loading": _("Loading…"),
        "rank": _("Rank"),
        "rank_of": _("{rank} of {total}"),
        "rank_practice": _("none: practice is not ranked"),
        "rank_held": _("none while the result is under review"),
        "rank_disqualified": _("none: disqualified"),
        "rank_none": _("not on the board"),
        "rank_failed": _("could not be loaded"),
        "week_title": _("Your week"),
        "n_points": plural_forms(lambda n: ngettext("{n} point", "{n} points", n)),
        "week_today": _("Today: rank {rank} of {players} so far, worth {points} if it holds."),
        "week_today_held": _("Today’s result counts once a reviewer approves it."),
        "week_so_far": _("This week so far: {points}, rank {rank} of {players}."),
        "week_none_yet": _(
            "This week so far: no points yet (a day’s points come once it is over)."
        ),
        "week_with_today": _("With today’s: {points}, rank {rank} against the days already over."),
        "week_league": _("{name}: rank {rank} of {members} this week, {rank_today} with today’s."),
        "week_failed": _("Your week could not be loaded."),
        "share_league": _("{name}: rank {rank} of {members} this week"),
        "review_held": _("Under review"),
        "review_held_note": _(
            "This result is not on the public board until a reviewer approves it."
        ),
        "review_disqualified": _("Disqualified"),
        "review_reason": _("Reviewer’s reason: {reason}"),
        "histogram_title": _("Moves in the day’s wins"),
        "histogram_row": _("{low} to {high} moves, wins: {n}"),
        "histogram_you": _("your result"),
        "histogram_empty": _("No ranked win that day yet."),
        "histogram_failed": _("The day’s figures could not be loaded."),
        "name_offer_title": _("Your name on the boards"),
        "name_offer_text": _(
            "Your result shows as {name} on the day’s board. Choose the name the boards show:"
        ),
        "name_offer_label": _("Your name"),
        "name_offer_save": _("Save the name"),
        "name_offer_skip": _("Keep {name}"),
        "name_offer_saved": _("Saved: the boards show you as {name}."),
        "name_offer_taken": _("That name is taken: please choose another one."),
        "name_offer_bad": _(
            "Use 2 to 24 letters, digits, spaces and . ' - _ (not starting with “Guest”)."
        ),
        "name_offer_throttled": _("Too many tries: please wait a minute and try again."),
        "name_offer_failed": _("Something went wrong. Please try again."),
        "analysis_link": _("Analyse my game"),
        "analysis_opens": _("Analysis opens at {time}"),
        "race_offer": _("Challenge a friend on this deal"),
        "race_offer_failed": _("The race could not be made. Please try again."),
        "solution_title": _("The solver’s line"),
        "solution_intro": _(
            "A winning line the solver found for this deal, {n} moves long: step through it."
        ),
        "solution_start": _("The deal, before the first move"),
        "solution_step": _("Move {i} of {n}"),
        "solution_first": _("Start"),
        "solution_previous": _("Previous"),
        "solution_next": _("Next"),
        "solution_last": _("End"),
        "solution_slider": _("Move of the solver’s line"),
        "solution_board": _("The solver’s line: the table after the move shown"),
        "solution_failed": _("The solver’s line could not be loaded."),
        "settings": _("Settings"),
        "one_tap": _("One-tap moves"),
        "speed": _("Card speed"),
        "speed_normal": _("Normal"),
        "speed_fast": _("Fast"),
        "speed_instant": _("Instant"),
        "keys_button": _("Keys and rules"),
        "help_title": _("Rules and keys"),
        "help_tap": _(
            "Tap a card to send it to its foundation, or to its only place; a card with "
            "several places is picked up: tap where it goes. Dragging works too. One-tap "
            "moves can be turned off in Settings."
        ),
        "keys_arrows": _("Arrow keys"),
        "keys_arrows_do": _(
            "move between piles; up and down go to the pile above or below on the screen"
        ),
        "keys_home_end": _("Home, End"),
        "keys_home_end_do": _("point at the first or the last face-up card of a pile"),
        "keys_shift": _("Shift+arrows"),
        "keys_shift_do": _(
            "point at the card before or after, the way the pile is fanned (down a column, "
            "along a row); with a run picked up, choose a shorter or a longer run"
        ),
        "keys_enter": _("Enter, Space"),
        "keys_enter_do": _("draw, pick up (from the card pointed at) or put down"),
        "keys_escape": _("Escape"),
        "keys_escape_do": _("put back what is picked up"),
        "keys_u_do": _("undo (counts as a move)"),
        "keys_question_do": _("this help"),
        "keys_s_do": _(
            "say the position in short: cards on the foundations, stock and waste, moves, time"
        ),
        "summary_foundations": plural_forms(
            lambda n: ngettext(
                "{n} card of 52 on the foundations.", "{n} cards of 52 on the foundations.", n
            )
        ),
        "summary_stock": _("Stock: {stock}; waste: {waste}."),
        "summary_time": _("Time {time}."),
        "other_tab": _("In another tab: {what}"),
        "keys_h_do": _("a hint, where hints are allowed (practice and past days)"),
        "help_rules": _("The full rules of {game}"),
        "close": _("Close"),
        "takes_king": _("takes a King, or a run led by a King"),
        "takes_card": _("takes the {card}"),
        "takes_any": _("takes any free card"),
        "takes_nothing": _("nothing is put here"),
        "takes_draws": _("cards drawn from the stock come here"),
        "slot_waste": _("Waste"),
        "slot_any": _("Any card"),
        "pile_label_empty_takes": pgettext("pile, in a sentence", "{pile}: empty, {takes}"),
        "face_up": _("face up"),
        "card_face_down": _("face-down card"),
        "card_generic": _("the cards"),
        "position": _("{i} of {n}"),
        "card_name": _("{rank} of {suit}"),
        "rank_A": pgettext("rank, in a sentence", "ace"),
        "rank_2": pgettext("rank, in a sentence", "two"),
        "rank_3": pgettext("rank, in a sentence", "three"),
        "rank_4": pgettext("rank, in a sentence", "four"),
        "rank_5": pgettext("rank, in a sentence", "five"),
        "rank_6": pgettext("rank, in a sentence", "six"),
        "rank_7": pgettext("rank, in a sentence", "seven"),
        "rank_8": pgettext("rank, in a sentence", "eight"),
        "rank_9": pgettext("rank, in a sentence", "nine"),
        "rank_T": pgettext("rank, in a sentence", "ten"),
        "rank_J": pgettext("rank, in a sentence", "jack"),
        "rank_Q": pgettext("rank, in a sentence", "queen"),
        "rank_K": pgettext("rank, in a sentence", "king"),
        "suit_C": pgettext("suit, in a sentence", "clubs"),
        "suit_D": pgettext("suit, in a sentence", "diamonds"),
        "suit_H": pgettext("suit, in a sentence", "hearts"),
        "suit_S": pgettext("suit, in a sentence", "spades"),
        "pile_column": pgettext("pile, in a sentence", "column {n}"),
        "pile_main_row": pgettext("pile, in a sentence", "main row {n}"),
        "pile_aux_row": pgettext("pile, in a sentence", "auxiliary row {n}"),
        "pile_reserve": pgettext("pile, in a sentence", "reserve"),
        "pile_waste": pgettext("pile, in a sentence", "waste"),
        "pile_stock": pgettext("pile, in a sentence", "stock"),
        "pile_foundation": pgettext("pile, in a sentence", "foundation"),
        "pile_foundations": pgettext("pile, in a sentence", "foundations"),
        "pile_suit_foundation": pgettext("pile, in a sentence", "{suit} foundation"),
        "pile_cellar": pgettext("pile, in a sentence", "cellar"),
        **refusal_sentences(),
        **start_refusal_sentences(),
    }
