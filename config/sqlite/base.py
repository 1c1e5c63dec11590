"""SQLite for the embedded server: Django's backend, with writers queued in the process.

The embedded default is one server process. Under ASGI each request in flight runs its database
work in a thread of its own, so a crowd of players means many threads asking for SQLite's single
write lock at once (`BEGIN IMMEDIATE`). SQLite makes them wait by sleeping and retrying, which is
unfair: some requests were seen waiting past the 20 s busy timeout while others went through
(the request then answered 503). Here a writer first takes a lock of the process (blocking
threads are woken as it is released, with no sleeping in between), then begins; the lock goes
with the transaction's commit or rollback. A lock not had within the busy timeout is gone
without: SQLite's own waiting takes over, so nothing can hang on it.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db.backends.sqlite3 import base

#: One per process: every connection of the process shares it.
_WRITERS = threading.Lock()


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_writer_lock = False

    def _start_transaction_under_autocommit(self) -> None:
        timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
        self._holds_writer_lock = _WRITERS.acquire(timeout=timeout)
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writer_lock()
            raise

    def _release_writer_lock(self) -> None:
        if self._holds_writer_lock:
            self._holds_writer_lock = False
            _WRITERS.release()

    def _commit(self) -> Any:
        try:
            return super()._commit()
        finally:
            self._release_writer_lock()

    def _rollback(self) -> Any:
        try:
            return super()._rollback()
        finally:
            self._release_writer_lock()

    def _close(self) -> Any:
        try:
            return super()._close()
        finally:
            self._release_writer_lock()
