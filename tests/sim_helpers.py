"""What the device tests share: a fresh simpy run of one device on a list of timed requests."""

import simpy


def run_device(device_class, arrivals, **kwargs):
    """Submit (time, request) pairs to a fresh ``device_class(env, **kwargs)``; return the device
    after the run."""
    env = simpy.Environment()
    device = device_class(env, **kwargs)

    def source():
        for t, request in arrivals:
            yield env.timeout(t - env.now)
            device.submit(request)

    env.process(source())
    env.run()
    return device
