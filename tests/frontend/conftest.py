"""Page tests render templates with `{% static %}`: serve static files as they are (no
collectstatic manifest needed), whatever STATIC_MANIFEST the run has."""

import pytest


@pytest.fixture(autouse=True)
def plain_static_files(settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
