"""The Celery application.

Its settings are the `CELERY_*` names in `config.settings`: a Redis broker when REDIS_URL is set,
otherwise eager mode (tasks run inline, in the caller's process).

Its processes log as the web processes do (Django's LOGGING: the same format, the request ids,
the outage filters): `setup_logging` is connected, so Celery leaves logging alone. A task
carries the id of the request that published it (config/requestid.py), and each task's outcome
is counted for the metrics (infra/metrics.py, read by the web processes).

Worker: `celery -A config worker -Q celery,solve,checks -l info` (every queue: the solver's
jobs go to `solve` and the fair-play measures to `checks`, and a worker that does not listen
there leaves them waiting; a deployment gives `solve` and `checks` workers of their own, as
docker-compose.yml does); scheduler: `celery -A config beat -l info`. Run
exactly one beat process per deployment: each beat sends every scheduled task, so two would
send each one twice (harmless, as the tasks are idempotent, but wasted solver time).
"""

import os
from typing import Any

from celery import Celery, signals
from celery.schedules import crontab

from config import requestid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("patience")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.setup_logging.connect
def use_django_logging(**kwargs: Any) -> None:
    """Celery configures Django's LOGGING instead of its own logging (its level is LOG_LEVEL,
    whatever --loglevel says)."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)


signals.before_task_publish.connect(requestid.before_publish, dispatch_uid="request-id.publish")
signals.task_prerun.connect(requestid.task_started, dispatch_uid="request-id.start")
signals.task_postrun.connect(requestid.task_ended, dispatch_uid="request-id.end")


# The metrics module is imported when a task ends, never here: gunicorn's master imports this
# package, and prometheus_client must be imported in its workers only, after config/gunicorn.py
# chose its multiprocess mode.
@signals.task_postrun.connect(dispatch_uid="metrics.task-finished")
def count_task(**kwargs: Any) -> None:
    from infra.metrics import task_finished

    task_finished(**kwargs)


@signals.task_revoked.connect(dispatch_uid="metrics.task-revoked")
def count_revoked(**kwargs: Any) -> None:
    from infra.metrics import task_revoked

    task_revoked(**kwargs)


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
    "refit-difficulty": {
        # Mondays at 03:00: the deals' ratings recalibrate the scheduler's difficulty levels
        # (ratings/difficulty.py), once the last week's days were rated.
        "task": "ratings.tasks.refit_difficulty",
        "schedule": crontab(minute=0, hour=3, day_of_week="mon"),
        "options": {"expires": 23 * 3600},
    },
}
