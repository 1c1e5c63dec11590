from django.apps import AppConfig


class RacesConfig(AppConfig):
    """Races between friends: one certified deal, raced side by side (docs/api.md, "Races")."""

    name = "races"
    verbose_name = "Races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A racer's progress follows play, and the races' supply of deals is topped up when a
        # race takes one (receivers connect on import).
        from games import selectors as game_selectors
        from games.services import analysis, hints
        from races import receivers, selectors, services, tasks  # noqa: F401

        # Racers get neither hints, nor the solver's line, nor an analysis of the deal they race
        # while it runs.
        if services.hint_refuse not in hints.hint_refusals:
            hints.hint_refusals.append(services.hint_refuse)
        if selectors.solution_refuse not in game_selectors.solution_refusals:
            game_selectors.solution_refusals.append(selectors.solution_refuse)
        if selectors.analysis_refuse not in analysis.analysis_refusals:
            analysis.analysis_refusals.append(selectors.analysis_refuse)
