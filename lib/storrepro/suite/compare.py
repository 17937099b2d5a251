"""Check that a fresh run reproduced the committed ``results/*.json`` exactly.

CI runs ``make reproduce`` on a clean clone, then ``python -m storrepro check-results``: every
value of every committed result must come out identical, except the fields that describe the run
rather than its numbers (:data:`RUN_FIELDS`). A result that a run did not write proves nothing, so
the check first requires that the last run into the repository (its record,
:data:`LAST_RUN`, written by the runner) ran every compared notebook at the checkout's commit,
and that each result says so. Each claim stores a digest of its rule's inputs, so an input that
changed under an unchanged verdict shows up as a difference too.

A student's run is compared, for a reader, with a run of the same profile and seed at the
default parameters (:func:`moved_report`): the committed canonical run, or a baseline computed
once and cached in :data:`BASELINES`, so what moved is the student's change alone.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from storrepro.suite.paths import git_commit, repo_root
from storrepro.suite.result_shape import read_result

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
            out[Path(name).name] = _parse(_git(root, "show", f"{ref}:{name}"), f"{ref}:{name}")
    return out


def _parse(text: str, where, remedy: str = "a truncated or damaged file? run its notebook again"
           ) -> dict:  # fmt: skip
    """JSON as written (no value restored, so both sides compare alike); a file that is not
    JSON, a truncated one, is an error naming it, the line and ``remedy``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{where}, line {err.lineno}: not valid JSON ({err.msg}); {remedy}"
                         ) from None  # fmt: skip


def record_run(root: Path, notebooks: list[str]) -> None:
    """Write :data:`LAST_RUN`: the commit and the notebooks of a run just published."""
    path = root / LAST_RUN
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"commit": git_commit(), "notebooks": sorted(notebooks)}) + "\n",
                    encoding="utf-8")


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
    redo = "delete it and run make reproduce again"
    last_run = _parse(record.read_text(encoding="utf-8"), record, redo) if record.exists() else None
    if last_run is not None and not (isinstance(last_run, dict) and isinstance(
            last_run.get("commit"), str) and isinstance(last_run.get("notebooks"), list)):
        raise ValueError(f"{record}: not the record of a run (a commit and its notebooks); {redo}")
    problems = []
    for name, old in sorted(committed.items()):
        path = results_dir / name
        if not path.exists():
            problems.append(f"{name}: not produced by the fresh run")
            continue
        fresh = _parse(path.read_text(encoding="utf-8"), path)
        problems += freshness(name, fresh, last_run)
        problems += [f"{name} {line}" for line in differences(old, fresh)]
    return problems


def changes(before: dict, after: dict) -> dict[str, list[str]]:
    """What a run changed against another result of the same notebook, for a reader: the
    ``headline`` verdict (empty when it held), the claims whose ``verdicts`` moved (and new
    claims), and the claims whose ``values`` alone moved, each with both."""
    out = {"headline": [], "verdicts": [], "values": []}
    old_h, new_h = before["headline"]["verdict"], after["headline"]["verdict"]
    if old_h != new_h:
        out["headline"].append(f"headline: {old_h} -> {new_h}")
    old = {c["id"]: c for c in before["claims"]}
    for c in after["claims"]:
        was = old.get(c["id"])
        if was is None:
            out["verdicts"].append(
                f"{c['id']}: new claim, {c['verdict']} ({c['reproduced_value']})")
            continue
        line = (f"{c['id']}: {was['verdict']} ({was['reproduced_value']}) -> {c['verdict']} "
                f"({c['reproduced_value']})")
        if was["verdict"] != c["verdict"]:
            out["verdicts"].append(line)
        elif was["reproduced_value"] != c["reproduced_value"]:
            out["values"].append(line)
    return out


def moved(committed: dict, fresh: dict) -> list[str]:
    """Every line of :func:`changes`: the headline, the verdicts, then the values."""
    return [line for lines in changes(committed, fresh).values() for line in lines]


#: Where a baseline run is cached: the notebook at its default parameters, one folder per
#: profile and seed, computed once by ``python -m storrepro compare``.
BASELINES = "build/baselines"


