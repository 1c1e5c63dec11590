"""Page tests render templates with `{% static %}` and fetch static files: serve them straight
from the apps' folders (no collectstatic manifest needed), whatever STATIC_MANIFEST the run
has."""

import pytest


@pytest.fixture(autouse=True)
def plain_static_files(settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # WhiteNoise reads this when the test client builds its middleware, after this fixture.
    settings.WHITENOISE_USE_FINDERS = True
