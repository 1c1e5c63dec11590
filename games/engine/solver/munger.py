"""Munger for the solver: a compact state, move generation with full knowledge of the deal,
dominances and the dead-position test (docs/solver.md proves each).

The state is a pair of immutable byte strings, so a step builds a new state and shares what it
does not change, and a state is cheap to keep (the best-first searches keep thousands):

- `columns`: seven `bytes`, bottom to top, a face-down card stored as its number plus 64;
- `tail`: the four foundation counts (C D H S), the number of reserve cards left, the number of
  stock cards drawn, then the waste, bottom to top.

The reserve and the stock only ever lose their top card, so the rules keep them once, as dealt
(`reserve`, `stock` in drawing order), and the state only counts what is left.

Steps (the moves of the search tree) are small tuples, turned into move tokens only for the
line that is returned (`tokens`). A stock step is "draw k cards, then play the card now on top
of the waste" (k >= 0): draws only change the stock and the waste, so a winning line can always
be reordered to draw just before each play from the waste.

Three modes (`SolverRules`): `exact` keeps only dominances that never lengthen the shortest win
(the par and distance searches); `decide` adds ones that keep winnability but may cost moves;
`plain` has none, for the tests that check the others:

- Safe foundation moves (`exact`, `decide`): a card of rank r that can go up goes up at once
  when both foundations of the other colour hold at least r - 1 cards and the other one of its
  colour at least r - 2. Such a card is never pulled back down, and a stock step never buries
  one under the waste.
- Reversible foundation moves (`decide`): a column's top card that can go up and lies on a card
  it fits (or is a lone King) goes up at once, since one pull-down brings it back. A pulled-down
  card is then offered only together with the moves that cover it.
- Part of a run moves only when the card it uncovers can then go to its foundation (`decide`).
- A King-led run at the bottom of a column never moves to another empty column, and of several
  empty columns only the first is offered (the key ignores the order of the columns): all modes
  but `plain`.
- Dead positions (`dead`): a least fixpoint of what could ever happen to each card, ignoring
  when it happens; a card that could never reach its foundation proves the position lost.
"""

from __future__ import annotations

from ..base import Game
from ..cards import KING, RANK, RED, SUIT, SUITS
from ..munger import Munger
from .rules import DECIDE, PLAIN, Child, SolverRules, Step

#: A face-down card is stored as its number plus HIDDEN.
HIDDEN = 64
#: Indices into the tail: foundations 0-3, then these, then the waste.
RES, DRAWN, WASTE = 4, 5, 6
#: A state: (columns, tail).
State = tuple[tuple[bytes, ...], bytes]

# Step kinds. The fields after the kind:
TF = 0  # (TF, i): column i to its foundation
RF = 1  # (RF,): the reserve top to its foundation
WF = 2  # (WF, k): draw k cards (k >= 0), then the waste top to its foundation
TT = 3  # (TT, i, j, p): the run of column i from index p onto column j
RT = 4  # (RT, j): the reserve top onto column j
WT = 5  # (WT, k, j): draw k cards, then the waste top onto column j
FT = 6  # (FT, s, j): the top card of suit s's foundation down onto column j
SEQ = 7  # (SEQ, steps): a pull-down together with what covers it (deciding only)

BYTE = tuple(bytes((b,)) for b in range(256))
OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))  # per suit C D H S: the other colour's suits
SAME_COLOUR = (3, 2, 1, 0)  # the other suit of the same colour
#: ON[c]: the two cards that card c fits on (one rank higher, other colour; none for a King).
ON: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in range(52) if RANK[t] == RANK[c] + 1 and RED[t] != RED[c]) for c in range(52)
)
#: UNDER[c]: the two cards that fit on card c (one rank lower, other colour; none for an Ace).
UNDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(x for x in range(52) if RANK[x] == RANK[c] - 1 and RED[x] != RED[c]) for c in range(52)
)
#: FITS[x][c]: card x fits on card c (c may carry the HIDDEN mark, which never fits).
FITS: tuple[frozenset[int], ...] = tuple(frozenset(ON[x]) for x in range(52))

#: The dead-position test holds sets of cards as ints: card c is bit LANE * suit + rank - 1.
LANE = 16
LANE_SHIFTS = (0, LANE, 2 * LANE, 3 * LANE)
RANKS_MASK = (1 << 13) - 1
CARD_BIT = tuple(1 << (LANE * SUIT[c] + RANK[c] - 1) for c in range(52))
ALL_CARDS = sum(CARD_BIT)
KING_BITS = sum(CARD_BIT[c] for c in range(52) if RANK[c] == KING)
LANE_ONES = sum(1 << shift for shift in LANE_SHIFTS)
ACES = LANE_ONES


def under(cards: int) -> int:
    """The cards that fit on some card of the set `cards` (one rank lower, other colour)."""
    black = (cards | cards >> 3 * LANE) & RANKS_MASK
    red = (cards >> LANE | cards >> 2 * LANE) & RANKS_MASK
    black >>= 1
    red >>= 1
    return red | black << LANE | black << 2 * LANE | red << 3 * LANE


def sitters(cards: int) -> int:
    """The cards on which some card of the set `cards` fits (one rank higher, other colour)."""
    black = (cards | cards >> 3 * LANE) & RANKS_MASK
    red = (cards >> LANE | cards >> 2 * LANE) & RANKS_MASK
    black = black << 1 & RANKS_MASK
    red = red << 1 & RANKS_MASK
    return red | black << LANE | black << 2 * LANE | red << 3 * LANE


COLUMN = tuple(f"T{k}" for k in range(1, 8))
NOWHERE: list[int] = []
DRAW = "S>W"
TOKEN_TF = tuple(f"{c}>F" for c in COLUMN)
TOKEN_TT = tuple(tuple(f"{a}>{b}" for b in COLUMN) for a in COLUMN)
TOKEN_RT = tuple(f"R>{c}" for c in COLUMN)
TOKEN_WT = tuple(f"W>{c}" for c in COLUMN)
TOKEN_FT = tuple(tuple(f"F{s}>{c}" for c in COLUMN) for s in SUITS)


