"""What the leaderboards app tells the apps above it (sent in the listeners of the games
signals, so already after commit).

- `board_changed(daily_id, attempt_id)`: a daily's board may read differently now (a move, an
  end, a change of standing), and the board index holds the change.
"""

from django.dispatch import Signal

board_changed = Signal()
