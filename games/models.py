"""Models of the games app (Deal, DailyChallenge, Player, Attempt) arrive with their issues."""
