"""Admin curation of Patience Daily: deals (solve, approve, reject, schedule, the
layout drawn as cards, the certificate replayed), the calendar of dailies, attempts (replay,
disqualify), the fair-play review queue of held results, players, and the difficulty cut
points applied from observed days (read-only). Every write goes through
`games.services`."""

from .attempts import AttemptAdmin
from .dailies import DailyChallengeAdmin
from .deals import DealAdmin
from .difficulty import DifficultyCutsAdmin
from .players import PlayerAdmin
from .review import HeldAttemptAdmin

__all__ = [
    "AttemptAdmin",
    "DailyChallengeAdmin",
    "DealAdmin",
    "DifficultyCutsAdmin",
    "HeldAttemptAdmin",
    "PlayerAdmin",
]
