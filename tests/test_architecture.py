"""The package's structure stays one-way: no import cycles, no import from a lower layer to a higher one.

Every import counts (module level, inside functions, under TYPE_CHECKING): an arrow a reader sees in the
code is an arrow of the structure. See docs/architecture.md for the layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "kgrag"
MAX_MODULE_LINES = 400

# Lowest first; a module may import its own layer's modules and lower layers' only.
LAYERS: list[tuple[str, ...]] = [
    ("types", "errors", "config", "tokens", "progress"),
    ("models", "store", "ingest"),
    ("workspace", "graph", "indexing"),
    ("stages", "plan", "retrieve", "answering"),
    ("answer",),
    ("index",),
    ("__init__", "__main__", "verify", "evaluate", "server", "cli"),
]


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _imports(module: str, path: Path) -> set[str]:
    """Project modules that `module` imports (`from pkg import name` counts as pkg.name when it is a module)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [_resolve(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                head = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(head + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else _resolve(base) for a in node.names]
        else:
            continue
        found.update(t for t in targets if t.startswith("kgrag") and t != module)
    return found


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else "__init__"
    for level, names in enumerate(LAYERS):
        if top in names:
            return level
    raise AssertionError(f"{module}: not in any layer of tests/test_architecture.py LAYERS; add it there")


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in GRAPH:
        if root in index:
            continue
        work = [(root, iter(sorted(GRAPH[root])))]
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
                    work.append((child, iter(sorted(GRAPH[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
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


def test_the_import_graph_is_read_from_the_code() -> None:
    assert "kgrag.workspace" in GRAPH["kgrag.index"]
    assert "kgrag.store.base" in GRAPH["kgrag.workspace"]


def test_no_import_cycles() -> None:
    assert _cycles() == []


def test_no_upward_imports() -> None:
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in GRAPH.items()
        for target in targets
        if _layer(target) > _layer(module)
    )
    assert upward == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_small(module: str) -> None:
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MODULE_LINES, f"{MODULES[module]}: {lines} lines; split it (limit {MAX_MODULE_LINES})"
