from tests.games.conftest import alice, bob, travel  # noqa: F401 (the same fixtures)
