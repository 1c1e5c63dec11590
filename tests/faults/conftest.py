"""Fixtures of the fault tests (tests/faults/live.py): servers in subprocesses on the test
database.

A server in a subprocess reads and writes the pytest-django test database, so every test that
drives one is `django_db(transaction=True)`: its rows are committed (the server sees them) and
flushed at the end. Each test stops its servers before it ends.
"""

from tests.faults.live import django_db_modify_db_settings, start_server, test_database

__all__ = ["django_db_modify_db_settings", "start_server", "test_database"]
