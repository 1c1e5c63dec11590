"""Celery queues: solving deals has a queue of its own (config/settings.py CELERY_TASK_ROUTES)."""

from __future__ import annotations

from config.celery import app


def queue_of(task: str) -> str:
    app.amqp.flush_routes()
    return app.amqp.router.route({}, task, args=(), kwargs={})["queue"].name


def test_solving_a_deal_goes_to_the_solve_queue_and_the_rest_to_the_default_one():
    assert queue_of("games.tasks.solve_deal") == "solve"
    assert queue_of("games.tasks.ensure_dailies") == app.conf.task_default_queue == "celery"
