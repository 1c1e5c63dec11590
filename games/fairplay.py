"""Fair play: plausibility checks on finished ranked results (docs/fair-play.md).

Nobody signs up to play, so the board cannot trust who plays; it can look at how a result was
played. Every finished ranked result that the replay verifier accepted is checked against the
rules of `RULES`, each a named, documented rule with its threshold per game, all in that one
table. A result that trips one or more is held (`Attempt.review = "held"`, the reasons in
`Attempt.held_reasons`): it stays off the public board (`AttemptQuerySet.on_board`), its player
sees "under review", and it waits in the admin's review queue (games/admin/review.py) for an
admin to approve it (ranked again) or disqualify it (with a reason the player sees).

The checks are pure functions of the game, the move tokens, the server's per-move times (ms
since the deal was first shown) and the solver's certificate: `check` needs no database, so
benchmarks/fairplay.py runs them on generated games; `hold_if_implausible` is the model hook
that the services call when a ranked attempt finishes.

Times are the server's (when each move arrived), never the client's. The server plays a
finishing line (`attempt_finish`) in one request, storing all its foundation moves at the same
millisecond: such a trailing batch counts as one action of the player, not as many instant
moves.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from games.engine.solver.analysis import analyse, kept_moves

UNDO = "U"
#: Munger's draw from the stock to the waste.
DRAW = "S>W"


def net_line(moves: Sequence[str]) -> list[str]:
    """The moves that stand once every undo (`U`) has taken back the move before it: a line
    that replays to the same position, without the detours.

    >>> net_line(["S>W", "W>T1", "U", "S>W", "U", "R>F"])
    ['S>W', 'R>F']
    """
    return [moves[index] for index in kept_moves(moves)]


@dataclass(frozen=True)
class Play:
    """What the checks look at: one finished game as the server recorded it."""

    game: str
    moves: Sequence[str]
    #: Per move, the server's milliseconds since the deal was first shown (`started_at`).
    move_times: Sequence[int]
    #: The solver's winning line for the deal (empty when unknown).
    certificate: Sequence[str] = ()
    #: The game is won (a win's length is compared with the par).
    won: bool = False
    #: The deal's stored par (None: the certificate's length).
    par: int | None = None
    #: The par is proven shortest (no win is shorter): then accuracy's bound is exact.
    par_proven: bool = False
    #: For a game not won: a winning line's length from where it stands (an upper bound on
    #: the moves it still needs), when a search found one; None: unknown.
    remaining: int | None = None
    #: The win's distance profile (`perfection`), measured off the request path; None before.
    perfection: Mapping[str, Any] | None = None
    #: Every winning line the project's solver gave for the deal (`Deal.solver_lines`): what a
    #: cheater running the shipped solver plays. The certificate may be another line since (a
    #: player's win that lowered the par).
    solver_lines: Sequence[Sequence[str]] = ()
    #: The ranked attempts at the daily from the household of the address the game came from
    #: (`attempts`: the address, an IPv6 /64), with the household's limit (`household`,
    #: `RANKED_STARTS_PER_ADDRESS`), as the service that judges the game counts them; None:
    #: not counted (the rule `shared_address` says nothing then).
    address_attempts: Mapping[str, int] | None = None

    @cached_property
    def finished_by_server(self) -> int:
        """The moves of a trailing run of foundation moves stored at the same millisecond (the
        server's finishing line, one request) beyond its first: 0 when there is none."""
        times, moves = self.move_times, self.moves
        count = 0
        while (
            count + 2 <= len(times)
            and times[-1 - count] == times[-2 - count]
            and moves[-1 - count].endswith(">F")
            and moves[-2 - count].endswith(">F")
        ):
            count += 1
        return count

    @cached_property
    def action_times(self) -> list[int]:
        """The times of the player's actions: one per move, except that the server's finishing
        line (`finished_by_server`) is one action, and so is a run of stock draws (`S>W`) in a
        row: flipping through the stock is a few quick clicks on one pile, not a move found
        each time."""
        kept = len(self.moves) - self.finished_by_server
        times, moves = list(self.move_times[:kept]), list(self.moves[:kept])
        return [
            time
            for index, (time, move) in enumerate(zip(times, moves, strict=True))
            if not (move == DRAW and index and moves[index - 1] == DRAW)
        ]

    @cached_property
    def own_moves(self) -> int:
        """The net line's moves the player chose: all but a trailing finishing line that the
        server played (see `action_times`)."""
        finished = self.finished_by_server
        return len(self.net_line) - (finished + 1 if finished else 0)

    @cached_property
    def gaps(self) -> list[int]:
        """Milliseconds between consecutive actions."""
        times = self.action_times
        return [b - a for a, b in zip(times, times[1:], strict=False)]

    @property
    def first_move_ms(self) -> int | None:
        """Milliseconds from the deal first shown to the first move."""
        return self.move_times[0] if self.move_times else None

    @cached_property
    def net_line(self) -> list[str]:
        """The moves that stand once every undo has taken back the move before it."""
        return net_line(self.moves)

    @cached_property
    def certificate_prefix(self) -> int:
        """How many first moves of the net line are the certificate's first moves."""
        return _common_prefix(self.net_line, self.certificate)

    def solver_prefix(self, line: Sequence[str]) -> int:
        """How many first moves of the net line are `line`'s first moves."""
        return _common_prefix(self.net_line, line)


def _common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


#: What a rule measures on a play: its figures by name, `value` the one compared with the
#: threshold; None when the play says too little to judge.
Figures = dict[str, Any]
Measure = Callable[[Play], Figures | None]


@dataclass(frozen=True)
class Also:
    """A second way to trip a rule, at a fixed bound: its figure `figure` at least `at_least`."""

    figure: str
    at_least: float
    detail: str


@dataclass(frozen=True)
class Rule:
    """One plausibility check, declared: its name (stored in `held_reasons`), the threshold
    per game (in `unit`), what it measures, the detail shown when it trips, what it means and
    why its threshold is where it is.

    A rule trips when its measured `value` is under the game's threshold (or, with `also`, when
    another figure reaches a fixed bound); `detail` is formatted with the figures and
    `threshold`."""

    name: str
    threshold: Mapping[str, float]
    unit: str
    measure: Measure
    detail: str
    description: str
    why: str
    also: Also | None = None
    #: False: the rule never holds a game alone, only beside another rule that trips.
    alone: bool = True

    def for_game(self, game: str) -> float:
        try:
            return self.threshold[game]
        except KeyError:
            raise LookupError(f"fair-play rule {self.name} has no threshold for {game!r}") from None

    def check(self, play: Play) -> str | None:
        """The detail to show when `play` trips this rule, else None."""
        figures = self.measure(play)
        if figures is None:
            return None
        threshold = self.for_game(play.game)
        if figures["value"] < threshold:
            return self.detail.format(**figures, threshold=threshold)
        if self.also is not None and figures[self.also.figure] >= self.also.at_least:
            return self.also.detail.format(**figures, threshold=threshold)
        return None


# -- what the rules measure ------------------------------------------------------------------

#: Fewer actions than this say too little about a rhythm or a pace to hold anyone.
MIN_ACTIONS_PACE = 10
MIN_GAPS_RHYTHM = 20
#: machine_rhythm also trips when this share of the gaps lie within `RHYTHM_BAND_MS` of the
#: median gap, whatever the spread of the rest (a metronome with a few pauses).
RHYTHM_BAND_MS = 10
RHYTHM_BAND_SHARE = 0.5
#: certificate_at_machine_speed looks at lines sharing at least this share of the certificate.
CERTIFICATE_SHARE = 0.6


def _pace(play: Play) -> Figures | None:
    """Seconds per action on average, first action to last."""
    times = play.action_times
    if len(times) < MIN_ACTIONS_PACE:
        return None
    span = (times[-1] - times[0]) / 1000
    return {"value": span / (len(times) - 1), "actions": len(times), "span": span}


def _rhythm(play: Play) -> Figures | None:
    """The gaps' coefficient of variation, and the share of them close to their median."""
    gaps = play.gaps
    if len(gaps) < MIN_GAPS_RHYTHM:
        return None
    mean = statistics.fmean(gaps)
    median = statistics.median(gaps)
    # The population deviation in floats: `statistics.pstdev` sums whole gaps as exact
    # fractions, four times the CPU, and this runs after every move.
    spread = math.sqrt(math.fsum((g - mean) ** 2 for g in gaps) / len(gaps))
    return {
        "value": spread / mean if mean > 0 else 0.0,
        "gaps": len(gaps),
        "mean": mean,
        "median": median,
        "close": sum(abs(g - median) <= RHYTHM_BAND_MS for g in gaps) / len(gaps),
    }


def _first_move(play: Play) -> Figures | None:
    """Seconds from the deal shown to the first move."""
    first = play.first_move_ms
    return None if first is None else {"value": first / 1000}


def _certificate_pace(play: Play) -> Figures | None:
    """The median gap in seconds, of a play that follows most of the certificate from its
    start."""
    par = len(play.certificate)
    if not par or play.certificate_prefix < max(MIN_ACTIONS_PACE, CERTIFICATE_SHARE * par):
        return None
    if not play.gaps:
        return None
    median = statistics.median(play.gaps) / 1000
    return {"value": median, "prefix": play.certificate_prefix, "par": par}


def _under_par(play: Play) -> Figures | None:
    """A win's moves (undos included, as boards count them) against the par, the length of
    the certificate: how many moves under it (negative)."""
    par = play.par if play.par is not None else len(play.certificate)
    if not play.won or not par:
        return None
    return {"value": len(play.moves) - par, "moves": len(play.moves), "par": par}


#: accuracy and solver_line judge games of at least this many net moves.
MIN_MOVES_PERFECTION = 30
#: accuracy holds a game that wasted less than this share of its net moves (the fewest moves
#: to a win rose by that many): under all but the rarest honest win of the benchmark's players,
#: experts included (docs/fair-play.md, "Figures": at most 2% of them).
ACCURACY_WASTED = {"masterpiece": 0.06, "munger": 0.08}
#: solver_line holds a win whose net line follows more than this share of the solver's line.
SOLVER_LINE_SHARE = 0.9
#: The budget of one perfection measure, in seconds of a worker (off the request path).
PERFECTION_SECONDS = 60.0


def perfection(
    game: str,
    deal_string: str,
    moves: Sequence[str],
    *,
    par: int | None = None,
    time_limit: float | None = PERFECTION_SECONDS,
) -> dict[str, Any] | None:
    """How closely a game's net line (undo pairs removed) follows shortest play: for each of
    its moves, the solver's exact distance to a win after it (the server knows the whole deal),
    and how many moves did not bring the win exactly one move closer (`misses`) among those
    whose distances were settled within the budget (`decided`). `value` is misses / decided;
    `distances` the distance after each net move (None where unknown), `start` the deal's.
    `par`, when proven shortest, saves the first search. None when nothing was settled."""
    line = net_line(moves)
    if not line:
        return None
    report = analyse(
        game, deal_string, line, par=par, time_limit=time_limit, position_limit=None, explain=False
    )
    distances = [point.distance for point in report.points]
    decided = [
        after == before - 1
        for before, after in itertools.pairwise(distances)
        if before is not None and after is not None
    ]
    if not decided:
        return None
    misses = decided.count(False)
    return {
        "moves": len(line),
        "decided": len(decided),
        "misses": misses,
        "value": misses / len(decided),
        "start": distances[0],
        "distances": distances[1:],
    }


def most_misses(measured: Mapping[str, Any]) -> int:
    """The most moves of a measured win (`perfection`) that can have failed to bring it one
    move closer, whatever share of them the budget settled: every unsettled move counted as a
    miss, and never more than the net line's moves beyond the deal's distance (a move brings a
    win at most one move closer, so at least `start` of them did)."""
    moves = int(measured["moves"])
    high = int(measured["misses"]) + moves - int(measured["decided"])
    if measured.get("start") is not None:
        high = min(high, moves - int(measured["start"]))
    return max(0, high)


def _accuracy(play: Play) -> Figures | None:
    """At most what share of a game's net moves (undo pairs removed) let the fewest moves to
    a win rise: moves wasted. From the deal's par alone, with no search: a move brings a win at
    most one move closer, so a win of N net moves from a par of D wasted at most N - D of them
    (exactly that many when no move wasted more than one), and a game stopped with a line of
    R moves still to go wasted at most N - (D - R). With a proven par this is a bound on the
    game's accuracy against perfect play; otherwise it is measured against the best line known,
    as the honest players' figures are. The distance profile (`perfection`), when a worker
    measured it, can only tighten it. None for a game too short to say anything, or a game not
    won whose remaining distance no search bounded."""
    par = play.par if play.par is not None else len(play.certificate)
    moves = len(play.net_line)
    if not par or moves < MIN_MOVES_PERFECTION:
        return None
    remaining = 0 if play.won else play.remaining
    if remaining is None:
        return None
    wasted = max(0, moves - (par - remaining))
    measured = play.perfection
    if play.won and measured is not None and measured.get("moves") == moves:
        wasted = min(wasted, most_misses(measured))
    return {
        "value": wasted / moves,
        "accuracy": 1 - wasted / moves,
        "wasted": wasted,
        "moves": moves,
        "par": par,
        "remaining": remaining,
        "proven_words": " (proven shortest)" if play.par_proven else " (the best line known)",
    }


def _solver_line(play: Play) -> Figures | None:
    """The share of a game's own moves (or of the solver's line, when that is shorter) that
    were not one of the solver's lines from its start, for the line it follows furthest. For
    games not won: a bot that parks the solver's line short of the end sits above every honest
    loser, and `accuracy` can judge a game not won only once a search has bounded what it
    still needs (at the day's end); a win is `accuracy`'s."""
    if play.won:
        return None
    best: Figures | None = None
    for line in play.solver_lines:
        played = min(play.own_moves, len(line))
        if played < MIN_MOVES_PERFECTION:
            continue
        prefix = min(play.solver_prefix(line), played)
        figures = {"value": 1 - prefix / played, "prefix": prefix, "played": played}
        if best is None or figures["value"] < best["value"]:
            best = figures
    return best


#: The rules, their thresholds per game, and why. docs/fair-play.md explains each.
RULES: tuple[Rule, ...] = (
    Rule(
        name="too_fast",
        threshold={"masterpiece": 0.7, "munger": 0.5},
        unit="s per move",
        measure=_pace,
        detail="{actions} actions in {span:.1f} s: {value:.2f} s per move on average, under the "
        "floor of {threshold:g} s",
        description="The whole game, first move to last, played faster on average than a floor "
        f"per move (at least {MIN_ACTIONS_PACE} actions).",
        why="Every move is a drag or two clicks after finding it. People average two to four "
        "seconds a move, the fastest about one; streaks of obvious foundation moves go at half "
        "a second, but a whole game does not. Munger's floor is lower: a stock draw is one "
        "quick click.",
    ),
    Rule(
        name="machine_rhythm",
        threshold={"masterpiece": 0.15, "munger": 0.15},
        unit="coefficient of variation",
        measure=_rhythm,
        detail="{gaps} gaps between moves of {mean:.0f} ms on average vary by {value:.2f} of it "
        "(coefficient of variation), under {threshold:g}",
        also=Also(
            figure="close",
            at_least=RHYTHM_BAND_SHARE,
            detail="{close:.0%} of {gaps} gaps between moves lie within "
            f"{RHYTHM_BAND_MS} ms of {{median:.0f}} ms",
        ),
        description="The gaps between moves are too regular: their coefficient of variation "
        f"(standard deviation / mean) under the threshold, or {RHYTHM_BAND_SHARE:.0%} of them "
        f"within {RHYTHM_BAND_MS} ms of the median (at least {MIN_GAPS_RHYTHM} gaps).",
        why="People think longer about some moves than others: their gaps vary by about as "
        "much as their mean (coefficient near 1 or more). A bot on a timer, even with some "
        "jitter, stays within a few tens of milliseconds of its period.",
    ),
    Rule(
        name="instant_first_move",
        threshold={"masterpiece": 1.5, "munger": 0.7},
        unit="s",
        measure=_first_move,
        detail="first move {value:.2f} s after the deal was shown, under {threshold:g} s",
        description="The first move arrived sooner after the deal was shown than a person can "
        "look at it. Never holds a game alone: a person's obvious first move can be quick.",
        why="A Masterpiece deal is 52 open cards to read before any move makes sense; a Munger "
        "deal shows fewer, but the page still has to be seen and a card dragged. A program "
        "that reads the deal from the API answers in milliseconds.",
        alone=False,
    ),
    Rule(
        name="certificate_at_machine_speed",
        threshold={"masterpiece": 0.5, "munger": 0.5},
        unit="s median gap",
        measure=_certificate_pace,
        detail="the first {prefix} of the solver's {par} moves played as it did, with a median "
        "gap of {value:.2f} s, under {threshold:g} s",
        description=f"At least {CERTIFICATE_SHARE:.0%} of the solver's winning line, from its "
        "start, played move for move (undone moves aside) with a median gap under the "
        "threshold.",
        why="The solver's line is never shown while the day runs; a person may find much of it "
        "on an easy deal, but not with most moves under half a second. The floor is under a "
        "second because streaks of obvious foundation moves pull a fast player's median down: "
        "fast human-like games on the solver's line have medians of 0.5 to 0.65 s.",
    ),
    Rule(
        name="solver_line",
        threshold={"masterpiece": 1 - SOLVER_LINE_SHARE, "munger": 1 - SOLVER_LINE_SHARE},
        unit="share of the solver's line not followed",
        measure=_solver_line,
        detail="{prefix} of the game's first {played} moves were the solver's line for the "
        "deal, move for move (undone moves aside), at any pace",
        description=f"A game not won (resigned, or still on the board) whose net line (undo "
        f"pairs removed) is, for more than "
        f"{SOLVER_LINE_SHARE:.0%} of its moves from the start (a finishing line the server "
        "played aside), the solver's own winning line for the deal (at least "
        f"{MIN_MOVES_PERFECTION} such moves).",
        why="A deal has a great many winning lines, and people wait, reorder and try things: "
        "no honest game measured follows the solver's line for long. A bot that parks the "
        "solver's line one card short of the end sits above every honest loser; `accuracy` "
        "judges a game not won only once a search has bounded what it still needs (the day's "
        "end), and this holds the plainest such line at once. A win is `accuracy`'s to judge.",
    ),
    Rule(
        name="under_par",
        threshold={"masterpiece": 0, "munger": 0},
        unit="moves over par",
        measure=_under_par,
        detail="won in {moves} moves, under the stored par of {par}: the par was not a floor "
        "(it has been lowered to this line and is being proven again)",
        description="A verified win in fewer moves than the par. The par is meant to be the "
        "fewest moves any win can take, so either the solver's par was not proven, or "
        "something is wrong; the result waits for a person, the par is corrected.",
        why="Pars are proven shortest where the exact search finishes (every Masterpiece "
        "daily, most Munger ones); a win below one is either a par that was only an upper "
        "bound, or a line found by a stronger search than ours.",
    ),
    Rule(
        name="accuracy",
        threshold=ACCURACY_WASTED,
        unit="share of moves wasted (1 - accuracy)",
        measure=_accuracy,
        detail="{accuracy:.1%} accuracy: at most {wasted} of the game's {moves} moves (undone "
        "moves aside) let the fewest moves to a win rise, from a par of {par}{proven_words}: "
        "under {threshold:.0%} wasted, play as close to perfect as a solver's",
        description="How close a game came to perfect play, as chess servers judge engine use: "
        "the share of its moves (undo pairs removed) that kept the fewest moves to a win from "
        "rising, at least. From the par alone: a win of N moves from a par of D wasted at most "
        "N - D moves, whatever order it played them in and whatever solver found them; a game "
        "not won is judged once a search bounded what it still needs. The game is held when it "
        f"wasted less than this share of its moves (at least {MIN_MOVES_PERFECTION} moves).",
        why="A person finds their own way: moves that wait, reorder or try something, and each "
        "costs a move. The honest players of the benchmark, strong and fast ones included, "
        "waste far more than this (docs/fair-play.md, Figures); a line from any solver, in any "
        "order, at any pace, wastes next to nothing, and a cheater who adds wrong turns to hide "
        "pays for each with a place on the board. A person looks at each such result before "
        "anything happens to it.",
    ),
    Rule(
        name="shared_address",
        threshold={"masterpiece": 0, "munger": 0},
        unit="places left under a household's ranked attempts (negative: over)",
        # The places a household's limit had left at the win: the attempts counted by the
        # service that judges it (`Play.address_attempts`); a win only.
        measure=lambda play: (
            None
            if play.address_attempts is None or not play.won
            else {
                "value": play.address_attempts["household"] - play.address_attempts["attempts"],
                **play.address_attempts,
            }
        ),
        detail="a win from an address that started {attempts} ranked attempts at this daily, "
        "more than a household's {household}: see the linked attempts of the same daily",
        description="A verified ranked win from an address (for IPv6, its /64) that started "
        "more ranked attempts at the daily than a household may as guests "
        "(RANKED_STARTS_PER_ADDRESS), counted when the game is won. Only accounts get past "
        "that limit: the win waits beside its siblings, which the page lists with their "
        "timings.",
        why="Guests past a household's attempts are refused the daily, so more rows from one "
        "address are accounts: a classroom signed in, or one person keeping the best of many "
        "accounts (a probe that uncovered the deal, then the win). Only the siblings tell "
        "which: their accounts, browsers and timings, one after the other. A reviewer approves "
        "a classroom's results in a click.",
    ),
)

RULES_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}


