"""Models of the leaderboards app arrive with their issues."""
