"""Celery queues: solving deals has a queue of its own (config/settings.py CELERY_TASK_ROUTES)."""

from __future__ import annotations

from celery import Celery


def queue_of(task: str) -> str:
    # A Celery app of its own, configured like config/celery.py's: tests of the tasks point
    # that one's queues elsewhere.
    app = Celery("routes-check")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    return app.amqp.router.route({}, task, args=(), kwargs={})["queue"].name


def test_solving_a_deal_goes_to_the_solve_queue_and_the_rest_to_the_default_one():
    assert queue_of("games.tasks.solve_deal") == "solve"
    assert queue_of("games.tasks.ensure_dailies") == "celery"