def check(
    game: str,
    moves: Sequence[str],
    move_times: Sequence[int],
    certificate: Sequence[str] = (),
    *,
    won: bool = False,
    par: int | None = None,
    par_proven: bool = False,
    remaining: int | None = None,
    perfection: Mapping[str, Any] | None = None,
    solver_lines: Sequence[Sequence[str]] | None = None,
) -> list[dict[str, str]]:
    """The rules a game trips: `[{"rule": name, "detail": why}]`, empty if none. A rule that
    never holds alone (`Rule.alone`) is listed only beside one that does.

    `move_times` are the server's milliseconds since the deal was first shown, one per move;
    `certificate` the solver's winning line for the deal (empty when unknown); `won`, whether
    the game is won; `par` the deal's stored par (default: the certificate's length) and
    `par_proven` whether it is proven shortest; `remaining`, for a game not won, a winning
    line's length from where it stands, when a search found one; `perfection` the win's
    distance profile (`perfection`), when it was measured; `solver_lines` every line the
    solver gave for the deal (default: the certificate alone)."""
    if len(moves) != len(move_times):
        raise ValueError(f"{len(moves)} moves but {len(move_times)} times")
    play = Play(
        game=game,
        moves=moves,
        move_times=move_times,
        certificate=certificate,
        won=won,
        par=par,
        par_proven=par_proven,
        remaining=remaining,
        perfection=perfection,
        solver_lines=[certificate] if solver_lines is None else solver_lines,
    )
    reasons, alone = [], False
    for rule in RULES:
        detail = rule.check(play)
        if detail is not None:
            reasons.append({"rule": rule.name, "detail": detail})
            alone = alone or rule.alone
    return reasons if alone else []


