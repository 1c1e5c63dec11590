from django.apps import AppConfig


class RacesConfig(AppConfig):
    """Races between friends: one certified deal, raced side by side (docs/api.md, "Races")."""

    name = "races"
    verbose_name = "Races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A racer's progress follows play (receivers connect on import).
        from games.services import hints
        from races import receivers, services  # noqa: F401

        if services.hint_refuse not in hints.hint_refusals:
            hints.hint_refusals.append(services.hint_refuse)
