"""The numbers do not depend on the machine's time zone or locale: the VDI trace generator (the
one model built on calendar time) and a trace's conversion come out bit for bit the same under
UTC and a C locale as under a time zone 13¾ hours away with a C locale stripped of UTF-8."""

import os
import subprocess
import sys

from storrepro.suite.paths import repo_root

SCRIPT = """import hashlib, sys
import numpy as np
from storrepro.papers.vdi.workload import TraceConfig, generate_trace, vdi_foreground
trace = generate_trace(TraceConfig(), np.random.default_rng(3))
digest = hashlib.sha256(trace.to_csv().encode())
digest.update(repr(vdi_foreground(sys.argv[1], progress=False)).encode())
print(digest.hexdigest())
import time
print(time.strftime("%z", time.localtime(0)))  # the time zone did take effect
"""

MSR = ("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
       + "".join(f"{128166372003061629 + i * 37_000_000},web,0,Read,0,512,1\n" for i in range(500)))


def test_time_zone_and_locale_change_no_number(tmp_path):
    trace = tmp_path / "msr.csv"
    trace.write_text(MSR)
    digests, zones = set(), set()
    for tz, lc, utf8 in [("UTC", "C.UTF-8", "1"), ("Pacific/Chatham", "C", "0"),
                         ("America/St_Johns", "POSIX", "1")]:  # fmt: skip
        env = {**os.environ, "TZ": tz, "LC_ALL": lc, "PYTHONUTF8": utf8,
               "PYTHONCOERCECLOCALE": utf8, "PYTHONPATH": str(repo_root() / "lib")}  # fmt: skip
        done = subprocess.run([sys.executable, "-c", SCRIPT, str(trace)], capture_output=True,
                              text=True, env=env, timeout=300)  # fmt: skip
        assert done.returncode == 0, done.stderr
        digest, zone = done.stdout.split()
        digests.add(digest)
        zones.add(zone)
    assert len(digests) == 1 and len(zones) == 3
