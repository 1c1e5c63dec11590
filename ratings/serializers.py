"""What the ratings API answers (the selectors' dicts, rendered and documented)."""

from __future__ import annotations

from rest_framework import serializers

from games.models import GameName
from ratings.models import PROVISIONAL_RD, RatingChange


class ChangeSerializer(serializers.Serializer):
    date = serializers.DateField(help_text="The daily's date.")
    before = serializers.IntegerField(help_text="The rating before that daily, rounded.")
    after = serializers.IntegerField(help_text="The rating after it, rounded.")
    result = serializers.ChoiceField(
        choices=RatingChange.Result.choices,
        help_text="win: a verified win; loss: resigned, or left unfinished at the day's end.",
    )


class GameRatingSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameName.choices)
    rating = serializers.IntegerField(help_text="Glicko-2 rating, rounded (a newcomer: 1500).")
    rd = serializers.IntegerField(help_text="The rating deviation, rounded (a newcomer: 350).")
    provisional = serializers.BooleanField(
        help_text=f"The deviation is {PROVISIONAL_RD:.0f} or more: the rating is not settled yet."
    )
    games = serializers.IntegerField(help_text="Ranked dailies counted.")
    history = ChangeSerializer(many=True, help_text="What each daily counted did, oldest first.")


class MyRatingsSerializer(serializers.Serializer):
    player = serializers.CharField(help_text="Your display name.")
    ratings = GameRatingSerializer(many=True, help_text="One per game.")


class DailyRatingSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameName.choices)
    date = serializers.DateField()
    rating = serializers.IntegerField(
        help_text="The deal's Glicko-2 rating, rounded: a player of this rating wins it half "
        "the time."
    )
    rd = serializers.IntegerField(help_text="The rating deviation, rounded.")
    players = serializers.IntegerField(help_text="Players whose result the rating counts.")
    calibrated_difficulty = serializers.IntegerField(
        allow_null=True,
        help_text="1 (easy) to 5 (hard) by the deal's rating among the game's rated deals (a "
        "fifth of them each); null until 30 dailies of the game were rated.",
    )


class BoardRatingSerializer(serializers.Serializer):
    player = serializers.CharField(help_text="A player of the daily's board.")
    rating = serializers.IntegerField(help_text="Its player's rating in the game now, rounded.")
    provisional = serializers.BooleanField(
        help_text=f"The deviation is {PROVISIONAL_RD:.0f} or more: not settled yet."
    )


class BoardRatingsSerializer(serializers.Serializer):
    ratings = BoardRatingSerializer(many=True)
