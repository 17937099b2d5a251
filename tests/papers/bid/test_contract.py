"""One contract for every BID-paper scheduler (Noop, Deadline, CFQ, BID-HDD, BID-Hybrid) and for
each kernel twin (all but Deadline, which only the toy example uses): the same interface, the
same answer twice, a clear error for a bad option, empty and one-request input, the toy
example's dispatch orders (the paper's Table 1) worked by hand, and kernel ≡ Python."""

import math

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.bid import (
    BIDHDD,
    CFQ,
    BIDHybrid,
    BlockRequest,
    Deadline,
    Noop,
    make_scheduler,
    toy,
)
from storrepro.papers.bid.experiment import simulate

#: name -> (class, the toy's options, a bad option, the toy's dispatch order by hand). Toy options:
#: no merging (the paper lists all 12 requests)
#: and BID's dispatch queue of depth 1 (flushed queues in marking order, as Figs 8 and 9 draw).
MEMBERS = {
    "Noop": (
        Noop,
        {"merge": False},
        {"max_sectors": 0},
        # submission order: every request at its index, none merged
        "B1 A1 A2 A3 C1 B2 B3 A4 A5 A6 C2 B4",
    ),
    "Deadline": (
        Deadline,
        {},
        {"read_expire": -5.0},
        # expired requests first (FIFO), then the sorted batch from where the head is
        "B1 A1 A2 A3 C1 A4 A5 A6 B2 B3 C2 B4",
    ),
    "CFQ": (
        CFQ,
        {"quantum": 2, "merge": False},
        {"quantum": 0},
        # two requests per process per round, each round by LBA: A1 A2 | C1 | B1 B2, ...
        "A1 A2 C1 B1 B2 A3 A4 C2 B3 B4 A5 A6",
    ),
    "BID-HDD": (
        BIDHDD,
        {"sq_merge": False, "dq_depth": 1},
        {"dq_depth": 0},
        # each process's staging queue flushed whole, in LBA order: A's, then C's, then B's
        "A1 A2 A3 A4 A5 A6 C1 C2 B1 B2 B3 B4",
    ),
    "BID-Hybrid": (
        BIDHybrid,
        {"pf_threshold": toy.TOY_PF_THRESHOLD, "sq_merge": False, "dq_depth": 1},
        {"pf_threshold": math.inf},
        # as BID-HDD with C's writes (packing fraction 4 sectors < 8) sent to the SSD instead
        "A1 A2 A3 A4 A5 A6 B1 B2 B3 B4",
    ),
}
#: The toy figure each member's order is taken from (the timing its figure implies).
TOY_ORDER = {
    "Noop": "Noop",
    "Deadline": "Deadline",
    "CFQ": "CFQ (q=2)",
    "BID-HDD": "BID-HDD",
    "BID-Hybrid": "BID-Hybrid (HDD part)",
}
#: Each kernel twin by the factory name :func:`storrepro.papers.bid.make_scheduler` knows.
KERNEL_TWINS = {"Noop": "noop", "CFQ": "cfq-q2", "BID-HDD": "bid-hdd", "BID-Hybrid": "bid-hybrid"}


def fresh(member):
    cls, options, _, _ = MEMBERS[member]
    return cls(**options)


def drain(scheduler, now=0.0):
    """Everything the scheduler dispatches, advancing time to its timers when it holds back."""
    out = []
    while True:
        request = scheduler.next(now)
        if request is None:
            wake = getattr(scheduler, "next_wakeup", lambda t: None)(now)
            if wake is None:
                return out
            now = wake
            continue
        out.append(request)


def names(order):
    return " ".join(toy.request_name(r) for r in order)


@pytest.mark.parametrize("member", MEMBERS)
def test_interface(member):
    scheduler = fresh(member)
    for method in ("add", "next"):
        assert callable(getattr(scheduler, method))
    assert len(scheduler) == 0
    wakeup = getattr(scheduler, "next_wakeup", None)
    assert wakeup is None or wakeup(0.0) is None  # nothing queued, nothing to wait for


