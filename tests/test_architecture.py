"""The house rules of docs/architecture.md, checked on the source: imports run one way.

Every import of the project's packages is read from the syntax tree (function-local
imports included: hiding a cycle inside a function does not remove it). Two rules:
- no module imports another package's private names (a module or name starting with
  `_`); kernels reach across packages through the named interfaces (`game_def.kernels`,
  `solver.exact.kernels`, `solver.mccfr.kernels`, `solver.players.kernels`);
- no import cycle between modules, and no package that imports a package above it in
  the layering of docs/architecture.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("common", "game_def", "merry_men", "robin_des_bois", "solver", "analysis",
            "sweep", "explorer", "robinwood")

# Lower layers never import higher ones (docs/architecture.md, "Arrows").
LAYERS = [
    ("common",),
    ("game_def", "merry_men", "robin_des_bois"),
    ("solver.store", "solver.jobs"),
    ("solver.exact",),
    ("solver.knowledge",),
    ("solver.scripted",),
    ("solver.decisions",),
    ("solver.mccfr",),
    ("solver.players",),
    ("solver.search",),
    ("solver.evaluation", "solver.strategies", "solver"),
    ("analysis",),
    ("sweep", "explorer"),
    ("robinwood",),
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[_module_name(path)] = path
    return found


MODULES = _modules()


def _package_of(module: str) -> str:
    """The package a module belongs to: itself for a package's __init__, else its parent."""
    path = MODULES[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _imports(module: str) -> list[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for every project import."""
    path = MODULES[module]
    package = _package_of(module)
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, None, node.lineno) for a in node.names
                    if a.name.split(".")[0] in PACKAGES]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in MODULES:
                    out.append((sub, None, node.lineno))
                else:
                    out.append((target, alias.name, node.lineno))
    return out


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _layer(module: str) -> int:
    best, best_len = None, -1
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = i, len(prefix)
    assert best is not None, f"{module} is in no layer of LAYERS: add it"
    return best


def private_cross_package_imports() -> list[str]:
    bad = []
    for module in MODULES:
        package = _package_of(module)
        for target, name, line in _imports(module):
            target_package = _package_of(target) if target in MODULES else target
            if target_package == package:
                continue
            if any(_is_private(part) for part in target.split(".")) or (
                    name is not None and _is_private(name)):
                what = f"{target}.{name}" if name else target
                bad.append(f"{MODULES[module].relative_to(ROOT)}:{line} imports {what}")
    return bad


def import_cycles() -> list[list[str]]:
    graph = {m: sorted({t for t, _, _ in _imports(m) if t in MODULES and t != m})
             for m in MODULES}
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for m in graph:
        if m not in index:
            visit(m)
    return cycles


def upward_imports() -> list[str]:
    bad = []
    for module in MODULES:
        for target, name, line in _imports(module):
            if target in MODULES and _layer(target) > _layer(module):
                bad.append(f"{MODULES[module].relative_to(ROOT)}:{line} imports {target} "
                           f"(a higher layer)")
    return bad


def test_the_source_tree_is_found():
    # the checks below mean nothing if they read no modules
    assert {"game_def._core", "solver.mccfr.trainer", "analysis.report",
            "robinwood.cli"} <= set(MODULES)
    assert any(name is not None for _, name, _ in _imports("solver.mccfr.trainer"))


def test_no_private_cross_package_import():
    assert private_cross_package_imports() == []


def test_no_import_cycle():
    assert import_cycles() == []


def test_imports_run_one_way():
    assert upward_imports() == []


@pytest.mark.parametrize("source, expected", [
    ("from game_def import _core\n", "game_def._core"),
    ("from solver.mccfr._traversal import _payoff\n", "solver.mccfr._traversal"),
    ("def f():\n    from ..players import _kernels as ka\n", "solver.players._kernels"),
])
def test_the_checker_catches_a_private_import(tmp_path, monkeypatch, source, expected):
    """A planted private import (a function-local one too) is reported."""
    planted = ROOT / "solver" / "evaluation" / "_planted_for_test.py"
    monkeypatch.setitem(MODULES, "solver.evaluation._planted_for_test", planted)
    monkeypatch.setattr(Path, "read_text", _reader(planted, source, Path.read_text))
    found = [b for b in private_cross_package_imports() if "_planted_for_test" in b]
    assert len(found) == 1 and expected in found[0]


def test_the_checker_catches_a_cycle(monkeypatch):
    """A planted function-local import of the CFR module from the tree it iterates over
    closes a cycle (solver.exact.cfr imports solver.exact.tree)."""
    tree = MODULES["solver.exact.tree"]
    source = tree.read_text() + "\n\ndef planted():\n    from solver.exact.cfr import CFRSolver\n"
    monkeypatch.setattr(Path, "read_text", _reader(tree, source, Path.read_text))
    assert ["solver.exact.cfr", "solver.exact.tree"] in import_cycles()


def test_the_checker_catches_an_upward_import(monkeypatch):
    """A planted import of the trainer from the exact solver's job goes up a layer."""
    job = MODULES["solver.exact.job"]
    source = job.read_text() + "\nfrom solver.mccfr.trainer import MCCFRSolver\n"
    monkeypatch.setattr(Path, "read_text", _reader(job, source, Path.read_text))
    assert any("solver.mccfr.trainer" in b for b in upward_imports())


def _reader(planted: Path, source: str, original):
    def read_text(self, *args, **kwargs):
        return source if self == planted else original(self, *args, **kwargs)
    return read_text


# ----- the command line only parses, validates and prints -----------------------------
def kernel_imports_of_the_command_line() -> list[str]:
    """Imports by the `robinwood` package of a kernel module (a package's `kernels`
    interface, a private `_kernels`/`_core`) or of numba: the work a command runs is the
    library's, so a notebook can run it without the command line."""
    bad = []
    for module in MODULES:
        if not module.startswith("robinwood"):
            continue
        path = MODULES[module]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] == "numba" or any(p in ("kernels", "_kernels", "_core")
                                              for p in parts):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name}")
    return bad


