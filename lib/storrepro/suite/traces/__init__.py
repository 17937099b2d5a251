"""Real block traces in, the papers' inputs out.

``formats``: what each supported trace format looks like and how its fields map onto one
request table; ``reader``: streaming, chunked reading with gzip, progress and errors naming the
file, line and field; ``summary``: ``trace info``; ``convert``: the shared parts of the per-paper
inputs (requests per bin, rates per interval) and
:class:`~storrepro.suite.traces.convert.Conversion`, in which each paper's package declares its own
``trace convert --to``; ``needs``: what a notebook needs from a trace, and the part of it a run
reads; ``samples``: small seeded traces in the public formats, from which each paper's package
declares the one the tests run it on.
"""
