from django.apps import AppConfig


class FrontendConfig(AppConfig):
    """The browser UI: pages and static files. It renders server state; it holds no rules."""

    name = "frontend"
    verbose_name = "Frontend"
    default_auto_field = "django.db.models.BigAutoField"
