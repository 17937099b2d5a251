"""PaperTemplate's kernel and simpy model on a hand-worked case, and on random requests."""

import numpy as np
import pytest

from storrepro.papers.paper_template import kernel, reference
from storrepro.papers.paper_template.workload import requests


def test_both_give_the_hand_worked_response_times():
    # departures 2, 3, 4: the second waits 1, the third 1.5
    arrivals, service = np.array([0.0, 1.0, 1.5]), np.array([2.0, 1.0, 1.0])
    for model in (kernel, reference):
        assert model.response_times(arrivals, service) == pytest.approx([2.0, 2.0, 2.5])


def test_the_kernel_equals_the_simpy_model_on_random_requests():
    arrivals, service = requests(np.random.default_rng(1), 5_000, 0.8)
    assert np.allclose(kernel.response_times(arrivals, service),
                       reference.response_times(arrivals, service), rtol=0, atol=1e-9)


def test_a_load_outside_0_1_is_refused():
    with pytest.raises(ValueError, match=r"load = 1.0: expected a utilisation in \(0, 1\)"):
        requests(np.random.default_rng(0), 10, 1.0)
