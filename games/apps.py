from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Deals, dailies, players and attempts. The rules themselves live in `games.engine`."""

    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"
