"""What the races app tells the apps above it, after commit (carrying plain data).

- `race_changed(race_id, code, version, event)`: the race changed; `event` is its public view
  at `version` (`races.selectors.race_public`), built in the transaction that made the
  change, so that each version's event says exactly what that version was.
- `racers_progressed(progress)`: racers' moves changed their progress, and nothing else of their
  races; `progress` is a list of `(race_id, racer)`, `racer` holding one racer's figures at
  their own version: `id`, `version`, `moves`, `foundation_cards`, `foundations` (the picture:
  per suit its top card and count) and `seconds`, as their entry of the race's view names them
  (`races.services.racers_moved`: one signal for the moves written together).
- `race_deals_wanted(game)`: a race took a deal of the races' supply of `game`, or found none
  ready: the supply is to be topped up (`races.tasks`: the `ensure_race_deals` task, or a
  thread where no worker runs).
"""

from django.dispatch import Signal

race_changed = Signal()
racers_progressed = Signal()
race_deals_wanted = Signal()
