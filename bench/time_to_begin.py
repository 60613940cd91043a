#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Launches a tracer whose program prints a line from BEGIN (which both
bpftrace and sidetrace run once every probe is attached), and reports the
seconds from launch to that line and the peak RSS (KiB) at that moment.
Usage: time_to_begin.py MARKER CMD..."""
import os
import signal
import subprocess
import sys
import time

marker, cmd = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
secs = None
for line in p.stdout:
    if marker in line:
        secs = time.monotonic() - t0
        break
rss = 0
try:
    with open(f"/proc/{p.pid}/status") as f:
        for l in f:
            if l.startswith("VmHWM:"):
                rss = int(l.split()[1])
except OSError:
    pass
p.send_signal(signal.SIGINT)
try:
    p.communicate(timeout=10)
except subprocess.TimeoutExpired:
    p.kill()
if secs is None:
    sys.exit(f"{cmd[0]}: BEGIN line never printed")
print(f"{secs:.4f} {rss}")
