"""Helpers for the test suite.

`use_plain_static_files()` serves static files straight from the apps' static/ folders (as
STATIC_MANIFEST=false does), so that tests render pages without `manage.py collectstatic`.
tests/conftest.py calls it once, when pytest loads it.
"""

from __future__ import annotations

from django.test.utils import override_settings

PLAIN_STATIC_FILES = {
    "STORAGES": {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    },
    "STATIC_MANIFEST": False,
    "WHITENOISE_USE_FINDERS": True,
}

_enabled: override_settings | None = None


def use_plain_static_files() -> None:
    """Switch to manifest-free static files for the rest of the process (idempotent)."""
    global _enabled
    if _enabled is None:
        _enabled = override_settings(**PLAIN_STATIC_FILES)
        _enabled.enable()
