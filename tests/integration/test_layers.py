"""The package's layers: no import cycles, no module importing a layer above it, and a saved
module loads without the code generators or IREE's compiler."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "ireesht"
# each layer may import only the layers before it (and itself)
LAYERS = [
    ("ireesht", "ireesht.validate", "ireesht.host"),
    ("ireesht.numerics",),
    ("ireesht.geometry", "ireesht.registry", "ireesht.plan", "ireesht.tables"),
    ("ireesht.codegen", "ireesht.runtime", "ireesht.interop", "ireesht.adjoint", "ireesht.lsq"),
    ("ireesht.api", "ireesht.bench", "ireesht.comparison", "ireesht.torch", "ireesht.jax",
     "ireesht.dask", "ireesht.xarray"),
    ("ireesht.cli", "ireesht.__main__"),
]


def _imports() -> dict[str, set[str]]:
    """Every ireesht module and the ireesht modules it imports anywhere (function-local
    imports included)."""
    mods: dict[str, set[str]] = {}
    for f in ROOT.rglob("*.py"):
        name = ".".join(f.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__")
        deps = set()
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                deps.add(node.module)
                deps.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
        mods[name] = deps
    return {m: {d for d in deps if d in mods and d != m} for m, deps in mods.items()}


def _layer(module: str) -> int:
    for i, prefixes in enumerate(LAYERS):
        if any(module == p or (p != "ireesht" and module.startswith(p + ".")) for p in prefixes):
            return i
    raise AssertionError(f"{module} is in no layer")


def test_no_module_imports_a_layer_above_it():
    graph = _imports()
    bad = [(m, d) for m, deps in graph.items() for d in deps
           if d != "ireesht" and _layer(d) > _layer(m)]
    assert not bad, bad


def test_no_import_cycles():
    graph = _imports()
    seen, path = set(), []

    def visit(m):
        if m in path:
            raise AssertionError(" -> ".join(path[path.index(m):] + [m]))
        if m in seen:
            return
        path.append(m)
        for d in sorted(graph[m]):
            visit(d)
        path.pop()
        seen.add(m)

    for m in sorted(graph):
        visit(m)


def test_loading_an_artifact_imports_no_code_generator_nor_the_compiler(tmp_path):
    import ireesht
    from ireesht import host

    out = ireesht.build(7, tmp_path / "a", targets=("cpu",),
                        cpu_baselines=(host.best_baseline(),))
    script = ("import sys, numpy as np, ireesht\n"
              "m = ireesht.load(sys.argv[1])\n"
              "m.synth(np.ones((1, m.plan.nlm), np.complex64))\n"
              "bad = [n for n in sys.modules if n.startswith(('ireesht.codegen', 'iree.compiler'))]\n"
              "assert not bad, bad\n")
    run = subprocess.run([sys.executable, "-c", script, str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT.parent) for p in ROOT.rglob("*.py")),
                         ids=str)
def test_no_module_is_over_600_lines(path):
    # one concept per module: the longest, numerics/reference.py, is one
    assert len((ROOT.parent / path).read_text().splitlines()) <= 600
