"""The layout is the pipeline: layers that import only downwards, no import cycles, and one
declared list of what the generator writes."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from generator.core import outputs

REPO = Path(__file__).resolve().parents[1]


def test_the_layers_contract_of_pyproject_is_kept():
    """import-linter's layers contract (pyproject.toml): cli, then validate and serve, then
    pipeline, pages, site, derive, seeds and core; imports inside functions count too."""
    run = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--config", str(REPO / "pyproject.toml")],
                         cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 kept, 0 broken" in run.stdout


def _cycle(graph: grimp.ImportGraph) -> list[str] | None:
    """One import cycle among the generator's modules, or None."""
    modules = sorted(graph.modules)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.find_modules_directly_imported_by(m)):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in modules:
        if m not in state and (found := visit(m)):
            return found
    return None


def test_no_module_of_the_generator_imports_itself_through_others():
    graph = grimp.build_graph("generator", include_external_packages=False)
    found = _cycle(graph)
    assert found is None, " -> ".join(found)


def test_the_cycle_finder_finds_a_cycle(tmp_path, monkeypatch):
    """The check above can fail: two modules of a package that import each other inside functions."""
    pkg = tmp_path / "loop"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from loop import b\n")
    (pkg / "b.py").write_text("from loop.a import f\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = _cycle(grimp.build_graph("loop", include_external_packages=False, cache_dir=None))
    assert found is not None and set(found) == {"loop.a", "loop.b"}


def _gitignored_docs() -> set[str]:
    out = set()
    for line in (REPO / ".gitignore").read_text(encoding="utf-8").splitlines():
        if line.startswith("docs/") and not line.startswith("docs/assets/"):
            out.add(line.rstrip("/"))
    return out


def test_gitignore_lists_exactly_the_declared_outputs():
    assert _gitignored_docs() == set(outputs.paths("docs"))


def test_make_clean_removes_exactly_the_declared_outputs(tmp_path):
    """`make clean` asks generator.core.outputs what to remove, without the virtualenv's packages."""
    run = subprocess.run([sys.executable, "-m", "generator.core.outputs", "docs"], cwd=REPO, capture_output=True,
                         text=True, check=True)
    assert run.stdout.split() == outputs.paths("docs")
    assert "generator.core.outputs" in (REPO / "Makefile").read_text(encoding="utf-8")


@pytest.mark.parametrize("folder", ["core", "seeds", "derive", "pages", "site"])
def test_each_stage_folder_says_what_it_holds(folder):
    init = REPO / "generator" / folder / "__init__.py"
    assert init.read_text(encoding="utf-8").startswith('"""')


def test_every_import_of_the_generator_names_a_module_that_exists():
    """Imports inside functions run only when called: one naming a module that moved would
    fail in the middle of a build, not at start (and the layers contract cannot see it)."""
    import ast
    import importlib.util

    missing = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("generator"):
                if importlib.util.find_spec(node.module) is None:
                    missing.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.module}")
            elif isinstance(node, ast.ImportFrom) and node.level:
                missing.append(f"{path.relative_to(REPO)}:{node.lineno}: a relative import (write it absolute)")
    assert missing == []
