from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Deals, dailies, players and attempts. The rules themselves live in `games.engine`."""

    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Receivers connect on import: the solver task queue and the supply of the coming
        # days' dailies.
        from games import supply, tasks  # noqa: F401
