"""The Celery application.

Its settings are the `CELERY_*` names in `config.settings`: a Redis broker when REDIS_URL is set,
otherwise eager mode (tasks run inline, in the caller's process).

Worker: `celery -A config worker -Q celery,solve,checks -l info` (every queue: the solver's
jobs go to `solve` and the fair-play measures to `checks`, and a worker that does not listen
there leaves them waiting; a deployment gives `solve` and `checks` workers of their own, as
docker-compose.yml does); scheduler: `celery -A config beat -l info`. Run
exactly one beat process per deployment: each beat sends every scheduled task, so two would
send each one twice (harmless, as the tasks are idempotent, but wasted solver time).
"""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("patience")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The schedule is in UTC (CELERY_TIMEZONE), like the dailies' dates (docs/scheduling.md).
app.conf.beat_schedule = {
    "ensure-dailies": {
        # Every hour: each game has a certified daily on each of the next 7 days.
        "task": "games.tasks.ensure_dailies",
        "schedule": crontab(minute=0),
        "kwargs": {"days": 7},
        # A run still queued when the next one is due is dropped rather than run late.
        "options": {"expires": 55 * 60},
    },
    "close-days": {
        # Every ten minutes: each day whose ranked play has ended (five minutes after
        # midnight) gets its last fair-play checks (games.services.daily_close).
        "task": "games.tasks.close_days",
        "schedule": crontab(minute="*/10"),
        "options": {"expires": 9 * 60},
    },
    "ensure-race-deals": {
        # Every ten minutes, between the others: the races' own supply of certified deals is
        # topped up, a few solves at a time (races.services.race_deals_ensure).
        "task": "races.tasks.ensure_race_deals",
        "schedule": crontab(minute="5-59/10"),
        "options": {"expires": 9 * 60},
    },
}
