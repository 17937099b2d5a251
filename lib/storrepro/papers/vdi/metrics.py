"""Measures of scheduler runs, from their summaries and tick logs: the summary table, the
invariants (S1, S2), the M/M/c latency SLO, the S9 dynamics, the agreement checks of S10 and
where the smart scheduler's violations come from (S5).
Plain numpy and pandas, so the claim rules can use them without loading the simulator."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from storrepro.papers.vdi.config import SystemParams

#: The latency SLO of the alternative violation rule: M/M/c mean response time (s).
LATENCY_SLO_S = 0.040


def summary_frame(results: list[dict]) -> pd.DataFrame:
    keep = [k for k in results[0] if k not in ("log", "cff", "w_dyn_pct")]
    return pd.DataFrame([{k: r.get(k) for k in keep} for r in results])


def per_seed_frame(results: list[dict]) -> pd.DataFrame:
    """Violation and queued % of each seed's run, indexed by seed."""
    return summary_frame(results).set_index("seed")[["violation_pct", "queued_pct"]]


def mean_violation(results: list[dict]) -> float:
    return float(np.mean([r["violation_pct"] for r in results]))


def invariants(result: dict, system: SystemParams, tick_s: float = 600.0) -> dict[str, bool]:
    """S1 and S2 on one run's tick log."""
    log = result["log"]
    n = system.n_cores
    c_fg, c_bg = log["c_fg"].to_numpy(), log["c_bg"].to_numpy()
    tol = 1e-9 * max(1.0, result["debt_added"])
    conservation = abs(result["debt_added"] - result["bg_served"] - result["final_debt"])
    return {
        "S1": bool(
            np.all(c_fg + c_bg == n)
            and np.all((c_fg >= 0) & (c_fg <= n))
            and np.all(log["debt"] >= 0)
            and np.all(
                log["fg_served_iops"]
                <= np.minimum(log["demand_iops"], c_fg * system.fg_iops_per_core) + 1e-9
            )
        ),
        "S2": bool(
            conservation <= tol
            and np.all(log["bg_served"] <= c_bg * system.bg_blocks_per_core_s * tick_s + 1e-6)
        ),
    }


def erlang_c_response(demand_iops, cores, per_core: float) -> np.ndarray:
    """M/M/c mean response time (s) per tick; inf where the cores cannot keep up.
    Erlang B by its recursion ``B_k = a·B_{k−1} / (k + a·B_{k−1})`` for all ticks at once."""
    lam = np.asarray(demand_iops, dtype=float)
    servers = np.asarray(cores, dtype=float).astype(int)
    out = np.full(lam.shape, np.inf)
    idle = lam <= 0
    out[idle] = 1 / per_core
    ok = ~idle & (servers >= 1) & (lam < servers * per_core)
    rate, c = lam[ok], servers[ok]
    a = rate / per_core
    blocking = np.ones(a.size)
    for k in range(1, int(c.max(initial=0)) + 1):
        blocking = np.where(k <= c, a * blocking / (k + a * blocking), blocking)
    wait_prob = blocking / (1 - (a / c) * (1 - blocking))
    out[ok] = wait_prob / (c * per_core - rate) + 1 / per_core
    return out


def latency_violation_pct(log: pd.DataFrame, per_core: float, slo_s: float) -> float:
    """% of ticks whose M/M/c mean response time exceeds ``slo_s`` (the latency
    alternative to a violation as a tick short of cores)."""
    response = erlang_c_response(log["demand_iops"], log["c_fg"], per_core)
    return float(100 * np.mean(response > slo_s))


def busy_weekday_ticks(times: pd.DatetimeIndex) -> np.ndarray:
    """Ticks of weekday (Mon–Fri) busy hours, 09:00–17:00."""
    return np.asarray((times.day_of_week < 5) & (times.hour >= 9) & (times.hour < 17))


def dynamics(fixed: dict, smart: dict, times: pd.DatetimeIndex, low: float, high: float) -> dict:
    """S9's measures on one seed's fixed and smart tick logs: the share of busy weekday ticks
    (09–17 h, after the fixed debt first reached ``low``) with the fixed debt in its band, the
    smart peak debt / P, and the nights (19:00 → 06:50) on which the smart debt drains."""
    log_f, log_s = fixed["log"], smart["log"]
    frac_f = ((log_f.debt + log_f.bg_served) / fixed["pool_blocks"]).to_numpy()
    started = np.arange(len(frac_f)) >= np.argmax(frac_f >= low)
    in_band = (frac_f >= low - 0.01) & (frac_f <= high + fixed["max_lump_pct"] / 100)
    sel = busy_weekday_ticks(times) & started
    band_share = float(in_band[sel].mean()) if sel.any() else 0.0
    frac_s = ((log_s.debt + log_s.bg_served) / smart["pool_blocks"]).to_numpy()
    night = np.asarray((times.hour == 6) & (times.minute == 50))
    evening = np.asarray((times.hour == 19) & (times.minute == 0))
    drains = int(np.sum(frac_s[night] < frac_s[evening]))
    return {
        "band_share": band_share,
        "smart_peak": float(frac_s.max()),
        "drains": drains,
        "nights": int(night.sum()),
    }


def agreement_pp(fluid: pd.DataFrame) -> float:
    """The largest simpy-vs-fast-path difference in violation or queued %, in pp."""
    return float(
        max(
            (fluid.simpy_violation_pct - fluid.fluid_violation_pct).abs().max(),
            (fluid.simpy_queued_pct - fluid.fluid_queued_pct).abs().max(),
        )
    )


def tick_shift_pp(sens: pd.DataFrame) -> float:
    """The largest change of a policy's mean violation % from the 600 s to the 60 s tick."""
    t60 = sens[sens.variant == "tick 60 s"].groupby("policy").violation_pct.mean()
    base = sens[sens.variant == "baseline"].groupby("policy").violation_pct.mean()
    return float((t60 - base).abs().max())


def violation_causes(result: Mapping, n_cores: int, fg_iops_per_core: float) -> dict[str, float]:
    """Where one smart run's violation bins come from, in pp of all bins: ``capacity`` (demand
    above N·CIOPS_FG: no policy avoids it), ``planner`` (the plan took FG cores, CFF > 0),
    ``emergency`` (the 95 % burn gave FG no core) and ``other``."""
    log = result["log"]
    violation = log["violation"].to_numpy(dtype=bool)
    demand = log["demand_iops"].to_numpy()
    cff = np.asarray(result.get("cff", np.zeros(len(log))))
    capacity = violation & (demand > n_cores * fg_iops_per_core)
    planner = violation & ~capacity & (cff > 0)
    emergency = violation & ~capacity & ~planner & (log["c_fg"].to_numpy() == 0)
    other = violation & ~capacity & ~planner & ~emergency
    n = len(log)
    return {k: 100.0 * float(v.sum()) / n for k, v in (
        ("capacity", capacity), ("planner", planner), ("emergency", emergency), ("other", other)
    )}