def safe(card: int, tail: bytes) -> bool:
    """Whether `card`, next on its foundation, may go up at once (docs/solver.md, "Munger:
    safe foundation moves"): nothing that could ever need it in the tableau is still in play."""
    rank = RANK[card]
    suit = SUIT[card]
    a, b = OTHER_COLOUR[suit]
    return tail[a] >= rank - 1 and tail[b] >= rank - 1 and tail[SAME_COLOUR[suit]] >= rank - 2


#: NEXT_CARDS[foundation counts]: the cards that go on the foundations next (a cache).
NEXT_CARDS: dict[bytes, frozenset[int]] = {}


def next_cards(tail: bytes) -> frozenset[int]:
    """The cards that can go on their foundations next, given a tail's foundation counts."""
    counts = tail[:4]
    cards = NEXT_CARDS.get(counts)
    if cards is None:
        cards = NEXT_CARDS[counts] = frozenset(
            s * 13 + counts[s] for s in range(4) if counts[s] < 13
        )
    return cards


def run_start(column: bytes) -> int:
    """Index of the lowest card of the face-up run on top of a non-empty column."""
    p = len(column) - 1
    while p > 0 and column[p - 1] in FITS[column[p]]:
        p -= 1
    return p


def _flip(column: bytes) -> bytes:
    """Rule 12: a face-down card left on top turns face up."""
    if column and column[-1] >= HIDDEN:
        return column[:-1] + BYTE[column[-1] - HIDDEN]
    return column


#: TWIN[c]: the other card of c's rank and colour (clubs and spades, diamonds and hearts).
TWIN = tuple((3 - SUIT[c]) * 13 + RANK[c] - 1 for c in range(52))


