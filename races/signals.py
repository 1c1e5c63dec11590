"""What the races app tells the apps above it, after commit (carrying plain data).

- `race_changed(race_id, code, version, event)`: the race changed; `event` is its public view
  at `version` (`races.selectors.race_public`), built in the transaction that made the
  change, so that each version's event says exactly what that version was.
- `racer_progressed(race_id, racer)`: a racer's move changed their progress, and nothing else of
  the race; `racer` holds their figures at their own version: `id`, `version`, `moves`,
  `foundation_cards`, `foundations` (the picture: per suit its top card and count) and
  `seconds`, as their entry of the race's view names them (`races.services.racer_moved`).
"""

from django.dispatch import Signal

race_changed = Signal()
racer_progressed = Signal()
