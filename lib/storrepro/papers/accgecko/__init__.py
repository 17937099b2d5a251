"""AccGecko (Leng, Jiang, Xiong, 2022): burst modelling, tail-latency prediction and SLO admission.

Modules: ``features`` (per-ms states, three burst dimensions), ``bursts`` (one-directional,
truncated DBSCAN), ``acctail`` (Algorithm 1 and the rate search), ``baselines`` (PriorityMeister,
SNC-Meister), ``priority_meister`` (the original PriorityMeister), ``mmp`` (the Markov-process
ablation, computed exactly), ``burst_queue`` (our per-ms queue predictor, not the paper's),
``admission`` (capacity check), ``pacer`` (one tenant's fixed-rate queue, replayed at any rate),
``workload`` (synthetic tenants, the Table 1 replicas, a real trace's tenants), ``reference`` (the
storage node in simpy), ``kernel`` (its fast path), ``experiment`` (the sweeps and analyses),
``claims`` (the claim rules), ``plots`` (the figures), ``bench`` and ``config`` (the notebook's
parameters).
"""
