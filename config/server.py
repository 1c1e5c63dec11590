"""The application as a web server process runs it: `uvicorn config.server:application` (`make
run`, the image's gunicorn workers, the tests' and benchmarks' servers).

It is `config.asgi.application`, in a process whose garbage collector is tuned for a long-lived
server. Everything loaded before serving (Django, the apps, the libraries: hundreds of thousands
of objects) lives as long as the process, so it is moved out of the collector's sight
(`gc.freeze()`); and the youngest generation is collected after 3,000 allocations instead of
700. Without this, a full collection walked every object of the process: pauses of 60-95 ms
during which no socket of the process was served, the tail of every live delivery
(docs/performance.md, "Collector pauses"). What the first requests would load (the URLconf,
the translations) is loaded before the freeze too. Tests that import `config.asgi` leave their
own process's collector alone.
"""

import gc

from django.conf import settings
from django.urls import get_resolver
from django.utils import translation

from config.asgi import application

#: The collector's thresholds in a server process (Python's defaults: 700, 10, 10).
GC_THRESHOLDS = (3_000, 10, 10)


def load_what_requests_would() -> None:
    """Load now what the first requests would: the URLconf with every view module it imports
    (the API's, the schema's, the pages'), and the site's translation catalogues. Else the
    first requests of each process paid for it, a tenth of a second each at a new day's first
    minute, when every process is busiest."""
    get_resolver().url_patterns  # noqa: B018 - imports the URLconf
    for code, _ in settings.LANGUAGES:
        translation.trans_real.translation(code)


load_what_requests_would()
gc.freeze()
gc.set_threshold(*GC_THRESHOLDS)

__all__ = ["application"]