def baseline_dir(profile: str, seed: int, root: Path | None = None) -> Path:
    return (root or repo_root()) / BASELINES / f"{profile}-seed{seed}"


def baseline_for(fresh: dict, root: Path | None = None,
                 against: Path | None = None) -> tuple[dict | None, str]:
    """The result to compare ``fresh`` with and what it is: the run in ``against`` when given;
    else a result of the same profile and seed at the default parameters — the committed one
    (the canonical run) or the cached baseline run (:func:`baseline_dir`); else the committed
    result, said to differ in profile or seed. ``(None, why)`` when there is none."""
    root = root or repo_root()
    name = f"{fresh['notebook']}.json"
    if against is not None:
        path = Path(against) / "results" / name
        return (read_result(path), f"the run in {against}") if path.exists() else (
            None, f"no result of {fresh['notebook']} in {against}")
    committed_path = root / "results" / name
    committed = read_result(committed_path) if committed_path.exists() else None
    same = (fresh["profile"], fresh["seed"])
    if committed is not None and (committed["profile"], committed["seed"]) == same:
        return committed, "the committed results"
    cached = baseline_dir(*same, root) / "results" / name
    if cached.exists():
        return _cached_baseline(cached), (f"the baseline of profile {same[0]}, seed {same[1]} "
                                          f"at the default parameters ({cached.parent.parent})")
    if committed is None:
        return None, f"no committed result of {fresh['notebook']} to compare with"
    differ = [f"{k} {committed[k]} (this run: {fresh[k]})" for k in ("profile", "seed")
              if committed[k] != fresh[k]]
    return committed, (
        f"the committed results, which ran at {' and '.join(differ)}, so what moved mixes your "
        f"change with that difference's effect (`python -m storrepro compare --out <this run's "
        f"folder>` computes the baseline of profile {same[0]}, seed {same[1]} once)")


def _cached_baseline(path: Path) -> dict:
    """A cached baseline's result; a damaged one is to be deleted, not run again by hand."""
    try:
        return read_result(path)
    except ValueError as err:
        said = str(err).removesuffix("run its notebook again")
        raise ValueError(f"{said}delete it: a cached baseline, which compare computes again"
                         ) from None  # fmt: skip


def needs_baseline(fresh: dict, root: Path | None = None) -> bool:
    """Whether neither the committed result nor a cached baseline ran at ``fresh``'s profile and
    seed with the default parameters."""
    root = root or repo_root()
    name = f"{fresh['notebook']}.json"
    committed = root / "results" / name
    if committed.exists():
        ran = read_result(committed)
        if (ran["profile"], ran["seed"]) == (fresh["profile"], fresh["seed"]):
            return False
    return not (baseline_dir(fresh["profile"], fresh["seed"], root) / "results" / name).exists()


def moved_report(fresh: dict, root: Path | None = None, against: Path | None = None,
                 values: bool = False) -> str:
    """What ``fresh`` moved against :func:`baseline_for`, as text: the headline first, the
    claims whose verdicts moved next, and the claims whose values alone moved folded into one
    line of ids (each with both values when ``values``)."""
    before, what = baseline_for(fresh, root, against)
    if before is None:
        return f"{fresh['notebook']}: {what}"
    found = changes(before, fresh)
    head = f"{fresh['notebook']} against {what}"
    if not any(found.values()):
        return f"{head}: no verdict or reproduced value moved"
    lines = [f"{head}, what moved (before -> this run):"]
    lines += [f"  {x}" for x in found["headline"]] or [
        f"  headline: {fresh['headline']['verdict']}, unchanged"]
    if found["verdicts"]:
        lines.append(f"  verdicts that moved ({len(found['verdicts'])}):")
        lines += [f"    {x}" for x in found["verdicts"]]
    if found["values"] and values:
        lines.append(f"  values that moved, verdict unchanged ({len(found['values'])}):")
        lines += [f"    {x}" for x in found["values"]]
    elif found["values"]:
        ids = ", ".join(x.split(":", 1)[0] for x in found["values"])
        lines.append(f"  values that moved, verdict unchanged ({len(found['values'])}): {ids} "
                     "(`python -m storrepro compare --values` lists them)")
    return "\n".join(lines)
