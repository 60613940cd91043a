#!/bin/bash
# SPDX-License-Identifier: MIT
# make bench: every benchmark, each reporting ratios against a peer measured
# in the same run.
set -eu
cd "$(dirname "$0")/.."
for b in bench/disabled_cost.sh bench/collector.sh bench/stream.sh bench/serve.sh bench/scale.sh; do
	[ -x "$b" ] || continue
	echo "== $b"
	"$b"
	echo
done
