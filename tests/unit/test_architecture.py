"""ARCHITECTURE.md stays true: the paths and modules it names, and its import rules.

Every path and module file the text names exists; every module of the package is
named (by its path in the package, or a package by its folder); the table of layers
("may import") holds for every import of the package, but for the exceptions the text
lists, which are :data:`KNOWN` here (a fixed one must leave both); no import circle
runs at import time, but those in :data:`KNOWN_CIRCLES` (listed in the text too).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "pytest_converge"
TEXT = (REPO / "ARCHITECTURE.md").read_text()

#: Modules every layer may import.
LEAVES = {"errors", "storage", "_version"}
#: The package root: the public API (re-exports every layer) and the import set-up.
ROOT = {"__init__", "_plain_imports"}
#: Imports that break the table today, each listed in ARCHITECTURE.md: (importer, imported).
KNOWN = {
    ("analysis/source.py", "terraform/hcl.py"),
    ("analysis/hints.py", "inventory/catalogue.py"),
    ("analysis/leftovers.py", "inventory/catalogue.py"),
}
#: Run-time import circles today, each listed in ARCHITECTURE.md (a fixed one must leave both).
KNOWN_CIRCLES: set[frozenset[str]] = set()


def _quoted() -> list[str]:
    return re.findall(r"`([^`\s]+)`", TEXT)


def _modules() -> list[str]:
    """Every module file, as a path inside the package (``run/stack.py``)."""
    return sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py"))


def _exists(name: str) -> bool:
    """A path from the repository or the package, or a file or folder name in the package."""
    path = name.removeprefix("pytest_converge/")
    if (PACKAGE / path).exists() or (REPO / name).exists():
        return True
    folder = name.endswith("/")
    tail = name.rstrip("/")
    found = PACKAGE.rglob(tail.split("/")[-1])
    return any(str(p.relative_to(PACKAGE)).endswith(tail) and p.is_dir() == folder for p in found)


def test_every_path_and_module_file_it_names_exists() -> None:
    named = [
        q
        for q in _quoted()
        if ("<" not in q and "*" not in q and q.startswith("pytest_converge/"))
        or re.fullmatch(r"[\w./-]*\w\.py|[\w/-]+/", q)
    ]
    assert named, "the text names no paths: the pattern is wrong"
    missing = sorted({q for q in named if not _exists(q)})
    assert missing == []


def test_every_module_of_the_package_is_named() -> None:
    quoted = {q.removeprefix("pytest_converge/") for q in _quoted()}
    unnamed = []
    for module in _modules():
        if module in quoted:
            continue
        folder = module.rpartition("/")[0]
        if module.endswith("__init__.py") and folder and f"{folder}/" in quoted:
            continue  # a package is named by its folder
        unnamed.append(module)
    assert unnamed == []


def _allowed() -> dict[str, set[str]]:
    """The layers each layer may import, from the text's table."""
    rows = re.findall(r"^\| `(\w+)/` \| [^|]+ \| ([^|]+) \|$", TEXT, re.M)
    allowed: dict[str, set[str]] = {}
    order: list[str] = []
    for layer, may in rows:
        if "every layer above" in may:
            allowed[layer] = set(order)
        elif "every layer" in may:
            allowed[layer] = {*order, layer}
        else:
            allowed[layer] = set(re.findall(r"`(\w+)/`", may))
        order.append(layer)
    return allowed


def _module_path(dotted: str) -> str:
    """``pytest_converge.run.stack`` -> ``run/stack.py`` (a package: its ``__init__.py``)."""
    parts = dotted.split(".")[1:]
    path = PACKAGE.joinpath(*parts)
    if path.is_dir():
        return str((path / "__init__.py").relative_to(PACKAGE))
    return str(path.with_suffix(".py").relative_to(PACKAGE))


def _imports(module: str) -> list[tuple[str, bool]]:
    """What ``module`` imports of the package (as paths) and of pytest, each with whether
    it is imported inside a function; ``if TYPE_CHECKING:`` imports left out."""
    source = PACKAGE / module
    tree = ast.parse(source.read_text())
    package = ["pytest_converge", *Path(module).parent.parts]
    skipped: set[int] = set()
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for n in ast.walk(node)}
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            in_function |= {id(n) for n in ast.walk(node)}
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            head = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:  # a submodule imported by name, or a name of head
                sub = f"{head}.{alias.name}"
                is_module = sub.startswith("pytest_converge.") and (
                    PACKAGE.joinpath(*sub.split(".")[1:]).is_dir()
                    or PACKAGE.joinpath(*sub.split(".")[1:]).with_suffix(".py").exists()
                )
                names.append(sub if is_module else head)
        for name in names:
            if name == "pytest_converge" or name.startswith("pytest_converge."):
                found.append((_module_path(name), id(node) in in_function))
            elif name.split(".")[0] in {"pytest", "_pytest", "xdist"}:
                found.append(("pytest", id(node) in in_function))
    return found


