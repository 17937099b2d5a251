"""The sets of scheduler runs the claims are judged on: one policy on every seed, the references,
the sensitivity variants, the pool scales and the runs under each reading."""

from __future__ import annotations

from storrepro.papers.vdi import workload as wl
from storrepro.papers.vdi.config import SystemParams
from storrepro.papers.vdi.experiment.runs import RunTask, run_policy

#: The pool-size factors of S6's "every pool" (×1 is the run itself).
POOL_FACTORS = (0.8, 1.2)


def scheduler_set(
    base_seed: int,
    seeds,
    system: SystemParams,
    books: list[dict],
    ramp: tuple[int, int],
    sweep_fn,
    pools: bool = True,
    fixed: dict | None = None,
    trace: wl.TraceInput | None = None,
) -> dict:
    """The runs S5–S7 and S9 are judged on, under one reading: per seed the fixed bucket with
    the frozen ``ramp``, the smart scheduler with the proposed forecast and with the oracle, and
    (with ``pools``) both at the pool factors of :data:`POOL_FACTORS`. ``fixed`` reuses fixed
    runs that do not depend on the reading (``{factor: [results]}``)."""
    seeds = list(seeds)
    factors = (1.0, *POOL_FACTORS) if pools else (1.0,)
    fixed = dict(fixed or {})
    tasks = []
    for factor in factors:
        if factor not in fixed:
            tasks += [
                RunTask(
                    base_seed,
                    i,
                    "fixed",
                    n_min=ramp[0],
                    n_agg=ramp[1],
                    pool_factor=factor,
                    system=system,
                    trace=trace,
                    pool_book=books[i]["proposed"],
                )
                for i in seeds
            ]
        tasks += [
            RunTask(
                base_seed,
                i,
                "smart",
                "proposed",
                pool_factor=factor,
                system=system,
                book=books[i]["proposed"],
                trace=trace,
                pool_book=books[i]["proposed"],
            )
            for i in seeds
        ]
    tasks += [
        RunTask(
            base_seed, i, "smart", "oracle", system=system, book=books[i]["oracle"], trace=trace,
            pool_book=books[i]["proposed"],
        )
        for i in seeds
    ]
    done = sweep_fn(run_policy, tasks, desc=f"runs ({system.pool_rule}, {system.spread})")
    out = {"fixed": {f: list(v) for f, v in fixed.items()}, "smart": {}, "oracle": []}
    for task, result in zip(tasks, done, strict=True):
        if task.policy == "fixed":
            out["fixed"].setdefault(task.pool_factor, []).append(result)
        elif task.forecast == "oracle":
            out["oracle"].append(result)
        else:
            out["smart"].setdefault(task.pool_factor, []).append(result)
    return out


def policy_runs(
    base_seed: int,
    seeds,
    policy: str,
    system: SystemParams,
    sweep_fn,
    *,
    ramp: tuple[int, int] = (8, 32),
    books: list[dict] | None = None,
    forecast: str = "proposed",
    trace: wl.TraceInput | None = None,
) -> list[dict]:
    """:func:`run_policy` of one policy on every seed (the smart one fed ``forecast``'s book)."""
    tasks = [
        RunTask(
            base_seed,
            i,
            policy,
            forecast,
            n_min=ramp[0],
            n_agg=ramp[1],
            system=system,
            book=books[i][forecast] if policy == "smart" else None,
            trace=trace,
        )
        for i in seeds
    ]
    return sweep_fn(run_policy, tasks, desc=policy if policy != "smart" else f"smart ({forecast})")


def reference_runs(
    base_seed: int, seeds, system: SystemParams, ramp, books: list[dict], sweep_fn, trace=None
) -> list[dict]:
    """The references beside the paper's two schemes: the work-conserving fixed bucket, the
    smart scheduler fed the oracle and ridge-ARIMA books, idle-only BG and inline BG."""
    tasks = (
        [
            RunTask(
                base_seed, i, "fixed-wc", n_min=ramp[0], n_agg=ramp[1], system=system, trace=trace
            )
            for i in seeds
        ]
        + [
            RunTask(base_seed, i, "smart", m, system=system, book=books[i][m], trace=trace)
            for m in ("oracle", "arima-ridge")
            for i in seeds
        ]
        + [
            RunTask(base_seed, i, p, system=system, trace=trace)
            for p in ("idle-only", "inline")
            for i in seeds
        ]
    )
    return sweep_fn(run_policy, tasks, desc="references")


