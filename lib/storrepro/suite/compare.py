"""Check that a fresh run reproduced the committed ``results/*.json`` exactly.

CI runs ``make reproduce`` on a clean clone, then ``python -m storrepro check-results``: every
value of every committed result must come out identical, except the fields that describe the run
rather than its numbers (:data:`RUN_FIELDS`). A result that a run did not write proves nothing, so
the check first requires that the last run into the repository (its record,
:data:`LAST_RUN`, written by the runner) ran every compared notebook at the checkout's commit,
and that each result says so. Each claim stores a digest of its rule's inputs, so an input that
changed under an unchanged verdict shows up as a difference too.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from storrepro.suite.paths import git_commit, read_json, repo_root

#: The runner's record of the last run into the repository: its commit and the notebooks it ran.
LAST_RUN = "build/last-run.json"

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
            text = _git(root, "show", f"{ref}:{name}")
            try:
                out[Path(name).name] = json.loads(text)
            except json.JSONDecodeError as err:
                raise ValueError(f"{ref}:{name}: not a valid results file ({err})") from None
    return out


def record_run(root: Path, notebooks: list[str]) -> None:
    """Write :data:`LAST_RUN`: the commit and the notebooks of a run just published."""
    path = root / LAST_RUN
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"commit": git_commit(), "notebooks": sorted(notebooks)}) + "\n")


def freshness(name: str, fresh: dict, last_run: dict | None) -> list[str]:
    """Why result ``name`` does not prove a run of this checkout, if it does not."""
    notebook = name.removesuffix(".json")
    head = git_commit()
    if last_run is None:
        return [f"{name}: no run recorded ({LAST_RUN}); run make reproduce first"]
    if last_run["commit"] != head:
        return [f"{name}: the last run was at {last_run['commit']}, the checkout is at {head}"]
    if notebook not in last_run["notebooks"]:
        return [f"{name}: not run by the last make reproduce"]
    if fresh.get("git_commit") != head:
        return [f"{name}: written at {fresh.get('git_commit')}, not at {head}"]
    return []


def check_results(ref: str = "HEAD", results_dir: Path | None = None) -> list[str]:
    """Differences between the results committed at ``ref`` and those in ``results_dir``, and
    every result the last run did not write at the checkout's commit."""
    root = repo_root()
    results_dir = results_dir or root / "results"
    committed = committed_results(ref, root)
    if not committed:
        raise ValueError(f"no results/*.json committed at {ref!r}")
    record = root / LAST_RUN
    last_run = read_json(record) if record.exists() else None
    if last_run is not None and not (isinstance(last_run, dict) and isinstance(
            last_run.get("commit"), str) and isinstance(last_run.get("notebooks"), list)):
        raise ValueError(f"{record}: not the record of a run (a commit and its notebooks); "
                         "delete it and run make reproduce again")  # fmt: skip
    problems = []
    for name, old in sorted(committed.items()):
        path = results_dir / name
        if not path.exists():
            problems.append(f"{name}: not produced by the fresh run")
            continue
        fresh = read_json(path)
        problems += freshness(name, fresh, last_run)
        problems += [f"{name} {line}" for line in differences(old, fresh)]
    return problems


def moved(committed: dict, fresh: dict) -> list[str]:
    """What a run changed against the committed result of the same notebook, for a reader: the
    headline verdict, and each claim whose verdict or reproduced value moved, with both."""
    lines = []
    old_h, new_h = committed["headline"]["verdict"], fresh["headline"]["verdict"]
    if old_h != new_h:
        lines.append(f"headline: {old_h} -> {new_h}")
    old = {c["id"]: c for c in committed["claims"]}
    for c in fresh["claims"]:
        before = old.get(c["id"])
        if before is None:
            lines.append(f"{c['id']}: new claim, {c['verdict']} ({c['reproduced_value']})")
        elif (before["verdict"], before["reproduced_value"]) != (c["verdict"],
                                                                  c["reproduced_value"]):
            lines.append(
                f"{c['id']}: {before['verdict']} ({before['reproduced_value']}) -> "
                f"{c['verdict']} ({c['reproduced_value']})"
            )
    return lines


def moved_report(fresh: dict, root: Path | None = None) -> str:
    """:func:`moved` against the committed ``results/<notebook>.json``, as text to print."""
    path = (root or repo_root()) / "results" / f"{fresh['notebook']}.json"
    if not path.exists():
        return f"{fresh['notebook']}: no committed result to compare with"
    lines = moved(read_json(path), fresh)
    head = f"{fresh['notebook']} against the committed results"
    if not lines:
        return f"{head}: no verdict or reproduced value moved"
    return f"{head}, what moved (committed -> this run):\n" + "\n".join(
        f"  {line}" for line in lines)
