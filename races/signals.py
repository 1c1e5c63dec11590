"""What the races app tells the apps above it, after commit (carrying plain data).

- `race_changed(race_id, code, version, event)`: the race changed; `event` is its public view
  at `version` (`races.selectors.race_public`), built in the transaction that made the
  change, so that each version's event says exactly what that version was.
"""

from django.dispatch import Signal

race_changed = Signal()
