"""What the games' solver rules share: the interface the searches use, and the class data that is
each game's whole registration with the solver (budgets, difficulty cut points).

A game's solver rules turn an engine position into the solver's own compact, immutable state
and answer five questions about a state: its candidate steps and the states they lead to, an
exact key (equal for positions equal up to symmetry), whether it is won, a lower bound on the
moves still needed, and whether it is dead (no line from it can win, by a quick test). A step
is a small tuple private to the game's module; `tokens` turns a step into the move tokens of
docs/rules.md, "Move notation", including the forced moves the solver plays after it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from ..base import Game

#: One step of the search, as the game's module encodes it (a small tuple of ints).
Step = tuple[Any, ...]
#: What `children` lists: the step, the state it leads to (forced moves played) and its cost in
#: move tokens (the step's own tokens and the forced moves after it).
Child = tuple[Step, Any, int]

#: The modes of the solver rules. `decide`: every dominance that keeps a winnable position
#: winnable, some of which cost moves. `exact`: only dominances that never lengthen the
#: shortest win (the par and distance searches). `plain`: no dominance at all (for the tests
#: that check the others).
DECIDE, EXACT, PLAIN = "decide", "exact", "plain"
MODES = (DECIDE, EXACT, PLAIN)


class SolverRules:
    """Base of `MungerRules` and `MasterpieceRules`. A new game's solver is one subclass listed
    in `games.engine.solver.RULES`."""

    #: The engine class of the game these rules solve.
    GAME: ClassVar[type[Game]]
    #: Difficulty score cut points between levels 1|2, 2|3, 3|4 and 4|5 (docs/solver.md,
    #: "Difficulty"): the quintiles of the scores of the winnable deals among seeds 1..200,
    #: from `benchmarks/solve.py GAME --seeds 1..200 --calibrate` (default par time).
    DIFFICULTY_CUTS: ClassVar[tuple[float, float, float, float]]
    #: Seconds the scheduler gives the solver to decide a new candidate deal.
    CANDIDATE_SECONDS: ClassVar[float]
    #: Seconds `prove_par` gives the exact par search by default (background workers).
    PAR_SECONDS: ClassVar[float]
    #: The simple lower bound of a deal's moves that the par targets are measured against
    #: (one move per card to go up, and per stock card for its draw).
    SIMPLE_BOUND: ClassVar[int]
    #: The weight of the quick weighted A* that shortens the first line before the exact search.
    QUICK_WEIGHT: ClassVar[float] = 2.0
    #: Kinds of step (a step's first field) after which the deciding search does not run the
    #: dead-position test: it almost never finds anything there, and skipping it is always
    #: sound (a dead position left untested is searched through and found lost).
    QUIET_STEPS: ClassVar[frozenset[Any]] = frozenset()

    def __init__(self, game: Game, mode: str = DECIDE) -> None:
        if mode not in MODES:
            raise ValueError(f"mode is one of {MODES}, not {mode!r}")
        self.mode = mode

    # -- what the searches ask ----------------------------------------------------------

    def root(self) -> tuple[Any, list[str]]:
        """The state of the position the rules were built from, after its forced moves, and
        the tokens of those forced moves."""
        raise NotImplementedError

    def children(self, state: Any) -> list[Child]:
        """The candidate steps of `state`, best first, with the states they lead to."""
        raise NotImplementedError

    def key(self, state: Any) -> Hashable:
        """An exact key: equal only for positions equal up to the order of interchangeable
        piles (and, when deciding, up to moves that can be taken straight back)."""
        raise NotImplementedError

    def won(self, state: Any) -> bool:
        raise NotImplementedError

    def lower_bound(self, state: Any) -> int:
        """Moves still needed to win, never more than the truth."""
        raise NotImplementedError

    def simple_bound(self, state: Any) -> int:
        """The lower bound the difficulty measures a par against (its cut points were fitted
        with it): `lower_bound` unless a game's search bound has grown stronger since."""
        return self.lower_bound(state)

    def dead(self, state: Any) -> bool:
        """True only if no line from `state` wins (a sound, incomplete test)."""
        return False

    def safe_moves(self, state: Any) -> list[str]:
        """The foundation moves of `state` that are safe (the game's "safe foundation moves"
        in docs/solver.md): each keeps every win and never lengthens the shortest one, so the
        searches play them without branching. Sorted tokens, each legal in `state`."""
        raise NotImplementedError

    def step_tokens(self, state: Any, step: Step) -> list[str]:
        """The move tokens of `step` played in `state`, without the forced moves after it."""
        raise NotImplementedError

    def tokens(self, state: Any, step: Step) -> list[str]:
        """The move tokens of `step` played in `state`, and of the forced moves after it."""
        raise NotImplementedError

    def state_of(self, game: Any) -> Any:
        """The state of an engine position of the same deal (later in play), forced moves not
        played."""
        raise NotImplementedError

    def line(self, steps: Sequence[Step], state: Any = None) -> list[str]:
        """The tokens of a sequence of steps from the root's forced moves on (or from `state`),
        forced moves included."""
        if state is None:
            state, tokens = self.root()
            line = list(tokens)
        else:
            line = []
        for step in steps:
            line += self.tokens(state, step)
            state = self.play(state, step)
        return line

    def play(self, state: Any, step: Step) -> Any:
        """The state after `step` and the forced moves after it."""
        raise NotImplementedError
