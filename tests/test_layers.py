"""The import rules of the project, held by reading every module's imports (top-level and
inside functions alike):

- data flows one way: infra <- games.engine <- games <- ratings <- leaderboards <- races <-
  leagues <- realtime <- frontend, with infrastructure (infra: metrics, network facts, the
  Redis client, prepared SQL, the loop task, addresses, the NUL check, rate windows) below every
  app and config (settings, ASGI wiring) above them all: no module imports from a layer above
  its own;
- other apps build on the games API's base (games.api.base), never on its views;
- no import cycle between modules, not even one held together by an import inside a function.

A package's `from . import name` counts as importing the submodule `name`, not the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = (
    "infra",
    "games.engine",
    "games",
    "ratings",
    "leaderboards",
    "races",
    "leagues",
    "realtime",
    "frontend",
    "config",
)
PACKAGES = {layer.split(".")[0] for layer in LAYERS}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[module_name(path)] = path
    return found


MODULES = project_modules()


def imported(name: str, path: Path) -> list[str]:
    """The project modules `name` imports, wherever the import statement is."""
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                if path.name != "__init__.py":
                    base.pop()
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                out.append(submodule if submodule in MODULES else source)
    resolved = []
    for target in out:
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != name and target.split(".")[0] in PACKAGES:
            resolved.append(target)
    return resolved


def layer(module: str) -> int:
    if module == "games.engine" or module.startswith("games.engine."):
        return LAYERS.index("games.engine")
    return LAYERS.index(module.split(".")[0])


GRAPH = {name: set(imported(name, path)) for name, path in MODULES.items()}


def test_no_module_imports_from_a_layer_above_its_own():
    upward = sorted(
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if layer(target) > layer(name)
    )
    assert upward == []


def test_infra_imports_nothing_of_the_apps():
    infra = [name for name in GRAPH if layer(name) == LAYERS.index("infra")]
    assert "infra.redis" in infra
    assert sorted(f"{name} -> {t}" for name in infra for t in GRAPH[name] if t not in infra) == []


def test_the_engine_imports_nothing_of_the_apps():
    engine = [name for name in GRAPH if layer(name) == LAYERS.index("games.engine")]
    assert engine and all(layer(t) <= layer(engine[0]) for name in engine for t in GRAPH[name])


def test_no_module_outside_games_imports_the_games_api_views():
    outside = sorted(
        name
        for name, targets in GRAPH.items()
        if name.split(".")[0] != "games" and "games.api.views" in targets
    )
    assert outside == []


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_between_modules():
    assert strongly_connected(GRAPH) == []


def test_the_checks_find_what_they_look_for():
    """The helpers themselves: an upward import and a cycle are seen."""
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert layer("frontend.views") > layer("realtime.boards") > layer("games.engine.cards")
    assert "games.services.attempts" in GRAPH["realtime.play"] | {
        t for t in GRAPH["games.services"]
    }