@pytest.mark.parametrize("member", MEMBERS)
def test_empty_and_one_request(member):
    scheduler = fresh(member)
    assert scheduler.next(0.0) is None
    request = BlockRequest(1000, 8, "R", 1, 0.0, [0])
    scheduler.add(request, 0.0)
    assert len(scheduler) == 1
    assert drain(scheduler) == [request]  # the same object: nothing split or copied
    assert len(scheduler) == 0 and scheduler.next(1e9) is None


@pytest.mark.parametrize("member", MEMBERS)
def test_toy_example_order_by_hand(member):
    order = toy.toy_orders()[TOY_ORDER[member]]
    assert names(order) == MEMBERS[member][3]


@pytest.mark.parametrize("member", MEMBERS)
def test_deterministic(member):
    def dispatched():
        out = toy.replay(fresh(member), toy.toy_requests(c_writes=True, arrival=toy.every_ms))
        orders = out if isinstance(out, tuple) else (out,)  # BID-Hybrid: (HDD, SSD)
        return [[(r.lba, r.size, r.op, r.pid) for r in order] for order in orders]

    first = dispatched()
    assert first == dispatched() and sum(map(len, first)) == 12


@pytest.mark.parametrize("member", MEMBERS)
def test_bad_option_names_the_parameter(member):
    cls, _, bad, _ = MEMBERS[member]
    ((name, value),) = bad.items()
    with pytest.raises(ValueError, match=name) as error:
        cls(**bad)
    assert repr(value) in str(error.value) or str(value) in str(error.value)
    with pytest.raises(TypeError, match="colour"):
        cls(colour="blue")


# -- the kernel twins ---------------------------------------------------------------------
def small_trace():
    """Three processes: two interleaved contiguous read streams and scattered writes."""
    rows = []
    for i in range(60):
        rows.append((0.05 * i, 1, "R", 1_000_000 + 256 * i, 256))
        rows.append((0.05 * i + 0.01, 2, "R", 90_000_000 + 256 * i, 256))
        if i % 6 == 0:
            rows.append((0.05 * i + 0.02, 3, "W", 40_000_000 + 9_999 * i, 8))
    return pd.DataFrame(rows, columns=["ts", "pid", "op", "lba", "size"])


def _both(name, trace, **options):
    return [simulate(trace, make_scheduler(name, **options), engine=e) for e in ("kernel", "simpy")]


@pytest.mark.parametrize("member", KERNEL_TWINS)
def test_kernel_equals_python_on_a_small_trace(member):
    fast, ref = _both(KERNEL_TWINS[member], small_trace())
    pd.testing.assert_frame_equal(fast.requests, ref.requests, check_exact=True)
    np.testing.assert_array_equal(fast.event_completion, ref.event_completion)
    assert fast.leftover == ref.leftover == 0
    assert len(fast.requests) > 0


@pytest.mark.parametrize("member", KERNEL_TWINS)
@pytest.mark.parametrize("events", [0, 1])
def test_kernel_empty_and_one_event(member, events):
    trace = small_trace().iloc[:events]
    fast, ref = _both(KERNEL_TWINS[member], trace)
    assert len(fast.requests) == len(ref.requests) == events
    # the same values; only simpy's integer clock at 0 and its empty log's dtypes differ
    pd.testing.assert_frame_equal(fast.requests, ref.requests, check_exact=True, check_dtype=False)


@pytest.mark.parametrize("member", KERNEL_TWINS)
def test_kernel_deterministic(member):
    runs = [simulate(small_trace(), make_scheduler(KERNEL_TWINS[member])) for _ in range(2)]
    pd.testing.assert_frame_equal(runs[0].requests, runs[1].requests, check_exact=True)


@pytest.mark.parametrize("member", KERNEL_TWINS)
@pytest.mark.parametrize(
    "kwargs, name", [({"rq_limit": 0}, "rq_limit"), ({"mode": "closed"}, "mode")]
)
def test_kernel_bad_input_names_the_parameter(member, kwargs, name):
    with pytest.raises(ValueError, match=name):
        simulate(small_trace(), make_scheduler(KERNEL_TWINS[member]), **kwargs)
    bad = small_trace().assign(size=0)
    with pytest.raises(ValueError, match="size"):
        simulate(bad, make_scheduler(KERNEL_TWINS[member]))
