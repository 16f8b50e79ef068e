"""The package's import graph keeps its layers: the compiled modules import
nothing of the Python API, the rest reaches them through one surface, and no
import runs in a circle.

The graph is read from the sources (every import, at module level or inside a
function): ``ast`` for Python, the import lines of ``.pyx``/``.pxd`` files.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "rook_core"
NATIVE = "rook_core._native"
# what the compiled modules may import of rook_core: each other, the errors
# and the generated constants
NATIVE_MAY_IMPORT = {"rook_core.errors", "rook_core._layout"}


def _module_of(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return any(base.with_suffix(s).exists() for s in (".py", ".pyx", ".pxd")) or (base / "__init__.py").exists()


def _resolve(current: str, is_pkg: bool, module: str | None, level: int, names: list[str]) -> set[str]:
    """The rook_core modules that ``from <level dots><module> import names`` reaches."""
    if level:
        parts = current.split(".")
        base = parts if is_pkg else parts[:-1]
        base = base[:len(base) - (level - 1)]
        target = ".".join(base + ([module] if module else []))
    else:
        target = module or ""
    if not target.startswith("rook_core"):
        return set()
    out = set()
    for n in names:
        sub = f"{target}.{n}"
        out.add(sub if _is_module(sub) else target)
    return out or {target}


_PYX_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+c?import[ \t]+(\([^)]*\)|[^\n]*)|c?import[ \t]+([\w.]+))",
                         re.M)


def _imports() -> dict[str, set[str]]:
    """Every rook_core module (Python and Cython) and the rook_core modules it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PKG.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd") or "__pycache__" in path.parts:
            continue
        name = _module_of(path)
        is_pkg = path.stem == "__init__"
        edges = graph.setdefault(name, set())
        text = path.read_text()
        if path.suffix == ".py":
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ImportFrom):
                    edges |= _resolve(name, is_pkg, node.module, node.level, [a.name for a in node.names])
                elif isinstance(node, ast.Import):
                    edges |= {a.name for a in node.names if a.name.startswith("rook_core")}
        else:
            for m in _PYX_IMPORT.finditer(text):
                if m.group(1):
                    listed = m.group(2).strip("() \t\n").split("#")[0]
                    names = [n.split(" as ")[0].strip() for n in listed.replace("\n", " ").split(",")
                             if n.strip()]
                    edges |= _resolve(name, is_pkg, m.group(1), 0, names)
                elif m.group(3).startswith("rook_core"):
                    edges.add(m.group(3))
        edges.discard(name)
    return graph


def test_compiled_modules_import_only_each_other_errors_and_generated_constants() -> None:
    bad = {f"{mod} -> {dep}" for mod, deps in _imports().items()
           if mod.startswith(NATIVE + ".") for dep in deps
           if not dep.startswith(NATIVE) and dep not in NATIVE_MAY_IMPORT}
    assert not bad, sorted(bad)


def test_only_the_native_surface_reaches_a_compiled_module() -> None:
    bad = {f"{mod} -> {dep}" for mod, deps in _imports().items()
           if not mod.startswith(NATIVE) for dep in deps if dep.startswith(NATIVE + ".")}
    assert not bad, sorted(bad)


def test_the_import_graph_has_no_circle() -> None:
    graph = _imports()
    # the package's face (rook_core/__init__) gathers the API for users; a
    # module inside the package that imported it would close a circle
    assert not {m for m, deps in graph.items() if "rook_core" in deps}, "a module imports the package face"
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if d not in graph:
                continue
            if state.get(d) == 1:
                cycle = path[path.index(d):] + [d]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if d not in state:
                visit(d)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


# The five layers of the package, from the ground up (docs/ARCHITECTURE.md).
# A module belongs to the layer of the longest name below that starts it; it
# may import its own layer and the layers beneath, never one above.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("_native", "_layout", "_html", "_version", "errors", "rng", "jsonio", "intervals", "_kernels")),
    ("rules", ("cards", "variant", "actions", "position", "observation", "hand", "game", "toonerville")),
    ("play", ("solver", "nest", "review", "odds", "text", "bots", "_reference", "toonerville.agents",
              "toonerville.playlog")),
    ("batch", ("sim", "rl")),
    ("apps", ("hosting", "analysis", "engine", "service", "demo", "flags", "cli", "__main__")),
)


def _layer_of(module: str) -> int | None:
    """The layer number of ``module`` (``rook_core.x.y``), None for the package face."""
    name = module.removeprefix("rook_core").removeprefix(".")
    best: tuple[int, int] | None = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (name == p or name.startswith(p + ".")) and (best is None or len(p) > best[0]):
                best = (len(p), i)
    return None if best is None else best[1]


def test_every_module_has_a_layer() -> None:
    missing = sorted(m for m in _imports() if m != "rook_core" and _layer_of(m) is None)
    assert not missing, f"modules on no layer of LAYERS: {missing}"


def test_no_import_climbs_to_a_higher_layer() -> None:
    bad = []
    for mod, deps in _imports().items():
        here = _layer_of(mod)
        if here is None:
            continue
        for dep in deps:
            there = _layer_of(dep)
            if there is not None and there > here:
                bad.append(f"{mod} ({LAYERS[here][0]}) -> {dep} ({LAYERS[there][0]})")
    assert not bad, sorted(bad)


def test_the_layer_map_reads_real_layers() -> None:
    """The map places modules where the design says (a map that put all on one layer would pass the check)."""
    assert [_layer_of(f"rook_core.{m}") for m in ("errors", "hand", "toonerville.game", "bots.pimc",
                                                    "toonerville.agents", "sim.toonerville", "cli")] \
        == [0, 1, 1, 2, 2, 3, 4]


def test_the_graph_reader_sees_the_imports_it_checks() -> None:
    """The checks above read real edges (a reader that saw none would pass them all)."""
    graph = _imports()
    assert "rook_core._native" in graph["rook_core.hand"]
    assert "rook_core._native.hand" in graph["rook_core._native"]
    assert "rook_core.errors" in graph["rook_core._native.hand"]
    assert "rook_core._native.rules" in graph["rook_core._native.hand"]


def test_no_source_file_is_over_800_lines() -> None:
    """One concept per file: a file that outgrows 800 lines is split by concept."""
    long = {}
    for folder in ("rook_core", "src", "tools", "bench", "tests"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".pyx", ".pxd", ".pyi", ".c", ".h") and "__pycache__" not in path.parts:
                n = len(path.read_text().splitlines())
                if n > 800:
                    long[str(path.relative_to(ROOT))] = n
    assert not long, long
