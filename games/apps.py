from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Deals, dailies, players and attempts. The rules themselves live in `games.engine`."""

    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The receivers of games' own signals connect on import: the solver task queue and
        # the live state of open play sockets.
        from games import live, tasks  # noqa: F401