def test_the_command_line_imports_no_kernel():
    assert kernel_imports_of_the_command_line() == []


def test_the_checker_catches_a_kernel_import_in_the_command_line(monkeypatch):
    """A planted import of the players' kernel interface in a command module is found."""
    cli = MODULES["robinwood.strength_commands"]
    source = cli.read_text() + "\n\ndef planted():\n    from solver.players import kernels\n"
    monkeypatch.setattr(Path, "read_text", _reader(cli, source, Path.read_text))
    assert any("solver.players.kernels" in b for b in kernel_imports_of_the_command_line())


# ----- module size --------------------------------------------------------------------
LONG_MODULE_LINES = 800
LONG_MODULE_REASON = "Over 800 lines because"


def long_modules_without_a_reason() -> list[str]:
    """Modules of the house over LONG_MODULE_LINES lines whose docstring does not say
    why (a sentence starting with LONG_MODULE_REASON): a module is one job, and a long
    one is either split or explained."""
    bad = []
    for module, path in MODULES.items():
        text = path.read_text()
        lines = text.count("\n")
        if lines > LONG_MODULE_LINES:
            doc = ast.get_docstring(ast.parse(text)) or ""
            if LONG_MODULE_REASON not in " ".join(doc.split()):
                bad.append(f"{path.relative_to(ROOT)}: {lines} lines, no reason given")
    return bad


def test_no_long_module_without_a_reason():
    assert long_modules_without_a_reason() == []


def test_the_checker_catches_a_long_module(monkeypatch):
    """A module padded past the limit, its docstring silent on why, is reported."""
    store = MODULES["solver.store"]
    source = store.read_text() + "\n" * (LONG_MODULE_LINES + 1)
    monkeypatch.setattr(Path, "read_text", _reader(store, source, Path.read_text))
    assert any("solver/store.py" in b for b in long_modules_without_a_reason())
