"""The examples in the engine's docstrings run, and pass: every module of `games.engine` and
`games.engine.solver` (not `__main__`, which runs the command line when imported)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.engine

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(games.engine.__path__, prefix="games.engine.")
    if not info.name.endswith(".__main__")
)


def test_every_engine_and_solver_module_is_checked() -> None:
    assert "games.engine.base" in MODULES and "games.engine.solver.search" in MODULES
    assert "games.engine.solver" in MODULES


@pytest.mark.parametrize("name", ["games.engine", *MODULES])
def test_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
