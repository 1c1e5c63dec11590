from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    """Rankings of each daily, streaks and statistics."""

    name = "leaderboards"
    verbose_name = "Leaderboards"
    default_auto_field = "django.db.models.BigAutoField"