def twin_normal(columns: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """The columns after moving, while possible, a run that lies on a twin card onto the other
    twin when that one is a column top and lower numbered (docs/solver.md, "Twin runs").

    Each such move is legal, and so is the move straight back, so the result is a position the
    given one reaches and that reaches it: for deciding, the two are the same position.
    """
    while True:
        joined = b"\xff".join(columns)  # 0xff is no card: one search finds a twin anywhere
        for j in range(7):
            target = columns[j]
            if not target:
                continue
            x = target[-1]
            twin = TWIN[x]
            if twin < x:
                continue
            q = joined.find(twin)  # a face-down twin carries the HIDDEN mark: not found
            if q < 0:
                continue
            i = 0
            while q > len(columns[i]):
                q -= len(columns[i]) + 1
                i += 1
            source = columns[i]
            if (
                i != j
                and q + 1 < len(source)
                and source[q + 1] < HIDDEN
                and twin in FITS[source[q + 1]]
                and run_start(source) <= q + 1
            ):
                cols = list(columns)
                cols[j] = target + source[q + 1 :]
                cols[i] = source[: q + 1]
                columns = tuple(cols)
                break
        else:
            return columns


def blocked(cards: bytes) -> int:
    """Cards lying over a lower card of their own suit in the same pile (face-down marks
    ignored)."""
    lowest = [14, 14, 14, 14]
    count = 0
    for card in cards:
        card &= 63
        s, r = SUIT[card], RANK[card]
        if r > lowest[s]:
            count += 1
        elif r < lowest[s]:
            lowest[s] = r
    return count


#: A rank above every rank: "no card of this suit below".
NO_RANK = 14
#: ABOVE[s][r]: the cards of suit s of rank above r, as bits (`CARD_BIT`).
ABOVE = tuple(
    tuple(sum(CARD_BIT[s * 13 + q - 1] for q in range(r + 1, 14)) for r in range(NO_RANK + 1))
    for s in range(4)
)
#: What the lower bound reads off a pile (`order_facts`): the number of its units that must
#: step aside, and its other cards that could be made to step aside by a cycle of waits, each
#: as (its bit, the bits of the cards it waits on, its unit).
OrderFacts = tuple[int, tuple[tuple[int, int, int], ...]]


def order_facts(pile: bytes, runs: bool) -> OrderFacts:
    """What `MungerRules.lower_bound` reads off a pile, bottom to top (face-down marks kept).

    A *unit* is a group of the pile's cards that may leave it in one move: in a column
    (`runs`), a stretch of cards each fitting on the one under it, every one face up but
    perhaps the top one (a face-down card turns up once on top, and may then leave with the
    cards under it); in the reserve and the waste, one card. A card lying over a lower card of
    its own suit must step aside (`MungerRules.lower_bound` proves it): its unit is counted.
    The other cards with cards under them are listed with the cards they wait on: those of
    each suit above the lowest card of that suit under them.
    """
    low = [NO_RANK] * 4
    forced: set[int] = set()
    listed: list[tuple[int, int, int]] = []
    unit = 0
    previous = -1
    for raw in pile:
        card = raw & 63
        if runs and 0 <= previous < HIDDEN and previous in FITS[card]:
            pass  # may leave with the card under it, once face up
        elif previous >= 0:
            unit += 1
        suit = SUIT[card]
        if previous >= 0:
            if RANK[card] > low[suit]:
                forced.add(unit)
            elif low[0] + low[1] + low[2] + low[3] < 4 * NO_RANK:
                waits_on = ABOVE[0][low[0]] | ABOVE[1][low[1]] | ABOVE[2][low[2]] | ABOVE[3][low[3]]
                listed.append((CARD_BIT[card], waits_on, unit))
        if RANK[card] < low[suit]:
            low[suit] = RANK[card]
        previous = raw
    return len(forced), tuple(item for item in listed if item[2] not in forced)


def talon_facts(talon: bytes, first: int) -> tuple[tuple[int, int, int], ...]:
    """The waits the talon adds (`MungerRules.lower_bound`): `talon` is the waste, bottom to
    top, then the stock in drawing order, whose first card is at `first`. Each as (a card's
    bit, the bits of cards it waits on, its place in the talon).

    A talon card x that goes up from the talon stays there until a lower card of its suit is
    up, so until it is drawn: a card y drawn in the meantime lies over x and leaves before it
    (y -> x, if both go up from the talon), and x goes up before the higher cards of its suit
    (x -> e). Waste cards lying over a lower card of their suit are left out: they step aside
    anyway (`order_facts`).
    """
    last_low = [-1] * len(talon)  # the last place of a lower card of the same suit
    lowest = [NO_RANK] * 4
    skip = set()
    for place, card in enumerate(talon):
        if place < first:
            if RANK[card] > lowest[SUIT[card]]:
                skip.add(place)
            lowest[SUIT[card]] = min(lowest[SUIT[card]], RANK[card])
        for other in range(place):
            if SUIT[talon[other]] == SUIT[card] and RANK[talon[other]] > RANK[card]:
                last_low[other] = place
    facts = []
    for place in range(len(talon)):
        if place in skip:
            continue
        card = talon[place]
        waits_on = 0
        if place >= first:
            for other in range(place):
                if other not in skip and last_low[other] >= place:
                    waits_on |= CARD_BIT[talon[other]]
        if last_low[place] > place:
            waits_on |= ABOVE[SUIT[card]][RANK[card]]
        if waits_on:
            facts.append((CARD_BIT[card], waits_on, place))
    return tuple(facts)


def waits(alive: int, out: dict[int, int], unit_of: dict[int, int], units: dict[int, int]) -> int:
    """How many cycles of waits, no two sharing a unit, the cards `alive` form (a lower bound
    on the units that must step aside to break them all; `MungerRules.lower_bound`).

    `out[c]`: the cards c waits on (arcs c -> e), `unit_of[c]` its unit, `units[u]` the unit's
    cards, all as bits. Cards with no arc in or no arc out among those left are on no cycle and
    are trimmed away; then cycles of two cards are counted, greedily, each taking its units out;
    then, while cards are left after trimming (so a cycle is), one cycle found by following
    arcs is counted and its units taken out.
    """
    count = 0
    paired = False
    while alive:
        # trim: keep the cards with an arc out to, and an arc in from, the cards kept
        while True:
            reached = 0
            rest = alive
            while rest:
                bit = rest & -rest
                rest ^= bit
                reached |= out[bit]
            kept = alive & reached
            rest = kept
            while rest:
                bit = rest & -rest
                rest ^= bit
                if not out[bit] & kept:
                    kept ^= bit
            if kept == alive:
                break
            alive = kept
        if not alive:
            break
        if not paired:
            paired = True
            rest = alive
            while rest:
                bit = rest & -rest
                rest ^= bit
                if not bit & alive:
                    continue
                arcs = out[bit] & alive
                while arcs:
                    other = arcs & -arcs
                    arcs ^= other
                    if out[other] & bit:
                        alive &= ~(units[unit_of[bit]] | units[unit_of[other]])
                        rest &= alive
                        count += 1
                        break
            continue
        # every card left has an arc in and one out: follow arcs out until one repeats
        bit = alive & -alive
        path = [bit]
        seen = {bit: 0}
        while True:
            arcs = out[bit] & alive
            bit = arcs & -arcs
            if bit in seen:
                break
            seen[bit] = len(path)
            path.append(bit)
        for member in path[seen[bit] :]:
            alive &= ~units[unit_of[member]]
        count += 1
    return count


#: How many columns' shares of a key `MungerRules.key` keeps.
COLUMN_KEYS_KEPT = 300_000
#: How many columns' facts the dead-position test keeps (a cache: states share columns).
COLUMN_FACTS_KEPT = 200_000


#: What the dead-position test reads off a column (`column_facts`).
ColumnFacts = tuple[int, int, dict[int, int], dict[int, int], dict[int, int], int]


def column_facts(column: bytes) -> ColumnFacts:
    """What the dead-position test reads off a non-empty column: its top card's bit, the bits
    of all its cards, and per card bit the card under it (`below`), the run above it that it
    could carry (`runs`, face-up cards only) and, per run top, the cards whose run ends there
    (`carriers`); last, the cards whose run ends at the top (they can carry it now)."""
    raw = column[-1]
    bit = top_bit = mask = CARD_BIT[raw]
    below: dict[int, int] = {}
    runs: dict[int, int] = {}
    carriers: dict[int, int] = {}
    run = run_top = 0  # the run above the card being looked at, and its top card
    for k in range(len(column) - 2, -1, -1):
        upper, upper_bit = raw, bit
        raw = column[k]
        card = raw & 63
        bit = CARD_BIT[card]
        mask |= bit
        below[upper_bit] = bit
        if card in FITS[upper & 63]:
            if run and upper < HIDDEN:
                run |= upper_bit
            else:
                run = run_top = upper_bit
        else:
            run = 0
        if run and raw < HIDDEN:
            runs[bit] = run
            carriers[run_top] = carriers.get(run_top, 0) | bit
    return top_bit, mask, below, runs, carriers, carriers.get(top_bit, 0)


def reserve_facts(reserve: bytes) -> list[tuple[dict[int, int], int]]:
    """Per count of reserve cards left: the bit of the card under each one, and the top's bit."""
    out: list[tuple[dict[int, int], int]] = [({}, 0)]
    below: dict[int, int] = {}
    previous = 0
    for card in reserve:
        bit = CARD_BIT[card]
        if previous:
            below[bit] = previous
        previous = bit
        out.append((dict(below), previous))
    return out


#: Where cards can be placed: card -> the columns whose top it fits.
Places = dict[int, list[int]]


def targets(columns: tuple[bytes, ...]) -> tuple[Places, list[int]]:
    """Which columns take which card (card -> the columns whose top it fits), and the empty
    columns."""
    wanted: Places = {}
    empties: list[int] = []
    for j in range(7):
        column = columns[j]
        if column:
            for card in UNDER[column[-1]]:
                wanted.setdefault(card, []).append(j)
        else:
            empties.append(j)
    return wanted, empties


def places(card: int, wanted: Places, kings: list[int]) -> list[int]:
    """The columns a card can be put on: those whose top it fits, or for a King the empty
    columns offered (`kings`)."""
    return kings if RANK[card] == KING else wanted.get(card, NOWHERE)


class MungerRules(SolverRules):
    """The solver's view of a Munger position (full knowledge: face-down cards and stock)."""

    GAME = Munger
    DIFFICULTY_CUTS = (0.524, 0.583, 0.639, 0.674)
    CANDIDATE_SECONDS = 10.0
    PAR_SECONDS = 600.0
    SIMPLE_BOUND = 69  # 52 cards up and 17 draws
    #: A pull-down with its cover, a reserve card or a column top going up: on seed 100039 the
    #: dead test found 8 dead positions in the 6,049 these steps led to.
    QUIET_STEPS = frozenset((SEQ, RF, TF))

    def __init__(self, game: Game, mode: str = DECIDE) -> None:
        super().__init__(game, mode)
        assert isinstance(game, Munger)
        self.game = game
        #: The reserve as it is now, bottom to top, and the stock in drawing order.
        self.reserve = bytes(game.reserve)
        self.stock = bytes(reversed(game.stock))
        self.reversible = mode == DECIDE
        self.symmetric = mode != PLAIN
        self.autos = mode != PLAIN
        self._runs: dict[bytes, int] = {}
        self._column_facts: dict[bytes, ColumnFacts] = {}
        self._reserve_facts = reserve_facts(self.reserve)
        self._order_facts: dict[bytes, OrderFacts] = {}
        self._waste_order: dict[bytes, OrderFacts] = {}
        self._talon_order: dict[tuple[bytes, int], tuple[tuple[int, int, int], ...]] = {}
        self._reserve_order = [
            order_facts(self.reserve[:left], False) for left in range(len(self.reserve) + 1)
        ]
        #: The columns' share of the key, by columns (a cache: a search meets the same columns
        #: again and again, with other tails and by other ways).
        self._column_keys: dict[tuple[bytes, ...], bytes] = {}

    # -- the state ------------------------------------------------------------------------

    def state_of(self, game: Munger) -> State:
        """The state of an engine position whose reserve and stock are those the rules were
        built with, or any part of them left after play."""
        columns = tuple(
            bytes(card + HIDDEN if hidden >> i & 1 else card for i, card in enumerate(column))
            for column, hidden in zip(game.tableau, game.hidden, strict=True)
        )
        drawn = len(self.stock) - len(game.stock)
        assert bytes(reversed(game.stock)) == self.stock[drawn:]
        assert bytes(game.reserve) == self.reserve[: len(game.reserve)]
        tail = bytes((*game.foundation, len(game.reserve), drawn, *game.waste))
        return columns, tail

    def root(self) -> tuple[State, list[str]]:
        columns, tail = self.state_of(self.game)
        tokens: list[str] = []
        columns, tail, _ = self._settle(columns, tail, tokens)
        return (columns, tail), tokens

    def key(self, state: State) -> bytes:
        """Columns sorted (the rules treat them alike), then the tail: foundations, the reserve
        and stock counts (their order is fixed) and the waste. When deciding, runs that could
        move back and forth between twin cards are first put on the lower twin (`twin_normal`).
        """
        columns, tail = state
        known = self._column_keys
        part = known.get(columns)
        if part is None:
            if len(known) >= COLUMN_KEYS_KEPT:
                known.clear()
            normal = twin_normal(columns) if self.reversible else columns
            part = known[columns] = b"\xff".join([*sorted(normal), b""])
        return part + tail

    def won(self, state: State) -> bool:
        tail = state[1]
        return tail[0] + tail[1] + tail[2] + tail[3] == 52

    def simple_bound(self, state: State) -> int:
        """One move per card off the foundations and per stock card (its draw), one more per
        reserve or waste card lying over a lower card of its suit (it must step aside first),
        and one more per column holding such a card (one move can carry several away). The
        difficulty's measure of a par's length (its cut points were fitted with it)."""
        columns, tail = state
        bound = 52 - (tail[0] + tail[1] + tail[2] + tail[3]) + len(self.stock) - tail[DRAWN]
        for column in columns:
            if blocked(column):
                bound += 1
        return bound + blocked(self.reserve[: tail[RES]]) + blocked(tail[WASTE:])

    def lower_bound(self, state: State) -> int:
        """Moves still needed to win, never more than the truth (docs/solver.md, "Munger's
        lower bound"): one per card off the foundations, one per stock card (its draw), and one
        per unit of cards that must step aside before going up, counted by cycles of waits.

        Proof. Take any winning line from `state`. Each card off the foundations goes up at
        least once, each stock card is drawn once: that is the first part, and those moves are
        all different. Call a card *direct* if it leaves the pile where it lies now (a column,
        the reserve or the waste) by going up, and say it *steps aside* otherwise: then it
        leaves in a move onto a column, which is neither a draw nor a foundation move. For
        cards x over y in one pile, x leaves before y or with it (in one move of a run, both
        then stepping aside); for x over a lower card y of its suit, y goes up before x. Write
        c -> e (c *waits on* e) when some card b under c in its pile is of e's suit and lower
        than e. If c and e are direct, c goes up before b leaves, b before e goes up: c before
        e. So along a cycle c1 -> c2 -> ... -> c1 not every card is direct, or c1 would go up
        before itself; a cycle of one card is a card over a lower one of its own suit. One move
        onto a column carries cards of one pile only, and of one *unit* of it (`order_facts`: a
        card never moves with the card under it if it does not fit that card, or if that card
        is face down, since a card turns up only on top; and every card between two cards of a
        pile stays until they leave). So cycles that share no unit need as many
        different moves that step aside: the count `waits` finds.
        """
        columns, tail = state
        bound = 52 - (tail[0] + tail[1] + tail[2] + tail[3]) + len(self.stock) - tail[DRAWN]
        known = self._order_facts
        alive = 0
        out: dict[int, int] = {}
        unit_of: dict[int, int] = {}
        units: dict[int, int] = {}
        for i in range(7):
            column = columns[i]
            facts = known.get(column)
            if facts is None:
                if len(known) >= COLUMN_FACTS_KEPT:
                    known.clear()
                facts = known[column] = order_facts(column, True)
            bound += facts[0]
            for bit, waits_on, unit in facts[1]:
                unit += 64 * i
                alive |= bit
                out[bit] = waits_on
                unit_of[bit] = unit
                units[unit] = units.get(unit, 0) | bit
        piles = [(self._reserve_order[tail[RES]], 448)]
        if len(tail) > WASTE + 1:
            waste = tail[WASTE:]
            wastes = self._waste_order
            facts = wastes.get(waste)
            if facts is None:
                if len(wastes) >= COLUMN_FACTS_KEPT:
                    wastes.clear()
                facts = wastes[waste] = order_facts(waste, False)
            piles.append((facts, 512))
        for facts, shift in piles:
            bound += facts[0]
            for bit, waits_on, unit in facts[1]:
                unit += shift
                alive |= bit
                out[bit] = waits_on
                unit_of[bit] = unit
                units[unit] = bit
        talon = tail[WASTE:] + self.stock[tail[DRAWN] :]
        talons = self._talon_order
        waiting = talons.get((talon, len(tail)))
        if waiting is None:
            if len(talons) >= COLUMN_FACTS_KEPT:
                talons.clear()
            waiting = talons[talon, len(tail)] = talon_facts(talon, len(tail) - WASTE)
        for bit, waits_on, unit in waiting:
            unit += 512
            alive |= bit
            out[bit] = out.get(bit, 0) | waits_on
            unit_of[bit] = unit
            units[unit] = bit
        if alive & alive - 1:
            bound += waits(alive, out, unit_of, units)
        return bound

    # -- forced moves -----------------------------------------------------------------------

    def _settle(
        self, columns: tuple[bytes, ...], tail: bytes, tokens: list[str] | None
    ) -> tuple[tuple[bytes, ...], bytes, int]:
        """Play the forced foundation moves until none is left; their count (and tokens)."""
        if not self.autos:
            return columns, tail, 0
        reserve = self.reserve
        reversible = self.reversible
        count = 0
        wanted = next_cards(tail)
        moved = True
        while moved:
            moved = False
            for i in range(7):
                column = columns[i]
                if not column or column[-1] not in wanted:
                    continue
                card = column[-1]
                if not safe(card, tail):
                    if not reversible:
                        continue
                    if len(column) == 1:
                        if RANK[card] != KING:
                            continue
                    elif column[-2] not in FITS[card]:
                        continue
                s = SUIT[card]
                columns = (*columns[:i], _flip(column[:-1]), *columns[i + 1 :])
                tail = tail[:s] + BYTE[tail[s] + 1] + tail[s + 1 :]
                wanted = next_cards(tail)
                count += 1
                moved = True
                if tokens is not None:
                    tokens.append(TOKEN_TF[i])
            left = tail[RES]
            if left:
                card = reserve[left - 1]
                if card in wanted and safe(card, tail):
                    s = SUIT[card]
                    tail = (
                        tail[:s]
                        + BYTE[tail[s] + 1]
                        + tail[s + 1 : RES]
                        + BYTE[left - 1]
                        + tail[DRAWN:]
                    )
                    wanted = next_cards(tail)
                    count += 1
                    moved = True
                    if tokens is not None:
                        tokens.append("R>F")
            if len(tail) > WASTE:
                card = tail[-1]
                if card in wanted and safe(card, tail):
                    s = SUIT[card]
                    tail = tail[:s] + BYTE[tail[s] + 1] + tail[s + 1 : -1]
                    wanted = next_cards(tail)
                    count += 1
                    moved = True
                    if tokens is not None:
                        tokens.append("W>F")
        return columns, tail, count

    def safe_moves(self, state: State) -> list[str]:
        """The tops (columns, reserve, waste) that go up safely (`safe`)."""
        columns, tail = state
        tops = [(TOKEN_TF[i], column[-1]) for i, column in enumerate(columns) if column]
        if tail[RES]:
            tops.append(("R>F", self.reserve[tail[RES] - 1]))
        if len(tail) > WASTE:
            tops.append(("W>F", tail[-1]))
        wanted = next_cards(tail)
        return sorted(token for token, card in tops if card in wanted and safe(card, tail))

    # -- steps ----------------------------------------------------------------------------

    def _apply(
        self, columns: tuple[bytes, ...], tail: bytes, step: Step
    ) -> tuple[tuple[bytes, ...], bytes, int] | None:
        """Play a step without the forced moves after it: (columns, tail, tokens), or None if
        the step is not legal here (only composite pull-downs are checked step by step)."""
        kind = step[0]
        if kind == TF:
            i = step[1]
            card = columns[i][-1]
            s = SUIT[card]
            columns = (*columns[:i], _flip(columns[i][:-1]), *columns[i + 1 :])
            return columns, tail[:s] + BYTE[tail[s] + 1] + tail[s + 1 :], 1
        if kind == TT:
            i, j, p = step[1], step[2], step[3]
            source, target = columns[i], columns[j]
            if p < 0:  # a part of a composite: find the unit that fits now
                if not source:
                    return None
                start = run_start(source)
                if target:
                    wanted = UNDER[target[-1]]
                    p = next((q for q in range(start, len(source)) if source[q] in wanted), -1)
                else:
                    p = next((q for q in range(start, len(source)) if RANK[source[q]] == KING), -1)
                if p < 0:
                    return None
            cols = list(columns)
            cols[j] = target + source[p:]
            cols[i] = _flip(source[:p])
            return tuple(cols), tail, 1
        if kind == RF:
            left = tail[RES]
            card = self.reserve[left - 1]
            s = SUIT[card]
            tail = tail[:s] + BYTE[tail[s] + 1] + tail[s + 1 : RES] + BYTE[left - 1] + tail[DRAWN:]
            return columns, tail, 1
        if kind == RT:
            j = step[1]
            left = tail[RES]
            if not left:
                return None
            card = self.reserve[left - 1]
            if not self._fits_column(card, columns[j]):
                return None
            columns = (*columns[:j], columns[j] + BYTE[card], *columns[j + 1 :])
            return columns, tail[:RES] + BYTE[left - 1] + tail[DRAWN:], 1
        if kind in (WF, WT):
            k = step[1]
            drawn = tail[DRAWN]
            if drawn + k > len(self.stock):
                return None
            if k:
                waste = tail[WASTE:] + self.stock[drawn : drawn + k]
                tail = tail[:DRAWN] + BYTE[drawn + k] + waste
            if len(tail) <= WASTE:
                return None
            card = tail[-1]
            if kind == WF:
                s = SUIT[card]
                if tail[s] != RANK[card] - 1:
                    return None
                return columns, tail[:s] + BYTE[tail[s] + 1] + tail[s + 1 : -1], k + 1
            j = step[2]
            if not self._fits_column(card, columns[j]):
                return None
            columns = (*columns[:j], columns[j] + BYTE[card], *columns[j + 1 :])
            return columns, tail[:-1], k + 1
        if kind == FT:
            s, j = step[1], step[2]
            count = tail[s]
            if not count:
                return None
            card = s * 13 + count - 1
            if not self._fits_column(card, columns[j]):
                return None
            columns = (*columns[:j], columns[j] + BYTE[card], *columns[j + 1 :])
            return columns, tail[:s] + BYTE[count - 1] + tail[s + 1 :], 1
        assert kind == SEQ
        cost = 0
        for part in step[1]:
            played = self._apply(columns, tail, part)
            if played is None:
                return None
            columns, tail, tokens = played
            cost += tokens
        return columns, tail, cost

    def _run_start(self, column: bytes) -> int:
        """`run_start` of a non-empty column, kept (a cache: states share their columns)."""
        start = self._runs.get(column)
        if start is None:
            if len(self._runs) >= COLUMN_FACTS_KEPT:
                self._runs.clear()
            start = self._runs[column] = run_start(column)
        return start

    @staticmethod
    def _fits_column(card: int, column: bytes) -> bool:
        if column:
            return column[-1] in FITS[card]
        return RANK[card] == KING

    def play(self, state: State, step: Step) -> State:
        played = self._apply(state[0], state[1], step)
        if played is None:
            raise ValueError(f"step {step!r} is not legal here")
        columns, tail, _ = self._settle(played[0], played[1], None)
        return columns, tail

    def tokens(self, state: State, step: Step) -> list[str]:
        tokens = self.step_tokens(state, step)
        played = self._apply(state[0], state[1], step)
        assert played is not None
        self._settle(played[0], played[1], tokens)
        return tokens

    def step_tokens(self, state: State, step: Step) -> list[str]:
        kind = step[0]
        if kind == TF:
            return [TOKEN_TF[step[1]]]
        if kind == RF:
            return ["R>F"]
        if kind == WF:
            return [DRAW] * step[1] + ["W>F"]
        if kind == TT:
            return [TOKEN_TT[step[1]][step[2]]]
        if kind == RT:
            return [TOKEN_RT[step[1]]]
        if kind == WT:
            return [DRAW] * step[1] + [TOKEN_WT[step[2]]]
        if kind == FT:
            return [TOKEN_FT[step[1]][step[2]]]
        tokens: list[str] = []
        columns, tail = state
        for part in step[1]:
            tokens += self.step_tokens((columns, tail), part)
            played = self._apply(columns, tail, part)
            assert played is not None
            columns, tail = played[0], played[1]
        return tokens

    def children(self, state: State) -> list[Child]:
        """The steps of `steps`, in its order, with the states they lead to. (Sorting them by
        the lower bound of where they lead, as Masterpiece does, was tried: on the winnable
        deals among seeds 1..200 it found first lines later, 92 s against 50 s in all.)"""
        columns, tail = state
        out = []
        settle = self._settle
        for step in self.steps(state):
            played = self._apply(columns, tail, step)
            if played is None:
                continue
            cols, rest, cost = played
            cols, rest, forced = settle(cols, rest, None)
            out.append((step, (cols, rest), cost + forced))
        return out

    def steps(self, state: State) -> list[Step]:
        """Candidate steps, best first: to a foundation, uncovering a card that can go up,
        revealing a face-down card, emptying a column, drawing to a card that goes up, the
        rest, other stock steps; pulling a foundation card down last of all."""
        columns, tail = state
        wanted, empties = targets(columns)
        kings = empties[:1] if self.symmetric else empties
        to_foundation, uncover, reveal, empty_column, rest = self._column_steps(
            columns, tail, wanted, kings
        )
        self._reserve_and_waste_steps(tail, wanted, kings, to_foundation, rest)
        stock_up, stock = self._stock_steps(tail, wanted, kings)
        pull = self._pull_steps(state, wanted, kings)
        return to_foundation + uncover + reveal + empty_column + stock_up + rest + stock + pull

    def _column_steps(
        self, columns: tuple[bytes, ...], tail: bytes, wanted: Places, kings: list[int]
    ) -> tuple[list[Step], list[Step], list[Step], list[Step], list[Step]]:
        """The steps from the columns, by kind: to a foundation, uncovering a card that can go
        up, revealing a face-down card, emptying a column, the rest. When deciding, part of a
        run moves only to uncover a card that can go up; in every mode but `plain`, a King-led
        run at the bottom of its column stays there."""
        plain = not self.symmetric
        deciding = self.reversible
        run_of = self._run_start
        to_foundation: list[Step] = []
        uncover: list[Step] = []
        reveal: list[Step] = []
        empty_column: list[Step] = []
        rest: list[Step] = []
        for i in range(7):
            column = columns[i]
            if not column:
                continue
            card = column[-1]
            if tail[SUIT[card]] == RANK[card] - 1:
                to_foundation.append((TF, i))
            start = run_of(column)
            for p in range(start, len(column)):
                card = column[p]
                to = wanted.get(card)
                if RANK[card] == KING:
                    if p == 0 and not plain:
                        continue  # a King-led run at the bottom gains nothing elsewhere
                    to = kings
                if not to:
                    continue
                if p > start:
                    under = column[p - 1]
                    if tail[SUIT[under]] == RANK[under] - 1:
                        out = uncover
                    elif deciding:
                        continue
                    else:
                        out = rest
                elif p == 0:
                    out = empty_column
                elif column[p - 1] >= HIDDEN:
                    out = reveal
                else:
                    out = rest
                for j in to:
                    if j != i:
                        out.append((TT, i, j, p))
        return to_foundation, uncover, reveal, empty_column, rest

    def _reserve_and_waste_steps(
        self,
        tail: bytes,
        wanted: Places,
        kings: list[int],
        to_foundation: list[Step],
        rest: list[Step],
    ) -> None:
        """The reserve's and the waste's top card to a foundation or onto a column."""
        left = tail[RES]
        if left:
            card = self.reserve[left - 1]
            if tail[SUIT[card]] == RANK[card] - 1:
                to_foundation.append((RF,))
            for j in places(card, wanted, kings):
                rest.append((RT, j))
        if len(tail) > WASTE:
            card = tail[-1]
            if tail[SUIT[card]] == RANK[card] - 1:
                to_foundation.append((WF, 0))
            for j in places(card, wanted, kings):
                rest.append((WT, 0, j))

    def _stock_steps(
        self, tail: bytes, wanted: Places, kings: list[int]
    ) -> tuple[list[Step], list[Step]]:
        """Draw k cards, then play the new waste top: to its foundation, or onto a column.
        Never draws past a card that is safe to go up (it would bury it)."""
        stock_up: list[Step] = []
        stock: list[Step] = []
        drawn = tail[DRAWN]
        stock_cards = self.stock
        for k in range(1, len(stock_cards) - drawn + 1):
            card = stock_cards[drawn + k - 1]
            if tail[SUIT[card]] == RANK[card] - 1:
                stock_up.append((WF, k))
                if self.autos and safe(card, tail):
                    break
            for j in places(card, wanted, kings):
                stock.append((WT, k, j))
        return stock_up, stock

    def _pull_steps(self, state: State, wanted: Places, kings: list[int]) -> list[Step]:
        """Foundation tops back down onto a column, unless safe (they would only come back up);
        when deciding, only together with what covers them (`_cover`)."""
        tail = state[1]
        pull: list[Step] = []
        for s in range(4):
            count = tail[s]
            if not count:
                continue
            card = s * 13 + count - 1
            if self.autos and safe(card, tail):
                continue
            for j in places(card, wanted, kings):
                if self.reversible:
                    self._cover(state, card, ((FT, s, j),), j, pull, frozenset((s,)))
                else:
                    pull.append((FT, s, j))
        return pull

    def _cover(
        self,
        state: State,
        card: int,
        parts: tuple[Step, ...],
        j: int,
        out: list[Step],
        pulled: frozenset[int],
    ) -> None:
        """After `parts` pull `card` down onto column j, the composite steps that then cover it.

        When deciding, a pulled card left uncovered would go straight back up (a reversible
        foundation move), so a pull-down is offered only with what makes it stay: a card put on
        it (a run from a column, the reserve or waste top, a stock card, or another foundation
        card, itself covered in turn), or the card under it on its foundation pulled down too,
        and covered in turn. Parts are checked when played (`_apply` returns None).
        """
        columns, tail = state
        s = SUIT[card]
        rank = RANK[card]
        below = card - 1
        if rank > 1 and tail[s] == rank - 1 and not safe(below, tail):
            for k in range(7):
                if k != j and self._fits_column(below, columns[k]):
                    chained = (*parts, (FT, s, k))
                    self._cover(state, below, chained, k, out, pulled)
        if rank == 1:
            return
        wanted = UNDER[card]
        for i in range(7):
            source = columns[i]
            if i == j or not source:
                continue
            for p in range(self._run_start(source), len(source)):
                if source[p] in wanted:
                    out.append((SEQ, (*parts, (TT, i, j, -1))))
        left = tail[RES]
        if left and self.reserve[left - 1] in wanted:
            out.append((SEQ, (*parts, (RT, j))))
        if len(tail) > WASTE and tail[-1] in wanted:
            out.append((SEQ, (*parts, (WT, 0, j))))
        drawn = tail[DRAWN]
        for k in range(1, len(self.stock) - drawn + 1):
            if self.stock[drawn + k - 1] in wanted:
                out.append((SEQ, (*parts, (WT, k, j))))
        for t in range(4):
            count = tail[t]
            if count and t not in pulled:
                under = t * 13 + count - 1
                if under in wanted and not safe(under, tail):
                    self._cover(state, under, (*parts, (FT, t, j)), j, out, pulled | {t})

    # -- dead positions ---------------------------------------------------------------------

    def dead(self, state: State) -> bool:
        """True only if no line from `state` wins: some card could never reach its foundation
        even if every event that could ever happen to a card happened, in any order
        (docs/solver.md, "Dead positions").

        Facts about each card, all false at first and made true until nothing changes (a least
        fixpoint). A card's *pile* is where it lies in `state`; the cards above it there are its
        original cover.

        - exposed(c): c can be the top of its pile: the card just above it left as the lowest
          card of what moved (stock cards count as exposed);
        - base(c): c can leave its pile as the lowest card of what moves: exposed and able to go
          up or onto a column, or, in a column, carrying a run of the cards above it (the rest
          above that run gone) onto a column;
        - carried(c): c can leave its column in a run on top of such a card;
        - top(c): c can be the top card of a column: exposed in its column; or placed there;
          or in the tableau or on a foundation with a card that can lie on it able to leave;
        - up(c): c can reach its foundation: the card under it there can, and c can be on top
          of some pile;
        - placeable(c): a card c fits on can be a column top (a King: a column can be empty).

        Each fact is a set of cards held as the bits of an int (`CARD_BIT`), so most rules apply
        to all 52 cards at once.
        """
        columns, tail = state
        up = 0
        for s in range(4):
            up |= (1 << tail[s]) - 1 << LANE * s
        exposed = 0
        below: dict[int, int] = {}  # a card's bit -> the bit of the card under it in its pile
        in_column = 0
        column_masks = []
        # A face-up card can carry the run above it (d1 on it, d2 on d1, ..., every one but
        # the last face up now) once the run's top card is exposed: runs[card bit] is that run,
        # carriers[top bit] the cards whose run ends there. Each column's share is worked out
        # once (`column_facts`): states share most of their columns.
        runs: dict[int, int] = {}
        carriers: dict[int, int] = {}
        ready = 0  # cards whose run's top is exposed (a column top, at first)
        known = self._column_facts
        for column in columns:
            if not column:
                column_masks.append(0)
                continue
            facts = known.get(column)
            if facts is None:
                if len(known) >= COLUMN_FACTS_KEPT:
                    known.clear()
                facts = known[column] = column_facts(column)
            top_bit, mask, column_below, column_runs, column_carriers, column_ready = facts
            exposed |= top_bit
            ready |= column_ready
            in_column |= mask
            column_masks.append(mask)
            below.update(column_below)
            runs.update(column_runs)
            carriers.update(column_carriers)
        reserve_below, previous = self._reserve_facts[tail[RES]]
        below.update(reserve_below)
        exposed |= previous
        # The talon: the waste, then the stock in drawing order. While `size` of its cards have
        # been drawn, a talon card is on top when every one drawn after it has left.
        talon = [CARD_BIT[c] for c in tail[WASTE:] + self.stock[tail[DRAWN] :]]
        every, lanes, ranks = ALL_CARDS, LANE_ONES, RANKS_MASK  # locals: read in the loops
        live = every & ~up  # cards that can still leave and have not yet been seen to
        empty = 0 in column_masks
        kings = KING_BITS if empty else 0
        base = carried = top = 0
        first = len(tail) - WASTE
        for size in range(first, len(talon) + 1):
            if size > first:
                # A newly drawn card that can neither go up nor be put anywhere changes nothing
                # (it only covers the others): go on drawing.
                new = talon[size - 1]
                if not up & new >> 1 | (new & ACES):
                    black = (top | top >> 48) & ranks
                    red = (top >> 16 | top >> 32) & ranks
                    black >>= 1
                    red >>= 1
                    if not (red | black << 16 | black << 32 | red << 48 | kings) & new:
                        continue
            # The talon cards that can be on top: from the last drawn down to the first that
            # cannot leave (`base` only grows, so `low` only moves down).
            low = size - 1
            talon_top = talon[low] if size else 0
            while True:
                before = up, top, base, empty
                # placeable: cards that fit on a card that can be a column top
                black = (top | top >> 48) & ranks
                red = (top >> 16 | top >> 32) & ranks
                black >>= 1
                red >>= 1
                placeable = red | black << 16 | black << 32 | red << 48 | kings
                # Dig: cards that can leave expose the ones under them, which may leave too.
                while True:
                    while low > 0 and talon[low] & base:
                        low -= 1
                        talon_top |= talon[low]
                    visible = exposed | talon_top
                    # up: per suit, the foundation and the unbroken run of ranks after it that
                    # can be on top of some pile (each lane's lowest clear bit, all at once)
                    reach = up | visible | top
                    up = (((reach + lanes) & ~reach) - lanes) & every
                    if up == every:
                        return False
                    leaving = visible & (up | placeable) & live
                    carrying = ready & placeable & live & ~leaving
                    if not leaving | carrying:
                        break
                    while carrying:
                        bit = carrying & -carrying
                        carrying ^= bit
                        carried |= runs[bit]
                        leaving |= bit
                    base |= leaving
                    live &= ~leaving
                    while leaving:
                        bit = leaving & -leaving
                        leaving ^= bit
                        under_bit = below.get(bit, 0)
                        if under_bit and not under_bit & exposed:
                            exposed |= under_bit
                            ready |= carriers.get(under_bit, 0)
                # sitters: cards on which a card that can go up or be placed fits
                free = up | placeable
                black = (free | free >> 48) & ranks
                red = (free >> 16 | free >> 32) & ranks
                black = black << 1 & ranks
                red = red << 1 & ranks
                sat = red | black << 16 | black << 32 | red << 48
                top |= (
                    visible & (in_column | placeable) | up & placeable | (base | carried | up) & sat
                )
                if not empty and base != before[2]:
                    out = base | carried
                    for mask in column_masks:
                        if not mask & ~out:
                            empty = True
                            kings = KING_BITS
                            break
                if (up, top, base, empty) == before:
                    break
        return True
