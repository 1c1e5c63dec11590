from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    """Leagues of friends and the seasons' standings (docs/leagues.md)."""

    name = "leagues"
    verbose_name = "Leagues"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A closed day's points are worked out, and worked out again when a result changes.
        from leagues import receivers  # noqa: F401
