"""The package's shape: modules import downward only (faces -> service -> views and checks -> modes and the batch ->
evaluation -> program and reader -> events -> law), no two modules import each other round a cycle, and no module uses another's
private names. Read from the source with `ast`: every import counts, also one inside a function."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "reasoner"

# Lowest first. A module may import its own layer and the layers below it.
LAYERS = (
    ("law", ("reasoner.law",)),
    ("events", ("reasoner.events",)),
    ("program and reader", ("reasoner.program", "reasoner.conclusions")),
    ("evaluation", ("reasoner.evaluate", "reasoner.unknowns", "reasoner.points")),
    ("modes and batch", ("reasoner.modes", "reasoner.batch")),
    ("views and checks", ("reasoner.views", "reasoner.quality")),
    ("service", ("reasoner.service",)),
    ("faces", ("reasoner.cli", "reasoner.web")),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    for number, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return number
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def _resolved(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def imports(module: str) -> list[tuple[str, int, str | None]]:
    """(module imported, line, name taken from it) for every import of the package's modules in `module`."""
    found: list[tuple[str, int, str | None]] = []
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno, None) for a in node.names if a.name.split(".")[0] == "reasoner"]
        elif isinstance(node, ast.ImportFrom):
            source = _resolved(module, node)
            if source.split(".")[0] != "reasoner":
                continue
            for alias in node.names:
                if f"{source}.{alias.name}" in MODULES:   # `from reasoner.events import model`
                    found.append((f"{source}.{alias.name}", node.lineno, None))
                else:
                    found.append((source, node.lineno, alias.name))
    return [(m, line, name) for m, line, name in found if m in MODULES]


def test_every_module_is_in_a_layer_and_imports_only_its_own_or_lower_layers():
    upward = [f"{m} ({LAYERS[layer(m)][0]}) imports {target} ({LAYERS[layer(target)][0]}) at line {line}"
              for m in MODULES for target, line, _ in imports(m) if layer(target) > layer(m)]
    assert upward == []


def test_no_import_cycle():
    graph = {m: {target for target, _, _ in imports(m) if target != m and not MODULES[target].name == "__init__.py"}
             for m in MODULES}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycles.append(path[path.index(n):] + [n])
            elif n not in state:
                visit(n, [*path, n])
        state[m] = 2

    for m in MODULES:
        if m not in state:
            visit(m, [m])
    assert [" -> ".join(c) for c in cycles] == []


def _attribute_uses(module: str) -> list[tuple[str, int, str]]:
    """module._name uses, where `module` is a package module imported under that name."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _resolved(module, node)
            for alias in node.names:
                if f"{source}.{alias.name}" in MODULES:
                    names[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES and alias.asname:
                    names[alias.asname] = alias.name
    return [(names[node.value.id], node.lineno, node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in names]


@pytest.mark.parametrize("folder", ["reasoner"])
def test_no_module_uses_another_modules_private_names(folder):
    private = sorted({f"{m} takes {name} from {target} (line {line})"
                      for m in MODULES for target, line, name in [*imports(m), *_attribute_uses(m)]
                      if name and name.startswith("_") and not name.startswith("__") and target != m})
    assert private == []
