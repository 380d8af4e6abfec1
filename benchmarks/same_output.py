"""Does a change keep every output byte for byte? Builds the mission seeds and a 3,300-paper
corpus (NeurIPS 2013-2018 of ../shared/titled) at two revisions, cold and without the derive
cache, and compares docs/ and site/ file by file.

    .venv/bin/python -m benchmarks.same_output BEFORE [AFTER]     (AFTER: the working tree)

A refactor that moves code must print "identical"; anything else lists the files that differ.
"""
from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TITLED = REPO.parent / "shared" / "titled"


def _build(tree: Path, seeds: Path, out: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    for name in ("site", ".cache", "docs/map.json"):
        shutil.rmtree(tree / name, ignore_errors=True) if (tree / name).is_dir() else (tree / name).unlink(missing_ok=True)
    katex = REPO / "docs" / "assets" / "katex"
    if katex.is_dir() and not (tree / "docs" / "assets" / "katex").exists():
        shutil.copytree(katex, tree / "docs" / "assets" / "katex")
    py = sys.executable
    subprocess.run([py, "-m", "generator", "build", "--seeds", str(seeds), "--no-cache"], cwd=tree, env=env, check=True,
                   capture_output=True)
    subprocess.run([py, "-m", "generator", "site"], cwd=tree, env=env, check=True, capture_output=True)
    shutil.copytree(tree / "docs", out / "docs")
    shutil.copytree(tree / "site", out / "site")


def _differences(a: Path, b: Path) -> list[str]:
    out = []
    cmp = filecmp.dircmp(a, b)
    stack = [("", cmp)]
    while stack:
        rel, c = stack.pop()
        out += [f"only before: {rel}{n}" for n in c.left_only] + [f"only after: {rel}{n}" for n in c.right_only]
        _, mismatch, errors = filecmp.cmpfiles(c.left, c.right, c.common_files, shallow=False)
        out += [f"differs: {rel}{n}" for n in mismatch + errors]
        stack += [(f"{rel}{n}/", sub) for n, sub in c.subdirs.items()]
    return sorted(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after", nargs="?")
    args = ap.parse_args()
    if not TITLED.is_dir():
        print(f"the titled corpora are not at {TITLED}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        corpus = tmp / "neurips"
        for year in range(2013, 2019):
            shutil.copytree(TITLED / f"neurips{year}" / "seeds", corpus / f"neurips{year}")
        trees = {}
        for side, rev in (("before", args.before), ("after", args.after)):
            tree = tmp / f"tree-{side}"
            if rev:
                subprocess.run(["git", "worktree", "add", "-q", "--detach", str(tree), rev], cwd=REPO, check=True)
            else:
                shutil.copytree(REPO, tree, ignore=shutil.ignore_patterns(".venv", "node_modules", "site", ".cache"),
                                symlinks=True)
            trees[side] = tree
        try:
            found = []
            for name, seeds in (("mission", "seeds"), ("neurips", str(corpus))):
                for side, tree in trees.items():
                    _build(tree, Path(seeds) if name != "mission" else tree / "seeds", tmp / side / name)
                found += [f"{name}: {d}" for d in _differences(tmp / "before" / name, tmp / "after" / name)]
            files = sum(1 for p in (tmp / "after").rglob("*") if p.is_file())
        finally:
            for side, rev in (("before", args.before), ("after", args.after)):
                if rev:
                    subprocess.run(["git", "worktree", "remove", "--force", str(trees[side])], cwd=REPO, check=False)
    if found:
        print("\n".join(found[:200]))
        print(f"{len(found)} difference(s) in {files} file(s)")
        return 1
    print(f"identical: {files} file(s) of docs/ and site/ for the mission seeds and NeurIPS 2013-2018")
    return 0


if __name__ == "__main__":
    sys.exit(main())
