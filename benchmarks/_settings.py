"""The project's settings plus one endpoint that exists only in benchmarks (`_urls.py`).

`DJANGO_SETTINGS_MODULE=benchmarks._settings`: everything as `config.settings` has it, with the
URLconf of `benchmarks/_urls.py`, which adds `GET /api/bench/empty/` in front of the project's
own URLs, and a socket message budget no benchmark player reaches. Production never loads this
module.
"""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks._urls"

# A benchmark's players move as fast as the server answers, faster than a person: a socket's
# message budget would stop a whole game part way. The moves' own throttles still count.
SOCKET_BUDGET_MESSAGES = 1_000_000
