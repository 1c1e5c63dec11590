from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Glicko-2 ratings of players and of the dailies' deals (docs/leagues.md, "Ratings")."""

    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A closed day is rated, and a result approved after its day counts then (receivers
        # connect on import).
        from ratings import receivers  # noqa: F401
