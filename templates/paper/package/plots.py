"""The notebook's figure: the response-time distribution against the closed form."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np


def response_ccdf(responses: np.ndarray, load: float):
    """P(response > t), simulated and in closed form (exponential of rate 1 - load)."""
    t = np.sort(responses)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogy(t, 1 - np.arange(t.size) / t.size, label="simulated")
    ax.semilogy(t, np.exp(-(1 - load) * t), "--", label="closed form")
    ax.set(xlabel="response time (service times)", ylabel="P(response > t)",
           title=f"One disk at load {load:g}")
    ax.legend()
    return fig
