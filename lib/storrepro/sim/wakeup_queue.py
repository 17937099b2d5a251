"""The simulators' one wake-up primitive: a pending event that whoever waits shares, and a FIFO
queue built on it for one taker.

Both schedule fewer events than a ``simpy.Store`` (no put or get event per item): a put that
finds no taker waiting schedules nothing, and a woken taker resumes at the instant of the put.
"""

from __future__ import annotations

from collections import deque

import simpy


class Wakeup:
    """One pending wake-up event, made when someone first waits and fired by :meth:`notify`."""

    def __init__(self, env: simpy.Environment):
        self.env = env
        self._event: simpy.Event | None = None

    def wait(self) -> simpy.Event:
        """The event the next :meth:`notify` fires (the same one for every waiter until then)."""
        if self._event is None:
            self._event = self.env.event()
        return self._event

    def notify(self) -> None:
        """Fire the pending event, if anyone waits; the next wait gets a fresh one."""
        if self._event is not None:
            self._event.succeed()
            self._event = None


class WakeupQueue:
    """A FIFO of items for one taker process: ``item = yield from queue.get()``."""

    def __init__(self, env: simpy.Environment):
        self._items: deque = deque()
        self._wakeup = Wakeup(env)
        self._taking = False

    def put(self, item) -> None:
        """Append ``item`` and wake the taker if it waits on an empty queue."""
        self._items.append(item)
        self._wakeup.notify()

    def get(self):
        """A generator for ``yield from``: waits while the queue is empty, then returns the
        oldest item."""
        if not self._items:
            if self._taking:
                raise RuntimeError("WakeupQueue.get: another process already waits on this queue")
            self._taking = True
            yield self._wakeup.wait()
            self._taking = False
        return self._items.popleft()

    def __len__(self) -> int:
        return len(self._items)