def check_attempt(attempt: Any) -> list[dict[str, str]]:
    """`check` on an attempt's stored history, against its daily's certificate."""
    from games.models import Attempt

    deal = attempt.daily.deal if attempt.daily_id else None
    won = attempt.status == Attempt.Status.WON
    measured = attempt.perfection or {}
    return check(
        attempt.game,
        attempt.moves,
        attempt.move_times,
        deal.certificate if deal else [],
        won=won,
        par=deal.par if deal else None,
        par_proven=bool(deal and deal.par_optimal),
        remaining=None if won else measured.get("remaining"),
        perfection=attempt.perfection if won else None,
        solver_lines=(deal.solver_lines or []) if deal else [],
    )


#: Moves an unfinished ranked attempt has made before it is checked (fewer say too little).
MIN_MOVES_UNFINISHED = MIN_ACTIONS_PACE


def hold_if_implausible(attempt: Any) -> list[dict[str, str]]:
    """Run the checks on a ranked attempt as it now stands, and hold it for review when it
    trips any: sets `review` and `held_reasons` in memory, for the caller's save. Returns the
    reasons (empty if none).

    Every row a board can show is checked: a finished, verified result (after `_verify`), and
    an unfinished attempt after each of its moves from `MIN_MOVES_UNFINISHED` on, and once more
    when its day's ranked play ends (`services.daily_close`): a game parked short of the end
    is held like a finished one. The hold of an unfinished game is provisional: when the game
    ends and its whole history trips nothing, it is lifted; a finished result's hold waits for
    an admin. Practice, unverified results and results an admin has decided are left alone.
    """
    from games.models import Attempt

    playing = attempt.status == Attempt.Status.PLAYING
    if (
        not attempt.ranked
        or attempt.disqualified
        or attempt.review == Attempt.Review.APPROVED
        or (playing and attempt.move_count < MIN_MOVES_UNFINISHED)
        or (not playing and not attempt.verified)
    ):
        return []
    reasons = check_attempt(attempt)
    if reasons:
        attempt.review = Attempt.Review.HELD
        attempt.held_reasons = reasons
    elif not playing and attempt.review == Attempt.Review.HELD:
        attempt.review = Attempt.Review.NONE  # a provisional hold, lifted by the whole game
        attempt.held_reasons = []
    return reasons
