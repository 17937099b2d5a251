"""Real block traces in, the papers' inputs out.

``formats``: what each supported trace format looks like and how its fields map onto one
request table; ``reader``: streaming, chunked reading with gzip, progress and errors naming the
file, line and field; ``summary``: ``trace info``; ``convert``: the per-paper inputs (AccGecko's
per-tenant 1 ms counts in 5-min segments, VDI's 10-minute foreground IOPS, PrecisePeriod's
per-segment traffic series, BID's per-process request streams).
"""