#: The sensitivity variants of section 9: label -> the RunTask fields they change.
SENSITIVITY = {
    "pool × 0.8": {"pool_factor": 0.8},
    "pool × 1.2": {"pool_factor": 1.2},
    "idle nights": {"scaling": "peak"},
    "tick 60 s": {"tick_s": 60.0},
}


def _fixed_and_smart(
    base_seed: int, seeds, system: SystemParams, ramp, books: list[dict], sweep_fn, cases,
    desc: str, trace=None,
) -> dict[tuple, list[dict]]:
    """One sweep of the fixed bucket or the smart scheduler (the proposed forecast) on every
    seed for each ``(key, policy, fields)`` of ``cases``, ``fields`` the RunTask fields the case
    changes: ``{(key, policy): [results per seed]}``."""
    seeds = list(seeds)
    tasks = [
        RunTask(
            base_seed,
            i,
            p,
            n_min=ramp[0],
            n_agg=ramp[1],
            system=system,
            book=books[i]["proposed"] if p == "smart" else None,
            trace=trace,
            **fields,
        )
        for _, p, fields in cases
        for i in seeds
    ]
    done = iter(sweep_fn(run_policy, tasks, desc=desc))
    return {(key, p): [next(done) for _ in seeds] for key, p, _ in cases}


def sensitivity_runs(
    base_seed: int, seeds, system: SystemParams, ramp, books: list[dict], sweep_fn, trace=None
) -> dict[str, dict[str, list[dict]]]:
    """The fixed bucket and the smart scheduler of every seed under each variant of
    :data:`SENSITIVITY`: ``{variant: {policy: [results per seed]}}``."""
    cases = [(v, p, SENSITIVITY[v]) for v in SENSITIVITY for p in ("fixed", "smart")]
    runs = _fixed_and_smart(base_seed, seeds, system, ramp, books, sweep_fn, cases, "sensitivity",
                            trace)  # fmt: skip
    out: dict[str, dict[str, list[dict]]] = {v: {} for v in SENSITIVITY}
    for (v, p), results in runs.items():
        out[v][p] = results
    return out


#: The pool scales of S12 (our analysis of how S5 and S6 move with P).
POOL_SCALES = (0.8, 0.9, 1.0, 1.1, 1.2, 1.3)


def pool_scale_runs(
    base_seed: int, seeds, system: SystemParams, ramp, books: list[dict], sweep_fn, have: dict,
    trace=None,
) -> dict[float, dict[str, list[dict]]]:
    """The fixed bucket and the smart scheduler of every seed with P times each factor of
    :data:`POOL_SCALES`: ``{factor: {policy: [results per seed]}}``; ``have`` gives the runs
    already made (``{factor: {policy: results}}``), which are reused."""
    cases = [(f, p, {"pool_factor": f}) for f in POOL_SCALES for p in ("fixed", "smart")
             if p not in have.get(f, {})]  # fmt: skip
    runs = _fixed_and_smart(base_seed, seeds, system, ramp, books, sweep_fn, cases, "pool scales",
                            trace)  # fmt: skip
    out = {f: dict(have.get(f, {})) for f in POOL_SCALES}
    for (f, p), results in runs.items():
        out[f][p] = results
    return out


def reading_sets(
    base_seed: int,
    seeds,
    cfg_system_under,
    primary: dict,
    books: list[dict],
    ramp: tuple[int, int],
    sweep_fn,
    labels,
    pools: bool,
    trace=None,
) -> dict[str, dict]:
    """The runs each reading's S5–S7 and S9 are judged on: ``primary`` (``{"fixed": {factor:
    results}, "smart": {...}, "oracle": [...]}``) and, per alternative label, a
    :func:`scheduler_set` under ``cfg_system_under(label)``; the fixed bucket does not spread,
    so a spreading reading reuses its runs."""
    sets = {"primary": primary}
    for label in labels:
        system = cfg_system_under(label)
        fixed = primary["fixed"] if label.startswith("spread=") else None
        sets[label] = scheduler_set(
            base_seed, seeds, system, books, ramp, sweep_fn, pools=pools, fixed=fixed, trace=trace
        )
    return sets
