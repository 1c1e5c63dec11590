"""Fixtures of the abuse tests: servers in subprocesses on the test database
(tests/faults/live.py), for the tests that drive a live server; pages render without
collectstatic."""

import pytest

from config.testing import PLAIN_STATIC_FILES
from tests.faults.live import django_db_modify_db_settings, start_server, test_database

__all__ = ["django_db_modify_db_settings", "start_server", "test_database"]


@pytest.fixture(autouse=True)
def plain_static_files(settings):
    """Pages render without `manage.py collectstatic` (as with STATIC_MANIFEST=false)."""
    for name, value in PLAIN_STATIC_FILES.items():
        setattr(settings, name, value)
