"""Documented examples of the baselines, from R's base ``datasets`` package (not the CRAN
benchmark): ``forecast::findfrequency(USAccDeaths)`` is 12 and ``ar(lh)`` selects order 3 with
coefficients 0.6534, -0.0636, -0.2269 and sigma^2 0.1959 (R's ``?ar`` example).
"""

import numpy as np

#: Monthly US accidental deaths 1973–1978 (R ``datasets::USAccDeaths``).
USACCDEATHS = np.array(
    [
        9007, 8106, 8928, 9137, 10017, 10826, 11317, 10744, 9713, 9938, 9161, 8927,
        7750, 6981, 8038, 8422, 8714, 9512, 10120, 9823, 8743, 9129, 8710, 8680,
        8162, 7306, 8124, 7870, 9387, 9556, 10093, 9620, 8285, 8466, 8160, 8034,
        7717, 7461, 7767, 7925, 8623, 8945, 10078, 9179, 8037, 8488, 7874, 8647,
        7792, 6957, 7726, 8106, 8890, 9299, 10625, 9302, 8314, 8850, 8265, 8796,
        7836, 6892, 7791, 8192, 9115, 9434, 10484, 9827, 9110, 9070, 8633, 9240,
    ],
    dtype=float,
)  # fmt: skip

#: Luteinizing hormone, 48 samples at 10-minute intervals (R ``datasets::lh``).
LH = np.array(
    [
        2.4, 2.4, 2.4, 2.2, 2.1, 1.5, 2.3, 2.3, 2.5, 2.0, 1.9, 1.7, 2.2, 1.8, 3.2, 3.2,
        2.7, 2.2, 2.2, 1.9, 1.9, 1.8, 2.7, 3.0, 2.3, 2.0, 2.0, 2.9, 2.9, 2.7, 2.7, 2.3,
        2.6, 2.4, 1.8, 1.7, 1.5, 1.4, 2.1, 3.3, 3.5, 3.5, 3.1, 2.6, 2.1, 3.4, 3.0, 2.9,
    ]
)  # fmt: skip


def sazed_doc_sine() -> np.ndarray:
    """sazedR's documented example ``sin(1:400 * 2 * pi / 26)`` (season length 26)."""
    return np.sin(np.arange(1, 401) * 2 * np.pi / 26)
