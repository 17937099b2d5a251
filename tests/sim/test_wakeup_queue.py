"""The wake-up primitive: hand-worked event orders of a taker, a putter and shared waiters."""

import pytest
import simpy

from storrepro.sim.wakeup_queue import Wakeup, WakeupQueue


def _at(env, t, action):
    def process():
        yield env.timeout(t)
        action()

    env.process(process())


def test_a_taker_waits_on_an_empty_queue_and_resumes_at_the_put():
    # puts at 1 and 3 (two items); the taker needs 1.5 per item:
    # a (got at 1, done 2.5), b and c (put at 3, got at 3 and 4.5), then it waits for ever
    env = simpy.Environment()
    queue, got = WakeupQueue(env), []

    def taker():
        while True:
            item = yield from queue.get()
            got.append((env.now, item))
            yield env.timeout(1.5)

    env.process(taker())
    _at(env, 1, lambda: queue.put("a"))
    _at(env, 3, lambda: (queue.put("b"), queue.put("c")))
    env.run()
    assert got == [(1, "a"), (3, "b"), (4.5, "c")]
    assert len(queue) == 0


def test_items_put_before_the_taker_asks_are_taken_without_waiting():
    env = simpy.Environment()
    queue = WakeupQueue(env)
    for item in (1, 2, 3):
        queue.put(item)
    assert len(queue) == 3

    def taker():
        taken = []
        for _ in range(3):
            taken.append((yield from queue.get()))
        return taken, env.now

    assert env.run(env.process(taker())) == ([1, 2, 3], 0)
    assert len(queue) == 0


def test_a_woken_taker_runs_after_what_was_already_scheduled_at_that_instant():
    # at t=2 the putter puts, then a process already scheduled at 2 records; the taker, woken by
    # the put, resumes after it (its wake-up event is scheduled when the put happens)
    env = simpy.Environment()
    queue, order = WakeupQueue(env), []

    def taker():
        order.append(("took", (yield from queue.get()), env.now))

    env.process(taker())
    _at(env, 2, lambda: queue.put("x"))
    _at(env, 2, lambda: order.append(("other", None, env.now)))
    env.run()
    assert order == [("other", None, 2), ("took", "x", 2)]


def test_a_second_taker_is_a_clear_error():
    env = simpy.Environment()
    queue = WakeupQueue(env)

    def taker():
        yield from queue.get()

    env.process(taker())
    env.process(taker())
    with pytest.raises(RuntimeError, match="another process already waits"):
        env.run()


def test_every_waiter_shares_one_event_and_a_notify_without_waiters_does_nothing():
    env = simpy.Environment()
    wakeup, woken = Wakeup(env), []
    wakeup.notify()  # nobody waits: nothing is scheduled
    assert env.peek() == float("inf")

    def sleeper(name):
        yield wakeup.wait()
        woken.append((name, env.now))

    env.process(sleeper("a"))
    env.process(sleeper("b"))
    _at(env, 5, wakeup.notify)
    env.run()
    assert woken == [("a", 5), ("b", 5)]
    first = wakeup.wait()
    assert wakeup.wait() is first and not first.triggered  # a fresh event after a notify
