"""Fixtures of the tests of config/."""

from __future__ import annotations

import pytest

from config.testing import PLAIN_STATIC_FILES


@pytest.fixture(autouse=True)
def plain_static_files(settings):
    """Pages render without `manage.py collectstatic` (as with STATIC_MANIFEST=false)."""
    for name, value in PLAIN_STATIC_FILES.items():
        setattr(settings, name, value)
