"""The engine is a pure package: no Django, no database, no I/O (docs/engine.md)."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "games" / "engine"


def test_importing_the_engine_loads_no_django() -> None:
    code = (
        "import sys, games.engine, games.engine.cli, games.engine.replay; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'channels', 'celery', 'psycopg', 'redis'}); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ENGINE.parents[1],
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_engine_source_imports_django_or_random() -> None:
    forbidden = re.compile(r"^\s*(from|import)\s+(django|random|rest_framework|channels)\b", re.M)
    for path in ENGINE.rglob("*.py"):
        assert not forbidden.search(path.read_text(encoding="utf-8")), path
