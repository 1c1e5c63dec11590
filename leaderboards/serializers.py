"""What the leaderboards API answers (the selectors' dicts, rendered and documented)."""

from __future__ import annotations

from rest_framework import serializers

from games.models import Attempt, GameName


class RowSerializer(serializers.Serializer):
    """One row of a board. It carries no attempt id: the ids of others' attempts are theirs
    (`you` says which row is yours)."""

    rank = serializers.IntegerField(help_text="Competition rank: equal results share one.")
    player = serializers.CharField(help_text="The display name.")
    status = serializers.ChoiceField(choices=Attempt.Status.choices)
    left = serializers.BooleanField(
        help_text="Unfinished, and no move for ten minutes: its player has left it for now "
        "(not counted as playing now); a next move makes it false again."
    )
    moves = serializers.IntegerField(help_text="Every move counts, undos included.")
    undos = serializers.IntegerField(help_text="How many of the moves were undos.")
    seconds = serializers.IntegerField(
        help_text="Whole seconds of play measured by the server to the finish (to the last "
        "move while playing), each pause counted up to a minute (docs/leaderboards.md)."
    )
    foundation_cards = serializers.IntegerField()
    finished_at = serializers.DateTimeField(allow_null=True)
    you = serializers.BooleanField(help_text="This row is yours.")


class BoardSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameName.choices)
    date = serializers.DateField()
    total = serializers.IntegerField(help_text="Rows on the whole board.")
    rows = RowSerializer(many=True)
    you = RowSerializer(allow_null=True, help_text="Your row, or null.")


class BucketSerializer(serializers.Serializer):
    """One bar of a histogram of move counts ("from" is a Python keyword, hence get_fields)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {
            "from": serializers.IntegerField(help_text="The bucket's lowest move count."),
            "to": serializers.IntegerField(help_text="The bucket's highest move count."),
            "count": serializers.IntegerField(),
        }


class DistributionSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameName.choices)
    date = serializers.DateField()
    buckets = BucketSerializer(many=True, help_text="Move counts of the day's verified wins.")
    wins = serializers.IntegerField()
    par = serializers.IntegerField(
        allow_null=True, help_text="Null until you finished your attempt or the day is over."
    )


class AllTimeRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    wins = serializers.IntegerField(help_text="Verified ranked wins.")
    current_streak = serializers.IntegerField()
    best_streak = serializers.IntegerField()
    avg_moves_over_par = serializers.FloatField(
        allow_null=True, help_text="Over the wins of days that are over."
    )


class AllTimeSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameName.choices, allow_null=True)
    rows = AllTimeRowSerializer(many=True)


class WeekSerializer(serializers.Serializer):
    week = serializers.DateField(help_text="The Monday the week starts on (UTC).")
    wins = serializers.IntegerField()


class StatsSerializer(serializers.Serializer):
    player = serializers.CharField()
    game = serializers.ChoiceField(
        choices=GameName.choices, allow_null=True, help_text="Null: both games."
    )
    played = serializers.IntegerField(help_text="Ranked dailies with at least one move.")
    won = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="won / played; null if none.")
    current_streak = serializers.IntegerField(
        help_text="Consecutive UTC days with a win, up to today or yesterday."
    )
    best_streak = serializers.IntegerField()
    last_win = serializers.DateField(allow_null=True)
    avg_moves_over_par = serializers.FloatField(allow_null=True)
    moves_distribution = BucketSerializer(many=True, help_text="Moves of your wins.")
    weekly_wins = WeekSerializer(many=True, help_text="The last 12 weeks, oldest first.")
