from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    """Rankings of each daily, streaks and statistics."""

    name = "leaderboards"
    verbose_name = "Leaderboards"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The board index follows play (receivers connect on import).
        from leaderboards import receivers  # noqa: F401