def _layer(module: str) -> str:
    return module.split("/")[0].removesuffix(".py")


def test_the_import_table_holds() -> None:
    allowed = _allowed()
    assert set(allowed) >= {"analysis", "run", "plugin"}, "the table was not read"
    broken: set[tuple[str, str]] = set()
    late: list[tuple[str, str]] = []
    for module in _modules():
        layer = _layer(module)
        if layer in ROOT:
            continue
        for target, in_function in _imports(module):
            if in_function and target != "pytest":
                late.append((module, target))
            if target == "pytest":
                if layer != "plugin":
                    broken.add((module, target))
                continue
            to = _layer(target)
            if to == layer or to in LEAVES:
                continue
            if layer in LEAVES or to in ROOT or to not in allowed.get(layer, set()):
                broken.add((module, target))
    assert late == [], "a package import inside a function dodges a circle"
    assert broken - KNOWN == set(), "an import goes up ARCHITECTURE.md's table"
    assert KNOWN - broken == set(), "fixed: drop it from KNOWN and ARCHITECTURE.md"
    for module, target in KNOWN:
        assert f"`{module}`" in TEXT and (target == "pytest" or f"`{target}`" in TEXT)


def test_the_emulators_side_imports_nothing_else_of_the_package() -> None:
    """Loaded by path inside the moto (or MiniStack) process, where the package is not
    imported: MiniStack's fidelity layer reads moto's fidelity machinery, nothing else."""
    fidelity = {m for m in _modules() if m.startswith("emulator/fidelity/")}
    ministack = {m for m in _modules() if m.startswith("emulator/ministack_fidelity/")}
    server = {"emulator/moto_server.py", "emulator/moto_world.py", *fidelity}
    for module in sorted(server | ministack):
        allowed = server | ministack if module in ministack else server
        assert {t for t, _ in _imports(module)} - allowed == set(), module


#: What starts a process or opens a socket (or a connection) when imported and used.
_PROCESSES_AND_SOCKETS = {"subprocess", "multiprocessing", "socket", "socketserver", "http",
                          "urllib.request", "asyncio", "boto3", "botocore", "requests"}  # fmt: skip


def test_analysis_starts_no_process_and_opens_no_socket() -> None:
    for module in [m for m in _modules() if m.startswith("analysis/")]:
        tree = ast.parse((PACKAGE / module).read_text())
        named = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        named |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        found = {n for n in named if n in _PROCESSES_AND_SOCKETS or n.split(".")[0] in
                 _PROCESSES_AND_SOCKETS - {"urllib"}}  # fmt: skip
        assert found == set(), module


def _by_name(module: str) -> list[str]:
    """The package's modules ``module`` imports by name: in a module that calls
    ``importlib.import_module``, every string that names one
    (``"pytest_converge.plugin.html_plugin"``), wherever it is (a table, a call)."""
    tree = ast.parse((PACKAGE / module).read_text())
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    if not any(ast.unparse(c.func).endswith("import_module") for c in calls):
        return []
    names = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and re.fullmatch(r"pytest_converge(\.\w+)+", n.value)
    ]
    return [_module_path(name) for name in names if (PACKAGE / _module_path(name)).exists()]


def _run_time_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports when imported, as paths: every import outside a
    function and ``if TYPE_CHECKING:``, and every import by a literal name (a function
    that imports by name runs at run time too). A package is not an edge of its own
    modules (Python enters it first; its ``__init__`` importing them is no circle)."""
    return {
        module: {t for t, late in _imports(module) if not late and t != "pytest"}
        | set(_by_name(module))
        for module in _modules()
    }


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected parts of ``graph`` with more than one module, or a module
    that imports itself (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = set()
                    while True:
                        member = stack.pop()
                        part.add(member)
                        if member == node:
                            break
                    if len(part) > 1 or node in graph.get(node, ()):
                        found.append(frozenset(part))
    return found


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "d"}, "e": {"d"}, "f": set()}
    assert sorted(map(sorted, _circles(graph))) == [["a", "b", "c"], ["d"]]


def test_no_import_circle_at_run_time() -> None:
    graph = _run_time_graph()
    assert graph["plugin/pytest_plugin.py"] >= {"plugin/html_plugin.py"}, "by name: not read"
    circles = set(_circles(graph))
    assert circles - KNOWN_CIRCLES == set(), "an import circle (ARCHITECTURE.md: never)"
    assert KNOWN_CIRCLES - circles == set(), "fixed: drop it from KNOWN_CIRCLES and the text"
    for circle in KNOWN_CIRCLES:
        assert all(f"`{module}`" in TEXT for module in circle)
