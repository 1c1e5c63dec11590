from django.apps import AppConfig


class MonitoringConfig(AppConfig):
    """The metrics' listeners of the other apps' signals and readings of their tables: last in
    INSTALLED_APPS, above every app it listens to."""

    name = "config.monitoring"
    label = "monitoring"
    verbose_name = "Monitoring"

    def ready(self) -> None:
        from config.monitoring import receivers
        from games import signals
        from infra import metrics

        signals.move_played.connect(receivers.move_played, dispatch_uid="monitoring.moves")
        metrics.add_reading(receivers.dailies_ready)
        metrics.add_reading(receivers.fairplay_held)
