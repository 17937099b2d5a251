"""Check that a fresh run reproduced the committed ``results/*.json`` exactly.

CI runs ``make reproduce`` on a clean clone, then ``python -m storrepro check-results``: every
value of every committed result must come out identical, except the fields that describe the run
rather than its numbers (:data:`RUN_FIELDS`).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from storrepro.paths import repo_root

#: When and on what the run happened: allowed to differ between two runs of the same code.
RUN_FIELDS = frozenset({"started", "wall_seconds", "git_commit"})


def differences(committed, fresh, where: str = "") -> list[str]:
    """Every place where two JSON values differ, as ``"path: committed -> fresh"`` lines."""
    if isinstance(committed, dict) and isinstance(fresh, dict):
        out = []
        for key in sorted(set(committed) | set(fresh), key=str):
            if not where and key in RUN_FIELDS:
                continue
            path = f"{where}.{key}" if where else str(key)
            if key not in fresh:
                out.append(f"{path}: missing from the fresh run")
            elif key not in committed:
                out.append(f"{path}: new in the fresh run")
            else:
                out += differences(committed[key], fresh[key], path)
        return out
    if isinstance(committed, list) and isinstance(fresh, list):
        if len(committed) != len(fresh):
            return [f"{where}: {len(committed)} entries committed, {len(fresh)} fresh"]
        out = []
        for i, (a, b) in enumerate(zip(committed, fresh, strict=True)):
            label = a.get("id", i) if isinstance(a, dict) else i
            out += differences(a, b, f"{where}[{label}]")
        return out
    return [] if committed == fresh else [f"{where}: {committed!r} -> {fresh!r}"]


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    if done.returncode:
        raise ValueError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def committed_results(ref: str = "HEAD", root: Path | None = None) -> dict[str, dict]:
    """``results/*.json`` as committed at git ``ref``."""
    root = root or repo_root()
    out = {}
    for name in _git(root, "ls-tree", "--name-only", ref, "results/").split():
        if name.endswith(".json") and Path(name).name != "bench.json":
            out[Path(name).name] = json.loads(_git(root, "show", f"{ref}:{name}"))
    return out


def check_results(ref: str = "HEAD", results_dir: Path | None = None) -> list[str]:
    """Differences between the results committed at ``ref`` and those in ``results_dir``."""
    root = repo_root()
    results_dir = results_dir or root / "results"
    committed = committed_results(ref, root)
    if not committed:
        raise ValueError(f"no results/*.json committed at {ref!r}")
    problems = []
    for name, old in sorted(committed.items()):
        path = results_dir / name
        if not path.exists():
            problems.append(f"{name}: not produced by the fresh run")
            continue
        problems += [f"{name} {line}" for line in differences(old, json.loads(path.read_text()))]
    return problems
