"""Parameters of notebook 03 (smart background scheduling for VDI)."""

from __future__ import annotations

from storrepro.config import NotebookConfig, Param, ParameterError


class VdiConfig(NotebookConfig):
    notebook = "03_vdi_background"
    paper = (
        "M. Kachmar, D. Kaeli: A Smart Background Scheduler for Storage Systems, "
        "MASCOTS 2020 (arXiv 2006.01402)"
    )
    params = {
        "seeds": Param(
            int, 2, 5, "independent synthetic traces (seeds 0..seeds-1)", low=1, high=20
        ),
        "n_cores": Param(int, 64, 64, "datapath cores N", low=1, high=1024),
        "fg_iops_per_core": Param(float, 50.0, 50.0, "FG IOPS one core serves", low=1e-3),
        "bg_ops_per_core": Param(
            float, 20.0, 20.0, "BG debt blocks freed per core-second", low=1e-3
        ),
        "cap": Param(float, 0.95, 0.95, "dynamic bucket cap, fraction of the pool in (0, 1]"),
        "alpha": Param(float, 0.5, 0.5, "EWMA smoothing factor of the proposed forecaster"),
        "window_h": Param(float, 12.0, 12.0, "planner: window before a breach (h)", low=1, high=24),
        "horizon_h": Param(float, 24.0, 24.0, "planner: look-ahead (h)", low=1, high=24),
        "sensitivity": Param(bool, True, True, "run the sensitivity section"),
    }

    def validate(self) -> None:
        if not 0 < self.cap <= 1:
            raise ParameterError(f"parameter 'cap' = {self.cap!r}: expected a fraction in (0, 1]")
        if not 0 < self.alpha < 1:
            raise ParameterError(f"parameter 'alpha' = {self.alpha!r}: expected a value in (0, 1)")
        if self.window_h > self.horizon_h:
            raise ParameterError(
                f"parameter 'window_h' = {self.window_h!r}: must not exceed "
                f"horizon_h = {self.horizon_h!r}"
            )

    @property
    def system(self):
        """The :class:`~storrepro.vdi.experiment.SystemParams` of this run."""
        from storrepro.vdi.experiment import SystemParams  # heavy imports only when running

        return SystemParams(
            n_cores=self.n_cores,
            fg_iops_per_core=self.fg_iops_per_core,
            bg_blocks_per_core_s=self.bg_ops_per_core,
            cap=self.cap,
            horizon_s=3600.0 * self.horizon_h,
            window_s=3600.0 * self.window_h,
            alpha=self.alpha,
        )
