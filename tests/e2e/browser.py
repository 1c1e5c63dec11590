"""What the browser tests share besides their fixtures: waiting for the page to reach a state
(never for a fixed time)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

#: True once no transition or animation runs on the page (cards have slid into place).
STILL = "() => document.getAnimations().every(a => a.playState !== 'running')"


def settle(page: Any) -> None:
    """Wait until the page's animations are over (the cards' slides, a flip)."""
    page.wait_for_function(STILL)


def until(page: Any, holds: Callable[[], bool], *, timeout: float = 10.0) -> None:
    """Wait until `holds()` is true, for things only the test's side sees (what a routed
    socket heard): each round lets Playwright deliver its events, one animation frame at a
    time, until the deadline."""
    deadline = time.monotonic() + timeout
    while not holds():
        if time.monotonic() > deadline:
            raise AssertionError("the page never reached the state waited for")
        page.evaluate("() => new Promise(resolve => requestAnimationFrame(() => resolve()))")
