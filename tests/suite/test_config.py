import os

import numpy as np
import pytest

from storrepro.suite.config import NotebookConfig, Param, ParameterError, trace_params


class DemoConfig(NotebookConfig):
    notebook = "demo"
    paper = "Demo paper"
    params = {
        "customers": Param(int, 100, 10_000, "customers", low=10),
        "load": Param(float, 0.5, 0.8, "utilisation", low=0.05, high=0.95),
        "policy": Param(str, "fifo", "fifo", "policy", choices=("fifo", "lifo")),
        "warm": Param(bool, False, True, "warm start"),
    }


def test_profile_values_fill_none():
    quick = DemoConfig(profile="quick", seed=3)
    assert (quick.customers, quick.load, quick.policy, quick.warm) == (100, 0.5, "fifo", False)
    full = DemoConfig(profile="full", customers=None, load=0.6)
    assert (full.customers, full.load, full.warm, full.seed) == (10_000, 0.6, True, 0)
    assert full.as_dict() == {
        "profile": "full",
        "seed": 0,
        "customers": 10_000,
        "load": 0.6,
        "policy": "fifo",
        "warm": True,
    }
    assert "customers=10000" in repr(full)


def test_ints_are_accepted_for_floats_and_integral_floats_for_ints():
    cfg = DemoConfig(profile="quick", load=1 - 0.5, customers=1e3)
    assert cfg.customers == 1000 and isinstance(cfg.customers, int)
    assert isinstance(DemoConfig(load=0.5).load, float)
    assert DemoConfig(customers=np.int64(20), load=np.float64(0.5)).customers == 20
    assert type(DemoConfig(customers=np.int64(20)).customers) is int
    with pytest.raises(ParameterError, match=r"'customers' = 1e\+20: expected an int >= 10, got"):
        DemoConfig(customers=1e20)  # a float that large is no longer exact


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"customers": 5}, "parameter 'customers' = 5: expected an int >= 10"),
        ({"customers": 12.5}, "parameter 'customers' = 12.5: expected an int >= 10, got a float"),
        ({"customers": True}, "parameter 'customers' = True"),
        ({"load": 1.2}, "parameter 'load' = 1.2: expected a float >= 0.05 and <= 0.95"),
        ({"load": "high"}, "parameter 'load' = 'high'"),
        ({"policy": "random"}, "parameter 'policy' = 'random': expected one of 'fifo', 'lifo'"),
        ({"profile": "huge"}, "parameter 'profile' = 'huge': expected one of 'quick', 'full'"),
        ({"seed": -1}, "parameter 'seed' = -1: expected an int >= 0"),
        ({"custmers": 10}, "unknown parameter 'custmers' for demo; allowed: customers, load"),
    ],
)
def test_bad_values_name_parameter_value_and_what_is_allowed(kwargs, fragment):
    with pytest.raises(ParameterError) as err:
        DemoConfig(**kwargs)
    assert fragment in str(err.value)


def test_parse_overrides_turns_strings_into_checked_values():
    values = DemoConfig.parse_overrides(
        ["customers=1e4", "load=0.7", "policy=lifo", "warm=none", "seed=4"]
    )
    assert values == {"customers": 10_000, "load": 0.7, "policy": "lifo", "warm": None, "seed": 4}


@pytest.mark.parametrize(
    ("pair", "fragment"),
    [
        ("customers", "expected NAME=VALUE"),
        ("customers=many", "parameter 'customers' = 'many': expected an int >= 10"),
        ("customers=12.5", "parameter 'customers' = '12.5'"),
        ("warm=maybe", "parameter 'warm' = 'maybe': expected a bool"),
        ("profile=quick", "--profile"),
        ("speed=3", "unknown parameter 'speed' for demo"),
        ("load=nan", "parameter 'load' = nan: expected a finite number"),
        ("load=inf", "parameter 'load' = inf: expected a finite number"),
        ("customers=inf", "parameter 'customers' = 'inf'"),
        ("customers=4.0000000000000001e5", "parameter 'customers' = '4.0000000000000001e5'"),
        ("seed=1e-400", "parameter 'seed' = '1e-400': expected an int >= 0"),
        ("seed=-1", "parameter 'seed' = -1: expected an int >= 0"),
        ("seed=1e999999", "parameter 'seed' = '1e999999'"),
    ],
)
def test_parse_overrides_errors(pair, fragment):
    with pytest.raises(ParameterError) as err:
        DemoConfig.parse_overrides([pair])
    assert fragment in str(err.value)


def test_integers_are_parsed_exactly_and_seed_none_means_the_profile_seed():
    assert DemoConfig.parse_overrides(["seed=9007199254740993"]) == {"seed": 9007199254740993}
    assert DemoConfig.parse_overrides(["seed=1e20", "customers=4.5e5"]) == {
        "seed": 10**20, "customers": 450_000}  # fmt: skip
    assert DemoConfig.parse_overrides(["seed=4.0000000000000000e5"]) == {"seed": 400_000}
    assert DemoConfig(**DemoConfig.parse_overrides(["seed=none"])).seed == 0


def test_a_parameter_given_twice_is_refused():
    with pytest.raises(ParameterError, match="-p load is given twice"):
        DemoConfig.parse_overrides(["load=0.5", "load=0.6"])


def test_from_parameters_reads_every_declared_parameter_and_nothing_else():
    cell = {"profile": "quick", "seed": 2, "customers": None, "load": 0.7, "policy": "lifo"}
    cell |= {"warm": None, "plt": object(), "x": 1}  # the rest of a notebook's namespace
    cfg = DemoConfig.from_parameters(cell)
    assert (cfg.seed, cfg.customers, cfg.load, cfg.policy, cfg.warm) == (2, 100, 0.7, "lifo", False)


def test_from_parameters_names_a_parameter_the_cell_does_not_set():
    with pytest.raises(ParameterError, match="does not set load, warm"):
        DemoConfig.from_parameters({"profile": "quick", "seed": 0, "customers": 1, "policy": "x"})


class TraceConfig(NotebookConfig):
    notebook = "trace-demo"
    paper = "Demo paper"
    params = trace_params("the synthetic tenants")


def test_trace_parameters_default_to_the_stand_in_and_check_the_file(tmp_path):
    assert TraceConfig().input_description() == "synthetic stand-in"
    trace = tmp_path / "t.csv"
    trace.write_text("0,1,2\n")
    cfg = TraceConfig(trace=str(trace), trace_format="msr")
    assert cfg.input_description() == "trace t.csv (msr)"
    with pytest.raises(ParameterError, match=r"'trace' = '.*nope.csv': no such file \(.*\); path"):
        TraceConfig(trace=str(tmp_path / "nope.csv"))
    os.mkfifo(tmp_path / "fifo")
    for special in (tmp_path, tmp_path / "fifo", "/dev/zero"):
        with pytest.raises(ParameterError, match="not a regular file"):
            TraceConfig(trace=str(special))
    with pytest.raises(ParameterError, match="'trace_format' = 'pcap': expected one of"):
        TraceConfig(trace_format="pcap")
