"""The Celery application.

Its settings are the `CELERY_*` names in `config.settings`: a Redis broker when REDIS_URL is set,
otherwise eager mode (tasks run inline, in the caller's process).

Worker: `celery -A config worker -l info`; scheduler: `celery -A config beat -l info`.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("patience")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
