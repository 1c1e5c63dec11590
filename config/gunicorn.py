"""gunicorn's settings for the image's web server (`gunicorn -c python:config.gunicorn ...`, the
Dockerfile's command): the metrics of its worker processes, added up.

A scrape of `/metrics` reaches one of the workers, which must answer for all of them: each
worker keeps its metrics in files of `PROMETHEUS_MULTIPROC_DIR` (prometheus_client's
multiprocess mode, infra/metrics.py), and the one that answers adds them up. The
variable is set here, before any worker starts (and imports prometheus_client), unless the
environment sets it; the folder is emptied when gunicorn starts (a restarted container would
add the last run's counts to its own), and the files of a worker that exits are marked dead (its
gauges no longer count; its counters still do).

Loaded by gunicorn's master, which never loads the application: this module imports none of it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

#: The folder of the workers' metrics files, in the container's own /tmp.
METRICS_DIR = "/tmp/patience-metrics"

os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", METRICS_DIR)


def on_starting(server: Any) -> None:
    """Before the first worker: an empty folder."""
    folder = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)


def child_exit(server: Any, worker: Any) -> None:
    """A worker exited (or was killed): its live gauges (open sockets, the pool) stop counting."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
