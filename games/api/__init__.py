"""The games REST API: dailies, play (start, moves, resign), players and accounts."""
