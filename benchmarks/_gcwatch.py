"""The servers' application with the collector's pauses timed (benchmarks/fanout.py).

`uvicorn benchmarks._gcwatch:application` serves `GCWATCH_APP` (default
`config.server:application`, the collector tuned as in production; `config.asgi:application`
for Python's default collector) and writes one line per collection that took at least
`GCWATCH_MS` milliseconds (default 5) to standard error: `GCPAUSE <generation> <ms>`.
"""

import gc
import importlib
import os
import sys
import time

_module, _, _name = os.environ.get("GCWATCH_APP", "config.server:application").partition(":")
application = getattr(importlib.import_module(_module), _name)

_LONGEST_SILENT = float(os.environ.get("GCWATCH_MS", "5")) / 1000
_began = [0.0]


def _timed(phase: str, info: dict) -> None:
    if phase == "start":
        _began[0] = time.perf_counter()
        return
    took = time.perf_counter() - _began[0]
    if took >= _LONGEST_SILENT:
        print(f"GCPAUSE {info['generation']} {took * 1000:.1f}", file=sys.stderr, flush=True)


gc.callbacks.append(_timed)
