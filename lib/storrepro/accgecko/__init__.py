"""AccGecko (Leng, Jiang, Xiong, 2022): burst modelling, tail-latency prediction and SLO admission.

Modules: ``features`` (per-ms states, three burst dimensions), ``bursts`` (one-directional,
truncated DBSCAN), ``acctail`` (Algorithm 1 and the rate search), ``baselines`` (PriorityMeister,
SNC-Meister, MMP), ``admission`` (capacity check), ``workload`` (synthetic tenants and the Table 1
replicas), ``replay`` (fixed-rate pacer ground truth; vectorized), ``node`` (its simpy reference),
``experiment`` (the notebook's wiring) and ``config`` (the notebook's parameters).
"""
