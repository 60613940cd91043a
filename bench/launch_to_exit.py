#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Launch to exit of one-shot sessions: runs each command in turn (rounds
interleaved, 0.3 s apart so that no run inherits another's kernel grace
period), REPEAT rounds, and prints per command the median, min and max in
ms, then each command's median over the first's.
Usage: launch_to_exit.py REPEAT LABEL=CMD-JSON... (CMD-JSON: a JSON list)"""
import json
import statistics
import subprocess
import sys
import time

repeat = int(sys.argv[1])
labels, cmds = [], []
for a in sys.argv[2:]:
    label, cmd = a.split("=", 1)
    labels.append(label)
    cmds.append(json.loads(cmd))
secs = [[] for _ in cmds]
for _ in range(repeat):
    for i, cmd in enumerate(cmds):
        time.sleep(0.3)
        t0 = time.monotonic()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        secs[i].append(time.monotonic() - t0)
        if r.returncode:
            sys.exit(f"{labels[i]}: exit status {r.returncode}")
meds = [statistics.median(s) * 1000 for s in secs]
for label, s, m in zip(labels, secs, meds):
    print(f"  {label:<10} {m:8.1f} ms  [{min(s) * 1000:.1f}-{max(s) * 1000:.1f}]")
for label, m in zip(labels[1:], meds[1:]):
    print(f"  {labels[0]}/{label}: {meds[0] / m:.1f}x ({label} {m / meds[0]:.3f} of {labels[0]})")
