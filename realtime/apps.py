from django.apps import AppConfig


class RealtimeConfig(AppConfig):
    """The live side: the play and daily sockets, state pushes to a player's other tabs, the
    live boards' events, the channel layer (docs/realtime.md)."""

    name = "realtime"
    verbose_name = "Live play and boards"

    def ready(self) -> None:
        """Connect the listeners, each to the signal that carries what it needs. Their order
        does not matter: a push reads the attempt as committed, and the boards listener hears
        `board_changed`, which the leaderboards app sends once its index holds the change."""
        from games import signals
        from leaderboards.signals import board_changed
        from races.signals import race_changed, racers_progressed
        from realtime import boards, pushes, race

        signals.move_played.connect(pushes.push_state, dispatch_uid="realtime.push.move")
        signals.attempt_finished.connect(pushes.push_state, dispatch_uid="realtime.push.end")
        board_changed.connect(boards.mark, dispatch_uid="realtime.boards.mark")
        race_changed.connect(race.push_event, dispatch_uid="realtime.race.event")
        racers_progressed.connect(race.push_progress, dispatch_uid="realtime.race.progress")
        signals.player_tokens_revoked.connect(
            pushes.push_revoked, dispatch_uid="realtime.push.revoked"
        )
