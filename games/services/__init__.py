"""Writes of the games app: every change to deals, dailies, players and attempts goes here.

Functions are keyword-only and named `noun_verb`. Contended rows are locked
(`select_for_update`), or written by one guarded statement (play: a move, a finish, a
resignation). Effects on other parts of the project run after commit, through the signals of
`games.signals`, which carry ids: this package never calls a listener itself.

One module per entity (`deals`, `dailies`, `players`, `attempts`, `reviews`), `hints` and
`analysis`; callers import the package (`from games import services;
services.attempt_play(...)`), which names every service here.
"""

from games.services.analysis import (
    analysis_check,
    analysis_run,
    attempt_analysis,
)
from games.services.attempts import (
    HISTORY_MAX,
    MOVE_TOKEN_MAX,
    MOVE_TOKEN_MIN,
    KeptGame,
    attempt_continue_as_practice,
    attempt_disqualify,
    attempt_finish,
    attempt_play,
    attempt_resign,
    attempt_start,
    attempt_start_on_deal,
    attempt_start_practice,
    attempt_verify,
)
from games.services.dailies import (
    attempts_forget_addresses,
    dailies_close_due,
    dailies_due_for_closing,
    daily_close,
    daily_schedule,
    daily_unschedule,
)
from games.services.deals import (
    DEFAULT_SOLVE_SECONDS,
    MAX_SOLVE_SECONDS,
    PROOF_PENDING,
    STALE_CLAIM,
    deal_approve,
    deal_ask_par_proof,
    deal_claim_for_solving,
    deal_create,
    deal_lower_par,
    deal_prove_par,
    deal_reject,
    deal_request_solve,
    deal_set_notes,
    deal_solve,
    deal_store_solution,
    difficulty_cuts_apply,
)
from games.services.hints import HintAnswer, attempt_hint
from games.services.players import (
    SEEN_EVERY,
    account_create,
    player_create_guest,
    player_link_user,
    player_rename,
    player_seen,
    player_token_issue,
    player_token_revoke,
    player_tokens_revoke,
)
from games.services.reviews import (
    attempt_ask_perfection,
    attempt_check_perfection,
    attempt_review_approve,
    attempt_review_disqualify,
)

__all__ = [
    "analysis_check",
    "analysis_run",
    "attempt_analysis",
    "DEFAULT_SOLVE_SECONDS",
    "HISTORY_MAX",
    "HintAnswer",
    "KeptGame",
    "MAX_SOLVE_SECONDS",
    "MOVE_TOKEN_MAX",
    "MOVE_TOKEN_MIN",
    "SEEN_EVERY",
    "PROOF_PENDING",
    "STALE_CLAIM",
    "account_create",
    "attempt_ask_perfection",
    "attempt_check_perfection",
    "attempt_continue_as_practice",
    "attempts_forget_addresses",
    "attempt_disqualify",
    "attempt_finish",
    "attempt_hint",
    "attempt_play",
    "attempt_resign",
    "attempt_review_approve",
    "attempt_review_disqualify",
    "attempt_start",
    "attempt_start_on_deal",
    "attempt_start_practice",
    "attempt_verify",
    "dailies_close_due",
    "dailies_due_for_closing",
    "daily_close",
    "daily_schedule",
    "daily_unschedule",
    "deal_approve",
    "deal_ask_par_proof",
    "deal_claim_for_solving",
    "deal_create",
    "deal_lower_par",
    "deal_prove_par",
    "deal_reject",
    "deal_request_solve",
    "deal_set_notes",
    "deal_solve",
    "deal_store_solution",
    "difficulty_cuts_apply",
    "player_create_guest",
    "player_link_user",
    "player_rename",
    "player_seen",
    "player_token_issue",
    "player_token_revoke",
    "player_tokens_revoke",
]
