import importlib
import importlib.util

from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    """Rankings of each daily, streaks and statistics."""

    name = "leaderboards"
    verbose_name = "Leaderboards"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The index's receivers connect first, so that the live side (when there is one)
        # reads boards that already hold the change it announces.
        importlib.import_module("leaderboards.receivers")
        if importlib.util.find_spec("leaderboards.live") is not None:
            importlib.import_module("leaderboards.live")
