from django.apps import AppConfig


class RacesConfig(AppConfig):
    """Races between friends: one certified deal, raced side by side (docs/api.md, "Races")."""

    name = "races"
    verbose_name = "Races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A racer's progress follows play (receivers connect on import).
        from races import receivers  # noqa: F401
